"""Load and validate pool specs: YAML documents -> :class:`~gpupool.spec.model.PoolSpec`.

Validation is structural (unknown fields with did-you-mean, types, enums, ranges, name shapes) and
raises :class:`~gpupool.errors.InputError` with ``file:line``. Design judgement (is this VM size a good
idea?) is not done here; that is :mod:`gpupool.design` and produces findings instead.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.spec.model import (
    API_VERSION,
    EVICTION_POLICIES,
    GPU_DRIVERS,
    INSTANCE_PROFILES,
    KINDS,
    LABEL_KEY_RE,
    LABEL_VALUE_RE,
    MIG_STRATEGIES,
    MODES,
    PRIORITIES,
    Autoscaler,
    GpuSettings,
    PoolSpec,
    Taint,
    TimeSlicing,
    Where,
)
from gpupool.spec.suppress import ANNOTATION, parse_pool_ignores

# Azure resource names: resource group 1-90 chars of letters, digits, _ . - ( ), not ending in a period;
# cluster 1-63 chars, letters/digits/_/-, starting and ending alphanumeric.
_RG_RE = re.compile(r"^[-\w.()]{0,89}[-\w()]$")
_CLUSTER_RE = re.compile(r"^[A-Za-z0-9]([-_A-Za-z0-9]{0,61}[A-Za-z0-9])?$")
# A pool name is checked loosely here (so design rules can explain AKS's stricter rules as findings)
# but it must be safe to put anywhere: no spaces, quotes or shell metacharacters.
_SAFE_NAME_RE = re.compile(r"^[A-Za-z0-9][-A-Za-z0-9_]{0,63}$")
_LOCATION_RE = re.compile(r"^[a-z0-9]{2,40}$")
# Letters and digits in parts joined by "_" or "-": constrained-vCPU sizes have a hyphen (Standard_M8-2ms,
# Standard_M416-208s_v2 in az vm list-skus); never a leading "-" (it goes into az command lines).
_VM_SIZE_RE = re.compile(r"^(?=.{2,80}$)[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$")
_OS_SKU_RE = re.compile(r"^[A-Za-z0-9]{2,40}$")
_K8S_VERSION_RE = re.compile(r"^\d+\.\d+(\.\d+)?$")
_CUDA_RE = re.compile(r"^\d+\.\d+(\.\d+)?$")
_ZONE_RE = re.compile(r"^[1-9]$")

POOL_FIELDS = ("apiVersion", "kind", "metadata", "spec")
METADATA_FIELDS = ("name", "labels", "annotations")
SPEC_FIELDS = (
    "resourceGroup",
    "clusterName",
    "location",
    "kubernetesVersion",
    "vmSize",
    "mode",
    "osSku",
    "priority",
    "spotMaxPrice",
    "evictionPolicy",
    "nodeCount",
    "autoscaler",
    "nodeTaints",
    "nodeLabels",
    "maxPods",
    "zones",
    "gpu",
    "workload",
)
AUTOSCALER_FIELDS = ("minCount", "maxCount")
GPU_FIELDS = ("driver", "managed", "instanceProfile", "migStrategy", "sharing")
SHARING_FIELDS = ("timeSlicing",)
TIME_SLICING_FIELDS = ("replicas", "renameByDefault", "failRequestsGreaterThanOne")
WORKLOAD_FIELDS = ("cudaVersion",)


def is_pool_document(data: Any) -> bool:
    """True for documents that are gpupool pool specs (used to sort mixed inputs)."""
    return isinstance(data, dict) and data.get("apiVersion") == API_VERSION and data.get("kind") in KINDS


class _Ctx:
    """Carries the file path and collects field lines while walking one document."""

    def __init__(self, path: str, doc_line: int) -> None:
        self.path = path
        self.doc_line = doc_line
        self.fields: dict[str, int] = {}

    def err(self, line: int | None, msg: str, hint: str | None = None) -> InputError:
        return InputError(self.path, line or self.doc_line, msg, hint)


def _line_of(mapping: Any, key: str, default: int) -> int:
    if isinstance(mapping, yamlio.LineDict) and key in mapping.key_pos:
        return mapping.key_pos[key][0]
    if isinstance(mapping, (yamlio.LineDict, yamlio.LineList)) and mapping.line:
        return mapping.line
    return default


def _check_mapping(ctx: _Ctx, value: Any, where: str, allowed: Iterable[str], line: int) -> dict:
    if not isinstance(value, dict):
        raise ctx.err(line, f"{where}: expected a mapping, got {yamlio.type_name(value)}")
    allowed = tuple(allowed)
    for key in value:
        kline = _line_of(value, key, line)
        if not isinstance(key, str):
            raise ctx.err(kline, f"{where}: field names must be strings, got {key!r}")
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            if not close:
                lowered = {a.lower(): a for a in allowed}
                close = [lowered[key.lower()]] if key.lower() in lowered else []
            hint = f'did you mean "{close[0]}"?' if close else f"known fields: {', '.join(allowed)}"
            prefix = f"{where}." if where else ""
            raise ctx.err(kline, f'unknown field "{prefix}{_safe(key)}"', hint)
    return value


def _enum(ctx: _Ctx, value: Any, field: str, line: int, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise ctx.err(line, f"{field}: expected one of {', '.join(choices)}, got {yamlio.type_name(value)}")
    for c in choices:
        if value.lower() == c.lower():
            return c
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.5)
    hint = f'did you mean "{close[0]}"?' if close else None
    raise ctx.err(line, f'{field}: "{_safe(value)}" is not one of {", ".join(choices)}', hint)


def _str(
    ctx: _Ctx, value: Any, field: str, line: int, pattern: re.Pattern | None = None, what: str = ""
) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and field.endswith(("Version",)):
        hint = _unquoted_version_hint(field, value)
        raise ctx.err(line, f"{field}: write the version as a quoted string", hint)
    if not isinstance(value, str):
        raise ctx.err(line, f"{field}: expected a string, got {yamlio.type_name(value)}")
    if pattern is not None and not pattern.match(value):
        raise ctx.err(line, f'{field}: "{_safe(value)}" is not a valid {what or field}')
    return value


def _price(ctx: _Ctx, value: Any, field: str, line: int) -> float:
    """``--spot-max-price``: -1 (pay up to the on-demand price) or a positive US-dollar price per hour."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ctx.err(line, f"{field}: expected a number (-1 or a price in USD per hour)")
    if value != -1 and not 0 < value <= 1_000_000:
        raise ctx.err(line, f"{field}: {value} is not -1 or a positive price", "-1: the on-demand price")
    return float(value)


