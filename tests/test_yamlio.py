from __future__ import annotations

import time

import pytest

from gpupool import yamlio
from gpupool.errors import InputError


def test_positions_and_duplicates():
    docs = yamlio.load_documents("a: 1\nb:\n  c: [1, 2]\n  c: 3\n---\n- x\n", "t.yaml")
    assert [d.index for d in docs] == [0, 1]
    assert docs[0].data["b"].key_pos["c"] == (4, 3)
    assert docs[0].duplicates[0].key == "c" and docs[0].duplicates[0].first_line == 3
    assert docs[1].line == 6
    assert yamlio.locate(docs[0].data, ("b", "c")) == (4, 3)
    assert yamlio.locate(docs[0].data, ("b", "missing")) == (2, 1)


def test_merge_keys_are_not_duplicates():
    docs = yamlio.load_documents("base: &b {k: 1}\nm:\n  <<: *b\n  k: 2\n", "t.yaml")
    assert docs[0].data["m"] == {"k": 2}
    assert docs[0].duplicates == []


def test_timestamps_and_equals_stay_strings():
    data = yamlio.load_documents("d: 2024-01-01\ne: =\n", "t.yaml")[0].data
    assert data == {"d": "2024-01-01", "e": "="}


def test_syntax_error_has_line():
    with pytest.raises(InputError) as e:
        yamlio.load_documents("a: 1\nb: [\n", "bad.yaml")
    assert e.value.path == "bad.yaml" and e.value.line is not None
    assert str(e.value).startswith("bad.yaml:")


def test_alias_bomb_refused_fast():
    levels = ["a: &a [x,x,x,x,x,x,x,x,x,x]"]
    prev = "a"
    for name in "bcdefghij":
        levels.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
        prev = name
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="alias"):
        yamlio.load_documents("\n".join(levels) + "\n", "bomb.yaml")
    assert time.perf_counter() - t0 < 5  # a generous bound: the point is "no hang"


def test_recursive_alias_and_deep_nesting():
    with pytest.raises(InputError, match="recursive"):
        yamlio.load_documents("&a [*a]", "r.yaml")
    with pytest.raises(InputError):
        yamlio.load_documents("[" * 5000 + "]" * 5000, "deep.yaml")


def test_binary_and_huge_files(tmp_path):
    b = tmp_path / "x.yaml"
    b.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(yamlio.BinaryFileError):
        yamlio.load_file(b)
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" * 100)
    with pytest.raises(InputError, match="larger than"):
        yamlio.load_file(big, max_bytes=50)
    with pytest.raises(InputError, match="no such file"):
        yamlio.load_file(tmp_path / "missing.yaml")
    with pytest.raises(InputError, match="directory"):
        yamlio.load_file(tmp_path)


def test_non_scalar_key():
    with pytest.raises(InputError, match="scalar"):
        yamlio.load_documents("? [1]\n: 2\n", "k.yaml")
