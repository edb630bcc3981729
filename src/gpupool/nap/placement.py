"""Karpenter NodePools as landing places for lint's GPU rules: one view per (NodePool, admitted size).

A pod can land on a NodePool when Karpenter would create a node for it there
(kubernetes-sigs/karpenter ``pkg/controllers/provisioning/scheduling`` ``NodeClaim.CanAdd``):

* it tolerates every taint of the NodePool (``spec.template.spec.taints``; ``startupTaints`` are removed
  after start and not asked for; ``PreferNoSchedule`` taints are tolerated by Karpenter's own relaxation,
  so only ``NoSchedule``/``NoExecute`` count, as for pools);
* its nodeSelector and required node affinity are *compatible* with the NodePool's requirements, template
  labels and ``karpenter.sh/nodepool`` (``Requirements.Compatible`` with ``AllowUndefinedWellKnownLabels``:
  a key the NodePool does not define is refused unless it is a well-known label or the pod's operator is
  NotIn/DoesNotExist), and *intersect* the labels of some admitted instance type (``sku-gpu-name``,
  ``sku-gpu-count``, ``node.kubernetes.io/instance-type``, ``kubernetes.io/arch``,
  ``karpenter.sh/capacity-type``...);
* that instance type's allocatable fits its requests (GPU count, CPU, memory after Karpenter's overhead).

Each admitted size is a :class:`NodePoolView`, shaped like :class:`gpupool.lint.gpu.PoolView` (``resources``,
``hard_taints``, ``allocatable``, ``describe()``...), so the GP3xx rules judge pools and NodePools alike: a
pod needs one landing place among all of them. Sizes the catalog lacks (NAP's GPU registry only) have no known
GPU count, CPU or memory and make no view. Facts: ``catalog/data/nap.yaml`` (``scheduling``, ``allocatable``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpupool import catalog
from gpupool.errors import safe_text as _safe
from gpupool.k8s import affinity
from gpupool.nap.model import DEFAULT_NODE_CLASS, NapInputs, NodeClass, NodePool, Requirement, Taint
from gpupool.nap.sizes import UNKNOWN, NapSize, _accepts, admitted

NODEPOOL_LABEL = "karpenter.sh/nodepool"


def _facts() -> dict[str, Any]:
    return catalog._data("nap.yaml")


def _well_known() -> frozenset[str]:
    f = _facts()
    return frozenset((*f["scheduling"]["wellKnownCore"], *f["labels"]["wellKnown"]))


def _normalized() -> dict[str, str]:
    return dict(_facts()["scheduling"]["normalizedLabels"])


# ---- Karpenter's allocatable -------------------------------------------------------------------------------


def _tax(amount: float, brackets: list[list[Any]]) -> float:
    """karpenter-provider-azure ``TaxBrackets.Calculate``: each bracket's rate on the part of ``amount`` in
    it."""
    tax, lower = 0.0, 0.0
    for upper, rate in brackets:
        upper = math.inf if upper is None else float(upper)
        if lower > amount:
            continue
        tax += (min(upper, amount) - lower) * float(rate)
        lower = upper
    return tax


def allocatable(size: NapSize) -> dict[str, int] | None:
    """cpu (millicores) and memory (bytes) Karpenter counts on a node of ``size``: capacity (memory less NAP's
    VM memory overhead) less kube-reserved and the eviction threshold. None when the size is unknown."""
    if size.vcpu is None or size.memory_gib is None:
        return None
    a = _facts()["allocatable"]
    gib = float(size.memory_gib)
    mem = int(gib) * 2**30
    mem -= math.ceil(mem * float(_facts()["capacity"]["memoryOverheadPercent"]))
    reserved_mi = int(1024 * _tax(gib, a["kubeReservedMemoryGiB"]))
    reserved_milli = int(1000 * _tax(float(size.vcpu), a["kubeReservedCpu"]))
    eviction = int(a["evictionThresholdMiB"]) * 2**20
    return {"cpu": size.vcpu * 1000 - reserved_milli, "memory": mem - reserved_mi * 2**20 - eviction}


# ---- requirement compatibility --------------------------------------------------------------------------


def _pod_terms(spec: Any) -> list[list[Requirement]] | None:
    """The pod's node requirements as alternatives (terms ORed, each a list ANDed): nodeSelector joined to
    every required term. None: malformed (judged elsewhere; taken as compatible)."""
    norm = _normalized()
    base: list[Requirement] = []
    sel = spec.get("nodeSelector") if isinstance(spec, dict) else None
    if isinstance(sel, dict):
        for k, v in sel.items():
            base.append(Requirement(norm.get(str(k), str(k)), "In", (str(v),)))
    terms = affinity.required_terms(spec)
    if terms is None:
        return [base]
    out = []
    for term in terms:
        if not isinstance(term, dict):
            return None
        exprs = term.get("matchExpressions") or []
        if not isinstance(exprs, list):
            return None
        reqs = list(base)
        for e in exprs:
            if not isinstance(e, dict) or not isinstance(e.get("key"), str):
                return None
            values = e.get("values") or []
            if not isinstance(values, list):
                return None
            key = e["key"]
            op = str(e.get("operator"))
            reqs.append(Requirement(norm.get(key, key), op, tuple(str(v) for v in values)))
        if exprs or term.get("matchFields"):
            out.append(reqs)
    return out


@dataclass(frozen=True, eq=False)
class NodePoolView:
    """A node NAP could create for a NodePool: one admitted size, shaped like lint's ``PoolView``."""

    nodepool: NodePool
    node_class: NodeClass
    size: NapSize
    resources: dict[str, int]
    hard_taints: tuple[Taint, ...]
    allocatable: dict[str, int] | None
    domains: dict[str, frozenset[str] | None] = field(repr=False)  # size labels: values; None: any value
    plugin: str = "nap"  # no gpupool device plugin mode: GP309/GP312 do not judge NAP nodes
    open_keys: frozenset[str] = frozenset()
    time_slicing: None = None
    driver: None = None

    @property
    def pool(self) -> NodePool:
        return self.nodepool

    @property
    def name(self) -> str:
        return self.nodepool.name

    @property
    def place(self) -> str:
        """How messages name the landing place."""
        return f"NodePool {self.nodepool.name}"

    ref = place

    @property
    def select_hint(self) -> str:
        return f"nodeSelector {{{NODEPOOL_LABEL}: {self.nodepool.name}}}"

    scaler = "NAP"
    reservations = "Karpenter's kube-reserved and eviction threshold"

    @property
    def labels(self) -> dict[str, str]:
        return {k: next(iter(v)) for k, v in self.domains.items() if v is not None and len(v) == 1}

    @property
    def is_gpu(self) -> bool:
        return bool(self.resources)

    def describe(self) -> str:
        return f"NodePool {self.nodepool.name} ({self.size.name})"

    def offer_text(self) -> str:
        if not self.resources:
            return f"{self.describe()} advertises no GPU resource"
        res = ", ".join(f"{k}: {v}" for k, v in sorted(self.resources.items()))
        return f"{self.describe()} advertises {res} per node"

    # ---- the pod's requirements --------------------------------------------------------------------------

    def selects(self, spec: Any) -> bool:
        """True when Karpenter finds the pod's nodeSelector / required node affinity compatible with this
        NodePool and this size (see the module docstring)."""
        return self.mismatch(spec) is None

    def mismatch(self, spec: Any) -> str | None:
        """Why the pod's node requirements rule this size of the NodePool out (None: they do not)."""
        terms = _pod_terms(spec)
        if terms is None:
            return None
        if not terms:
            return "its required node affinity has no term"
        first = None
        for reqs in terms:
            why = self._term_mismatch(reqs)
            if why is None:
                return None
            first = first or why
        return first

    def _constraints(self, key: str) -> list[Requirement]:
        np = self.nodepool
        out = [r for r in np.requirements if r.key == key]
        if key in np.labels:
            out.append(Requirement(key, "In", (np.labels[key],)))
        if key == NODEPOOL_LABEL:
            out.append(Requirement(key, "In", (np.name,)))
        return out

    def _term_mismatch(self, reqs: list[Requirement]) -> str | None:
        by_key: dict[str, list[Requirement]] = {}
        for r in reqs:
            by_key.setdefault(r.key, []).append(r)
        for key, pod in by_key.items():
            if not self._satisfiable(key, pod):
                if not self._defined(key) and key not in _well_known():
                    return f"{self.place} does not define label {_safe(key, 80)}"
                return f"{self.place} admits no size with {' and '.join(_show(r) for r in pod)}"
        return None

    def _defined(self, key: str) -> bool:
        return key in self.domains or bool(self._constraints(key))

    def _satisfiable(self, key: str, pod: list[Requirement]) -> bool:
        constraints = self._constraints(key) + pod
        if not self._defined(key):
            if all(r.operator in ("NotIn", "DoesNotExist") for r in pod):
                return True
            return key in _well_known()  # allowed undefined; unknown to the instance type: no filter
        if key in self.domains:
            have = self.domains[key]
            if have is not None:  # the instance type's values (an empty set: the label is absent)
                candidates: Iterable[str | None] = have if have else (None,)
                return any(all(_accepts(r, v) for r in constraints) for v in candidates)
        # any value (unknown per size) or a label the NodePool sets: values the requirements name
        named = {v for r in constraints if r.operator == "In" for v in r.values}
        if not named:
            exists = any(r.operator in ("Exists", "Gt", "Lt", "Gte", "Lte") for r in constraints)
            absent = any(r.operator == "DoesNotExist" for r in constraints)
            return not (exists and absent)
        return any(all(_accepts(r, v) for r in constraints) for v in named)


