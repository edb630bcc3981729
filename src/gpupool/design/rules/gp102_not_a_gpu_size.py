"""GP102 not-a-gpu-size: a GpuNodePool uses a VM size without a GPU.

What it checks: kind `GpuNodePool` with a `spec.vmSize` the catalog knows as general purpose
(no GPU), e.g. `Standard_D4s_v5`.

Why: AKS installs GPU software only on GPU VM sizes. The nodes never advertise `nvidia.com/gpu`, so
every pod that requests a GPU stays Pending, while the pool still costs money.

Fix: pick a GPU size (AKS recommends at least `Standard_NC4as_T4_v3`), or change `kind` to
`NodePool` if the pool is not meant for GPUs.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (recommended minimum
Standard_NC4as_T4_v3 since 2026-07-02; as of 2026-08-21); MicrosoftDocs/azure-compute-docs
sizes/general-purpose/* (as of 2026-08-21).

Failing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_D4s_v5

Passing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import recommended_size, size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP102"
NAME = "not-a-gpu-size"
SEVERITY = Severity.ERROR
SUMMARY = "GpuNodePool with a VM size that has no GPU"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not pool.is_gpu_pool or ctx.size is None or ctx.size.is_gpu:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {size_text(ctx.size)} has no GPU: the nodes of this GpuNodePool never advertise "
        "nvidia.com/gpu, so GPU pods stay Pending while the pool costs money",
        at=("vmSize",),
        fix=f"use a GPU size such as {recommended_size()} (AKS's recommended minimum), "
        "or change kind to NodePool",
    )
