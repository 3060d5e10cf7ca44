"""Appendix D single values: binary (bounds) and JSON (defaults, partition values)."""

from __future__ import annotations

import math
import uuid
from decimal import Decimal

import pytest

from spec_impl import from_binary, from_json, to_binary, to_json
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.revisions import SEED_2024

UUID = uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7")
BINARY_RULES = {
    "binary.boolean",
    "binary.fixed-width",
    "binary.decimal",
    "binary.string",
    "binary.uuid",
    "binary.bytes",
    "binary.geo",
}
JSON_RULES = {
    "json.boolean",
    "json.integer",
    "json.floating",
    "json.decimal",
    "json.date",
    "json.time",
    "json.timestamp",
    "json.timestamptz",
    "json.string",
    "json.uuid",
    "json.bytes",
    "json.geo",
    "json.struct",
    "json.list",
    "json.map",
}


@pytest.mark.parametrize(
    ("type_", "value", "hex_"),
    [
        ("boolean", True, "01"),
        ("boolean", False, "00"),
        ("int", 34, "22000000"),
        ("long", 34, "2200000000000000"),
        ("float", 1.0, "0000803f"),
        ("double", -0.0, "0000000000000080"),
        ("date", 17486, "4e440000"),
        ("string", "iceberg", "69636562657267"),
        ("uuid", UUID, "f79c3e09677c4bbda4793f349cb785e7"),
        ("fixed[2]", b"\x00\xff", "00ff"),
        ("binary", b"", ""),
        ("decimal(9,2)", Decimal("14.20"), "058c"),
        ("decimal(9,0)", Decimal(0), "00"),
        ("decimal(9,0)", Decimal(128), "0080"),
        ("decimal(9,0)", Decimal(-128), "80"),
        ("decimal(9,0)", Decimal(-129), "ff7f"),
    ],
)
def test_binary_round_trip(type_, value, hex_):
    """binary.* rules: little-endian fixed widths, big-endian UUID, minimal decimal bytes."""
    from spec_impl.serde.binary import rule_for
    from spec_impl.types import parse_type

    assert rule_for(parse_type(type_)) in BINARY_RULES
    assert to_binary(type_, value).hex() == hex_
    assert from_binary(type_, bytes.fromhex(hex_)) == value


@pytest.mark.parametrize(
    ("type_", "hex_", "rule"),
    [
        ("int", "220000", "binary.fixed-width"),
        ("uuid", "00" * 15, "binary.uuid"),
        ("fixed[4]", "000102", "binary.bytes"),
        ("boolean", "", "binary.boolean"),
        ("string", "c3", "binary.string"),
        ("decimal(2,0)", "64", "value.decimal"),
    ],
)
def test_binary_rejections(type_, hex_, rule):
    with pytest.raises(InvalidInput, match=rule.replace(".", r"\.")):
        from_binary(type_, bytes.fromhex(hex_))


def test_binary_undefined_for_nested_and_v3_special_types():
    with pytest.raises(NotDefined, match="binary.undefined"):
        to_binary({"type": "list", "element-id": 1, "element-required": True, "element": "int"}, [1])
    with pytest.raises(NotDefined, match="binary.undefined"):
        from_binary("variant", b"\x00")


def test_promoted_bounds():
    """binary.promoted-bound: 4-byte long -> int, 4-byte double -> float, 4-byte timestamp -> date (adopted)."""
    assert from_binary("long", bytes.fromhex("feffffff")) == -2
    assert from_binary("double", bytes.fromhex("0000803f")) == 1.0
    assert from_binary("timestamp", bytes.fromhex("4e440000")) == 17486 * 86_400_000_000
    with pytest.raises(InvalidInput, match="binary.fixed-width"):
        from_binary("timestamp", bytes.fromhex("4e440000"), revision=SEED_2024)
    with pytest.raises(InvalidInput, match="binary.fixed-width"):
        from_binary("timestamptz", bytes.fromhex("4e440000"))


