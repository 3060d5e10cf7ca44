"""Manifest-list partition field summaries (rules partition-summary.*): computed from partition
tuples, the ±0.0 note, and the checker on both sides of each rule."""

from __future__ import annotations

import struct

from hypothesis import given, settings, strategies as st

from spec_impl.expressions import strategies as pst
from spec_impl.metrics.summaries import FieldSummary, check_partition_summaries, partition_summaries
from spec_impl.rules import RULES
from spec_impl.types import parse_type

I, D = parse_type("int"), parse_type("double")
i4 = lambda v: struct.pack("<i", v)  # noqa: E731
d8 = lambda v: struct.pack("<d", v)  # noqa: E731


def rules(types, tuples, summaries) -> list[str]:
    return sorted({f.rule for f in check_partition_summaries(types, tuples, summaries)})


def test_summaries_of_two_fields():
    s = partition_summaries([I, D], [[1, None], [None, float("nan")], [3, 2.5]])
    assert s == [FieldSummary(True, False, i4(1), i4(3)), FieldSummary(True, True, d8(2.5), d8(2.5))]


def test_all_null_or_nan_have_no_bounds():
    assert partition_summaries([D], [[None], [float("nan")]]) == [FieldSummary(True, True, None, None)]
    assert partition_summaries([I], []) == [FieldSummary(False, False, None, None)]


def test_signed_zero_note():
    assert partition_summaries([D], [[0.0], [-0.0]]) == [FieldSummary(False, False, d8(-0.0), d8(0.0))]
    tuples = [[0.0], [-0.0]]
    assert rules([D], tuples, [FieldSummary(False, False, d8(0.0), d8(0.0))]) == ["partition-summary.signed-zero"]
    assert rules([D], tuples, [FieldSummary(False, False, d8(-0.0), d8(-0.0))]) == ["partition-summary.signed-zero"]
    assert rules([D], tuples, [FieldSummary(False, False, d8(-0.0), d8(0.0))]) == []


def test_checker_on_both_sides():
    tuples = [[1], [None], [3]]
    ok = FieldSummary(True, False, i4(1), i4(3))
    assert rules([I], tuples, [ok]) == []
    assert rules([I], tuples, [FieldSummary(False, False, i4(1), i4(3))]) == ["partition-summary.contains-null"]
    assert rules([I], tuples, [FieldSummary(True, True, i4(1), i4(3))]) == ["partition-summary.contains-nan"]
    assert rules([I], tuples, [FieldSummary(True, None, i4(1), i4(3))]) == []  # contains_nan is optional
    assert rules([I], tuples, [FieldSummary(True, False, i4(0), i4(4))]) == []  # looser bounds hold
    assert rules([I], tuples, [FieldSummary(True, False, i4(2), i4(3))]) == ["partition-summary.lower-bound"]
    assert rules([I], tuples, [FieldSummary(True, False, i4(1), i4(2))]) == ["partition-summary.upper-bound"]
    assert rules([I], tuples, [FieldSummary(True, False, None, i4(3))]) == ["partition-summary.lower-bound"]
    assert rules([I], [[None]], [FieldSummary(True, False, i4(1), i4(1))]) == [
        "partition-summary.lower-bound",
        "partition-summary.upper-bound",
    ]
    assert rules([I, I], [[1, 2]], [ok]) == ["partition-summary.fields"]


@settings(max_examples=200, deadline=None, database=None)
@given(
    st.sampled_from(["int", "double", "string", "date", "decimal(9,2)"]).flatmap(
        lambda n: st.tuples(
            st.just(parse_type(n)), st.lists(st.one_of(st.none(), pst.literals(parse_type(n))), max_size=6)
        )
    )
)
def test_computed_summaries_pass_the_checker(typed):
    t, values = typed
    tuples = [[v] for v in values]
    s = partition_summaries([t], tuples)
    assert check_partition_summaries([t], tuples, s) == []
    flipped = [FieldSummary(not s[0].contains_null, s[0].contains_nan, s[0].lower_bound, s[0].upper_bound)]
    assert rules([t], tuples, flipped) == ["partition-summary.contains-null"]


def test_every_registered_summary_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("partition-summary.")]
    assert mine and [r for r in mine if r not in text] == []
