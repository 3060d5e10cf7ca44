"""The physical value model: which Python value stands for a value of each Iceberg type.

Spec: Primitive Types (ranges and precisions) and Appendix D (physical representation).

Type: Python value.

- boolean: bool
- int, date (days): int in the 32-bit signed range
- long, time (µs from midnight), timestamp, timestamptz (µs), timestamp_ns, timestamptz_ns (ns): int in the 64-bit
  signed range
- float, double: float (float values are rounded to 32 bits)
- decimal(P, S): decimal.Decimal with exponent -S, at most P digits
- string: str (valid Unicode, no lone surrogates)
- uuid: uuid.UUID
- fixed[L], binary, geometry, geography: bytes (WKB for the geo types)
- struct: dict: field id -> value
- list: list
- map: dict: key -> value
- unknown: None only

`None` is null for every type. `normalize` checks a value and returns its canonical form.
"""

from __future__ import annotations

import decimal
import math
import struct
import uuid
from typing import Any

from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.temporal import MICROS_PER_DAY
from spec_impl.types import DecimalType, FixedType, IcebergType, ListType, MapType, PrimitiveType, StructType
from spec_impl.rules import implements

INT_RANGE = (-(2**31), 2**31 - 1)
LONG_RANGE = (-(2**63), 2**63 - 1)
_INT_TYPES = {
    "int": INT_RANGE,
    "date": INT_RANGE,
    "long": LONG_RANGE,
    "timestamp": LONG_RANGE,
    "timestamptz": LONG_RANGE,
    "timestamp_ns": LONG_RANGE,
    "timestamptz_ns": LONG_RANGE,
    "time": (0, MICROS_PER_DAY - 1),
}
_BYTES_TYPES = {"binary", "fixed", "geometry", "geography"}


