"""Appendix D JSON single values (defaults, partition values): both directions, and rejections."""

from __future__ import annotations

import json

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "json"
DESCRIPTION = "Appendix D: JSON single-value serialization (defaults and partition values)"

_STRUCT = {
    "type": "struct",
    "fields": [
        {"id": 1, "name": "a", "required": True, "type": "int"},
        {"id": 2, "name": "b", "required": False, "type": "string"},
    ],
}
_LIST = {"type": "list", "element-id": 3, "element-required": False, "element": "long"}
_REQ_LIST = {"type": "list", "element-id": 3, "element-required": True, "element": "long"}
_MAP = {"type": "map", "key-id": 4, "key": "string", "value-id": 5, "value-required": False, "value": "decimal(9,2)"}
_NESTED = {
    "type": "struct",
    "fields": [
        {"id": 10, "name": "tags", "required": False, "type": _MAP},
        {"id": 11, "name": "xs", "required": False, "type": _LIST},
    ],
}

_WRITES = (  # rule, type, value, what
    ("json.boolean", "boolean", True, "a JSON boolean"),
    ("json.integer", "int", 34, "a JSON number"),
    ("json.integer", "long", 2**63 - 1, "long max as an exact JSON integer"),
    ("json.integer", "long", -(2**63), "long min"),
    ("json.floating", "float", 1.0, "a JSON number"),
    ("json.floating", "float", 0.1, "the float nearest 0.1 reads back from 0.1"),
    ("json.floating", "double", -0.0, "negative zero"),
    ("json.floating", "double", 1e300, "a large double"),
    ("json.floating", "double", {"ieee754": "7ff8000000000000"}, "NaN has no JSON number form"),
    ("json.floating", "float", {"ieee754": "7f800000"}, "infinity has no JSON number form"),
    ("json.decimal", "decimal(4,2)", "14.20", "digits after the point give the scale (trailing zero kept)"),
    ("json.decimal", "decimal(9,2)", "-0.05", "a negative value below one"),
    ("json.decimal", "decimal(9,0)", "42", "scale 0: no point"),
    ("json.decimal", "decimal(38,10)", "0.0000000001", "a small value stays in plain notation for a positive scale"),
    ("json.decimal", "decimal(9,-2)", "2E+2", "a negative scale uses scientific notation with exponent = -scale"),
    ("json.decimal", "decimal(9,-2)", "123E+2", "unscaled 123 with scale -2: 123E+2, not 1.23E+4"),
    ("json.date", "date", "2017-11-16", "ISO-8601 date"),
    ("json.date", "date", "1969-12-31", "before the epoch"),
    ("json.date", "date", "0001-01-01", "year 1"),
    ("json.date", "date", "+10000-01-01", "year 10000: ISO-8601 expanded year"),
    ("json.time", "time", "22:31:08.123456", "microsecond precision"),
    ("json.time", "time", "00:00:00.000000", "midnight"),
    ("json.timestamp", "timestamp", "2017-11-16T22:31:08.123456", "no zone offset"),
    ("json.timestamp", "timestamp", "1969-12-31T23:59:59.999999", "before the epoch"),
    ("json.timestamptz", "timestamptz", "2017-11-16T22:31:08.123456+00:00", "offset +00:00"),
    ("json.timestamp", "timestamp_ns", "2017-11-16T22:31:08.123456789", "nanosecond precision"),
    ("json.timestamptz", "timestamptz_ns", "2017-11-16T22:31:08.123456789+00:00", "nanoseconds, offset +00:00"),
    ("json.string", "string", "iceberg", "a JSON string"),
    ("json.string", "string", 'é😀"\\', "non-ASCII and escapes"),
    ("json.uuid", "uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7", "the lowercase UUID string"),
    ("json.bytes", "fixed[4]", "000102ff", "lowercase hex"),
    ("json.bytes", "binary", "", "empty binary is the empty string"),
    ("json.struct", _STRUCT, {"1": 1, "2": "bar"}, "an object keyed by field id (the Appendix D example)"),
    ("json.struct", _STRUCT, {"1": 1}, "an optional field left out"),
    ("json.list", _LIST, [1, None, 3], "an array, nulls allowed for optional elements"),
    ("json.map", _MAP, {"keys": ["a", "b"], "values": ["1.00", None]}, "keys and values arrays"),
    ("json.struct", _NESTED, {"10": {"keys": ["x"], "values": ["0.50"]}, "11": [7]}, "nested map and list in a struct"),
    ("json.geo", "geometry", "POINT (1 2)", "WKT"),
    ("json.geo", "geography", "POLYGON ((0 0, 1 0, 1 1, 0 0))", "WKT"),
)

