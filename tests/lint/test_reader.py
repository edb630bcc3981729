"""The fast document reader builds exactly what gpupool.yamlio builds (values, types, positions, duplicate
keys), and falls back to yamlio for everything it does not handle."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool import _yamlfast, yamlio
from gpupool.lint import reader
from support import CORPUS, NO_CORPUS, data_paths, plain_same


def same(a, b) -> bool:
    if isinstance(b, yamlio.LineDict):
        return (
            type(a) is yamlio.LineDict
            and (a.line, a.col) == (b.line, b.col)
            and a.key_pos == b.key_pos
            and list(a) == list(b)
            and all(same(a[k], b[k]) for k in b)
        )
    if isinstance(b, yamlio.LineList):
        return (
            type(a) is yamlio.LineList
            and (a.line, a.col) == (b.line, b.col)
            and a.item_pos == b.item_pos
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    return type(a) is type(b) and (a == b or (a != a and b != b))


def check_same(text: str) -> None:
    fast = _yamlfast.fast_documents(text, "t.yaml")
    try:
        slow = yamlio.load_documents(text, "t.yaml", fast=False)
    except Exception:
        assert fast is None
        return
    if fast is None:
        return
    assert len(fast) == len(slow)
    for f, s in zip(fast, slow, strict=True):
        assert (f.index, f.line, f.duplicates) == (s.index, s.line, s.duplicates)
        assert same(f.data, s.data)


def check_lazy(text: str) -> None:
    """positions="lazy": the same data (as plain dicts and lists) and the same answer from locate() for
    every path, as the eager reader."""
    try:
        eager = yamlio.load_documents(text, "t.yaml")
    except yamlio.InputError as e:
        with pytest.raises(yamlio.InputError) as lazy_error:
            list(yamlio.iter_documents(text, "t.yaml", positions="lazy"))
        assert lazy_error.value.message == e.message
        return
    lazy = list(yamlio.iter_documents(text, "t.yaml", positions="lazy"))
    python = _yamlfast.fast_documents(text, "t.yaml", lazy=True, native=False)
    native = _yamlfast._c_documents(text, "t.yaml") if _yamlfast._cyaml is not None else None
    for docs in (lazy, python, native):
        if docs is None:  # that reader left the file to the next one
            continue
        assert len(docs) == len(eager)
        for lz, eg in zip(docs, eager, strict=True):
            assert (lz.index, lz.line, lz.duplicates) == (eg.index, eg.line, eg.duplicates)
            if lz.positions is None:  # built with positions (a duplicate key, or the general loader)
                assert same(lz.data, eg.data)
            else:
                assert plain_same(lz.data, eg.data)
            for p in data_paths(eg.data):
                assert lz.locate(p) == yamlio.locate(eg.data, p), p
            assert same(lz.positioned(), eg.data)  # built again with all its positions, on demand


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
@pytest.mark.parametrize(
    "path", sorted(p for p in CORPUS.rglob("*.y*ml")) if CORPUS else [], ids=lambda p: p.name
)
def test_corpus_files_read_identically(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    check_same(text)
    check_lazy(text)


scalars = st.one_of(
    st.sampled_from(
        [
            "1",
            "01",
            "0x1F",
            "1_000",
            "1.5",
            ".inf",
            "-.nan",
            "1e3",
            "yes",
            "No",
            "on",
            "~",
            "null",
            "true",
            "2026-01-02",
            "2026-01-02T03:04:05Z",
            "=",
            "''",
            '"1"',
            "'x: y'",
            "0o17",
            "1:30",
            "+12",
            "-0",
            "",
            "a b",
            "é",
            "!!str 1",
            "!!int '3'",
            "!custom x",
        ]
    ),
    st.text(alphabet="abcxyz019 ._-/", min_size=1, max_size=8),
)


@st.composite
def yaml_docs(draw, depth: int = 0):
    kind = draw(st.sampled_from(["map", "seq", "scalar", "flow"] if depth < 3 else ["scalar"]))
    pad = "  " * depth
    if kind == "scalar":
        return draw(scalars)
    if kind == "flow":
        items = draw(st.lists(scalars, max_size=3))
        return "{" + ", ".join(f"k{i}: {v}" for i, v in enumerate(items)) + "}"
    entries = draw(
        st.lists(
            st.tuples(st.sampled_from(["a", "b", "name", "1", "true", "c d"]), yaml_docs(depth + 1)),
            min_size=1,
            max_size=4,
        )
    )
    lines = []
    for k, v in entries:
        nested = "\n" in v or v.startswith(("a:", "- "))
        if kind == "map":
            lines.append(f"{pad}{k}:\n{v}" if nested else f"{pad}{k}: {v}")
        else:
            lines.append(f"{pad}-\n{v}" if nested else f"{pad}- {v}")
    return "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(st.lists(yaml_docs(), min_size=1, max_size=3))
def test_generated_yaml_reads_identically(docs: list[str]) -> None:
    check_same("\n---\n".join(docs) + "\n")
    check_lazy("\n---\n".join(docs) + "\n")


def test_lazy_positions_with_duplicates_and_odd_keys() -> None:
    text = "a: 1\n2: two\ntrue: yes\nb:\n  - x\n  - {c: 2}\n---\n- [1, {k: v}]\n---\nk: 1\nk: 2\n"
    check_lazy(text)
    docs = list(yamlio.iter_documents(text, "t.yaml", positions="lazy"))
    assert docs[0].positions is not None and type(docs[0].data) is dict
    assert docs[0].locate(("b", 1, "c")) == (6, 6)
    assert yamlio.locate(docs[0], (2,)) == (2, 1)  # yamlio.locate accepts a Document
    assert docs[2].positions is None and docs[2].duplicates[0].key == "k"  # built with positions


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "base: {a: 1}\nm:\n  <<: {b: 2}\n",  # merge key
        "a: !!binary aGVsbG8=\n",  # explicit tag
        "? [a, b]\n: 1\n",  # non-scalar key
        "a: [\n",  # syntax error
        "[" * 300 + "]" * 300 + "\n",  # too deep
    ],
)
def test_fallback_cases(text: str) -> None:
    assert _yamlfast.fast_documents(text, "t.yaml") is None
    src = reader.read_documents("t.yaml", text)
    try:
        expected = yamlio.load_documents(text, "t.yaml")
    except yamlio.InputError as e:
        assert src.syntax_error is not None and src.syntax_error.message == e.message
    else:
        assert len(src.documents) == len(expected)


def test_duplicates_and_positions() -> None:
    text = "a: 1\nb:\n  - x\n  - {c: 2, c: 3}\na: 4\n"
    docs = _yamlfast.fast_documents(text, "t.yaml")
    assert docs is not None
    d = docs[0]
    assert d.data == {"a": 4, "b": ["x", {"c": 3}]}
    assert [(x.key, x.line, x.first_line) for x in d.duplicates] == [("c", 4, 4), ("a", 5, 1)]
    assert yamlio.locate(d.data, ("b", 1, "c")) == (4, 12)


def test_json_with_tabs_falls_back_to_json() -> None:
    src = reader.read_documents("x.json", '{\n\t"apiVersion": "v1",\n\t"kind": "Namespace"\n}')
    assert src.syntax_error is None and src.documents[0].data["kind"] == "Namespace"


def test_large_and_binary_files(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * (yamlio.MAX_FILE_BYTES // 5 + 1))
    assert reader.read_documents(str(big)).too_large is not None
    b = tmp_path / "b.yaml"
    b.write_bytes(b"\x00\x01\x02")
    assert reader.read_documents(str(b)).binary is not None
    assert yaml.__with_libyaml__
