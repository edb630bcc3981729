"""cluster.shapes: the generated fast pass answers as the walk that names fields does, and names the field."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool.cluster import shapes

SNAPSHOTS = Path(__file__).resolve().parents[1] / "doctor" / "snapshots"
FILES = {"nodes.json": "Node", "pods.json": "Pod", "daemonsets.json": "DaemonSet", "events.json": "Event"}

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=3)
)


def shaped(tree: dict, depth: int = 0) -> st.SearchStrategy:
    """Values that follow the tree's keys often (and break its types now and then)."""
    if depth > 6:
        return leaves
    named = [k for k in tree if k != "*"]
    star = tree.get("*")

    def child(entry) -> st.SearchStrategy:  # type: ignore[no-untyped-def]
        _, sub = entry
        return st.one_of(leaves, shaped(sub, depth + 1)) if sub else leaves

    def dict_of(keys: list[str]) -> st.SearchStrategy:
        return st.fixed_dictionaries({k: child(tree[k]) for k in keys})

    dicts = (
        st.lists(st.sampled_from(named), unique=True, max_size=4).flatmap(dict_of)
        if named
        else st.just({})
    )
    if star is not None:
        # several values: a wrong one need not be the first
        stars = st.dictionaries(st.text(max_size=2), child(star), min_size=1, max_size=4)
        return st.one_of(dicts, stars, st.lists(child(star), min_size=1, max_size=4), leaves)
    return st.one_of(dicts, st.lists(leaves, max_size=2), leaves)


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_fast_pass_agrees_with_the_walk(data) -> None:
    for kind, tree in shapes._COMPILED.items():
        value = data.draw(shaped(tree), label=kind)
        ok = shapes._walk(value, tree, "") is None
        assert shapes.fast_pass(kind)(value) is ok, (kind, value)
        bad = shapes.problem(kind, value)
        assert (bad is None) == ok if isinstance(value, dict) else True, (kind, value, bad)


def test_real_shaped_fixtures_pass() -> None:
    seen = 0
    for snap in sorted(p for p in SNAPSHOTS.iterdir() if p.is_dir()):
        for name, kind in FILES.items():
            f = snap / name
            if not f.exists():
                continue
            for item in json.loads(f.read_text())["items"]:
                assert shapes.fast_pass(kind)(item) and shapes.problem(kind, item) is None, (f, item)
                seen += 1
    assert seen > 100


def test_a_wrong_type_deep_inside_is_named() -> None:
    pod = {
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
        "status": {"containerStatuses": [{"restartCount": True}]},
    }
    assert shapes.fast_pass("Pod")(pod) is False
    want = "status.containerStatuses.0.restartCount is bool, expected an integer"
    assert shapes.problem("Pod", pod) == want
    pod["status"]["containerStatuses"][0]["restartCount"] = 2
    assert shapes.problem("Pod", pod) is None
    pod["spec"]["containers"][0]["resources"]["limits"] = ["1"]
    assert shapes.problem("Pod", pod) is not None and "limits" in shapes.problem("Pod", pod)


def _wrong(types: tuple) -> object:
    for c in ([], {}, "x", 1.5, True, 1):
        if not isinstance(c, types) or (types is shapes.INT and c is True):
            return c
    raise AssertionError(types)


def _object_with_wrong(table: dict, path: str) -> tuple[object, str]:
    """An object whose only field at ``path`` has a wrong type, each ``*`` the second of two items (the first
    null), and the path the message should name."""
    parts = path.split(".")

    def build(i: int, prefix: str) -> tuple[object, str]:
        if i == len(parts):
            return _wrong(table[path]), ""
        seg = parts[i]
        here = f"{prefix}.{seg}" if prefix else seg
        child, rest = build(i + 1, here)
        rest = f".{rest}" if rest else ""
        if seg == "*":
            if table.get(prefix) == shapes.LIST:
                return [None, child], "1" + rest
            return {"a": None, "b": child}, "b" + rest
        return {seg: child}, seg + rest

    obj, named = build(0, "")
    return obj, named


def test_every_checked_path_is_checked_at_every_item() -> None:
    """A wrong type at any path of the table, behind a null first item, fails both passes; the message
    names the path (a generated pass that skipped a key, an item or a bool check fails here)."""
    count = 0
    for kind, table in shapes.SHAPES.items():
        for path in table:
            if not path:
                continue
            obj, named = _object_with_wrong(table, path)
            assert shapes.fast_pass(kind)(obj) is False, (kind, path, obj)
            assert shapes._walk(obj, shapes._COMPILED[kind], "") is not None, (kind, path)
            bad = shapes.problem(kind, obj)
            assert bad is not None and bad.startswith(f"{named} is "), (kind, path, bad)
            count += 1
    assert count > 100


def test_every_listed_kind_checks_the_fields_every_reader_relies_on() -> None:
    """metadata/spec/status objects, name and namespace strings, labels and annotations maps of strings: one
    table for every kind a snapshot lists (no hand-written check beside it)."""
    for kind in ("Node", "Pod", "DaemonSet", "Event", "ConfigMap", "ClusterPolicy"):
        assert shapes.problem(kind, {"metadata": {"name": "n", "labels": {"a": "b"}}, "spec": {}}) is None
        assert shapes.problem(kind, {"metadata": []}) == "metadata is list, expected an object"
        assert shapes.problem(kind, {"status": "x"}) == "status is str, expected an object"
        assert shapes.problem(kind, {"metadata": {"name": 3}}) == "metadata.name is int, expected a string"
        assert shapes.problem(kind, {"metadata": {"labels": {"a": 1}}}) == (
            "metadata.labels.a is int, expected a string"
        )
        assert shapes.problem(kind, {"metadata": {"annotations": []}}) == (
            "metadata.annotations is list, expected an object"
        )
