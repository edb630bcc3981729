"""Read ``gpupool simulate`` inputs: pool specs, workloads and PriorityClasses, told apart by kind.

Pools (``apiVersion: gpupool/v1``) go through :func:`gpupool.spec.parse_pool`; workloads through
:func:`gpupool.k8s.podspecs.pod_templates` (built-in kinds and workload custom resources such as RayCluster,
one workload per pod template; ``kind: List`` expanded); ``scheduling.k8s.io`` PriorityClasses are kept;
every other kind (Service, ConfigMap, Namespace, ...) is counted and ignored. Anything the simulator cannot
use raises :class:`~gpupool.errors.InputError` with ``file:line``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.k8s.podspecs import pod_templates
from gpupool.k8s.quantity import parse_quantity, try_quantity
from gpupool.k8s.runtimes import Runtimes
from gpupool.k8s.workloads import Workload, containers, iter_objects
from gpupool.nap.load import is_nap_document
from gpupool.nap.load import parse_inputs as parse_nap
from gpupool.spec import is_pool_document, parse_pool
from gpupool.spec.load import check_unique
from gpupool.spec.model import API_VERSION, KINDS, PoolSpec


@dataclass(frozen=True)
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"


@dataclass(frozen=True)
class WorkloadInput:
    """One workload object and where it was written."""

    workload: Workload
    path: str
    line: int
    order: int  # position among all workloads (creation order)


@dataclass
class Inputs:
    pools: list[PoolSpec] = field(default_factory=list)
    workloads: list[WorkloadInput] = field(default_factory=list)
    priority_classes: dict[str, PriorityClass] = field(default_factory=dict)
    ignored: dict[str, int] = field(default_factory=dict)  # kind -> count of objects not simulated
    nap: Any = None  # gpupool.nap.model.NapInputs: Karpenter NodePools/AKSNodeClasses (simulate/nap/)


class _Where:
    """Lines of one document, found only when an error needs one (documents are read without positions)."""

    def __init__(self, doc: yamlio.Document, sub: tuple, line: int) -> None:
        self.doc = doc
        self.sub = sub
        self.line = line

    def of(self, *path: Any) -> int:
        """The line of ``path`` inside the object (of its deepest part that exists)."""
        loc = self.doc.locate(self.sub + path)
        return loc[0] if loc else self.line

    def in_pod(self, w: Workload, *rel: Any) -> int:
        """The line of ``rel`` inside the workload's pod spec."""
        return self.of(*w.source_path(tuple(w.pod_spec_path) + rel))


def _check_resources(w: Workload, where: _Where) -> None:
    """Quantities must parse; extended resources must be whole numbers (the API server rejects others)."""
    path = where.doc.path
    for fld, i, c in containers(w.pod_spec):
        res = c.get("resources")
        if res is None:
            continue
        if not isinstance(res, dict):
            raise InputError(
                path, where.in_pod(w, fld, i, "resources"), f"{w.ref}: {fld}[{i}].resources must be a mapping"
            )
        for section in ("requests", "limits"):
            sec = res.get(section)
            if sec is None:
                continue
            if not isinstance(sec, dict):
                raise InputError(
                    path,
                    where.in_pod(w, fld, i, "resources", section),
                    f"{w.ref}: {fld}[{i}].resources.{section} must be a mapping",
                )
            for name, value in sec.items():
                q = try_quantity(value)  # memoised: manifests repeat a few quantities
                if q is None:
                    try:
                        parse_quantity(value)  # for its message
                        msg = f"invalid quantity {value!r}"  # pragma: no cover - try_quantity said invalid
                    except ValueError as e:
                        msg = str(e)
                    raise InputError(
                        path,
                        where.in_pod(w, fld, i, "resources", section, name),
                        f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)}: {msg}",
                    )
                if q < 0:
                    raise InputError(
                        path,
                        where.in_pod(w, fld, i, "resources", section, name),
                        f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)} must not be negative",
                    )
                if "/" in str(name) and q.denominator != 1:
                    raise InputError(
                        path,
                        where.in_pod(w, fld, i, "resources", section, name),
                        f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)}: must be an integer",
                        "the API server rejects fractional extended resources",
                    )


