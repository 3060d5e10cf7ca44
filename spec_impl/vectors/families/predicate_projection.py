"""Inclusive and strict projection of scan predicates through every transform, judged on rows.

Each case gives rows and a predicate; the output is, for each row, whether the projected
predicate matches the row's partition tuple. Inclusive cases hold only rows that match the scan
predicate (the spec forces `true` for each: pred(v) => proj(transform(v))); strict cases only rows
that do not (the spec forces `false`: proj(transform(v)) => pred(v)). The rows sit on both sides
of the literal and of the partition boundaries around it.
"""

from __future__ import annotations

from spec_impl.errors import SpecError
from spec_impl.expressions import predicates as P
from spec_impl.types import parse_type
from spec_impl.vectors.cases import case
from spec_impl.ops.encoding import decode

NAME = "predicate-projection"
DESCRIPTION = (
    "Scan Planning: inclusive and strict projection of scan predicates through identity, bucket, truncate, "
    "year, month, day, hour and void"
)

NAN, NEG_ZERO = {"ieee754": "7ff8000000000000"}, {"ieee754": "8000000000000000"}
_ORDER_OPS = ("lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq")
_TS = [
    "1969-12-31T23:59:59.999999",
    "1970-01-01T00:00:00.000000",
    "1970-01-01T00:00:00.000001",
    "1969-12-31T23:00:00.000000",
    "1969-12-01T00:00:00.000000",
    "1969-01-01T00:00:00.000000",
    "1970-01-02T00:00:00.000000",
    None,
]

# (label, transform, type, literals, row values, extra ops)
GROUPS = [
    ("identity-long", "identity", "long", [5], [4, 5, 6, None], ()),
    ("identity-double", "identity", "double", [0.0], [NEG_ZERO, 0.0, NAN, 1.0, None], ("is-nan", "not-nan")),
    ("bucket-long", "bucket[4]", "long", [5], [4, 5, 6, -5, 34, None], ()),
    (
        "bucket-string",
        "bucket[4]",
        "string",
        ["iceberg"],
        ["iceberg", "ice", "icebergs", None],
        ("starts-with", "not-starts-with"),
    ),
    ("truncate-int", "truncate[10]", "int", [10, -10, -1], [-11, -10, -9, -1, 0, 9, 10, 11, 19, 20, None], ()),
    ("truncate-long", "truncate[10]", "long", [0, -11], [-21, -20, -12, -11, -10, -1, 0, 1, 10, None], ()),
    (
        "truncate-decimal",
        "truncate[50]",
        "decimal(9,2)",
        ["-0.50", "0.49"],
        ["-1.00", "-0.51", "-0.50", "-0.49", "-0.01", "0.00", "0.49", "0.50", None],
        (),
    ),
    (
        "truncate-string",
        "truncate[2]",
        "string",
        ["ab", "abc", "a"],
        ["", "a", "aa", "ab", "abc", "abd", "ac", "b", None],
        ("starts-with", "not-starts-with"),
    ),
    (
        "truncate-string-multibyte",
        "truncate[2]",
        "string",
        ["日本", "日本語", "\U0001f600"],
        ["日", "日本", "日本語", "日文", "本", "\U0001f600", "\U0001f600a", None],
        ("starts-with", "not-starts-with"),
    ),
    (
        "truncate-binary",
        "truncate[2]",
        "binary",
        ["0102", "010200"],
        ["01", "0101ff", "0102", "010200", "0102ff", "0103", None],
        (),
    ),
    (
        "year-date",
        "year",
        "date",
        ["1969-12-31", "1970-01-01"],
        ["1968-12-31", "1969-01-01", "1969-12-31", "1970-01-01", "1970-12-31", None],
        (),
    ),
    (
        "month-date",
        "month",
        "date",
        ["1969-12-31", "1970-01-01"],
        ["1969-11-30", "1969-12-01", "1969-12-31", "1970-01-01", "1970-01-31", None],
        (),
    ),
    ("day-date", "day", "date", ["1969-12-31"], ["1969-12-30", "1969-12-31", "1970-01-01", None], ()),
    ("year-timestamp", "year", "timestamp", [_TS[1], _TS[0]], _TS, ()),
    ("month-timestamp", "month", "timestamp", [_TS[1], _TS[4]], _TS, ()),
    ("day-timestamp", "day", "timestamp", [_TS[1], _TS[0]], _TS, ()),
    ("hour-timestamp", "hour", "timestamp", [_TS[1], _TS[3]], _TS, ()),
    (
        "day-timestamptz",
        "day",
        "timestamptz",
        ["1970-01-01T00:00:00.000000+00:00"],
        [
            "1969-12-31T23:59:59.999999+00:00",
            "1970-01-01T00:00:00.000000+00:00",
            "1970-01-01T00:00:00.000001+00:00",
            None,
        ],
        (),
    ),
    (
        "hour-timestamp-ns",
        "hour",
        "timestamp_ns",
        ["1970-01-01T00:00:00.000000000"],
        [
            "1969-12-31T23:59:59.999999999",
            "1970-01-01T00:00:00.000000000",
            "1970-01-01T00:00:00.000000001",
            "1970-01-01T01:00:00.000000000",
            None,
        ],
        (),
    ),
    ("void-long", "void", "long", [5], [4, 5, 6, None], ()),
]


