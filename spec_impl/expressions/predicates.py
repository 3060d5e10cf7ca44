"""Scan predicates: a small expression model, binding to a schema, and evaluation on a row.

Spec: "Scan Planning" (scan predicates filter data rows; they are projected to partition
predicates and evaluated against column metrics). The spec names no predicate language; the
operators here are those of Iceberg's expression API and of its REST expression JSON
(`lt`, `lt-eq`, `gt`, `gt-eq`, `eq`, `not-eq`, `in`, `not-in`, `starts-with`, `not-starts-with`,
`is-null`, `not-null`, `is-nan`, `not-nan`, `and`, `or`, `not`, `true`, `false`).

Truth on a row (rule expression.evaluate). The spec does not define it; the reference follows
the semantics that Iceberg Java's metrics evaluators and projections assume (the practical
reference: `InclusiveMetricsEvaluator` treats a file of only nulls or only NaNs as unable to match
`lt`/`gt`/`eq`, `StrictMetricsEvaluator` treats such a file as matching `not-eq`/`not-in` on every
row, and every evaluator first rewrites `not` into the opposite operator (`RewriteNot`)):

- every leaf is true or false (two-valued);
- a null value matches only `is-null`, `not-nan`, `not-eq`, `not-in` and `not-starts-with`;
- a NaN value matches only `is-nan`, `not-null`, `not-eq` and `not-in` (no ordering, equality or
  set membership holds for NaN; bounds exclude NaN for this reason);
- floating-point values compare in IEEE 754 totalOrder, so `-0.0 < 0.0` and `x = 0.0` does not
  match -0.0 (Java's `Double.compare`; the spec's bound notes order -0.0 before +0.0);
- strings compare by code point (equivalently by UTF-8 bytes), binary and fixed by unsigned bytes,
  uuids as unsigned 128-bit numbers (`metadata.sorting`);
- `not` is pushed to the leaves before evaluation (`negate`): `not(x < 5)` is `x >= 5`, false on a
  null or NaN `x`, as after Iceberg's `RewriteNot`. Because of this `not` is not the boolean
  complement for ordering and equality leaves on null and NaN rows, and `x != 5` is true on null.

Iceberg Java's row `Evaluator` differs on nulls and NaN (its literal comparator orders null first
and uses `Double.compare`, so `null < 5` and `NaN > 5` hold there); its pruning code does not
follow that, and neither does the reference. Literals are never null or NaN (`is-null`/`is-nan`
exist for that), as Iceberg Java and PyIceberg enforce (rule expression.bind).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from spec_impl.errors import InvalidInput, SpecError
from spec_impl.metadata.sorting import sort_key
from spec_impl.rules import Rule, register, implements
from spec_impl.types import IcebergType, PrimitiveType, StructType
from spec_impl.values import is_nan, normalize

_SCAN = "Scan Planning"
register(
    Rule(
        "expression.bind",
        _SCAN,
        "A predicate names a column of the schema; its literals are non-null, non-NaN values of the column's "
        "type; is-nan/not-nan need a float or double column, starts-with a string column",
    ),
    Rule(
        "expression.evaluate",
        _SCAN,
        "A predicate's truth on a row: two-valued leaves, null and NaN match no ordering, equality or membership "
        "leaf, floats in totalOrder, not pushed to the leaves",
    ),
)

COMPARISONS = ("lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq")
SETS = ("in", "not-in")
UNARY = ("is-null", "not-null", "is-nan", "not-nan")
PREFIX = ("starts-with", "not-starts-with")
LEAF_OPS = COMPARISONS + SETS + UNARY + PREFIX
NEGATION = {
    "lt": "gt-eq",
    "lt-eq": "gt",
    "gt": "lt-eq",
    "gt-eq": "lt",
    "eq": "not-eq",
    "not-eq": "eq",
    "in": "not-in",
    "not-in": "in",
    "is-null": "not-null",
    "not-null": "is-null",
    "is-nan": "not-nan",
    "not-nan": "is-nan",
    "starts-with": "not-starts-with",
    "not-starts-with": "starts-with",
}
FLOATING = ("float", "double")


class Expr:
    """Base of the expression model (frozen dataclasses)."""


@dataclass(frozen=True)
class Const(Expr):
    """`true` or `false`."""

    value: bool


TRUE, FALSE = Const(True), Const(False)


@dataclass(frozen=True)
class Pred(Expr):
    """A leaf: `op` on the column `term`, with `literals` (one for comparisons and prefixes, any
    number for in/not-in, none for the unary ops). Literals are physical values."""

    op: str
    term: str
    literals: tuple = ()

    @property
    def literal(self) -> Any:
        return self.literals[0]


@dataclass(frozen=True)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Or(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Expr):
    child: Expr


def and_(left: Expr, right: Expr) -> Expr:
    """`left and right`, simplified when either side is a constant."""
    if left == FALSE or right == FALSE:
        return FALSE
    return right if left == TRUE else left if right == TRUE else And(left, right)


def or_(left: Expr, right: Expr) -> Expr:
    """`left or right`, simplified when either side is a constant."""
    if left == TRUE or right == TRUE:
        return TRUE
    return right if left == FALSE else left if right == FALSE else Or(left, right)


@implements("expression.evaluate")
def negate(e: Expr) -> Expr:
    """`not e` pushed to the leaves (De Morgan; each leaf to its opposite operator), as Iceberg's
    RewriteNot (rule expression.evaluate)."""
    if isinstance(e, Const):
        return Const(not e.value)
    if isinstance(e, Pred):
        return Pred(NEGATION[e.op], e.term, e.literals)
    if isinstance(e, And):
        return or_(negate(e.left), negate(e.right))
    if isinstance(e, Or):
        return and_(negate(e.left), negate(e.right))
    assert isinstance(e, Not)
    return rewrite_not(e.child)


def rewrite_not(e: Expr) -> Expr:
    """The expression without `Not` nodes."""
    if isinstance(e, Not):
        return negate(e.child)
    if isinstance(e, And):
        return and_(rewrite_not(e.left), rewrite_not(e.right))
    if isinstance(e, Or):
        return or_(rewrite_not(e.left), rewrite_not(e.right))
    return e


def leaves(e: Expr) -> list[Pred]:
    if isinstance(e, Pred):
        return [e]
    if isinstance(e, (And, Or)):
        return leaves(e.left) + leaves(e.right)
    return leaves(e.child) if isinstance(e, Not) else []


def column_types(schema: StructType) -> dict[str, IcebergType]:
    """Column name -> type of a flat schema."""
    return {f.name: f.type for f in schema.fields}


@implements("expression.bind")
def bind(e: Expr, types: Mapping[str, IcebergType]) -> Expr:
    """Check every leaf against the column types and normalize its literals (rule expression.bind)."""
    if isinstance(e, Const):
        return e
    if isinstance(e, (And, Or)):
        return type(e)(bind(e.left, types), bind(e.right, types))
    if isinstance(e, Not):
        return Not(bind(e.child, types))
    assert isinstance(e, Pred)
    if e.op not in LEAF_OPS:
        raise InvalidInput("expression.bind", "unknown predicate operator", e.op)
    t = types.get(e.term)
    if not isinstance(t, PrimitiveType):
        raise InvalidInput("expression.bind", "a predicate must name a primitive column of the schema", e.term)
    name = t.name
    count = len(e.literals)
    if (e.op in UNARY and count) or (e.op in COMPARISONS + PREFIX and count != 1):
        raise InvalidInput(
            "expression.bind", f"{e.op} takes {'no literal' if e.op in UNARY else 'one literal'}", e.literals
        )
    if e.op in ("is-nan", "not-nan") and name not in FLOATING:
        raise InvalidInput("expression.bind", f"{e.op} needs a float or double column, not {t}", e.term)
    if e.op in PREFIX and name != "string":
        raise InvalidInput("expression.bind", f"{e.op} needs a string column, not {t}", e.term)
    literals = []
    for v in e.literals:
        if v is None or is_nan(v):
            raise InvalidInput("expression.bind", "a literal is never null or NaN (use is-null / is-nan)", v)
        try:
            literals.append(normalize(t, v))
        except SpecError as e:
            raise InvalidInput("expression.bind", f"a literal must be a value of {t} ({e})", v) from None
    return Pred(e.op, e.term, tuple(literals))


def compare(t: IcebergType, a: Any, b: Any) -> int:
    """-1, 0 or 1: non-null, non-NaN values of `t` in the type's order (floats in totalOrder)."""
    ka, kb = sort_key(a, t), sort_key(b, t)
    return (ka > kb) - (ka < kb)


