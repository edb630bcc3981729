"""GP404 taint-removed-in-place: a NoSchedule/NoExecute taint is removed from an existing GPU pool.

What it checks: CURRENT has a `NoSchedule` or `NoExecute` taint that DESIRED drops, and the change is
made in place (`az aks nodepool update --node-taints`).

Why: the taint is what keeps ordinary pods off expensive GPU nodes. Once it is gone, any pod the scheduler
likes may land there (and keep the autoscaler from removing idle GPU nodes); nothing is evicted.

Fix: keep the taint, or give the non-GPU pools enough room and accept GPU nodes running other pods.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (taint GPU pools),
best-practices-gpu.md; Kubernetes "Taints and Tolerations"; as of 2026-08-21.

Failing example (CURRENT: `sku=gpu:NoSchedule`):

    spec:
      nodeTaints: []

Passing example:

    spec:
      nodeTaints: ["sku=gpu:NoSchedule"]
"""

from __future__ import annotations

from gpupool.findings import Severity

ID = "GP404"
NAME = "taint-removed-in-place"
SEVERITY = Severity.INFO
SUMMARY = "a NoSchedule/NoExecute taint removed in place: other pods may land on the GPU nodes"


def check(ctx):
    if ctx.requires_new_pool or ctx.change("nodeTaints") is None:
        return
    after = {str(t) for t in ctx.desired.effective_taints}
    for taint in ctx.current.effective_taints:
        if str(taint) in after or taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        kind = "GPU nodes" if ctx.desired.is_gpu_pool else "nodes"
        yield ctx.finding(
            ID,
            SEVERITY,
            f"removing taint {taint} opens the {kind} of pool {ctx.desired.name} to pods that do not "
            "tolerate it",
            at=("nodeTaints",),
            fix="keep the taint if only GPU workloads should run there",
            taint=str(taint),
        )
