"""GP121 os-sku-no-gpu: the OS SKU does not support GPU node pools.

What it checks: a GPU pool (GpuNodePool, or any pool on a GPU size) whose OS SKU AKS does not support
for GPUs: `Flatcar` and `AzureLinuxOSGuard` (neither the AKS GPU setup nor the NVIDIA GPU
Operator); `Ubuntu2604` (a preview OS SKU whose release notes say GPU sizes are not supported); and
`AzureContainerLinux` on an ARM64 GPU size (ND GB200/GB300 v6).

Why: the nodes come up without a usable GPU stack (or the pool is refused: new Flatcar pools are
blocked since 2026-07-17).

Fix: use `osSku: Ubuntu` (default) or `AzureLinux`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md, nvidia-gpu-operator.md (commit
fb060abe6a8f); Azure/AKS CHANGELOG 2026-07-17, 2026-08-07 (Ubuntu 26.04 preview, no GPU sizes) and
Azure/AKS#5905; MicrosoftDocs/azure-management-docs
azure-container-linux-overview.md ("doesn't support ARM64 architectures for GPU-enabled node pools",
d923d5889010); as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      osSku: Flatcar

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      osSku: Ubuntu
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP121"
NAME = "os-sku-no-gpu"
SEVERITY = Severity.ERROR
SUMMARY = "OS SKU without GPU support (Flatcar, AzureLinuxOSGuard; ACL on ARM64)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if os_ is None or not (pool.is_gpu_pool or ctx.is_gpu_size):
        return
    if pool.is_gpu_pool and ctx.size is not None and not ctx.size.is_gpu:
        return  # GP102 already says the size has no GPU
    if os_.gpu == "unsupported":
        yield ctx.finding(
            ID,
            SEVERITY,
            f"osSku {pool.os_sku}{' (a preview)' if os_.preview else ''} does not support GPU node pools on "
            f"AKS (neither the AKS GPU setup nor the NVIDIA GPU Operator; source: {os_.source})",
            at=("osSku",),
            fix="use osSku: Ubuntu (the default) or AzureLinux",
        )
    elif os_.name == "AzureContainerLinux" and ctx.is_gpu_size and ctx.size.arch == "arm64":
        yield ctx.finding(
            ID,
            SEVERITY,
            f"osSku AzureContainerLinux with ARM64 GPU size {ctx.size.name}: Azure Container Linux does not "
            "support ARM64 GPU node pools",
            at=("osSku", "vmSize"),
            fix="use osSku: Ubuntu",
        )
