"""GP126 gpu-pool-untainted: a GPU pool without a NoSchedule (or NoExecute) taint.

What it checks: a GpuNodePool on a GPU size whose `nodeTaints` have no taint with effect
`NoSchedule` or `NoExecute` (none at all, or only `PreferNoSchedule`). The taint AKS adds to
Spot pools does not count: spot-tolerant CPU workloads would still land there.

Why: without such a taint, any pod can be scheduled on the expensive GPU nodes, fill their CPU and
memory so GPU pods no longer fit, and keep the autoscaler from removing them. `PreferNoSchedule` is
only a preference: the scheduler ignores it as soon as other nodes are full.

Fix: `nodeTaints: ["sku=gpu:NoSchedule"]` (the taint the AKS docs use) and a matching toleration in
GPU workloads; `gpupool render` adds it to the device plugin. Taints can be changed later with
`az aks nodepool update --node-taints` (Azure CLI >= 2.34.0).

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md, use-node-taints.md,
best-practices-gpu.md (commit fb060abe6a8f); Kubernetes docs "Taints and Tolerations"; as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      nodeTaints: ["sku=gpu:PreferNoSchedule"]

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      nodeTaints: ["sku=gpu:NoSchedule"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import DOCS_TAINT
from gpupool.findings import Finding, Severity
from gpupool.spec.model import SPOT_TAINT_KEY

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP126"
NAME = "gpu-pool-untainted"
SEVERITY = Severity.WARNING
SUMMARY = "GPU pool without a NoSchedule/NoExecute taint (other pods can fill it)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.gpu_pool_with_gpu_size:
        return
    own = [t for t in pool.node_taints if t.key != SPOT_TAINT_KEY]
    if any(t.effect in ("NoSchedule", "NoExecute") for t in own):
        return
    if own:
        listed = ", ".join(str(t) for t in own)
        msg = (f"nodeTaints has only PreferNoSchedule ({listed}): the scheduler still puts non-GPU pods on "
               "these GPU nodes when other nodes are full")
    elif pool.priority == "Spot":
        msg = ("nodeTaints is empty: the only taint is the Spot one AKS adds, so any spot-tolerant pod can "
               "land on these GPU nodes and take their CPU and memory")
    else:
        msg = ("nodeTaints is empty: any pod can be scheduled on these GPU nodes, fill them so GPU pods no "
               "longer fit, and keep the autoscaler from removing them")
    yield ctx.finding(
        ID,
        SEVERITY,
        msg,
        at=("nodeTaints", "vmSize"),
        fix=f'add nodeTaints: ["{DOCS_TAINT}"] and tolerate it in GPU workloads (gpupool render adds the '
        "toleration to the device plugin)",
    )
