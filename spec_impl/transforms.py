"""Partition transforms on single values: parsing, source types, result types, and application.

Spec: "Partition Transforms", "Bucket Transform Details", "Truncate Transform Details"; Appendix E
v3 and adopted digest §1.3 for unknown transforms. Values are physical values (`spec_impl.values`).

    >>> apply_transform("bucket[16]", "long", 34)
    3
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.hashing import hash_value
from spec_impl.rules import implements
from spec_impl.temporal import MICROS_PER_DAY, MICROS_PER_HOUR, months_from_epoch_days, to_micros, years_from_epoch_days
from spec_impl.types import DATE, INT, DecimalType, IcebergType, PrimitiveType, parse_type
from spec_impl.values import INT_RANGE, LONG_RANGE, decimal_from_unscaled, normalize, unscaled_value

PARAMETERLESS = ("identity", "year", "month", "day", "hour", "void")
PARAMETERIZED = ("bucket", "truncate")
_PARAM_RULE = {"bucket": "transform.bucket.n", "truncate": "transform.truncate.width"}
MAX_PARAM = 2**31 - 1  # N and W are Java ints in the reference implementation and in the spec's formulas
_PARAM_FORM = re.compile(r"(bucket|truncate)\[([0-9]+)\]", re.ASCII)

TEMPORAL_SOURCES = {"date", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"}
SOURCE_TYPES: dict[str, set[str]] = {  # the "Source types" column; identity and void are special
    "bucket": {
        "int",
        "long",
        "decimal",
        "date",
        "time",
        "timestamp",
        "timestamptz",
        "timestamp_ns",
        "timestamptz_ns",
        "string",
        "uuid",
        "fixed",
        "binary",
    },
    "truncate": {"int", "long", "decimal", "string", "binary"},
    "year": TEMPORAL_SOURCES,
    "month": TEMPORAL_SOURCES,
    "day": TEMPORAL_SOURCES,
    "hour": TEMPORAL_SOURCES - {"date"},
}
_GEO = {"geometry", "geography"}


@dataclass(frozen=True)
class Transform:
    """A parsed transform string. `name` is None for an unknown transform, kept verbatim in `text`."""

    text: str
    name: str | None
    param: int | None = None

    @property
    def is_known(self) -> bool:
        return self.name is not None

    def __str__(self) -> str:
        return self.text


@implements("transform.bucket.n", "transform.parse", "transform.truncate.width", "transform.unknown")
def parse_transform(text: str) -> Transform:
    """Parse a transform string (rule transform.parse).

    The spec's transform strings (Partition Transforms; Appendix C, "Transform or Field | JSON
    representation") are exactly `identity`, `year`, `month`, `day`, `hour`, `void`,
    `bucket[<N>]` and `truncate[<W>]`, lower case, N and W written as decimal digits. A string of
    another form names no transform of the spec: it is an unknown transform, never an error, kept
    verbatim (rule transform.unknown; "All v3 readers are required to read tables with unknown
    transforms, ignoring them"). That covers other spellings of the names (`BUCKET[16]`,
    `Identity`) and parameters that are not decimal digits (`bucket[]`, `bucket[-1]`,
    `bucket[+5]`, `bucket[abc]`, `bucket[ 16 ]`). A string of the spec's form whose number is
    not a positive 32-bit int (`bucket[0]`, `truncate[2147483648]`) names the bucket or truncate
    transform with an impossible parameter, and is rejected (rules transform.bucket.n,
    transform.truncate.width).
    """
    if not isinstance(text, str):
        raise InvalidInput("transform.parse", "a transform must be a string", text)
    if text in PARAMETERLESS:
        return Transform(text, text)
    m = _PARAM_FORM.fullmatch(text)
    if m is None:
        return Transform(text, None)
    name, digits = m[1], m[2].lstrip("0") or "0"
    if len(digits) > len(str(MAX_PARAM)) or not 0 < int(digits) <= MAX_PARAM:
        raise InvalidInput(_PARAM_RULE[name], f"the parameter of {name} must be a positive 32-bit integer", text)
    return Transform(f"{name}[{int(digits)}]", name, int(digits))


def _as_transform(transform: str | Transform) -> Transform:
    return transform if isinstance(transform, Transform) else parse_transform(transform)


@implements("transform.unknown")
def _check_known(t: Transform) -> str:
    if t.name is None:
        raise NotDefined("transform.unknown", "an unknown transform has no value or result type to compute", t.text)
    return t.name


@implements("transform.source-type")
def accepts(transform: str | Transform, source: IcebergType | str, revision: str = revisions.DEFAULT) -> bool:
    """Whether the transform accepts source columns of this type (rule transform.source-type)."""
    t, source = _as_transform(transform), parse_type(source)
    name = _check_known(t)
    type_name = getattr(source, "name", None)
    if name == "void":
        return True
    if name == "identity":
        if not isinstance(source, PrimitiveType) or not source.is_primitive:
            return False
        return not (revisions.has(revision, revisions.V3_ADOPTED) and type_name in _GEO)
    return type_name in SOURCE_TYPES[name]


@implements("transform.result-type")
def result_type(
    transform: str | Transform, source: IcebergType | str, revision: str = revisions.DEFAULT
) -> IcebergType:
    """The result type of the transform for this source type (rule transform.result-type).

    `day` produces int in the seed text and date in the adopted spec (Iceberg Java's DateType).
    """
    revisions.check(revision)
    t, source = _as_transform(transform), parse_type(source)
    _check_source(t, source, revision)
    name = t.name
    if name in ("identity", "void", "truncate"):
        return source
    if name == "day":
        return DATE if revisions.has(revision, revisions.V3_ADOPTED) else INT
    return INT


@implements("transform.source-type")
def _check_source(t: Transform, source: IcebergType, revision: str) -> None:
    if not accepts(t, source, revision):
        raise InvalidInput(
            "transform.source-type", f"{t.text} does not accept source type {source} ({revision})", str(source)
        )


@implements("transform.null", "transform.void")
def apply_transform(
    transform: str | Transform, source: IcebergType | str, value: Any, revision: str = revisions.DEFAULT
) -> Any:
    """Apply a transform to one physical value of type `source`; null gives null (transform.null)."""
    revisions.check(revision)
    t, source = _as_transform(transform), parse_type(source)
    _check_source(t, source, revision)
    value = normalize(source, value)
    if value is None or t.name == "void":
        return None
    return _APPLY[t.name](t, source, value, revision)  # type: ignore[index]


@implements("transform.identity")
def _identity(t: Transform, source: IcebergType, value: Any, revision: str) -> Any:
    return value


@implements("transform.bucket")
def _bucket(t: Transform, source: IcebergType, value: Any, revision: str) -> int:
    """(murmur3_x86_32_hash(x) & Integer.MAX_VALUE) % N, with the Appendix B hash of the type."""
    return (hash_value(source, value, revision) & 0x7FFFFFFF) % t.param


@implements("transform.overflow")
@implements(
    "transform.truncate.binary", "transform.truncate.decimal", "transform.truncate.integer", "transform.truncate.string"
)
def _truncate(t: Transform, source: IcebergType, value: Any, revision: str) -> Any:
    name, width = source.name, t.param  # type: ignore[attr-defined]
    if name in ("int", "long"):
        result = value - value % width  # Python's % already has the sign of the (positive) width
        low, high = INT_RANGE if name == "int" else LONG_RANGE
        if not low <= result <= high:
            raise InvalidInput(
                "transform.overflow", f"truncate[{width}] of {value} is outside the range of {name}", value
            )
        return result
    if isinstance(source, DecimalType):
        unscaled = unscaled_value(source, value)
        result = unscaled - unscaled % width
        if len(str(abs(result))) > source.precision:
            raise InvalidInput(
                "transform.overflow", f"truncate[{width}] of {value} has more digits than {source}", value
            )
        return decimal_from_unscaled(result, source.scale)
    return value[:width]  # string: code points (Python str indexing); binary: bytes


@implements("transform.overflow")
@implements("transform.year", "transform.month", "transform.day", "transform.hour")
def _temporal(t: Transform, source: IcebergType, value: Any, revision: str) -> int:
    name = source.name  # type: ignore[attr-defined]
    if name == "date":
        days, micros = value, value * MICROS_PER_DAY
    else:
        micros = to_micros(value, "ns" if name.endswith("_ns") else "us")
        days = micros // MICROS_PER_DAY
    if t.name == "year":
        return years_from_epoch_days(days)
    if t.name == "month":
        return months_from_epoch_days(days)
    if t.name == "day":
        return days
    hours = micros // MICROS_PER_HOUR
    if not INT_RANGE[0] <= hours <= INT_RANGE[1]:
        raise InvalidInput("transform.overflow", f"hour of {value} is {hours}, outside the int result type", value)
    return hours


_APPLY = {
    "identity": _identity,
    "bucket": _bucket,
    "truncate": _truncate,
    "year": _temporal,
    "month": _temporal,
    "day": _temporal,
    "hour": _temporal,
}

RULE_OF = {
    "identity": "transform.identity",
    "void": "transform.void",
    "bucket": "transform.bucket",
    "year": "transform.year",
    "month": "transform.month",
    "day": "transform.day",
    "hour": "transform.hour",
}


def rule_for(transform: str | Transform, source: IcebergType | str) -> str:
    """The rule id that computes this transform on this source type."""
    t, source = _as_transform(transform), parse_type(source)
    name = _check_known(t)
    if name != "truncate":
        return RULE_OF[name]
    kind = getattr(source, "name", "")
    return {
        "int": "transform.truncate.integer",
        "long": "transform.truncate.integer",
        "decimal": "transform.truncate.decimal",
        "string": "transform.truncate.string",
        "binary": "transform.truncate.binary",
    }.get(kind, "transform.source-type")
