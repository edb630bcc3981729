"""GPU workload checks (GP212, GP3xx) for one workload against a set of pools — reusable outside lint.

Public API::

    from gpupool.lint.gpu import check_workload, placement, PoolIndex

    findings = check_workload(workload, pools)          # list[Finding], every GP3xx rule (and GP212)
    fits = placement(workload, pools)                   # list[PoolFit]: where the pod can land and why not

``workload`` is a :class:`gpupool.k8s.workloads.Workload` (``workload_of(obj)``); ``pools`` a sequence of
:class:`~gpupool.spec.model.PoolSpec` or a prebuilt :class:`PoolIndex` (build it once when checking many
workloads). Pool-independent rules (GP301-GP303, GP212) run even with no pools. ``diff``'s runbook asks
``check_workload(w, [new_pool])`` and treats GP304-GP307 errors as "this workload will not follow".

The Kubernetes semantics (effective requests, taints vs tolerations, nodeSelector and required node affinity)
come from :mod:`gpupool.k8s`; what a node of a pool advertises and its labels from
:mod:`gpupool.design.node`. This module only joins them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from gpupool import yamlio
from gpupool.design.node import (
    is_gpu_resource,
)
from gpupool.findings import Finding, Severity
from gpupool.k8s import affinity, resources, taints, workloads
from gpupool.k8s.gpustack import classify
from gpupool.k8s.workloads import Workload
from gpupool.lint.places import PoolFit, PoolIndex, PoolView, as_index, cached_property
from gpupool.lint.schema import format_path, safe
from gpupool.spec.model import PoolSpec

if TYPE_CHECKING:
    pass

__all__ = ["PoolFit", "PoolIndex", "PoolView", "WorkloadContext", "check_workload", "object_ref", "placement"]


def gpu_requests(pod_spec: Any) -> dict[str, Fraction]:
    """The pod's effective requests of GPU resources (kube-scheduler's sum/max rules), positive only."""
    return {k: v for k, v in resources.pod_requests_of(pod_spec, is_gpu_resource).items() if v > 0}


_PLACEMENT_CACHE_MAX = 4096
_NODE_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})


_Recipe = tuple  # (rule, severity, message, at, fix, extra): the arguments of one WorkloadContext.finding


_MISSING = ...  # a field that is not there: repr() "Ellipsis", unlike that of any YAML value ("'Ellipsis'")
_SHAPE_FIELDS = ("nodeSelector", "affinity", "tolerations", "overhead")


def _shape_key(workload: Workload) -> tuple | None:
    """Everything the workload rules read, as a memo key: equal keys, equal findings (but for positions,
    path and object name). The rules see the workload only through :class:`WorkloadContext`: its kind,
    placement, unresolved reference (GP315) and pod spec path, and of the pod spec the containers' and
    init containers' resources, restartPolicy and image (with their order), the overhead, and the
    nodeSelector, affinity and tolerations (their presence too: ``spec_key``); for a DaemonSet also which
    GPU stack part its containers run (GP309/GP312: ``gpustack.classify`` of their commands, names and
    images)."""
    spec = workload.pod_spec
    part = None
    if workload.kind == "DaemonSet":
        items = spec.get("containers")
        comp = classify(items) if isinstance(items, list) else None
        part = comp.id if comp is not None else None
    containers = []
    for fld in ("initContainers", "containers"):
        items = spec.get(fld, _MISSING)
        if isinstance(items, list):
            for c in items:
                if isinstance(c, dict):
                    containers.append((fld, c.get("resources"), c.get("restartPolicy"), c.get("image")))
                else:
                    containers.append((fld, "item", c))
        else:
            containers.append((fld, "field", items))
    fields = [spec.get(k, _MISSING) for k in _SHAPE_FIELDS]
    # repr() of parsed YAML values (str, int, float, bool, None, dicts and lists of them) tells equal ones
    # from different ones (1, 1.0, True and "1" included); another key order only costs a miss.
    return (workload.kind, workload.placement, workload.unresolved, workload.pod_spec_path, part,
            repr((containers, fields)))


def _selects(spec: dict, view: PoolView) -> bool:
    """nodeSelector and required node affinity against the pool's node labels; a label whose value gpupool
    cannot know (``view.open_keys``) is taken to have the value the pod asks for."""
    if affinity.matches_node(spec, view.labels):
        return True
    if not view.open_keys:
        return False
    labels = dict(view.labels)
    sel = spec.get("nodeSelector")
    if isinstance(sel, dict):
        for k, v in sel.items():
            if k in view.open_keys:
                labels[k] = str(v)
    for term in affinity.required_terms(spec) or ():
        for expr in (term.get("matchExpressions") or []) if isinstance(term, dict) else ():
            if isinstance(expr, dict) and expr.get("key") in view.open_keys:
                values = expr.get("values")
                if expr.get("operator") in ("In", "Exists"):
                    labels[expr["key"]] = str(values[0]) if isinstance(values, list) and values else "x"
    return affinity.matches_node(spec, labels)


def placement(
    workload: Workload, pools: Sequence[PoolSpec] | PoolIndex, wanted: dict[str, Fraction] | None = None
) -> list[PoolFit]:
    """For each pool: may the workload's pod land there, and does the pool offer its GPU resources?"""
    index = as_index(pools)
    spec = workload.pod_spec
    if wanted is None:
        wanted = gpu_requests(spec)
    tolerations = spec.get("tolerations")
    # repr() of the parsed YAML values (str, int, float, bool, None, dicts and lists of them) tells equal
    # constraints from different ones; a different key order only costs a cache miss.
    if workload.placement:  # selectors and tolerations are decided elsewhere: take every pool as reachable
        return [PoolFit(v, True, (), all(v.resources.get(r, 0) > 0 for r in wanted)) for v in index.views]
    key = (tuple(wanted), repr(spec.get("nodeSelector")), repr(spec.get("affinity")), repr(tolerations))
    hit = index._placements.get(key)
    if hit is not None:
        return hit
    out = []
    for v in index.views:
        out.append(
            PoolFit(
                view=v,
                selector_ok=v.selects(spec) if hasattr(v, "selects") else _selects(spec, v),
                untolerated=tuple(taints.untolerated(v.hard_taints, tolerations)),
                offers_all=all(v.resources.get(r, 0) > 0 for r in wanted),
            )
        )
    if len(index._placements) < _PLACEMENT_CACHE_MAX:
        index._placements[key] = out
    return out


