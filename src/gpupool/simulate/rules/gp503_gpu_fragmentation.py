"""GP503 gpu-fragmentation: multi-GPU pods stay Pending while the pool has enough free GPUs in total.

What it checks: a Pending pod that requests k > 1 of a GPU resource, on a pool whose nodes each advertise at
least k and accept the pod (taints, selectors), where the pool has k or more free in total but no node has k
free.

Why: kube-scheduler's default profile scores nodes on cpu and memory only (NodeResourcesFit LeastAllocated and
BalancedAllocation); GPUs and other extended resources are filtered, not scored. Pods needing one GPU
therefore spread across the emptiest nodes instead of packing, leaving a few GPUs free on every node, and a
pod needing a whole 8-GPU node fits nowhere. The scheduler on AKS can't be given a bin-packing score for
`nvidia.com/gpu`.

Fix: let the large pods schedule first (a higher PriorityClass, or create them first), give small and large
GPU pods separate pools (nodeSelector and taints), or size the pods to fill a node.

Source: kubernetes/kubernetes pkg/scheduler/apis/config/v1/default_plugins.go (scoring plugins and weights),
pkg/scheduler/framework/plugins/noderesources/least_allocated.go (cpu and memory by default);
as of 2026-08-21.

Failing example:

    # 2 x Standard_ND96asr_v4 (8 GPUs each); 8 pods x nvidia.com/gpu: 1 land 4 + 4,
    # then a pod with nvidia.com/gpu: 8 stays Pending although 8 GPUs are free

Passing example:

    # the 8-GPU pod has a higher priority: it schedules first and gets a whole node
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, agree, plural
from gpupool.simulate.rules._common import pending_groups

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP503"
NAME = "gpu-fragmentation"
SEVERITY = Severity.WARNING
SUMMARY = "Multi-GPU pods Pending while enough GPUs are free in total, spread over nodes"


def check(ctx: RuleContext) -> Iterator[Finding]:
    sim, run = ctx.simulation, ctx.run
    cluster = run.cluster
    for w, shape, pods in pending_groups(sim, run):
        for res, k in sorted(shape.gpu_requests().items()):
            if k < 2:
                continue
            idx = sim.registry.index[res]
            for ps in cluster.pools:
                if not ps.nodes or ps.alloc[idx] < k or cluster.static(shape, ps) is not None:
                    continue
                free = [(ps.alloc[idx] - st.vec[idx], n) for st, n in cluster.pool_states(ps)]
                total = sum(f * n for f, n in free)
                most = max(f for f, _ in free)
                if total < k or most >= k:
                    continue
                spread = sum(n for f, n in free if f > 0)
                yield ctx.finding(
                    ID,
                    SEVERITY,
                    f"{plural(len(pods), 'pod')} needing {k} {res} {agree(len(pods), 'stays', 'stay')} "
                    f"Pending although pool {ps.name} has "
                    f"{total} {res} free, spread over {plural(spread, 'node')} with at most {most} each: "
                    "kube-scheduler scores nodes on cpu and memory only, so pods needing fewer GPUs spread "
                    "over the nodes first",
                    workload=w,
                    fix="let the large pods schedule first (a higher PriorityClass), or give small and large "
                    "GPU pods separate pools",
                    pool=ps.name,
                    resource=res,
                    freeTotal=total,
                    freeMaxPerNode=most,
                )
