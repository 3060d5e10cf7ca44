"""Inclusive and strict projection of scan predicates (rules predicate-projection.inclusive and
predicate-projection.strict): the spec's two properties under hypothesis, for every transform,
source type and operator family, at least 200 examples each; and the projections' shapes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from spec_impl.errors import SpecError
from spec_impl.expressions import strategies as pst
from spec_impl.expressions.predicates import FALSE, TRUE, Pred, bind, evaluate
from spec_impl.expressions.projection import PartitionField, project, project_leaf
from spec_impl.rules import RULES
from spec_impl.transforms import apply_transform, parse_transform, result_type
from spec_impl.types import parse_type

SOURCES = {
    "identity": ["long", "double", "string", "decimal(9,2)", "date", "timestamp", "binary", "uuid", "boolean"],
    "bucket[4]": [
        "int",
        "long",
        "decimal(9,2)",
        "date",
        "time",
        "timestamp",
        "timestamptz_ns",
        "string",
        "binary",
        "uuid",
    ],
    "truncate[10]": ["int", "long"],
    "truncate[50]": ["decimal(9,2)", "decimal(4,0)"],
    "truncate[2]": ["string", "binary"],
    "year": ["date", "timestamp", "timestamptz_ns"],
    "month": ["date", "timestamptz", "timestamp_ns"],
    "day": ["date", "timestamp", "timestamp_ns"],
    "hour": ["timestamp", "timestamptz", "timestamp_ns"],
    "void": ["long", "string"],
}
PARAMS = [
    (tr, fam)
    for tr, sources in SOURCES.items()
    for fam in pst.FAMILIES
    if any(pst.supports(parse_type(src), fam) for src in sources)
]


def check_projection(transform: str, source: str, pred, values: list, projector=project) -> int:
    """Assert both properties for each value; returns how many values were checked."""
    t = parse_type(source)
    types, fields = {"x": t}, [PartitionField.of("p", "x", transform)]
    inclusive, strict = projector(pred, fields, types, "inclusive"), projector(pred, fields, types, "strict")
    ptypes = {"p": result_type(transform, t)}
    checked = 0
    for v in values:
        try:
            part = {"p": apply_transform(transform, t, v)}
        except SpecError as e:  # a value whose partition overflows cannot be written
            assert e.rule == "transform.overflow"
            continue
        matches = evaluate(pred, {"x": v}, types)
        if matches:
            assert evaluate(inclusive, part, ptypes), (
                f"inclusive {inclusive} rejects the partition {part} of a matching row {v!r}"
            )
        if evaluate(strict, part, ptypes):
            assert matches, f"strict {strict} accepts the partition {part} of a row {v!r} that does not match"
        checked += 1
    return checked


@pytest.mark.parametrize("transform,family", PARAMS, ids=[f"{a}-{b}" for a, b in PARAMS])
def test_projection_properties(transform, family):
    """200 examples per transform and operator family, the source type drawn among the transform's."""
    sources = [src for src in SOURCES[transform] if pst.supports(parse_type(src), family)]
    drawn = st.one_of([pst.cases(parse_type(src), family).map(lambda c, src=src: (src, c)) for src in sources])

    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(drawn)
    def run(example):
        source, (pred, values) = example
        check_projection(transform, source, pred, values)
        seen.append(source)

    seen: list[str] = []
    run()
    assert len(seen) >= 200


def _leaf(op, source, *literals):
    return bind(Pred(op, "x", literals), {"x": parse_type(source)})


def test_the_property_check_catches_a_projection_that_is_not_inclusive():
    def too_tight(pred, fields, types, mode):  # x < 5 projected to p < T(5) is strict, not inclusive
        return Pred("lt", "p", (0,)) if mode == "inclusive" else FALSE

    with pytest.raises(AssertionError, match="inclusive"):
        check_projection("truncate[10]", "long", _leaf("lt", "long", 5), [4], projector=too_tight)


def test_the_property_check_catches_a_projection_that_is_not_strict():
    def too_loose(pred, fields, types, mode):  # x < 5 projected to p <= T(5) is inclusive, not strict
        return Pred("lt-eq", "p", (0,)) if mode == "strict" else TRUE

    with pytest.raises(AssertionError, match="strict"):
        check_projection("truncate[10]", "long", _leaf("lt", "long", 5), [7], projector=too_loose)