@pytest.mark.parametrize(
    ("type_", "value", "text"),
    [
        ("decimal(4,2)", Decimal("14.20"), "14.20"),
        ("decimal(9,-2)", Decimal("2E+2"), "2E+2"),
        ("decimal(9,-2)", Decimal("12300"), "123E+2"),
        ("decimal(38,10)", Decimal("1E-10"), "0.0000000001"),
        ("date", 17486, "2017-11-16"),
        ("date", -719529, "-0001-12-31"),
        ("time", 81068123456, "22:31:08.123456"),
        ("timestamp", 1510871468123456, "2017-11-16T22:31:08.123456"),
        ("timestamptz", 1510871468123456, "2017-11-16T22:31:08.123456+00:00"),
        ("timestamp_ns", 1510871468123456789, "2017-11-16T22:31:08.123456789"),
        ("timestamptz_ns", -1, "1969-12-31T23:59:59.999999999+00:00"),
        ("uuid", UUID, str(UUID)),
        ("binary", b"\x00\x01\x02\xff", "000102ff"),
        ("boolean", False, False),
        ("string", "é😀", "é😀"),
        ("long", -(2**63), -(2**63)),
    ],
)
def test_json_spec_examples(type_, value, text):
    """json.* rules: the Appendix D examples and the canonical spelling of the reference."""
    from spec_impl.serde.json_value import rule_for
    from spec_impl.types import parse_type

    assert rule_for(parse_type(type_)) in JSON_RULES
    assert to_json(type_, value) == text
    assert from_json(type_, text) == value


@pytest.mark.parametrize(
    ("type_", "obj", "rule"),
    [
        ("timestamptz", "2017-11-16T22:31:08+01:00", "json.timestamptz"),
        ("timestamptz", "2017-11-16T22:31:08Z", "json.timestamptz"),
        ("timestamp", "2017-11-16T22:31:08+00:00", "json.timestamp"),
        ("fixed[4]", "000102", "json.bytes"),
        ("decimal(4,2)", "114.20", "json.decimal"),
        ("decimal(4,2)", "14.2", "json.decimal"),
        ("int", 2**31, "json.integer"),
        ("int", True, "json.integer"),
        ("uuid", str(UUID).replace("-", ""), "json.uuid"),
        ("time", "22:31:08.1234567", "json.time"),
        ("date", "2017-02-29", "json.date"),
    ],
)
def test_json_rejections_name_the_rule(type_, obj, rule):
    with pytest.raises(InvalidInput, match=rule.replace(".", r"\.")):
        from_json(type_, obj)


def test_json_floats():
    """json.floating: JSON numbers; NaN and infinities have no form; floats spelled at 32-bit precision."""
    assert to_json("float", 0.1) == 0.1 and to_json("double", 0.1) == 0.1
    assert from_json("double", 1) == 1.0
    for bad in (math.nan, math.inf):
        with pytest.raises(InvalidInput, match="json.floating"):
            to_json("double", bad)


def test_json_nested():
    """json.struct / json.list / json.map: the Appendix D forms."""
    struct = {
        "type": "struct",
        "fields": [
            {"id": 1, "name": "a", "required": True, "type": "int"},
            {"id": 2, "name": "b", "required": False, "type": "string"},
        ],
    }
    assert from_json(struct, {"1": 1, "2": "bar"}) == {1: 1, 2: "bar"}
    assert to_json(struct, {1: 1, 2: "bar"}) == {"1": 1, "2": "bar"}
    m = {"type": "map", "key-id": 3, "key": "string", "value-id": 4, "value-required": True, "value": "int"}
    assert from_json(m, {"keys": ["a", "b"], "values": [1, 2]}) == {"a": 1, "b": 2}
    with pytest.raises(InvalidInput, match="json.map"):
        from_json(m, {"keys": ["a"], "values": [1, 2]})
    with pytest.raises(InvalidInput, match="json.struct"):
        from_json(struct, {"1": None})


def test_json_geo_wkt():
    """json.geo: geometry and geography JSON values are WKT; binary.geo: bounds are the WKB itself."""
    wkb = from_json("geometry", "POINT Z (1 2 3)")
    assert wkb.hex() == "01e9030000" + "000000000000f03f" + "0000000000000040" + "0000000000000840"
    assert to_binary("geometry", wkb) == wkb and to_json("geometry", wkb) == "POINT Z (1 2 3)"
    assert to_json("geography", from_json("geography", "MULTIPOINT (1 2, 3 4)")) == "MULTIPOINT ((1 2), (3 4))"


def test_json_undefined():
    with pytest.raises(NotDefined, match="json.undefined"):
        from_json("variant", {})


def test_json_float_extremes_keep_their_value():
    """json.floating: the largest float's short spelling must not round past it (3.403e38 overflows)."""
    largest = 3.4028234663852886e38
    assert from_json("float", to_json("float", largest)) == largest
