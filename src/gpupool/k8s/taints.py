"""Taints vs tolerations, as kube-scheduler matches them (k8s.io/api/core/v1 toleration.go ToleratesTaint).

A toleration matches a taint when its effect is empty or equal, and its key is empty with operator
Exists (tolerates everything) or equal to the taint's key; operator Exists ignores the value, Equal
(the default) compares values. ``NoSchedule`` and ``NoExecute`` taints keep untolerating pods off a node;
``PreferNoSchedule`` only discourages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpupool.spec.model import Taint

HARD_EFFECTS = ("NoSchedule", "NoExecute")


def tolerates(toleration: Any, taint: Taint) -> bool:
    if not isinstance(toleration, dict):
        return False
    effect = toleration.get("effect") or ""
    if effect and effect != taint.effect:
        return False
    key = toleration.get("key") or ""
    operator = toleration.get("operator") or "Equal"
    if not key:
        # An empty key with operator Exists matches all keys, values and effects.
        return operator == "Exists"
    if key != taint.key:
        return False
    if operator == "Exists":
        return True
    if operator == "Equal":
        return str(toleration.get("value") or "") == taint.value
    return False


def untolerated(
    taints: Iterable[Taint], tolerations: Any, effects: tuple[str, ...] = HARD_EFFECTS
) -> list[Taint]:
    """The taints (with one of ``effects``) that no toleration in ``tolerations`` tolerates."""
    tols = tolerations if isinstance(tolerations, list) else []
    return [t for t in taints if t.effect in effects and not any(tolerates(tol, t) for tol in tols)]


def toleration_for(taint: Taint) -> dict[str, str]:
    """The exact toleration that tolerates ``taint`` (for fix hints and rendered manifests)."""
    if taint.value:
        return {"key": taint.key, "operator": "Equal", "value": taint.value, "effect": taint.effect}
    return {"key": taint.key, "operator": "Exists", "effect": taint.effect}


def format_toleration(taint: Taint) -> str:
    t = toleration_for(taint)
    return "{" + ", ".join(f"{k}: {v}" for k, v in t.items()) + "}"