_READS = (  # rule, type, json, what
    ("json.boolean", "boolean", False, "false"),
    ("json.boolean", "boolean", 0, "0 is not a JSON boolean"),
    ("json.integer", "int", 34, "34"),
    ("json.integer", "int", 2147483648, "beyond the int range"),
    ("json.integer", "int", 34.0, "34.0 is not a JSON integer"),
    ("json.integer", "long", True, "true is not a number"),
    ("json.integer", "long", "34", "a string is not a number"),
    ("json.integer", "long", -9223372036854775809, "below the long range"),
    ("json.floating", "double", 1, "an integer JSON number is a valid double"),
    ("json.floating", "float", 3.4e39, "beyond the float range"),
    ("json.floating", "double", "1.0", "a string is not a number"),
    ("json.decimal", "decimal(4,2)", "14.20", "14.20"),
    ("json.decimal", "decimal(4,2)", "14.2", "one digit after the point: scale 1, not 2"),
    ("json.decimal", "decimal(4,2)", "114.20", "five digits for precision 4"),
    ("json.decimal", "decimal(4,2)", 14.2, "a JSON number, not a string"),
    ("json.decimal", "decimal(4,2)", "1.420E+1", "scientific notation whose exponent still gives scale 2"),
    ("json.decimal", "decimal(9,-2)", "2E+2", "negative scale"),
    ("json.decimal", "decimal(9,-2)", "200", "200 has scale 0, not -2"),
    ("json.decimal", "decimal(4,2)", "NaN", "NaN is not a decimal"),
    ("json.decimal", "decimal(4,2)", " 14.20", "surrounding whitespace"),
    ("json.date", "date", "2017-11-16", "a date"),
    ("json.date", "date", "2017-02-29", "not a leap year"),
    ("json.date", "date", "2017-11-16T00:00:00", "a timestamp is not a date"),
    ("json.date", "date", "20171116", "the basic format"),
    ("json.date", "date", "-0001-12-31", "year -1, expanded format"),
    ("json.time", "time", "22:31:08", "no fraction"),
    ("json.time", "time", "22:31", "no seconds"),
    ("json.time", "time", "22:31:08.1", "a short fraction is tenths"),
    ("json.time", "time", "22:31:08.1234567", "seven fraction digits: below microsecond precision"),
    ("json.time", "time", "24:00:00", "hour 24"),
    ("json.time", "time", "22:31:08+00:00", "a time with an offset"),
    ("json.timestamp", "timestamp", "2017-11-16T22:31:08", "no fraction"),
    ("json.timestamp", "timestamp", "2017-11-16T22:31:08+00:00", "a timestamp without zone must not include an offset"),
    ("json.timestamp", "timestamp", "2017-11-16T22:31:08Z", "Z is an offset too"),
    ("json.timestamp", "timestamp", "2017-11-16 22:31:08", "a space instead of T"),
    (
        "json.timestamp",
        "timestamp",
        "2017-11-16T22:31:08.123456789",
        "nine fraction digits for a microsecond timestamp",
    ),
    ("json.timestamptz", "timestamptz", "2017-11-16T22:31:08.123456+00:00", "offset +00:00"),
    ("json.timestamptz", "timestamptz", "2017-11-16T14:31:08.123456-08:00", "offset -08:00: only +00:00 is allowed"),
    ("json.timestamptz", "timestamptz", "2017-11-16T23:31:08+01:00", "offset +01:00"),
    ("json.timestamptz", "timestamptz", "2017-11-16T22:31:08Z", "Z instead of +00:00"),
    ("json.timestamptz", "timestamptz", "2017-11-16T22:31:08-00:00", "-00:00 instead of +00:00"),
    ("json.timestamptz", "timestamptz", "2017-11-16T22:31:08", "a timestamptz without an offset"),
    ("json.timestamp", "timestamp_ns", "2017-11-16T22:31:08.123456789", "nine digits"),
    ("json.timestamp", "timestamp_ns", "2017-11-16T22:31:08.1234567891", "ten fraction digits"),
    ("json.timestamptz", "timestamptz_ns", "2017-11-16T22:31:08.123456789+00:00", "nine digits with +00:00"),
    (
        "json.timestamptz",
        "timestamptz_ns",
        "2262-04-12T00:00:00.000000000+00:00",
        "beyond the long range of nanoseconds",
    ),
    ("json.string", "string", "", "the empty string"),
    ("json.string", "string", 1, "a number is not a string"),
    ("json.uuid", "uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7", "lowercase"),
    (
        "json.uuid",
        "uuid",
        "F79C3E09-677C-4BBD-A479-3F349CB785E7",
        "uppercase digits: still a UUID string (writers store lowercase)",
    ),
    ("json.uuid", "uuid", "f79c3e09677c4bbda4793f349cb785e7", "no hyphens"),
    ("json.bytes", "binary", "000102ff", "lowercase hex"),
    ("json.bytes", "binary", "000102FF", "uppercase hex digits are still hexadecimal"),
    ("json.bytes", "binary", "0", "an odd number of hex digits"),
    ("json.bytes", "binary", "zz", "not hexadecimal"),
    ("json.bytes", "fixed[4]", "000102", "3 bytes for fixed[4]"),
    ("json.struct", _STRUCT, {"1": 1, "2": "bar"}, "the Appendix D example"),
    ("json.struct", _STRUCT, {"a": 1}, "keys are field ids, not names"),
    ("json.struct", _STRUCT, {"1": None}, "a required field is null"),
    ("json.struct", _STRUCT, {}, "an empty object (fields default)"),
    ("json.struct", _STRUCT, {"3": 1}, "an id that is not a field of the struct"),
    ("json.list", _LIST, [1, 2, 3], "an array"),
    ("json.list", _REQ_LIST, [1, None], "null in a list of required elements"),
    ("json.list", _LIST, {"0": 1}, "an object is not a list"),
    ("json.map", _MAP, {"keys": ["a"], "values": ["1.00"]}, "one entry"),
    ("json.map", _MAP, {"keys": ["a", "b"], "values": ["1.00"]}, "more keys than values"),
    ("json.map", _MAP, {"keys": [None], "values": ["1.00"]}, "a null key"),
    ("json.map", _MAP, {"a": "1.00"}, "a plain object is not the map form"),
    ("json.map", _MAP, {"keys": ["a", "a"], "values": ["1.00", "2.00"]}, "a duplicate key"),
    ("json.geo", "geometry", "POINT (1 2)", "WKT point"),
    ("json.geo", "geometry", "POINT (1)", "a point needs two coordinates"),
    ("json.geo", "geography", "MULTIPOINT (1 2, 3 4)", "multipoint without inner parentheses"),
)


