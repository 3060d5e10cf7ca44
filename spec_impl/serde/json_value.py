"""Appendix D, JSON single-value serialization: defaults and partition values in metadata JSON.

`to_json(t, value)` returns the JSON value (Python objects that `json.dumps` writes) in the spec's
canonical spelling; `from_json(t, obj)` reads it back and rejects what the spec forbids, naming the
rule. Readers accept the spellings the spec allows (fewer fraction digits, a decimal in scientific
notation whose exponent gives the column's scale); writers produce one spelling:

- time and timestamps always carry all 6 (µs) or 9 (ns) fraction digits;
- a decimal with scale S >= 0 is plain with exactly S fraction digits; with S < 0 it is
  `<unscaled>E+<-S>`, the exponent equal to the negated scale;
- float values use the shortest decimal that reads back as the same 32-bit float.
"""

from __future__ import annotations

import decimal
import math
import re
import uuid
from typing import Any
from collections.abc import Callable

from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.temporal import (
    DATE_RE,
    TIME_RE,
    TIMESTAMP_RE,
    UNIT,
    format_date,
    format_time_of_day,
    format_timestamp,
    parse_date_match,
    parse_time_match,
)
from spec_impl.types import DecimalType, FixedType, IcebergType, ListType, MapType, PrimitiveType, StructType
from spec_impl.values import normalize, to_float32, unscaled_value
from spec_impl.rules import implements

_TIMESTAMPS = {
    "timestamp": ("us", False),
    "timestamptz": ("us", True),
    "timestamp_ns": ("ns", False),
    "timestamptz_ns": ("ns", True),
}
_DECIMAL_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_UUID_TEXT = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX_TEXT = re.compile(r"(?:[0-9a-fA-F]{2})*")
UTC_OFFSET = "+00:00"


@implements("json.undefined")
def rule_for(t: IcebergType) -> str:
    """The Appendix D JSON rule for type `t`; NotDefined for unknown and variant."""
    if isinstance(t, StructType):
        return "json.struct"
    if isinstance(t, ListType):
        return "json.list"
    if isinstance(t, MapType):
        return "json.map"
    name = t.name  # type: ignore[attr-defined]
    if name in ("unknown", "variant"):
        raise NotDefined("json.undefined", f"Appendix D defines no JSON single value for {t}", name)
    if name in _TIMESTAMPS:
        return "json.timestamptz" if _TIMESTAMPS[name][1] else "json.timestamp"
    return {
        "boolean": "json.boolean",
        "int": "json.integer",
        "long": "json.integer",
        "float": "json.floating",
        "double": "json.floating",
        "decimal": "json.decimal",
        "date": "json.date",
        "time": "json.time",
        "string": "json.string",
        "uuid": "json.uuid",
        "fixed": "json.bytes",
        "binary": "json.bytes",
        "geometry": "json.geo",
        "geography": "json.geo",
    }[name]


# --- writing -----------------------------------------------------------------------------------


JSON_RULES = (  # the rules the serializers implement, type by type
    "json.boolean",
    "json.bytes",
    "json.date",
    "json.decimal",
    "json.floating",
    "json.geo",
    "json.integer",
    "json.list",
    "json.map",
    "json.string",
    "json.struct",
    "json.time",
    "json.timestamp",
    "json.timestamptz",
    "json.undefined",
    "json.uuid",
)


@implements(*JSON_RULES)
def to_json(t: IcebergType, value: Any, *, non_finite: Callable[[str, float], Any] | None = None) -> Any:
    """The Appendix D JSON form of one value of type `t` (None for null).

    NaN and infinities have no JSON form; `non_finite(type_name, value)`, when given, supplies
    one (the vector files' `{"ieee754": ...}` extension), otherwise they are rejected.
    """
    if value is None:
        return None
    rule_id = rule_for(t)
    value = normalize(t, value)
    if isinstance(t, StructType):
        return {str(f.id): to_json(f.type, value[f.id], non_finite=non_finite) for f in t.fields if f.id in value}
    if isinstance(t, ListType):
        return [to_json(t.element, v, non_finite=non_finite) for v in value]
    if isinstance(t, MapType):
        return {
            "keys": [to_json(t.key, k, non_finite=non_finite) for k in value],
            "values": [to_json(t.value, v, non_finite=non_finite) for v in value.values()],
        }
    name = t.name  # type: ignore[attr-defined]
    if name in ("boolean", "int", "long", "string"):
        return value
    if name in ("float", "double"):
        if not math.isfinite(value):
            if non_finite is not None:
                return non_finite(name, value)
            raise InvalidInput(rule_id, "NaN and infinities have no JSON number form", value)
        return shortest_float32(value) if name == "float" else value
    if isinstance(t, DecimalType):
        return format_decimal(t, value)
    if name == "date":
        return format_date(value)
    if name == "time":
        return format_time_of_day(value, *UNIT["us"])
    if name in _TIMESTAMPS:
        unit, with_zone = _TIMESTAMPS[name]
        return format_timestamp(value, unit) + (UTC_OFFSET if with_zone else "")
    if name == "uuid":
        return str(value)
    if name in ("fixed", "binary"):
        return value.hex()
    from spec_impl.serde.wkt import wkb_to_wkt  # geometry, geography

    return wkb_to_wkt(value)


