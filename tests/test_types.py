"""Types (Appendix C) and type promotion (Schema Evolution, adopted v3)."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.promotion import can_promote, check_promotion
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.types import (
    DecimalType,
    FixedType,
    GeographyType,
    GeometryType,
    ListType,
    MapType,
    StructType,
    check_format_version,
    min_format_version,
    parse_type,
)

APPENDIX_C_STRUCT = {
    "type": "struct",
    "fields": [
        {
            "id": 1,
            "name": "id",
            "required": True,
            "type": "uuid",
            "initial-default": "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
            "write-default": "ec5911be-b0a7-458c-8438-c9a3e53cffae",
        },
        {
            "id": 2,
            "name": "data",
            "required": False,
            "type": {"type": "list", "element-id": 3, "element-required": True, "element": "string"},
        },
        {
            "id": 4,
            "name": "m",
            "required": False,
            "type": {
                "type": "map",
                "key-id": 5,
                "key": "string",
                "value-id": 6,
                "value-required": False,
                "value": "double",
            },
        },
    ],
}


@pytest.mark.parametrize(
    "text",
    [
        "boolean",
        "int",
        "long",
        "float",
        "double",
        "date",
        "time",
        "timestamp",
        "timestamptz",
        "timestamp_ns",
        "timestamptz_ns",
        "string",
        "uuid",
        "binary",
        "unknown",
        "variant",
    ],
)
def test_primitive_strings_round_trip(text):
    """type.primitive"""
    assert str(parse_type(text)) == text


def test_decimal_spacing_variants():
    """type.decimal: "decimal(9,2)" and "decimal(9, 2)" (Appendix C) are the same type."""
    assert (
        parse_type("decimal(9,2)") == parse_type("decimal(9, 2)") == parse_type("decimal( 9 , 2 )") == DecimalType(9, 2)
    )
    assert str(DecimalType(9, 2)) == "decimal(9,2)"
    with pytest.raises(InvalidInput, match="type.decimal"):
        parse_type("decimal(39,0)")


def test_fixed():
    """type.fixed"""
    assert parse_type("fixed[ 16 ]") == FixedType(16)
    with pytest.raises(InvalidInput, match="type.fixed"):
        parse_type("fixed(16)")


def test_geo_types_and_defaults():
    """type.geo: CRS default OGC:CRS84, algorithm default spherical, printed bare when default."""
    assert parse_type("geometry") == parse_type("geometry(OGC:CRS84)") == GeometryType()
    assert str(parse_type("geography(OGC:CRS84, spherical)")) == "geography"
    assert parse_type("geography(EPSG:4326,karney)") == GeographyType("EPSG:4326", "karney")
    assert str(GeographyType("EPSG:4326")) == "geography(EPSG:4326)"
    with pytest.raises(InvalidInput, match="type.geo"):
        parse_type("geography(OGC:CRS84, flat)")


def test_nested_appendix_c_round_trip():
    """type.nested: the Appendix C example (struct with defaults, list, map)."""
    t = parse_type(APPENDIX_C_STRUCT)
    assert (
        isinstance(t, StructType) and isinstance(t.fields[1].type, ListType) and isinstance(t.fields[2].type, MapType)
    )
    assert t.to_json() == APPENDIX_C_STRUCT
    assert parse_type(t.to_json()) == t


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "list", "element-id": 1, "element": "int"},
        {"type": "struct"},
        42,
        {"type": "struct", "fields": [{"id": True, "name": "a", "required": True, "type": "int"}]},
    ],
)
def test_malformed_nested_types(bad):
    with pytest.raises(InvalidInput, match="type.nested"):
        parse_type(bad)


def test_v3_types_need_format_v3():
    """type.version"""
    assert min_format_version(parse_type("timestamp_ns")) == 3
    assert min_format_version(parse_type(APPENDIX_C_STRUCT)) == 1
    with pytest.raises(InvalidInput, match="type.version"):
        check_format_version(
            parse_type({"type": "list", "element-id": 1, "element-required": True, "element": "variant"}), 2
        )


@pytest.mark.parametrize(
    ("src", "dst", "allowed"),
    [
        ("int", "long", True),
        ("float", "double", True),
        ("decimal(9,2)", "decimal(18,2)", True),
        ("long", "int", False),
        ("decimal(9,2)", "decimal(9,3)", False),
        ("decimal(18,2)", "decimal(9,2)", False),
        ("int", "double", False),
        ("date", "timestamp", False),
        ("unknown", "long", False),
    ],
)
def test_v2_promotions(src, dst, allowed):
    """type.promotion: the same table in v1 and v2."""
    for version in (1, 2):
        assert can_promote(parse_type(src), parse_type(dst), version) is allowed


def test_v3_promotions_only_in_the_adopted_spec():
    """type.promotion.v3: unknown to any type, date to timestamp(_ns); never to the tz types."""
    date, ts, ts_ns, tstz = (parse_type(t) for t in ("date", "timestamp", "timestamp_ns", "timestamptz"))
    assert can_promote(date, ts, 3, V3_ADOPTED) and can_promote(date, ts_ns, 3, V3_ADOPTED)
    assert not can_promote(date, tstz, 3, V3_ADOPTED)
    assert can_promote(parse_type("unknown"), parse_type("decimal(9,2)"), 3, V3_ADOPTED)
    assert not can_promote(date, ts, 3, SEED_2024)
    with pytest.raises(InvalidInput, match="type.promotion.v3"):
        check_promotion(date, tstz, 3)
