"""ObjectMeta (names per kind, generateName, namespace), labels, annotations and label selectors."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources as _resources
from typing import Any

from gpupool.k8s.validation import names
from gpupool.k8s.validation.core import LABELS, METADATA, SELECTOR, TOO_LONG, Out

NameRule = Callable[[str], "str | None"]
_RULES: dict[str, NameRule] = {
    "dns1123_subdomain": names.dns1123_subdomain,
    "dns1123_label": names.dns1123_label,
    "dns1035_label": names.dns1035_label,
    "path_segment": names.path_segment,
}


def _minor(text: str) -> tuple[int, int]:
    major, minor = str(text).split(".")[:2]
    return int(major), int(minor)


@cache
def facts() -> dict[str, Any]:
    """The data file (k8s/data/apiserver_validation.yaml), loaded once."""
    import yaml

    text = _resources.files("gpupool.k8s").joinpath("data", "apiserver_validation.yaml").read_text("utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@cache
def _name_table() -> dict[tuple[str, str], tuple[str, str | None, tuple[int, int] | None]]:
    out = {}
    for row in facts()["names"]:
        since = row.get("since")
        for kind in row["kinds"]:
            out[(row["group"], kind)] = (
                row["rule"],
                since["rule"] if since else None,
                _minor(since["from"]) if since else None,
            )
    return out


@cache
def cluster_scoped() -> frozenset[str]:
    return frozenset(facts()["clusterScoped"])


@cache
def limit(name: str) -> int:
    return int(facts()["versions"][name]["value"])


@cache
def since(name: str) -> tuple[int, int]:
    return _minor(facts()["versions"][name]["from"])


@cache
def name_rule(group: str, kind: str, version: tuple[int, int]) -> NameRule | None:
    """The rule for ``metadata.name`` of a kind at a Kubernetes minor (None: only the path-segment rule).
    Custom resources (group ``*custom*``) have the DNS-subdomain rule."""
    if group == "*custom*":
        return names.dns1123_subdomain
    row = _name_table().get((group, kind))
    if row is None:
        return None
    rule, newer, start = row
    if newer is not None and start is not None and version >= start:
        rule = newer
    return _RULES[rule]


def placeholder(value: str) -> bool:
    """A value a template engine fills in later (``{{ .Values.name }}``, ``${NAME}``): not judged."""
    return "{{" in value or "${" in value


def check_object_meta(out: Out, obj: dict, group: str, kind: str) -> None:
    meta = obj.get("metadata")
    if type(meta) is not dict:
        return
    rule = name_rule(group, kind, out.version)
    name = meta.get("name")
    gen = meta.get("generateName")
    if type(name) is str and name:
        bad = (rule(name) if rule else None) or names.path_segment(name)
        if bad and not placeholder(name):
            out.invalid(METADATA, ("metadata", "name"), name, bad)
    else:
        name = None
    if type(gen) is str and gen and not placeholder(gen):
        _generate_name(out, gen, rule, name is None)
    ns = meta.get("namespace")
    if type(ns) is str and ns:
        bad = names.dns1123_label(ns)
        if bad and kind not in cluster_scoped() and not placeholder(ns):
            out.invalid(METADATA, ("metadata", "namespace"), ns, bad)
    labels = meta.get("labels")
    if labels:
        check_labels(out, labels, ("metadata", "labels"), LABELS)
    ann = meta.get("annotations")
    if ann:
        check_annotations(out, ann, ("metadata", "annotations"))


def _generate_name(out: Out, gen: str, rule: NameRule | None, unnamed: bool) -> None:
    bad = names.prefixed(rule)(gen) if rule else None
    bad = bad or names.path_segment(gen)
    if bad:
        out.invalid(METADATA, ("metadata", "generateName"), gen, bad)
    if unnamed:  # the server validates the name it generates (at most 58 characters of the prefix)
        made = gen[:58] + "x2x4x"
        bad = (rule(made) if rule else None) or names.path_segment(made)
        if bad:
            out.invalid(
                METADATA,
                ("metadata", "name"),
                made,
                f"{bad} (the name generated from generateName)",
                at=("metadata", "generateName"),
            )


def check_labels(out: Out, labels: Any, path: tuple, area: str, where: tuple | None = None) -> None:
    """Label keys (qualified names) and values; the server reports the whole map's field (``path``), the
    finding points at the key (under ``where``, the map's place in the object, when that differs)."""
    if type(labels) is not dict:
        return
    key_bad, value_bad = names.qualified_name, names.label_value
    for k, v in labels.items():
        if type(k) is not str:
            continue
        bad = key_bad(k)
        if bad and not placeholder(k):
            out.invalid(area, path, k, bad, at=(*(path if where is None else where), k))
        if type(v) is str:
            bad = value_bad(v)
            if bad and not placeholder(v):
                out.invalid(area, path, v, bad, at=(*(path if where is None else where), k))


def check_annotations(out: Out, ann: Any, path: tuple, where: tuple | None = None) -> None:
    if type(ann) is not dict:
        return
    base = path if where is None else where
    total = 0
    for k, v in ann.items():
        if type(k) is not str:
            continue
        bad = names.qualified_name(k.lower())
        if bad:
            out.invalid(LABELS, path, k, bad, at=(*base, k))
        total += len(k) + (len(v) if type(v) is str else 0)
    cap = limit("annotationsMaxBytes")
    if total * 4 > cap:  # characters * 4 bounds the UTF-8 bytes: count them only when it matters
        size = sum(
            len(k.encode()) + (len(v.encode()) if type(v) is str else 0)
            for k, v in ann.items()
            if type(k) is str
        )
        if size > cap:
            out.add(LABELS, path, TOO_LONG, f"may not be more than {cap} bytes", at=base)


_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def check_label_selector(out: Out, sel: Any, path: tuple) -> None:
    """A metav1.LabelSelector: matchLabels as labels, matchExpressions' keys, operators and values."""
    if type(sel) is not dict:
        return
    ml = sel.get("matchLabels")
    if ml:
        check_labels(out, ml, (*path, "matchLabels"), SELECTOR)
    exprs = sel.get("matchExpressions")
    if type(exprs) is not list:
        return
    for i, e in enumerate(exprs):
        if type(e) is not dict:
            continue
        p = (*path, "matchExpressions", i)
        op = e.get("operator")
        values = e.get("values")
        n = len(values) if type(values) is list else 0
        if op in ("In", "NotIn"):
            if n == 0:
                out.required(SELECTOR, (*p, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
        elif op in ("Exists", "DoesNotExist"):
            if n:
                out.forbidden(
                    SELECTOR,
                    (*p, "values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                )
        elif type(op) is str:
            out.invalid(SELECTOR, (*p, "operator"), op, "not a valid selector operator")
        key = e.get("key")
        if type(key) is str:
            bad = names.qualified_name(key)
            if bad:
                out.invalid(SELECTOR, (*p, "key"), key, bad)
        if type(values) is list:
            for j, v in enumerate(values):
                if type(v) is str:
                    bad = names.label_value(v)
                    if bad:
                        out.invalid(SELECTOR, (*p, "values", j), v, bad)


def selector_is_empty(sel: Any) -> bool:
    return type(sel) is not dict or (not sel.get("matchLabels") and not sel.get("matchExpressions"))


def selector_matches(sel: dict, labels: dict) -> bool:
    """Does a label selector select these labels (the semantics of metav1.LabelSelectorAsSelector)?"""
    ml = sel.get("matchLabels")
    if type(ml) is dict:
        for k, v in ml.items():
            if labels.get(k) != v:
                return False
    exprs = sel.get("matchExpressions")
    if type(exprs) is list:
        for e in exprs:
            if type(e) is not dict:
                continue
            key, op = e.get("key"), e.get("operator")
            values = e.get("values") if type(e.get("values")) is list else []
            has = key in labels
            if op == "In" and not (has and labels[key] in values):
                return False
            if op == "NotIn" and has and labels[key] in values:
                return False
            if op == "Exists" and not has:
                return False
            if op == "DoesNotExist" and has:
                return False
    return True


__all__ = [
    "check_annotations",
    "check_label_selector",
    "check_labels",
    "check_object_meta",
    "cluster_scoped",
    "name_rule",
    "selector_is_empty",
    "selector_matches",
]
