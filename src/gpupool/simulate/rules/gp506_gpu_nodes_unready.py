"""GP506 autoscaler-gpu-unready: the autoscaler counts GPU nodes without `nvidia.com/gpu` as unready.

What it checks: pools whose nodes carry the `kubernetes.azure.com/accelerator` label but advertise no
`nvidia.com/gpu` (MIG strategy Mixed: `nvidia.com/mig-*` only; time-slicing with `renameByDefault`:
`nvidia.com/gpu.shared`), in a cluster where the autoscaler runs.

Why: the autoscaler's GPU processor marks a Ready node that has the GPU label but no allocatable
`nvidia.com/gpu` as unready (ResourceUnready), as if its device plugin had not started. So (1) no real node
of the pool becomes its template: the autoscaler builds it from the VM size (whole GPUs as `nvidia.com/gpu`,
no MIG or shared resources), and MIG or shared pods never trigger a scale-up, even when the pool has nodes;
(2) pods asking `nvidia.com/gpu` trigger scale-ups the new nodes can't serve; for MaxNodeStartupTime
(15 min) after a node's creation the autoscaler counts it as upcoming capacity (NotStarted) and adds nothing
more, after that it is plain unready and the autoscaler scales the pool up again from the VM size, up to its
maximum; (3) when unready nodes exceed both ok-total-unready-count (3) and max-total-unready-percentage (45 %)
of the cluster's nodes, the autoscaler calls the cluster unhealthy and scales no pool up at all; (4) from
cluster-autoscaler 1.35 (on AKS its minor follows the cluster's Kubernetes minor) such a node in a pool the
autoscaler does not manage aborts every scale-up (`could not create quotas tracker: ...`): the quota
tracker asks every node's GPU count and has no template for it. Up to 1.34 that path runs only with a GPU
resource limit (`--gpu-total`, not set on AKS), where the limit becomes unknown, so the node only counts
for the cluster's health.

Fix: for autoscaled pools use MIG strategy Single (MIG instances advertised as `nvidia.com/gpu`) or
time-slicing with `renameByDefault: false`; keep MIG-mixed pools at a fixed size and out of the unready
budget (few nodes, or enable the autoscaler only where nodes advertise `nvidia.com/gpu`).

Source: kubernetes/autoscaler cluster-autoscaler/processors/customresources/gpu_processor.go
(FilterOutNodesWithUnreadyResources, GetNodeGpuTarget), clusterstate/clusterstate.go (IsClusterHealthy,
GetUpcomingNodes, MaxNodeStartupTime), resourcequotas/factory.go and usage.go (cluster-autoscaler-1.35.0),
core/scaleup/resource/manager.go (cluster-autoscaler-1.31.0); kubernetes/autoscaler#8095, #7050, #10301 (AKS
1.35.7); MicrosoftDocs/azure-aks-docs articles/aks/cluster-autoscaler.md (profile defaults); every recorded
answer of the real CA 1.31.5 agrees (tests/data/oracle/autoscaler); as of 2026-12-03.

Failing example:

    # pool: Standard_ND96asr_v4, MIG1g, migStrategy Mixed, nodeCount 1, autoscaler {minCount: 1, maxCount: 3}
    resources: {limits: {nvidia.com/mig-1g.5gb: 1}}   # 100 replicas: 56 run, 44 never trigger a scale-up

Passing example:

    # the same pool with migStrategy Single, requesting nvidia.com/gpu: 1 (a real node is the template)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.simulate.autoscaler_story import blocked
from gpupool.simulate.rules._common import gpu_text

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext
    from gpupool.spec.model import PoolSpec

ID = "GP506"
NAME = "autoscaler-gpu-unready"
SEVERITY = Severity.WARNING
SUMMARY = "GPU nodes without nvidia.com/gpu are unready to the cluster autoscaler (no template, no scale-up)"

_FIXED_SIZE = "or keep this pool at a fixed size (no autoscaler)"


def fix_for(pool: PoolSpec | None) -> str:
    """The fix that fits the pool's way of sharing: renameByDefault for a time-sliced pool, the MIG
    strategy for a MIG pool (a time-sliced pool has no MIG strategy to change)."""
    gpu = pool.gpu if pool is not None else None
    ts = gpu.time_slicing if gpu is not None else None
    if ts is not None and ts.rename_by_default:
        return (
            "set gpu.sharing.timeSlicing.renameByDefault: false, so the nodes advertise the time-sliced GPUs "
            f"as nvidia.com/gpu (and request nvidia.com/gpu in the pods), {_FIXED_SIZE}"
        )
    if gpu is not None and gpu.effective_mig_strategy == "Mixed":
        return (
            "set gpu.migStrategy: Single, so the nodes advertise their MIG instances as nvidia.com/gpu (and "
            f"request nvidia.com/gpu in the pods), {_FIXED_SIZE}"
        )
    return (
        "make the nodes advertise nvidia.com/gpu (MIG: gpu.migStrategy: Single; time-slicing: "
        f"gpu.sharing.timeSlicing.renameByDefault: false), {_FIXED_SIZE}"
    )


def check(ctx: RuleContext) -> Iterator[Finding]:
    run = ctx.aks
    if run is None:
        return
    sim = ctx.simulation
    ca = sim.ca
    if run.ca_blocked is not None and run.ca_blocked[0] in ("unhealthy", "unready-unmanaged"):
        idx = run.ca_blocked[1]
        at = sim.pools[idx] if idx is not None else next(
            p for p, u in zip(sim.pools, sim.gpu_unready, strict=True) if u
        )
        yield ctx.finding(
            ID,
            Severity.ERROR,
            blocked(sim, run),
            at_pool=at,
            fix=fix_for(at),
            unreadyNodes=sim.unready_nodes(run),
            nodes=run.cluster.num_nodes,
        )
    for i, pool in enumerate(sim.pools):
        if not sim.gpu_unready[i] or pool.autoscaler is None:
            continue
        alloc = sim.shapes_real[i].allocatable
        own = {k for k in alloc if k.startswith("nvidia.com/") and k != ca.gpu_resource}
        stuck = sum(
            1
            for p in run.pending
            if run.absorbed.get(id(p)) == i
            or (id(p) in run.triggered and run.triggered[id(p)].pool == pool.name)
            or (not p.ds and p.status is None and own & set(p.shape.requests))
        )
        tmpl = sim.template_of(run, i, "aks-template")
        yield ctx.finding(
            ID,
            Severity.ERROR if stuck else SEVERITY,
            f"the cluster autoscaler counts pool {pool.name}'s nodes as unready: they carry {ca.gpu_label} "
            f"but advertise {gpu_text(sim.shapes_real[i])}, no {ca.gpu_resource}. It builds the pool's "
            f"template from the VM size ({gpu_text(tmpl.shape)}), so pods asking for what the nodes really "
            f"offer never trigger a scale-up, and {ca.gpu_resource} pods trigger ones the new nodes can't "
            "serve"
            + (f"; {stuck} Pending {'pod is' if stuck == 1 else 'pods are'} caught by it" if stuck else ""),
            at_pool=pool,
            fix=fix_for(pool),
            pool=pool.name,
            pendingPods=stuck,
        )
