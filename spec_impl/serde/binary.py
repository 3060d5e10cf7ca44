"""Appendix D, binary single-value serialization: the bytes of lower and upper bounds.

`to_binary(t, value)` and `from_binary(t, data)` are inverses on valid values. `from_binary` also
reads bounds written before a type promotion (adopted digest §1.1, rule binary.promoted-bound): a
4-byte `long` bound is an int, a 4-byte `double` bound a float, and a 4-byte `timestamp` /
`timestamp_ns` bound a date.
"""

from __future__ import annotations

import struct
import uuid
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.hashing import min_big_endian
from spec_impl.rules import implements
from spec_impl.temporal import MICROS_PER_DAY, NANOS_PER_MICRO
from spec_impl.types import DecimalType, FixedType, IcebergType, PrimitiveType
from spec_impl.values import (
    LONG_RANGE,
    decimal_from_unscaled,
    float32_bits,
    float32_from_bits,
    normalize,
    unscaled_value,
)

# type name -> (struct format, rule id) for the fixed-width little-endian rows of the table
FIXED_WIDTH = {
    "int": "<i",
    "date": "<i",
    "long": "<q",
    "time": "<q",
    "timestamp": "<q",
    "timestamptz": "<q",
    "timestamp_ns": "<q",
    "timestamptz_ns": "<q",
    "float": "<f",
    "double": "<d",
}
_RAW_BYTES = {"fixed": "binary.bytes", "binary": "binary.bytes", "geometry": "binary.geo", "geography": "binary.geo"}


@implements("binary.undefined")
def rule_for(t: IcebergType) -> str:
    """The Appendix D binary rule for type `t`; NotDefined for types without a binary form."""
    name = getattr(t, "name", None)
    if not isinstance(t, PrimitiveType) or name in ("unknown", "variant"):
        raise NotDefined("binary.undefined", f"Appendix D defines no binary single value for {t}", str(t))
    if name in FIXED_WIDTH:
        return "binary.fixed-width"
    return {
        "boolean": "binary.boolean",
        "decimal": "binary.decimal",
        "string": "binary.string",
        "uuid": "binary.uuid",
    }.get(name) or _RAW_BYTES[name]


BINARY_RULES = (  # the rules the serializers implement, type by type
    "binary.boolean",
    "binary.bytes",
    "binary.decimal",
    "binary.fixed-width",
    "binary.geo",
    "binary.string",
    "binary.undefined",
    "binary.uuid",
)


@implements(*BINARY_RULES)
def to_binary(t: IcebergType, value: Any) -> bytes:
    """Serialize one non-null value of type `t` to its Appendix D bytes."""
    rule_id = rule_for(t)
    value = normalize(t, value)
    if value is None:
        raise InvalidInput(rule_id, "null has no binary single-value form (bounds are never null)")
    name = t.name  # type: ignore[attr-defined]
    if name == "float":  # the 32 bits themselves: a NaN keeps its payload (float32_bits)
        return struct.pack("<I", float32_bits(value))
    if name in FIXED_WIDTH:
        return struct.pack(FIXED_WIDTH[name], value)
    if name == "boolean":
        return b"\x01" if value else b"\x00"
    if isinstance(t, DecimalType):
        return min_big_endian(unscaled_value(t, value))
    if name == "string":
        return value.encode("utf-8")
    if name == "uuid":
        return value.bytes
    return value  # fixed, binary, geometry, geography: the bytes themselves


@implements("value.decimal", *BINARY_RULES)
def from_binary(t: IcebergType, data: bytes, revision: str = revisions.DEFAULT) -> Any:
    """Deserialize Appendix D bytes as a value of type `t`, rejecting lengths the type cannot have."""
    rule_id = rule_for(t)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidInput(rule_id, "binary single values are bytes", data)
    data = bytes(data)
    name = t.name  # type: ignore[attr-defined]
    if name in FIXED_WIDTH:
        promoted = _from_promoted_bound(name, data, revision)
        if promoted is not None:
            return promoted
        _check_length(rule_id, t, data, struct.calcsize(FIXED_WIDTH[name]))
        if name == "float":
            return float32_from_bits(struct.unpack("<I", data)[0])
        return normalize(t, struct.unpack(FIXED_WIDTH[name], data)[0])
    if name == "boolean":
        _check_length(rule_id, t, data, 1)
        return data != b"\x00"
    if isinstance(t, DecimalType):
        if not data:
            raise InvalidInput(rule_id, "a decimal needs at least one byte", data.hex())
        unscaled = int.from_bytes(data, "big", signed=True)
        if abs(unscaled) >= 10**t.precision:  # checked before the digits are spelled out
            raise InvalidInput(
                "value.decimal",
                f"{len(data)} bytes hold an unscaled value of more than {t.precision} digits for {t}",
                data.hex() if len(data) <= 64 else f"{data[:32].hex()}... ({len(data)} bytes)",
            )
        return normalize(t, decimal_from_unscaled(unscaled, t.scale))
    if name == "string":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidInput(rule_id, f"not valid UTF-8 ({e.reason} at byte {e.start})", data.hex()) from None
    if name == "uuid":
        _check_length(rule_id, t, data, 16)
        return uuid.UUID(bytes=data)
    if isinstance(t, FixedType):
        _check_length(rule_id, t, data, t.length)
    return data


@implements("binary.promoted-bound", "value.range")
def _from_promoted_bound(name: str, data: bytes, revision: str) -> Any:
    """A 4-byte bound of a promoted type, read with the type it was written with; else None.

    int -> long and float -> double always fit. date -> timestamp / timestamp_ns (adopted v3)
    multiplies the days by the micro- or nanoseconds of a day, which leaves the long range for
    dates beyond about ±292,000 years (µs) or outside 1677-09-22 .. 2262-04-11 (ns): such a bound
    is rejected (rule value.range), never wrapped or returned as an out-of-range value.
    """
    if len(data) != 4 or name not in ("long", "double", "timestamp", "timestamp_ns"):
        return None
    if name == "long":  # int -> long, a promotion of every format version
        return struct.unpack("<i", data)[0]
    if name == "double":  # float -> double, likewise; a NaN keeps its payload
        return float32_from_bits(struct.unpack("<I", data)[0])
    if not revisions.has(revision, revisions.V3_ADOPTED):  # date -> timestamp(_ns) exists only in the adopted v3
        return None
    days = struct.unpack("<i", data)[0]
    value = days * MICROS_PER_DAY * (NANOS_PER_MICRO if name == "timestamp_ns" else 1)
    if not LONG_RANGE[0] <= value <= LONG_RANGE[1]:
        raise InvalidInput(
            "value.range",
            f"the 4-byte {name} bound {data.hex()} is the date {days} days from the epoch, "
            f"whose {name} value {value} lies outside the long range",
            days,
        )
    return value


def _check_length(rule_id: str, t: IcebergType, data: bytes, expected: int) -> None:
    if len(data) != expected:
        raise InvalidInput(rule_id, f"a {t} value takes {expected} bytes, not {len(data)}", data.hex())