def object_ref(obj: Any) -> str:
    """``Kind namespace/name`` (``Kind name`` when the manifest sets no namespace)."""
    if not isinstance(obj, dict):
        return "<not an object>"
    kind = obj.get("kind") if isinstance(obj.get("kind"), str) else "<no kind>"
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name") or meta.get("generateName") or "<unnamed>"
    ns = meta.get("namespace")
    kind, name = safe(str(kind), 80), safe(str(name), 120)
    return f"{kind} {safe(str(ns), 80)}/{name}" if ns else f"{kind} {name}"


@dataclass
class WorkloadContext:
    """What every GP3xx rule's ``check(ctx)`` sees: the workload, the pools, and where things are.

    A rule's verdict is memoised per pod shape and replayed on objects of the same shape
    (:func:`_shape_key`): a rule that reads something of the workload not in that key must add it there."""

    workload: Workload
    index: PoolIndex
    path: str | None = None  # file of the manifest
    root: Any = None  # the YAML document (data or yamlio.Document) the object came from, for line numbers
    base: tuple = ()  # path of the object inside ``root`` (("items", 3) inside a List)
    ref: str = ""
    extra_findings: list[Finding] = field(default_factory=list)
    recorded: list[_Recipe] | None = field(default=None, repr=False)  # finding() calls, for the memo

    def __post_init__(self) -> None:
        if self.root is None:
            self.root = self.workload.obj
        if not self.ref:
            self.ref = object_ref(self.workload.obj)

    # ---- facts about the pod ----

    @property
    def pod_spec(self) -> dict:
        return self.workload.pod_spec

    @property
    def spec_path(self) -> tuple:
        return self.workload.pod_spec_path

    @cached_property
    def resources_key(self) -> str:
        """Text that equal resources (and so equal effective requests) share: a memo key for rules."""
        return resources.requests_key(self.pod_spec)

    @cached_property
    def _both_requests(self) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
        spec = self.pod_spec
        key = self.resources_key
        cache = self.index._requests
        hit = cache.get(key)
        if hit is None:
            got = resources.pod_requests_of(spec, _NODE_RESOURCES.__contains__)
            hit = (gpu_requests(spec), {k: v for k, v in got.items() if v > 0})
            if len(cache) < _PLACEMENT_CACHE_MAX:
                cache[key] = hit
        return hit

    @property
    def requests(self) -> dict[str, Fraction]:
        """The pod's effective GPU requests (positive only)."""
        return self._both_requests[0]

    @property
    def node_requests(self) -> dict[str, Fraction]:
        """The pod's effective cpu, memory and ephemeral-storage requests (positive only)."""
        return self._both_requests[1]

    @cached_property
    def fits(self) -> list[PoolFit]:
        return placement(self.workload, self.index, self.requests)

    @cached_property
    def candidates(self) -> list[PoolView]:
        """Pools the pod is meant for, to judge its size against even when it cannot land yet. A GPU pod:
        those it can land on (offering its GPUs), else those its selectors accept (a missing toleration is
        GP305's finding, not a reason to skip the others), else every pool offering its GPUs. A pod without
        GPUs: only the pools it can land on (a CPU pod that does not tolerate the GPU pool's taint is not
        meant for it)."""
        gpu = bool(self.requests)
        if not gpu:  # a pod without GPUs is judged only against pools it can land on
            return [f.view for f in self.fits if f.lands]
        fits = [f for f in self.fits if f.offers_all]
        for pick in (lambda f: f.lands, lambda f: f.selector_ok, lambda f: gpu):
            chosen = [f.view for f in fits if pick(f)]
            if chosen:
                return chosen
        return []

    @property
    def views(self) -> tuple[PoolView, ...]:
        return self.index.views

    def offering(self, resource: str) -> list[PoolView]:
        return [v for v in self.views if v.resources.get(resource, 0) > 0]

    @cached_property
    def _containers(self) -> list[tuple[tuple, dict]]:
        return [
            ((*self.spec_path, fld, i), c)
            for fld, i, c in workloads.containers(self.pod_spec)
            if fld != "ephemeralContainers"
        ]

    def containers(self) -> list[tuple[tuple, dict]]:
        """``(path relative to the object, container)`` for init and app containers (not ephemeral)."""
        return self._containers

    @cached_property
    def _sections(self) -> list[tuple[tuple, dict, dict]]:
        out = []
        for cpath, c in self._containers:
            res = c.get("resources")
            if not isinstance(res, dict):
                continue
            req = res.get("requests")
            lim = res.get("limits")
            req = req if isinstance(req, dict) else {}
            lim = lim if isinstance(lim, dict) else {}
            if req or lim:
                out.append((cpath, req, lim))
        return out

    def resource_sections(self) -> list[tuple[tuple, dict, dict]]:
        """``(container path, requests, limits)`` with the raw (unparsed) mappings."""
        return self._sections

    @cached_property
    def extended_entries(self) -> list[tuple[tuple, str, str, Any]]:
        """``(container path, "requests" | "limits", name, raw value)`` of every extended resource."""
        out = []
        for cpath, req, lim in self._sections:
            for section, values in (("requests", req), ("limits", lim)):
                for name, value in values.items():
                    if isinstance(name, str) and resources.is_extended_resource(name):
                        out.append((cpath, section, name, value))
        return out

    def where_requested(self, resource: str) -> tuple:
        """Path of the first limits/requests key naming ``resource`` (the pod spec when none)."""
        for cpath, req, lim in self.resource_sections():
            if resource in lim:
                return (*cpath, "resources", "limits", resource)
            if resource in req:
                return (*cpath, "resources", "requests", resource)
        return self.spec_path

    def spec_key(self, *keys: str) -> tuple:
        """Path of the first of ``keys`` present in the pod spec, else the pod spec itself."""
        for k in keys:
            if k in self.pod_spec:
                return (*self.spec_path, k)
        return self.spec_path

    def field_path(self, rel: tuple) -> str:
        return format_path(rel)

    # ---- findings ----

    def finding(
        self, rule: str, severity: Severity, message: str, at: tuple, fix: str | None = None, **extra: Any
    ) -> Finding:
        """A finding of ``rule`` located at ``at`` (a path relative to the object)."""
        if self.recorded is not None:
            self.recorded.append((rule, severity, message, at, fix, dict(extra)))
        at = self.workload.source_path(at)
        pos = yamlio.locate(self.root, (*self.base, *at)) if self.root is not None else None
        return Finding(
            rule=rule,
            severity=severity,
            message=message,
            path=self.path,
            line=pos[0] if pos else None,
            column=pos[1] if pos else None,
            object=self.ref,
            fix=fix,
            extra=extra,
        )


