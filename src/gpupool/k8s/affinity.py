"""nodeSelector and required node affinity vs node labels (k8s.io/component-helpers nodeaffinity).

A pod fits a node when every nodeSelector pair equals a node label AND (if set) at least one of
``requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`` matches; a term matches when all of
its matchExpressions and matchFields match. An empty term list matches nothing; a term with no
expressions matches nothing. Operators: In, NotIn, Exists, DoesNotExist, Gt, Lt.
"""

from __future__ import annotations

from typing import Any


def _expr_matches(expr: Any, labels: dict[str, str]) -> bool:
    if not isinstance(expr, dict):
        return False
    key = expr.get("key")
    op = expr.get("operator")
    values = expr.get("values") or []
    if not isinstance(values, list):
        return False
    values = [str(v) for v in values]
    if not isinstance(key, str):  # a malformed key (a mapping, a list): the schema's finding; matches nothing
        return False
    present = key in labels
    if op == "In":
        return present and labels[key] in values
    if op == "NotIn":
        return not present or labels[key] not in values
    if op == "Exists":
        return present
    if op == "DoesNotExist":
        return not present
    if op in ("Gt", "Lt"):
        if not present or len(values) != 1:
            return False
        try:
            have, want = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return have > want if op == "Gt" else have < want
    return False


def term_matches(term: Any, labels: dict[str, str], node_name: str | None = None) -> bool:
    if not isinstance(term, dict):
        return False
    exprs = term.get("matchExpressions") or []
    fields = term.get("matchFields") or []
    if not isinstance(exprs, list) or not isinstance(fields, list):
        return False  # malformed (the schema's finding): matches nothing
    if not exprs and not fields:
        return False
    if not all(_expr_matches(e, labels) for e in exprs):
        return False
    field_labels = {"metadata.name": node_name} if node_name is not None else {}
    return all(_expr_matches(f, field_labels) for f in fields)


def required_terms(pod_spec: Any) -> list[Any] | None:
    """The required node selector terms, or None when the pod has no required node affinity."""
    if not isinstance(pod_spec, dict):
        return None
    aff = pod_spec.get("affinity")
    if not isinstance(aff, dict):
        return None
    na = aff.get("nodeAffinity")
    if not isinstance(na, dict):
        return None
    req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    if not isinstance(req, dict):
        return None
    terms = req.get("nodeSelectorTerms")
    return terms if isinstance(terms, list) else []


def node_selector_matches(pod_spec: Any, labels: dict[str, str]) -> bool:
    sel = pod_spec.get("nodeSelector") if isinstance(pod_spec, dict) else None
    if isinstance(sel, dict):
        for k, v in sel.items():
            if labels.get(k) != str(v):
                return False
    return True


def node_affinity_matches(pod_spec: Any, labels: dict[str, str], node_name: str | None = None) -> bool:
    terms = required_terms(pod_spec)
    if terms is None:
        return True
    return any(term_matches(t, labels, node_name) for t in terms)


def matches_node(pod_spec: Any, labels: dict[str, str], node_name: str | None = None) -> bool:
    """nodeSelector AND required node affinity (the scheduler's NodeAffinity filter)."""
    return node_selector_matches(pod_spec, labels) and node_affinity_matches(pod_spec, labels, node_name)