@pytest.mark.parametrize(
    "op,inclusive,strict",
    [
        ("lt", Pred("lt-eq", "p", (0,)), Pred("lt", "p", (0,))),
        ("lt-eq", Pred("lt-eq", "p", (0,)), Pred("lt", "p", (0,))),
        ("gt", Pred("gt-eq", "p", (0,)), Pred("gt", "p", (0,))),
        ("gt-eq", Pred("gt-eq", "p", (0,)), Pred("gt", "p", (0,))),
        ("eq", Pred("eq", "p", (0,)), FALSE),
        ("not-eq", TRUE, Pred("not-eq", "p", (0,))),
    ],
)
def test_truncate_integer_shapes(op, inclusive, strict):
    """truncate[10] of x OP 5: x < 5 is p <= T(4) inclusive, p < T(5) strict; x > 5 is p >= T(6), p > T(5)."""
    pred, t = _leaf(op, "long", 5), parse_transform("truncate[10]")
    assert project_leaf(pred, parse_type("long"), t, "p", True) == inclusive
    assert project_leaf(pred, parse_type("long"), t, "p", False) == strict


def test_inclusive_lt_at_a_partition_start_uses_the_value_before():
    """x < 10 with truncate[10]: rows up to 9, so partitions up to 0 (not 10)."""
    assert project_leaf(_leaf("lt", "int", 10), parse_type("int"), parse_transform("truncate[10]"), "p", True) == Pred(
        "lt-eq", "p", (0,)
    )


def test_pre_epoch_day_projection():
    """x < 1970-01-01T00:00 (µs 0): the last row is day -1; strict x >= 0 is p > day(-1) = -1."""
    ts, day = parse_type("timestamp"), parse_transform("day")
    assert project_leaf(_leaf("lt", "timestamp", 0), ts, day, "p", True) == Pred("lt-eq", "p", (-1,))
    assert project_leaf(_leaf("gt-eq", "timestamp", 0), ts, day, "p", False) == Pred("gt", "p", (-1,))


def test_negative_decimal_truncate():
    d, t = parse_type("decimal(9,2)"), parse_transform("truncate[50]")
    assert project_leaf(_leaf("lt", "decimal(9,2)", Decimal("-0.50")), d, t, "p", True) == Pred(
        "lt-eq", "p", (Decimal("-1.00"),)
    )
    assert project_leaf(_leaf("gt", "decimal(9,2)", Decimal("-0.51")), d, t, "p", True) == Pred(
        "gt-eq", "p", (Decimal("-0.50"),)
    )


def test_multibyte_prefix_through_truncate():
    s, t = parse_type("string"), parse_transform("truncate[2]")
    assert project_leaf(_leaf("starts-with", "string", "日本語"), s, t, "p", True) == Pred(
        "starts-with", "p", ("日本",)
    )
    assert project_leaf(_leaf("starts-with", "string", "日本語"), s, t, "p", False) == FALSE
    assert project_leaf(_leaf("starts-with", "string", "日"), s, t, "p", False) == Pred("starts-with", "p", ("日",))
    assert project_leaf(_leaf("not-starts-with", "string", "日本語"), s, t, "p", False) == Pred(
        "not-starts-with", "p", ("日本",)
    )


def test_boundaries_outside_the_type():
    """x < MIN matches no row; x <= MAX every non-null row."""
    i, t = parse_type("int"), parse_transform("truncate[10]")
    assert project_leaf(_leaf("lt", "int", -(2**31)), i, t, "p", True) == FALSE
    assert project_leaf(_leaf("lt-eq", "int", 2**31 - 1), i, t, "p", False) == Pred("not-null", "p")


def test_overflowing_boundary_projects_to_a_constant():
    """truncate[10] of x <= -2147483641 needs T(-2147483641), which overflows: true / false."""
    i, t = parse_type("int"), parse_transform("truncate[10]")
    assert project_leaf(_leaf("lt-eq", "int", -(2**31) + 7), i, t, "p", True) == TRUE


def test_void_and_unknown_transforms():
    pred = _leaf("eq", "long", 5)
    for tr in ("void", "zorder"):
        assert project_leaf(pred, parse_type("long"), parse_transform(tr), "p", True) == TRUE
        assert project_leaf(pred, parse_type("long"), parse_transform(tr), "p", False) == FALSE


def test_several_fields_on_one_source_are_combined():
    types = {"x": parse_type("long")}
    fields = [PartitionField.of("b", "x", "bucket[4]"), PartitionField.of("t", "x", "truncate[10]")]
    inc = project(_leaf("eq", "long", 5), fields, types, "inclusive")
    assert evaluate(
        inc, {"b": apply_transform("bucket[4]", "long", 5), "t": 0}, {"b": parse_type("int"), "t": parse_type("long")}
    )
    assert not evaluate(
        inc, {"b": apply_transform("bucket[4]", "long", 5), "t": 10}, {"b": parse_type("int"), "t": parse_type("long")}
    )


def test_every_registered_projection_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("predicate-projection.")]
    assert mine and [r for r in mine if r not in text] == []