_NO_POOLS = PoolIndex(())


@cache
def workload_rules() -> tuple[ModuleType, ...]:
    """Rule modules with a ``check(ctx: WorkloadContext)`` (GP212 and GP3xx), in ID order."""
    from gpupool import rules as registry

    return tuple(r.module for r in registry.family("gpupool.lint.rules") if hasattr(r.module, "check"))


def check_workload(
    workload: Workload,
    pools: Sequence[PoolSpec] | PoolIndex | None = None,
    *,
    path: str | None = None,
    root: Any = None,
    base: tuple = (),
    ref: str | None = None,
) -> list[Finding]:
    """Run every workload rule on one workload against ``pools``; findings carry file:line when ``root`` (the
    YAML document, with ``base`` the object's path in it) or the workload object itself has positions."""
    index = _NO_POOLS if workload.placement == "operator" else as_index(pools)
    ref = workload.with_role(ref or object_ref(workload.obj))
    key = _shape_key(workload)
    recipes = index._verdicts.get(key) if key is not None else None
    if recipes is not None:  # the same pod shape was checked before: its findings, at this object's places
        if not recipes:
            return []
        ctx = WorkloadContext(workload, index, path=path, root=root, base=base, ref=ref or "")
        return [ctx.finding(r, sev, msg, at, fix, **dict(extra)) for r, sev, msg, at, fix, extra in recipes]
    ctx = WorkloadContext(workload, index, path=path, root=root, base=base, ref=ref or "")
    if key is not None:
        ctx.recorded = []
    out: list[Finding] = []
    for rule in workload_rules():
        out.extend(rule.check(ctx))
    if key is not None and len(index._verdicts) < _PLACEMENT_CACHE_MAX:
        index._verdicts[key] = tuple(ctx.recorded or ())
    return out


def cuda_driver(view: PoolView) -> tuple[str, str] | None:
    """(driver version, where it comes from) that the pool's nodes run, when AKS pins it; else None."""
    return view.driver
