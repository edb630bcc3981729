"""Where a Pending pod could go on the cluster as it is: simulate's own scheduler filters (NodeUnschedulable,
TaintToleration, NodeAffinity, NodeResourcesFit, in kube-scheduler's order) run on the snapshot's real nodes
with the running pods bound where they are. No second implementation: this module only turns real Node and
Pod objects into :class:`gpupool.simulate.cluster.Cluster` inputs and reads its answers per AKS pool.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from gpupool.design.nodeshape import NodeShape
from gpupool.doctor.view import View
from gpupool.k8s import facts as sim_facts
from gpupool.k8s import nodes as k8s_nodes
from gpupool.simulate.cluster import Cluster
from gpupool.simulate.pods import Pod, Registry, ShapeBook, effective_requests, to_ints
from gpupool.spec.model import PoolSpec


def kubernetes_version(view: View) -> tuple[int, int, int]:
    """The cluster's version (meta.json's server version, else the kubelets: k8s.nodes.cluster_version),
    else AKS's default; clamped to the versions simulate renders."""
    v = cluster_version(view) or sim_facts.default_version()
    return min(max(v, sim_facts.oldest_version()), sim_facts.newest_version())


def cluster_version(view: View) -> tuple[int, int, int] | None:
    """What the cluster itself says (None: nothing does, and a default is assumed)."""
    meta = view.snap.meta or {}
    return k8s_nodes.cluster_version(meta.get("kubernetesVersion"), (n.obj for n in view.nodes))


@dataclass
class PoolVerdict:
    pool: str
    nodes: int
    reasons: Counter[str] = field(default_factory=Counter)  # reason -> nodes (first failing filter)
    fits: int = 0  # nodes that pass every filter now
    static_ok: int = 0  # nodes that pass taints/selector/unschedulable (only resources may be short)
    offers: int = 0  # nodes whose capacity has every extended resource the pod requests
    gpu: bool = False  # a GPU pool


@dataclass
class Placement:
    message: str  # what kube-scheduler would say now (simulate's FitError)
    node: str | None  # where it fits now, if anywhere
    pools: dict[str, PoolVerdict]

    @property
    def would_land(self) -> str | None:
        """The pool that admits the pod (taints, selector) and is only short of resources, if one is."""
        ok = [v for v in self.pools.values() if v.static_ok and (v.offers or v.gpu)]
        if not ok:
            return None
        return max(ok, key=lambda v: (v.fits, v.offers, v.static_ok, v.pool)).pool


class Placer:
    """The cluster as simulate's Cluster: one simulate pool per real node (nodes differ in what is free)."""

    def __init__(self, view: View, pending: list[dict]) -> None:
        self.view = view
        version = kubernetes_version(view)
        self.msgs = sim_facts.messages(version)
        names: set[str] = {"pods", "cpu", "memory"}
        allocs = []
        for n in view.nodes:
            a = to_ints({k: v for k, v in n.allocatable.items()})
            allocs.append(a)
            names |= set(a)
        bound: list[tuple[int, dict, tuple[dict[str, int], int, int]]] = []
        for i, n in enumerate(view.nodes):
            for p in n.pods:
                r = effective_requests(p.get("spec") or {})  # memoised by the pod's resources
                names |= set(r[0])
                bound.append((i, p, r))
        for p in pending:
            names |= set(effective_requests(p.get("spec") or {})[0])
        self.registry = Registry(names)
        self.book = ShapeBook(self.registry)
        pools = []
        for n, a in zip(view.nodes, allocs, strict=True):
            spec = PoolSpec(
                kind="NodePool", name=n.name, resource_group="", cluster_name="", vm_size=n.vm_size
            )
            shape = NodeShape(n.pool, n.vm_size, a, a, n.labels, n.taints, (), "")
            pools.append((spec, shape, n.unschedulable))
        self.cluster = Cluster(self.registry, self.msgs, sim_facts.scoring(), pools)
        for i, n in enumerate(view.nodes):
            self.cluster.add_existing(i, n.name, n.labels)
        bound_shapes: dict[tuple, object] = {}
        for seq, (i, p, (reqs, nzc, nzm)) in enumerate(bound):
            key = (tuple(sorted(reqs.items())), nzc, nzm, _priority(p))
            shape = bound_shapes.get(key)
            if shape is None:  # a running pod only weighs on its node: requests and priority are enough
                shape = bound_shapes[key] = self.book.shape({}, reqs, nzc, nzm, key[3], False)
            self.cluster.bind(Pod(str((p.get("metadata") or {}).get("name")), 0, shape, seq), i)
        self._seq = len(bound)
        self._by_shape: dict[int, Placement] = {}

    def place(self, pod: dict) -> Placement:
        spec = pod.get("spec") or {}
        reqs, nzc, nzm = effective_requests(spec)
        shape = self.book.shape(spec, reqs, nzc, nzm, _priority(pod), spec.get("preemptionPolicy") == "Never")
        cached = self._by_shape.get(shape.id)
        if cached is not None:  # identical pods (one ReplicaSet) get the same answer
            return cached

        self._seq += 1
        p = Pod(str((pod.get("metadata") or {}).get("name")), 0, shape, self._seq)
        c = self.cluster
        verdicts: dict[str, PoolVerdict] = {}
        per_pool_nodes: Counter[str] = Counter(n.pool for n in self.view.nodes)
        for name, count in per_pool_nodes.items():
            verdicts[name] = PoolVerdict(name, count)
        wanted = [k for k in reqs if k not in ("cpu", "memory", "pods")]
        for n in self.view.nodes:
            v = verdicts[n.pool]
            v.gpu = v.gpu or n.is_gpu
            if all(n.capacity.get(k, 0) > 0 for k in wanted):
                v.offers += 1
        groups, _ = c.groups(p)
        for g in groups:
            if g.pool is None:  # nodes a PreFilter left out
                continue
            v = verdicts[self.view.nodes[g.pool.idx].pool]  # one simulate pool per real node
            if not g.unresolvable:
                v.static_ok += 1
            if g.reasons:
                v.reasons[", ".join(g.reasons)] += 1
            else:
                v.fits += 1
        target = c.select(p)
        message = c.diagnose(p).message
        out = Placement(message, c.node_name[target] if target is not None else None, verdicts)
        self._by_shape[shape.id] = out
        return out


def _priority(pod: dict) -> int:
    p = (pod.get("spec") or {}).get("priority")
    return p if isinstance(p, int) and not isinstance(p, bool) else 0


def placements(view: View, pods: list[dict]) -> dict[tuple[str, str], Placement]:
    if not pods or not view.nodes:
        return {}
    placer = Placer(view, pods)
    out = {}
    for pod in pods:
        m = pod.get("metadata") or {}
        out[(m.get("namespace", ""), m.get("name", ""))] = placer.place(pod)
    return out


def by_pool(verdicts: dict[str, PoolVerdict]) -> list[str]:
    """One evidence line per pool: ``pool gpunp (3 nodes): 3 Insufficient nvidia.com/gpu``."""
    lines = []
    for name in sorted(verdicts):
        v = verdicts[name]
        parts = [f"{n} {r}" for r, n in sorted(v.reasons.items(), key=lambda kv: (-kv[1], kv[0]))]
        if v.fits:
            parts.insert(0, f"{v.fits} fit now")
        lines.append(f"pool {name} ({v.nodes} node{'s' if v.nodes != 1 else ''}): {', '.join(parts)}")
    return lines


__all__ = ["Placement", "Placer", "PoolVerdict", "by_pool", "kubernetes_version", "placements"]
