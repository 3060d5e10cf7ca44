"""Scan predicates: their truth on rows with nulls, NaN and signed zeros, and binding errors."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "predicates"
DESCRIPTION = (
    "Scan Planning: the truth of scan predicates on rows (null, NaN, -0.0), and predicates that cannot be bound"
)

SCHEMA = {
    "type": "struct",
    "fields": [
        {"id": 1, "name": "x", "required": False, "type": "long"},
        {"id": 2, "name": "f", "required": False, "type": "double"},
        {"id": 3, "name": "s", "required": False, "type": "string"},
    ],
}
NAN, NEG_ZERO = {"ieee754": "7ff8000000000000"}, {"ieee754": "8000000000000000"}
ROWS = [
    {"x": 4, "f": 1.0, "s": "abc"},
    {"x": 5, "f": NEG_ZERO, "s": "ab"},
    {"x": 6, "f": 0.0, "s": "b"},
    {"x": None, "f": NAN, "s": None},
    {"x": -5, "f": None, "s": "日本"},
]


def _e(slug, description, predicate, rule="expression.evaluate", rows=ROWS, schema=SCHEMA):
    return case(rule, slug, description, "evaluate-predicate", schema=schema, predicate=predicate, rows=rows)


def specs():
    for op in ("lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq"):
        yield _e(f"long-{op}", f"x {op} 5 on rows with a null", {"type": op, "term": "x", "value": 5})
        yield _e(
            f"double-{op}-zero",
            f"f {op} 0.0 on -0.0, 0.0, NaN and null (totalOrder: -0.0 < 0.0)",
            {"type": op, "term": "f", "value": 0.0},
        )
        yield _e(
            f"not-{op}",
            f"not (x {op} 5): pushed to the leaf, false on null",
            {"type": "not", "child": {"type": op, "term": "x", "value": 5}},
        )
    yield _e("in", "x in (5, -5)", {"type": "in", "term": "x", "values": [5, -5]})
    yield _e("not-in", "x not in (5, -5): true on null", {"type": "not-in", "term": "x", "values": [5, -5]})
    yield _e("in-empty", "x in (): matches nothing", {"type": "in", "term": "x", "values": []})
    yield _e("double-in-zero", "f in (0.0): not -0.0", {"type": "in", "term": "f", "values": [0.0]})
    yield _e("double-not-in", "f not in (1.0): true on NaN and null", {"type": "not-in", "term": "f", "values": [1.0]})
    for op in ("is-null", "not-null"):
        yield _e(op, f"x {op}", {"type": op, "term": "x"})
    for op in ("is-nan", "not-nan"):
        yield _e(op, f"f {op}: null is not NaN", {"type": op, "term": "f"})
    yield _e("starts-with", "s starts-with 'ab'", {"type": "starts-with", "term": "s", "value": "ab"})
    yield _e("starts-with-multibyte", "s starts-with '日'", {"type": "starts-with", "term": "s", "value": "日"})
    yield _e(
        "not-starts-with",
        "s not-starts-with 'ab': true on null",
        {"type": "not-starts-with", "term": "s", "value": "ab"},
    )
    yield _e(
        "starts-with-empty", "every non-null string starts with ''", {"type": "starts-with", "term": "s", "value": ""}
    )
    yield _e(
        "and",
        "x > 4 and s starts-with 'b'",
        {
            "type": "and",
            "left": {"type": "gt", "term": "x", "value": 4},
            "right": {"type": "starts-with", "term": "s", "value": "b"},
        },
    )
    yield _e(
        "or",
        "x < 0 or f is-nan",
        {"type": "or", "left": {"type": "lt", "term": "x", "value": 0}, "right": {"type": "is-nan", "term": "f"}},
    )
    yield _e(
        "not-and",
        "not (x > 4 and x < 6): De Morgan, null matches neither leaf",
        {
            "type": "not",
            "child": {
                "type": "and",
                "left": {"type": "gt", "term": "x", "value": 4},
                "right": {"type": "lt", "term": "x", "value": 6},
            },
        },
    )
    yield _e("not-is-null", "not (x is-null) is x not-null", {"type": "not", "child": {"type": "is-null", "term": "x"}})
    yield _e("true-false", "true or false", {"type": "or", "left": True, "right": False})
    floats = {"type": "struct", "fields": [{"id": 1, "name": "g", "required": False, "type": "float"}]}
    inf, neg_inf = {"ieee754": "7f800000"}, {"ieee754": "ff800000"}
    for op in ("lt-eq", "eq", "gt"):
        yield _e(
            f"float-negative-infinity-{op}",
            f"g {op} -Infinity on a float column: -Infinity is a float value",
            {"type": op, "term": "g", "value": neg_inf},
            rows=[{"g": neg_inf}, {"g": 1.0}, {"g": inf}],
            schema=floats,
        )
    yield _e(
        "float-infinity-gt-eq",
        "g >= Infinity on a float column",
        {"type": "gt-eq", "term": "g", "value": inf},
        rows=[{"g": neg_inf}, {"g": 1.0}, {"g": inf}],
        schema=floats,
    )
    bind = "expression.bind"
    yield _e("is-nan-on-long", "is-nan needs a float or double column", {"type": "is-nan", "term": "x"}, bind)
    yield _e("nan-literal", "a NaN literal: use is-nan", {"type": "eq", "term": "f", "value": NAN}, bind)
    yield _e("null-literal", "a null literal: use is-null", {"type": "eq", "term": "x", "value": None}, bind)
    yield _e(
        "starts-with-on-long",
        "starts-with needs a string column",
        {"type": "starts-with", "term": "x", "value": 5},
        bind,
    )
    yield _e(
        "unknown-column", "a predicate on a column that does not exist", {"type": "eq", "term": "y", "value": 5}, bind
    )
    yield _e(
        "literal-out-of-range",
        "a long literal outside the long range",
        {"type": "eq", "term": "x", "value": 2**63},
        bind,
    )
