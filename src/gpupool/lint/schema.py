"""Strict, offline Kubernetes schema validation: kubernetes-validate's schema bundle + jsonschema-rs.

The bundle (``kubernetes_validate/kubernetes-json-schema/v1.NN.0-local[-strict]/``) has one JSON schema per
kind and API version (``deployment-apps-v1.json``) whose ``$ref`` point into one ``_definitions.json`` per
directory (``/api/_definitions.json#/$defs/...``, resolved against the kind schema's ``$id``
``https://kubernetes.io/api/...``). We parse ``_definitions.json`` once per (version, strict), register it
in a ``jsonschema_rs.Registry`` under its own ``$id`` (so no reference ever leaves the process), and compile
one validator per kind schema file on first use, cached for the rest of the run.

Lookups follow kubernetes-validate's file naming (``<kind>-<first label of the group>-<version>.json``) and
then check the schema's ``x-kubernetes-group-version-kind``, so a custom resource whose group merely starts
like a built-in one (``networking.example.com``) is not validated against the wrong schema.

:func:`describe_errors` turns jsonschema-rs errors into kubeconform-quality findings: unknown field with
did-you-mean (GP201), wrong type (GP202), missing required field (GP203), value not allowed (GP204), each with
the instance path of the offending key so the caller can point at its line and column.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as safe

DEFINITIONS_ID = "https://kubernetes.io/api/_definitions.json"
_DIR_RE = re.compile(r"^v(\d+)\.(\d+)\.0-local(-strict)?$")
_IDENT_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")
_VERSION_RE = re.compile(r"^v?(\d+)\.(\d+)(?:\.\d+)?$")

SCHEMA_RULES = ("GP201", "GP202", "GP203", "GP204")


@cache
def builtin_groups() -> frozenset[str]:
    """API groups that Kubernetes itself serves or served (``lint/data/builtin_groups.yaml``): an object in
    one of them with no schema is a kind or version the API server does not serve (GP207); any other group,
    ``*.k8s.io`` ones included (Gateway API, snapshots, metrics), is a custom or aggregated API (GP208)."""
    from importlib import resources

    import yaml

    text = resources.files("gpupool.lint").joinpath("data", "builtin_groups.yaml").read_text("utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return frozenset(str(g) for g in data["groups"])


def is_builtin_group(group: str) -> bool:
    return group in builtin_groups()


def split_api_version(api_version: str) -> tuple[str, str] | None:
    """``apps/v1`` -> (``apps``, ``v1``); ``v1`` -> (``""``, ``v1``); None when malformed."""
    parts = api_version.split("/")
    if len(parts) == 1 and parts[0]:
        return "", parts[0]
    if len(parts) == 2 and parts[0] and parts[1]:
        return parts[0], parts[1]
    return None


_KUBE_VERSION_RE = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def version_priority(version: str) -> tuple[int, int, int]:
    """Kubernetes API version order: v1 > v1beta2 > v1beta1 > v1alpha1 (higher sorts later)."""
    m = _KUBE_VERSION_RE.match(version)
    if not m:
        return (-1, 0, 0)
    stability = {"alpha": 0, "beta": 1, None: 2}[m.group(2)]
    return (stability, int(m.group(1)), int(m.group(3) or 0))


# ---- the bundle on disk ----------------------------------------------------------------------------


@cache
def bundle_root() -> Path:
    """Where kubernetes-validate keeps its schemas (found without importing it: that costs 0.15 s)."""
    spec = importlib.util.find_spec("kubernetes_validate")
    if spec is None or not spec.submodule_search_locations:
        raise InputError(
            None,
            None,
            "the kubernetes-validate package (schema bundle) is not installed",
            "pip install kubernetes-validate",
        )
    return Path(next(iter(spec.submodule_search_locations))) / "kubernetes-json-schema"


@cache
def available_versions() -> tuple[str, ...]:
    """Kubernetes minor versions with bundled schemas, oldest first (``("1.25", ..., "1.37")``)."""
    found = set()
    for name in os.listdir(bundle_root()):
        m = _DIR_RE.match(name)
        if m:
            found.add((int(m.group(1)), int(m.group(2))))
    return tuple(f"{a}.{b}" for a, b in sorted(found))


def newest_version() -> str:
    return available_versions()[-1]


def resolve_version(text: str | None) -> str:
    """``1.33`` / ``v1.33`` / ``1.33.2`` -> ``1.33``; None -> the newest bundled. InputError otherwise."""
    versions = available_versions()
    if text is None or str(text).strip() == "":
        return versions[-1]
    m = _VERSION_RE.match(str(text).strip())
    if not m:
        raise InputError(
            None,
            None,
            f"Kubernetes version {text!r} is not a version like 1.33",
            f"bundled: {versions[0]} .. {versions[-1]}",
        )
    want = (int(m.group(1)), int(m.group(2)))
    have = [tuple(int(x) for x in v.split(".")) for v in versions]
    if want > have[-1]:
        raise InputError(
            None,
            None,
            f"Kubernetes {want[0]}.{want[1]} is newer than the newest bundled schemas ({versions[-1]})",
            "upgrade kubernetes-validate, or pass an older -k",
        )
    older = [v for v, t in zip(versions, have, strict=True) if t <= want]
    if not older:
        raise InputError(
            None,
            None,
            f"Kubernetes {want[0]}.{want[1]} is older than the oldest bundled schemas ({versions[0]})",
        )
    return older[-1]


# ---- lookups -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A compiled validator for one kind and API version."""

    validator: Any
    schema: dict
    source: str  # file name in the bundle, or "crd:<name>"
    definitions: dict | None = None  # the shared $defs, for did-you-mean on unknown fields


