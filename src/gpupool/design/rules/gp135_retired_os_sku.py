"""GP135 retired-os-sku: the OS SKU is retired by AKS (or retires within 90 days).

What it checks: `spec.osSku` against the retirement date the catalog records (`retired` in
`os_skus.yaml`), judged on today's date: Azure Linux 2.0 under its old names (`CBLMariner`,
`Mariner`; support ended 2025-11-30), `WindowsAnnual` (2026-05-15), `Flatcar` (2026-06-08),
`Windows2019` (2026-03-01), `Windows2022` (retires 2028-06-30). On or after the date the finding is an
error; within 90 days before it a warning naming the date; earlier, nothing.

Why: from the retirement date AKS creates no new node pools with the OS SKU ("Node pools running
Kubernetes version 1.33+ can't use Windows Server 2019"); later AKS removes the node images (Azure Linux
2.0 from 2026-03-31, Windows Server 2019 on 2027-04-01, Annual Channel on 2027-05-15), and scaling
existing pools fails.

Fix: use `osSku: AzureLinux3` or `Ubuntu` for Azure Linux 2.0 and Flatcar; `Windows2022`
(Kubernetes 1.23-1.36) or `Windows2025` (1.32 and newer) for the Windows SKUs.

Source: MicrosoftDocs/azure-aks-docs articles/aks/upgrade-os-version.md (Azure Linux 2.0),
includes/windows-server-2019-retirement.md (ms.date 2026-01-14, commit fb060abe6a8f), Azure/AKS#4091;
Azure/AKS CHANGELOG @8d1c8909 (Windows Server 2022 retires 2028-06-30, Azure/AKS#4168; Annual Channel
retired 2026-05-15; Flatcar retired 2026-06-08); as of 2026-12-03. "Today" is the UTC date, or
`GPUPOOL_TODAY` when set.

Failing example:

    spec:
      osSku: CBLMariner

Passing example:

    spec:
      osSku: AzureLinux3
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog import RETIREMENT_WARNING_DAYS
from gpupool.catalog.aks import today
from gpupool.design.rules._common import other_os_skus
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP135"
NAME = "retired-os-sku"
SEVERITY = Severity.ERROR
SUMMARY = "Retired OS SKU (Azure Linux 2.0, Flatcar, WindowsAnnual, Windows2019); warning 90 days ahead"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if os_ is None or not os_.retired:
        return
    date = dt.date.fromisoformat(os_.retired)
    others = other_os_skus(pool, os_.name)
    fix = f"use osSku: {' or '.join(others)}" if others else "use a supported OS SKU"
    on = today()
    if on >= date:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"osSku {os_.name} was retired by AKS on {os_.retired}: no new node pools use it",
            at=("osSku",),
            fix=fix,
            retired=os_.retired,
            source=os_.source,
        )
    elif (date - on).days <= RETIREMENT_WARNING_DAYS:
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"osSku {os_.name} retires on {os_.retired} (in {(date - on).days} days): AKS creates no pools "
            "with it then",
            at=("osSku",),
            fix=fix,
            retired=os_.retired,
            source=os_.source,
        )
