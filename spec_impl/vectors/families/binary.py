"""Appendix D binary single values (bounds): both directions, widths, byte orders, rejections."""

from __future__ import annotations

from spec_impl.revisions import V3_ADOPTED
from spec_impl.vectors.cases import case

NAME = "binary"
DESCRIPTION = "Appendix D: binary single-value serialization (lower and upper bounds)"

_FW = "binary.fixed-width"
_ROUND_TRIPS = (  # rule, type, value, what
    ("binary.boolean", "boolean", False, "false is 00"), ("binary.boolean", "boolean", True, "true is 01"),
    (_FW, "int", 34, "4-byte little-endian"), (_FW, "int", -1, "all bits set"), (_FW, "int", -(2**31), "int min"),
    (_FW, "int", 2**31 - 1, "int max"), (_FW, "long", 34, "8-byte little-endian"), (_FW, "long", -(2**63), "long min"),
    (_FW, "long", 2**63 - 1, "long max"), (_FW, "long", 2**32, "a long beyond 32 bits"),
    (_FW, "float", 1.0, "IEEE 754 little-endian"), (_FW, "float", -0.0, "negative zero keeps its sign bit"),
    (_FW, "float", {"ieee754": "7fc00000"}, "the canonical float NaN"), (_FW, "float", {"ieee754": "ff800000"}, "float -infinity"),
    (_FW, "float", 1.401298464324817e-45, "the smallest float subnormal"), (_FW, "double", 1.0, "8-byte IEEE 754 little-endian"),
    (_FW, "double", -0.0, "double negative zero"), (_FW, "double", {"ieee754": "7ff8000000000000"}, "the canonical double NaN"),
    (_FW, "double", {"ieee754": "7ff0000000000000"}, "double infinity"), (_FW, "double", 0.1, "double 0.1"),
    (_FW, "date", "2017-11-16", "days from the epoch, 4 bytes"), (_FW, "date", "1969-12-31", "day -1"),
    (_FW, "time", "22:31:08.000001", "microseconds from midnight, 8 bytes"),
    (_FW, "timestamp", "2017-11-16T22:31:08.000001", "microseconds from the epoch"),
    (_FW, "timestamp", "1969-12-31T23:59:59.999999", "-1 µs"),
    (_FW, "timestamptz", "2017-11-16T22:31:08.000001+00:00", "microseconds from the epoch, UTC"),
    (_FW, "timestamp_ns", "2017-11-16T22:31:08.000000001", "nanoseconds from the epoch"),
    (_FW, "timestamptz_ns", "1969-12-31T23:59:59.999999999+00:00", "-1 ns"),
    ("binary.string", "string", "iceberg", "UTF-8 bytes without length"), ("binary.string", "string", "", "the empty string is zero bytes"),
    ("binary.string", "string", "é😀", "multi-byte UTF-8"),
    ("binary.uuid", "uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7", "16 big-endian bytes (Appendix B note 3)"),
    ("binary.bytes", "fixed[4]", "00010203", "the bytes"), ("binary.bytes", "binary", "", "empty binary"),
    ("binary.bytes", "binary", "00ff10", "the bytes without length"),
    ("binary.geo", "geometry", "POINT (1 2)", "WKB of POINT (1 2)"),
    ("binary.geo", "geography(OGC:CRS84, karney)", "LINESTRING (0 0, 1.5 2)", "WKB of a line string"),
)  # fmt: skip
_DECIMALS = (0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 10**38 - 1, -(10**38) + 1)