@dataclass(frozen=True)
class NotServed:
    """A built-in API group, but no such kind or version in this Kubernetes version (GP207)."""

    served: tuple[str, ...]  # apiVersions that do serve this kind, e.g. ("apps/v1",)
    suggestion: str | None = None  # a close kind name when the kind itself is unknown


@dataclass(frozen=True)
class Unknown:
    """No schema: a custom resource (or an unknown group) without a loaded CRD (GP208)."""


Lookup = Found | NotServed | Unknown


@dataclass
class SchemaSet:
    """The schemas of one Kubernetes minor version, strict or not; compiles validators on first use."""

    version: str
    strict: bool
    directory: Path = field(init=False)
    _names: dict[str, list[str]] | None = field(default=None, init=False)  # kind (lower) -> file names
    _defs: dict | None = field(default=None, init=False)
    _registry: Any = field(default=None, init=False)
    _cache: dict[tuple[str, str], Lookup] = field(default_factory=dict, init=False)
    _kinds: dict[str, set[tuple[str, str, str]]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        suffix = "-strict" if self.strict else ""
        self.directory = bundle_root() / f"v{self.version}.0-local{suffix}"
        if not self.directory.is_dir():
            raise InputError(None, None, f"no bundled schemas for Kubernetes {self.version}")

    @property
    def files_by_kind(self) -> dict[str, list[str]]:
        if self._names is None:
            names: dict[str, list[str]] = {}
            for name in os.listdir(self.directory):
                if name.endswith(".json") and "-" in name:
                    names.setdefault(name.split("-", 1)[0], []).append(name)
            self._names = names
        return self._names

    @property
    def definitions(self) -> dict:
        if self._defs is None:
            with open(self.directory / "_definitions.json", "rb") as fh:
                self._defs = json.load(fh)
        return self._defs

    @property
    def registry(self) -> Any:
        if self._registry is None:
            self._registry = jsonschema_rs.Registry([(DEFINITIONS_ID, self.definitions)])
        return self._registry

    def _load(self, name: str) -> dict:
        with open(self.directory / name, "rb") as fh:
            return json.load(fh)

    @property
    def kind_index(self) -> dict[str, set[tuple[str, str, str]]]:
        """kind (lower case) -> {(group, version, Kind)} of every top-level object in this version."""
        if self._kinds is None:
            index: dict[str, set[tuple[str, str, str]]] = {}
            for d in self.definitions.get("$defs", {}).values():
                for g in d.get("x-kubernetes-group-version-kind") or ():
                    k = str(g.get("kind", ""))
                    if k:
                        index.setdefault(k.lower(), set()).add(
                            (str(g.get("group", "")), str(g.get("version", "")), k)
                        )
            self._kinds = index
        return self._kinds

    def lookup(self, api_version: str, kind: str) -> Lookup:
        key = (api_version, kind)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._lookup(api_version, kind)
            self._cache[key] = hit
        return hit

    def _lookup(self, api_version: str, kind: str) -> Lookup:
        gv = split_api_version(api_version)
        if gv is None:
            return Unknown()
        group, version = gv
        prefix = group.split(".", 1)[0]
        lower = kind.lower()
        name = f"{lower}-{prefix + '-' if prefix else ''}{version}.json"
        served = self.kind_index.get(lower, set())
        if name in self.files_by_kind.get(lower, ()) and any(
            g == group and v == version for g, v, _ in served
        ):
            schema = self._load(name)
            validator = jsonschema_rs.validator_for(schema, registry=self.registry, validate_formats=False)
            return Found(validator, schema, name, self.definitions)
        if not is_builtin_group(group):
            return Unknown()
        if served:
            ordered = sorted(served, key=lambda gvk: (gvk[0], version_priority(gvk[1])))
            return NotServed(tuple(f"{g}/{v}" if g else v for g, v, _ in ordered))
        kinds = sorted(
            {
                k
                for entries in self.kind_index.values()
                for _, _, k in entries
                if not k.endswith("List") and k not in _META_KINDS
            }
        )
        close = difflib.get_close_matches(kind, kinds, n=1, cutoff=0.75)
        return NotServed((), close[0] if close else None)


# Kinds every API group lists (meta types): not worth suggesting for a misspelt kind.
_META_KINDS = frozenset(
    {"DeleteOptions", "WatchEvent", "Status", "APIGroup", "APIResourceList", "APIVersions", "APIGroupList"}
)


_SETS: dict[tuple[str, bool], SchemaSet] = {}


def schema_set(version: str, strict: bool) -> SchemaSet:
    """The (cached) schemas of one bundled Kubernetes minor version."""
    key = (version, strict)
    if key not in _SETS:
        _SETS[key] = SchemaSet(version, strict)
    return _SETS[key]


# ---- validation and messages ---------------------------------------------------------------------


@dataclass(frozen=True)
class SchemaProblem:
    """One schema violation, located by its path inside the validated object."""

    rule: str  # GP201..GP204
    message: str
    path: tuple  # instance path of the offending key or item


# Fields whose values are maps with free-form keys: their keys print as ``[key]`` (Kubernetes field paths).
_MAP_FIELDS = frozenset(
    {
        "requests",
        "limits",
        "labels",
        "annotations",
        "nodeSelector",
        "matchLabels",
        "data",
        "stringData",
        "binaryData",
        "overhead",
        "capacity",
        "allocatable",
        "selector",
    }
)


def format_path(path: tuple | list) -> str:
    """``("spec", "containers", 0, "resources")`` -> ``spec.containers[0].resources``; map keys use
    Kubernetes' bracket form: ``limits[nvidia.com/gpu]``, ``requests[cpu]``."""
    out = ""
    prev: object = None
    for step in path:
        if isinstance(step, int) and not isinstance(step, bool):
            out += f"[{step}]"
        elif isinstance(step, str) and _IDENT_RE.match(step) and prev not in _MAP_FIELDS:
            out += ("." if out else "") + step
        else:
            out += f"[{safe(str(step), 80)}]"
        prev = step
    return out


_JSON_TYPE = {"list": "array", "mapping": "object"}


def type_name(value: Any) -> str:
    """JSON Schema's name of a value's type (schema messages speak JSON Schema)."""
    name = yamlio.type_name(value)
    return _JSON_TYPE.get(name, name)


def show_value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(safe(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return safe(str(value))
    return type_name(value)


def _walk_schema(found: Found, schema_path: list) -> Any:
    """The schema node that holds the failing keyword (schema_path without its last step)."""
    steps = list(schema_path[:-1])
    if steps and steps[0] == "$defs" and found.definitions is not None:
        node: Any = found.definitions
    else:
        node = found.schema
    for step in steps:
        if (isinstance(node, dict) and step in node) or (
            isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        ):
            node = node[step]
        else:
            return None
    return node


def _did_you_mean(word: str, choices: list[str]) -> str:
    return _suggest(word, tuple(choices))


@lru_cache(maxsize=4096)
def _suggest(word: str, choices: tuple[str, ...]) -> str:
    """Memoised: the same misspelt field recurs across the objects of a chart or a generator."""
    if not choices:
        return ""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return f' (did you mean "{close[0]}"?)' if close else ""


def _at(path: tuple) -> str:
    text = format_path(path)
    return f"{text}: " if text else ""


def _schema_ref_name(schema_path: list) -> str:
    return str(schema_path[1]) if len(schema_path) > 1 and schema_path[0] == "$defs" else ""


def describe_errors(found: Found, errors: list) -> list[SchemaProblem]:
    """jsonschema-rs errors -> readable problems (one per unknown field, wrong type, missing field, ...)."""
    out: list[SchemaProblem] = []
    seen: set[tuple[str, tuple]] = set()
    for e in errors:
        path = tuple(e.instance_path)
        kind = e.kind.name
        schema_path = list(e.schema_path)
        detail = e.kind.as_dict() if hasattr(e.kind, "as_dict") else {}
        if kind == "additionalProperties":
            node = _walk_schema(found, schema_path)
            props = sorted((node or {}).get("properties", {}) if isinstance(node, dict) else {})
            for key in detail.get("unexpected", []):
                msg = f'{_at(path)}unknown field "{safe(key)}"{_did_you_mean(str(key), props)}'
                out.append(SchemaProblem("GP201", msg, (*path, key)))
            continue
        ref = _schema_ref_name(schema_path)
        if kind in ("oneOf", "anyOf") and ref.endswith(("resource.Quantity", "intstr.IntOrString")):
            what = (
                'a quantity (a string such as "500m" or a number)'
                if ref.endswith("Quantity")
                else "an integer or a string"
            )
            msg = f"{_at(path)}expected {what}, got {type_name(e.instance)}"
            if e.instance is not None and not isinstance(e.instance, (dict, list)):
                msg += f" {show_value(e.instance)}"
            problem = SchemaProblem("GP202", msg, path)
        elif kind == "type":
            types = [t for t in detail.get("types", []) if t != "null"] or list(detail.get("types", []))
            want = " or ".join(types) if types else "another type"
            msg = f"{_at(path)}expected {want}, got {type_name(e.instance)}"
            if not isinstance(e.instance, (dict, list)):
                msg += f" {show_value(e.instance)}"
            problem = SchemaProblem("GP202", msg, path)
        elif kind == "required":
            prop = detail.get("property", "")
            problem = SchemaProblem("GP203", f'{_at(path)}missing required field "{safe(str(prop))}"', path)
        elif kind == "enum":
            options = [o for o in detail.get("options", []) if o is not None]
            shown = ", ".join(show_value(o) for o in options[:12])
            hint = (
                _did_you_mean(str(e.instance), [str(o) for o in options])
                if isinstance(e.instance, str)
                else ""
            )
            msg = f"{_at(path)}{show_value(e.instance)} is not one of {shown}{hint}"
            problem = SchemaProblem("GP204", msg, path)
        else:
            problem = SchemaProblem("GP204", f"{_at(path)}{safe(e.message, 300)}", path)
        key = (problem.message, problem.path)
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out


_BIG = 2**63


def json_safe(value: Any) -> Any:
    """What sigs.k8s.io/yaml would hand the API server: string keys, bounded integers."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, bool):
                k = "true" if k else "false"
            elif k is None:
                k = "null"
            elif not isinstance(k, str):
                k = str(k)
            out[k] = json_safe(v)
        return out
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and not -_BIG <= value < 2 * _BIG:
        return float(value)
    return value


def validate(found: Found, obj: Any) -> list[SchemaProblem]:
    """Validate one object; returns its problems (empty when valid)."""
    validator = found.validator
    try:
        if validator.is_valid(obj):
            return []
        errors = list(validator.iter_errors(obj))
    except (ValueError, TypeError, OverflowError):
        # Non-string keys (YAML `1: x`) or integers beyond 64 bits: validate what the API server would see.
        plain = json_safe(obj)
        if validator.is_valid(plain):
            return []
        errors = list(validator.iter_errors(plain))
    return describe_errors(found, errors)