def shortest_float32(value: float) -> float:
    """The double with the shortest decimal spelling that rounds to the same 32-bit float."""
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits}g}")
        try:
            if to_float32(candidate) == value:
                return candidate
        except InvalidInput:  # rounding the spelling up crossed the largest float, e.g. 3.403e38
            continue
    return value


def format_decimal(t: DecimalType, value: decimal.Decimal) -> str:
    """Plain digits with exactly S fraction digits, or `<unscaled>E+<-S>` for a negative scale."""
    unscaled = unscaled_value(t, value)
    if t.scale <= 0:
        return str(unscaled) if t.scale == 0 else f"{unscaled}E+{-t.scale}"
    sign, digits = ("-" if unscaled < 0 else ""), str(abs(unscaled)).rjust(t.scale + 1, "0")
    return f"{sign}{digits[: -t.scale]}.{digits[-t.scale :]}"


def check_written(t: IcebergType, obj: Any) -> None:
    """Raise unless `obj`, a JSON value that `from_json` reads, is in the one form Appendix D
    prescribes for writers where it prescribes one: a decimal "for values with a positive scale,
    the number of digits to the right of the decimal point is used to indicate scale, for values
    with a negative scale, the scientific notation is used and the exponent must equal the negated
    scale" (so `1E-10` for decimal(38,10) is read, but is no writer's form), and "Stores the
    lowercase uuid string". The offsets of timestamps are checked by `from_json` itself; the
    number of fraction digits of times is not prescribed ("with microsecond precision")."""
    if obj is None:
        return
    if isinstance(t, StructType):
        for f in t.fields:
            if str(f.id) in obj:
                check_written(f.type, obj[str(f.id)])
    elif isinstance(t, ListType):
        for v in obj:
            check_written(t.element, v)
    elif isinstance(t, MapType):
        for k in obj["keys"]:
            check_written(t.key, k)
        for v in obj["values"]:
            check_written(t.value, v)
    elif isinstance(t, DecimalType):
        form = format_decimal(t, from_json(t, obj))
        if obj != form:
            raise InvalidInput("json.decimal", f"a writer writes a {t} value as {form!r}, not {obj!r}", obj)
    elif isinstance(t, PrimitiveType) and t.name == "uuid" and obj != obj.lower():
        raise InvalidInput("json.uuid", f"a writer stores the lowercase uuid string {obj.lower()!r}", obj)


# --- reading -----------------------------------------------------------------------------------


@implements(*JSON_RULES)
def from_json(t: IcebergType, obj: Any, *, non_finite: Callable[[str, Any], float] | None = None) -> Any:
    """Read one value of type `t` from its Appendix D JSON form (JSON null gives None).

    `non_finite(type_name, obj)`, when given, reads float/double values given as JSON objects
    (the inverse of `to_json`'s hook).
    """
    if obj is None:
        return None
    rule_id = rule_for(t)
    if isinstance(t, StructType):
        return _struct_from_json(t, _expect(rule_id, obj, dict, "a JSON object keyed by field id"), non_finite)
    if isinstance(t, ListType):
        items = _expect(rule_id, obj, list, "a JSON array")
        return [_element(rule_id, t.element, v, t.element_required, "list element", non_finite) for v in items]
    if isinstance(t, MapType):
        return _map_from_json(
            t, _expect(rule_id, obj, dict, 'a JSON object {"keys": [...], "values": [...]}'), non_finite
        )
    assert isinstance(t, PrimitiveType)
    name = t.name
    if name == "boolean":
        return _expect(rule_id, obj, bool, "a JSON boolean")
    if name in ("int", "long"):
        return _in_range(rule_id, t, _expect(rule_id, obj, int, "a JSON integer"))
    if name in ("float", "double") and isinstance(obj, dict) and non_finite is not None:
        return _in_range(rule_id, t, non_finite(name, obj))
    if name in ("float", "double"):
        number = _expect(rule_id, obj, (int, float), "a JSON number")
        try:
            as_double = float(number)  # an int of 309 or more digits has no double
        except OverflowError:
            raise InvalidInput(rule_id, f"the JSON number is outside the range of a {t}", obj) from None
        if not math.isfinite(as_double):
            raise InvalidInput(rule_id, "NaN and infinities are not JSON numbers", obj)
        return _in_range(rule_id, t, as_double)
    text = _expect(rule_id, obj, str, "a JSON string")
    if isinstance(t, DecimalType):
        return _decimal_from_json(t, text)
    if name == "date":
        return _in_range(
            rule_id, t, parse_date_match(_match(rule_id, DATE_RE, text, "an ISO-8601 date"), rule_id, text)
        )
    if name == "time":
        return parse_time_match(_match(rule_id, TIME_RE, text, "an ISO-8601 time"), rule_id, text, "us")
    if name in _TIMESTAMPS:
        return _timestamp_from_json(t, rule_id, text)
    if name == "string":
        return _in_range(rule_id, t, text)
    if name == "uuid":
        _match(rule_id, _UUID_TEXT, text, "a UUID string (8-4-4-4-12 hex digits)")
        return uuid.UUID(text)
    if name in ("fixed", "binary"):
        data = bytes.fromhex(_match(rule_id, _HEX_TEXT, text, "a hexadecimal string")[0])
        if isinstance(t, FixedType) and len(data) != t.length:
            raise InvalidInput(rule_id, f"a {t} value has {t.length} bytes, this has {len(data)}", text)
        return data
    from spec_impl.serde.wkt import wkt_to_wkb  # geometry, geography

    return wkt_to_wkb(text)


