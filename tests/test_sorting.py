"""Sort orders: the Appendix C example, every version/revision JSON form, the unsorted order id,
directions and null orders, validation against a schema, and the floating-point sort order."""

from __future__ import annotations

import math
import struct
import uuid
from contextlib import contextmanager
from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.metadata.sorting import (
    UNSORTED,
    SortField,
    SortOrder,
    compare_floats,
    float_sort_key,
    parse_sort_order,
    record_sort_key,
    sort_key,
    sort_records,
    validate_sort_order,
)
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.rules import RULES
from spec_impl.types import parse_type

SCHEMA = parse_type(
    {
        "type": "struct",
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 2, "name": "data", "required": False, "type": "string"},
            {"id": 3, "name": "category", "required": False, "type": "string"},
            {"id": 4, "name": "score", "required": False, "type": "double"},
            {
                "id": 5,
                "name": "loc",
                "required": False,
                "type": {"type": "struct", "fields": [{"id": 6, "name": "lat", "required": False, "type": "float"}]},
            },
            {
                "id": 7,
                "name": "tags",
                "required": False,
                "type": {"type": "list", "element-id": 8, "element": "string", "element-required": False},
            },
        ],
    }
)

# Appendix C, "Sort Orders": the example of the `fields` row, in an order object.
APPENDIX_C_FIELDS = [
    {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
    {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"},
]
APPENDIX_C_ORDER = {"order-id": 1, "fields": APPENDIX_C_FIELDS}
BOTH = (SEED_2024, V3_ADOPTED)


@contextmanager
def raises(rule_id: str):
    """Expect an InvalidInput whose `rule` is exactly `rule_id`."""
    with pytest.raises(InvalidInput) as info:
        yield info
    assert info.value.rule == rule_id, str(info.value)


def _double(bits: int) -> float:
    return struct.unpack(">d", struct.pack(">Q", bits))[0]


def _float32(bits: int) -> float:
    return struct.unpack(">f", struct.pack(">I", bits))[0]


# --- JSON forms --------------------------------------------------------------------------------


@pytest.mark.parametrize("fv", [1, 2])
@pytest.mark.parametrize("revision", BOTH)
def test_appendix_c_example_reads_and_writes_back(fv, revision):
    """sort-order.json: the Appendix C example."""
    order = parse_sort_order(APPENDIX_C_ORDER, fv, revision)
    assert order == SortOrder(
        1, (SortField(2, "identity", "asc", "nulls-first"), SortField(3, "bucket[4]", "desc", "nulls-last"))
    )
    assert order.to_json(fv, revision) == APPENDIX_C_ORDER
    assert list(order.to_json(fv, revision)["fields"][0]) == ["transform", "source-id", "direction", "null-order"]
    validate_sort_order(order, SCHEMA, fv, revision)


@pytest.mark.parametrize(
    ("fv", "revision", "ids", "expected"),
    [
        (1, SEED_2024, (2,), {"source-id": 2}),
        (2, SEED_2024, (2, 3), {"source-id": 2, "source-ids": [2, 3]}),
        (2, V3_ADOPTED, (2,), {"source-id": 2}),
        (3, SEED_2024, (2,), {"source-ids": [2]}),
        (3, V3_ADOPTED, (2,), {"source-id": 2}),
        (3, V3_ADOPTED, (2, 3), {"source-ids": [2, 3]}),
    ],
)
def test_write_form_per_version_and_revision(fv, revision, ids, expected):
    """sort-order.source-id (v1/v2) and sort-order.source-ids (v3): exactly the keys each writes."""
    f = SortField(ids, "identity" if len(ids) == 1 else "zorder", "desc", "nulls-last")
    out = f.to_json(fv, revision)
    assert out == {"transform": str(f.transform), **expected, "direction": "desc", "null-order": "nulls-last"}
    assert parse_sort_order({"order-id": 3, "fields": [out]}, fv, revision).fields[0] == f


def test_adopted_v2_cannot_write_multi_argument_fields():
    with raises("sort-order.source-id"):
        SortField((2, 3), "zorder").to_json(2, V3_ADOPTED)


@pytest.mark.parametrize(
    ("fv", "revision", "keys", "rule"),
    [
        (2, SEED_2024, {"source-ids": [2]}, "sort-order.source-id"),
        (1, V3_ADOPTED, {}, "sort-order.source-id"),
        (3, SEED_2024, {"source-id": 2}, "sort-order.source-ids"),
        (3, V3_ADOPTED, {}, "sort-order.source-ids"),
        (3, V3_ADOPTED, {"source-id": 3, "source-ids": [2, 3]}, "sort-order.source-ids.agree"),
        (2, SEED_2024, {"source-id": 3, "source-ids": [2, 3]}, "sort-order.source-ids.agree"),
        (3, SEED_2024, {"source-ids": "2"}, "sort-order.json"),
    ],
)
def test_read_source_keys_are_checked(fv, revision, keys, rule):
    """sort-order.source-id, sort-order.source-ids, sort-order.source-ids.agree."""
    obj = {"order-id": 1, "fields": [{"transform": "identity", **keys, "direction": "asc", "null-order": "nulls-last"}]}
    with raises(rule):
        parse_sort_order(obj, fv, revision)


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"fields": []},
        {"order-id": 1},
        {"order-id": "1", "fields": []},
        {"order-id": 1, "fields": {}},
        {"order-id": 1, "fields": ["identity"]},
        {"order-id": 1, "fields": [{"source-id": 2, "direction": "asc", "null-order": "nulls-last"}]},
        {"order-id": 1, "fields": [{"transform": 1, "source-id": 2, "direction": "asc", "null-order": "nulls-last"}]},
        {"order-id": 1, "fields": [{"transform": "identity", "source-id": 2, "null-order": "nulls-last"}]},
    ],
)
def test_malformed_json_is_rejected(doc):
    """sort-order.json."""
    with raises("sort-order.json"):
        parse_sort_order(doc, 2)


