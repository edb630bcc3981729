"""GP135 retired-os-sku: the OS SKU is retired by AKS (or retires soon).

What it checks: ``spec.osSku`` against the retirement date the catalog records (``retired`` in
``os_skus.yaml``): Windows Server 2019 (``Windows2019``) retired on 2026-03-01; Windows Server 2022
(``Windows2022``) retires on 2028-06-30. On or after the date the finding is an error; before it, info
with the date.

Why: from the retirement date AKS creates no new node pools with the OS SKU ("Node pools running
Kubernetes version 1.33+ can't use Windows Server 2019"); on 2027-04-01 AKS removes the node images,
and scaling existing pools fails.

Fix: use ``osSku: Windows2022`` (Kubernetes 1.23-1.36) or ``Windows2025`` (1.32 and newer).

Source: MicrosoftDocs/azure-aks-docs articles/aks/includes/windows-server-2019-retirement.md
(ms.date 2026-01-14, commit fb060abe6a8f), Azure/AKS#4091; Azure/AKS CHANGELOG 2026-06-19 (Windows
Server 2022 retires 2028-06-30, Azure/AKS#4168) @8d1c8909; as of 2026-08-21. "Today" is the UTC date,
or ``GPUPOOL_TODAY`` when set.

Failing example::

    spec:
      osSku: Windows2019

Passing example::

    spec:
      osSku: Windows2022
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import today
from gpupool.design.rules._common import other_os_skus
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP135"
NAME = "retired-os-sku"
SEVERITY = Severity.ERROR
SUMMARY = "OS SKU retired by AKS (no new node pools)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if os_ is None or not os_.retired:
        return
    date = dt.date.fromisoformat(os_.retired)
    others = other_os_skus(pool, os_.name)
    fix = f"use osSku: {' or '.join(others)}" if others else "use a supported OS SKU"
    if today() >= date:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"osSku {os_.name} was retired by AKS on {os_.retired}: no new node pools use it",
            at=("osSku",),
            fix=fix,
            retired=os_.retired,
            source=os_.source,
        )
    else:
        yield ctx.finding(
            ID,
            Severity.INFO,
            f"osSku {os_.name} retires on {os_.retired}: AKS creates no pools with it then",
            at=("osSku",),
            fix=fix,
            retired=os_.retired,
            source=os_.source,
        )

