"""Appendix D binary single values (bounds): both directions, widths, byte orders, rejections."""

from __future__ import annotations

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "binary"
DESCRIPTION = "Appendix D: binary single-value serialization (lower and upper bounds)"

_FW = "binary.fixed-width"
_ROUND_TRIPS = (  # rule, type, value, what
    ("binary.boolean", "boolean", False, "false is 00"),
    ("binary.boolean", "boolean", True, "true is 01"),
    (_FW, "int", 34, "4-byte little-endian"),
    (_FW, "int", -1, "all bits set"),
    (_FW, "int", -(2**31), "int min"),
    (_FW, "int", 2**31 - 1, "int max"),
    (_FW, "long", 34, "8-byte little-endian"),
    (_FW, "long", -(2**63), "long min"),
    (_FW, "long", 2**63 - 1, "long max"),
    (_FW, "long", 2**32, "a long beyond 32 bits"),
    (_FW, "float", 1.0, "IEEE 754 little-endian"),
    (_FW, "float", -0.0, "negative zero keeps its sign bit"),
    (_FW, "float", {"ieee754": "7fc00000"}, "the canonical float NaN"),
    (_FW, "float", {"ieee754": "ff800000"}, "float -infinity"),
    (_FW, "float", 1.401298464324817e-45, "the smallest float subnormal"),
    (_FW, "double", 1.0, "8-byte IEEE 754 little-endian"),
    (_FW, "double", -0.0, "double negative zero"),
    (_FW, "double", {"ieee754": "7ff8000000000000"}, "the canonical double NaN"),
    (_FW, "double", {"ieee754": "7ff0000000000000"}, "double infinity"),
    (_FW, "double", 0.1, "double 0.1"),
    (_FW, "date", "2017-11-16", "days from the epoch, 4 bytes"),
    (_FW, "date", "1969-12-31", "day -1"),
    (_FW, "time", "22:31:08.000001", "microseconds from midnight, 8 bytes"),
    (_FW, "timestamp", "2017-11-16T22:31:08.000001", "microseconds from the epoch"),
    (_FW, "timestamp", "1969-12-31T23:59:59.999999", "-1 µs"),
    (_FW, "timestamptz", "2017-11-16T22:31:08.000001+00:00", "microseconds from the epoch, UTC"),
    (_FW, "timestamp_ns", "2017-11-16T22:31:08.000000001", "nanoseconds from the epoch"),
    (_FW, "timestamptz_ns", "1969-12-31T23:59:59.999999999+00:00", "-1 ns"),
    ("binary.string", "string", "iceberg", "UTF-8 bytes without length"),
    ("binary.string", "string", "", "the empty string is zero bytes"),
    ("binary.string", "string", "é😀", "multi-byte UTF-8"),
    ("binary.uuid", "uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7", "16 big-endian bytes (Appendix B note 3)"),
    ("binary.bytes", "fixed[4]", "00010203", "the bytes"),
    ("binary.bytes", "binary", "", "empty binary"),
    ("binary.bytes", "binary", "00ff10", "the bytes without length"),
    ("binary.geo", "geometry", "POINT (1 2)", "WKB of POINT (1 2)"),
    ("binary.geo", "geography(OGC:CRS84, karney)", "LINESTRING (0 0, 1.5 2)", "WKB of a line string"),
)
_DECIMALS = (0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 10**38 - 1, -(10**38) + 1)