# --- the rules of "Sorting" --------------------------------------------------------------------


def test_order_id_zero_is_the_unsorted_order():
    """sort-order.order-id.unsorted: order 0 has no fields and an order without fields is order 0."""
    assert parse_sort_order({"order-id": 0, "fields": []}, 2) == UNSORTED
    validate_sort_order(UNSORTED, SCHEMA, 1)
    with raises("sort-order.order-id.unsorted"):
        parse_sort_order({"order-id": 0, "fields": APPENDIX_C_FIELDS}, 2)
    with raises("sort-order.order-id.unsorted"):
        parse_sort_order({"order-id": 3, "fields": []}, 2)
    with raises("sort-order.order-id.unsorted"):
        validate_sort_order(SortOrder(0, (SortField(2, "identity"),)), SCHEMA, 2)
    with raises("sort-order.order-id.unsorted"):
        validate_sort_order(SortOrder(5, ()), SCHEMA, 2)


@pytest.mark.parametrize("direction", ["ASC", "ascending", "", None, "descending"])
def test_direction_is_asc_or_desc(direction):
    """sort-order.direction."""
    field = {"transform": "identity", "source-id": 2, "direction": direction, "null-order": "nulls-first"}
    with raises("sort-order.direction"):
        parse_sort_order({"order-id": 1, "fields": [field]}, 2)
    with raises("sort-order.direction"):
        SortField(2, "identity", direction, "nulls-first")
    with raises("sort-order.direction"):
        sort_key(1, "long", direction)


