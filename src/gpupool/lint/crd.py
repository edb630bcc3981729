"""CustomResourceDefinitions given with ``--crd``: validate their instances, offline.

Each served version's ``openAPIV3Schema`` (``apiextensions.k8s.io/v1``: ``spec.versions[].schema``;
``v1beta1``: also ``spec.validation``) is converted from the OpenAPI 3.0 dialect Kubernetes uses to a
JSON Schema that jsonschema-rs compiles with Draft 4 rules (OpenAPI 3.0 keeps Draft 4's boolean
``exclusiveMinimum``):

- ``nullable: true`` adds ``null`` to the type (and the enum);
- ``x-kubernetes-int-or-string: true`` becomes "integer or string";
- ``x-kubernetes-preserve-unknown-fields: true`` keeps unknown fields; otherwise, in strict mode, an object
  with ``properties`` rejects fields it does not list (what the API server's strict field validation does;
  without it the server silently prunes them);
- ``x-kubernetes-embedded-resource: true`` allows ``apiVersion``, ``kind`` and ``metadata``;
- the root always allows ``apiVersion``, ``kind`` and ``metadata``.

CEL rules (``x-kubernetes-validations``) are not evaluated.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.lint.reader import discover_inputs
from gpupool.lint.schema import Found

_SKIP = {
    "nullable",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-validations",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "default",
    "example",
    "externalDocs",
}


def convert(node: Any, strict: bool, root: bool = False) -> Any:
    """One openAPIV3Schema node -> JSON Schema (see the module docstring)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k in _SKIP:
            continue
        if k in ("properties", "patternProperties") and isinstance(v, dict):
            out[k] = {pk: convert(pv, strict) for pk, pv in v.items()}
        elif k == "items":
            out[k] = [convert(x, strict) for x in v] if isinstance(v, list) else convert(v, strict)
        elif k in ("allOf", "anyOf", "oneOf") and isinstance(v, list):
            out[k] = [convert(x, strict) for x in v]
        elif k in ("not", "additionalProperties") and isinstance(v, dict):
            out[k] = convert(v, strict)
        else:
            out[k] = v
    if node.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if node.get("nullable"):
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    if root or node.get("x-kubernetes-embedded-resource"):
        props = out.setdefault("properties", {})
        props.setdefault("apiVersion", {"type": "string"})
        props.setdefault("kind", {"type": "string"})
        props.setdefault("metadata", {"type": "object"})
    if (
        strict
        and "properties" in out
        and "additionalProperties" not in out
        and not node.get("x-kubernetes-preserve-unknown-fields")
    ):
        out["additionalProperties"] = False
    return out


@dataclass
class CrdSet:
    """Compiled validators of custom resources, keyed by (group, version, kind)."""

    found: dict[tuple[str, str, str], Found] = field(default_factory=dict)
    sources: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.found)

    def lookup(self, group: str, version: str, kind: str) -> Found | None:
        return self.found.get((group, version, kind))

    def add(self, crd: dict, strict: bool, where: str) -> None:
        spec = crd.get("spec") if isinstance(crd.get("spec"), dict) else {}
        group = spec.get("group")
        names = spec.get("names") if isinstance(spec.get("names"), dict) else {}
        kind = names.get("kind")
        if not isinstance(group, str) or not isinstance(kind, str):
            raise InputError(where, None, "CustomResourceDefinition without spec.group or spec.names.kind")
        global_schema = (
            (spec.get("validation") or {}).get("openAPIV3Schema")
            if isinstance(spec.get("validation"), dict)
            else None
        )
        versions = spec.get("versions") if isinstance(spec.get("versions"), list) else []
        if not versions and isinstance(spec.get("version"), str):
            versions = [{"name": spec["version"], "served": True}]
        for v in versions:
            if not isinstance(v, dict) or not isinstance(v.get("name"), str) or v.get("served") is False:
                continue
            schema = (
                (v.get("schema") or {}).get("openAPIV3Schema") if isinstance(v.get("schema"), dict) else None
            )
            schema = schema or global_schema
            if not isinstance(schema, dict):
                schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
            converted = convert(yamlio.to_plain(schema), strict, root=True)
            try:
                validator = jsonschema_rs.Draft4Validator(converted, validate_formats=False)
            except Exception as e:
                raise InputError(
                    where, None, f"CRD {kind}.{group}/{v['name']}: schema does not compile: {e}"
                ) from None
            key = (group, v["name"], kind)
            self.found[key] = Found(validator, converted, f"crd:{kind.lower()}.{group}/{v['name']}", None)
            self.sources[key] = where


def load_crds(paths: list[str] | tuple[str, ...], strict: bool) -> CrdSet:
    """Every CustomResourceDefinition in the files and directories given (other documents are ignored)."""
    out = CrdSet()
    for path in discover_inputs(list(paths), charts=False).files:  # a chart directory is walked as any
        if path == "-":
            raise InputError("-", None, "--crd does not read standard input")
        for doc in yamlio.load_file(path):
            data = doc.data
            if not isinstance(data, dict):
                continue
            items = data.get("items") if str(data.get("kind", "")).endswith("List") else [data]
            for item in items if isinstance(items, list) else []:
                if (
                    isinstance(item, dict)
                    and item.get("kind") == "CustomResourceDefinition"
                    and str(item.get("apiVersion", "")).startswith("apiextensions.k8s.io/")
                ):
                    out.add(item, strict, f"{path}:{doc.line}")
    if not out and paths:
        shown = ", ".join(os.fspath(Path(p)) for p in paths)
        raise InputError(shown, None, "no CustomResourceDefinition found in --crd")
    return out