@implements("expression.evaluate")
def test_leaf(p: Pred, t: IcebergType, value: Any) -> bool:
    """The truth of one bound leaf on one value of its column (rule expression.evaluate)."""
    op = p.op
    if op in ("is-null", "not-null"):
        return (value is None) == (op == "is-null")
    if op in ("is-nan", "not-nan"):
        return is_nan(value) == (op == "is-nan")
    if value is None or is_nan(value):
        return op in ("not-eq", "not-in", "not-starts-with")  # (starts-with binds to strings only: never NaN)
    if op in COMPARISONS:
        c = compare(t, value, p.literal)
        return {"lt": c < 0, "lt-eq": c <= 0, "gt": c > 0, "gt-eq": c >= 0, "eq": c == 0, "not-eq": c != 0}[op]
    if op in SETS:
        found = any(compare(t, value, lit) == 0 for lit in p.literals)
        return found == (op == "in")
    return value.startswith(p.literal) == (op == "starts-with")


@implements("expression.evaluate")
def evaluate(e: Expr, row: Mapping[str, Any], types: Mapping[str, IcebergType]) -> bool:
    """The truth of a bound expression on a row {column name: physical value} (rule expression.evaluate)."""
    return _eval(rewrite_not(e), row, types)


def _eval(e: Expr, row: Mapping[str, Any], types: Mapping[str, IcebergType]) -> bool:
    if isinstance(e, Const):
        return e.value
    if isinstance(e, And):
        return _eval(e.left, row, types) and _eval(e.right, row, types)
    if isinstance(e, Or):
        return _eval(e.left, row, types) or _eval(e.right, row, types)
    assert isinstance(e, Pred)
    return test_leaf(e, types[e.term], row.get(e.term))