@pytest.mark.parametrize("null_order", ["NULLS_FIRST", "first", "nulls_last", None])
def test_null_order_is_nulls_first_or_nulls_last(null_order):
    """sort-order.null-order."""
    field = {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": null_order}
    with raises("sort-order.null-order"):
        parse_sort_order({"order-id": 1, "fields": [field]}, 2)
    with raises("sort-order.null-order"):
        SortField(2, "identity", "asc", null_order)
    with raises("sort-order.null-order"):
        sort_key(None, "long", "asc", null_order)


@pytest.mark.parametrize(
    ("f", "rule"),
    [
        (SortField(99, "identity"), "sort-order.source.exists"),
        (SortField(5, "identity"), "transform.source-type"),
        (SortField(4, "bucket[4]"), "transform.source-type"),
        (SortField((1, 2), "identity"), "sort-order.transform.arity"),
        (SortField((1, 99), "zorder"), "sort-order.source.exists"),
    ],
)
def test_invalid_sources_are_rejected(f, rule):
    """sort-order.source.exists, sort-order.transform.arity, transform.source-type."""
    with raises(rule):
        validate_sort_order(SortOrder(1, (f,)), SCHEMA, 2)


def test_valid_sources_and_unknown_transforms_pass():
    """transform.unknown: tolerated; sources nested in structs (and, the spec being silent, lists)."""
    order = SortOrder(1, (SortField(6, "identity", "desc"), SortField((1, 2), "zorder"), SortField(8, "truncate[2]")))
    validate_sort_order(order, SCHEMA, 3)
    assert parse_sort_order(order.to_json(3, SEED_2024), 3, SEED_2024) == order


# --- the floating-point order ------------------------------------------------------------------

# -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN
CHAIN = [
    _double(0xFFF8000000000000),
    -math.inf,
    -1e300,
    -1.0,
    -5e-324,
    -0.0,
    0.0,
    5e-324,
    1.0,
    1e300,
    math.inf,
    math.nan,
]


def test_float_order_follows_the_spec_chain():
    """sort-order.float-order, the sentence of "Sorting"."""
    keys = [float_sort_key(x) for x in CHAIN]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert [compare_floats(a, b) for a, b in zip(CHAIN, CHAIN[1:])] == [-1] * (len(CHAIN) - 1)
    shuffled = CHAIN[::-1][3:] + CHAIN[::-1][:3]
    assert [struct.pack(">d", x) for x in sorted(shuffled, key=float_sort_key)] == [struct.pack(">d", x) for x in CHAIN]


def test_nan_sign_comes_from_the_bits_and_payloads_are_ignored():
    """sort-order.float-order: a negative NaN sorts first (unlike Java's Double.compare, which
    canonicalizes it to the positive NaN); NaNs of one sign compare equal."""
    neg, pos = _double(0xFFF0000000000001), _double(0x7FF0000000000001)
    assert compare_floats(neg, -math.inf) == -1 and compare_floats(neg, _double(0xFFF8000000000000)) == 0
    assert compare_floats(pos, math.inf) == 1 and compare_floats(pos, math.nan) == 0
    assert compare_floats(_float32(0xFFC00001), -math.inf) == -1  # a 32-bit NaN keeps its sign
    assert compare_floats(_float32(0x80000000), _float32(0x00000000)) == -1  # -0.0f < 0.0f


def _class(x: float) -> int:
    """The position of x's class in the spec's chain."""
    negative = math.copysign(1.0, x) < 0
    if math.isnan(x):
        return 0 if negative else 7
    if math.isinf(x):
        return 1 if negative else 6
    if x == 0:
        return 3 if negative else 4
    return 2 if negative else 5


ANY_DOUBLE = st.integers(0, 2**64 - 1).map(_double)
ANY_FLOAT32 = st.integers(0, 2**32 - 1).map(_float32)
NANS = st.integers(1, 2**52 - 1).flatmap(
    lambda m: st.sampled_from([_double(0x7FF0000000000000 | m), _double(0xFFF0000000000000 | m)])
)
FLOATS = st.one_of(ANY_DOUBLE, ANY_FLOAT32, NANS, st.floats(allow_nan=True), st.sampled_from(CHAIN))


@given(FLOATS, FLOATS, FLOATS)
def test_float_order_is_a_total_order(a, b, c):
    """Antisymmetric, transitive, and total."""
    assert compare_floats(a, b) == -compare_floats(b, a)
    assert compare_floats(a, a) == 0
    if compare_floats(a, b) <= 0 and compare_floats(b, c) <= 0:
        assert compare_floats(a, c) <= 0


@given(FLOATS, FLOATS)
def test_float_order_is_consistent_with_the_chain(a, b):
    """Different classes order as the chain; within the value classes as numbers."""
    ca, cb = _class(a), _class(b)
    if ca != cb:
        assert compare_floats(a, b) == (-1 if ca < cb else 1)
    elif ca in (2, 5):
        assert compare_floats(a, b) == (a > b) - (a < b)
    else:
        assert compare_floats(a, b) == 0


# --- sorting values and records ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("direction", "null_order", "expected"),
    [
        ("asc", "nulls-first", [None, "a", "b", "c"]),
        ("asc", "nulls-last", ["a", "b", "c", None]),
        ("desc", "nulls-first", [None, "c", "b", "a"]),
        ("desc", "nulls-last", ["c", "b", "a", None]),
    ],
)
def test_sort_key_direction_and_null_order(direction, null_order, expected):
    """sort-order.record-order: nulls first or last whatever the direction."""
    assert sorted(["b", None, "c", "a"], key=lambda v: sort_key(v, "string", direction, null_order)) == expected


def test_sort_key_for_other_types():
    doubles = [math.nan, 1.0, -0.0, 0.0, -math.inf]
    out = sorted(doubles, key=lambda v: sort_key(v, "double", "desc"))
    assert [struct.pack(">d", x) for x in out] == [struct.pack(">d", x) for x in [math.nan, 1.0, 0.0, -0.0, -math.inf]]
    assert sorted([Decimal("1.10"), Decimal("-2.00")], key=lambda v: sort_key(v, "decimal(5,2)")) == [
        Decimal("-2.00"),
        Decimal("1.10"),
    ]
    low, high = uuid.UUID(int=1), uuid.UUID(int=2**127)  # unsigned, not Java's signed UUID.compareTo
    assert sorted([high, low], key=lambda v: sort_key(v, "uuid")) == [low, high]
    assert sorted([b"\xff", b"\x01\x02"], key=lambda v: sort_key(v, "binary")) == [b"\x01\x02", b"\xff"]
    assert sorted(["\uffff", "\U0001f600"], key=lambda v: sort_key(v, "string")) == ["\uffff", "\U0001f600"]


def test_records_sort_by_the_appendix_c_order():
    """sort-order.record-order: identity(data) asc nulls-first, then bucket[4](category) desc nulls-last."""
    order = parse_sort_order(APPENDIX_C_ORDER, 2)
    records = [{2: "b", 3: "x"}, {2: None, 3: "y"}, {2: "a", 3: None}, {2: "a", 3: "z"}, {2: "a", 3: "q"}]
    out = sort_records(records, order, SCHEMA)
    assert out[0] == {2: None, 3: "y"} and out[-1] == {2: "b", 3: "x"} and out[3] == {2: "a", 3: None}
    key = record_sort_key(order, SCHEMA)
    assert key({2: "a", 3: "z"}) <= key({2: "a", 3: "q"})  # bucket[4]("z") = 3 > bucket[4]("q") = 0, desc


def test_records_with_unknown_transforms_cannot_be_sorted():
    with pytest.raises(NotDefined, match="transform.unknown"):
        record_sort_key(SortOrder(1, (SortField((1, 2), "zorder"),)), SCHEMA)


def test_every_registered_sort_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("sort-order.")]
    assert mine and [r for r in mine if r not in text] == []
