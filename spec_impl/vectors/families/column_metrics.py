"""Column metrics of a data file from its values, truncated bounds, and claimed metrics checked."""

from __future__ import annotations

import struct

from spec_impl.vectors.cases import case

NAME = "column-metrics"
DESCRIPTION = (
    "Manifests: data_file value_counts, null_value_counts, nan_value_counts, lower_bounds and upper_bounds "
    "from a column's values"
)

NAN = {"ieee754": "7ff8000000000000"}
NAN_PAYLOAD = {"ieee754": "7ff0000000000001"}
NEG_ZERO = {"ieee754": "8000000000000000"}
INF = {"ieee754": "7ff0000000000000"}
NEG_INF = {"ieee754": "fff0000000000000"}
FLOAT_NAN, FLOAT_NEG_ZERO = {"ieee754": "7fc00000"}, {"ieee754": "80000000"}


def _m(slug, description, type_, values, rule="metrics.lower-bound", **kw):
    return case(rule, slug, description, "column-metrics", type=type_, values=values, **kw)


def _c(slug, description, type_, values, metrics, rule):
    return case(rule, slug, description, "check-column-metrics", type=type_, values=values, metrics=metrics)


def _geo(*coordinates: float) -> str:
    return struct.pack(f"<{len(coordinates)}d", *coordinates).hex()


def _geo_bounds(slug: str, description: str, type_: str, lower: str, upper: str, rule: str = "metrics.geo-bound"):
    return case(rule, slug, description, "read-geo-bounds", type=type_, lower_bound=lower, upper_bound=upper)


def geo_specs():
    """Adopted v3, Appendix D geo bounds: "x:y, x:y:z, x:y:NaN:m or x:y:z:m as LE doubles"; only a
    geography may have xmin > xmax."""
    nan = float("nan")
    yield _geo_bounds("geometry-x-y", "a geometry box of x:y bounds", "geometry", _geo(1, 2), _geo(3, 4))
    yield _geo_bounds("geometry-x-y-z", "x:y:z bounds", "geometry", _geo(1, 2, -5), _geo(3, 4, 5))
    yield _geo_bounds(
        "geometry-x-y-nan-m", "x:y:NaN:m bounds: m without z", "geometry", _geo(1, 2, nan, 0), _geo(3, 4, nan, 9)
    )
    yield _geo_bounds("geography-x-y-z-m", "x:y:z:m bounds", "geography", _geo(1, 2, 3, 4), _geo(5, 6, 7, 8))
    yield _geo_bounds("eight-bytes", "a bound of one double", "geometry", _geo(1), _geo(3, 4))
    yield _geo_bounds("x-nan", "a bound whose x is NaN", "geometry", _geo(nan, 2), _geo(3, 4))
    order = "metrics.geo-bound-order"
    yield _geo_bounds(
        "geography-across-the-antimeridian",
        "a geography box with xmin 170 > xmax -170 (it wraps)",
        "geography",
        _geo(170, -10),
        _geo(-170, 10),
        order,
    )
    yield _geo_bounds(
        "geometry-xmin-above-xmax",
        "a geometry box with xmin 170 > xmax -170: only a geography wraps",
        "geometry",
        _geo(170, -10),
        _geo(-170, 10),
        order,
    )
    yield _geo_bounds(
        "geography-ymin-above-ymax",
        "a geography box with ymin 10 > ymax -10",
        "geography",
        _geo(1, 10),
        _geo(3, -10),
        order,
    )


