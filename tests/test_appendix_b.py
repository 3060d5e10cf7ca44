"""Appendix B: the spec's own hash test values, typed in from the spec text (not from the vectors)."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from spec_impl import from_json, hash_value
from spec_impl.errors import NotDefined
from spec_impl.revisions import SEED_2024, V3_ADOPTED

TS = "2017-11-16T22:31:08"

# (rule, type, JSON form of the value, expected hash) exactly as in the Appendix B table
APPENDIX_B = [
    ("hash.integer", "int", 34, 2017239379),
    ("hash.integer", "long", 34, 2017239379),
    ("hash.decimal", "decimal(4,2)", "14.20", -500754589),
    ("hash.date", "date", "2017-11-16", -653330422),
    ("hash.time", "time", "22:31:08", -662762989),
    ("hash.timestamp", "timestamp", TS, -2047944441),
    ("hash.timestamp", "timestamp", TS + ".000001", -1207196810),
    ("hash.timestamp", "timestamptz", TS + "+00:00", -2047944441),  # 2017-11-16T14:31:08-08:00 in the spec
    ("hash.timestamp", "timestamptz", TS + ".000001+00:00", -1207196810),
    ("hash.string", "string", "iceberg", 1210000089),
    ("hash.uuid", "uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7", 1488055340),
    ("hash.bytes", "fixed[4]", "00010203", -188683207),
    ("hash.bytes", "binary", "00010203", -188683207),
    ("hash.boolean", "boolean", True, 1392991556),
    ("hash.floating", "float", 1.0, -142385009),
    ("hash.floating", "float", 0.0, 1669671676),
    ("hash.floating", "float", -0.0, 1669671676),
    ("hash.floating", "double", 1.0, -142385009),
    ("hash.floating", "double", 0.0, 1669671676),
    ("hash.floating", "double", -0.0, 1669671676),
]
SEED_NS = [(TS, -737750069), (TS + ".000001", -976603392), (TS + ".000000001", -160215926)]
ADOPTED_NS = [(TS, -2047944441), (TS + ".000001001", -1207196810)]


@pytest.mark.parametrize(("rule", "type_", "json_value", "expected"), APPENDIX_B)
def test_appendix_b_value(rule, type_, json_value, expected):
    from spec_impl.hashing import rule_for
    from spec_impl.types import parse_type

    assert rule_for(parse_type(type_)) == rule
    assert hash_value(type_, from_json(type_, json_value)) == expected


@pytest.mark.parametrize("type_", ["timestamp_ns", "timestamptz_ns"])
@pytest.mark.parametrize(("text", "expected"), SEED_NS)
def test_timestamp_ns_seed_hashes_nanoseconds(type_, text, expected):
    suffix = "+00:00" if type_.endswith("tz_ns") else ""
    assert hash_value(type_, from_json(type_, text + suffix), revision=SEED_2024) == expected


@pytest.mark.parametrize("type_", ["timestamp_ns", "timestamptz_ns"])
@pytest.mark.parametrize(("text", "expected"), ADOPTED_NS)
def test_timestamp_ns_adopted_hashes_microseconds(type_, text, expected):
    suffix = "+00:00" if type_.endswith("tz_ns") else ""
    assert hash_value(type_, from_json(type_, text + suffix), revision=V3_ADOPTED) == expected


def test_uuid_bytes_are_big_endian():
    """Appendix B note 3: F7 9C 3E 09 67 7C 4B BD A4 79 3F 34 9C B7 85 E7."""
    u = uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7")
    assert u.bytes.hex() == "f79c3e09677c4bbda4793f349cb785e7"
    assert hash_value("fixed[16]", u.bytes) == hash_value("uuid", u)


def test_decimal_hash_ignores_scale():
    """Note 2: the scale is part of the type, not the hashed value (rule hash.decimal)."""
    assert hash_value("decimal(4,2)", Decimal("14.20")) == hash_value("decimal(9,0)", Decimal(1420))


def test_nan_is_canonical_and_float_widens_to_double():
    """Note 4 (rule hash.floating): every NaN hashes alike; floats hash as the double they widen to."""
    nans = [float("nan"), -float("nan")]
    assert len({hash_value("double", n) for n in nans} | {hash_value("float", n) for n in nans}) == 1
    assert hash_value("float", 0.1) == hash_value("double", 0.10000000149011612)
    assert hash_value("float", 0.1) != hash_value("double", 0.1)


def test_unknown_hashes_to_null_and_variant_has_no_hash():
    assert hash_value("unknown", None) is None  # rule hash.unknown
    with pytest.raises(NotDefined, match="hash.undefined"):
        hash_value("variant", None)
