"""Appendix B: the 32-bit hash of a single value of each type.

The hash is Murmur3 x86 32-bit with seed 0 (`mmh3`), over the bytes that Appendix B names per type.
`hash_bytes_of` is that byte table; `hash_value` hashes. Results are signed 32-bit ints, as in the
spec's test values.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import mmh3

from spec_impl import revisions
from spec_impl.errors import NotDefined
from spec_impl.rules import implements
from spec_impl.temporal import to_micros
from spec_impl.types import DecimalType, IcebergType, PrimitiveType
from spec_impl.values import normalize, unscaled_value

CANONICAL_NAN_BITS = 0x7FF8000000000000

# Appendix B rows: type name -> rule id. The integer-like rows all hash as hashLong.
_LONG_HASHED = {
    "int": "hash.integer",
    "long": "hash.integer",
    "date": "hash.date",
    "time": "hash.time",
    "timestamp": "hash.timestamp",
    "timestamptz": "hash.timestamp",
}
_BYTES_HASHED = {"fixed": "hash.bytes", "binary": "hash.bytes", "string": "hash.string", "uuid": "hash.uuid"}


def murmur3_32(data: bytes) -> int:
    """Murmur3 x86 32-bit, seed 0, as a signed int."""
    return mmh3.hash(data, 0, signed=True)


def hash_long(v: int) -> int:
    """hashLong: the hash of the 8-byte little-endian two's-complement long (hashInt widens to it)."""
    return murmur3_32(struct.pack("<q", v))


def min_big_endian(unscaled: int) -> bytes:
    """The minimum-length two's-complement big-endian bytes of an integer (0 is one zero byte)."""
    length = (unscaled + (unscaled < 0)).bit_length() // 8 + 1
    return unscaled.to_bytes(length, "big", signed=True)


def double_to_long_bits(v: float) -> int:
    """Java's doubleToLongBits with Appendix B note 4: NaN is canonical and -0.0 becomes 0.0."""
    if math.isnan(v):
        return CANONICAL_NAN_BITS
    return struct.unpack("<q", struct.pack("<d", v + 0.0))[0]  # -0.0 + 0.0 == 0.0


@implements("hash.undefined")
def rule_for(t: IcebergType, revision: str = revisions.DEFAULT) -> str:
    """The Appendix B rule id that hashes values of `t`; NotDefined where the spec has none."""
    name = getattr(t, "name", None)
    if name in _LONG_HASHED:
        return _LONG_HASHED[name]
    if name in _BYTES_HASHED:
        return _BYTES_HASHED[name]
    if name in ("timestamp_ns", "timestamptz_ns"):
        return "hash.timestamp-ns"
    if isinstance(t, DecimalType):
        return "hash.decimal"
    if name == "boolean":
        return "hash.boolean"
    if name in ("float", "double"):
        return "hash.floating"
    if name == "unknown" and revisions.has(revision, revisions.V3_ADOPTED):
        return "hash.unknown"
    raise NotDefined("hash.undefined", f"Appendix B defines no hash for {t} ({revision})", str(t))


@implements(
    "hash.boolean",
    "hash.bytes",
    "hash.date",
    "hash.decimal",
    "hash.floating",
    "hash.integer",
    "hash.string",
    "hash.time",
    "hash.timestamp",
    "hash.timestamp-ns",
    "hash.unknown",
    "hash.uuid",
)
def hash_value(t: IcebergType, value: Any, revision: str = revisions.DEFAULT) -> int | None:
    """The Appendix B hash of `value` of type `t`; None for a null value (and for `unknown`).

    timestamp_ns/timestamptz_ns depend on the revision: the seed text hashes nanoseconds, the
    adopted spec hashes floor(nanos / 1000) so that the result equals the microsecond hash.
    """
    revisions.check(revision)
    rule_id = rule_for(t, revision)
    value = normalize(t, value)
    if value is None or rule_id == "hash.unknown":
        return None
    assert isinstance(t, PrimitiveType)
    if rule_id in ("hash.integer", "hash.date", "hash.time", "hash.timestamp"):
        return hash_long(value)
    if rule_id == "hash.timestamp-ns":
        return hash_long(to_micros(value, "ns") if revisions.has(revision, revisions.V3_ADOPTED) else value)
    if rule_id == "hash.decimal":
        return murmur3_32(min_big_endian(unscaled_value(t, value)))
    if rule_id == "hash.string":
        return murmur3_32(value.encode("utf-8"))
    if rule_id == "hash.uuid":
        return murmur3_32(value.bytes)
    if rule_id == "hash.bytes":
        return murmur3_32(value)
    if rule_id == "hash.boolean":
        return hash_long(1 if value else 0)
    return hash_long(double_to_long_bits(value))  # hash.floating: float is widened to double
