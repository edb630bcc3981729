"""The C reader (gpupool._cyaml) builds exactly what gpupool.yamlio builds, finds the same positions, and
leaves everything else to the Python path; it is optional, so these tests skip where it was not built,
except on a machine with libyaml's headers, where the build must have happened."""

from __future__ import annotations

import random
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from gpupool import _yamlfast, _yamlgeneral, yamlio
from support import data_paths, plain_same

native = pytest.mark.skipif(_yamlfast._cyaml is None, reason="gpupool._cyaml not built (no libyaml headers)")


def _libyaml_headers() -> bool:
    dirs = [sysconfig.get_paths().get("include", ""), "/usr/include", "/usr/local/include"]
    dirs.append("/opt/homebrew/include")
    return any(d and Path(d, "yaml.h").is_file() for d in dirs)


def test_built_where_libyaml_headers_are() -> None:
    if _libyaml_headers():
        assert _yamlfast._cyaml is not None, "yaml.h is here but gpupool._cyaml was not built (see setup.py)"
    if _yamlfast._cyaml is not None:
        assert _yamlfast._c_locate is not None, "a stale gpupool._cyaml: rebuild it (pip install -e .)"


def agree(text: str) -> bool:
    """True when the C reader took the text (and then asserts it matches yamlio), False when it declined."""
    docs = _yamlfast._c_documents(text, "t.yaml")
    if docs is None:
        return False
    eager = yamlio.load_documents(text, "t.yaml")  # the C reader accepts only what yamlio accepts
    assert len(docs) == len(eager)
    for c, e in zip(docs, eager, strict=True):
        assert (c.index, c.line) == (e.index, e.line)
        assert not e.duplicates
        assert plain_same(c.data, e.data)
        for p in data_paths(e.data):
            assert c.locate(p) == yamlio.locate(e.data, p), p
    return True


@native
@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors, aliases
        "a: !!str 1\n",  # tags
        "m:\n  <<: {b: 2}\n",  # merge keys
        "a: 1\na: 2\n",  # duplicate keys (yamlio reports them)
        "1: a\ntrue: b\n1: c\n",
        "%YAML 1.1\n---\na: 1\n",  # directives
        "? [a, b]\n: 1\n",  # collection keys
        "[" * 300 + "]" * 300 + "\n",  # nesting beyond yamlio.MAX_DEPTH
        "- " * 250 + "x\n",
        "a: [1, 2\n",  # syntax errors
        "a: b: c\n",
        "a:\n\t- x\n",
    ],
)
def test_declines_what_only_yamlio_handles(text: str) -> None:
    assert _yamlfast._c_documents(text, "t.yaml") is None


@native
def test_plain_manifests_and_yaml_1_1_scalars() -> None:
    text = (
        "# c\napiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: x}}\nspec:\n  containers:\n"
        "  - name: c\n    image: nvcr.io/nvidia/cuda:12.4.1-runtime-ubuntu22.04\n    args: [\"-v\", '2']\n"
        "    env:\n    - {name: A, value: yes}\n    - {name: B, value: 0755}\n    - {name: C, value: 12:30}\n"
        "    - {name: D, value: 2026-01-02}\n    - {name: E, value: =}\n    - {name: F, value: .inf}\n"
        "    - {name: G, value: ~}\n    - {name: H, value: 1_000}\n    - {name: I, value: 0x1F}\n"
        "    - {name: J, value: '', K: \"\\u00e9\"}\n    resources:\n      limits: {nvidia.com/gpu: 1}\n"
        "    command: |\n      echo a\n      echo b\n    script: >-\n      folded\n      text\n"
        "---\n---\n- 1\n- [x, {y: z}]\n--- # last\nnull\n"
    )
    assert agree(text)
    data = _yamlfast._c_documents(text, "t.yaml")[0].data
    env = {e["name"]: e["value"] for e in data["spec"]["containers"][0]["env"]}
    assert env["A"] is True and env["B"] == 493 and env["C"] == 750 and env["D"] == "2026-01-02"


_SCALARS = [
    "a", "b c", "1", "-1", "+1", "0", "07", "0o7", "0x1F", "1_000", "1.5", "1e3", "1.5e+3", ".5", "+.5",
    ".inf", "-.Inf", ".nan", "~", "null", "Null", "", "true", "True", "yes", "No", "on", "OFF", "y", "n",
    "12:30",
    "2026-01-02", "2026-01-02T03:04:05Z", "=", "8Gi", "500m", "nvidia.com/gpu", "http://x/y?z=1", '"q"',
    "'s'", "'it''s'", '"a\\tb"', '"\\u00e9"', "é", "日本", "a#b", "x:", "-x", "[]", "{}", "[a, 'b']",
    "{a: 1, b: [2, 3]}", "|\n  lit\n  more\n", "|-\n  x\n", "|+\n  x\n\n", ">\n  fold\n  ed\n",
    '"multi\n  line"',
]  # fmt: skip
_KEYS = ["a", "b", "key", "x y", '"q"', "'s'", "1", "true", "null", "k-1", "a.b/c", "é"]


def _block(r: random.Random, depth: int, indent: int) -> str:
    roll = r.random()
    if depth > 3 or roll < 0.4:
        return " " + r.choice(_SCALARS).replace("\n", "\n" + " " * (indent + 2))
    pad = " " * indent
    if roll < 0.7:
        keys = r.sample(_KEYS, r.randint(1, 4))
        return "".join(f"\n{pad}{k}:{_block(r, depth + 1, indent + 2)}" for k in keys)
    return "".join(f"\n{pad}-{_block(r, depth + 1, indent + 2)}" for _ in range(r.randint(1, 3)))


