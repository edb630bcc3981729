"""GP123 os-sku-kubernetes-version: the OS SKU is not available for the pool's Kubernetes version.

What it checks: `spec.kubernetesVersion` (major.minor) against the Kubernetes range the catalog
records for versioned OS SKUs: `Ubuntu2204` 1.25-1.36, `Ubuntu2404` 1.32-1.38, `AzureLinux3`
1.28-1.36, `Windows2022` 1.23-1.36, `Windows2025` 1.32 and newer, `AzureLinuxOSGuard` 1.32 and
newer, `AzureContainerLinux` 1.34 and newer, `Windows2019` 1.32 and older (and retired, GP135).

Why: AKS rejects an OS SKU outside its Kubernetes range (and moves `Ubuntu` from 22.04 to 24.04 at
1.35); a versioned OS SKU at the end of its range blocks the next Kubernetes upgrade. Ubuntu 22.04
support ends 2027-06-30.

Without `kubernetesVersion` the pool is judged on AKS's default (N-1 of the GA minors: 1.35 on
2026-12-03), and the finding is a warning: the cluster may run another version.

Fix: pick an OS SKU that matches the version (`Ubuntu` follows AKS's default; a Windows pool gets the
Windows SKUs that allow the version), or change `kubernetesVersion`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/upgrade-os-version.md,
includes/ubuntu-22-04-retirement.md, includes/windows-server-2019-retirement.md (commit fb060abe6a8f);
MicrosoftDocs/azure-management-docs azure-container-linux-overview.md; as of 2026-08-21 (re-checked
2026-12-03; nothing newer was reachable).

Failing example:

    spec:
      kubernetesVersion: "1.30"
      osSku: Ubuntu2404

Passing example:

    spec:
      kubernetesVersion: "1.34"
      osSku: Ubuntu2404
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import default_kubernetes_version
from gpupool.design.rules._common import k8s_minor, offered_on, other_os_skus
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP123"
NAME = "os-sku-kubernetes-version"
SEVERITY = Severity.ERROR
SUMMARY = "OS SKU not available for the pool's Kubernetes version"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    have = k8s_minor(ctx.kubernetes_version)
    if os_ is None or os_.kubernetes is None or have is None:
        return
    if offered_on(os_, have):
        return
    lo_text, hi_text = os_.kubernetes
    if lo_text and hi_text:
        span = f"{lo_text}-{hi_text}"
    else:
        span = f"{lo_text} or newer" if lo_text else f"{hi_text} or older"
    given = (
        f"kubernetesVersion is not set ({default_kubernetes_version().note()})"
        if ctx.version_assumed
        else f"kubernetesVersion is {pool.kubernetes_version}"
    )
    yield ctx.finding(
        ID,
        Severity.WARNING if ctx.version_assumed else SEVERITY,  # an assumption is not evidence
        f"osSku {pool.os_sku} is available on Kubernetes {span} only; {given}",
        at=("osSku", "kubernetesVersion"),
        fix=_fix(pool, span),
    )


def _fix(pool: PoolSpec, span: str) -> str:
    if pool.is_windows:  # a Windows workload needs a Windows node: never suggest Ubuntu
        others = other_os_skus(pool, pool.os_sku)
        first = f"use osSku: {' or '.join(others)}, or " if others else ""
        return f"{first}set kubernetesVersion within {span}"
    return (
        "use osSku: Ubuntu (AKS picks the Ubuntu release for the version), or set kubernetesVersion "
        f"within {span}"
    )
