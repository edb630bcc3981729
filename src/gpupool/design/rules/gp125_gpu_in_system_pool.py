"""GP125 gpu-in-system-pool: a GPU VM size in a System node pool.

What it checks: `mode: System` on a pool whose VM size has GPUs.

Why: system pools run CoreDNS, metrics-server and other critical add-ons and must always keep at least
one node, so the GPUs are paid for around the clock while system pods use them as ordinary CPU nodes.
Every AKS GPU doc puts GPUs in tainted User pools. Not forbidden by AKS ([UNVERIFIED] whether any
limitation applies), hence a warning.

Fix: set `mode: User` (with a taint such as `sku=gpu:NoSchedule`) and keep a small general-purpose
System pool.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-system-pools.md, use-nvidia-gpu.md,
best-practices-gpu.md (commit fb060abe6a8f): GPU sizes in system pools are not forbidden, but every GPU
example uses a tainted User pool (no primary source says more: unverified); as of 2026-08-21.

Failing example:

    spec:
      mode: System
      vmSize: Standard_NC4as_T4_v3

Passing example:

    spec:
      mode: User
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP125"
NAME = "gpu-in-system-pool"
SEVERITY = Severity.WARNING
SUMMARY = "GPU VM size in a System pool"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if pool.mode != "System" or not ctx.is_gpu_size:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"mode System with GPU size {size_text(ctx.size)}: system pools keep at least one node running "
        "for cluster add-ons, so the GPUs are paid for around the clock",
        at=("mode", "vmSize"),
        fix="set mode: User (with nodeTaints such as sku=gpu:NoSchedule) and keep a general-purpose "
        "System pool",
    )
