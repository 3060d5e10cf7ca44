"""The rule × type table: for each rule that takes a source type, which primitive types it applies
to, and which kinds of value (negative, zero, extreme, null, NaN, empty) its vectors give it.

Spec: "Partition Transforms" (the source types of each transform), Appendix B (the hashed types),
"Manifests" (bounds and counts of every primitive column), "Scan Planning" (pruning and
projection by the transform's source type), "Delete Formats" (equality deletes by column type). A
cell is (rule, type, kind of value); `empty_cells` names each cell the vectors leave empty, so a
type a rule applies to is never silently untested at its edges.

    >>> value_kind("int", -2147483648)
    'extreme'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from spec_impl import revisions, transforms
from spec_impl.errors import SpecError
from spec_impl.hashing import rule_for as hash_rule
from spec_impl.types import DecimalType, parse_type
from spec_impl.values import INT_RANGE, LONG_RANGE
from spec_impl.ops import encoding

# The primitive types, one of each parameterized kind (a cell's type is its base name).
TYPES = (
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "decimal(9, 2)",
    "date",
    "time",
    "timestamp",
    "timestamptz",
    "timestamp_ns",
    "timestamptz_ns",
    "string",
    "uuid",
    "fixed[4]",
    "binary",
)
_NUMBERS = ("null", "negative", "zero", "extreme")
_TEMPORAL = ("null", "negative", "zero", "extreme")
KINDS: dict[str, tuple[str, ...]] = {  # the kinds of value each type has (a cell per kind)
    "boolean": ("null", "false", "true"),
    "int": _NUMBERS,
    "long": _NUMBERS,
    "float": (*_NUMBERS, "nan"),
    "double": (*_NUMBERS, "nan"),
    "decimal": _NUMBERS,
    "date": _TEMPORAL,
    "time": ("null", "zero", "extreme"),
    "timestamp": _TEMPORAL,
    "timestamptz": _TEMPORAL,
    "timestamp_ns": _TEMPORAL,
    "timestamptz_ns": _TEMPORAL,
    "string": ("null", "empty", "multi-byte"),
    "uuid": ("null", "zero", "extreme"),
    "fixed": ("null", "zero", "extreme"),
    "binary": ("null", "empty", "extreme"),
}
_INTEGER_LIMITS = {"int": INT_RANGE, "long": LONG_RANGE}
_YEAR = re.compile(r"^(-?\+?\d+)-")


def base(type_text: str) -> str:
    """The type's base name: `decimal(9, 2)` is decimal, `fixed[4]` fixed."""
    return re.split(r"[(\[]", str(type_text), maxsplit=1)[0].strip()


