"""Partition transforms: the spec's examples, source and result types, and the edges of each rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from spec_impl import apply_transform, from_json, parse_transform, result_type
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.transforms import accepts
from spec_impl.types import DATE, INT, parse_type


@pytest.mark.parametrize(
    ("type_", "width", "value", "expected"),
    [
        ("int", 10, 1, 0),
        ("int", 10, -1, -10),
        ("long", 10, 1, 0),
        ("long", 10, -1, -10),  # spec table
        ("int", 10, 10, 10),
        ("int", 10, -10, -10),
        ("int", 1, -7, -7),
        ("int", 100, -5, -100),
    ],
)
def test_truncate_integer_remainder_is_positive(type_, width, value, expected):
    """transform.truncate.integer: v - (((v % W) + W) % W)."""
    assert apply_transform(f"truncate[{width}]", type_, value) == expected


def test_truncate_decimal_spec_example():
    """transform.truncate.decimal: W=50, s=2: 10.65 -> 10.50, the width in units of the scale."""
    assert apply_transform("truncate[50]", "decimal(4,2)", Decimal("10.65")) == Decimal("10.50")
    assert apply_transform("truncate[10]", "decimal(9,2)", Decimal("-0.05")) == Decimal("-0.10")


def test_truncate_string_counts_code_points():
    """transform.truncate.string: 'iceberg' -> 'ice'; non-BMP code points count once."""
    assert apply_transform("truncate[3]", "string", "iceberg") == "ice"
    assert apply_transform("truncate[2]", "string", "😀😀😀") == "😀😀"
    assert apply_transform("truncate[1]", "string", "e\u0301") == "e"


def test_truncate_binary_counts_bytes():
    """transform.truncate.binary: \\x01..\\x05 -> \\x01\\x02\\x03, bytes not characters."""
    assert apply_transform("truncate[3]", "binary", bytes([1, 2, 3, 4, 5])) == bytes([1, 2, 3])
    assert apply_transform("truncate[3]", "binary", "éè".encode()) == "éè".encode()[:3]


def test_truncate_overflow_is_rejected():
    """transform.overflow: a spec gap; the result would not fit the source type."""
    with pytest.raises(InvalidInput, match="transform.overflow"):
        apply_transform("truncate[10]", "int", -(2**31))
    with pytest.raises(InvalidInput, match="transform.overflow"):
        apply_transform("truncate[10]", "decimal(1,0)", Decimal(-9))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("bucket[0]", "transform.bucket.n"),
        ("truncate[0]", "transform.truncate.width"),
        ("bucket[2147483648]", "transform.bucket.n"),
        ("truncate[2147483648]", "transform.truncate.width"),
    ],
)
def test_invalid_parameters_are_rejected(text, rule):
    with pytest.raises(InvalidInput, match=rule.replace(".", r"\.")):
        parse_transform(text)


@pytest.mark.parametrize(
    "text", ["zorder", "bucket_v2[3]", "identity[1]", "hours", "", "truncate[-1]", "bucket[+5]", "BUCKET[16]"]
)
def test_unknown_transforms_parse_verbatim(text):
    """transform.unknown: v3 readers must tolerate them; applying one is NotDefined."""
    t = parse_transform(text)
    assert (t.text, t.name, t.is_known) == (text, None, False)
    with pytest.raises(NotDefined, match="transform.unknown"):
        apply_transform(t, "long", 1)


@pytest.mark.parametrize(
    ("transform", "type_", "value", "expected"),
    [
        ("year", "date", "1969-12-31", -1),
        ("month", "date", "1969-12-31", -1),
        ("day", "date", "1969-12-31", -1),
        ("year", "timestamp", "1969-12-31T23:59:59.999999", -1),
        ("hour", "timestamp", "1969-12-31T23:59:59.999999", -1),
        ("hour", "timestamp_ns", "1969-12-31T23:59:59.999999999", -1),
        ("day", "timestamptz_ns", "1969-12-31T23:59:59.999999999+00:00", -1),
        ("year", "date", "2017-11-16", 47),
        ("month", "date", "2017-11-16", 574),
        ("day", "date", "2017-11-16", 17486),
        ("hour", "timestamp", "2017-11-16T22:31:08", 419686),
    ],
)
def test_temporal_transforms_floor_before_the_epoch(transform, type_, value, expected):
    """transform.year/month/day/hour: offsets from 1970 with floor semantics."""
    assert apply_transform(transform, type_, from_json(type_, value)) == expected


def test_null_in_null_out():
    """transform.null: every transform maps null to null."""
    for t in ("identity", "bucket[4]", "truncate[2]", "year", "month", "day", "hour", "void"):
        assert apply_transform(t, "timestamp" if t not in ("truncate[2]",) else "long", None) is None


@pytest.mark.parametrize(
    ("transform", "type_"),
    [
        ("bucket[4]", "float"),
        ("bucket[4]", "boolean"),
        ("truncate[4]", "fixed[4]"),
        ("hour", "date"),
        ("year", "time"),
        ("identity", {"type": "struct", "fields": []}),
    ],
)
def test_source_types_are_enforced(transform, type_):
    assert not accepts(transform, type_)
    with pytest.raises(InvalidInput, match="transform.source-type"):
        result_type(transform, type_)


def test_result_types():
    """transform.result-type: day is int in the seed text and date in the adopted spec."""
    assert result_type("bucket[16]", "string") == INT
    assert result_type("truncate[3]", "decimal(9,2)") == parse_type("decimal(9,2)")
    assert result_type("day", "timestamp", revision=SEED_2024) == INT
    assert result_type("day", "timestamp", revision=V3_ADOPTED) == DATE
    assert result_type("void", "uuid") == parse_type("uuid")


def test_identity_excludes_geo_types_in_the_adopted_spec():
    assert not accepts("identity", "geometry", V3_ADOPTED)
    assert accepts("void", "geography", V3_ADOPTED)


def test_bucket_masks_the_sign_bit():
    """transform.bucket: (hash & Integer.MAX_VALUE) % N, not abs(hash) % N."""
    h = -500754589  # Appendix B hash of 14.20
    assert apply_transform("bucket[7]", "decimal(4,2)", Decimal("14.20")) == (h & 0x7FFFFFFF) % 7 != abs(h) % 7


def test_bucket_timestamp_ns_depends_on_revision():
    """hash.timestamp-ns: the seed hashes nanos; the adopted spec floor(nanos / 1000)."""
    ns = from_json("timestamp_ns", "2017-11-16T22:31:08.000000001")
    assert apply_transform("bucket[1000]", "timestamp_ns", ns, revision=V3_ADOPTED) == apply_transform(
        "bucket[1000]", "timestamp", ns // 1000
    )
    assert apply_transform("bucket[1000]", "timestamp_ns", ns, revision=SEED_2024) == (-160215926 & 0x7FFFFFFF) % 1000


@pytest.mark.parametrize(
    ("text", "name", "param"),
    [
        ("identity", "identity", None),
        ("bucket[16]", "bucket", 16),
        ("truncate[3]", "truncate", 3),
        ("void", "void", None),
    ],
)
def test_known_transform_strings(text, name, param):
    """transform.parse"""
    t = parse_transform(text)
    assert (t.text, t.name, t.param, t.is_known) == (text, name, param, True)


def test_identity_and_void():
    """transform.identity returns the value unchanged; transform.void always produces null."""
    for type_, value in (
        ("string", "😀"),
        ("double", -0.0),
        ("decimal(9,2)", Decimal("-3.14")),
        ("uuid", __import__("uuid").uuid4()),
    ):
        assert apply_transform("identity", type_, value) == value
        assert apply_transform("void", type_, value) is None
    assert str(apply_transform("identity", "double", -0.0)) == "-0.0"


@pytest.mark.parametrize(
    ("transform", "rule"), [("month", "transform.month"), ("day", "transform.day"), ("hour", "transform.hour")]
)
def test_temporal_rule_ids(transform, rule):
    from spec_impl.transforms import rule_for

    assert rule_for(transform, "timestamp") == rule