def _schema(type_: str) -> dict:
    return {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": type_}]}


def _leaves(literals: list, extra: tuple) -> list[tuple[str, dict]]:
    out = []
    for i, lit in enumerate(literals):
        for op in _ORDER_OPS + tuple(o for o in extra if o in P.PREFIX):
            out.append((f"{op}-{i}", {"type": op, "term": "x", "value": lit}))
    out.append(("in", {"type": "in", "term": "x", "values": literals}))
    out.append(("not-in", {"type": "not-in", "term": "x", "values": literals}))
    for op in ("is-null", "not-null") + tuple(o for o in extra if o in P.UNARY):
        out.append((op, {"type": op, "term": "x"}))
    first = {"type": "lt-eq", "term": "x", "value": literals[0]}
    out.append(("not-lt-eq", {"type": "not", "child": first}))
    out.append(("or-is-null", {"type": "or", "left": first, "right": {"type": "is-null", "term": "x"}}))
    out.append(
        (
            "and-not-null",
            {
                "type": "and",
                "left": {"type": "gt-eq", "term": "x", "value": literals[-1]},
                "right": {"type": "not-null", "term": "x"},
            },
        )
    )
    return out


def truth_on_rows(type_: str, predicate: dict, values: list) -> list[bool]:
    from spec_impl.ops.planning_ops import parse_predicate  # the case's own reading of the predicate

    t = parse_type(type_)
    expr = parse_predicate(predicate, {"x": t})
    return [P.evaluate(expr, {"x": decode(t, v)}, {"x": t}) for v in values]


def specs():
    for label, transform, type_, literals, values, extra in GROUPS:
        for slug, predicate in _leaves(literals, extra):
            try:
                truth = truth_on_rows(type_, predicate, values)
            except SpecError:
                continue
            for mode, keep in (("inclusive", True), ("strict", False)):
                rows = [{"x": v} for v, t in zip(values, truth) if t == keep]
                if not rows:
                    continue
                forced = "matches" if keep else "does not match"
                yield case(
                    f"predicate-projection.{mode}",
                    f"{label}-{slug}-{mode}",
                    f"{transform} of {type_}: every row {forced} the predicate, so the {mode} projection "
                    f"{'matches' if keep else 'does not match'} its partition",
                    "project-predicate",
                    schema=_schema(type_),
                    spec=[{"name": "p", "source": "x", "transform": transform}],
                    predicate=predicate,
                    mode=mode,
                    rows=rows,
                    **v3_only(type_),
                )
    yield from _unknown_transform_cases()


# (slug, the spec's fields on x, description): unknown transforms (names the spec does not define)
# project to true (inclusive) and false (strict), alone or beside a known field
_UNKNOWN = (
    ("alone", [("p", "zorder")], "an unknown transform alone"),
    ("with-parameter", [("p", "geohash[6]")], "an unknown transform with a parameter"),
    ("beside-identity", [("p", "zorder"), ("q", "identity")], "an unknown transform beside identity"),
)


def _unknown_transform_cases():
    """Adopted v3 §1.3: v3 readers accept unknown transforms, "ignoring them when filtering (their
    inclusive projection is `true`)"; strict projection through them proves nothing (false)."""
    predicate = {"type": "eq", "term": "x", "value": 5}
    for slug, fields, what in _UNKNOWN:
        spec = [{"name": name, "source": "x", "transform": t} for name, t in fields]
        for mode, values in (("inclusive", [5]), ("strict", [4, 6, None])):
            yield case(
                f"predicate-projection.{mode}",
                f"unknown-transform-{slug}-{mode}",
                f"{what}: x = 5 projects {mode}ly to {'true' if mode == 'inclusive' else 'false'} through it, so "
                f"{'every matching row keeps its partition' if mode == 'inclusive' else 'no row is proven to match'}",
                "project-predicate",
                schema=_schema("long"),
                spec=spec,
                predicate=predicate,
                mode=mode,
                rows=[{"x": v} for v in values],
                format_version=3,
            )


def v3_only(type_: str) -> dict:
    """timestamp_ns exists from format v3 on: its cases say so."""
    return {"format_version": 3} if type_.endswith("_ns") else {}
