"""Read Karpenter NodePool (karpenter.sh/v1) and AKSNodeClass (karpenter.azure.com) documents, strictly.

The shape comes from the CRDs (``data/crds.yaml``, :mod:`gpupool.nap.schema`); on top of it, the CEL rules of
the NodePool CRD that decide what gpupool reasons about: requirement keys in the restricted label domains
(``karpenter.sh``, ``karpenter.azure.com``, ``kubernetes.azure.com``), operators and their values, minValues,
static NodePools (replicas). Anything the API server would refuse is an :class:`~gpupool.errors.InputError`
(``file:line: message``, exit 2); judgement (does this NodePool make sense for GPUs?) is left to the rules.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any

from gpupool import catalog, yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.k8s.quantity import parse_quantity
from gpupool.nap.model import (
    NODECLASS_APIS,
    NODEPOOL_API,
    Budget,
    NapInputs,
    NodeClass,
    NodePool,
    Requirement,
    Taint,
    Where,
)
from gpupool.nap.schema import Validator, item_line, line_of, shapes

KARPENTER_GROUPS = ("karpenter.sh/", "karpenter.azure.com/")
_TOP_FIELDS = ("apiVersion", "kind", "metadata", "spec", "status")
_NAME_RE = re.compile(r"^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
_LABEL_KEY_RE = re.compile(
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"
)
_LABEL_VALUE_RE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_NUMERIC_OPERATORS = ("Gt", "Lt", "Gte", "Lte")


def is_nap_document(data: Any) -> bool:
    """True for documents that are Karpenter objects (any version: a wrong version is reported, not
    skipped)."""
    if not isinstance(data, dict):
        return False
    api, kind = data.get("apiVersion"), data.get("kind")
    return isinstance(api, str) and api.startswith(KARPENTER_GROUPS) and kind in ("NodePool", "AKSNodeClass")


def _facts() -> dict[str, Any]:
    return catalog._data("nap.yaml")


def parse_document(data: Any, path: str, doc_line: int = 1) -> NodePool | NodeClass:
    """Validate one Karpenter document and return its model. Raises InputError."""
    v = Validator(path, doc_line)
    if not isinstance(data, dict):
        raise v.err(doc_line, f"expected a mapping, got {yamlio.type_name(data)}")
    for key in data:
        if key not in _TOP_FIELDS:
            raise v.err(line_of(data, key, doc_line), f'unknown field "{_safe(str(key))}"',
                        f"known fields: {', '.join(_TOP_FIELDS[:4])}")
    api, kind = data.get("apiVersion"), data.get("kind")
    api_line = line_of(data, "apiVersion", doc_line)
    if kind == "NodePool" and api != NODEPOOL_API:
        raise v.err(api_line, f"apiVersion: NodePool {_safe(str(api))} is not served by NAP",
                    f"write {NODEPOOL_API} (the version the NodePool CRD serves)")
    if kind == "AKSNodeClass" and api not in NODECLASS_APIS:
        raise v.err(api_line, f"apiVersion: AKSNodeClass {_safe(str(api))} is not served by NAP",
                    f"write {NODECLASS_APIS[0]}")
    meta_line = line_of(data, "metadata", doc_line)
    meta = data.get("metadata")
    if not isinstance(meta, dict) or meta.get("name") is None:
        raise v.err(meta_line, f"metadata.name is required ({kind})")
    name_line = line_of(meta, "name", meta_line)
    name = meta["name"]
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise v.err(name_line, f"metadata.name: {_safe(str(name))!r} is not a valid object name",
                    "lowercase letters, digits, '-' and '.', e.g. gpu")
    v.fields["metadata.name"] = name_line
    if "spec" not in data or data["spec"] is None:
        if kind == "NodePool":
            raise v.err(doc_line, "spec is required (NodePool)")
        spec: Any = {}
        spec_line = doc_line
    else:
        spec = data["spec"]
        spec_line = line_of(data, "spec", doc_line)
    v.check(spec, shapes()[kind], "spec", spec_line)
    obj: NodePool | NodeClass
    obj = _node_pool(v, name, spec, spec_line) if kind == "NodePool" else _node_class(v, name, str(api), spec)
    return dataclasses.replace(obj, raw=data)


def _node_class(v: Validator, name: str, api: str, spec: dict) -> NodeClass:
    gpu = spec.get("gpu") or {}
    return NodeClass(
        name=name,
        api_version=api,
        image_family=spec.get("imageFamily"),
        gpu_mode=gpu.get("mode"),
        os_disk_size_gb=spec.get("osDiskSizeGB"),
        max_pods=spec.get("maxPods"),
        tags={str(k): str(val) for k, val in (spec.get("tags") or {}).items()},
        fips_mode=spec.get("fipsMode"),
        where=Where(v.path, v.doc_line, dict(v.fields)),
    )


def _taints(items: Any) -> tuple[Taint, ...]:
    return tuple(Taint(t["key"], t["effect"], t.get("value") or "") for t in items or ())


def _node_pool(v: Validator, name: str, spec: dict, spec_line: int) -> NodePool:
    template = spec["template"]
    tspec = template["spec"]
    reqs_raw = tspec["requirements"]
    reqs_line = line_of(tspec, "requirements", spec_line)
    requirements = tuple(
        _requirement(v, r, i, item_line(reqs_raw, i, reqs_line)) for i, r in enumerate(reqs_raw)
    )
    meta = template.get("metadata") or {}
    labels = {str(k): str(val) for k, val in (meta.get("labels") or {}).items()}
    for key in labels:
        _check_label_key(v, key, v.fields.get(f"spec.template.metadata.labels.{key}"), "label")
    ref = tspec["nodeClassRef"]
    limits: dict[str, Any] = {}
    for key, raw in (spec.get("limits") or {}).items():
        limits[str(key)] = parse_quantity(raw)
    disruption = spec.get("disruption") or {}
    budgets = None
    if disruption.get("budgets") is not None:
        budgets = tuple(
            Budget(b["nodes"], tuple(b.get("reasons") or ()), b.get("schedule"), b.get("duration"))
            for b in disruption["budgets"]
        )
        for i, b in enumerate(disruption["budgets"]):
            if ("schedule" in b) != ("duration" in b):
                raise v.err(v.fields.get(f"spec.disruption.budgets[{i}]"), "spec.disruption.budgets: "
                            "'schedule' must be set with 'duration'")
    replicas = spec.get("replicas")
    if replicas is not None:
        if spec.get("weight") is not None:
            raise v.err(v.fields.get("spec.weight"),
                        "'weight' is not supported on static NodePools (replicas set)")
        if set(limits) - {"nodes"}:
            raise v.err(v.fields.get("spec.limits"), "only 'limits.nodes' is supported on static NodePools")
    return NodePool(
        name=name,
        requirements=requirements,
        node_class=(ref["group"], ref["kind"], ref["name"]),
        taints=_taints(tspec.get("taints")),
        startup_taints=_taints(tspec.get("startupTaints")),
        labels=labels,
        annotations={str(k): str(val) for k, val in (meta.get("annotations") or {}).items()},
        limits=limits,
        consolidation_policy=disruption.get("consolidationPolicy") or "WhenEmptyOrUnderutilized",
        consolidate_after=disruption.get("consolidateAfter"),
        budgets=budgets,
        expire_after=tspec.get("expireAfter") or "720h",
        weight=spec.get("weight"),
        replicas=replicas,
        where=Where(v.path, v.doc_line, dict(v.fields)),
    )


def _check_label_key(v: Validator, key: str, line: int | None, what: str) -> None:
    facts = _facts()["requirementKeys"]
    if len(key) > 316 or not _LABEL_KEY_RE.match(key):
        raise v.err(line, f"{what} key {_safe(key)!r} is not a valid label key")
    if key in facts["refused"]:
        raise v.err(line, f'{what} "{_safe(key)}" is restricted')
    domain = key.split("/", 1)[0] if "/" in key else ""
    for restricted in ("karpenter.azure.com", "kubernetes.azure.com", "karpenter.sh"):
        if domain == restricted or domain.endswith("." + restricted) or (
            restricted == "karpenter.sh" and domain.endswith("karpenter.sh")
        ):
            allowed = facts[restricted]
            if key in allowed:
                return
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.7)
            hint = f'did you mean "{close[0]}"?' if close else f"allowed there: {', '.join(allowed)}"
            raise v.err(line, f'label domain "{restricted}" is restricted: {_safe(key)} is not one of its '
                        f"well-known labels", hint)


def _requirement(v: Validator, raw: dict, i: int, line: int) -> Requirement:
    where = f"spec.template.spec.requirements[{i}]"
    key, op = raw["key"], raw["operator"]
    _check_label_key(v, key, v.fields.get(f"{where}.key", line), "requirement")
    values = tuple(raw.get("values") or ())
    vline = v.fields.get(f"{where}.values", line)
    for val in values:
        if len(val) > 63 or not _LABEL_VALUE_RE.match(val):
            raise v.err(vline, f"{where}.values: {_safe(val)!r} is not a valid label value")
    if op == "In" and not values:
        raise v.err(line, f"{where}: requirements with operator 'In' must have a value defined")
    if op in _NUMERIC_OPERATORS and (len(values) != 1 or not values[0].isdigit()):
        raise v.err(line, f"{where}: requirements operator '{op}' must have a single positive integer value",
                    'e.g. values: ["1"]')
    min_values = raw.get("minValues")
    if op == "In" and min_values is not None and len(values) < min_values:
        raise v.err(v.fields.get(f"{where}.minValues", line), f"{where}: minValues {min_values} but only "
                    f"{len(values)} values: requirements with 'minValues' must have at least that many "
                    "values")
    return Requirement(key, op, values, min_values, i)


def parse_inputs(docs: list[tuple[Any, str, int]]) -> NapInputs:
    """Models for (data, path, line) documents already known to be Karpenter documents; names must be unique
    per kind (the API server keeps one object per name)."""
    pools: list[NodePool] = []
    classes: list[NodeClass] = []
    seen: dict[tuple[str, str], Where] = {}
    for data, path, line in docs:
        obj = parse_document(data, path, line)
        kind = "NodePool" if isinstance(obj, NodePool) else "AKSNodeClass"
        key = (kind, obj.name)
        if key in seen:
            first = seen[key]
            also = f"{first.path}:{first.line_of('metadata.name')}"
            raise InputError(path, obj.where.line_of("metadata.name"),
                             f'{kind} "{obj.name}" is defined twice (also at {also})')
        seen[key] = obj.where
        (pools if isinstance(obj, NodePool) else classes).append(obj)  # type: ignore[arg-type]
    return NapInputs(tuple(pools), tuple(classes))
