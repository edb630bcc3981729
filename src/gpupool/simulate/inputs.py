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
from gpupool.k8s.quantity import parse_quantity
from gpupool.k8s.workloads import Workload, containers, iter_objects
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


def _line(obj: Any, default: int) -> int:
    return getattr(obj, "line", 0) or default


def _check_resources(w: Workload, path: str, line: int) -> None:
    """Quantities must parse; extended resources must be whole numbers (the API server rejects others)."""
    for fld, i, c in containers(w.pod_spec):
        res = c.get("resources")
        if res is None:
            continue
        if not isinstance(res, dict):
            raise InputError(path, _line(res, line), f"{w.ref}: {fld}[{i}].resources must be a mapping")
        for section in ("requests", "limits"):
            sec = res.get(section)
            if sec is None:
                continue
            if not isinstance(sec, dict):
                raise InputError(
                    path, _line(sec, line), f"{w.ref}: {fld}[{i}].resources.{section} must be a mapping"
                )
            for name, value in sec.items():
                where = sec.key_pos.get(name, (line, 0))[0] if isinstance(sec, yamlio.LineDict) else line
                try:
                    q = parse_quantity(value)
                except ValueError as e:
                    raise InputError(
                        path, where, f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)}: {e}"
                    ) from None
                if q < 0:
                    raise InputError(
                        path,
                        where,
                        f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)} must not be negative",
                    )
                if "/" in str(name) and q.denominator != 1:
                    raise InputError(
                        path,
                        where,
                        f"{w.ref}: {fld}[{i}].resources.{section}.{_safe(name)}: must be an integer",
                        "the API server rejects fractional extended resources",
                    )


def _key_line(obj: Any, key: str, default: int) -> int:
    if isinstance(obj, yamlio.LineDict) and key in obj.key_pos:
        return obj.key_pos[key][0]
    return _line(obj, default)


def _priority_class(obj: dict, path: str, line: int) -> PriorityClass:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name")
    value = obj.get("value")
    if not isinstance(name, str) or not name:
        raise InputError(path, line, "PriorityClass: metadata.name is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(
            path, _key_line(obj, "value", line), f"PriorityClass {_safe(name)}: value must be an integer"
        )
    if value > 1_000_000_000 and not name.startswith("system-"):
        raise InputError(
            path,
            _key_line(obj, "value", line),
            f"PriorityClass {_safe(name)}: value {value} is above "
            "1000000000, which only system- classes may use",
        )
    policy = obj.get("preemptionPolicy") or "PreemptLowerPriority"
    if policy not in ("PreemptLowerPriority", "Never"):
        raise InputError(
            path,
            _key_line(obj, "preemptionPolicy", line),
            f"PriorityClass {_safe(name)}: preemptionPolicy must be PreemptLowerPriority or Never",
        )
    return PriorityClass(name, value, obj.get("globalDefault") is True, policy)


def load_inputs(paths: Iterable[str | Path], require_pools: bool = True) -> Inputs:
    """Read every file; pools and workloads may share files. Raises InputError on unusable input.

    ``require_pools=False``: pools may come from elsewhere (a snapshot of the real cluster)."""
    out = Inputs()
    for p in paths:
        for doc in yamlio.load_file(p):
            if doc.data is None:
                continue
            yamlio.refuse_duplicates(doc)
            data = doc.data
            if not isinstance(data, dict):
                raise InputError(
                    doc.path, doc.line, "expected a Kubernetes object or a gpupool pool spec (a mapping)"
                )
            if is_pool_document(data) or (data.get("apiVersion") == API_VERSION):
                out.pools.append(parse_pool(data, doc.path, doc.line))
                check_unique(out.pools)
                continue
            if data.get("kind") in KINDS and "apiVersion" not in data:
                raise InputError(doc.path, doc.line, f"kind {data['kind']} needs apiVersion: {API_VERSION}")
            for obj, sub in iter_objects(data):
                line = doc.line
                if sub:
                    loc = yamlio.locate(data, sub)
                    line = loc[0] if loc else doc.line
                if not isinstance(obj, dict):
                    continue
                kind = obj.get("kind")
                if not isinstance(kind, str) or not kind:
                    raise InputError(doc.path, line, "object without a kind")
                if kind == "PriorityClass":
                    pc = _priority_class(obj, doc.path, line)
                    out.priority_classes[pc.name] = pc
                    continue
                found = pod_templates(obj)  # built-in workloads and workload custom resources alike
                if not found:
                    out.ignored[kind] = out.ignored.get(kind, 0) + 1
                    continue
                for w in found:
                    _check_resources(w, doc.path, line)
                    out.workloads.append(WorkloadInput(w, doc.path, line, len(out.workloads)))
    if not out.pools and require_pools:
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