def specs():
    yield from geo_specs()
    yield _m("long", "counts and bounds of a long column with a null", "long", [3, -1, None, 7], "metrics.value-count")
    yield _m(
        "nulls-counted",
        "value_counts includes nulls: two nulls of three values",
        "int",
        [None, 5, None],
        "metrics.null-value-count",
    )
    yield _m("all-null", "a column of nulls has counts and no bounds", "int", [None, None])
    yield _m("no-rows", "a column of an empty file: zero counts, no bounds", "long", [], "metrics.value-count")
    yield _m(
        "nan-counted",
        "value_counts includes NaN; NaN is no bound",
        "double",
        [1.5, NAN, None, NAN_PAYLOAD],
        "metrics.nan-value-count",
    )
    yield _m("nan-only", "a column of NaNs has no bounds", "double", [NAN, NAN], "metrics.bound.nan")
    yield _m(
        "float-nan",
        "float NaN counted, bounds over the rest",
        "float",
        [FLOAT_NAN, 2.5, -1.0],
        "metrics.nan-value-count",
    )
    yield _m(
        "signed-zeros",
        "-0.0 and 0.0: lower -0.0, upper 0.0 (totalOrder)",
        "double",
        [0.0, NEG_ZERO],
        "metrics.bound.signed-zero",
    )
    yield _m("negative-zero-only", "only -0.0: both bounds -0.0", "double", [NEG_ZERO], "metrics.bound.signed-zero")
    yield _m("float-signed-zeros", "float -0.0 and 0.0", "float", [FLOAT_NEG_ZERO, 0.0], "metrics.bound.signed-zero")
    yield _m("infinities", "infinities are bounds (NaN is not)", "double", [NEG_INF, INF, NAN, 0.0])
    yield _m(
        "decimal-negative", "negative decimals: two's-complement bounds", "decimal(9,2)", ["-10.65", "-0.01", "3.00"]
    )
    yield _m("date-pre-epoch", "dates before 1970", "date", ["1969-12-31", "1900-01-01", "2017-11-16"])
    yield _m(
        "timestamp-pre-epoch",
        "timestamps before 1970",
        "timestamp",
        ["1969-12-31T23:59:59.999999", "1970-01-01T00:00:00.000000"],
    )
    yield _m(
        "string-code-points",
        "strings compare by code point: U+FF61 below U+1F600",
        "string",
        ["\uff61", "\U0001f600", "a"],
        "metrics.upper-bound",
    )
    yield _m(
        "uuid-unsigned",
        "uuids compare as unsigned numbers",
        "uuid",
        ["f79c3e09-677c-4bbd-a479-3f349cb785e7", "0000fffe-677c-4bbd-a479-3f349cb785e7"],
    )
    yield _m("boolean", "boolean bounds", "boolean", [True, False, None])
    yield _m("fixed", "fixed bounds are never truncated", "fixed[3]", ["ffff00", "000102"], truncate_length=1)
    # truncation of strings and binary
    t = "metrics.bound.truncation"
    yield _m(
        "string-truncated",
        "truncate 3: lower 'ice', upper 'icf'",
        "string",
        ["iceberg", "icebox"],
        t,
        truncate_length=3,
    )
    yield _m("string-short-exact", "values within the length stay exact", "string", ["ice", "ic"], t, truncate_length=3)
    yield _m(
        "string-length-boundary",
        "a value of exactly L code points is not incremented",
        "string",
        ["abc"],
        t,
        truncate_length=3,
    )
    yield _m(
        "string-length-plus-one",
        "a value of L + 1 code points is incremented",
        "string",
        ["abcd"],
        t,
        truncate_length=3,
    )
    yield _m(
        "string-multibyte",
        "truncation counts code points, not bytes",
        "string",
        ["日本語テキスト"],
        t,
        truncate_length=2,
    )
    yield _m(
        "string-non-bmp",
        "a code point outside the BMP is one code point",
        "string",
        ["a\U0001f600b\U0001f600"],
        t,
        truncate_length=2,
    )
    yield _m(
        "string-skip-surrogates",
        "U+D7FF increments to U+E000 (surrogates have no UTF-8 form)",
        "string",
        ["a\ud7ffz"],
        t,
        truncate_length=2,
    )
    yield _m(
        "string-max-code-point",
        "U+10FFFF cannot be incremented: the previous code point is",
        "string",
        ["a\U0010ffffz"],
        t,
        truncate_length=2,
    )
    yield _m(
        "string-no-upper",
        "no incrementable code point: no upper bound",
        "string",
        ["\U0010ffff\U0010ffffz"],
        t,
        truncate_length=2,
    )
    yield _m(
        "binary-truncated",
        "binary truncate 2: prefix, last byte incremented",
        "binary",
        ["010203", "0102ff"],
        t,
        truncate_length=2,
    )
    yield _m(
        "binary-carry", "0xff cannot be incremented: the byte before it is", "binary", ["01ffff"], t, truncate_length=2
    )
    yield _m("binary-no-upper", "all 0xff: no upper bound", "binary", ["ffffff"], t, truncate_length=2)
    yield _m(
        "truncate-long-exact",
        "a truncation length leaves the bounds of other types exact",
        "long",
        [1, 300],
        t,
        truncate_length=1,
    )
    yield _m("truncate-zero-rejected", "a truncation length is positive", "string", ["a"], t, truncate_length=0)

    # --- checking claimed metrics ---------------------------------------------------------------
    longs = [3, -1, None, 7]
    exact = {
        "value_count": 4,
        "null_value_count": 1,
        "lower_bound": "ffffffffffffffff",
        "upper_bound": "0700000000000000",
    }
    yield _c("exact", "exact metrics are valid", "long", longs, exact, "metrics.value-count")
    yield _c("all-missing", "every metric is optional", "long", longs, {}, "metrics.value-count")
    yield _c(
        "value-count-without-nulls",
        "value_counts that omits the null",
        "long",
        longs,
        dict(exact, value_count=3),
        "metrics.value-count",
    )
    yield _c(
        "null-count-wrong",
        "null_value_counts off by one",
        "long",
        longs,
        dict(exact, null_value_count=0),
        "metrics.null-value-count",
    )
    yield _c(
        "nan-count-long",
        "a long column has no NaN: a count of 0 is valid",
        "long",
        longs,
        dict(exact, nan_value_count=0),
        "metrics.nan-value-count",
    )
    yield _c(
        "nan-count-long-nonzero",
        "a long column has no NaN: a count of 1 is wrong",
        "long",
        longs,
        dict(exact, nan_value_count=1),
        "metrics.nan-value-count",
    )
    yield _c(
        "lower-equal-min",
        "a lower bound equal to the minimum",
        "long",
        longs,
        dict(exact, lower_bound="ffffffffffffffff"),
        "metrics.lower-bound",
    )
    yield _c(
        "lower-below-min",
        "a lower bound below the minimum is valid (not tight)",
        "long",
        longs,
        dict(exact, lower_bound="feffffffffffffff"),
        "metrics.lower-bound",
    )
    yield _c(
        "lower-above-min",
        "a lower bound one above the minimum",
        "long",
        longs,
        dict(exact, lower_bound="0000000000000000"),
        "metrics.lower-bound",
    )
    yield _c(
        "upper-below-max",
        "an upper bound one below the maximum",
        "long",
        longs,
        dict(exact, upper_bound="0600000000000000"),
        "metrics.upper-bound",
    )
    yield _c(
        "upper-above-max",
        "an upper bound above the maximum is valid",
        "long",
        longs,
        dict(exact, upper_bound="0800000000000000"),
        "metrics.upper-bound",
    )
    yield _c(
        "bound-wrong-length",
        "a 2-byte long bound is no Appendix D value",
        "long",
        longs,
        dict(exact, lower_bound="ffff"),
        "metrics.bound.encoding",
    )
    yield _c(
        "promoted-int-bound",
        "a 4-byte long bound reads as the int it was written as",
        "long",
        longs,
        dict(exact, lower_bound="ffffffff"),
        "metrics.bound.encoding",
    )
    dbl = [NEG_ZERO, 1.0, NAN]
    ok = {
        "value_count": 3,
        "null_value_count": 0,
        "nan_value_count": 1,
        "lower_bound": "0000000000000080",
        "upper_bound": "000000000000f03f",
    }
    yield _c("double-exact", "-0.0 lower bound, NaN counted", "double", dbl, ok, "metrics.bound.signed-zero")
    yield _c(
        "double-lower-positive-zero",
        "lower +0.0 when -0.0 is a value",
        "double",
        dbl,
        dict(ok, lower_bound="0000000000000000"),
        "metrics.bound.signed-zero",
    )
    yield _c(
        "double-upper-negative-zero",
        "upper -0.0 when +0.0 is a value",
        "double",
        [0.0],
        {"upper_bound": "0000000000000080"},
        "metrics.bound.signed-zero",
    )
    yield _c(
        "double-lower-negative-zero-for-positive",
        "lower -0.0 when +0.0 is the minimum is valid",
        "double",
        [0.0],
        {"lower_bound": "0000000000000080"},
        "metrics.bound.signed-zero",
    )
    yield _c(
        "double-nan-bound",
        "a NaN upper bound",
        "double",
        dbl,
        dict(ok, upper_bound="000000000000f87f"),
        "metrics.bound.nan",
    )
    yield _c(
        "double-nan-count-wrong",
        "nan_value_counts of 0 with a NaN",
        "double",
        dbl,
        dict(ok, nan_value_count=0),
        "metrics.nan-value-count",
    )
    yield _c(
        "double-value-count-without-nan",
        "value_counts that omits the NaN",
        "double",
        dbl,
        dict(ok, value_count=2),
        "metrics.value-count",
    )
    strings = ["iceberg", "icebox"]
    yield _c(
        "string-truncated-valid",
        "lower 'ice', upper 'icf' (truncated to 3)",
        "string",
        strings,
        {"lower_bound": "696365", "upper_bound": "696366"},
        "metrics.bound.truncation",
    )
    yield _c(
        "string-upper-not-incremented",
        "upper 'ice': truncated but not incremented",
        "string",
        strings,
        {"upper_bound": "696365"},
        "metrics.bound.truncation",
    )
    yield _c(
        "string-upper-below",
        "upper 'icea' is below 'icebox'",
        "string",
        strings,
        {"upper_bound": "69636561"},
        "metrics.upper-bound",
    )
    yield _c(
        "string-lower-above",
        "lower 'icec' is above 'iceberg'",
        "string",
        strings,
        {"lower_bound": "69636563"},
        "metrics.lower-bound",
    )
    yield _c(
        "string-cut-in-code-point",
        "a bound cut inside a UTF-8 sequence is no string",
        "string",
        ["日本"],
        {"lower_bound": "e697"},
        "metrics.bound.encoding",
    )
    yield _c(
        "string-multibyte-valid",
        "'日' is a lower bound of '日本', '日' + 1 an upper",
        "string",
        ["日本"],
        {"lower_bound": "e697a5", "upper_bound": "e697a6"},
        "metrics.bound.truncation",
    )
    yield _c(
        "binary-upper-prefix",
        "binary upper bound 0102 below 010203",
        "binary",
        ["010203"],
        {"upper_bound": "0102"},
        "metrics.bound.truncation",
    )
    yield _c(
        "binary-upper-incremented",
        "binary upper bound 0103 above 010203",
        "binary",
        ["010203"],
        {"upper_bound": "0103"},
        "metrics.bound.truncation",
    )
    yield _c(
        "all-null-any-bound",
        "with no non-null, non-NaN value any bound holds",
        "int",
        [None],
        {"lower_bound": "05000000"},
        "metrics.lower-bound",
    )
    yield _c(
        "decimal-negative-lower-above",
        "lower -10.64 above the minimum -10.65",
        "decimal(9,2)",
        ["-10.65", "3.00"],
        {"lower_bound": "fbd8"},
        "metrics.lower-bound",
    )
