"""What ``gpupool simulate`` reports: pools, placements, Pending entries (with the autoscaler's part, a
``why`` and lint's fixes), the starting cluster's usage and cost; built from one run of the engine."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gpupool.design.node import is_gpu_resource
from gpupool.findings import Finding, sort_key
from gpupool.k8s import facts
from gpupool.simulate.autoscaler import ScaleUp
from gpupool.simulate.cost import Price, PriceTable
from gpupool.simulate.fixes import LintFixes
from gpupool.simulate.pods import Pod

if TYPE_CHECKING:
    from gpupool.simulate.model import Run
    from gpupool.simulate.runner import Runner


@dataclass
class PendingEntry:
    workload: str
    pod: str
    count: int
    message: str
    autoscaler: str | None
    path: str | None = None
    line: int | None = None
    why: str | None = None  # how scheduler and autoscaler verdicts fit together, when it needs saying
    fixes: list[dict[str, str]] = field(default_factory=list)  # what lint's rules say about the workload
    karpenter: str | None = None  # Karpenter's FailedScheduling words when NodePools are among the inputs

    def to_dict(self) -> dict[str, Any]:
        return {
            "workload": self.workload,
            "pod": self.pod,
            "count": self.count,
            "message": self.message,
            "autoscaler": self.autoscaler,
            "karpenter": self.karpenter,
            "why": self.why,
            "fixes": self.fixes,
        }


@dataclass(frozen=True)
class Placement:
    """Where one workload pod went (DaemonSet pods are counted per pool, not listed)."""

    pod: str
    workload: str
    node: str
    pool: str

    def to_dict(self) -> dict[str, Any]:
        return {"pod": self.pod, "workload": self.workload, "node": self.node, "pool": self.pool}


@dataclass
class PoolResult:
    name: str
    vm_size: str
    nodes: int
    initial: int
    added: int
    max_nodes: int | None
    daemonset_pods: int
    pods: int
    resources: dict[str, dict[str, float | int]]
    price: Price | None
    price_per_node: float | None  # the Spot price for a Spot pool when the table has one
    cost_per_hour: float | None
    scale_ups: list[ScaleUp]
    cordoned: bool = False
    notes: tuple[str, ...] = ()
    existing_pods: int = 0  # pods already running on the pool's nodes (starting from a real cluster)

    def gpu_resources(self) -> dict[str, dict[str, float | int]]:
        return {k: v for k, v in self.resources.items() if is_gpu_resource(k)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "vmSize": self.vm_size,
            "nodes": self.nodes,
            "nodesAdded": self.added,
            "initialNodes": self.initial,
            "maxNodes": self.max_nodes,
            "cordoned": self.cordoned,
            "pods": self.pods,
            "daemonSetPods": self.daemonset_pods,
            "existingPods": self.existing_pods,
            "resources": self.resources,
            "pricePerNodeHour": self.price_per_node,
            "costPerHour": self.cost_per_hour,
            "scaleUps": [s.to_dict() for s in self.scale_ups],
        }


@dataclass
class SimulationResult:
    kubernetes_version: str
    autoscaler: str
    expander: str
    pools: list[PoolResult]
    placed: int
    daemonset_pods: int
    pending: list[PendingEntry]
    cost_per_hour: float | None
    prices: PriceTable
    reservations: facts.Reservations
    default_max_pods: int
    findings: list[Finding]
    notes: list[str]
    ignored: dict[str, int]
    simulation: Runner | None = None
    placements: list[Placement] = field(default_factory=list)
    start: dict[str, Any] | None = None  # the real cluster started from: source, nodes, pods, what they use
    # Choices the real scheduler makes at random (equal best scores): "node" among identical nodes, "state"
    # among different pools or node states (pods per pool may then differ from run to run).
    ties: dict[str, int] = field(default_factory=dict)
    assumed: str | None = None  # "assuming Kubernetes 1.35, AKS's default on ...": nothing stated a version
    nap: Any = None  # simulate.nap.Outcome when Karpenter NodePools were among the inputs

    @property
    def pending_pods(self) -> int:
        return sum(e.count for e in self.pending)

    @property
    def exit_code(self) -> int:
        """0 every pod placed, 1 some pod Pending (bad input is 2, raised as InputError)."""
        return 1 if self.pending else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "kubernetesVersion": self.kubernetes_version,
            "assumed": self.assumed,
            "autoscaler": self.autoscaler,
            "expander": self.expander,
            "pools": [p.to_dict() for p in self.pools],
            "placed": self.placed,
            "daemonSetPods": self.daemonset_pods,
            "pendingPods": self.pending_pods,
            "pending": [e.to_dict() for e in self.pending],
            "placements": [p.to_dict() for p in self.placements],
            "start": self.start,
            "costPerHour": self.cost_per_hour,
            "currency": self.prices.currency,
            "prices": self.prices.meta(),
            "allocatable": {**self.reservations.to_dict(), "defaultMaxPods": self.default_max_pods},
            "findings": [f.to_dict() for f in sorted(self.findings, key=sort_key)],
            "notes": self.notes,
            "ignoredObjects": self.ignored,
            "nap": self.nap.to_dict() if self.nap is not None else None,
        }




def _resource_text(name: str, amount: int) -> float | int:
    return amount / 1000 if name == "cpu" else amount


def start_summary(sim: Runner, run: Run) -> dict[str, Any] | None:
    """What the real cluster's running pods already use (requests summed), when starting from one."""
    if sim.start is None:
        return None
    used: dict[str, float | int] = {}
    for p in run.existing:
        if p.node is None:
            continue
        for name, amount in p.shape.requests.items():
            used[name] = used.get(name, 0) + amount
    return {
        "source": sim.start.source,
        "nodes": sum(run.initial),
        "pods": sum(1 for p in run.existing if p.node is not None),
        "requests": {k: _resource_text(k, v) for k, v in sorted(used.items())},
        "evictedByPreemption": [p.name for p in run.evicted],
        "notes": list(sim.start.notes),
    }

