"""Column metrics from values and their checker (rules metrics.*), bound truncation of strings
and binary (metrics.bound.truncation) under hypothesis, including multi-byte and non-BMP strings."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings, strategies as st

from spec_impl.expressions import strategies as pst
from spec_impl.metrics.column_metrics import (
    ColumnMetrics,
    check_column_metrics,
    column_metrics,
    read_bound,
    truncate_lower,
    truncate_upper,
)
from spec_impl.errors import InvalidInput
from spec_impl.rules import RULES
from spec_impl.serde import geo_bounds
from spec_impl.types import parse_type

S, B, D, L = parse_type("string"), parse_type("binary"), parse_type("double"), parse_type("long")
NAN = float("nan")


def rules(t, values, **claimed) -> list[str]:
    return sorted({f.rule for f in check_column_metrics(t, values, ColumnMetrics(**claimed))})


def test_counts_include_nulls_and_nan():
    m = column_metrics(D, [1.0, None, NAN, -0.0])
    assert (m.value_count, m.null_value_count, m.nan_value_count) == (4, 1, 1)
    assert m.lower_bound == struct.pack("<d", -0.0) and m.upper_bound == struct.pack("<d", 1.0)


def test_nan_count_only_for_floating_types():
    assert column_metrics(L, [1]).nan_value_count is None
    assert rules(L, [1], nan_value_count=0) == [] and rules(L, [1], nan_value_count=1) == ["metrics.nan-value-count"]


def test_value_and_null_counts_checked():
    assert rules(L, [1, None], value_count=1) == ["metrics.value-count"]
    assert rules(L, [1, None], null_value_count=0) == ["metrics.null-value-count"]
    assert rules(L, [1, None], value_count=2, null_value_count=1) == []


def test_bounds_on_both_sides():
    b = lambda v: struct.pack("<q", v)  # noqa: E731
    assert rules(L, [5, 9], lower_bound=b(5), upper_bound=b(9)) == []
    assert rules(L, [5, 9], lower_bound=b(4), upper_bound=b(10)) == []
    assert rules(L, [5, 9], lower_bound=b(6)) == ["metrics.lower-bound"]
    assert rules(L, [5, 9], upper_bound=b(8)) == ["metrics.upper-bound"]


def test_signed_zero_and_nan_bounds():
    assert rules(D, [-0.0, 1.0], lower_bound=struct.pack("<d", 0.0)) == ["metrics.bound.signed-zero"]
    assert rules(D, [0.0], upper_bound=struct.pack("<d", -0.0)) == ["metrics.bound.signed-zero"]
    assert rules(D, [0.0], lower_bound=struct.pack("<d", -0.0)) == []
    assert rules(D, [1.0], upper_bound=struct.pack("<d", NAN)) == ["metrics.bound.nan"]


def test_bound_encoding():
    assert rules(L, [1], lower_bound=b"\x01\x00") == ["metrics.bound.encoding"]
    assert rules(S, ["日本"], lower_bound="日本".encode()[:2]) == ["metrics.bound.encoding"]
    with pytest.raises(InvalidInput, match="metrics.bound.encoding"):
        read_bound(L, b"\x00")


def test_truncation_examples():
    assert truncate_lower(S, "iceberg", 3) == "ice" and truncate_upper(S, "iceberg", 3) == "icf"
    assert truncate_upper(S, "a\ud7ffz", 2) == "a\ue000"  # surrogates skipped
    assert truncate_upper(S, "a\U0010ffffz", 2) == "b"  # U+10FFFF cannot be incremented
    assert truncate_upper(S, "\U0010ffff\U0010ffffz", 2) is None
    assert truncate_upper(B, b"\x01\xff\xff", 2) == b"\x02" and truncate_upper(B, b"\xff\xff\xff", 2) is None
    assert truncate_upper(S, "abc", 3) == "abc"  # no longer than L: exact


def test_upper_bound_truncated_without_increment_is_rejected():
    assert rules(S, ["iceberg"], upper_bound=b"ice") == ["metrics.bound.truncation"]
    assert rules(B, [b"\x01\x02\x03"], upper_bound=b"\x01\x02") == ["metrics.bound.truncation"]
    assert rules(S, ["iceberg"], upper_bound=b"icf", lower_bound=b"ice") == []


def test_truncation_only_for_strings_and_binary():
    with pytest.raises(InvalidInput, match="metrics.bound.truncation"):
        truncate_upper(L, 5, 1)
    with pytest.raises(InvalidInput, match="metrics.bound.truncation"):
        truncate_lower(S, "a", 0)
    assert column_metrics(L, [1, 300], 1) == column_metrics(L, [1, 300])


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.sampled_from([S, B]).flatmap(
        lambda t: st.tuples(st.just(t), st.lists(st.one_of(st.none(), pst.literals(t)), max_size=6))
    ),
    st.integers(1, 4),
)
def test_truncated_bounds_are_valid_bounds(typed, length):
    """Truncated metrics pass the checker: the lower bound is at most the minimum, the upper bound
    at least the maximum (multi-byte, non-BMP, U+D7FF and U+10FFFF strings; 0xff bytes)."""
    t, values = typed
    m = column_metrics(t, values, length)
    assert check_column_metrics(t, values, m) == []
    for bound in (m.lower_bound, m.upper_bound):
        if bound is not None:
            assert len(read_bound(t, bound)) <= length


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.sampled_from(
        ["long", "double", "float", "decimal(9,2)", "date", "timestamp_ns", "uuid", "boolean", "fixed[2]"]
    ).flatmap(
        lambda name: st.tuples(
            st.just(parse_type(name)),
            st.lists(
                st.one_of(
                    st.none(),
                    pst.literals(parse_type(name)),
                    st.just(NAN) if name in ("double", "float") else st.none(),
                ),
                max_size=6,
            ),
        )
    )
)
def test_computed_metrics_pass_the_checker_and_tampering_fails_it(typed):
    t, values = typed
    m = column_metrics(t, values)
    assert check_column_metrics(t, values, m) == []
    wrong = ColumnMetrics(value_count=m.value_count + 1)
    assert rules(t, values, value_count=m.value_count + 1) == ["metrics.value-count"]
    assert check_column_metrics(t, values, wrong)


def test_every_registered_metrics_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("metrics.")]
    assert mine and [r for r in mine if r not in text] == []


# --- geometry and geography bounds (adopted v3 digest §3, Appendix D "Bound serialization", "Geo
# bounds"; spec_impl/serde/geo_bounds.py): rules metrics.geo-bound and metrics.geo-bound-order

NAN = float("nan")


def _le(*xs: float) -> bytes:
    return struct.pack(f"<{len(xs)}d", *xs)


@pytest.mark.parametrize(
    ("data", "coordinates"),
    [
        (_le(1, 2), {"x": 1.0, "y": 2.0, "z": None, "m": None}),  # x:y
        (_le(1, 2, 3), {"x": 1.0, "y": 2.0, "z": 3.0, "m": None}),  # x:y:z
        (_le(1, 2, NAN, 4), {"x": 1.0, "y": 2.0, "z": None, "m": 4.0}),  # x:y:NaN:m
        (_le(1, 2, 3, 4), {"x": 1.0, "y": 2.0, "z": 3.0, "m": 4.0}),  # x:y:z:m
    ],
)
def test_the_four_forms_of_a_geo_bound(data, coordinates):
    assert geo_bounds.read_bound("geometry", data) == coordinates == geo_bounds.read_bound("geography", data)


@pytest.mark.parametrize("data", [_le(1), _le(1, 2)[:-1], _le(1, 2, 3, 4, 5), _le(NAN, 2), _le(1, NAN)])
def test_other_lengths_and_nan_x_or_y_are_no_geo_bound(data):
    with pytest.raises(InvalidInput, match="metrics.geo-bound"):
        geo_bounds.read_bound("geometry", data)


def test_only_a_geography_wraps_across_the_antimeridian():
    """ "Only geography may have xmin > xmax (antimeridian wrap)"."""
    lower, upper = _le(170, -10), _le(-170, 10)
    assert geo_bounds.read_bounds("geography", lower, upper)["lower"]["x"] == 170.0
    with pytest.raises(InvalidInput, match="metrics.geo-bound-order"):
        geo_bounds.read_bounds("geometry", lower, upper)
    with pytest.raises(InvalidInput, match="metrics.geo-bound-order"):
        geo_bounds.read_bounds("geography", _le(1, 10), _le(3, -10))  # ymin > ymax wraps nowhere


def test_geo_bounds_belong_to_geo_columns():
    with pytest.raises(InvalidInput, match="metrics.geo-bound"):
        geo_bounds.read_bound("binary", _le(1, 2))