def specs():
    for rule_id, t, value, what in _ROUND_TRIPS:
        slug = f"{t}-{value if not isinstance(value, dict) else value['ieee754']}-{what}"
        yield case(rule_id, f"to-{slug}", f"{t} to bytes: {what}", "to-binary", type=t, value=value)
    for unscaled in _DECIMALS:
        yield case(
            "binary.decimal",
            f"to-unscaled-{unscaled}",
            f"decimal(38,0) {unscaled}: minimum two's-complement big-endian bytes",
            "to-binary",
            type="decimal(38,0)",
            value=str(unscaled),
        )
    yield case(
        "binary.decimal",
        "to-scaled",
        "decimal(4,2) 14.20 is the unscaled 1420 = 058c",
        "to-binary",
        type="decimal(4,2)",
        value="14.20",
    )
    yield case(
        "binary.decimal",
        "to-negative-scaled",
        "decimal(9,3) -0.001 is the unscaled -1 = ff",
        "to-binary",
        type="decimal(9,3)",
        value="-0.001",
    )

    hexes = (  # rule, type, hex, what
        ("binary.boolean", "boolean", "00", "false"),
        ("binary.boolean", "boolean", "01", "true"),
        ("binary.boolean", "boolean", "02", "any non-zero byte is true"),
        ("binary.boolean", "boolean", "ff", "ff is true"),
        ("binary.boolean", "boolean", "", "no byte"),
        ("binary.boolean", "boolean", "0000", "two bytes"),
        (_FW, "int", "22000000", "34"),
        (_FW, "int", "220000", "three bytes"),
        (_FW, "int", "2200000000000000", "eight bytes for an int"),
        (_FW, "long", "2200000000000000", "34"),
        (_FW, "long", "ffffffffffffff7f", "long max"),
        (_FW, "long", "220000000000", "six bytes"),
        ("binary.promoted-bound", "long", "feffffff", "a 4-byte long bound was written as an int before promotion: -2"),
        (
            "binary.promoted-bound",
            "double",
            "0000803f",
            "a 4-byte double bound was written as a float before promotion: 1.0",
        ),
        (
            "binary.promoted-bound",
            "timestamp",
            "4e440000",
            "a 4-byte timestamp bound is a date (adopted v3 date promotion)",
        ),
        ("binary.promoted-bound", "timestamp_ns", "ffffffff", "a 4-byte timestamp_ns bound is a date: day -1"),
        (_FW, "timestamptz", "4e440000", "a 4-byte timestamptz bound: date never promotes to timestamptz"),
        (_FW, "float", "0000c07f", "float NaN"),
        (_FW, "float", "000000", "three bytes for a float"),
        (_FW, "double", "000000000000f87f", "double NaN"),
        (_FW, "date", "ffffffff", "day -1"),
        (_FW, "time", "0100000000000000", "1 µs after midnight"),
        (_FW, "time", "0060d71d14000000", "24:00:00 is not a time of day"),
        (_FW, "time", "ffffffffffffffff", "a negative time"),
        ("binary.decimal", "decimal(9,2)", "058c", "14.20"),
        ("binary.decimal", "decimal(9,2)", "ff", "-0.01"),
        ("binary.decimal", "decimal(9,2)", "0000ff", "leading sign bytes (not minimal) still read as 2.55"),
        ("binary.decimal", "decimal(9,2)", "", "no bytes"),
        ("binary.decimal", "decimal(2,0)", "64", "100 has more digits than precision 2"),
        ("binary.string", "string", "69636562657267", "iceberg"),
        ("binary.string", "string", "f09f9880", "a non-BMP code point"),
        ("binary.string", "string", "c3", "a truncated UTF-8 sequence"),
        ("binary.string", "string", "eda080", "an encoded surrogate is not UTF-8"),
        ("binary.uuid", "uuid", "f79c3e09677c4bbda4793f349cb785e7", "16 bytes"),
        ("binary.uuid", "uuid", "f79c3e09677c4bbda4793f349cb785", "15 bytes"),
        ("binary.bytes", "fixed[4]", "00010203", "4 bytes"),
        ("binary.bytes", "fixed[4]", "000102", "3 bytes for fixed[4]"),
        ("binary.bytes", "fixed[4]", "0001020304", "5 bytes for fixed[4]"),
        ("binary.bytes", "binary", "", "empty binary"),
    )
    for rule_id, t, h, what in hexes:
        yield case(
            rule_id, f"from-{t}-{h or 'empty'}", f"{t} from bytes {h or '(none)'}: {what}", "from-binary", type=t, hex=h
        )
    for t, revs in (
        ("unknown", ADOPTED),
        ("variant", ADOPTED),
        ({"type": "list", "element-id": 1, "element-required": True, "element": "int"}, None),
        ({"type": "struct", "fields": []}, None),
    ):
        name = t if isinstance(t, str) else t["type"]
        yield case(
            "binary.undefined",
            f"from-{name}",
            f"{name} has no binary single value",
            "from-binary",
            type=t,
            hex="00",
            revisions=revs,
        )
    yield case(
        "binary.undefined",
        "to-map",
        "map has no binary single value",
        "to-binary",
        type={"type": "map", "key-id": 1, "key": "int", "value-id": 2, "value-required": True, "value": "int"},
        value={"keys": [1], "values": [2]},
    )
    yield from _nan_payloads()
    yield from _promoted_bound_ranges()
    yield from _decimal_forms()
    yield from _decimal_extremes()


def _nan_payloads():
    """Appendix D: float and double are "Stored as 4-byte (8-byte) little-endian" IEEE 754 values, so
    the bytes are the value's bits: every bit pattern, NaN payloads and the signalling bit included,
    is written back as it was read (as Iceberg Java's Conversions do with ByteBuffer.putFloat /
    getFloat, which keep the raw bits, unlike Float.floatToIntBits, which canonicalizes NaN)."""
    for t, bits, what in (
        ("float", "7f800001", "a signalling float NaN (quiet bit clear, payload 1)"),
        ("float", "ffc00001", "a negative quiet float NaN with payload 1"),
        ("float", "7fbfffff", "a signalling float NaN with the largest payload"),
        ("double", "7ff0000000000001", "a signalling double NaN"),
        ("double", "fff8000000000001", "a negative quiet double NaN with payload 1"),
    ):
        le = bytes.fromhex(bits)[::-1].hex()
        yield case(
            _FW,
            f"to-{t}-nan-{bits}",
            f"{t} to bytes: {what} keeps all its bits ({le})",
            "to-binary",
            type=t,
            value={"ieee754": bits},
        )
        yield case(
            _FW,
            f"from-{t}-nan-{le}",
            f"{t} from bytes {le}: {what}, read with all its bits",
            "from-binary",
            type=t,
            hex=le,
        )


