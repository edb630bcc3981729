"""GP103 gpu-size-in-plain-pool: a NodePool (not a GpuNodePool) uses a GPU VM size.

What it checks: kind `NodePool` whose `spec.vmSize` has GPUs.

Why: GPU sizes cost several times a general-purpose size. In a plain NodePool gpupool plans no GPU
settings: no taint keeps ordinary pods off the expensive nodes, no device plugin is rendered, so the
GPUs are paid for but not advertised to Kubernetes. The AKS managed GPU docs also state that a GPU size
in a general-purpose pool is not supported for the managed GPU experience.

Fix: change `kind` to `GpuNodePool` (and add a taint such as `sku=gpu:NoSchedule`), or use a
general-purpose size such as `Standard_D4s_v5`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md, aks-managed-gpu-nodes.md
("No GPU size in a general-purpose pool"), as of 2026-08-21.

Failing example:

    kind: NodePool
    spec:
      vmSize: Standard_NC24ads_A100_v4

Passing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_NC24ads_A100_v4
      nodeTaints: ["sku=gpu:NoSchedule"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP103"
NAME = "gpu-size-in-plain-pool"
SEVERITY = Severity.WARNING
SUMMARY = "NodePool (not GpuNodePool) with a GPU VM size"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if pool.is_gpu_pool or not ctx.is_gpu_size:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"kind NodePool uses GPU size {size_text(ctx.size)}: the GPUs are paid for, but gpupool plans no "
        "taint and no device plugin for a NodePool, so ordinary pods can fill these nodes and no "
        "nvidia.com/gpu is advertised",
        at=("vmSize",),
        fix="change kind to GpuNodePool (with nodeTaints such as sku=gpu:NoSchedule), "
        "or use a general-purpose size such as Standard_D4s_v5",
    )