def value_kind(type_text: str, vector_value: Any) -> str | None:
    """The kind of a vector value of the type (None: an ordinary value, no edge of the type).

    extreme: an integer at its type's limit, an infinity, a decimal using all its precision, a
    date or timestamp in or outside years 1 and 9999, a nanosecond one within a day of its long's
    limits, the last time of day, the all-ones uuid or fixed, bytes of 0xff; multi-byte: a string
    with a character outside ASCII."""
    if vector_value is None:
        return "null"
    kind = base(type_text)
    if kind in ("timestamp_ns", "timestamptz_ns") and _near_long_limit(type_text, vector_value):
        return "extreme"
    if kind in ("date", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns", "time"):
        return _temporal_kind(kind, vector_value)
    try:
        value = encoding.decode(type_text, vector_value)
    except (SpecError, TypeError, ValueError):
        return None
    if kind == "boolean":
        return "true" if value else "false"
    if kind in _INTEGER_LIMITS:
        return "extreme" if value in _INTEGER_LIMITS[kind] else _sign(value)
    if kind in ("float", "double"):
        if value != value:
            return "nan"
        return "extreme" if value in (float("inf"), float("-inf")) else _sign(value)
    if kind == "decimal":
        t = parse_type(type_text)
        digits = len(Decimal(value).as_tuple().digits)
        return "extreme" if isinstance(t, DecimalType) and digits >= t.precision and value != 0 else _sign(value)
    if kind == "string":
        return "empty" if value == "" else ("multi-byte" if not value.isascii() else None)
    if kind in ("uuid", "fixed", "binary"):
        raw = value.bytes if kind == "uuid" else bytes(value)
        if not raw:
            return "empty"
        return "zero" if set(raw) == {0} else ("extreme" if set(raw) == {0xFF} else None)
    return None


def _sign(value: Any) -> str | None:
    if value == 0:
        return "zero"  # -0.0 too
    return "negative" if value < 0 else None


_DAY_NS = 86_400 * 10**9


def _near_long_limit(type_text: str, vector_value: Any) -> bool:
    """A nanosecond timestamp within a day of its long's limits."""
    try:
        nanos = encoding.decode(type_text, vector_value)
    except (SpecError, TypeError, ValueError):
        return False
    return isinstance(nanos, int) and abs(nanos) >= 2**63 - _DAY_NS


def _temporal_kind(kind: str, text: Any) -> str | None:
    """A temporal value by its JSON text: before the epoch, at it, or at the calendar's ends."""
    if not isinstance(text, str):
        return None
    if kind == "time":
        return "zero" if text.strip("0:.") == "" else ("extreme" if text.startswith("23:59:59.999999") else None)
    year = _YEAR.match(text)
    if year is None:
        return None
    y = int(year.group(1))
    if y < 1 or y > 9999 or text.startswith(("0001-01-01", "9999-12-31")):
        return "extreme"
    if text.startswith("1970-01-01") and text[10:].strip("T0:.+-") in ("", "Z"):
        return "zero"
    return "negative" if y < 1970 else None


def applies(rule: str, type_text: str) -> bool:
    """Whether the rule takes the type as its source type (the spec's tables)."""
    family, _, name = rule.partition(".")
    if family in ("transform", "projection"):
        text = f"{name}[4]" if name in transforms.PARAMETERIZED else name
        return transforms.accepts(text, type_text, revisions.V3_ADOPTED)
    if family == "hash":
        try:
            hash_rule(parse_type(type_text), revisions.V3_ADOPTED)
        except SpecError:
            return False
        return base(type_text) != "unknown"
    if family == "deletes":  # "float and double columns cannot be delete columns"
        return base(type_text) not in ("float", "double")
    return True  # bounds, counts, summaries, tuples and pruning take every primitive


_TRANSFORMS = ("identity", "bucket", "truncate", "year", "month", "day", "hour", "void")
RULES = (
    *(f"transform.{t}" for t in _TRANSFORMS),
    "hash.appendix-b",
    "bounds.column-metrics",
    "bounds.partition-summaries",
    "partition.tuple",
    "pruning.metrics",
    "pruning.predicate",
    "deletes.equality",
    *(f"projection.{t}" for t in _TRANSFORMS if t != "void"),
)


NEVER_NULL = frozenset({"hash.appendix-b"})  # Appendix B hashes values: bucket returns null before hashing


def table_rows() -> Iterator[tuple[str, str, str]]:
    """Every cell the table must fill: (rule, type base name, kind)."""
    for rule in RULES:
        for t in TYPES:
            if applies(rule, t):
                for kind in KINDS[base(t)]:
                    if not (kind == "null" and rule in NEVER_NULL):
                        yield rule, base(t), kind


def case_cells(case: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """The cells one vector case fills."""
    op, inp = case["op"], case.get("input", {})
    if op == "transform":
        yield from _transform_cells(inp)
    elif op == "hash":
        yield from _cells("hash.appendix-b", inp.get("type"), [inp.get("value")])
    elif op in ("column-metrics", "check-column-metrics"):
        yield from _cells("bounds.column-metrics", inp.get("type"), inp.get("values", []))
    elif op in ("partition-summaries", "check-partition-summaries"):
        for i, t in enumerate(inp.get("types", [])):
            yield from _cells("bounds.partition-summaries", t, [p[i] for p in inp.get("partitions", []) if i < len(p)])
    elif op in ("partition-tuple", "check-partition-tuple"):
        types = _schema_types(inp.get("schema"))
        for row in inp.get("rows", []):
            for name, value in row.items():
                yield from _cells("partition.tuple", types.get(name), [value])
    elif op == "apply-equality-deletes":
        types = _schema_types(inp.get("schema"))
        for row in inp.get("delete-rows", []):
            for name, value in row.items():
                yield from _cells("deletes.equality", types.get(name), [value])
    elif op == "evaluate-metrics":
        yield from _predicate_cells("pruning.metrics", inp, _schema_types(inp.get("schema")))
    elif op == "evaluate-predicate":
        types = _schema_types(inp.get("schema"))
        yield from _predicate_cells("pruning.predicate", inp, types)
    elif op == "project-predicate":
        types = _schema_types(inp.get("schema"))
        for field in inp.get("spec", []):
            name = _transform_name(field.get("transform"))
            if name and name != "void":
                yield from _predicate_cells(f"projection.{name}", inp, types, only=field.get("source"))


def _transform_name(text: Any) -> str | None:
    try:
        return transforms.parse_transform(text).name
    except (SpecError, TypeError, AttributeError):
        return None


def _transform_cells(inp: dict) -> Iterator[tuple[str, str, str]]:
    name = _transform_name(inp.get("transform"))
    if name is not None:
        yield from _cells(f"transform.{name}", inp.get("type"), [inp.get("value")])


def _cells(rule: str, type_text: Any, values: Iterable[Any]) -> Iterator[tuple[str, str, str]]:
    if not isinstance(type_text, str) or base(type_text) not in KINDS:
        return
    for v in values:
        kind = value_kind(type_text, v)
        if kind is not None:
            yield rule, base(type_text), kind


def _schema_types(schema: Any) -> dict[str, str]:
    fields = schema.get("fields", []) if isinstance(schema, dict) else []
    return {f["name"]: f["type"] for f in fields if isinstance(f, dict) and isinstance(f.get("type"), str)}


_NULL_OPS = {"is_null": "null", "not_null": "null", "is-null": "null", "not-null": "null"}
_NAN_OPS = {"is_nan", "not_nan", "is-nan", "not-nan"}


def _predicate_cells(
    rule: str, inp: dict, types: dict[str, str], only: str | None = None
) -> Iterator[tuple[str, str, str]]:
    """The cells of a predicate's literals (a null test fills null, a NaN test NaN) and of its rows."""
    for term, kind, value in _leaves(inp.get("predicate")):
        if only is not None and term != only or term not in types:
            continue
        if kind in _NULL_OPS:
            yield rule, base(types[term]), "null"
        elif kind in _NAN_OPS and base(types[term]) in ("float", "double"):
            yield rule, base(types[term]), "nan"
        else:
            yield from _cells(rule, types[term], value if isinstance(value, list) else [value])
    for row in inp.get("rows", []) or []:
        for name, value in row.items():
            if (only is None or name == only) and name in types:
                yield from _cells(rule, types[name], [value])


def _leaves(predicate: Any) -> Iterator[tuple[str, str, Any]]:
    if not isinstance(predicate, dict):
        return
    for child in ("left", "right", "child"):
        yield from _leaves(predicate.get(child))
    if isinstance(predicate.get("term"), str):
        yield predicate["term"], str(predicate.get("type")), predicate.get("value", predicate.get("values"))


def filled(cases: Iterable[dict[str, Any]]) -> dict[tuple[str, str, str], list[str]]:
    """Each cell the cases fill, with the ids of the cases that fill it."""
    out: dict[tuple[str, str, str], list[str]] = {}
    for case in cases:
        for cell in dict.fromkeys(case_cells(case)):
            out.setdefault(cell, []).append(case["id"])
    return out


def empty_cells(cases: Iterable[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The cells of the table no case fills."""
    have = filled(cases)
    return [cell for cell in table_rows() if cell not in have]
