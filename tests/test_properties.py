"""Hypothesis properties of the value rules: what must hold for every value, not just the examples."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from spec_impl import apply_transform, from_binary, from_json, hash_value, to_binary, to_json
from spec_impl import strategies as ist
from spec_impl.errors import InvalidInput
from spec_impl.temporal import days_from_civil, civil_from_days
from spec_impl.types import parse_type
from spec_impl.values import INT_RANGE
from spec_impl.ops.encoding import same_value

INTS = st.integers(*INT_RANGE)


@given(INTS)
def test_int_and_long_hash_alike(v):
    """hash.integer (note 1): promotion from int to long never moves a value to another bucket."""
    assert hash_value("int", v) == hash_value("long", v)
    assert apply_transform("bucket[17]", "int", v) == apply_transform("bucket[17]", "long", v)


@given(ist.typed_values(ist.primitive_types(bucketable=True)), st.integers(1, 2**31 - 1))
def test_bucket_lies_in_range(tv, n):
    """transform.bucket: results lie in [0, N)."""
    t, v = tv
    assert 0 <= apply_transform(f"bucket[{n}]", t, v) < n


@given(st.floats(width=32, allow_nan=True))
def test_float_hash_equals_hash_of_widened_double(v):
    """hash.floating: float -> double promotion never changes a hash."""
    assert hash_value("float", v) == hash_value("double", v)


@given(
    st.one_of(st.just("int"), st.just("long"), st.just("string"), st.just("binary"), ist.decimal_types()).flatmap(
        lambda t: st.tuples(
            st.just(parse_type(t) if isinstance(t, str) else t), ist.values(parse_type(t) if isinstance(t, str) else t)
        )
    ),
    st.integers(1, 1000),
)
def test_truncate_is_idempotent_and_never_grows(tv, width):
    """transform.truncate.*: truncating twice equals truncating once, and a number never goes up."""
    t, v = tv
    try:
        once = apply_transform(f"truncate[{width}]", t, v)
    except InvalidInput as e:  # the documented spec gap at the edges of a type
        assert e.rule == "transform.overflow"
        return
    assert apply_transform(f"truncate[{width}]", t, once) == once
    if isinstance(v, (str, bytes)):
        assert v.startswith(once) and len(once) <= width
    else:
        assert once <= v


@given(ist.typed_values(ist.primitive_types()))
def test_binary_round_trip(tv):
    """binary.*: from_binary(to_binary(v)) == v for every primitive value (floats by bits)."""
    t, v = tv
    assert same_value(t, from_binary(t, to_binary(t, v)), v)


@given(ist.typed_values(ist.primitive_types(), allow_nan=False))
def test_json_round_trip(tv):
    """json.*: from_json(to_json(v)) == v for every value that has a JSON form."""
    t, v = tv
    assert same_value(t, from_json(t, to_json(t, v)), v)


@given(
    st.sampled_from(["timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"]),
    st.integers(-(2**62), 2**62),
    st.integers(-(2**62), 2**62),
    st.sampled_from(["year", "month", "day", "hour"]),
)
def test_temporal_transforms_are_monotone(type_, a, b, transform):
    """transform.year/month/day/hour: a <= b implies f(a) <= f(b) (floor, never truncation toward zero)."""
    a, b = sorted((a, b))
    try:
        fa, fb = apply_transform(transform, type_, a), apply_transform(transform, type_, b)
    except InvalidInput as e:
        assert e.rule == "transform.overflow"
        return
    assert fa <= fb


@given(st.integers(-(2**31), 2**31 - 1))
def test_civil_calendar_round_trip(days):
    """The proleptic Gregorian conversion behind date JSON and the year/month transforms."""
    assert days_from_civil(*civil_from_days(days)) == days


@given(ist.unknown_transform_strings(), st.integers())
def test_unknown_transforms_never_fail_to_parse(text, v):
    """transform.unknown: any string that names no transform parses, verbatim."""
    from spec_impl import parse_transform

    t = parse_transform(text)
    assume(t.name is None)
    assert t.text == text
