"""The cluster autoscaler's scale-up, as it behaves on AKS.

Per autoscaled pool (node group) CA checks one pod of each equivalence group against a *template* node, then
estimates with first-fit-decreasing bin packing how many new nodes the pending pods need (capped at
``maxCount``), and an expander picks one option per loop (kubernetes/autoscaler
core/scaleup/orchestrator/orchestrator.go, estimator/binpacking_estimator.go, decreasing_pod_orderer.go).

The template (processors/nodeinfosprovider/mixed_nodeinfos_processor.go): a copy of a real node of the
pool when it has one, else — scale from zero — the cloud provider's template, which on AKS is built from the
VM size alone (:func:`gpupool.design.nodeshape.aks_template`): it knows the SKU's ``nvidia.com/gpu`` count but
nothing of MIG or time-slicing, and its allocatable is its capacity. ``mode="exact"`` uses the real node
shape even at zero, to show what would happen if CA knew the truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gpupool.design.nodeshape import NodeShape
from gpupool.k8s import affinity
from gpupool.k8s.facts import Messages, Scoring
from gpupool.simulate.cluster import Cluster
from gpupool.simulate.nodestate import PoolState, State
from gpupool.simulate.pods import Pod, Registry, Shape
from gpupool.spec.model import PoolSpec


class Template:
    """One node group's template node, with the DaemonSet pods that would run on it."""

    def __init__(
        self,
        spec: PoolSpec,
        shape: NodeShape,
        registry: Registry,
        msgs: Messages,
        scoring: Scoring,
        ds_shapes: Sequence[Shape],
        system_pods: Sequence[Shape] = (),
    ) -> None:
        """``system_pods`` are on the template whatever they ask (CA's kube-proxy pod at zero nodes)."""
        self.spec = spec
        self.shape = shape
        self.kind = shape.template
        self.sandbox = Cluster(registry, msgs, scoring, [(spec, shape, False)])
        self.pool: PoolState = self.sandbox.pools[0]
        self.name = f"template-{spec.name}"
        self.labels = {**shape.labels, "kubernetes.io/hostname": self.name}
        base = self.sandbox.empty
        for sp in system_pods:
            base = self.sandbox._plus(base, sp)
        for ds in ds_shapes:
            if self._static(ds) is None and not self.sandbox.fit(self.pool, base, ds):
                base = self.sandbox._plus(base, ds)
        self.base: State = base
        self._reasons: dict[int, tuple[str, ...]] = {}

    def _static(self, shape: Shape) -> str | None:
        if not shape.varying:
            return self.sandbox.static(shape, self.pool)
        reason = self.sandbox._taint_and_unschedulable(shape, self.pool)
        if reason is None and not affinity.matches_node(shape.pod_spec, self.labels, self.name):
            reason = self.sandbox.msgs.node_affinity
        return reason

    def reasons(self, shape: Shape) -> tuple[str, ...]:
        """Why one pod of ``shape`` would not fit an empty template node (empty: it fits)."""
        r = self._reasons.get(shape.id)
        if r is None:
            if shape.prefilter is not None and self.name not in shape.prefilter:
                r = (self.sandbox.msgs.node_affinity,)
            else:
                static = self._static(shape)
                r = (static,) if static is not None else self.sandbox.fit(self.pool, self.base, shape)
            self._reasons[shape.id] = r
        return r

    def order_score(self, shape: Shape) -> float:
        """DecreasingPodOrderer: cpu request / allocatable cpu + memory request / allocatable memory."""
        alloc = self.pool.alloc
        score = 0.0
        if alloc[1] > 0:
            score += shape.cpu / alloc[1]
        if alloc[2] > 0:
            score += shape.mem / alloc[2]
        return score

    def estimate(self, groups: Sequence[tuple[Shape, list[Pod]]], limit: int) -> tuple[int, list[Pod]]:
        """BinpackingNodeEstimator: (new nodes that got pods, pods they take)."""
        ordered = sorted(groups, key=lambda g: -self.order_score(g[0]))  # stable: ties keep queue order
        nodes: list[State] = []
        has_pods: list[bool] = []
        helped: list[Pod] = []
        sandbox, pool = self.sandbox, self.pool
        for shape, pods in ordered:
            # tryToScheduleOnExistingNodes: the first new node that takes it, until a pod fits none
            ptr, i = 0, 0
            while i < len(pods):
                while ptr < len(nodes) and sandbox.fit(pool, nodes[ptr], shape):
                    ptr += 1  # nodes only fill up: a node that can't take this shape never will
                if ptr >= len(nodes):
                    break
                nodes[ptr] = sandbox._plus(nodes[ptr], shape)
                has_pods[ptr] = True
                helped.append(pods[i])
                i += 1
            # tryToScheduleOnNewNodes: the last new node, else a new one; stop at an empty node or the limit
            for pod in pods[i:]:
                last = len(nodes) - 1
                if last >= 0 and not sandbox.fit(pool, nodes[last], shape):
                    nodes[last] = sandbox._plus(nodes[last], shape)
                    has_pods[last] = True
                    helped.append(pod)
                    continue
                if last >= 0 and not has_pods[last]:
                    break
                if len(nodes) >= limit:
                    break
                nodes.append(self.base)
                has_pods.append(False)
                if not sandbox.fit(pool, self.base, shape):
                    nodes[-1] = sandbox._plus(self.base, shape)
                    has_pods[-1] = True
                    helped.append(pod)
        return sum(has_pods), helped


@dataclass
class Option:
    pool_idx: int
    count: int
    pods: list[Pod]
    template: Template
    waste: float = 0.0


@dataclass
class ScaleUp:
    pool: str
    group: str
    current: int
    new: int
    maximum: int
    template: str  # aks-template | node
    pods: int
    event: str
    workloads: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "from": self.current,
            "to": self.new,
            "max": self.maximum,
            "template": self.template,
            "pods": self.pods,
            "event": self.event,
            "workloads": self.workloads,
        }


def least_waste(option: Option) -> float:
    """least-waste expander: unused cpu and memory fractions of the new nodes (lower is better)."""
    alloc = option.template.pool.alloc
    cpu = sum(p.shape.cpu for p in option.pods)
    mem = sum(p.shape.mem for p in option.pods)
    waste = 0.0
    if alloc[1]:
        waste += (alloc[1] * option.count - cpu) / (alloc[1] * option.count)
    if alloc[2]:
        waste += (alloc[2] * option.count - mem) / (alloc[2] * option.count)
    return waste


def choose(options: list[Option], expander: str) -> Option:
    """The expander; AKS's default ``random`` is modelled as the first option in pool order."""
    if expander == "most-pods":
        return max(options, key=lambda o: (len(o.pods), -o.pool_idx))
    if expander == "least-waste":
        return min(options, key=lambda o: (least_waste(o), o.pool_idx))
    return options[0]
