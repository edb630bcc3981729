"""The problem type of API-server validation and the collector the checks write into (plain data)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# Areas: which part of the API server's validation a problem comes from (lint maps each to one rule).
METADATA = "metadata"  # name, generateName, namespace
LABELS = "labels"  # label and annotation keys and values, annotation size
SELECTOR = "selector"  # label selectors, selector vs template labels
CONTAINER = "container"  # container names, image, ports, env, volumeMounts, probes, securityContext
RESOURCES = "resources"  # requests and limits of containers
POD = "pod"  # pod spec fields: volumes, restartPolicy, dnsPolicy, hostname, pod securityContext
SCHEDULING = "scheduling"  # tolerations, affinity, nodeSelector, topologySpreadConstraints
WORKLOAD = "workload"  # Deployment/StatefulSet/DaemonSet/Job/CronJob specs, HPA, PDB
NETWORK = "network"  # Service, Ingress, NetworkPolicy
CONFIG = "config"  # ConfigMap, Secret, RBAC, PVC, ResourceQuota, PriorityClass

AREAS = (METADATA, LABELS, SELECTOR, CONTAINER, RESOURCES, POD, SCHEDULING, WORKLOAD, NETWORK, CONFIG)

# The server's reasons (k8s.io/apimachinery/pkg/util/validation/field ErrorType) and their words.
INVALID = "FieldValueInvalid"
REQUIRED = "FieldValueRequired"
DUPLICATE = "FieldValueDuplicate"
NOT_SUPPORTED = "FieldValueNotSupported"
FORBIDDEN = "FieldValueForbidden"
NOT_FOUND = "FieldValueNotFound"
TOO_LONG = "FieldValueTooLong"

_WORDS = {
    INVALID: "Invalid value",
    REQUIRED: "Required value",
    DUPLICATE: "Duplicate value",
    NOT_SUPPORTED: "Unsupported value",
    FORBIDDEN: "Forbidden",
    NOT_FOUND: "Not found",
    TOO_LONG: "Too long",
}
_WITH_VALUE = (INVALID, DUPLICATE, NOT_SUPPORTED, NOT_FOUND)
NO_VALUE: Any = object()


class Key(str):
    """A map key in a field path: printed ``[key]`` as the server prints them (``limits[nvidia.com/gpu]``)."""

    __slots__ = ()


def field_path(path: tuple) -> str:
    """``("spec", "containers", 0, Key("cpu"))`` -> ``spec.containers[0][cpu]``; the server's form."""
    out = []
    for step in path:
        if type(step) is int or type(step) is Key:
            out.append(f"[{step}]")
        else:
            out.append(f".{step}" if out else str(step))
    return "".join(out)


def show(value: Any, limit: int = 100) -> str:
    """A value as the server quotes it: strings in double quotes, numbers bare, objects as JSON."""
    if isinstance(value, str):
        text = json.dumps(value if len(value) <= limit else value[:limit] + "...", ensure_ascii=False)
    elif isinstance(value, bool) or value is None:
        text = json.dumps(value)
    elif isinstance(value, (int, float)):
        text = str(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, sort_keys=False, default=str)
        except (TypeError, ValueError):
            text = str(value)
        if len(text) > limit:
            text = text[:limit] + "..."
    return text


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the API server would refuse: ``path`` is the server's field (``field`` prints it),
    ``at`` the place in the object to point at (a label's own key rather than the whole map)."""

    area: str
    path: tuple
    reason: str
    detail: str
    value: Any = NO_VALUE
    at: tuple | None = None

    @property
    def field(self) -> str:
        return field_path(self.path)

    @property
    def where(self) -> tuple:
        """Plain keys and indices of the place to point at (``Key`` markers dropped)."""
        return tuple(str(s) if type(s) is Key else s for s in (self.at if self.at is not None else self.path))

    @property
    def message(self) -> str:
        words = _WORDS[self.reason]
        text = f"{self.field}: {words}" if self.path else words
        if self.reason in _WITH_VALUE and self.value is not NO_VALUE:
            text += f": {show(self.value)}"
        if self.detail:
            text += f": {self.detail}"
        return text


class Out:
    """Where one object's checks write their problems."""

    __slots__ = ("problems", "version")

    def __init__(self, version: tuple[int, int]) -> None:
        self.problems: list[Problem] = []
        self.version = version

    def add(
        self,
        area: str,
        path: tuple,
        reason: str,
        detail: str = "",
        value: Any = NO_VALUE,
        at: tuple | None = None,
    ) -> None:
        self.problems.append(Problem(area, path, reason, detail, value, at))

    def invalid(self, area: str, path: tuple, value: Any, detail: str, at: tuple | None = None) -> None:
        self.problems.append(Problem(area, path, INVALID, detail, value, at))

    def required(self, area: str, path: tuple, detail: str = "", at: tuple | None = None) -> None:
        self.problems.append(Problem(area, path, REQUIRED, detail, NO_VALUE, at))

    def unsupported(self, area: str, path: tuple, value: Any, supported: tuple[str, ...]) -> None:
        listed = ", ".join(f'"{s}"' for s in supported)
        self.problems.append(Problem(area, path, NOT_SUPPORTED, f"supported values: {listed}", value))

    def forbidden(self, area: str, path: tuple, detail: str) -> None:
        self.problems.append(Problem(area, path, FORBIDDEN, detail))


def is_int(v: Any) -> bool:
    return type(v) is int


def str_of(v: Any) -> str | None:
    return v if type(v) is str else None
