"""GP401 taint-added-in-place: a NoSchedule/NoExecute taint is added to an existing pool in place.

What it checks: DESIRED adds a `NoExecute` or `NoSchedule` taint that CURRENT does not have, and the
change is made in place (`az aks nodepool update --node-taints`, no new pool).

Why: node taints are updatable in place since Azure CLI 2.34.0 (older advice that they are "fixed at
creation" is outdated), and the update reaches the running nodes. A new `NoExecute` taint makes the kubelet
evict every running pod that does not tolerate it, at once. A new `NoSchedule` taint leaves running pods
alone, but pods that do not tolerate it are never scheduled onto the pool again: the next restart, rollout,
node upgrade or eviction moves them off the GPUs for good. With `--workloads` the finding names the workloads
running on the pool that lack the toleration.

Fix: add the toleration to those workloads first (roll them out), then update the taint.

Source: Azure/azure-cli HISTORY 2.34.0 (#21138); MicrosoftDocs/azure-aks-docs articles/aks/use-node-taints.md;
Kubernetes "Taints and Tolerations" (NoExecute evicts running pods, NoSchedule affects scheduling only),
https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/; as of 2026-08-21.

Failing example (CURRENT has no taints; no workload tolerates the new one):

    spec:
      nodeTaints: ["sku=gpu:NoExecute"]

Passing example (every workload on the pool already tolerates sku=gpu:NoSchedule):

    spec:
      nodeTaints: ["sku=gpu:NoSchedule"]
"""

from __future__ import annotations

from gpupool.findings import Severity
from gpupool.k8s.taints import format_toleration, untolerated

ID = "GP401"
NAME = "taint-added-in-place"
SEVERITY = Severity.WARNING
SUMMARY = "a NoSchedule/NoExecute taint added in place: running pods are evicted or not rescheduled"

_LIMIT = 8


def check(ctx):
    if ctx.requires_new_pool or ctx.change("nodeTaints") is None:
        return
    before = {str(t) for t in ctx.current.effective_taints}
    pool = ctx.desired.name
    for taint in ctx.desired.effective_taints:
        if str(taint) in before or taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        affected = []
        if ctx.follows is not None:
            affected = [
                f.ref
                for f in ctx.follows
                if f.runs_on_old and untolerated([taint], f.workload.pod_spec.get("tolerations"))
            ]
            if not affected:
                continue  # every given workload on the pool tolerates it
        if taint.effect == "NoExecute":
            what = (
                f"adding taint {taint} in place evicts, at once, every running pod on pool {pool} that does "
                "not tolerate it"
            )
        else:
            what = (
                f"adding taint {taint} in place keeps running pods, but pods that do not tolerate it will "
                f"not be scheduled onto pool {pool} again (after a restart, rollout, upgrade or eviction)"
            )
        if affected:
            names = ", ".join(affected[:_LIMIT]) + (
                f" and {len(affected) - _LIMIT} more" if len(affected) > _LIMIT else ""
            )
            what += f": {names}"
        yield ctx.finding(
            ID,
            SEVERITY,
            what,
            at=("nodeTaints",),
            fix=f"add toleration {format_toleration(taint)} to those workloads and roll them out first",
            taint=str(taint),
            effect=taint.effect,
            workloads=affected,
        )
