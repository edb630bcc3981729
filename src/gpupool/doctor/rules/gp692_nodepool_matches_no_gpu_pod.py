"""GP692 nodepool-matches-no-pending-gpu-pod: GPU NodePools that none of the Pending GPU pods can use.

What it checks: with Karpenter NodePools in the snapshot (`karpenter-nodepools.json`: `kubectl get
nodepools.karpenter.sh -o json`) and GPU pods Pending, each NodePool that admits GPU sizes (gpupool's NAP
model, as `gpupool plan` shows) but that no Pending GPU pod can use: a taint the pod does not tolerate, a node
selection the NodePool's requirements exclude or do not define, or a GPU resource none of its sizes
advertises. When no NodePool admits a GPU size at all, that is reported once.

Why: Karpenter creates a node only from a NodePool the pod is compatible with. A GPU NodePool that matches
none of the waiting GPU pods usually means a mismatch between the two (a taint key, a label, `nvidia.com/gpu`
vs an AMD size), and the GPU pods wait for good.

Fix: align the pods and the NodePool: tolerate the NodePool's taint, select on the NodePool's labels or on
`karpenter.azure.com/sku-gpu-name`, or admit the GPU sizes the pods need.

Source: kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/nodeclaim.go (CanAdd: taints, then
requirements), pkg/scheduling/requirements.go (Compatible) @2266468104f3; Azure/karpenter-provider-azure
pkg/providers/instancetype/instancetype.go (GPU capacity) @352646f59929; as of 2026-08-21. Warning: the sizes
come from gpupool's catalog. Without `karpenter-nodepools.json` in a cluster with Karpenter's nodes or events:
cannot tell (info).

Failing example:

    # NodePool gpu: taints [sku=gpu:NoSchedule], sku-gpu-name In [A100]
    # Pending pod ml/trainer-...: nvidia.com/gpu: 1, tolerations [nvidia.com/gpu Exists]

Passing example:

    # the same pod tolerating sku=gpu:NoSchedule
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.doctor.rules._nap import gpu_node_pools, nap_in_use, node_pools, why_not
from gpupool.findings import Finding, Severity, plural

ID = "GP692"
NAME = "nodepool-matches-no-pending-gpu-pod"
SEVERITY = Severity.WARNING
READS = ("nodes", "pods", "karpenternodepools")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "GPU NodePools that none of the Pending GPU pods can use"


def check(ctx: Context) -> Iterator[Finding]:
    pending = ctx.pending
    if ctx.view.snap.karpenter_nodepools is None:
        if pending and nap_in_use(ctx):
            yield finding(
                ID,
                Severity.INFO,
                "cannot tell: Karpenter's NodePools were not read (karpenter-nodepools.json)",
                "cluster",
                "input",
                ["GPU pods Pending and Karpenter's nodes or events in the snapshot"],
                "add: kubectl get nodepools.karpenter.sh -o json > karpenter-nodepools.json, and run again",
            )
        return
    if not pending:
        return
    gpu_pools, skipped = gpu_node_pools(ctx)
    if not gpu_pools and not skipped:
        pools, _ = node_pools(ctx)
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(pending), 'GPU pod')} Pending and no Karpenter NodePool admits a GPU size",
            "cluster",
            "pods",
            [f"NodePools: {', '.join(p.name for p in pools) or 'none'}"],
            "add a NodePool whose requirements admit GPU sizes (karpenter.azure.com/sku-gpu-name)",
        )
        return
    for pool, adv in gpu_pools:
        reasons: dict[str, str] = {}
        for p in pending:
            why = why_not(pool, p.pod, p.requests, adv)
            if why is None:
                break
            reasons.setdefault(p.owner, why)
        else:
            ev = [f"{owner}: {why}" for owner, why in list(reasons.items())[:5]]
            yield finding(
                ID,
                SEVERITY,
                f"NodePool {pool.name} admits GPU sizes but none of the "
                f"{plural(len(pending), 'Pending GPU pod')} "
                "can use it",
                f"NodePool {pool.name}",
                "pods",
                ev,
                "tolerate the NodePool's taints, select on its labels or on "
                "karpenter.azure.com/sku-gpu-name, or admit the GPU sizes the pods request",
            )
