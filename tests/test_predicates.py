"""Scan predicates: binding (rule expression.bind) and truth on a row (rule expression.evaluate):
nulls, NaN, ±0.0, `not` pushed to the leaves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from spec_impl.errors import InvalidInput
from spec_impl.expressions import strategies as pst
from spec_impl.expressions.predicates import (
    FALSE,
    TRUE,
    And,
    Not,
    Or,
    Pred,
    and_,
    bind,
    evaluate,
    negate,
    or_,
    rewrite_not,
)
from spec_impl.rules import RULES
from spec_impl.types import parse_type

T = {"x": parse_type("long"), "f": parse_type("double"), "s": parse_type("string")}
NAN = float("nan")


def truth(op, term, value, *literals) -> bool:
    return evaluate(bind(Pred(op, term, literals), T), {term: value}, T)


@pytest.mark.parametrize("op", ["lt", "lt-eq", "gt", "gt-eq", "eq", "in"])
def test_null_and_nan_match_no_positive_leaf(op):
    assert not truth(op, "x", None, 5)
    assert not truth(op, "f", NAN, 5.0)


@pytest.mark.parametrize("op", ["not-eq", "not-in"])
def test_null_and_nan_match_negative_leaves(op):
    assert truth(op, "x", None, 5) and truth(op, "f", NAN, 5.0)
    assert truth("not-starts-with", "s", None, "a")


def test_not_is_pushed_to_the_leaves():
    """not (x < 5) is x >= 5: false on null, although x < 5 is false on null too."""
    e = bind(Not(Pred("lt", "x", (5,))), T)
    assert not evaluate(e, {"x": None}, T) and not truth("lt", "x", None, 5)
    assert rewrite_not(e) == Pred("gt-eq", "x", (5,))
    assert negate(And(Pred("is-null", "x"), Pred("eq", "x", (1,)))) == Or(
        Pred("not-null", "x"), Pred("not-eq", "x", (1,))
    )


def test_signed_zero_in_total_order():
    assert truth("lt", "f", -0.0, 0.0) and not truth("eq", "f", -0.0, 0.0) and truth("eq", "f", 0.0, 0.0)


def test_nan_null_unary():
    assert truth("is-nan", "f", NAN) and not truth("is-nan", "f", None) and truth("not-nan", "f", None)
    assert truth("is-null", "x", None) and truth("not-null", "f", NAN)


def test_strings_by_code_point():
    assert truth("lt", "s", "\uff61", "\U0001f600")  # UTF-16 would order these the other way
    assert truth("starts-with", "s", "日本語", "日本") and not truth("starts-with", "s", "日", "日本")


def test_constants_simplify():
    p = Pred("is-null", "x")
    assert and_(TRUE, p) == p and and_(FALSE, p) == FALSE and or_(TRUE, p) == TRUE and or_(FALSE, p) == p


@pytest.mark.parametrize(
    "pred",
    [
        Pred("is-nan", "x"),
        Pred("starts-with", "x", (1,)),
        Pred("eq", "f", (NAN,)),
        Pred("eq", "x", (None,)),
        Pred("eq", "y", (1,)),
        Pred("lt", "x", ()),
        Pred("is-null", "x", (1,)),
        Pred("eq", "x", (2**63,)),
        Pred("near", "x", (1,)),
    ],
)
def test_bind_rejects(pred):
    with pytest.raises(InvalidInput, match="expression.bind"):
        bind(pred, T)


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.sampled_from(["long", "double", "string"]).flatmap(
        lambda n: pst.cases(parse_type(n), "compound").map(lambda c: (n, c))
    )
)
def test_double_negation_and_de_morgan(example):
    """not (not e) and e agree on every row; and/or follow their leaves."""
    name, (e, values) = example
    types = {"x": parse_type(name)}
    for v in values:
        row = {"x": v}
        assert evaluate(Not(Not(e)), row, types) == evaluate(e, row, types)
        assert evaluate(And(e, Not(e)), row, types) == (evaluate(e, row, types) and evaluate(Not(e), row, types))


def test_every_registered_expression_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("expression.")]
    assert mine and [r for r in mine if r not in text] == []
