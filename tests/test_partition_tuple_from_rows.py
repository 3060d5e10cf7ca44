"""A data file's partition tuple from its rows (rules data-file.partition-tuple and
data-file.partition-tuple.single), scalar and Arrow (bulk transforms) giving the same tuple."""

from __future__ import annotations

import math
import struct
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from spec_impl.errors import InvalidInput
from spec_impl.expressions.projection import PartitionField
from spec_impl.metrics.partition_values import check_partition_tuple, partition_tuple, partition_tuple_arrow
from spec_impl.rules import RULES
from spec_impl.scan.arrow_values import arrow_type
from spec_impl.types import parse_type

TYPES = {
    "id": parse_type("long"),
    "ts": parse_type("timestamp"),
    "name": parse_type("string"),
    "amount": parse_type("decimal(9,2)"),
    "f": parse_type("double"),
}
SPEC = [
    PartitionField.of("day", "ts", "day"),
    PartitionField.of("b", "id", "bucket[16]"),
    PartitionField.of("t", "name", "truncate[2]"),
    PartitionField.of("a", "amount", "truncate[50]"),
    PartitionField.of("f", "f", "identity"),
]
US_PER_DAY = 86_400_000_000


def _table(rows):
    return pa.table({n: pa.array([r.get(n) for r in rows], arrow_type(t)) for n, t in TYPES.items()})


def test_tuple_of_rows_in_one_partition():
    rows = [
        {"ts": -1, "id": 34, "name": "日本語", "amount": Decimal("-0.01"), "f": -0.0},
        {"ts": -US_PER_DAY, "id": 34, "name": "日本", "amount": Decimal("-0.50"), "f": -0.0},
    ]
    assert partition_tuple(SPEC, TYPES, rows) == [-1, 3, "日本", Decimal("-0.50"), -0.0]
    assert partition_tuple_arrow(SPEC, TYPES, _table(rows)) == [-1, 3, "日本", Decimal("-0.50"), -0.0]


@pytest.mark.parametrize(
    "a,b",
    [
        ({"ts": -1}, {"ts": 0}),
        ({"f": -0.0}, {"f": 0.0}),
        ({"id": None}, {"id": 1}),
        ({"amount": Decimal("-0.51")}, {"amount": Decimal("-0.50")}),
    ],
)
def test_rows_of_two_partitions_are_rejected(a, b):
    for compute in (
        lambda rows: partition_tuple(SPEC, TYPES, rows),
        lambda rows: partition_tuple_arrow(SPEC, TYPES, _table(rows)),
    ):
        with pytest.raises(InvalidInput, match="data-file.partition-tuple.single"):
            compute([a, b])


def test_nan_payloads_are_one_partition():
    nan2 = struct.unpack("<d", struct.pack("<Q", 0x7FF0000000000001))[0]  # a NaN with another payload
    assert math.isnan(partition_tuple_arrow([SPEC[4]], TYPES, _table([{"f": float("nan")}, {"f": nan2}]))[0])


def test_no_rows():
    with pytest.raises(InvalidInput, match="data-file.partition-tuple.single"):
        partition_tuple(SPEC, TYPES, [])


def test_check_names_each_row_outside_the_claimed_tuple():
    rows = [{"ts": 0, "id": 34}, {"ts": US_PER_DAY, "id": 34}]
    found = check_partition_tuple(SPEC[:2], TYPES, rows, [0, 3])
    assert [f.rule for f in found] == ["data-file.partition-tuple"] and "row 1" in found[0].message
    assert check_partition_tuple(SPEC[:2], TYPES, rows[:1], [0, 3]) == []


@settings(max_examples=200, deadline=None, database=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "ts": st.one_of(st.none(), st.integers(-3 * US_PER_DAY, 3 * US_PER_DAY)),
                "id": st.one_of(st.none(), st.integers(-50, 50)),
                "name": st.one_of(st.none(), st.text(alphabet="ab日\U0001f600", max_size=3)),
            }
        ),
        min_size=1,
        max_size=5,
    )
)
def test_scalar_and_arrow_agree(rows):
    spec = SPEC[:3]
    try:
        expected = partition_tuple(spec, TYPES, rows)
    except InvalidInput as e:
        with pytest.raises(InvalidInput, match=e.rule):
            partition_tuple_arrow(spec, TYPES, _table(rows))
        return
    assert partition_tuple_arrow(spec, TYPES, _table(rows)) == expected
    assert check_partition_tuple(spec, TYPES, rows, expected) == []


def test_every_registered_partition_tuple_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("data-file.")]
    assert mine and [r for r in mine if r not in text] == []
