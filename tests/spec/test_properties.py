"""Property tests: no input makes the spec loader or the YAML reader raise anything but InputError."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.spec import parse_pool
from gpupool.spec.load import SPEC_FIELDS, load_pools
from support import pool_doc

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=True), st.text(max_size=30)
)
values = st.recursive(
    scalars,
    lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(max_size=12), c, max_size=4)),
    max_leaves=12,
)
FIELDS = list(SPEC_FIELDS)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(field=st.sampled_from(FIELDS), value=values)
def test_any_field_value_is_accepted_or_input_error(field, value):
    doc = pool_doc()
    doc["spec"][field] = value
    try:
        parse_pool(doc, "fuzz.yaml")
    except InputError as e:
        assert str(e).startswith("fuzz.yaml:") and "\n" not in str(e)


@settings(max_examples=300, deadline=None)
@given(
    gpu=st.dictionaries(
        st.sampled_from(["driver", "managed", "instanceProfile", "migStrategy", "sharing", "x"]),
        values,
        max_size=5,
    )
)
def test_any_gpu_block_is_accepted_or_input_error(gpu):
    doc = pool_doc(gpu=gpu)
    with contextlib.suppress(InputError):
        parse_pool(doc, "fuzz.yaml")


@settings(max_examples=200, deadline=None)
@given(top=values)
def test_any_document_shape(top):
    with contextlib.suppress(InputError):
        parse_pool(top, "fuzz.yaml")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=300))
def test_any_text_file_loads_or_input_error(tmp_path, text):
    p = tmp_path / "f.yaml"
    p.write_text(text, encoding="utf-8")
    try:
        load_pools(p)
    except InputError as e:
        assert "\n" not in str(e)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=200))
def test_any_bytes_decode_or_input_error(raw):
    try:
        text = yamlio.decode(raw, "b.yaml")
        yamlio.load_documents(text, "b.yaml")
    except InputError:
        pass
