"""Plain scalars that YAML 1.1's number patterns match but that are no numbers stay strings, on every path."""

from __future__ import annotations

import pytest

from gpupool import yamlio
from support import run_cli


@pytest.mark.parametrize(
    ("text", "value"),
    [("0b_", "0b_"), ("0x_", "0x_"), ("0b1_0", 2), ("1_000", 1000), ("0x1F", 31), ("1.5", 1.5), ("._", "._")],
)
@pytest.mark.parametrize(("fast", "positions"), [(False, "eager"), (True, "eager"), (True, "lazy")])
def test_number_like_scalars(text, value, fast, positions):
    docs = list(yamlio.iter_documents(f"a: {text}\nb: [{text}]\n", "x.yaml", fast=fast, positions=positions))
    assert [yamlio.to_plain(d.data) for d in docs] == [{"a": value, "b": [value]}]


def test_lint_reads_a_broken_binary_literal_as_text(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: 0b_\n")
    r = run_cli("lint", str(path))
    assert r.exit_code == 0, r.output


def test_a_long_multi_document_stream_takes_the_fast_path():
    """Many small documents in a text over the per-document bound still take the fast path, same result."""
    from gpupool import _yamlfast

    doc = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: '" + "y" * 200 + "'}\n"
    text = "---\n".join([doc] * (_yamlfast._FAST_MAX_CHARS // len(doc) + 10))
    assert len(text) > _yamlfast._FAST_MAX_CHARS
    fast = _yamlfast.fast_documents(text, "x.yaml")
    assert fast is not None
    slow = list(yamlio.iter_documents(text, "x.yaml", fast=False))
    assert [d.data for d in fast] == [d.data for d in slow]
    assert [d.line for d in fast] == [d.line for d in slow]


def test_one_document_over_the_bound_falls_back():
    from gpupool import _yamlfast

    text = "a: [" + ", ".join(["1"] * (_yamlfast._FAST_MAX_CHARS // 3 + 10)) + "]\n"
    assert _yamlfast.fast_documents(text, "x.yaml") is None
