"""Effective pod requests and limits, as kube-scheduler computes them.

Source: k8s.io/component-helpers/resource ``PodRequests`` (Kubernetes 1.29+ with sidecars):
steady state = sum(containers) + sum(restartable init containers); each ordinary init container needs
itself + the sidecars started before it; the pod needs the max of the two, plus ``spec.overhead``.
A missing request defaults to the limit (API defaulting), so ``limits: {nvidia.com/gpu: 1}`` requests 1.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from gpupool.k8s.quantity import try_quantity

Resources = dict[str, Fraction]


def _section(container: Any, name: str) -> dict:
    res = container.get("resources") if isinstance(container, dict) else None
    sec = res.get(name) if isinstance(res, dict) else None
    return sec if isinstance(sec, dict) else {}


def parse_quantities(section: dict) -> Resources:
    """The entries of a resource map (requests, limits, overhead, a node's capacity) that are quantities."""
    out: Resources = {}
    for k, v in section.items():
        q = try_quantity(v)
        if q is not None:
            out[str(k)] = q
    return out


def container_limits(container: Any) -> Resources:
    return parse_quantities(_section(container, "limits"))


def container_requests(container: Any) -> Resources:
    reqs = parse_quantities(_section(container, "requests"))
    for k, v in container_limits(container).items():
        reqs.setdefault(k, v)
    return reqs


def _add(a: Resources, b: Resources) -> None:
    for k, v in b.items():
        a[k] = a.get(k, Fraction(0)) + v


def _max(a: Resources, b: Resources) -> None:
    for k, v in b.items():
        if v > a.get(k, Fraction(0)):
            a[k] = v


def _items(value: Any) -> list:
    """A container list as written; anything else (a number, a mapping: the schema's finding) is none."""
    return value if isinstance(value, list) else []


def _pod_total(pod_spec: Any, per_container: Callable[[Any], Resources]) -> Resources:
    if not isinstance(pod_spec, dict):
        return {}
    total: Resources = {}
    for c in _items(pod_spec.get("containers")):
        _add(total, per_container(c))
    sidecars: Resources = {}
    init_peak: Resources = {}
    for c in _items(pod_spec.get("initContainers")):
        r = per_container(c)
        if isinstance(c, dict) and c.get("restartPolicy") == "Always":
            _add(total, r)
            _add(sidecars, r)
            need = dict(sidecars)
        else:
            need = dict(sidecars)
            _add(need, r)
        _max(init_peak, need)
    _max(total, init_peak)
    overhead = pod_spec.get("overhead")
    if isinstance(overhead, dict):
        _add(total, parse_quantities(overhead))
    return total


def requests_key(pod_spec: dict) -> str:
    """All that a pod's effective requests depend on, as text (equal text, equal requests): each container's
    and init container's resources and restartPolicy, and the overhead. A memo key for the callers that
    compute requests for many pods of few shapes (lint's rules, simulate's workloads)."""
    parts = []
    for fld in ("initContainers", "containers"):
        items = pod_spec.get(fld)
        if isinstance(items, list):  # anything else holds no container: no requests, as if absent
            for c in items:
                if isinstance(c, dict):
                    parts.append((fld, c.get("resources"), c.get("restartPolicy")))
                else:
                    parts.append((fld, c))
    return repr((parts, pod_spec.get("overhead")))


def pod_requests(pod_spec: Any) -> Resources:
    return _pod_total(pod_spec, container_requests)


def pod_limits(pod_spec: Any) -> Resources:
    return _pod_total(pod_spec, container_limits)


def pod_requests_of(pod_spec: Any, keep: Callable[[str], bool]) -> Resources:
    """:func:`pod_requests` for the resource names ``keep`` accepts only (the others are not even parsed)."""

    def pick(section: Any, out: Resources) -> None:
        if isinstance(section, dict):
            for k, v in section.items():
                if k not in out and keep(str(k)):
                    q = v if type(v) is int else try_quantity(v)  # ints are exact already
                    if q is not None:
                        out[str(k)] = q

    def per_container(c: Any) -> Resources:
        out: Resources = {}
        res = c.get("resources") if isinstance(c, dict) else None
        if isinstance(res, dict):
            pick(res.get("requests"), out)
            pick(res.get("limits"), out)  # a limit without a request is the request
        return out

    return {k: v for k, v in _pod_total(pod_spec, per_container).items() if keep(k)}


def is_extended_resource(name: str) -> bool:
    """Kubernetes ``IsExtendedResourceName``: a domain-prefixed name outside ``kubernetes.io/``, not a quota
    ``requests.`` name (k8s.io/kubernetes pkg/apis/core/helper/helpers.go). The API server requires such
    resources to be integers with request == limit ("non overcommitable"); ``nvidia.com/gpu`` is one."""
    return "/" in name and "kubernetes.io/" not in name and not name.startswith("requests.")


def extended(resources: Resources) -> Resources:
    """Only extended resources (names with a domain, e.g. nvidia.com/gpu; not cpu/memory/hugepages)."""
    return {
        k: v
        for k, v in resources.items()
        if "/" in k and not k.startswith(("kubernetes.io/", "requests.", "hugepages-"))
    }


def pod_requests_non_missing(pod_spec: Any, defaults: Resources) -> Resources:
    """Requests where a container (or init container) that leaves a resource of ``defaults`` unset counts the
    default instead: kube-scheduler's non-zero requests for scoring (100m CPU, 200Mi memory).

    Source: k8s.io/component-helpers/resource ``PodResourcesOptions.NonMissingContainerRequests`` (a request
    that is set, even to 0, is kept; a limit without a request counts as the request first).
    """

    def per_container(c: Any) -> Resources:
        r = container_requests(c)
        for k, v in defaults.items():
            r.setdefault(k, v)
        return r

    return _pod_total(pod_spec, per_container)
