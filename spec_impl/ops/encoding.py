"""How vector files carry values: Appendix D JSON single values, plus two object forms.

A value of type T in a vector file is its Appendix D JSON single value, except:

- a float or double that JSON cannot carry exactly is `{"ieee754": "<hex bits>"}` (8 hex digits
  for float, 16 for double): NaNs (with their payload, signalling NaNs too) and infinities;
- (case inputs only, never outputs) a decimal given with an exponent other than its type's scale
  is `{"decimal": "<text>"}`: the decimal number `<text>` with the exponent its spelling gives
  (`"1E+2"`, `"100"`, `"100.000"`), as Python's `decimal.Decimal(text)` or Java's
  `new BigDecimal(text)` read it. The Appendix D string form cannot say this, since its digits
  must give the scale. `decode` returns that Decimal as it is (exponent kept), so the case tests
  that an implementation brings it to the type's scale; only a top-level value of a decimal type
  takes this form.

Values of types without a JSON form (binary-only tests of `unknown`, `variant`) never appear.
`null` is null.

Floats compare by their bits (so 0.0 and -0.0 differ, and a NaN equals a NaN with the same bits).
"""

from __future__ import annotations

import decimal
import re
import struct
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.serde import json_value
from spec_impl.types import DecimalType, IcebergType, ListType, MapType, StructType, parse_type
from spec_impl.values import float32_bits, float32_from_bits

_DECIMAL_FORM = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")

_FLOAT_FORMATS = {"float": ("<f", "<I", 8), "double": ("<d", "<Q", 16)}


def encode(t: IcebergType | str, value: Any) -> Any:
    """The vector form of a physical value."""
    return json_value.to_json(parse_type(t), value, non_finite=lambda name, v: {"ieee754": float_bits(name, v)})


def decode(t: IcebergType | str, obj: Any) -> Any:
    """The physical value of a vector form (a `{"decimal": ...}` input: the Decimal as written)."""
    t = parse_type(t)
    if isinstance(t, DecimalType) and isinstance(obj, dict):
        return decimal_form(obj)
    return json_value.from_json(t, obj, non_finite=_read_bits)


def decimal_form(obj: dict) -> decimal.Decimal:
    """The Decimal of a `{"decimal": "<text>"}` input, with the exponent its text gives."""
    text = obj.get("decimal")
    if set(obj) != {"decimal"} or not isinstance(text, str) or _DECIMAL_FORM.fullmatch(text) is None:
        raise InvalidInput("json.decimal", 'a decimal object must be {"decimal": "<decimal number>"}', obj)
    return decimal.Decimal(text)


def _read_bits(name: str, obj: Any) -> float:
    if set(obj) != {"ieee754"} or not isinstance(obj["ieee754"], str):
        raise InvalidInput(
            json_value.rule_for(parse_type(name)), 'a float object must be {"ieee754": "<hex bits>"}', obj
        )
    return bits_to_float(name, obj["ieee754"])


def float_bits(name: str, value: float) -> str:
    """The IEEE 754 bits of a float (32-bit, a NaN's payload kept) or double, in hex."""
    if name == "float":
        return f"{float32_bits(value):08x}"
    packed, unpacked, digits = _FLOAT_FORMATS[name]
    return f"{struct.unpack(unpacked, struct.pack(packed, value))[0]:0{digits}x}"


def bits_to_float(name: str, bits: str) -> float:
    """The value of IEEE 754 bits in hex: 8 digits for float (exactly, payload kept), 16 for double."""
    packed, unpacked, digits = _FLOAT_FORMATS[name]
    if len(bits) != digits or re.fullmatch(r"[0-9a-fA-F]+", bits) is None:
        raise InvalidInput(
            json_value.rule_for(parse_type(name)), f"ieee754 bits of a {name} are {digits} hex digits", bits
        )
    if name == "float":
        return float32_from_bits(int(bits, 16))
    return struct.unpack(packed, struct.pack(unpacked, int(bits, 16)))[0]


def same_value(t: IcebergType | str, a: Any, b: Any) -> bool:
    """Equality of physical values, floats by bits (recursively through nested values)."""
    t = parse_type(t)
    name = getattr(t, "name", None)
    if a is None or b is None:
        return a is None and b is None
    if name in _FLOAT_FORMATS:
        return isinstance(b, float) and float_bits(name, a) == float_bits(name, b)
    if isinstance(t, StructType):  # a field left out is a null field: the struct value is the same
        return all(same_value(t.field(k).type, a.get(k), b.get(k)) for k in a.keys() | b.keys())
    if isinstance(t, ListType):
        return len(a) == len(b) and all(same_value(t.element, x, y) for x, y in zip(a, b))
    if isinstance(t, MapType):
        return a.keys() == b.keys() and all(same_value(t.value, a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b
