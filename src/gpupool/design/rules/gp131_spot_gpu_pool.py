"""GP131 spot-gpu-pool: a Spot GPU pool carries the Spot taint, which GPU pods must tolerate.

What it checks: a GPU pool with `priority: Spot`.

Why: AKS adds the taint `kubernetes.azure.com/scalesetpriority=spot:NoSchedule` to every Spot node.
GPU workloads and the GPU DaemonSets (NVIDIA device plugin, GPU Operator operands, DCGM exporter) must
tolerate it, or no GPU is ever advertised and GPU pods stay Pending. Spot nodes can also be evicted at
any time, so workloads need checkpoints. An info finding: Spot is a valid way to cut GPU cost.

Fix: add a toleration `{key: kubernetes.azure.com/scalesetpriority, operator: Equal, value: spot,
effect: NoSchedule}` to GPU workloads and the device plugin; `gpupool render` adds it to what it
generates. For the GPU Operator see NVIDIA/gpu-operator#577.

Source: MicrosoftDocs/azure-aks-docs articles/aks/spot-node-pool.md, nvidia-gpu-operator.md (spot note),
commit fb060abe6a8f; catalog/data/aks_limits.yaml; as of 2026-08-21.

Failing example:

    spec:
      priority: Spot
      vmSize: Standard_NC4as_T4_v3

Passing example:

    spec:
      priority: Regular
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP131"
NAME = "spot-gpu-pool"
SEVERITY = Severity.INFO
SUMMARY = "Spot GPU pool: workloads and the device plugin must tolerate the spot taint"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if pool.priority != "Spot" or not ctx.is_gpu_size:
        return
    taint, _source = catalog.spot_taint()
    yield ctx.finding(
        ID,
        SEVERITY,
        f"priority Spot: AKS adds taint {taint} to every node; GPU workloads and the GPU DaemonSets (device "
        "plugin, GPU Operator, DCGM exporter) must tolerate it, and nodes can be evicted at any time",
        at=("priority",),
        fix="tolerate key kubernetes.azure.com/scalesetpriority, value spot, effect NoSchedule in GPU "
        "workloads (gpupool render adds it to the device plugin)",
        taint=taint,
    )