@implements("json.decimal")
def _decimal_from_json(t: DecimalType, text: str) -> decimal.Decimal:
    _match("json.decimal", _DECIMAL_TEXT, text, "a decimal number string")
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:  # an exponent beyond what any decimal (or Python's) can hold
        raise InvalidInput("json.decimal", f"the exponent of {text!r} is out of range", text) from None
    if -value.as_tuple().exponent != t.scale:
        raise InvalidInput(
            "json.decimal",
            f"the digits of {text!r} give scale {-value.as_tuple().exponent}, {t} has scale {t.scale}",
            text,
        )
    if len(value.as_tuple().digits) > t.precision and value != 0:
        raise InvalidInput("json.decimal", f"{text!r} has more than {t.precision} digits for {t}", text)
    return normalize(t, value)


def _timestamp_from_json(t: PrimitiveType, rule_id: str, text: str) -> int:
    unit, with_zone = _TIMESTAMPS[t.name]
    m = _match(rule_id, TIMESTAMP_RE, text, "an ISO-8601 timestamp")
    offset = m["offset"]
    if with_zone and offset != UTC_OFFSET:
        raise InvalidInput(rule_id, f"a {t} value must end in the offset '{UTC_OFFSET}'", text)
    if not with_zone and offset is not None:
        raise InvalidInput(rule_id, f"a {t} value must not include a zone offset", text)
    per_second = UNIT[unit][0]
    days = parse_date_match(m, rule_id, text)
    return _in_range(rule_id, t, days * 86_400 * per_second + parse_time_match(m, rule_id, text, unit))


@implements("json.struct")
def _struct_from_json(t: StructType, obj: dict, non_finite) -> dict:
    fields = {str(f.id): f for f in t.fields}
    out = {}
    for key, v in obj.items():
        if key not in fields:
            raise InvalidInput("json.struct", f"key {key!r} is not a field id of {t}", obj)
        f = fields[key]
        out[f.id] = _element("json.struct", f.type, v, f.required, f"field {f.id} ({f.name})", non_finite)
    return out


@implements("json.map")
def _map_from_json(t: MapType, obj: dict, non_finite) -> dict:
    if set(obj) != {"keys", "values"} or not all(isinstance(obj[k], list) for k in obj):
        raise InvalidInput("json.map", 'a map is a JSON object with exactly the arrays "keys" and "values"', obj)
    keys, values = obj["keys"], obj["values"]
    if len(keys) != len(values):
        raise InvalidInput("json.map", f"{len(keys)} keys but {len(values)} values", obj)
    out = {}
    for k, v in zip(keys, values):
        key = _element("json.map", t.key, k, True, "map key", non_finite)
        if key in out:
            raise InvalidInput("json.map", "duplicate map key", k)
        out[key] = _element("json.map", t.value, v, t.value_required, "map value", non_finite)
    return out


def _element(rule_id: str, t: IcebergType, obj: Any, required: bool, what: str, non_finite=None) -> Any:
    if obj is None and required:
        raise InvalidInput(rule_id, f"{what} is required and cannot be null")
    return from_json(t, obj, non_finite=non_finite)


def _expect(rule_id: str, obj: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if not isinstance(obj, kind) or (isinstance(obj, bool) and kind is not bool):
        raise InvalidInput(rule_id, f"expected {what}", obj)
    return obj


def _match(rule_id: str, pattern: re.Pattern, text: str, what: str) -> re.Match:
    m = pattern.fullmatch(text)
    if m is None:
        raise InvalidInput(rule_id, f"expected {what}", text)
    return m


def _in_range(rule_id: str, t: IcebergType, value: Any) -> Any:
    """normalize(), re-raised under the JSON rule so the error names the serialization at fault."""
    try:
        return normalize(t, value)
    except InvalidInput as e:
        raise InvalidInput(rule_id, str(e), value) from None