def _unquoted_version_hint(field: str, value: float) -> str:
    """What to write instead of an unquoted number. YAML drops a trailing zero (1.30 -> 1.3), so a
    Kubernetes minor with one digit after the point is shown both ways."""
    text = repr(value) if isinstance(value, float) else str(value)
    if field.endswith("kubernetesVersion") and isinstance(value, float) and len(text.split(".")[1]) == 1:
        return f'YAML reads it as the number {text}: write "{text}0" for Kubernetes {text}0 (or "{text}")'
    return f'YAML reads it as the number {text}: write "{text}"'


def _int(ctx: _Ctx, value: Any, field: str, line: int, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.err(line, f"{field}: expected an integer, got {yamlio.type_name(value)}")
    if not lo <= value <= hi:
        raise ctx.err(line, f"{field}: {value} is out of range [{lo}, {hi}]")
    return value


def _bool(ctx: _Ctx, value: Any, field: str, line: int) -> bool:
    if not isinstance(value, bool):
        raise ctx.err(line, f"{field}: expected true or false, got {yamlio.type_name(value)}")
    return value


def _field(ctx: _Ctx, mapping: dict, dotted: str, parse: Callable[..., Any], default: Any, *args: Any) -> Any:
    """Parse ``spec.<dotted>`` with ``parse(ctx, value, field, line, *args)``; ``default`` when absent/null.

    Records the field's line in ``ctx.fields`` so design rules can point at it.
    """
    key = dotted.rsplit(".", 1)[-1]
    if key not in mapping:
        return default
    line = _line_of(mapping, key, ctx.doc_line)
    ctx.fields[dotted] = line
    value = mapping[key]
    if value is None:
        return default
    return parse(ctx, value, f"spec.{dotted}", line, *args)


def _section(ctx: _Ctx, mapping: dict, dotted: str, allowed: tuple[str, ...]) -> tuple[dict, int] | None:
    """The sub-mapping ``spec.<dotted>`` (checked against ``allowed``) and its line, or None when absent."""
    key = dotted.rsplit(".", 1)[-1]
    if mapping.get(key) is None:
        return None
    line = _line_of(mapping, key, ctx.doc_line)
    ctx.fields[dotted] = line
    return _check_mapping(ctx, mapping[key], f"spec.{dotted}", allowed, line), line


def _taints(ctx: _Ctx, value: Any, field: str, line: int) -> tuple[Taint, ...]:
    if not isinstance(value, list):
        raise ctx.err(
            line,
            f'spec.nodeTaints: expected a list of "key=value:Effect" strings, got {yamlio.type_name(value)}',
        )
    out = []
    for i, item in enumerate(value):
        iline = value.item_pos[i][0] if isinstance(value, yamlio.LineList) else line
        if not isinstance(item, str):
            raise ctx.err(iline, f"spec.nodeTaints[{i}]: expected a string like sku=gpu:NoSchedule")
        try:
            out.append(Taint.parse(item))
        except ValueError as e:
            raise ctx.err(iline, f"spec.nodeTaints[{i}]: {_safe(str(e), 200)}") from None
    keys = [(t.key, t.effect) for t in out]
    if len(set(keys)) != len(keys):
        raise ctx.err(line, "spec.nodeTaints: the same key and effect appear twice")
    return tuple(out)


def _labels(ctx: _Ctx, value: Any, field: str, line: int) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ctx.err(line, f"spec.nodeLabels: expected a mapping, got {yamlio.type_name(value)}")
    out = {}
    for k, v in value.items():
        kline = _line_of(value, k, line)
        if not isinstance(k, str) or len(k) > 316 or not LABEL_KEY_RE.match(k):
            raise ctx.err(kline, f"spec.nodeLabels: {_safe(str(k))!r} is not a valid label key")
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            raise ctx.err(
                kline, f"spec.nodeLabels.{_safe(k)}: expected a string value, got {yamlio.type_name(v)}"
            )
        v = str(v)
        if len(v) > 63 or not LABEL_VALUE_RE.match(v):
            raise ctx.err(kline, f"spec.nodeLabels.{_safe(k)}: {_safe(v)!r} is not a valid label value")
        out[k] = v
        ctx.fields[f"nodeLabels.{k}"] = kline  # design rules point at the label's own line
    return out


def _zones(ctx: _Ctx, value: Any, field: str, line: int) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ctx.err(line, "spec.zones: expected a list such as [1, 2, 3]")
    out = []
    for z in value:
        z = str(z) if isinstance(z, int) and not isinstance(z, bool) else z
        if not isinstance(z, str) or not _ZONE_RE.match(z):
            raise ctx.err(line, f"spec.zones: {_safe(str(z))!r} is not an availability zone number (1-9)")
        out.append(z)
    return tuple(out)


def _gpu(ctx: _Ctx, g: dict) -> GpuSettings:
    driver = _field(ctx, g, "gpu.driver", _enum, "Install", GPU_DRIVERS)
    managed = _field(ctx, g, "gpu.managed", _bool, False)
    profile = _field(ctx, g, "gpu.instanceProfile", _enum, None, INSTANCE_PROFILES)
    strategy = _field(ctx, g, "gpu.migStrategy", _enum, None, MIG_STRATEGIES)
    ts = None
    sharing = _section(ctx, g, "gpu.sharing", SHARING_FIELDS)
    slicing = _section(ctx, sharing[0], "gpu.sharing.timeSlicing", TIME_SLICING_FIELDS) if sharing else None
    if slicing is not None:
        t, tline = slicing
        if "replicas" not in t:
            raise ctx.err(tline, "spec.gpu.sharing.timeSlicing.replicas is required (2 or more)")
        ts = TimeSlicing(
            _field(ctx, t, "gpu.sharing.timeSlicing.replicas", _int, 2, 2, 1024),
            _field(ctx, t, "gpu.sharing.timeSlicing.renameByDefault", _bool, False),
            _field(ctx, t, "gpu.sharing.timeSlicing.failRequestsGreaterThanOne", _bool, False),
        )
    return GpuSettings(
        driver=driver, managed=managed, instance_profile=profile, mig_strategy=strategy, time_slicing=ts
    )


def parse_pool(data: Any, path: str, doc_line: int = 1) -> PoolSpec:
    """Validate one pool document (already loaded) and return a PoolSpec. Raises InputError."""
    ctx = _Ctx(path, doc_line)
    top = _check_mapping(ctx, data, "", POOL_FIELDS, doc_line)
    for required in ("apiVersion", "kind", "metadata", "spec"):
        if required not in top:
            raise ctx.err(doc_line, f'missing required field "{required}"')
    if top["apiVersion"] != API_VERSION:
        raise ctx.err(
            _line_of(top, "apiVersion", doc_line),
            f'apiVersion: expected "{API_VERSION}", got {_safe(str(top["apiVersion"]))!r}',
        )
    kind = _enum(ctx, top["kind"], "kind", _line_of(top, "kind", doc_line), KINDS)
    mline = _line_of(top, "metadata", doc_line)
    meta = _check_mapping(ctx, top["metadata"], "metadata", METADATA_FIELDS, mline)
    if "name" not in meta:
        raise ctx.err(mline, 'metadata.name is required (the AKS node pool name, e.g. "gpunp")')
    nline = _line_of(meta, "name", mline)
    ctx.fields["name"] = nline
    ignores: dict[str, str] = {}
    if meta.get("annotations") is not None:
        aline = _line_of(meta, "annotations", mline)
        annotations = meta["annotations"]
        if not isinstance(annotations, dict):
            got = yamlio.type_name(annotations)
            raise ctx.err(aline, f"metadata.annotations: expected a mapping, got {got}")
        if ANNOTATION in annotations:
            at = _line_of(annotations, ANNOTATION, aline)
            ignores = parse_pool_ignores(annotations[ANNOTATION], path, at)
    name = _str(ctx, meta["name"], "metadata.name", nline)
    if not _SAFE_NAME_RE.match(name):
        raise ctx.err(
            nline,
            f"metadata.name: {_safe(name)!r} is not a valid node pool name",
            "use lowercase letters and digits, starting with a letter, e.g. gpunp",
        )

    sline = _line_of(top, "spec", doc_line)
    spec = _check_mapping(ctx, top["spec"], "spec", SPEC_FIELDS, sline)
    for required in ("resourceGroup", "clusterName", "vmSize"):
        if spec.get(required) is None:
            raise ctx.err(sline, f"spec.{required} is required")

    rg = _field(ctx, spec, "resourceGroup", _str, None, _RG_RE, "resource group name")
    cluster = _field(ctx, spec, "clusterName", _str, None, _CLUSTER_RE, "AKS cluster name")
    vm_size = _field(ctx, spec, "vmSize", _str, None, _VM_SIZE_RE, "VM size name")
    location = _field(ctx, spec, "location", _str, None, _LOCATION_RE, "Azure region name (e.g. eastus)")
    k8s = _field(
        ctx, spec, "kubernetesVersion", _str, None, _K8S_VERSION_RE, 'Kubernetes version (e.g. "1.34")'
    )
    os_sku = _field(ctx, spec, "osSku", _str, "Ubuntu", _OS_SKU_RE, "OS SKU")
    mode = _field(ctx, spec, "mode", _enum, "User", MODES)
    priority = _field(ctx, spec, "priority", _enum, "Regular", PRIORITIES)
    spot_max_price = _field(ctx, spec, "spotMaxPrice", _price, -1.0)
    eviction = _field(ctx, spec, "evictionPolicy", _enum, "Delete", EVICTION_POLICIES)
    for key in ("spotMaxPrice", "evictionPolicy"):
        if priority != "Spot" and spec.get(key) is not None:
            raise ctx.err(ctx.fields[key], f"spec.{key} applies to Spot pools only", "set priority: Spot")
    # Ranges here are what the API can represent; AKS's own limits are design rules (findings).
    node_count = _field(ctx, spec, "nodeCount", _int, 1, 0, 100_000)
    max_pods = _field(ctx, spec, "maxPods", _int, None, 1, 250)
    autoscaler = None
    section = _section(ctx, spec, "autoscaler", AUTOSCALER_FIELDS)
    if section is not None:
        a, aline = section
        for required in AUTOSCALER_FIELDS:
            if required not in a:
                raise ctx.err(aline, f"spec.autoscaler.{required} is required")
        autoscaler = Autoscaler(
            _field(ctx, a, "autoscaler.minCount", _int, 0, 0, 100_000),
            _field(ctx, a, "autoscaler.maxCount", _int, 0, 0, 100_000),
        )
    taints = _field(ctx, spec, "nodeTaints", _taints, ())
    labels = _field(ctx, spec, "nodeLabels", _labels, {})
    zones = _field(ctx, spec, "zones", _zones, ())
    if kind == "NodePool" and spec.get("gpu") is not None:
        raise ctx.err(
            _line_of(spec, "gpu", sline),
            "spec.gpu is only allowed in kind GpuNodePool",
            "change kind to GpuNodePool",
        )
    section = _section(ctx, spec, "gpu", GPU_FIELDS)
    gpu = _gpu(ctx, section[0]) if section else None  # None: the defaults (driver Install, no MIG)
    section = _section(ctx, spec, "workload", WORKLOAD_FIELDS)
    cuda = (
        _field(ctx, section[0], "workload.cudaVersion", _str, None, _CUDA_RE, 'CUDA version (e.g. "12.4")')
        if section
        else None
    )
    return PoolSpec(
        kind=kind,
        name=name,
        resource_group=rg,
        cluster_name=cluster,
        vm_size=vm_size,
        location=location,
        kubernetes_version=k8s,
        mode=mode,
        os_sku=os_sku,
        priority=priority,
        node_count=node_count,
        autoscaler=autoscaler,
        node_taints=taints,
        node_labels=labels,
        max_pods=max_pods,
        zones=zones,
        gpu=gpu,
        cuda_version=cuda,
        spot_max_price=spot_max_price,
        eviction_policy=eviction,
        ignores=ignores,
        where=Where(path, doc_line, dict(ctx.fields)),
    )


def load_pools(path: str | Path) -> list[PoolSpec]:
    """All pool specs in a file. Non-pool documents are an error here (use lint for manifests)."""
    return pools_from_documents(str(path), yamlio.load_file(path))


def pools_from_documents(name: str, docs: Iterable[yamlio.Document]) -> list[PoolSpec]:
    """The pool specs of one file's documents (``name``: the file). A document that is not one, or a file
    with none, is bad input."""
    pools = []
    for doc in docs:
        if doc.data is None:
            continue
        yamlio.refuse_duplicates(doc)
        if not is_pool_document(doc.data):
            kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
            api = doc.data.get("apiVersion") if isinstance(doc.data, dict) else None
            what = f"{_safe(str(api))}/{_safe(str(kind))}" if kind or api else yamlio.type_name(doc.data)
            raise InputError(
                doc.path,
                doc.line,
                f"not a pool spec ({what}); expected apiVersion {API_VERSION}, kind GpuNodePool or NodePool",
            )
        pools.append(parse_pool(doc.data, doc.path, doc.line))
    if not pools:
        raise InputError(name, None, "no pool spec found (expected kind GpuNodePool or NodePool)")
    check_unique(pools)
    return pools


def check_unique(pools: Iterable[PoolSpec]) -> None:
    """Refuse two pools with the same name in the same cluster (InputError at the second one)."""
    seen: dict[tuple[str, str], PoolSpec] = {}
    for p in pools:
        key = (p.cluster_name, p.name)
        if key in seen:
            first = seen[key].where
            raise InputError(
                p.where.path,
                p.where.line_of("name"),
                f'pool "{p.name}" of cluster {p.cluster_name} is defined twice '
                f"(also at {first.path}:{first.line_of('name')})",
            )
        seen[key] = p


def load_many(paths: Iterable[str | Path]) -> list[PoolSpec]:
    """Pool specs from files, ``-`` (stdin) and directories (their ``*.yaml``/``*.yml`` files that hold a pool
    spec, recursively, hidden ones skipped; manifests beside them are left to ``gpupool lint``)."""
    out: list[PoolSpec] = []
    for p in paths:
        path = Path(p)
        if str(p) != "-" and path.is_dir():
            files = sorted(
                f
                for f in path.rglob("*")
                if f.suffix in (".yaml", ".yml")
                and f.is_file()
                and not any(part.startswith(".") for part in f.relative_to(path).parts)
            )
            found = [f for f in files if any(is_pool_document(d.data) for d in yamlio.load_file(f))]
            if not found:
                raise InputError(str(p), None, "no pool spec (GpuNodePool or NodePool) in this directory")
            for f in found:
                out.extend(load_pools(f))
        else:
            out.extend(load_pools(p))
    return out
