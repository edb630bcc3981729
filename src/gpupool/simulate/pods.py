"""Pods as the scheduler sees them: a *shape* (requests, tolerations, node selection, priority) shared by
identical pods, and the pods themselves (name, workload, creation order, an optional node pin).

Identical pods (the replicas of one Deployment, usually) share one interned :class:`Shape`, so filters and
scores are computed once per shape and node state, not once per pod.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gpupool import yamlio
from gpupool.k8s import affinity
from gpupool.k8s.resources import Resources, extended, pod_requests, pod_requests_non_missing, requests_key

# Node labels that differ from node to node inside one pool: a pod selecting on them is evaluated per node.
VARYING_KEYS = frozenset(
    {
        "kubernetes.io/hostname",
        "topology.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/zone",
        "topology.disk.csi.azure.com/zone",
    }
)
NOT_MODELLED = frozenset({"ephemeral-storage"})


class Registry:
    """Resource names -> vector positions: 0 pods, 1 cpu (millicores), 2 memory (bytes), then the rest."""

    def __init__(self, names: set[str] | list[str] = ()) -> None:
        extra = sorted(set(names) - {"pods", "cpu", "memory"})
        self.names: list[str] = ["pods", "cpu", "memory", *extra]
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}

    def vector(self, amounts: dict[str, int]) -> tuple[int, ...]:
        v = [0] * len(self.names)
        for k, q in amounts.items():
            v[self.index[k]] = q
        return tuple(v)

    def as_dict(self, vec: tuple[int, ...]) -> dict[str, int]:
        return {n: vec[i] for i, n in enumerate(self.names) if vec[i]}


def to_ints(res: Resources) -> dict[str, int]:
    """Quantities as kube-scheduler counts them: cpu in millicores, the rest in units, rounded up."""
    out: dict[str, int] = {}
    for name, q in res.items():
        if name in NOT_MODELLED or q <= 0:
            continue
        out[name] = math.ceil(q * 1000) if name == "cpu" else math.ceil(q)
    return out


def _plain(obj: Any) -> Any:
    return yamlio.to_plain(obj) if obj is not None else None


@dataclass(eq=False)
class Shape:
    """Everything scheduling depends on, for a set of identical pods."""

    id: int
    key: tuple
    requests: dict[str, int]  # effective requests (cpu milli, memory bytes, extended units)
    req: tuple[int, ...]  # registry vector; req[0] = 1 (the pod itself)
    cpu: int
    mem: int
    nz_cpu: int  # requests with kube-scheduler's non-zero defaults, for scoring
    nz_mem: int
    tolerations: list
    pod_spec: dict  # nodeSelector and affinity are read from here
    priority: int
    preempt_never: bool
    varying: bool  # node selection depends on per-node labels or names: evaluate node by node
    prefilter: frozenset[str] | None  # NodeAffinity PreFilterResult: node names, or None (all nodes)
    preferred: list  # preferredDuringScheduling node affinity terms
    ds_tolerations: bool = False
    # PodTopologySpread's system defaults: the spreading selector (namespace + the owner's label selector)
    # whose matching pods it is scored against; and the selectors its own labels match (it counts for them)
    spread_owner: int | None = None
    spread_matches: tuple[int, ...] = ()
    cache: dict = field(default_factory=dict)
    # What the resource filter and scores depend on, interned: shapes that differ only in where they may go
    # or whom they spread from (every Deployment is its own shape) share fits and scores (unique across books)
    rid: int = -1

    @property
    def best_effort(self) -> bool:
        return self.cpu == 0 and self.mem == 0

    def gpu_requests(self) -> dict[str, int]:
        from gpupool.design.node import is_gpu_resource

        return {k: v for k, v in self.requests.items() if is_gpu_resource(k)}


def prefilter_names(pod_spec: Any) -> frozenset[str] | None:
    """NodeAffinity PreFilter: the node names every required term pins with ``metadata.name In``.

    None when some term has no such requirement (all nodes stay candidates); an empty set is a conflict.
    """
    terms = affinity.required_terms(pod_spec)
    if not terms:
        return None
    names: set[str] = set()
    for t in terms:
        term_names: set[str] | None = None
        fields = t.get("matchFields") if isinstance(t, dict) else None
        for r in fields or []:
            if isinstance(r, dict) and r.get("key") == "metadata.name" and r.get("operator") == "In":
                s = {str(v) for v in (r.get("values") or [])}
                term_names = s if term_names is None else term_names & s
        if term_names is None:
            return None
        names |= term_names
    return frozenset(names)


def _varying(pod_spec: dict) -> bool:
    sel = pod_spec.get("nodeSelector")
    if isinstance(sel, dict) and VARYING_KEYS & set(sel):
        return True
    na = (
        (pod_spec.get("affinity") or {}).get("nodeAffinity")
        if isinstance(pod_spec.get("affinity"), dict)
        else None
    )
    if not isinstance(na, dict):
        return False
    terms = list(affinity.required_terms(pod_spec) or [])
    for p in na.get("preferredDuringSchedulingIgnoredDuringExecution") or []:
        if isinstance(p, dict):
            terms.append(p.get("preference"))
    for t in terms:
        if not isinstance(t, dict):
            continue
        if t.get("matchFields"):
            return True
        for e in t.get("matchExpressions") or []:
            if isinstance(e, dict) and e.get("key") in VARYING_KEYS:
                return True
    return False


def preferred_terms(pod_spec: dict) -> list[tuple[int, dict]]:
    """``(weight, preference)`` of preferredDuringSchedulingIgnoredDuringExecution node affinity."""
    aff = pod_spec.get("affinity")
    na = aff.get("nodeAffinity") if isinstance(aff, dict) else None
    terms = na.get("preferredDuringSchedulingIgnoredDuringExecution") if isinstance(na, dict) else None
    out = []
    for p in terms if isinstance(terms, list) else []:
        if isinstance(p, dict) and isinstance(p.get("weight"), int) and isinstance(p.get("preference"), dict):
            out.append((p["weight"], p["preference"]))
    return out


_REQ_MEMO: dict[str, tuple[dict[str, int], int, int]] = {}
_REQ_MEMO_MAX = 4096


def effective_requests(pod_spec: dict) -> tuple[dict[str, int], int, int]:
    """(requests, non-zero cpu, non-zero memory) for one pod template (memoised by the pod's resources)."""
    key = requests_key(pod_spec) if isinstance(pod_spec, dict) else None
    hit = _REQ_MEMO.get(key) if key is not None else None
    if hit is None:
        hit = _effective_requests(pod_spec)
        if key is not None and len(_REQ_MEMO) < _REQ_MEMO_MAX:
            _REQ_MEMO[key] = hit
    return dict(hit[0]), hit[1], hit[2]


def _effective_requests(pod_spec: dict) -> tuple[dict[str, int], int, int]:
    from gpupool.k8s.facts import scoring

    sc = scoring()
    reqs = to_ints(pod_requests(pod_spec))
    nz = pod_requests_non_missing(
        pod_spec, {"cpu": Fraction(sc.non_zero_cpu_milli, 1000), "memory": Fraction(sc.non_zero_memory)}
    )
    nzi = to_ints(nz)
    return reqs, nzi.get("cpu", 0), nzi.get("memory", 0)


_RIDS = itertools.count()


class ShapeBook:
    """Interns shapes: equal scheduling inputs -> the same Shape object."""

    def __init__(self, registry: Registry, extended_resource_toleration: bool = False) -> None:
        self.registry = registry
        self.ert = extended_resource_toleration
        self._by_key: dict[tuple, Shape] = {}
        self.shapes: list[Shape] = []
        self._rids: dict[tuple, int] = {}

    def shape(
        self,
        pod_spec: dict,
        requests: dict[str, int],
        nz_cpu: int,
        nz_mem: int,
        priority: int,
        preempt_never: bool,
        extra_tolerations: list | None = None,
        spread_owner: int | None = None,
        spread_matches: tuple[int, ...] = (),
    ) -> Shape:
        tols = (
            list(_plain(pod_spec.get("tolerations")) or [])
            if isinstance(pod_spec.get("tolerations"), list)
            else []
        )
        if extra_tolerations:
            tols += extra_tolerations
        if self.ert:  # ExtendedResourceToleration admission plugin
            for name in sorted(extended({k: Fraction(v) for k, v in requests.items()})):
                tols.append({"key": name, "operator": "Exists", "effect": "NoSchedule"})
        selection = {
            "nodeSelector": _plain(pod_spec.get("nodeSelector")),
            "affinity": _plain((pod_spec.get("affinity") or {}).get("nodeAffinity"))
            if isinstance(pod_spec.get("affinity"), dict)
            else None,
        }
        key = (
            tuple(sorted(requests.items())),
            nz_cpu,
            nz_mem,
            json.dumps(tols, sort_keys=True, default=str),
            json.dumps(selection, sort_keys=True, default=str),
            priority,
            preempt_never,
            spread_owner,
            spread_matches,
        )
        found = self._by_key.get(key)
        if found is not None:
            return found
        amounts = dict(requests)
        amounts["pods"] = 1
        s = Shape(
            id=len(self.shapes),
            key=key,
            requests=dict(requests),
            req=self.registry.vector(amounts),
            cpu=requests.get("cpu", 0),
            mem=requests.get("memory", 0),
            nz_cpu=nz_cpu,
            nz_mem=nz_mem,
            tolerations=tols,
            pod_spec={
                "nodeSelector": selection["nodeSelector"],
                "affinity": {"nodeAffinity": selection["affinity"]} if selection["affinity"] else None,
            },
            priority=priority,
            preempt_never=preempt_never,
            varying=_varying(
                {
                    "nodeSelector": selection["nodeSelector"],
                    "affinity": {"nodeAffinity": selection["affinity"]},
                }
            ),
            prefilter=prefilter_names({"affinity": {"nodeAffinity": selection["affinity"]}}),
            preferred=preferred_terms({"affinity": {"nodeAffinity": selection["affinity"]}}),
            ds_tolerations=extra_tolerations is not None,
            spread_owner=spread_owner,
            spread_matches=spread_matches,
        )
        rkey = (s.req, nz_cpu, nz_mem)
        rid = self._rids.get(rkey)
        if rid is None:
            rid = self._rids[rkey] = next(_RIDS)
        s.rid = rid
        s.cache["static-key"] = key[3] + "\n" + key[4]  # tolerations and node selection: what static() reads
        self._by_key[key] = s
        self.shapes.append(s)
        return s


class Pod:
    """One pod: ``seq`` is its creation order; ``pin`` the node a DaemonSet pod is bound to by affinity."""

    __slots__ = ("ds", "name", "node", "pin", "seq", "shape", "status", "workload")

    def __init__(
        self, name: str, workload: int, shape: Shape, seq: int, pin: int | None = None, ds: bool = False
    ) -> None:
        self.name = name
        self.workload = workload
        self.shape = shape
        self.seq = seq
        self.pin = pin
        self.ds = ds
        self.node: int | None = None
        self.status: str | None = None  # set when the pod never reaches the scheduler (admission, gates)

    @property
    def priority(self) -> int:
        return self.shape.priority

    def queue_key(self) -> tuple[int, int]:
        return (-self.shape.priority, self.seq)
