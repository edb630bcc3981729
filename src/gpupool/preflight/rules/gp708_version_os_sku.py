"""GP708 version-os-sku: the OS SKU is not available for the Kubernetes version the pool will get.

What it checks: when the spec gives no `kubernetesVersion` the pool gets the cluster's (`az aks
show`); that version against the OS SKU's Kubernetes range in the catalog (as GP123 does for a version
the spec gives): e.g. `Ubuntu2204` 1.25-1.36, `AzureLinux3` 1.28-1.36, `Windows2022` 1.23-1.36,
`Windows2019` 1.32 and older.

Why: AKS rejects an OS SKU outside its range; the version the pool inherits is easy to miss.

Fix: pick an OS SKU for the cluster's version (`Ubuntu` follows AKS's default), or set
`kubernetesVersion` within the range.

Source: MicrosoftDocs/azure-aks-docs articles/aks/upgrade-os-version.md,
includes/windows-server-2019-retirement.md @fb060abe6a8f; as of 2026-08-21.

Failing example (cluster on 1.37):

    spec:
      osSku: AzureLinux3

Passing example (cluster on 1.36):

    spec:
      osSku: AzureLinux3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import k8s_minor, offered_on
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP708"
NAME = "version-os-sku"
SEVERITY = Severity.ERROR
SUMMARY = "OS SKU not available for the Kubernetes version the pool inherits from the cluster"


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.pool.kubernetes_version or ctx.cluster is None:
        return  # a version the spec gives is GP123's
    os_ = catalog.os_sku(ctx.pool.os_sku)
    have = k8s_minor(ctx.cluster.kubernetes_version)
    if os_ is None or os_.kubernetes is None or have is None:
        return
    if offered_on(os_, have):
        return
    lo_text, hi_text = os_.kubernetes
    span = f"{lo_text or 'any'}-{hi_text or 'newer'}"
    yield ctx.finding(
        ID,
        SEVERITY,
        f"osSku {os_.name} is available on Kubernetes {span} only; the pool gets the cluster's "
        f"{ctx.cluster.kubernetes_version} ({ctx.cluster.path})",
        at=("osSku",),
        fix="use osSku: Ubuntu, or set kubernetesVersion within the range",
        clusterVersion=ctx.cluster.kubernetes_version,
    )
