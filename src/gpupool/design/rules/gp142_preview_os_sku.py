"""GP142 preview-os-sku: the OS SKU is a preview on AKS.

What it checks: `spec.osSku` that the catalog marks `preview` (`Ubuntu2604`: Ubuntu 26.04, Kubernetes
1.36 and newer). On a GPU pool GP121 reports the error (no GPU sizes); this rule covers every pool.

Why: a preview OS SKU needs a feature registration (`Ubuntu2604Preview`) and the aks-preview extension
(>= 21.0.0b14), has no SLA, and may change or go away before GA. A documented preview: a warning.

Fix: use `osSku: Ubuntu` (AKS picks the Ubuntu release for the Kubernetes version) or `Ubuntu2404`;
or register the feature and accept the preview.

Source: Azure/AKS CHANGELOG 2026-08-07 @8d1c8909 and Azure/AKS#5905 (Ubuntu 26.04 preview, GPU sizes not
supported); as of 2026-12-03.

Failing example:

    kind: NodePool
    spec:
      vmSize: Standard_D4s_v5
      osSku: Ubuntu2604

Passing example:

    kind: NodePool
    spec:
      vmSize: Standard_D4s_v5
      osSku: Ubuntu2404
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP142"
NAME = "preview-os-sku"
SEVERITY = Severity.WARNING
SUMMARY = "OS SKU that AKS offers as a preview only (Ubuntu2604)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if os_ is None or not os_.preview:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"osSku {os_.name} is a preview on AKS: it needs a feature registration and aks-preview, has no SLA "
        f"and may change before GA (source: {os_.source})",
        at=("osSku",),
        fix="use osSku: Ubuntu (AKS picks the Ubuntu release) or Ubuntu2404",
    )