def build(
    sim: Runner, run: Run, prices: PriceTable, findings: list[Finding], notes: list[str]
) -> SimulationResult:
    cluster = run.cluster
    pools: list[PoolResult] = []
    total_cost: float | None = 0.0
    ds_by_pool: Counter[int] = Counter()
    pods_by_pool: Counter[int] = Counter()
    for p in run.pods:
        if p.node is not None:
            (ds_by_pool if p.ds else pods_by_pool)[cluster.pools[cluster.node_pool[p.node]].spec_idx] += 1
    existing_by_pool: Counter[int] = Counter()
    for p in run.existing:
        if p.node is not None:
            existing_by_pool[cluster.pools[cluster.node_pool[p.node]].spec_idx] += 1
    for i, spec in enumerate(sim.pools):
        groups_i = [ps for ps in cluster.pools if ps.spec_idx == i]
        n = sum(len(ps.nodes) for ps in groups_i)
        used = tuple([0] * len(sim.registry.names))
        alloc_v = tuple([0] * len(sim.registry.names))
        for ps in groups_i:
            used = tuple(a + b for a, b in zip(used, cluster.pool_used(ps), strict=True))
            alloc_v = tuple(a + b * len(ps.nodes) for a, b in zip(alloc_v, ps.alloc, strict=True))
        res: dict[str, dict[str, float | int]] = {}
        for name, idx in sim.registry.index.items():
            alloc = alloc_v[idx]
            if not alloc and not used[idx]:
                continue
            if name == "cpu":
                res[name] = {
                    "allocatable": alloc / 1000,
                    "used": used[idx] / 1000,
                    "free": (alloc - used[idx]) / 1000,
                }
            else:
                res[name] = {"allocatable": alloc, "used": used[idx], "free": alloc - used[idx]}
        price = prices.get(spec.vm_size)
        per: float | None = None
        if price is not None:
            per = price.hourly(spec.priority == "Spot")
        cost: float | None = 0.0 if n == 0 else None
        if per is not None:
            cost = round(per * n, 6)
        if cost is None:
            total_cost = None
        elif total_cost is not None:
            total_cost += cost
        pools.append(
            PoolResult(
                name=spec.name,
                vm_size=spec.vm_size,
                nodes=n,
                initial=run.initial[i],
                added=run.added(i),
                max_nodes=spec.autoscaler.max_count if spec.autoscaler else None,
                daemonset_pods=ds_by_pool[i],
                pods=pods_by_pool[i],
                resources=res,
                price=price,
                price_per_node=per,
                cost_per_hour=cost,
                scale_ups=[s for s in run.scale_ups if s.pool == spec.name],
                cordoned=all(ps.cordoned for ps in groups_i if ps.nodes or ps.idx == i),
                notes=sim.shapes_real[i].notes,
                existing_pods=existing_by_pool[i],
            )
        )
    groups: dict[tuple, PendingEntry] = {}
    firsts: list[Pod] = []
    for pod in sorted(run.pending, key=lambda p: (p.workload, p.seq)):
        w = sim.workloads[pod.workload]
        nap = run.nap.messages.get(id(pod)) if run.nap is not None else None
        key = (pod.workload, run.sched_msg[id(pod)], run.ca_msg[id(pod)], run.why.get(id(pod)), nap)
        e = groups.get(key)
        if e is None:
            groups[key] = PendingEntry(
                w.ref,
                pod.name,
                1,
                run.sched_msg[id(pod)],
                run.ca_msg[id(pod)],
                w.input.path,
                w.input.line,
                run.why.get(id(pod)),
                karpenter=nap,
            )
            firsts.append(pod)
        else:
            e.count += 1
    fixes = LintFixes(sim.pools, facts.version_text(sim.version))
    for e, pod in zip(groups.values(), firsts, strict=True):
        w = sim.workloads[pod.workload]
        if pod.status is None:
            e.fixes = fixes.of(w.input.workload, w.input.path)
    placements = [
        Placement(
            p.name,
            sim.workloads[p.workload].ref,
            cluster.node_name[p.node],
            cluster.pools[cluster.node_pool[p.node]].spec.name,
        )
        for p in sorted(run.pods, key=lambda p: (p.workload, p.seq))
        if p.node is not None and not p.ds
    ]
    if run.nap is not None:
        placements += [
            Placement(p.name, sim.workloads[p.workload].ref, c.name, f"NodePool {c.template.pool.name}")
            for c in run.nap.claims
            for p in c.pods
        ]
        nap_cost = run.nap.cost_per_hour if run.nap.claims else 0.0
        total_cost = None if total_cost is None or nap_cost is None else total_cost + nap_cost
    placed = len(placements)
    ds = sum(1 for p in run.pods if p.node is not None and p.ds)
    return SimulationResult(
        kubernetes_version=facts.version_text(sim.version),
        assumed=_assumed_note(sim),
        autoscaler=run.mode,
        expander=sim.options.expander,
        pools=pools,
        placed=placed,
        daemonset_pods=ds,
        pending=list(groups.values()),
        cost_per_hour=round(total_cost, 6) if total_cost is not None else None,
        prices=prices,
        reservations=sim.reservations,
        default_max_pods=sim.default_max_pods,
        findings=findings,
        notes=notes,
        ignored=dict(sim.inputs.ignored),
        simulation=sim,
        placements=placements,
        ties=dict(cluster.ties),
        start=start_summary(sim, run),
        nap=run.nap,
    )


def _assumed_note(sim) -> str | None:  # type: ignore[no-untyped-def]
    """The default-version note when nothing (option, cluster, pool) stated a version."""
    if not getattr(sim, "assumed", False):
        return None
    from gpupool.catalog.aks import default_kubernetes_version

    return default_kubernetes_version().note()
