"""Property tests for requirement matching (Karpenter's semantics) and the strict reader (never a
traceback)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool.errors import InputError
from gpupool.nap.load import parse_document
from gpupool.nap.model import DEFAULT_NODE_CLASS, Requirement
from gpupool.nap.sizes import _accepts, match, nap_sizes

OPS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte")
KEYS = (
    "karpenter.azure.com/sku-gpu-name",
    "karpenter.azure.com/sku-gpu-count",
    "karpenter.azure.com/sku-family",
    "karpenter.azure.com/sku-cpu",
    "karpenter.azure.com/sku-gpu-manufacturer",
    "kubernetes.io/arch",
    "example.com/team",
)
values = st.sampled_from(["A100", "H100", "T4", "N", "D", "0", "1", "2", "8", "24", "nvidia", "amd64"])
SIZES = [s for s in nap_sizes() if s.size is not None]


def _req(key, op, vals):
    if op in ("Exists", "DoesNotExist"):
        vals = []
    elif op in ("Gt", "Lt", "Gte", "Lte"):
        vals = [str(sum(len(v) for v in vals))]
    elif not vals:
        vals = ["x"]
    return Requirement(key, op, tuple(vals))


@given(st.sampled_from(KEYS), st.lists(values, min_size=1, max_size=3), st.sampled_from(SIZES))
def test_notin_is_the_complement_of_in(key, vals, size):
    both = [match(size, [_req(key, op, vals)], DEFAULT_NODE_CLASS) for op in ("In", "NotIn")]
    if None not in both:
        assert both[0] != both[1] or key not in size.labels


@given(st.sampled_from(KEYS), st.sampled_from(SIZES))
def test_exists_is_the_complement_of_does_not_exist(key, size):
    a = match(size, [_req(key, "Exists", [])], DEFAULT_NODE_CLASS)
    b = match(size, [_req(key, "DoesNotExist", [])], DEFAULT_NODE_CLASS)
    if key in size.labels and None not in (a, b) and not isinstance(size.labels[key], tuple):
        assert a != b


@given(st.integers(0, 300), st.integers(0, 300))
def test_numeric_operators(have, want):
    r = {op: _accepts(Requirement("k", op, (str(want),)), str(have)) for op in ("Gt", "Lt", "Gte", "Lte")}
    assert r["Gt"] == (have > want) and r["Lte"] == (not r["Gt"])
    assert r["Lt"] == (have < want) and r["Gte"] == (not r["Lt"])


@given(
    st.lists(
        st.tuples(st.sampled_from(KEYS), st.sampled_from(OPS), st.lists(values, max_size=3)), max_size=4
    ),
    st.sampled_from(SIZES),
)
def test_adding_a_requirement_never_admits_more(reqs, size):
    built = [_req(*r) for r in reqs]
    before = match(size, built, DEFAULT_NODE_CLASS)
    after = match(size, [*built, _req("karpenter.azure.com/sku-family", "In", ["N"])], DEFAULT_NODE_CLASS)
    if before is False:
        assert after is False


scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=12), values, st.sampled_from(OPS)
)
tree = st.recursive(
    scalar,
    lambda c: st.one_of(
        st.lists(c, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "key",
                    "operator",
                    "values",
                    "minValues",
                    "spec",
                    "template",
                    "requirements",
                    "nodeClassRef",
                    "limits",
                    "disruption",
                    "taints",
                    "effect",
                    "group",
                    "kind",
                    "name",
                    "x",
                ]
            ),
            c,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


@settings(max_examples=200)
@given(tree, st.sampled_from(["NodePool", "AKSNodeClass"]))
def test_reader_gives_a_model_or_an_input_error(spec, kind):
    api = "karpenter.sh/v1" if kind == "NodePool" else "karpenter.azure.com/v1beta1"
    doc = {"apiVersion": api, "kind": kind, "metadata": {"name": "gpu"}, "spec": spec}
    try:
        parse_document(doc, "np.yaml", 1)
    except InputError as e:
        assert "\n" not in str(e)
