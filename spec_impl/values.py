"""The physical value model: which Python value stands for a value of each Iceberg type.

Spec: Primitive Types (ranges and precisions) and Appendix D (physical representation).

| type                                   | Python value                                  |
|----------------------------------------|-----------------------------------------------|
| boolean                                | bool                                          |
| int, date (days)                       | int in the 32-bit signed range                |
| long, time (µs from midnight), timestamp, timestamptz (µs), timestamp_ns, timestamptz_ns (ns) | int in the 64-bit signed range |
| float, double                          | float (float values are rounded to 32 bits)   |
| decimal(P, S)                          | decimal.Decimal with exponent -S, at most P digits |
| string                                 | str (valid Unicode, no lone surrogates)       |
| uuid                                   | uuid.UUID                                     |
| fixed[L], binary, geometry, geography  | bytes (WKB for the geo types)                 |
| struct                                 | dict: field id -> value                       |
| list                                   | list                                          |
| map                                    | dict: key -> value                            |
| unknown                                | None only                                     |

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
from spec_impl.types import (DecimalType, FixedType, IcebergType, ListType, MapType, PrimitiveType,
                             StructType)  # fmt: skip

INT_RANGE = (-(2**31), 2**31 - 1)
LONG_RANGE = (-(2**63), 2**63 - 1)
_INT_TYPES = {"int": INT_RANGE, "date": INT_RANGE, "long": LONG_RANGE, "timestamp": LONG_RANGE,
              "timestamptz": LONG_RANGE, "timestamp_ns": LONG_RANGE, "timestamptz_ns": LONG_RANGE,
              "time": (0, MICROS_PER_DAY - 1)}  # fmt: skip
_BYTES_TYPES = {"binary", "fixed", "geometry", "geography"}


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
            raise InvalidInput("value.range", f"a {t} value must have exactly {t.length} bytes, not {len(value)}", value.hex())
        return value
    if name == "unknown":
        raise InvalidInput("value.range", "an unknown-typed value is always null", value)
    raise NotDefined("value.range", f"the reference has no value model for {t}", value)


def to_float32(value: float) -> float:
    """Round to the nearest 32-bit float (NaN payloads and signed zeros kept where IEEE keeps them)."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        raise InvalidInput("value.range", "value is outside the range of a 32-bit float", value) from None


def normalize_decimal(t: DecimalType, value: Any) -> decimal.Decimal:
    """A finite Decimal with exponent exactly -S (no rounding) and at most P digits."""
    if not isinstance(value, decimal.Decimal) or not value.is_finite():
        raise InvalidInput("value.decimal", f"a {t} value must be a finite decimal.Decimal", value)
    unscaled = unscaled_value(t, value)
    if len(str(abs(unscaled))) > t.precision and unscaled != 0:
        raise InvalidInput("value.decimal", f"{value} has more than {t.precision} digits for {t}", value)
    return decimal_from_unscaled(unscaled, t.scale)


def decimal_from_unscaled(unscaled: int, scale: int) -> decimal.Decimal:
    """unscaled * 10**-scale, built exactly (Decimal arithmetic would round to 28 digits)."""
    return decimal.Decimal((int(unscaled < 0), tuple(int(d) for d in str(abs(unscaled))), -scale))


def unscaled_value(t: DecimalType, value: decimal.Decimal) -> int:
    """The integer u with value == u * 10**-S; rejects values that need rounding."""
    sign, digits, exponent = value.as_tuple()
    u = int("".join(map(str, digits)) or "0")
    shift = exponent + t.scale  # value = u * 10**exponent = (u * 10**shift) * 10**-S
    if shift >= 0:
        u *= 10**shift
    else:
        u, rest = divmod(u, 10**-shift)
        if rest:
            raise InvalidInput("value.decimal", f"{value} does not fit the scale {t.scale} of {t} without rounding", value)
    return -u if sign else u


def _normalize_struct(t: StructType, value: Any) -> dict:
    _expect(t, value, dict)
    known = {f.id: f for f in t.fields}
    unknown_ids = [k for k in value if k not in known]
    if unknown_ids:
        raise InvalidInput("value.range", f"struct value has ids {unknown_ids} that are not fields of {t}", value)
    return {fid: normalize(known[fid].type, v) for fid, v in value.items()}


def _expect(t: IcebergType, value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise InvalidInput("value.range", f"a {t} value must be a Python {names}", value)
    return value


def is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)