def _text(r: random.Random) -> str:
    docs = []
    for i in range(r.randint(1, 3)):
        keys = r.sample(_KEYS, r.randint(1, 4))
        body = "".join(f"{k}:{_block(r, 1, 2)}\n" for k in keys)
        marker = r.choice(["---\n", "--- # c\n", "---\n# c\n"]) if i or r.random() < 0.3 else ""
        docs.append(marker + (body if r.random() < 0.9 else ""))
    text = "".join(docs)
    for _ in range(r.randint(0, 2)):  # mutations: most make errors, some make odd but valid YAML
        i = r.randrange(len(text) + 1)
        char = r.choice([" ", "\n", ":", "-", '"', "'", "#", "[", "]", "{", "}", ",", "|", ">"])
        text = text[:i] + char + text[i:]
    return text if r.random() < 0.8 else text.rstrip("\n")


@native
def test_random_documents_agree_with_yamlio() -> None:
    r = random.Random(20261202)
    taken = sum(agree(_text(r)) for _ in range(1500))
    assert taken > 300  # the C reader took a good share of them (the rest are errors or declined)


@native
def test_memo_is_bounded() -> None:
    before = len(_yamlfast._PLAIN)
    text = "".join(f"k{i}: v{i}\n" for i in range(5000))
    assert agree(text)
    assert len(_yamlfast._PLAIN) <= max(before, _yamlfast._RESOLVED_MAX)


@native
@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: 2\n--- [x,\n  y]\n",  # doc 0's lines end inside the next document's flow sequence
        "a: 1\n--- |\n  text\n--- {k: v}\n",
        "a: 1\n...\n---\nb: [1,\n  2]\n",
    ],
)
def test_positions_where_documents_share_a_line(text: str) -> None:
    assert agree(text)


@native
def test_node_limit_is_yamlios_and_large_texts_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # Large inputs (helm template output on stdin) are read natively: no character limit, yamlio's node one.
    doc = "---\nkind: ConfigMap\nmetadata: {{name: cm{0}}}\ndata: {{k: v{0}}}\n"
    big = "".join(doc.format(i) for i in range(40_000))
    assert len(big) > _yamlfast._FAST_MAX_CHARS
    docs = _yamlfast.fast_documents(big, "big.yaml", lazy=True)
    assert docs is not None and len(docs) == 40_000 and docs[-1].data["data"] == {"k": "v39999"}
    assert docs[-1].locate(("data", "k")) == (40_000 * 4, 8)
    monkeypatch.setattr(_yamlgeneral, "MAX_EXPANDED_NODES", 10)  # the limit lives in the general path
    assert _yamlfast._c_documents("a: [1, 2, 3, 4, 5, 6, 7]\n", "t.yaml") is not None  # 10 nodes
    assert _yamlfast._c_documents("a: [1, 2, 3, 4, 5, 6, 7, 8]\n", "t.yaml") is None  # 11: yamlio says why
    with pytest.raises(yamlio.InputError, match="nodes"):
        yamlio.load_documents("a: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n", "t.yaml", fast=False)


def _odd_paths(data: Any, prefix: tuple = ()) -> Any:
    """Paths that go wrong below each node: a key into a list, an index into a mapping, a step past a
    scalar, a negative index, bool steps (``True == 1``)."""
    yield (*prefix, "k", "deeper")
    yield (*prefix, 0, "x")
    yield (*prefix, -1)
    yield (*prefix, True)
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _odd_paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _odd_paths(v, (*prefix, i))


@native
def test_positions_are_found_in_c_without_a_re_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A finding's position in a document the C reader built: libyaml's events walked in C (the lines are not
    # read again by yamlio), the same answer as yamlio.locate on the eagerly built data, for any path.
    r = random.Random(20261203)
    texts = [_text(r) for _ in range(600)]
    texts.append("1: a\ntrue: b\nnull: c\n'2': d\nl: [[0, 1], {k: [x]}]\ns: scalar\n")
    lazy = [(t, _yamlfast._c_documents(t, "t.yaml")) for t in texts]
    lazy = [(t, docs) for t, docs in lazy if docs is not None]
    assert len(lazy) > 100

    def no_read(self: Any) -> Any:
        raise AssertionError("read again by yamlio")

    monkeypatch.setattr(_yamlfast._LinePositions, "_read", no_read)
    checked = 0
    for text, docs in lazy:
        eager = yamlio.load_documents(text, "t.yaml")
        for c, e in zip(docs, eager, strict=True):
            for p in [*data_paths(e.data), *_odd_paths(e.data), ()]:
                assert c.locate(p) == yamlio.locate(e.data, p), (text, p)
                checked += 1
    assert checked > 5000


@native
def test_what_c_locate_declines_is_read_by_yamlio() -> None:
    unsupported = _yamlfast._UNSUPPORTED
    args = (_yamlfast._plain_value, _yamlfast._PLAIN, unsupported, _yamlfast._RESOLVED_MAX)
    for text in ["a: &x 1\n", "a: !!str 1\n", "? [a]\n: 1\n", "a: [1,\n", "", "# only a comment\n"]:
        assert _yamlfast._c_locate(text, ("a",), *args) is unsupported, text
    assert _yamlfast._c_locate("a: 1\nb: {<<: {c: 1}}\n", ("b", "c"), *args) is unsupported  # merge key
    assert _yamlfast._c_locate("a: 1\n--- &x\nb: 2\n", ("a",), *args) is unsupported  # later documents too
    assert _yamlfast._c_locate("--- 5\n", ("a",), *args) is None
    assert _yamlfast._c_locate("---\n...\n", (), *args) is None
    assert _yamlfast._c_locate("\n\nx:\n  - y\n", ("x", 0), *args) == (4, 5)
