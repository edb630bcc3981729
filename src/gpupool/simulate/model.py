"""What a simulation is given and what one run of it holds: :class:`Options`, :class:`WorkloadInfo` (a
workload as the run sees it) and :class:`Run` (placements, Pending pods, scale-ups and the messages of one
autoscaler model). Plain data; :mod:`.runner` fills a Run, :mod:`.explain` words it, :mod:`.result`
reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpupool.k8s import facts
from gpupool.simulate.autoscaler import ScaleUp, Template
from gpupool.simulate.cluster import Cluster
from gpupool.simulate.cost import PriceTable
from gpupool.simulate.inputs import WorkloadInput
from gpupool.simulate.pods import Pod, Shape
from gpupool.simulate.start import StartState

AUTOSCALER_MODES = ("aks", "exact", "none")
MAX_PODS = 2_000_000
"""More pods than this (replicas summed over the inputs) are refused instead of exhausting memory."""
EXPANDERS = ("random", "most-pods", "least-waste")


@dataclass(frozen=True)
class Options:
    kubernetes_version: str | None = None
    autoscaler: str = "aks"  # aks: as CA behaves on AKS | exact: CA knows the real nodes | none: no scale-up
    expander: str = "random"
    prices: PriceTable | None = None  # None: the bundled table
    reservations: facts.Reservations | None = None  # None: the bundled AKS formula
    default_max_pods: int | None = None  # None: the bundled AKS default
    cordon: tuple[str, ...] = ()  # pools whose nodes are unschedulable (kubectl cordon)
    extended_resource_toleration: bool = False  # the ExtendedResourceToleration admission plugin
    compare: bool = True  # also run the other autoscaler model, for the GP5xx findings
    start: StartState | None = None  # the real cluster to start from (simulate --snapshot / --live)


@dataclass
class WorkloadInfo:
    index: int
    input: WorkloadInput
    ref: str
    kind: str
    name: str
    count: int | None  # None: DaemonSet
    priority: int = 0
    preempt_never: bool = False
    problem: str | None = None  # why its pods never reach the scheduler
    requests: dict[str, int] = field(default_factory=dict)
    nz_cpu: int = 0
    nz_mem: int = 0
    shape: Shape | None = None
    ds_shape: Shape | None = None
    existing: bool = False  # a DaemonSet of the real cluster: its pods run already; new nodes get one too

    @property
    def is_daemonset(self) -> bool:
        return self.count is None


@dataclass
class Run:
    """One simulation run with one autoscaler model."""

    mode: str
    cluster: Cluster
    pods: list[Pod]
    pending: list[Pod]
    scale_ups: list[ScaleUp]
    initial: list[int]
    sched_msg: dict[int, str] = field(default_factory=dict)  # id(pod) -> message
    ca_msg: dict[int, str | None] = field(default_factory=dict)
    why: dict[int, str | None] = field(default_factory=dict)  # id(pod) -> the story in one sentence
    templates: dict[tuple[int, str], Template] = field(default_factory=dict)
    triggered: dict[int, ScaleUp] = field(default_factory=dict)  # id(pod) -> the scale-up it was counted in
    absorbed: dict[int, int] = field(default_factory=dict)  # id(pod) -> pool whose unready nodes CA counts on
    # why the autoscaler scaled nothing: ("unhealthy" | "no-node-info" | "unready-unmanaged", pool index)
    ca_blocked: tuple[str, int | None] | None = None
    existing: list[Pod] = field(default_factory=list)  # pods running in the real cluster at the start
    evicted: list[Pod] = field(default_factory=list)  # of those, the ones preemption evicted
    nap: Any = None  # simulate.nap.Outcome: what Karpenter (NAP) provisioned for the pods left Pending
    autoscaled: list[int] = field(default_factory=list)  # pools the autoscaler may scale in this run

    def pending_of(self, workload: int) -> list[Pod]:
        return [p for p in self.pending if p.workload == workload]

    def added(self, pool_idx: int) -> int:
        return self.cluster.spec_nodes(pool_idx) - self.initial[pool_idx]
