"""Hypothesis strategies for scan predicates and for column values that sit near their literals.

    >>> from hypothesis import given
    >>> from spec_impl.expressions import strategies as pst
    >>> from spec_impl.types import parse_type
    >>> @given(pst.cases(parse_type("long"), "ordering"))
    ... def test(case): predicate, values = case

`cases(t, family)` draws a bound predicate on the column "x" of type `t` from an operator family
(`FAMILIES`) and a list of values of `t` clustered around the predicate's literals (on both sides
of them and of the partition boundaries next to them), with nulls and, for floats, NaN and both
zeros. Values stay within a few thousand years of 1970 (transforms of them never overflow);
hypothesis shrinks the offsets towards 0, so a failure shrinks to a value next to the literal.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from hypothesis import strategies as st

from spec_impl import strategies as ist
from spec_impl.expressions.predicates import And, Expr, Not, Or, Pred, bind, leaves
from spec_impl.temporal import MICROS_PER_DAY, MICROS_PER_HOUR, NANOS_PER_MICRO
from spec_impl.types import DecimalType, IcebergType
from spec_impl.values import decimal_from_unscaled, normalize, unscaled_value

FAMILIES = {
    "ordering": ("lt", "lt-eq", "gt", "gt-eq"),
    "equality": ("eq", "not-eq"),
    "set": ("in", "not-in"),
    "null": ("is-null", "not-null"),
    "nan": ("is-nan", "not-nan"),
    "prefix": ("starts-with", "not-starts-with"),
    "compound": ("and", "or", "not"),
}
# few code points, several UTF-8 lengths and the edges of incrementing: shared prefixes are likely
ALPHABET = ["a", "b", "\x7f", "é", "日", "本", "\ud7ff", "\ue000", "\U0001f600", "\U0010ffff"]
_SPAN = {
    "date": 30,
    "time": MICROS_PER_HOUR,
    "timestamp": 3 * MICROS_PER_DAY,
    "timestamptz": 3 * MICROS_PER_DAY,
    "timestamp_ns": 3 * MICROS_PER_DAY * NANOS_PER_MICRO,
    "timestamptz_ns": 3 * MICROS_PER_DAY * NANOS_PER_MICRO,
}


def _name(t: IcebergType) -> str:
    return getattr(t, "name", "")


def literals(t: IcebergType) -> st.SearchStrategy[Any]:
    """Literals of `t` (non-null, non-NaN), biased to zero, the epoch and partition boundaries."""
    name = _name(t)
    if name in ("int", "long"):
        return st.one_of(st.integers(-1000, 1000), ist.values(t))
    if name == "time":
        return st.integers(0, MICROS_PER_DAY - 1)
    if name in _SPAN:  # dates and timestamps: a day near the epoch or within ±3000 years (±200 for ns), ± a few ticks
        ns = name.endswith("_ns")
        per_day = 1 if name == "date" else MICROS_PER_DAY * (NANOS_PER_MICRO if ns else 1)
        max_days = 365 * (200 if ns else 3000)
        days = st.one_of(st.integers(-800, 800), st.integers(-max_days, max_days))
        return st.tuples(days, st.integers(-3, 3)).map(lambda p: p[0] * per_day + p[1])
    if isinstance(t, DecimalType):
        bound = 10 ** min(t.precision, 6) - 1
        return st.integers(-bound, bound).map(lambda u: decimal_from_unscaled(u, t.scale))
    if name == "string":
        return st.lists(st.sampled_from(ALPHABET), max_size=5).map("".join)
    if name == "binary":
        return st.lists(st.sampled_from([0, 1, 2, 0x7F, 0xFE, 0xFF]), max_size=5).map(bytes)
    if name in ("float", "double"):
        return st.one_of(
            st.sampled_from([0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf")]), ist.values(t, allow_nan=False)
        ).map(lambda v: normalize(t, v))
    return ist.values(t, allow_nan=False)


def near(t: IcebergType, literal: Any, offset: int, tail: Any) -> Any:
    """A value of `t` near `literal`: `literal + offset` for integers and dates (decimals: units of
    the scale; times and timestamps: ticks when |offset| < 100, else steps up to three days), the literal's
    first `offset` code points or bytes followed by `tail` for strings and binary."""
    name = _name(t)
    if name in ("int", "long", "date"):
        return _clamp(t, literal + offset)
    if name in _SPAN:  # ticks next to the literal, or steps of up to three days around it
        return _clamp(t, literal + offset * (1 if abs(offset) < 100 else _SPAN[name] // _OFFSETS))
    if isinstance(t, DecimalType):
        return _decimal_near(t, literal, offset)
    if name in ("string", "binary"):
        return literal[: abs(offset) % (len(literal) + 1)] + tail
    return literal


_OFFSETS = 1000  # offsets are drawn from [-_OFFSETS, _OFFSETS]


def _clamp(t: IcebergType, v: int) -> int:
    name = _name(t)
    if name == "time":
        return max(0, min(MICROS_PER_DAY - 1, v))
    low, high = (-(2**31), 2**31 - 1) if name in ("int", "date") else (-(2**63), 2**63 - 1)
    return max(low, min(high, v))


def _decimal_near(t: DecimalType, literal: Decimal, delta: int) -> Decimal:
    bound = 10**t.precision - 1
    return decimal_from_unscaled(max(-bound, min(bound, unscaled_value(t, literal) + delta)), t.scale)


def leaf(t: IcebergType, op: str) -> st.SearchStrategy[Pred]:
    """A bound leaf `op` on the column "x" of type `t`."""
    if op in ("is-null", "not-null", "is-nan", "not-nan"):
        return st.just(Pred(op, "x"))
    if op in ("in", "not-in"):
        return st.lists(literals(t), min_size=0, max_size=4).map(lambda vs: Pred(op, "x", tuple(vs)))
    return literals(t).map(lambda v: Pred(op, "x", (v,)))


def expressions(t: IcebergType, family: str) -> st.SearchStrategy[Expr]:
    """A predicate of one operator family on "x" (compound: and/or/not over leaves of any family
    that `t` supports)."""
    supported = [f for f in FAMILIES if f != "compound" and supports(t, f)]
    if family != "compound":
        return st.one_of([leaf(t, op) for op in FAMILIES[family]])
    any_leaf = st.one_of([leaf(t, op) for f in supported for op in FAMILIES[f]])
    return st.recursive(
        any_leaf,
        lambda sub: st.one_of(st.builds(And, sub, sub), st.builds(Or, sub, sub), st.builds(Not, sub)),
        max_leaves=4,
    )


def supports(t: IcebergType, family: str) -> bool:
    """Whether predicates of the family bind to columns of type `t`."""
    if family == "nan":
        return _name(t) in ("float", "double")
    if family == "prefix":
        return _name(t) == "string"
    return True


@cache
def cases(t: IcebergType, family: str, size: int = 6) -> st.SearchStrategy[tuple[Expr, list]]:
    """(bound predicate on "x", values of `t` near its literals, with nulls and NaN for floats).

    Built from strategies that do not depend on the drawn predicate (one `map`, no `flatmap`), so
    that drawing stays cheap: each value is drawn as (kind, which literal, offset, tail)."""
    specials = [None] + ([float("nan"), -0.0, 0.0] if _name(t) in ("float", "double") else [])
    raw = st.tuples(
        st.integers(0, 9), st.integers(0, 3), st.integers(-_OFFSETS, _OFFSETS), literals(t), st.sampled_from(specials)
    )

    def build(args: tuple) -> tuple[Expr, list]:
        e, draws = args
        e = bind(e, {"x": t})
        lits = [v for p in leaves(e) for v in p.literals]
        values = []
        for kind, which, offset, tail, special in draws:
            if kind == 0:
                values.append(special)
            elif kind <= 6 and lits:
                values.append(near(t, lits[which % len(lits)], offset, tail))
            else:
                values.append(tail)
        return e, values

    return st.tuples(expressions(t, family), st.lists(raw, min_size=1, max_size=size)).map(build)