def specs():
    for rule_id, t, value, what in _ROUND_TRIPS:
        slug = f"{t}-{value if not isinstance(value, dict) else value['ieee754']}-{what}"
        yield case(rule_id, f"to-{slug}", f"{t} to bytes: {what}", "to-binary", type=t, value=value)
    for unscaled in _DECIMALS:
        yield case("binary.decimal", f"to-unscaled-{unscaled}", f"decimal(38,0) {unscaled}: minimum two's-complement big-endian bytes",
                   "to-binary", type="decimal(38,0)", value=str(unscaled))  # fmt: skip
    yield case("binary.decimal", "to-scaled", "decimal(4,2) 14.20 is the unscaled 1420 = 058c", "to-binary", type="decimal(4,2)", value="14.20")
    yield case("binary.decimal", "to-negative-scaled", "decimal(9,3) -0.001 is the unscaled -1 = ff", "to-binary", type="decimal(9,3)", value="-0.001")

    hexes = (  # rule, type, hex, what
        ("binary.boolean", "boolean", "00", "false"), ("binary.boolean", "boolean", "01", "true"),
        ("binary.boolean", "boolean", "02", "any non-zero byte is true"), ("binary.boolean", "boolean", "ff", "ff is true"),
        ("binary.boolean", "boolean", "", "no byte"), ("binary.boolean", "boolean", "0000", "two bytes"),
        (_FW, "int", "22000000", "34"), (_FW, "int", "220000", "three bytes"), (_FW, "int", "2200000000000000", "eight bytes for an int"),
        (_FW, "long", "2200000000000000", "34"), (_FW, "long", "ffffffffffffff7f", "long max"),
        (_FW, "long", "220000000000", "six bytes"),
        ("binary.promoted-bound", "long", "feffffff", "a 4-byte long bound was written as an int before promotion: -2"),
        ("binary.promoted-bound", "double", "0000803f", "a 4-byte double bound was written as a float before promotion: 1.0"),
        ("binary.promoted-bound", "timestamp", "4e440000", "a 4-byte timestamp bound is a date (adopted v3 date promotion)"),
        ("binary.promoted-bound", "timestamp_ns", "ffffffff", "a 4-byte timestamp_ns bound is a date: day -1"),
        (_FW, "timestamptz", "4e440000", "a 4-byte timestamptz bound: date never promotes to timestamptz"),
        (_FW, "float", "0000c07f", "float NaN"), (_FW, "float", "000000", "three bytes for a float"),
        (_FW, "double", "000000000000f87f", "double NaN"), (_FW, "date", "ffffffff", "day -1"),
        (_FW, "time", "0100000000000000", "1 µs after midnight"), (_FW, "time", "0060d71d14000000", "24:00:00 is not a time of day"),
        (_FW, "time", "ffffffffffffffff", "a negative time"),
        ("binary.decimal", "decimal(9,2)", "058c", "14.20"), ("binary.decimal", "decimal(9,2)", "ff", "-0.01"),
        ("binary.decimal", "decimal(9,2)", "0000ff", "leading sign bytes (not minimal) still read as 2.55"),
        ("binary.decimal", "decimal(9,2)", "", "no bytes"), ("binary.decimal", "decimal(2,0)", "64", "100 has more digits than precision 2"),
        ("binary.string", "string", "69636562657267", "iceberg"), ("binary.string", "string", "f09f9880", "a non-BMP code point"),
        ("binary.string", "string", "c3", "a truncated UTF-8 sequence"), ("binary.string", "string", "eda080", "an encoded surrogate is not UTF-8"),
        ("binary.uuid", "uuid", "f79c3e09677c4bbda4793f349cb785e7", "16 bytes"), ("binary.uuid", "uuid", "f79c3e09677c4bbda4793f349cb785", "15 bytes"),
        ("binary.bytes", "fixed[4]", "00010203", "4 bytes"), ("binary.bytes", "fixed[4]", "000102", "3 bytes for fixed[4]"),
        ("binary.bytes", "fixed[4]", "0001020304", "5 bytes for fixed[4]"), ("binary.bytes", "binary", "", "empty binary"),
    )  # fmt: skip
    for rule_id, t, h, what in hexes:
        yield case(rule_id, f"from-{t}-{h or 'empty'}", f"{t} from bytes {h or '(none)'}: {what}", "from-binary", type=t, hex=h)
    for t, revs in (("unknown", (V3_ADOPTED,)), ("variant", (V3_ADOPTED,)), ({"type": "list", "element-id": 1, "element-required": True, "element": "int"}, None),
                    ({"type": "struct", "fields": []}, None)):  # fmt: skip
        name = t if isinstance(t, str) else t["type"]
        yield case("binary.undefined", f"from-{name}", f"{name} has no binary single value", "from-binary", type=t, hex="00", revisions=revs)
    yield case("binary.undefined", "to-map", "map has no binary single value", "to-binary",
               type={"type": "map", "key-id": 1, "key": "int", "value-id": 2, "value-required": True, "value": "int"}, value={"keys": [1], "values": [2]})  # fmt: skip