def _priority_class(obj: dict, where: _Where) -> PriorityClass:
    path, line = where.doc.path, where.line
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name")
    value = obj.get("value")
    if not isinstance(name, str) or not name:
        raise InputError(path, line, "PriorityClass: metadata.name is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(
            path, where.of("value"), f"PriorityClass {_safe(name)}: value must be an integer"
        )
    if value > 1_000_000_000 and not name.startswith("system-"):
        raise InputError(
            path,
            where.of("value"),
            f"PriorityClass {_safe(name)}: value {value} is above "
            "1000000000, which only system- classes may use",
        )
    policy = obj.get("preemptionPolicy") or "PreemptLowerPriority"
    if policy not in ("PreemptLowerPriority", "Never"):
        raise InputError(
            path,
            where.of("preemptionPolicy"),
            f"PriorityClass {_safe(name)}: preemptionPolicy must be PreemptLowerPriority or Never",
        )
    return PriorityClass(name, value, obj.get("globalDefault") is True, policy)


def load_inputs(paths: Iterable[str | Path], require_pools: bool = True) -> Inputs:
    """Read every file; pools and workloads may share files. Raises InputError on unusable input.

    ``require_pools=False``: pools may come from elsewhere (a snapshot of the real cluster)."""
    out = Inputs()
    runtimes = Runtimes()
    pending: list[tuple[dict, str, _Where, str, int | None]] = []
    nap_docs: list[tuple[Any, str, int]] = []
    for p in paths:
        name = str(p)
        text = yamlio.read_text(p)
        # positions are found only where an error or a pool spec needs them (lint reads the same way)
        for doc in yamlio.iter_documents(text, "<stdin>" if name == "-" else name, positions="lazy"):
            if doc.data is None:
                continue
            yamlio.refuse_duplicates(doc)
            data = doc.data
            if not isinstance(data, dict):
                raise InputError(
                    doc.path, doc.line, "expected a Kubernetes object or a gpupool pool spec (a mapping)"
                )
            if is_pool_document(data) or (data.get("apiVersion") == API_VERSION):
                out.pools.append(parse_pool(doc.positioned(), doc.path, doc.line))
                check_unique(out.pools)
                continue
            if is_nap_document(data):  # Karpenter NodePool / AKSNodeClass: NAP provisions for Pending pods
                nap_docs.append((doc.positioned(), doc.path, doc.line))
                continue
            if data.get("kind") in KINDS and "apiVersion" not in data:
                raise InputError(doc.path, doc.line, f"kind {data['kind']} needs apiVersion: {API_VERSION}")
            for obj, sub in iter_objects(data):
                line = doc.line
                if sub:
                    loc = doc.locate(sub)
                    line = loc[0] if loc else doc.line
                where = _Where(doc, tuple(sub), line)
                if not isinstance(obj, dict):
                    continue
                kind = obj.get("kind")
                if not isinstance(kind, str) or not kind:
                    raise InputError(doc.path, line, "object without a kind")
                if kind == "PriorityClass":
                    pc = _priority_class(obj, where)
                    out.priority_classes[pc.name] = pc
                    continue
                runtimes.add(obj)
                pending.append((obj, kind, where, doc.path, line))
    # Pod templates once every file is read: a TrainJob or LLMInferenceService finds its runtime or config
    # in any of them (gpupool.k8s.runtimes).
    for obj, kind, where, path, line in pending:
        found = pod_templates(obj, runtimes or None)  # built-in workloads and workload custom resources alike
        if not found:
            out.ignored[kind] = out.ignored.get(kind, 0) + 1
            continue
        for w in found:
            _check_resources(w, where)
            out.workloads.append(WorkloadInput(w, path, line, len(out.workloads)))
    out.nap = parse_nap(nap_docs)
    if not out.pools and require_pools and not out.nap.node_pools:
        raise InputError(
            None,
            None,
            "no pool spec found among the inputs",
            "add the pools (kind GpuNodePool or NodePool, apiVersion gpupool/v1) to simulate against",
        )
    clusters = sorted({p.cluster_name for p in out.pools})
    if len(clusters) > 1:
        first = next(p for p in out.pools if p.cluster_name != out.pools[0].cluster_name)
        raise InputError(
            first.where.path,
            first.where.line_of("clusterName"),
            f"pools of more than one cluster ({', '.join(clusters)}); simulate one cluster at a time",
        )
    defaults = [pc for pc in out.priority_classes.values() if pc.global_default]
    if len(defaults) > 1:
        raise InputError(
            None,
            None,
            "more than one PriorityClass has globalDefault: true "
            f"({', '.join(sorted(pc.name for pc in defaults))})",
        )
    return out