def _name(t) -> str:
    return t if isinstance(t, str) else t["type"]


def specs():
    for rule_id, t, value, what in _WRITES:
        shown = value["ieee754"] if isinstance(value, dict) and "ieee754" in value else value
        yield case(
            rule_id,
            f"to-{_name(t)}-{shown}",
            f"{_name(t)} {shown} to JSON: {what}",
            "to-json",
            type=t,
            value=value,
            revisions=ADOPTED if rule_id == "json.geo" else None,
        )
    for rule_id, t, obj, what in _READS:
        yield case(
            rule_id,
            f"from-{_name(t)}-{json.dumps(obj, ensure_ascii=False)}",
            f"{_name(t)} from JSON {obj!r}: {what}",
            "from-json",
            type=t,
            json=obj,
        )
    for t in ("unknown", "variant"):
        yield case(
            "json.undefined",
            f"from-{t}",
            f"{t} has no JSON single value",
            "from-json",
            type=t,
            json="x",
            revisions=ADOPTED,
        )
    yield from _extremes()


def _extremes():
    """Decimals at precision 1 and 38 with scale 0 and scale = precision: Appendix D writes a
    decimal as a string whose digits after the point give the scale, so the smallest nonzero
    decimal(38,38) is 0.00000000000000000000000000000000000001 in plain notation, never 1E-38
    (whose digits give no point). Decimal inputs with another exponent are written at the type's
    scale. JSON numbers beyond the double range have no double value."""
    smallest = "0." + "0" * 37 + "1"
    for t, v in (
        ("decimal(1,0)", "9"),
        ("decimal(1,0)", "-9"),
        ("decimal(1,1)", "0.9"),
        ("decimal(1,1)", "-0.9"),
        ("decimal(38,0)", "9" * 38),
        ("decimal(38,0)", "-" + "9" * 38),
        ("decimal(38,38)", "0." + "9" * 38),
        ("decimal(38,38)", smallest),
        ("decimal(38,38)", "-" + smallest),
    ):
        yield case(
            "json.decimal",
            f"to-{t}-{v}",
            f"{t} {v} to JSON: plain digits, scale {t[-3:-1].strip(',')}",
            "to-json",
            type=t,
            value=v,
        )
        yield case("json.decimal", f"from-{t}-{v}", f"{t} from JSON {v!r}", "from-json", type=t, json=v)
    for t, text, why in (
        ("decimal(1,1)", "1.0", "two digits for precision 1"),
        ("decimal(38,38)", "1." + "0" * 38, "39 digits"),
        ("decimal(38,0)", "1" + "0" * 38, "39 digits"),
        ("decimal(38,38)", "1E-38", "scientific notation whose exponent gives scale 38"),
    ):
        yield case("json.decimal", f"from-{t}-{text}", f"{t} from JSON {text!r}: {why}", "from-json", type=t, json=text)
    for text, what in forms.EQUIVALENT + forms.REJECTED:
        yield case(
            "json.decimal",
            f"to-decimal-form-{text}",
            f"{forms.TYPE} given as {text} ({what}) to JSON: two fraction digits",
            "to-json",
            type=forms.TYPE,
            value=forms.form(text),
        )
    for t, number, what in (
        ("double", 10**400, "a 401-digit integer"),
        ("double", -(10**309), "-10**309"),
        ("float", 10**39, "10**39, beyond the float range"),
        ("long", 10**400, "a 401-digit integer"),
    ):
        rule_id = "json.integer" if t == "long" else "json.floating"
        yield case(
            rule_id,
            f"from-{t}-{what}",
            f"{t} from the JSON number {what}: no value of the type",
            "from-json",
            type=t,
            json=number,
        )
    huge = "9" * 4301  # more digits than Python's int() of a string takes: a parser must refuse them first
    for rule_id, t, text, what in (
        ("json.date", "date", f"+{huge}-01-01", "a year of 4,301 digits"),
        ("json.timestamp", "timestamp", f"+{huge}-01-01T00:00:00", "a year of 4,301 digits"),
        ("json.decimal", "decimal(9,-2)", "2E+9999999999999999999", "an exponent beyond any decimal's"),
    ):
        yield case(
            rule_id,
            f"from-{t}-{what}",
            f"{t} from JSON {text[:24]!r}...: {what}, out of range",
            "from-json",
            type=t,
            json=text,
        )
