"""The scheduler core's data: a node's :class:`State` (what is bound on it, by priority), the
:class:`Bucket` of a pool's nodes in one state, :class:`PoolState` (a pool or a group of alike real nodes),
and what a filter pass or a diagnosis returns (:class:`Group`, :class:`Diagnosis`)."""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from gpupool.design.nodeshape import NodeShape
from gpupool.spec.model import PoolSpec

_POOL_UIDS = itertools.count()


class State:
    """What is bound on a node: request vectors per priority (``prio``), their sum (``vec``)."""

    __slots__ = ("id", "next", "nz_cpu", "nz_mem", "owners", "prio", "rid", "vec")

    def __init__(
        self,
        sid: int,
        vec: tuple[int, ...],
        nz_cpu: int,
        nz_mem: int,
        prio: tuple[tuple[int, tuple[int, ...]], ...],
        owners: tuple[tuple[int, int], ...] = (),
        rid: int = 0,
    ) -> None:
        self.id = sid
        self.rid = rid  # the resource part (vec, nz_cpu, nz_mem) interned: what fits and scores depend on
        self.vec = vec
        self.nz_cpu = nz_cpu
        self.nz_mem = nz_mem
        self.prio = prio
        self.owners = owners  # (spreading selector, pods on the node that match it)
        self.next: dict[int, State] = {}

    def owned(self, owner: int) -> int:
        for o, n in self.owners:
            if o == owner:
                return n
        return 0

    def lowest_priority(self) -> int | None:
        return self.prio[0][0] if self.prio else None


class Bucket:
    """The nodes of a pool in one state: a set, and a heap for the lowest node index (lazy deletion)."""

    __slots__ = ("heap", "members", "zones")

    def __init__(self) -> None:
        self.heap: list[int] = []
        self.members: set[int] = set()
        self.zones: dict[tuple, Bucket] = {}  # the same nodes by zone (the spreading keys' values)

    def add(self, nid: int, zone: tuple | None = None) -> None:
        self.members.add(nid)
        heapq.heappush(self.heap, nid)
        if zone is not None:
            sub = self.zones.get(zone)
            if sub is None:
                sub = self.zones[zone] = Bucket()
            sub.add(nid)

    def discard(self, nid: int, zone: tuple | None = None) -> None:
        self.members.discard(nid)
        if zone is not None:
            sub = self.zones[zone]
            sub.discard(nid)
            if not sub.members:
                del self.zones[zone]

    def top(self) -> int:
        heap, members = self.heap, self.members
        while heap[0] not in members:
            heapq.heappop(heap)
        return heap[0]

    def __len__(self) -> int:
        return len(self.members)


class PoolState:
    """A group of identical nodes: a pool's nodes, or (starting from a real cluster) those of a pool that are
    alike (same allocatable, labels, taints, cordon); ``spec_idx`` is the pool they belong to."""

    def __init__(
        self,
        idx: int,
        spec: PoolSpec,
        shape: NodeShape,
        alloc: tuple[int, ...],
        cordoned: bool,
        spec_idx: int | None = None,
    ) -> None:
        self.idx = idx
        self.spec_idx = idx if spec_idx is None else spec_idx
        self.ca_unready = False  # the autoscaler on AKS counts these nodes as unready (set by the engine)
        self.uid = next(_POOL_UIDS)  # shape caches key on it: unique across clusters and templates
        self.spec = spec
        self.shape = shape
        self.name = spec.name
        self.alloc = alloc
        self.labels = shape.labels
        self.taints = shape.taints
        self.cordoned = cordoned
        self.nodes: list[int] = []
        self.created = 0  # node names keep counting up
        self.buckets: dict[State, Bucket] = {}
        self.version = 0
        self.fit_cache: dict[tuple[int, int], tuple[str, ...]] = {}
        self.score_cache: dict[tuple[int, int], int] = {}
        self.best_cache: dict[int, tuple[int, int, list[State]]] = {}
        self.spread_cache: dict[int, tuple[int, list]] = {}
        self.static_cache: dict[str, str | None] = {}  # static key of a shape -> static()'s answer


@dataclass
class Group:
    """Nodes that one filter pass treats alike: how many, why they fail (empty: they fit)."""

    count: int
    reasons: tuple[str, ...]
    unresolvable: bool
    pool: PoolState | None = None
    state: State | None = None
    nodes: set[int] | list[int] | None = None


@dataclass
class Diagnosis:
    message: str
    preempt_nodes: list[int]


def vec_add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def vec_sub(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))
