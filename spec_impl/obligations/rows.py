"""Rows whose truth under a predicate the spec leaves open, and the truth of the others.

Scan Planning defines inclusive and strict projection by whether "a scan predicate matches a row",
but not the truth of a comparison with a null or NaN operand, nor of NOT over it, nor whether
-0.0 equals +0.0. A row with such an operand under a leaf is *open*: the reference's answer there
is one reading (`predicate.null-operand`, `predicate.not-of-null`, `predicate.nan-operand`,
`predicate.signed-zero`), and the other rows are judged as the spec requires.
"""

from __future__ import annotations

from typing import Any

from spec_impl.expressions import predicates as P
from spec_impl.values import is_nan


def _bound(inp: dict[str, Any]):
    from spec_impl.ops.planning_ops import _rows, _schema, parse_predicate

    types = _schema(inp)
    expr = parse_predicate(inp["predicate"], types)
    return types, expr, _rows(inp, types)


def _negated_leaves(e: P.Expr, under_not: bool = False) -> list[tuple[P.Pred, bool]]:
    """Every leaf with whether a NOT stands above it."""
    if isinstance(e, P.Pred):
        return [(e, under_not)]
    if isinstance(e, P.Not):
        return _negated_leaves(e.child, not under_not)
    if isinstance(e, (P.And, P.Or)):
        return _negated_leaves(e.left, under_not) + _negated_leaves(e.right, under_not)
    return []


def _question(leaf: P.Pred, value: Any, negated: bool = False) -> str | None:
    if leaf.op in ("is-null", "not-null", "is-nan", "not-nan"):
        return None
    if value is None:
        return "predicate.not-of-null" if negated else "predicate.null-operand"
    if is_nan(value):
        return "predicate.nan-operand"
    if isinstance(value, float) and value == 0.0:
        given = tuple(leaf.literals or ())  # none for a unary leaf
        literals = [given[0]] if given and given[0] is not None else list(given)
        if any(isinstance(x, float) and x == 0.0 for x in literals):
            return "predicate.signed-zero"
    return None


def open_question(expr: P.Expr, row: dict[str, Any]) -> str | None:
    """The open question that leaves the row's truth under the bound predicate `expr` open, if any."""
    for leaf, negated in _negated_leaves(expr):
        q = _question(leaf, row.get(leaf.term), negated)
        if q is not None:
            return q
    return None


def open_rows(inp: dict[str, Any]) -> list[dict[str, Any]]:
    """[{"row": index, "question": id}] for the rows whose truth the spec leaves open."""
    types, expr, rows = _bound(inp)
    return [{"row": i, "question": q} for i, row in enumerate(rows) if (q := open_question(expr, row)) is not None]


def row_truths(inp: dict[str, Any]) -> list[bool | None]:
    """Whether each row matches the scan predicate; None for an open row."""
    types, expr, rows = _bound(inp)
    opened = {o["row"] for o in open_rows(inp)}
    return [None if i in opened else P.evaluate(expr, row, types) for i, row in enumerate(rows)]
