"""The field classification table (``catalog/data/mutability.yaml``) as typed, read-only data.

One :class:`FieldRule` per (field, case): what happens when that pool-spec field changes on an existing
AKS node pool, why, and the public source that says so. The engine picks the case; it never hard-codes
whether a field is mutable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

UPDATE = "update"
RECREATE = "recreate"
ACTIONS = (UPDATE, RECREATE)


@dataclass(frozen=True)
class Preview:
    """A preview-only in-place path (never the default)."""

    flag: str
    api: str | None
    note: str
    source: str


@dataclass(frozen=True)
class FieldRule:
    field: str
    case: str
    action: str  # update | recreate
    reason: str
    source: str
    as_of: str
    how: str | None = None  # az | plugin (update only)
    flag: str | None = None
    marker: str | None = None  # INFERRED | UNVERIFIED
    conflict: str | None = None
    note: str | None = None
    min_cli: str | None = None
    preview: Preview | None = None

    @property
    def source_text(self) -> str:
        """The source, with its [INFERRED]/[UNVERIFIED] marker when no primary source states the fact."""
        return f"{self.source} [{self.marker}]" if self.marker else self.source


def _text(value: Any) -> str:
    return " ".join(str(value).split())


@cache
def _raw() -> dict[str, Any]:
    text = resources.files("gpupool.catalog").joinpath("data", "mutability.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=_Loader)


@cache
def table() -> dict[tuple[str, str], FieldRule]:
    """Every (field, case) -> FieldRule. Raises ValueError on a malformed data file (a packaging bug)."""
    out: dict[tuple[str, str], FieldRule] = {}
    for fld, cases in _raw()["fields"].items():
        for case, row in cases.items():
            action = row["action"]
            if action not in ACTIONS:
                raise ValueError(f"mutability.yaml: {fld}.{case}: bad action {action!r}")
            for key in ("reason", "source", "asOf"):
                if not row.get(key):
                    raise ValueError(f"mutability.yaml: {fld}.{case}: missing {key}")
            pv = row.get("preview")
            out[(fld, case)] = FieldRule(
                field=fld,
                case=case,
                action=action,
                reason=_text(row["reason"]),
                source=_text(row["source"]),
                as_of=str(row["asOf"]),
                how=row.get("how"),
                flag=row.get("flag"),
                marker=row.get("marker"),
                conflict=_text(row["conflict"]) if row.get("conflict") else None,
                note=_text(row["note"]) if row.get("note") else None,
                min_cli=str(row["minCli"]) if row.get("minCli") else None,
                preview=Preview(pv["flag"], pv.get("api"), _text(pv["note"]), _text(pv["source"]))
                if pv
                else None,
            )
    return out


def rule(fld: str, case: str = "default") -> FieldRule:
    return table()[(fld, case)]


def fields() -> tuple[str, ...]:
    """The classified fields, in table order (the order changes are reported in)."""
    return tuple(_raw()["fields"])


def as_of() -> str:
    return str(_raw()["asOf"])


@dataclass(frozen=True)
class PoolNameRule:
    pattern: str
    max_length: dict[str, int]  # os type -> max length
    source: str


@cache
def pool_name_rule() -> PoolNameRule:
    """AKS's node pool name rule: the catalog's (aks_limits.yaml) when it has one, else this table's."""
    from gpupool import catalog

    limits = getattr(catalog, "pool_limits", None)
    if limits is not None:
        try:
            lim = limits()
            return PoolNameRule(lim.name_pattern, dict(lim.name_max), lim.name_source)
        except (FileNotFoundError, KeyError, AttributeError):  # pragma: no cover - catalog without the block
            pass
    d = _raw()["newPoolName"]
    return PoolNameRule(d["pattern"], {k: int(v) for k, v in d["maxLength"].items()}, _text(d["source"]))


def update_os_skus() -> tuple[str, ...]:
    """OS SKUs ``az aks nodepool update --os-sku`` takes (``updateOsSkus`` in mutability.yaml)."""
    return tuple(_raw()["updateOsSkus"]["values"])