def _show(r: Requirement) -> str:
    """A pod's requirement in a message (its key and values are the pod's text: made safe to print)."""
    if r.operator == "In" and len(r.values) == 1:
        return _safe(f"{r.key}={r.values[0]}", 120)
    return _safe(str(r), 120)


def _domains(size: NapSize, node_class: NodeClass) -> dict[str, frozenset[str] | None]:
    out: dict[str, frozenset[str] | None] = {}
    for k, v in size.labels.items():
        if v is UNKNOWN:
            out[k] = None
        elif v is None:
            out[k] = frozenset()
        elif isinstance(v, tuple):
            out[k] = frozenset(v)
        else:
            out[k] = frozenset((str(v),))
    os_sku = _facts()["offering"]["imageFamilyOsSku"][node_class.effective_image_family]
    out["kubernetes.azure.com/os-sku"] = frozenset((os_sku,))
    return out


def nodepool_views(nap: NapInputs) -> tuple[NodePoolView, ...]:
    """Every (NodePool, admitted size) as a landing place; sizes NAP offers that the catalog knows (the
    requirements admit them, or gpupool cannot tell), heaviest NodePool weight first."""
    out: list[NodePoolView] = []
    pools = sorted(nap.node_pools, key=lambda p: -(p.weight or 0))
    for p in pools:
        nc = nap.node_class_of(p) or DEFAULT_NODE_CLASS
        adm = admitted(p, nap.node_class_of(p))
        taints = tuple(t for t in p.taints if t.effect in ("NoSchedule", "NoExecute"))
        for s in (*adm.sure, *adm.maybe):
            if s.size is None:
                continue
            out.append(NodePoolView(p, nc, s, s.advertised(), taints, allocatable(s), _domains(s, nc)))
    return tuple(out)