@implements("value.range")
def normalize(t: IcebergType, value: Any) -> Any:
    """Check that `value` is a valid physical value of `t` and return its canonical form."""
    if value is None:
        return None
    if isinstance(t, StructType):
        return _normalize_struct(t, value)
    if isinstance(t, ListType):
        _expect(t, value, list)
        return [normalize(t.element, v) for v in value]
    if isinstance(t, MapType):
        _expect(t, value, dict)
        return {normalize(t.key, k): normalize(t.value, v) for k, v in value.items()}
    assert isinstance(t, PrimitiveType)
    name = t.name
    if name in _INT_TYPES:
        _expect(t, value, int)
        low, high = _INT_TYPES[name]
        if not low <= value <= high:
            raise InvalidInput("value.range", f"{t} value must lie in [{low}, {high}]", value)
        return value
    if name == "boolean":
        return _expect(t, value, bool)
    if name in ("float", "double"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidInput("value.range", f"a {t} value must be a Python float", value)
        return to_float32(value) if name == "float" else float(value)
    if isinstance(t, DecimalType):
        return normalize_decimal(t, value)
    if name == "string":
        _expect(t, value, str)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput("value.range", "a string must be valid Unicode (no lone surrogates)", value) from None
        return value
    if name == "uuid":
        return _expect(t, value, uuid.UUID)
    if name in _BYTES_TYPES:
        _expect(t, value, (bytes, bytearray, memoryview))
        value = bytes(value)
        if isinstance(t, FixedType) and len(value) != t.length:
            raise InvalidInput(
                "value.range", f"a {t} value must have exactly {t.length} bytes, not {len(value)}", value.hex()
            )
        return value
    if name == "unknown":
        raise InvalidInput("value.range", "an unknown-typed value is always null", value)
    raise NotDefined("value.range", f"the reference has no value model for {t}", value)


def to_float32(value: float) -> float:
    """Round to the nearest 32-bit float; a NaN keeps its sign and payload bits (see float32_bits)."""
    return float32_from_bits(float32_bits(value))


_F32_EXPONENT, _F32_QUIET, _F64_EXPONENT = 0x7F800000, 0x00400000, 0x7FF0000000000000


@implements("value.range")
def float32_bits(value: float) -> int:
    """The bits of the 32-bit float nearest to `value` (Appendix D: float is a 4-byte IEEE 754 value).

    Finite values and infinities round as IEEE 754 narrowing does. A NaN is narrowed bit for bit
    (sign, then the top 23 of the double's 52 payload bits), so a signalling float NaN read from
    4 bytes is written back as the same 4 bytes; C's cast, and so `struct.pack("<f")`, would set
    the quiet bit. A double NaN whose payload lies in the low 29 bits only keeps the quiet bit.
    """
    if math.isnan(value):
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        payload = (bits >> 29) & 0x7FFFFF
        return ((bits >> 32) & 0x80000000) | _F32_EXPONENT | (payload or _F32_QUIET)
    try:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        raise InvalidInput("value.range", "value is outside the range of a 32-bit float", value) from None


def float32_from_bits(bits: int) -> float:
    """The float value of 32 IEEE 754 bits, as a Python float; the inverse of float32_bits.

    A NaN is widened bit for bit (payload shifted into the top of the double's), never quieted,
    so float32_bits(float32_from_bits(b)) == b for every 32-bit pattern b.
    """
    if bits & _F32_EXPONENT == _F32_EXPONENT and bits & 0x7FFFFF:
        wide = ((bits & 0x80000000) << 32) | _F64_EXPONENT | ((bits & 0x7FFFFF) << 29)
        return struct.unpack("<d", struct.pack("<Q", wide))[0]
    return struct.unpack("<f", struct.pack("<I", bits))[0]


@implements("value.decimal")
def normalize_decimal(t: DecimalType, value: Any) -> decimal.Decimal:
    """A finite Decimal with exponent exactly -S (no rounding) and at most P digits.

    Any exponent is accepted on input (Decimal("1E+2"), Decimal("100") and Decimal("100.00") are
    the same decimal(10,2) value); the result always has the type's scale.
    """
    if not isinstance(value, decimal.Decimal) or not value.is_finite():
        raise InvalidInput("value.decimal", f"a {t} value must be a finite decimal.Decimal", value)
    return decimal_from_unscaled(unscaled_value(t, value), t.scale)


def decimal_from_unscaled(unscaled: int, scale: int) -> decimal.Decimal:
    """unscaled * 10**-scale, built exactly (Decimal arithmetic would round to 28 digits)."""
    return decimal.Decimal((int(unscaled < 0), tuple(int(d) for d in str(abs(unscaled))), -scale))


@implements("value.decimal")
def unscaled_value(t: DecimalType, value: decimal.Decimal) -> int:
    """The integer u with value == u * 10**-S and at most P digits; rejects values that need
    rounding or have too many digits (rule value.decimal).

    Works on the digit tuple, so a value of any size or exponent (Decimal("1E+999999999"), 5,000
    digits) is rejected without building a huge integer.
    """
    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):
        raise InvalidInput("value.decimal", f"a {t} value must be a finite decimal.Decimal", value)
    digits = digits[next((i for i, d in enumerate(digits) if d), len(digits)) :]  # without leading zeros
    shift = exponent + t.scale  # value = digits * 10**exponent = (digits * 10**shift) * 10**-S
    if not digits:
        return 0
    if shift < 0:
        kept, dropped = digits[:shift], digits[shift:]
        if any(dropped):
            raise InvalidInput(
                "value.decimal", f"{value} does not fit the scale {t.scale} of {t} without rounding", value
            )
        digits, shift = kept, 0
    if len(digits) + shift > t.precision:
        raise InvalidInput(
            "value.decimal", f"{_short(value)} has more than {t.precision} digits for {t}", _short(value)
        )
    u = int("".join(map(str, digits))) * 10**shift
    return -u if sign else u


def _short(value: decimal.Decimal) -> str:
    """A decimal for a message: in full up to 60 characters, else its first digits and exponent."""
    text = str(value)
    if len(text) <= 60:
        return text
    sign, digits, exponent = value.as_tuple()
    return f"{'-' if sign else ''}{''.join(map(str, digits[:20]))}... ({len(digits)} digits, exponent {exponent})"


@implements("value.range")
def _normalize_struct(t: StructType, value: Any) -> dict:
    _expect(t, value, dict)
    known = {f.id: f for f in t.fields}
    unknown_ids = [k for k in value if k not in known]
    if unknown_ids:
        raise InvalidInput("value.range", f"struct value has ids {unknown_ids} that are not fields of {t}", value)
    return {fid: normalize(known[fid].type, v) for fid, v in value.items()}


@implements("value.range")
def _expect(t: IcebergType, value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise InvalidInput("value.range", f"a {t} value must be a Python {names}", value)
    return value


def is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)
