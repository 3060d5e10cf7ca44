"""Manifest-list partition field summaries from a manifest's partition tuples, and their checker."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "partition-summaries"
DESCRIPTION = (
    "Manifest Lists: field_summary (contains_null, contains_nan, lower_bound, upper_bound, the ±0.0 note) "
    "from a manifest's partition tuples"
)

NAN, NEG_ZERO = {"ieee754": "7ff8000000000000"}, {"ieee754": "8000000000000000"}


def _s(slug, description, types, partitions, rule="partition-summary.lower-bound"):
    return case(rule, slug, description, "partition-summaries", types=types, partitions=partitions)


def _c(slug, description, types, partitions, summaries, rule):
    return case(
        rule, slug, description, "check-partition-summaries", types=types, partitions=partitions, summaries=summaries
    )


def specs():
    two = [[1, "a"], [None, "b"], [3, None], [-2, "b"]]
    yield _s(
        "int-and-string", "one summary per field: nulls, bounds", ["int", "string"], two, "partition-summary.fields"
    )
    yield _s("no-nulls", "contains_null false without a null", ["int"], [[1], [2]], "partition-summary.contains-null")
    yield _s("all-null", "every value null: bounds null", ["int"], [[None], [None]], "partition-summary.contains-null")
    yield _s(
        "no-entries",
        "a manifest without entries: contains_null false, no bounds",
        ["long"],
        [],
        "partition-summary.contains-null",
    )
    yield _s(
        "double-nan",
        "NaN sets contains_nan and is no bound",
        ["double"],
        [[NAN], [1.5], [None]],
        "partition-summary.contains-nan",
    )
    yield _s("double-nan-only", "only NaN: bounds null", ["double"], [[NAN], [NAN]], "partition-summary.contains-nan")
    yield _s(
        "signed-zeros",
        "-0.0 and +0.0: lower -0.0, upper +0.0 (note 2)",
        ["double"],
        [[0.0], [NEG_ZERO]],
        "partition-summary.signed-zero",
    )
    yield _s("negative-zero", "only -0.0: upper -0.0", ["double"], [[NEG_ZERO]], "partition-summary.signed-zero")
    yield _s("dates-pre-epoch", "day partitions before 1970", ["date"], [["1969-12-31"], ["1970-01-01"]])
    yield _s(
        "decimal-negative",
        "truncated decimal partitions below zero",
        ["decimal(9,2)"],
        [["-10.50"], ["-0.50"]],
        "partition-summary.upper-bound",
    )
    ok = [
        {"contains_null": True, "contains_nan": False, "lower_bound": "feffffff", "upper_bound": "03000000"},
        {"contains_null": True, "contains_nan": False, "lower_bound": "61", "upper_bound": "62"},
    ]
    fields = "partition-summary.fields"
    yield _c("exact", "exact summaries are valid", ["int", "string"], two, ok, fields)
    yield _c("missing-summary", "one summary for two fields", ["int", "string"], two, ok[:1], fields)
    yield _c(
        "contains-null-false",
        "contains_null false with a null value",
        ["int", "string"],
        two,
        [dict(ok[0], contains_null=False), ok[1]],
        "partition-summary.contains-null",
    )
    yield _c(
        "contains-null-true",
        "contains_null true without a null",
        ["int"],
        [[1]],
        [{"contains_null": True, "lower_bound": "01000000", "upper_bound": "01000000"}],
        "partition-summary.contains-null",
    )
    yield _c(
        "contains-nan-absent",
        "contains_nan is optional",
        ["int"],
        [[1]],
        [{"contains_null": False, "lower_bound": "01000000", "upper_bound": "01000000"}],
        "partition-summary.contains-nan",
    )
    dbl = [[NAN], [1.5]]
    good = {
        "contains_null": False,
        "contains_nan": True,
        "lower_bound": "000000000000f83f",
        "upper_bound": "000000000000f83f",
    }
    yield _c(
        "contains-nan-valid", "contains_nan true with a NaN", ["double"], dbl, [good], "partition-summary.contains-nan"
    )
    yield _c(
        "contains-nan-false",
        "contains_nan false with a NaN",
        ["double"],
        dbl,
        [dict(good, contains_nan=False)],
        "partition-summary.contains-nan",
    )
    yield _c(
        "lower-above-min",
        "lower bound -1 above the minimum -2",
        ["int", "string"],
        two,
        [dict(ok[0], lower_bound="ffffffff"), ok[1]],
        "partition-summary.lower-bound",
    )
    yield _c(
        "lower-below-min",
        "lower bound -3 below the minimum -2 is valid",
        ["int", "string"],
        two,
        [dict(ok[0], lower_bound="fdffffff"), ok[1]],
        "partition-summary.lower-bound",
    )
    yield _c(
        "upper-below-max",
        "upper bound 2 below the maximum 3",
        ["int", "string"],
        two,
        [dict(ok[0], upper_bound="02000000"), ok[1]],
        "partition-summary.upper-bound",
    )
    yield _c(
        "lower-missing",
        "a null lower bound although values exist",
        ["int", "string"],
        two,
        [dict(ok[0], lower_bound=None), ok[1]],
        "partition-summary.lower-bound",
    )
    yield _c(
        "bounds-of-nulls",
        "bounds set although every value is null",
        ["int"],
        [[None]],
        [{"contains_null": True, "lower_bound": "01000000", "upper_bound": "01000000"}],
        "partition-summary.lower-bound",
    )
    zeros = [[0.0], [NEG_ZERO]]
    exact_z = {
        "contains_null": False,
        "contains_nan": False,
        "lower_bound": "0000000000000080",
        "upper_bound": "0000000000000000",
    }
    yield _c(
        "signed-zeros-valid", "lower -0.0 and upper +0.0", ["double"], zeros, [exact_z], "partition-summary.signed-zero"
    )
    yield _c(
        "lower-positive-zero",
        "lower +0.0 although -0.0 is a value (note 2)",
        ["double"],
        zeros,
        [dict(exact_z, lower_bound="0000000000000000")],
        "partition-summary.signed-zero",
    )
    yield _c(
        "upper-negative-zero",
        "upper -0.0 although +0.0 is a value (note 2)",
        ["double"],
        zeros,
        [dict(exact_z, upper_bound="0000000000000080")],
        "partition-summary.signed-zero",
    )
    yield _c(
        "nan-bound",
        "a NaN upper bound",
        ["double"],
        dbl,
        [dict(good, upper_bound="000000000000f87f")],
        "partition-summary.upper-bound",
    )
