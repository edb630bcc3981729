"""The landing places lint judges a workload against: one :class:`PoolView` per pool (what its nodes
advertise, their labels and taints) — and, from :mod:`gpupool.nap.placement`, one view per Karpenter NodePool
and admitted size — in a :class:`PoolIndex` built once per run, and :class:`PoolFit`, how one pod relates to
one of them. :mod:`gpupool.lint.gpu` joins them with a workload; the rules read them through its context.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpupool import catalog
from gpupool.design.node import (
    advertised,
    device_plugin_mode,
    node_labels,
    open_label_keys,
)
from gpupool.errors import InputError
from gpupool.k8s import taints
from gpupool.spec.model import PoolSpec, Taint

if TYPE_CHECKING:
    from gpupool.k8s.facts import Messages
    from gpupool.nap.model import NapInputs

__all__ = ["PoolFit", "PoolIndex", "PoolView", "as_index"]


class cached_property:
    """``functools.cached_property`` without its per-instance lock (Python 3.11 takes an RLock on every
    first access; a workload context is used by one thread and built ten thousand times per lint run)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@dataclass(frozen=True, eq=False)
class PoolView:
    """What a node of a pool looks like to the scheduler, computed once per pool."""

    pool: PoolSpec
    resources: dict[str, int]  # advertised per node
    labels: dict[str, str]
    hard_taints: tuple[Taint, ...]  # NoSchedule / NoExecute, the Spot taint included
    plugin: str  # device plugin mode (design.node.device_plugin_mode)
    open_keys: frozenset[str] = frozenset()  # labels with values gpupool cannot know (GFD's gpu.product...)

    @property
    def name(self) -> str:
        return self.pool.name

    @property
    def is_gpu(self) -> bool:
        return bool(self.resources)

    @property
    def place(self) -> str:
        """How messages name the landing place (``NodePool gpu`` for a NAP view)."""
        return f"pool {self.name}"

    @property
    def ref(self) -> str:
        """The landing place in a list of pool names."""
        return self.name

    @property
    def select_hint(self) -> str:
        return f"nodeSelector {{kubernetes.azure.com/agentpool: {self.name}}}"

    scaler = "the autoscaler"  # what adds nodes for a Pending pod (NAP for a NodePool)
    reservations = "AKS reservations"

    @property
    def time_slicing(self) -> Any:
        ts = self.pool.gpu_settings.time_slicing
        return ts if ts is not None and self.plugin != "managed" else None

    def describe(self) -> str:
        """``pool gpunp (Standard_ND96asr_v4, MIG1g, Mixed)``."""
        bits = [self.pool.vm_size]
        g = self.pool.gpu_settings
        if self.pool.is_gpu_pool and g.instance_profile:
            bits.append(g.instance_profile)
            bits.append(f"MIG strategy {g.effective_mig_strategy}")
        if self.time_slicing is not None:
            ts = self.time_slicing
            bits.append(f"time-sliced x{ts.replicas}" + (", renameByDefault" if ts.rename_by_default else ""))
        return f"pool {self.name} ({', '.join(bits)})"

    @cached_property
    def allocatable(self) -> dict[str, int] | None:
        """cpu (millicores), memory and pods a node offers after AKS reservations: simulate's computation
        (``design.nodeshape.node_shape``), for the pool's Kubernetes version or AKS's default."""
        from gpupool.design.nodeshape import node_shape
        from gpupool.k8s import facts

        try:
            version = (
                facts.parse_version(self.pool.kubernetes_version)
                if self.pool.kubernetes_version
                else facts.default_version()
            )
            return node_shape(self.pool, facts.default_reservations(), version).allocatable
        except InputError:  # a VM size outside the catalog: nothing to compare with
            return None

    @cached_property
    def driver(self) -> tuple[str, str] | None:
        """(NVIDIA driver version, source) the pool's nodes run when AKS pins it; None otherwise."""
        return _cuda_driver(self)

    def offer_text(self) -> str:
        if not self.resources:
            return f"{self.describe()} advertises no GPU resource"
        res = ", ".join(f"{k}: {v}" for k, v in sorted(self.resources.items()))
        return f"{self.describe()} advertises {res} per node"


class PoolIndex:
    """Pools prepared for placement checks (advertised resources, labels, taints), built once."""

    def __init__(
        self, pools: Sequence[PoolSpec], kubernetes_version: str | None = None, nap: NapInputs | None = None
    ) -> None:
        self.pools = tuple(pools)
        self.kubernetes_version = kubernetes_version  # the run's (lint -k, simulate's); None: see scheduler
        self.nap = nap  # Karpenter NodePools: landing places too (gpupool.nap.placement), after the pools
        self.views: tuple[Any, ...] = tuple(
            PoolView(
                p,
                dict(advertised(p).resources),
                node_labels(p),
                taints.untolerated(p.effective_taints, []),
                device_plugin_mode(p),
                open_label_keys(p),
            )
            for p in self.pools
        )
        if nap:
            from gpupool.nap.placement import nodepool_views

            self.views += nodepool_views(nap)
        # Workloads of one chart or team share their scheduling constraints: memoise placement by them.
        self._placements: dict[Any, list[PoolFit]] = {}
        # ...and often their resources: effective requests memoised by the raw resources sections.
        self._requests: dict[str, tuple[dict[str, Fraction], dict[str, Fraction]]] = {}
        self.memo: dict[Any, Any] = {}  # for rules: verdicts keyed by what they depend on
        # ...and whole verdicts: the findings every rule makes for one pod shape (see _shape_key), replayed
        # with each workload's own positions, path and object name.
        self._verdicts: dict[tuple, tuple[Any, ...]] = {}  # lint.gpu's recipes per pod shape

    def __len__(self) -> int:
        return len(self.views)

    @cached_property
    def scheduler(self) -> Messages:
        """kube-scheduler's words for this run's version (simulate's message facts, chosen as simulate does:
        the given version, else the newest a pool states, else AKS's default)."""
        from gpupool.k8s import facts

        try:
            stated = (p.kubernetes_version for p in self.pools)
            version = facts.scheduler_version(self.kubernetes_version, stated)
        except ValueError:  # reported where the version is read (lint's -k, the spec loader)
            version = facts.default_version()
        return facts.messages(version)

    def __bool__(self) -> bool:
        return bool(self.views)


def as_index(pools: Sequence[PoolSpec] | PoolIndex | None) -> PoolIndex:
    if isinstance(pools, PoolIndex):
        return pools
    return PoolIndex(tuple(pools or ()))


@dataclass(frozen=True)
class PoolFit:
    """How one workload's pod relates to one pool."""

    view: PoolView
    selector_ok: bool  # nodeSelector and required node affinity accept the pool's node labels
    untolerated: tuple[Taint, ...]  # hard taints of the pool the pod does not tolerate
    offers_all: bool  # the pool advertises every GPU resource the pod requests

    @property
    def lands(self) -> bool:
        """The pod may be scheduled onto this pool's nodes (ignoring resources)."""
        return self.selector_ok and not self.untolerated

    @property
    def eligible(self) -> bool:
        return self.lands and self.offers_all


def _cuda_driver(view: PoolView) -> tuple[str, str] | None:
    size = catalog.vm_size(view.pool.vm_size)
    if size is None or not view.pool.is_gpu_pool or view.pool.gpu_settings.driver == "None":
        return None
    pinning = getattr(catalog, "driver_pinning", None)
    if pinning is not None and pinning(view.pool.os_sku) != "pinned":
        return None
    drv = catalog.driver_for(size)
    if drv is None:
        return None
    return drv.version, drv.source
