"""GP117 managed-gpu-os: managed GPU on a Linux OS SKU where AKS does not document it.

What it checks: `gpu.managed: true` with a Linux OS SKU the catalog does not mark as supporting the
managed GPU experience (e.g. `AzureContainerLinux`, `CBLMariner`). Windows is GP119; OS SKUs with no
GPU support at all are GP121.

Why: AKS documents managed GPU node pools on Ubuntu (the default) and Azure Linux only. Elsewhere the
managed components may not be installed; a warning because "not documented" is not "rejected".

Fix: use `osSku: Ubuntu` or `AzureLinux` for managed pools, or drop `gpu.managed`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md (OS: Ubuntu, Azure Linux),
commit fb060abe6a8f; catalog/data/os_skus.yaml; as of 2026-08-21.

Failing example:

    spec:
      osSku: AzureContainerLinux
      gpu: {managed: true}

Passing example:

    spec:
      osSku: Ubuntu
      gpu: {managed: true}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP117"
NAME = "managed-gpu-os"
SEVERITY = Severity.WARNING
SUMMARY = "managed GPU on an OS SKU where AKS does not document it"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if not ctx.gpu_pool_with_gpu_size or not ctx.nvidia or not pool.gpu_settings.managed:
        return
    if pool.is_windows or os_ is None or os_.gpu == "unsupported" or os_.managed:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.managed with osSku {pool.os_sku}: AKS documents managed GPU pools on Ubuntu and Azure Linux "
        "only",
        at=("osSku", "gpu.managed"),
        fix="use osSku: Ubuntu or AzureLinux, or remove gpu.managed",
    )
