"""The bulk (Arrow) transforms against the scalar oracle, on hypothesis-generated columns."""

from __future__ import annotations

import uuid

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spec_impl import apply_transform
from spec_impl import strategies as ist
from spec_impl.bulk import apply_transform_array
from spec_impl.errors import InvalidInput
from spec_impl.revisions import ALL as REVISIONS
from spec_impl.transforms import accepts
from spec_impl.types import parse_type

ARROW = {
    "int": pa.int32(),
    "long": pa.int64(),
    "date": pa.date32(),
    "time": pa.time64("us"),
    "timestamp": pa.timestamp("us"),
    "timestamptz": pa.timestamp("us", tz="UTC"),
    "timestamp_ns": pa.timestamp("ns"),
    "timestamptz_ns": pa.timestamp("ns", tz="UTC"),
    "string": pa.string(),
    "binary": pa.binary(),
    "uuid": pa.binary(16),
    "fixed[5]": pa.binary(5),
    "decimal(9,2)": pa.decimal128(9, 2),
    "decimal(38,5)": pa.decimal128(38, 5),
}
TRANSFORMS = (
    "identity",
    "bucket[16]",
    "bucket[1000003]",
    "truncate[3]",
    "truncate[1000]",
    "year",
    "month",
    "day",
    "hour",
    "void",
)
CASES = [(t, tr) for t in ARROW for tr in TRANSFORMS if accepts(tr, parse_type(t))]


def _to_arrow(type_: str, values: list) -> pa.Array:
    if type_ == "uuid":
        values = [None if v is None else v.bytes for v in values]
    if type_ in ("date", "time") or type_.startswith("timestamp"):
        storage = pa.array(values, pa.int32() if type_ == "date" else pa.int64())
        return storage.cast(ARROW[type_])
    return pa.array(values, ARROW[type_])


def _from_arrow(type_: str, values: pa.Array) -> list:
    if type_ == "uuid" and pa.types.is_fixed_size_binary(values.type):
        return [None if v is None else uuid.UUID(bytes=v) for v in values.to_pylist()]
    if pa.types.is_date32(values.type):
        values = values.cast(pa.int32())
    elif pa.types.is_timestamp(values.type) or pa.types.is_time64(values.type):
        values = values.cast(pa.int64())
    return values.to_pylist()


@pytest.mark.parametrize(("type_", "transform"), CASES)
@given(data=st.data())
@settings(max_examples=25, deadline=None)
def test_bulk_equals_scalar(type_, transform, data):
    """Every accepted (source type, transform) pair, both revisions, nulls included."""
    t = parse_type(type_)
    revision = data.draw(st.sampled_from(REVISIONS))
    column = data.draw(st.lists(st.one_of(st.none(), ist.values(t)), max_size=40))
    try:
        expected = [apply_transform(transform, t, v, revision) for v in column]
    except InvalidInput as e:  # the scalar oracle rejects a value: the bulk path must too
        with pytest.raises(InvalidInput, match=e.rule):
            apply_transform_array(transform, t, _to_arrow(type_, column), revision)
        return
    got = _from_arrow(type_, apply_transform_array(transform, t, _to_arrow(type_, column), revision))
    assert got == expected


def test_slices_and_chunks():
    """Arrays with an offset and chunked arrays give the same answers."""
    arr = pa.array(range(-50, 50), pa.int64())
    whole = apply_transform_array("truncate[7]", "long", arr).to_pylist()
    assert apply_transform_array("truncate[7]", "long", arr.slice(10, 20)).to_pylist() == whole[10:30]
    chunked = pa.chunked_array([arr.slice(0, 30), arr.slice(30)])
    assert (
        apply_transform_array("bucket[5]", "long", chunked).to_pylist()
        == apply_transform_array("bucket[5]", "long", arr).to_pylist()
    )
