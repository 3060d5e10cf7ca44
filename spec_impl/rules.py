"""The registry of spec rules: one stable id per rule, with the section of the spec it comes from.

This module defines `Rule`, `register` and the value rules (types, hashing, transforms, single
values); every other module of `spec_impl` registers its own rules with `register`, next to the
code that enforces them, so `RULES` is complete only once every module is imported (importing
`spec_impl` does). Every function of the reference names the rule it implements; every vector case
and every `SpecError` carries one of these ids. `tests/test_vectors.py` fails when a rule has no
vector case.

The full list is the rule index: `RULES.md` at the repository root (rules grouped by spec section,
with links to the published spec, a quote, the implementing functions, the vectors and the engines
that pass or fail them) and `vectors/rules.json`, written by `python -m
spec_impl.vectors.rule_index --write`.

Sections refer to the table spec (`000_60deb644de29d3e6.txt`, "seed") and the adopted v3 digest
(`v3-adopted-digest.md`, "adopted"). `revisions` lists the spec revisions in which the rule exists;
`versions` the table format versions it applies to. `strength` is `should` for a rule whose sentence
is a recommendation (a should or should not): its findings are listed apart from the violations and
never fail a table (`split_recommendations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from spec_impl.revisions import ADOPTED
from spec_impl.revisions import ALL as BOTH

V123 = (1, 2, 3)
T = TypeVar("T")
MUST, SHOULD = "must", "should"


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    summary: str
    versions: tuple[int, ...] = V123
    revisions: tuple[str, ...] = BOTH
    strength: str = MUST  # MUST, or SHOULD for a recommendation (a should or should-not sentence)


def by_id(items: Iterable[T], kind: str) -> dict[str, T]:
    """A registry of items that carry an `id` (rules, questions, allowances): id -> item, each id once."""
    table: dict[str, T] = {}
    for item in items:
        if item.id in table:  # type: ignore[attr-defined]
            raise ValueError(f"duplicate {kind} id {item.id}")  # type: ignore[attr-defined]
        table[item.id] = item  # type: ignore[attr-defined]
    return table


def _rules(*rules: Rule) -> dict[str, Rule]:
    return by_id(rules, "rule")


_TYPES = "Schemas and Data Types; Appendix C"
_ADOPTED_TYPES = "adopted 1.1 New types"
_B = "Appendix B: 32-bit Hash Requirements"
_TRANSFORMS = "Partition Transforms"
_TRUNCATE = "Truncate Transform Details"
_BUCKET = "Bucket Transform Details"
_D_BIN = "Appendix D: Binary single-value serialization"
_D_JSON = "Appendix D: JSON single-value serialization"

RULES: dict[str, Rule] = _rules(
    # --- types ---------------------------------------------------------------------------
    Rule("type.primitive", _TYPES, "Primitive type names and their JSON type strings"),
    Rule("type.decimal", _TYPES, "decimal(P,S): precision at most 38; optional spaces around parameters"),
    Rule(
        "type.fixed",
        _TYPES,
        "fixed[L]: a fixed-length byte array of L bytes, L a non-negative integer (the spec sets no lower bound; "
        "fixed[0] has no Parquet form, rule scan.arrow-type)",
    ),
    Rule(
        "type.geo",
        _ADOPTED_TYPES,
        "geometry(C) and geography(C, A): CRS default OGC:CRS84, algorithm default spherical, A one of the listed "
        "edge algorithms",
        (3,),
        ADOPTED,
    ),
    Rule("type.nested", "Nested Types; Appendix C", "struct, list and map types in their Appendix C JSON form"),
    Rule(
        "type.nesting-limit",
        "Nested Types (no limit in the spec)",
        "A limit of the reference, not a rule of the spec: nested types (struct, list, map) enclosing one another "
        "more than 100 levels deep are rejected; 100 levels are read",
    ),
    Rule(
        "type.version", "Primitive Types ('Added by version')", "Types added by v3 are not allowed in v1 and v2 tables"
    ),
    Rule(
        "type.promotion",
        "Schema Evolution",
        "Valid promotions: int to long, float to double, decimal(P,S) to decimal(P',S) with P' > P",
    ),
    Rule(
        "type.promotion.v3",
        "adopted 1.1 Type promotion in v3",
        "unknown to any type; date to timestamp or timestamp_ns",
        (3,),
        ADOPTED,
    ),
    # --- values --------------------------------------------------------------------------
    Rule(
        "value.range",
        "Primitive Types",
        "A value must lie in the range of its type (int 32-bit, long 64-bit, float 32-bit, fixed length L, UUID 16 "
        "bytes), promoted bounds included",
    ),
    Rule(
        "value.decimal",
        "Primitive Types; Appendix D",
        "A decimal value has the scale of its type and at most P digits; an input written with another exponent "
        "(1E+2, 100.000 for decimal(10,2)) is the same value if it needs no rounding",
    ),
    # --- hashing (Appendix B) ------------------------------------------------------------
    Rule(
        "hash.integer",
        _B,
        "int and long hash as hashLong(v): Murmur3 x86 32, seed 0, of the 8-byte little-endian value; int and long "
        "give identical results",
    ),
    Rule("hash.date", _B, "date hashes as hashInt(days from the epoch) = hashLong"),
    Rule("hash.time", _B, "time hashes as hashLong(microseconds from midnight)"),
    Rule("hash.timestamp", _B, "timestamp and timestamptz hash as hashLong(microseconds from the epoch)"),
    Rule(
        "hash.timestamp-ns",
        _B,
        "timestamp_ns and timestamptz_ns: the seed hashes nanoseconds; the adopted spec hashes floor(nanos / 1000)",
        (3,),
    ),
    Rule(
        "hash.decimal",
        _B,
        "decimal hashes the minimum-length two's-complement big-endian unscaled value; the scale does not matter",
    ),
    Rule("hash.string", _B, "string hashes its UTF-8 bytes"),
    Rule("hash.uuid", _B, "uuid hashes its 16 big-endian bytes"),
    Rule("hash.bytes", _B, "fixed and binary hash their bytes"),
    Rule("hash.boolean", _B, "boolean (not valid for bucketing): false hashInt(0), true hashInt(1)"),
    Rule(
        "hash.floating",
        _B,
        "float and double (not valid for bucketing): hashLong(doubleToLongBits(double(v))), NaN canonical "
        "0x7ff8000000000000, -0.0 as 0.0",
    ),
    Rule("hash.unknown", "adopted 3 Appendix B", "unknown hashes to null", (3,), ADOPTED),
    Rule("hash.undefined", _B, "No hash is defined for variant, geometry, geography and nested types"),
    # --- transforms ----------------------------------------------------------------------
    Rule(
        "transform.parse",
        _TRANSFORMS,
        "Transform strings (Appendix C): exactly identity, bucket[<N>], truncate[<W>], year, month, day, hour, "
        "void, in lower case, N and W in decimal digits",
    ),
    Rule(
        "transform.unknown",
        "Appendix E v3; adopted 1.3",
        "A string not of an Appendix C form (zorder, BUCKET[16], bucket[], bucket[-1], bucket[+5]) is an unknown "
        "transform: kept verbatim, readable, never an error; it has no value to compute",
    ),
    Rule("transform.null", _TRANSFORMS, "All transforms return null for a null input value"),
    Rule(
        "transform.source-type",
        _TRANSFORMS,
        "Each transform accepts only the source types of its row in the transform table",
    ),
    Rule("transform.result-type", _TRANSFORMS, "The result type of each transform"),
    Rule("transform.identity", _TRANSFORMS, "identity returns the source value unmodified"),
    Rule("transform.void", _TRANSFORMS, "void always produces null"),
    Rule("transform.bucket", _BUCKET, "bucket[N](x) = (murmur3_x86_32(x) & Integer.MAX_VALUE) % N"),
    Rule(
        "transform.bucket.n",
        _BUCKET,
        "bucket[<N>] with N outside 1 .. 2**31 - 1 (bucket[0], bucket[2147483648]) names bucket with an impossible "
        "N: rejected",
    ),
    Rule("transform.truncate.integer", _TRUNCATE, "int and long: v - (((v % W) + W) % W), remainders positive"),
    Rule(
        "transform.truncate.decimal", _TRUNCATE, "decimal: truncate the unscaled value by W, keeping the column's scale"
    ),
    Rule("transform.truncate.string", _TRUNCATE, "string: at most L code points, a valid UTF-8 string"),
    Rule("transform.truncate.binary", _TRUNCATE, "binary: at most L bytes"),
    Rule(
        "transform.truncate.width",
        _TRUNCATE,
        "truncate[<W>] with W outside 1 .. 2**31 - 1 names truncate with an impossible width: rejected",
    ),
    Rule(
        "transform.overflow",
        _TRANSFORMS,
        "Spec gap: a result outside its result type (truncate near the minimum int/long, a decimal that gains a "
        "digit, hour of extreme timestamps); the reference rejects it",
    ),
    Rule("transform.year", _TRANSFORMS, "year: years from 1970, floor for pre-epoch values"),
    Rule("transform.month", _TRANSFORMS, "month: months from 1970-01-01, floor for pre-epoch values"),
    Rule("transform.day", _TRANSFORMS, "day: days from 1970-01-01, floor for pre-epoch values"),
    Rule("transform.hour", _TRANSFORMS, "hour: hours from 1970-01-01 00:00:00, floor for pre-epoch values"),
    # --- binary single values ------------------------------------------------------------
    Rule("binary.boolean", _D_BIN, "boolean: 0x00 for false, a non-zero byte for true"),
    Rule(
        "binary.fixed-width",
        _D_BIN,
        "int, date: 4-byte little-endian; long, time, timestamp(tz)(_ns): 8-byte little-endian; float 4 and double "
        "8 bytes IEEE 754 little-endian. The bytes are the value's bits: every bit pattern, NaN payloads and the "
        "signalling bit included, is written back as it was read (raw bits, as Java's ByteBuffer.putFloat, not "
        "Float.floatToIntBits, which canonicalizes NaN)",
    ),
    Rule(
        "binary.decimal",
        _D_BIN,
        "decimal: unscaled value as two's-complement big-endian in the minimum number of bytes",
    ),
    Rule("binary.string", _D_BIN, "string: UTF-8 bytes without length"),
    Rule("binary.uuid", _D_BIN, "uuid: 16-byte big-endian value"),
    Rule("binary.bytes", _D_BIN, "fixed(L): the L bytes; binary: the bytes without length"),
    Rule("binary.geo", "adopted 3 Appendix D", "geometry and geography: WKB bytes", (3,), ADOPTED),
    Rule("binary.undefined", _D_BIN, "struct, list, map (and unknown, variant) have no binary single-value form"),
    Rule(
        "binary.promoted-bound",
        "Schema Evolution; adopted 1.1 Type promotion",
        "Bounds are not rewritten on promotion: a 4-byte long bound is an int, a 4-byte double bound a float, and "
        "(adopted v3) a 4-byte timestamp(_ns) bound a date, whose promoted value must fit the long range (else "
        "value.range)",
    ),
    # --- JSON single values --------------------------------------------------------------
    Rule("json.boolean", _D_JSON, "boolean: JSON boolean"),
    Rule("json.integer", _D_JSON, "int and long: JSON integer numbers"),
    Rule("json.floating", _D_JSON, "float and double: JSON numbers (NaN and infinities have no JSON form)"),
    Rule(
        "json.decimal",
        _D_JSON,
        "decimal: a string whose digits after the point give the scale; scientific notation with exponent -scale "
        "for a negative scale",
    ),
    Rule("json.date", _D_JSON, "date: ISO-8601 date string"),
    Rule("json.time", _D_JSON, "time: ISO-8601 time string, microsecond precision"),
    Rule(
        "json.timestamp",
        _D_JSON,
        "timestamp / timestamp_ns: ISO-8601 timestamp with micro/nanosecond precision, no zone offset",
    ),
    Rule(
        "json.timestamptz",
        _D_JSON,
        "timestamptz / timestamptz_ns: ISO-8601 timestamp with micro/nanosecond precision and the offset '+00:00'",
    ),
    Rule("json.string", _D_JSON, "string: JSON string"),
    Rule("json.uuid", _D_JSON, "uuid: the lowercase UUID string"),
    Rule("json.bytes", _D_JSON, "fixed and binary: hexadecimal string"),
    Rule("json.struct", _D_JSON, "struct: JSON object keyed by field id; values in this JSON single-value form"),
    Rule("json.list", _D_JSON, "list: JSON array of values"),
    Rule("json.map", _D_JSON, "map: JSON object with 'keys' and 'values' arrays"),
    Rule("json.geo", "adopted 3 Appendix D", "geometry and geography: WKT string", (3,), ADOPTED),
    Rule("json.undefined", _D_JSON, "unknown and variant have no JSON single-value form"),
)


def register(*rules: Rule) -> None:
    """Add rules to the registry. The metadata modules register theirs when they are imported
    (`spec_impl` imports them all, so the registry is complete once `spec_impl` is imported)."""
    for r in rules:
        if RULES.get(r.id, r) != r:
            raise ValueError(f"rule id {r.id} registered twice with different definitions")
        RULES[r.id] = r


def rule(rule_id: str) -> Rule:
    """Look up a rule by id; KeyError names the id when it is not registered."""
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"no rule with id {rule_id!r}") from None


def is_recommendation(rule_id: str) -> bool:
    """Whether the rule's sentence is a should: its findings are recommendations not followed."""
    return rule_id in RULES and RULES[rule_id].strength == SHOULD


def split_recommendations(found: Iterable[T]) -> tuple[list[T], list[T]]:
    """(violations of a must, findings of a should rule) of findings that carry a `rule` id."""
    found = list(found)
    should = [f for f in found if is_recommendation(f.rule)]  # type: ignore[attr-defined]
    return [f for f in found if not is_recommendation(f.rule)], should  # type: ignore[attr-defined]


# rule id -> the functions that implement it (`module:qualname`), filled by `implements` as the
# modules of `spec_impl` are imported: the single source of the rule index's `implemented-by`.
IMPLEMENTED_BY: dict[str, set[str]] = {}
F = TypeVar("F", bound=Callable[..., Any])


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Mark a function (or method) as implementing the rules `rule_ids`; the function is returned
    unchanged. Put it directly above the `def`, below any other decorator."""

    def mark(function: F) -> F:
        where = f"{function.__module__}:{function.__qualname__}"
        for rule_id in rule_ids:
            IMPLEMENTED_BY.setdefault(rule_id, set()).add(where)
        return function

    return mark
