"""metav1.LabelSelector against a set of labels (k8s.io/apimachinery pkg/apis/meta/v1/helpers.go
LabelSelectorAsSelector): every ``matchLabels`` pair AND every ``matchExpressions`` requirement (In, NotIn,
Exists, DoesNotExist). An empty selector matches everything; a missing one (None) matches nothing; a malformed
one matches nothing (the API server would have refused it).
"""

from __future__ import annotations

from typing import Any

_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def matches(selector: Any, labels: dict[str, str]) -> bool:
    if not isinstance(selector, dict):
        return False
    want = selector.get("matchLabels") or {}
    exprs = selector.get("matchExpressions") or []
    if not isinstance(want, dict) or not isinstance(exprs, list):
        return False
    if any(labels.get(str(k)) != str(v) for k, v in want.items()):
        return False
    return all(_requirement(e, labels) for e in exprs)


def _requirement(expr: Any, labels: dict[str, str]) -> bool:
    if not isinstance(expr, dict) or expr.get("operator") not in _OPERATORS:
        return False
    key, op = str(expr.get("key")), expr["operator"]
    values = expr.get("values") or []
    if not isinstance(values, list):
        return False
    present = key in labels
    if op == "In":
        return present and labels[key] in [str(v) for v in values]
    if op == "NotIn":
        return not present or labels[key] not in [str(v) for v in values]
    return present if op == "Exists" else not present