def _promoted_bound_ranges():
    """A 4-byte timestamp / timestamp_ns bound is a date (adopted 1.1 date promotion); its value
    is days * 86,400,000,000 µs (or * 86,400,000,000,000 ns), which must fit the long range
    (Primitive Types: timestamps are 64-bit). Expectations: the largest/smallest day whose
    promoted value fits, and the first day beyond (rule value.range), computed from the long range.
    int -> long needs no check (every int is a long): its extremes are read as they are."""
    micros, nanos = 86_400_000_000, 86_400_000_000_000
    for t, per_day in (("timestamp", micros), ("timestamp_ns", nanos)):
        high, low = (2**63 - 1) // per_day, -((2**63) // per_day)  # the last days that fit
        for days, fits in ((high, True), (low, True), (high + 1, False), (low - 1, False)):
            h = days.to_bytes(4, "little", signed=True).hex()
            what = (
                f"date {days} days from the epoch: {days * per_day} {'fits' if fits else 'is outside'} the long range"
            )
            yield case(
                "binary.promoted-bound" if fits else "value.range",
                f"from-{t}-{h}-date-{days}",
                f"a 4-byte {t} bound, {what}",
                "from-binary",
                type=t,
                hex=h,
                revisions=None if fits else ADOPTED,
            )
    for h, what in (
        ("c606f5ff", "0001-01-01 (day -719162)"),
        ("ffffff7f", "the largest int day 2147483647"),
        ("00000080", "the smallest int day -2147483648"),
    ):
        days = int.from_bytes(bytes.fromhex(h), "little", signed=True)
        for t, per_day in (("timestamp", micros), ("timestamp_ns", nanos)):
            fits = -(2**63) <= days * per_day < 2**63
            yield case(
                "binary.promoted-bound" if fits else "value.range",
                f"from-{t}-{h}-date-{days}",
                f"a 4-byte {t} bound holding {what}: {'inside' if fits else 'outside'} the long range once promoted",
                "from-binary",
                type=t,
                hex=h,
                revisions=None if fits else ADOPTED,
            )
    for h, what in (("00000080", "int min -2147483648"), ("ffffff7f", "int max 2147483647")):
        yield case(
            "binary.promoted-bound",
            f"from-long-{h}",
            f"a 4-byte long bound written as an int before promotion: {what}",
            "from-binary",
            type="long",
            hex=h,
        )


def _decimal_forms():
    """to-binary of a decimal written with another exponent: the bytes of the unscaled value at the
    type's scale (Appendix D "Stores the unscaled value"), the same for every spelling."""
    for text, what in forms.EQUIVALENT + forms.REJECTED:
        yield case(
            "binary.decimal",
            f"to-decimal-form-{text}",
            f"{forms.TYPE} given as {text} ({what}): the unscaled value at scale 2",
            "to-binary",
            type=forms.TYPE,
            value=forms.form(text),
        )


def _decimal_extremes():
    """Precision 1 and 38 with scale 0 and scale = precision (Primitive Types: precision at most 38)."""
    for t, values in (
        ("decimal(1,0)", ("9", "-9", "0")),
        ("decimal(1,1)", ("0.9", "-0.9", "0.1")),
        ("decimal(38,0)", ("9" * 38, "-" + "9" * 38, "1")),
        ("decimal(38,38)", ("0." + "9" * 38, "-0." + "9" * 38, "0." + "0" * 37 + "1", "-0." + "0" * 37 + "1")),
    ):
        for v in values:
            yield case(
                "binary.decimal",
                f"to-{t}-{v}",
                f"{t} {v}: minimum two's-complement bytes of the unscaled value",
                "to-binary",
                type=t,
                value=v,
            )
            yield case(
                "binary.decimal",
                f"round-trip-{t}-{v}",
                f"{t} {v} read back from its bytes",
                "from-binary",
                type=t,
                hex=_unscaled_hex(v),
            )
    yield case(
        "binary.decimal",
        "from-decimal(38,38)-39-digits",
        "decimal(38,38): 10**38 has 39 digits, more than precision 38",
        "from-binary",
        type="decimal(38,38)",
        hex=_min_bytes(10**38),
    )


def _unscaled_hex(text: str) -> str:
    return _min_bytes(int(text.replace(".", "")))


def _min_bytes(n: int) -> str:
    """Minimum two's-complement big-endian bytes, computed here from the definition (not the reference)."""
    length = 1
    while not -(2 ** (8 * length - 1)) <= n < 2 ** (8 * length - 1):
        length += 1
    return n.to_bytes(length, "big", signed=True).hex()
