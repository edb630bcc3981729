"""Registry of every rule gpupool knows, across families (yamllint/ruff style).

A rule is a module that defines ``ID`` (stable, e.g. ``GP103``), ``NAME`` (kebab-case), ``SEVERITY``,
``SUMMARY`` (one line) and a module docstring that is its documentation (``gpupool explain ID``).
Rule modules live in one package per family; the registry discovers them, so adding a rule is adding
a module.

Families: GP1xx design (check/plan), GP2xx schema, GP3xx GPU workload rules (lint),
GP4xx diff, GP5xx simulation, GP6xx doctor, GP7xx preflight, GP8xx NodePools (Node Auto Provisioning:
check/plan).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from gpupool.findings import Severity

FAMILY_PACKAGES = (
    "gpupool.design.rules",
    "gpupool.lint.rules",
    "gpupool.diff.rules",
    "gpupool.simulate.rules",
    "gpupool.doctor.rules",
    "gpupool.preflight.rules",
    "gpupool.nap.rules",
)


@dataclass(frozen=True)
class RuleInfo:
    id: str
    name: str
    severity: Severity
    summary: str
    doc: str
    module: ModuleType


def _modules(package_name: str) -> list[ModuleType]:
    try:
        package = importlib.import_module(package_name)
    except ModuleNotFoundError:
        return []
    mods = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{package_name}.{info.name}")
        if hasattr(mod, "ID"):
            mods.append(mod)
    return mods


@cache
def family(package_name: str) -> tuple[RuleInfo, ...]:
    """The rules of one family package, sorted by ID."""
    infos = [
        RuleInfo(
            id=m.ID,
            name=m.NAME,
            severity=m.SEVERITY,
            summary=m.SUMMARY,
            doc=inspect.cleandoc(m.__doc__ or ""),
            module=m,
        )
        for m in _modules(package_name)
    ]
    return tuple(sorted(infos, key=lambda r: r.id))


@cache
def all_rules() -> dict[str, RuleInfo]:
    rules: dict[str, RuleInfo] = {}
    for pkg in FAMILY_PACKAGES:
        for r in family(pkg):
            if r.id in rules:
                raise RuntimeError(f"duplicate rule ID {r.id} in {pkg}")
            rules[r.id] = r
    return rules


def lookup(key: str) -> RuleInfo | None:
    """Find a rule by ID (case-insensitive) or by name."""
    rules = all_rules()
    k = key.strip()
    if k.upper() in rules:
        return rules[k.upper()]
    for r in rules.values():
        if r.name == k.lower():
            return r
    return None


def closest(token: str, infos: Iterable[RuleInfo] | None = None) -> str | None:
    """The did-you-mean for ``token``, a rule ID or name that names no rule: the nearest ID or name among
    ``infos`` (default: every rule), or None."""
    import difflib

    infos = list(all_rules().values()) if infos is None else list(infos)
    known = [*(r.id for r in infos), *(r.name for r in infos)]
    probe = token.upper() if token[:2].lower() == "gp" else token.lower()
    close = difflib.get_close_matches(probe, known, n=1, cutoff=0.6)
    return close[0] if close else None

