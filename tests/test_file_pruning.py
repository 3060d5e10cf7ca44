"""Metrics and manifest evaluation (rules file-pruning.inclusive-metrics, file-pruning.strict-metrics,
file-pruning.manifest-summaries): a file or manifest is never skipped while it holds a matching row,
and a strict `true` is never wrong, over files whose metrics are true, truncated or missing, with
NaN, nulls and ±0.0 (hypothesis, 200 examples per operator family)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from spec_impl.expressions import strategies as pst
from spec_impl.pruning.evaluators import Known, inclusive_leaf, manifest_might_match, might_match, must_match
from spec_impl.expressions.predicates import Pred, bind, evaluate
from spec_impl.metrics.column_metrics import ColumnMetrics, check_column_metrics, column_metrics
from spec_impl.metrics.summaries import FieldSummary, check_partition_summaries, partition_summaries
from spec_impl.rules import RULES
from spec_impl.serde.binary import to_binary
from spec_impl.types import parse_type

TYPES = ["long", "double", "float", "string", "binary", "decimal(9,2)", "date", "timestamp"]
POLICIES = ["exact", "truncated", "no-bounds", "no-counts", "nothing", "no-lower", "no-nan-count"]
_DROP = {
    "exact": (),
    "truncated": (),
    "no-bounds": ("lower_bound", "upper_bound"),
    "nothing": tuple(f.name for f in dataclasses.fields(ColumnMetrics)),
    "no-counts": ("value_count", "null_value_count", "nan_value_count"),
    "no-lower": ("lower_bound",),
    "no-nan-count": ("nan_value_count",),
}


def file_metrics(t, values, policy: str, length: int) -> ColumnMetrics:
    """Metrics a writer may record: exact, truncated to `length`, or with metrics left out."""
    m = column_metrics(t, values, length if policy == "truncated" else None)
    return dataclasses.replace(m, **{k: None for k in _DROP[policy]})


def check_file(t, pred, values, policy, length, might=might_match, must=must_match) -> None:
    types, rows = {"x": t}, [{"x": v} for v in values]
    metrics = file_metrics(t, values, policy, length)
    assert check_column_metrics(t, values, metrics) == []  # the metrics are true
    truth = [evaluate(pred, row, types) for row in rows]
    if any(truth):
        assert might(pred, types, len(rows), {"x": metrics}), f"skipped a file with a matching row: {metrics}"
    if must(pred, types, len(rows), {"x": metrics}):
        assert all(truth), f"strict evaluation claims every row matches: {metrics}"


def check_manifest(t, pred, values, drop_nan: bool, no_summaries: bool) -> None:
    summaries = partition_summaries([t], [[v] for v in values])
    assert check_partition_summaries([t], [[v] for v in values], summaries) == []
    if drop_nan:
        summaries = [dataclasses.replace(s, contains_nan=None) for s in summaries]
    rows = [{"x": v} for v in values]
    if any(evaluate(pred, row, {"x": t}) for row in rows):
        assert manifest_might_match(pred, [("x", t)], None if no_summaries else summaries), (
            f"skipped a manifest with a matching file: {summaries}"
        )


FAMILIES = list(pst.FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_never_skips_a_matching_file_or_manifest(family):
    sources = [s for s in TYPES if pst.supports(parse_type(s), family)]
    drawn = st.one_of([pst.cases(parse_type(s), family, size=8).map(lambda c, s=s: (s, c)) for s in sources])
    seen = []

    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(drawn, st.sampled_from(POLICIES), st.integers(1, 4), st.booleans(), st.booleans())
    def run(example, policy, length, drop_nan, no_summaries):
        source, (pred, values) = example
        t = parse_type(source)
        check_file(t, pred, values, policy, length)
        check_manifest(t, pred, values, drop_nan, no_summaries and policy == "nothing")
        seen.append(source)

    run()
    assert len(seen) >= 200


def _p(op, type_, *literals):
    return bind(Pred(op, "x", literals), {"x": parse_type(type_)})


def test_the_property_check_catches_a_wrong_skip():
    def exclusive_lower(pred, types, count, metrics):  # treats the lower bound as exclusive
        return False

    with pytest.raises(AssertionError, match="skipped"):
        check_file(parse_type("long"), _p("eq", "long", 10), [10, 20], "exact", 1, might=exclusive_lower)


def test_the_property_check_catches_a_wrong_strict_answer():
    with pytest.raises(AssertionError, match="strict"):
        check_file(parse_type("long"), _p("lt", "long", 15), [10, 20], "exact", 1, must=lambda *a: True)


L, D, S = parse_type("long"), parse_type("double"), parse_type("string")


def _m(t, values, **kw):
    return {"x": dataclasses.replace(column_metrics(t, values), **kw)}


def test_bounds_on_both_sides_of_the_literal():
    m = _m(L, [10, 20])
    assert might_match(_p("lt", "long", 11), {"x": L}, 2, m) and not might_match(_p("lt", "long", 10), {"x": L}, 2, m)
    assert might_match(_p("gt", "long", 19), {"x": L}, 2, m) and not might_match(_p("gt", "long", 20), {"x": L}, 2, m)
    assert must_match(_p("lt", "long", 21), {"x": L}, 2, m) and not must_match(_p("lt", "long", 20), {"x": L}, 2, m)


def test_nulls_only_and_nan_only_files():
    nulls = _m(L, [None, None])
    assert not might_match(_p("eq", "long", 1), {"x": L}, 2, nulls)
    assert must_match(_p("not-eq", "long", 1), {"x": L}, 2, nulls)  # null != 1 holds
    nans = _m(D, [float("nan")])
    assert not might_match(_p("gt", "double", 0.0), {"x": D}, 1, nans)
    assert must_match(_p("is-nan", "double"), {"x": D}, 1, nans)


def test_signed_zero_bounds():
    """A file of -0.0 has bounds [-0.0, -0.0]: x = 0.0 cannot match (totalOrder), x < 0.0 must."""
    m = _m(D, [-0.0])
    assert not might_match(_p("eq", "double", 0.0), {"x": D}, 1, m)
    assert must_match(_p("lt", "double", 0.0), {"x": D}, 1, m)


def test_truncated_string_bounds_and_prefixes():
    m = {"x": column_metrics(S, ["iceberg", "icebox"], 3)}  # bounds 'ice' and 'icf'
    assert might_match(_p("starts-with", "string", "icebo"), {"x": S}, 2, m)
    assert might_match(_p("eq", "string", "icf"), {"x": S}, 2, m)  # 'icf' is only a bound
    assert not might_match(_p("starts-with", "string", "icg"), {"x": S}, 2, m)
    assert not must_match(_p("starts-with", "string", "iceb"), {"x": S}, 2, m)


def test_nan_bound_is_ignored():
    """A NaN bound (forbidden, written by some writers) proves nothing."""
    m = {"x": ColumnMetrics(2, 0, 0, to_binary(D, float("nan")), to_binary(D, float("nan")))}
    assert might_match(_p("gt", "double", 5.0), {"x": D}, 2, m)


def test_empty_file_and_missing_metrics():
    assert not might_match(_p("eq", "long", 1), {"x": L}, 0, {}) and must_match(_p("eq", "long", 1), {"x": L}, 0, {})
    assert might_match(_p("eq", "long", 1), {"x": L}, 3, {}) and not must_match(_p("eq", "long", 1), {"x": L}, 3, {})


def test_manifest_summaries():
    s = [FieldSummary(False, False, to_binary(L, 1), to_binary(L, 5))]
    assert manifest_might_match(_p("eq", "long", 5), [("x", L)], s)
    assert not manifest_might_match(_p("eq", "long", 6), [("x", L)], s)
    assert not manifest_might_match(_p("is-null", "long"), [("x", L)], s)
    nulls = [FieldSummary(True, False)]
    assert not manifest_might_match(_p("not-null", "long"), [("x", L)], nulls)
    assert manifest_might_match(_p("eq", "long", 6), [("x", L)], None)


def test_known_is_what_the_leaf_functions_read():
    k = Known(may_null=False, may_nan=False, may_value=True, lower=3, upper=3)
    assert not inclusive_leaf(_p("not-eq", "long", 3), L, k) and inclusive_leaf(_p("not-eq", "long", 4), L, k)


def test_every_registered_pruning_rule_is_named_here():
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith("file-pruning.")]
    assert mine and [r for r in mine if r not in text] == []


@pytest.mark.parametrize(
    "added, existing, live",
    [(None, None, True), (None, 0, True), (0, None, True), (1, 0, True), (0, 3, True), (0, 0, False)],
)
def test_only_two_known_zero_file_counts_prove_a_manifest_empty(added, existing, live):
    """file-pruning.manifest-counts: a null count is assumed to be non-zero (Manifest Lists)."""
    from spec_impl.metrics.manifest_counts import may_hold_wanted_rows

    assert may_hold_wanted_rows({"added": added, "existing": existing}) is live


@pytest.mark.parametrize(
    "counts, wanted, may_hold",
    [
        ({"added": 1, "existing": 0, "added-rows": None, "existing-rows": 0}, "live", True),
        ({"added": 1, "existing": 0, "added-rows": 0, "existing-rows": 0}, "live", False),
        ({"added": 1, "existing": 1, "added-rows": 0, "existing-rows": None}, "live", True),
        ({"added": 0, "existing": 0, "deleted": None}, "deleted", True),
        ({"added": 0, "existing": 0, "deleted": 0}, "deleted", False),
        ({"deleted": 2, "deleted-rows": None}, "deleted", True),
        ({"deleted": 2, "deleted-rows": 0}, "deleted", False),
    ],
)
def test_null_row_and_deleted_counts_are_assumed_non_zero(counts, wanted, may_hold):
    """file-pruning.manifest-counts: 506, 512-514 are assumed to be non-zero when null (Manifest Lists)."""
    from spec_impl.metrics.manifest_counts import may_hold_wanted_rows

    assert may_hold_wanted_rows(counts, wanted) is may_hold


def test_a_manifest_is_read_through_the_spec_that_wrote_it():
    """file-pruning.manifest-spec: the same summaries read through the current spec would skip the
    manifest (Scan Planning: "This conversion uses the partition spec used to write the manifest file.")."""
    from spec_impl.vectors.families import metrics_evaluation as F
    from spec_impl.ops.planning_ops import PLANNING_OPS

    (case,) = [c for c in F.specs() if c.rule == "file-pruning.manifest-spec" and c.slug == "old-spec-matches"]
    assert PLANNING_OPS["plan-manifest"](case.input, "v3-adopted") is True
    as_current = dict(case.input, manifest=dict(case.input["manifest"], **{"spec-id": 1}))
    assert PLANNING_OPS["plan-manifest"](as_current, "v3-adopted") is False
