"""GP114 managed-gpu-autoscaler: the cluster autoscaler on a managed GPU pool.

What it checks: `gpu.managed: true` together with `spec.autoscaler`.

Why: while the managed GPU experience is in preview, the cluster autoscaler is not supported on any
managed GPU node pool (not only on custom-created ones). The pool
would not scale; scale-from-zero savings are not possible with it.

Fix: remove `autoscaler` and scale manually (`az aks nodepool scale`), or drop `gpu.managed` and
deploy the device plugin yourself (the default "driver only" mode works with the autoscaler), or use
node auto-provisioning (NAP), which can create managed GPU nodes.

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md (Limitations), commit
fb060abe6a8f, as of 2026-08-21.

Failing example:

    spec:
      autoscaler: {minCount: 0, maxCount: 3}
      gpu: {managed: true}

Passing example:

    spec:
      nodeCount: 1
      gpu: {managed: true}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP114"
NAME = "managed-gpu-autoscaler"
SEVERITY = Severity.ERROR
SUMMARY = "cluster autoscaler on a managed GPU pool (unsupported in preview)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not pool.is_gpu_pool or not pool.gpu_settings.managed or pool.autoscaler is None:
        return
    if ctx.size is not None and ctx.size.path == "amd":
        return  # GP108: managed is impossible on AMD anyway
    a = pool.autoscaler
    yield ctx.finding(
        ID,
        SEVERITY,
        f"autoscaler ({a.min_count}-{a.max_count}) on a managed GPU pool: the cluster autoscaler is not "
        "supported on managed GPU pools during the preview",
        at=("autoscaler", "gpu.managed"),
        fix="remove autoscaler and scale with `az aks nodepool scale`, or drop gpu.managed (driver-only mode "
        "plus your own device plugin works with the autoscaler), or use node auto-provisioning",
    )
