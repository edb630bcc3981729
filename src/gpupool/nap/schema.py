"""A small structural validator for the shapes in ``data/crds.yaml`` (the NodePool and AKSNodeClass CRDs).

It answers the question the API server answers on ``kubectl apply`` with strict field validation: unknown
field, wrong type, a value outside an enum, a range or a pattern, a missing required field. The first problem
raises :class:`~gpupool.errors.InputError` at the line of the offending field (one line, exit 2). CEL rules of
the CRDs that gpupool relies on (restricted label domains, operator/value shapes) are in
:mod:`gpupool.nap.load`.
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from importlib import resources
from typing import Any

import yaml

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe
from gpupool.k8s.quantity import try_quantity

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Where a field an AKS doc or an older API names really lives (shown as the hint of an unknown field).
MOVED = {
    "spec.disruption.expireAfter": "karpenter.sh/v1 has it at spec.template.spec.expireAfter",
    "spec.template.spec.kubelet": "karpenter.sh/v1 moved kubelet settings to the AKSNodeClass (spec.kubelet)",
    "spec.gpu.nvidia": "gpu.nvidia.managementMode is proposed in Azure/karpenter-provider-azure#1752 (open "
    "on 2026-08-21), not in the CRD: use the tag EnableManagedGPUExperience: \"true\" under spec.tags",
}


@cache
def shapes() -> dict[str, Any]:
    text = resources.files("gpupool.nap").joinpath("data", "crds.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=_Loader)  # trusted package data


@cache
def _pattern(text: str) -> re.Pattern:
    flags = 0
    if text.startswith("(?i)"):
        text, flags = text[4:], re.IGNORECASE
    return re.compile(text, flags)


def line_of(mapping: Any, key: Any, default: int) -> int:
    if isinstance(mapping, yamlio.LineDict) and key in mapping.key_pos:
        return mapping.key_pos[key][0]
    if isinstance(mapping, (yamlio.LineDict, yamlio.LineList)) and mapping.line:
        return mapping.line
    return default


def item_line(seq: Any, i: int, default: int) -> int:
    if isinstance(seq, yamlio.LineList) and i < len(seq.item_pos):
        return seq.item_pos[i][0]
    return default


class Validator:
    """Walks one document's value against a shape; records each field's line in ``fields``."""

    def __init__(self, path: str, doc_line: int) -> None:
        self.path = path
        self.doc_line = doc_line
        self.fields: dict[str, int] = {}

    def err(self, line: int | None, message: str, hint: str | None = None) -> InputError:
        return InputError(self.path, line or self.doc_line, message, hint)

    def check(self, value: Any, shape: Any, where: str, line: int) -> None:
        if isinstance(shape, str):
            shape = {"type": shape}
        kind = shape["type"]
        self.fields.setdefault(where, line)
        if kind == "any":
            return
        if kind == "object":
            self._object(value, shape, where, line)
        elif kind == "list":
            if not isinstance(value, list):
                raise self.err(line, f"{where}: expected a list, got {yamlio.type_name(value)}")
            if "maxItems" in shape and len(value) > shape["maxItems"]:
                raise self.err(line, f"{where}: {len(value)} items, at most {shape['maxItems']} allowed")
            for i, item in enumerate(value):
                self.check(item, shape["items"], f"{where}[{i}]", item_line(value, i, line))
        elif kind == "map":
            if not isinstance(value, dict):
                raise self.err(line, f"{where}: expected a mapping, got {yamlio.type_name(value)}",
                               _map_hint(where, value))
            for k, v in value.items():
                kline = line_of(value, k, line)
                if not isinstance(k, str):
                    raise self.err(kline, f"{where}: keys must be strings, got {_safe(repr(k))}")
                self.check(v, shape["values"], f"{where}.{k}", kline)
        elif kind == "quantity":
            ok = not isinstance(value, bool) and isinstance(value, (str, int, float))
            if not ok or try_quantity(value) is None:
                raise self.err(line, f"{where}: {_safe(str(value))!r} is not a Kubernetes quantity (8, 64Gi)")
        elif kind == "string":
            self._string(value, shape, where, line)
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.err(line, f"{where}: expected an integer, got {yamlio.type_name(value)}")
            lo, hi = shape.get("min"), shape.get("max")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                top = hi if hi is not None else "..."
                raise self.err(line, f"{where}: {value} is out of range [{lo}, {top}]")
        elif kind == "bool":
            if not isinstance(value, bool):
                raise self.err(line, f"{where}: expected true or false, got {yamlio.type_name(value)}")
        else:  # pragma: no cover - a mistake in data/crds.yaml
            raise ValueError(f"unknown shape type {kind!r} at {where}")

    def _object(self, value: Any, shape: dict, where: str, line: int) -> None:
        if not isinstance(value, dict):
            raise self.err(line, f"{where}: expected a mapping, got {yamlio.type_name(value)}")
        fields = shape.get("fields") or {}
        for key in value:
            kline = line_of(value, key, line)
            if not isinstance(key, str):
                raise self.err(kline, f"{where}: field names must be strings, got {_safe(repr(key))}")
            if key not in fields:
                dotted = f"{where}.{key}"
                hint = MOVED.get(dotted)
                if hint is None:
                    close = difflib.get_close_matches(key, list(fields), n=1, cutoff=0.6)
                    hint = f'did you mean "{close[0]}"?' if close else (
                        f"known fields: {', '.join(fields)}" if fields else None)
                raise self.err(kline, f'unknown field "{_safe(dotted, 120)}"', hint)
        for req in shape.get("required") or ():
            if value.get(req) is None:
                raise self.err(line, f"{where}.{req} is required")
        for key, sub in fields.items():
            if key in value and value[key] is not None:
                self.check(value[key], sub, f"{where}.{key}", line_of(value, key, line))

    def _string(self, value: Any, shape: dict, where: str, line: int) -> None:
        if isinstance(value, bool) or not isinstance(value, str):
            hint = None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                hint = f'write it as a quoted string: "{value}"'
            raise self.err(line, f"{where}: expected a string, got {yamlio.type_name(value)}", hint)
        enum = shape.get("enum")
        if enum and value not in enum:
            exact = [e for e in enum if e.lower() == value.lower()]
            if exact:
                hint = f'the CRD\'s enum is case-sensitive: write "{exact[0]}"'
            else:
                close = difflib.get_close_matches(value, enum, n=1, cutoff=0.5)
                hint = f'did you mean "{close[0]}"?' if close else None
            raise self.err(line, f'{where}: "{_safe(value)}" is not one of {", ".join(enum)}', hint)
        pattern = shape.get("pattern")
        if pattern and not _pattern(pattern).search(value):
            raise self.err(line, f'{where}: "{_safe(value)}" does not have the form the CRD requires')


def _map_hint(where: str, value: Any) -> str | None:
    if where.endswith(".tags") and isinstance(value, str) and ":" in value:
        key, _, rest = value.partition(":")
        return f'a mapping entry needs a space after the colon: {_safe(key.strip())}: {_safe(rest.strip())}'
    return None
