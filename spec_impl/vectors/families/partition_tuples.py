"""A data file's partition tuple from its rows: every row's transform of its source value."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "partition-tuples"
DESCRIPTION = "Manifests: data_file partition: the tuple equals the transform of every row's source value"

SCHEMA = {
    "type": "struct",
    "fields": [
        {"id": 1, "name": "id", "required": False, "type": "long"},
        {"id": 2, "name": "ts", "required": False, "type": "timestamp"},
        {"id": 3, "name": "name", "required": False, "type": "string"},
        {"id": 4, "name": "amount", "required": False, "type": "decimal(9,2)"},
        {"id": 5, "name": "f", "required": False, "type": "double"},
        {"id": 6, "name": "d", "required": False, "type": "date"},
        {"id": 7, "name": "tsn", "required": False, "type": "timestamp_ns"},
    ],
}
NAN, NAN_PAYLOAD, NEG_ZERO = (
    {"ieee754": "7ff8000000000000"},
    {"ieee754": "7ff0000000000001"},
    {"ieee754": "8000000000000000"},
)


def _f(name, source, transform):
    return {"name": name, "source": source, "transform": transform}


def _t(slug, description, spec, rows, rule="data-file.partition-tuple"):
    return case(rule, slug, description, "partition-tuple", schema=SCHEMA, spec=spec, rows=rows)


def _c(slug, description, spec, rows, partition):
    return case(
        "data-file.partition-tuple",
        slug,
        description,
        "check-partition-tuple",
        schema=SCHEMA,
        spec=spec,
        rows=rows,
        partition=partition,
    )


def specs():
    single = "data-file.partition-tuple.single"
    day, hour = [_f("ts_day", "ts", "day")], [_f("ts_hour", "ts", "hour")]
    yield _t(
        "day-same",
        "two rows of one day",
        day,
        [{"ts": "2017-11-16T00:00:00.000000"}, {"ts": "2017-11-16T23:59:59.999999"}],
    )
    yield _t(
        "day-straddles",
        "the last microsecond of a day and the first of the next",
        day,
        [{"ts": "2017-11-16T23:59:59.999999"}, {"ts": "2017-11-17T00:00:00.000000"}],
        single,
    )
    yield _t(
        "day-pre-epoch",
        "the last microsecond before 1970 is day -1",
        day,
        [{"ts": "1969-12-31T23:59:59.999999"}, {"ts": "1969-12-31T00:00:00.000000"}],
    )
    yield _t(
        "day-pre-epoch-straddles",
        "1969-12-31T23:59:59.999999 and 1970-01-01T00:00:00 differ",
        day,
        [{"ts": "1969-12-31T23:59:59.999999"}, {"ts": "1970-01-01T00:00:00.000000"}],
        single,
    )
    yield _t(
        "hour-pre-epoch",
        "hour before 1970",
        hour,
        [{"ts": "1969-12-31T23:00:00.000000"}, {"ts": "1969-12-31T23:59:59.999999"}],
    )
    yield _t(
        "month-and-year",
        "month and year of a date",
        [_f("m", "d", "month"), _f("y", "d", "year")],
        [{"d": "1969-01-31"}, {"d": "1969-01-01"}],
    )
    yield _t(
        "year-straddles",
        "1969-12-31 and 1970-01-01",
        [_f("y", "d", "year")],
        [{"d": "1969-12-31"}, {"d": "1970-01-01"}],
        single,
    )
    yield _t(
        "day-ns", "day of timestamp_ns rows", [_f("day", "tsn", "day")], [{"tsn": "1969-12-31T23:59:59.999999999"}]
    )
    yield _t("bucket", "bucket[16] of ids in one bucket", [_f("b", "id", "bucket[16]")], [{"id": 34}, {"id": 34}])
    yield _t("bucket-differs", "ids in two buckets", [_f("b", "id", "bucket[16]")], [{"id": 34}, {"id": 35}], single)
    yield _t(
        "truncate-string-multibyte",
        "truncate[2] counts code points",
        [_f("t", "name", "truncate[2]")],
        [{"name": "日本語"}, {"name": "日本"}],
    )
    yield _t(
        "truncate-string-differs",
        "'日本' and '日文' differ in the second code point",
        [_f("t", "name", "truncate[2]")],
        [{"name": "日本語"}, {"name": "日文"}],
        single,
    )
    yield _t(
        "truncate-decimal-negative",
        "truncate[50] of negative decimals floors",
        [_f("t", "amount", "truncate[50]")],
        [{"amount": "-0.01"}, {"amount": "-0.50"}],
    )
    yield _t(
        "truncate-decimal-negative-straddles",
        "-0.51 and -0.50 are in different partitions",
        [_f("t", "amount", "truncate[50]")],
        [{"amount": "-0.51"}, {"amount": "-0.50"}],
        single,
    )
    yield _t(
        "identity-null", "null source values: a null partition value", [_f("id", "id", "identity")], [{"id": None}, {}]
    )
    yield _t(
        "null-and-value",
        "a null and a value are two partitions",
        [_f("id", "id", "identity")],
        [{"id": None}, {"id": 1}],
        single,
    )
    yield _t(
        "identity-nan-payloads",
        "NaNs with different payloads are one partition (note 3)",
        [_f("f", "f", "identity")],
        [{"f": NAN}, {"f": NAN_PAYLOAD}],
    )
    yield _t(
        "identity-nan",
        "rows of one NaN are one partition whose value is NaN",
        [_f("f", "f", "identity")],
        [{"f": NAN}, {"f": NAN}],
    )
    yield _t(
        "identity-signed-zeros",
        "-0.0 and 0.0 are two partitions (bits differ)",
        [_f("f", "f", "identity")],
        [{"f": NEG_ZERO}, {"f": 0.0}],
        single,
    )
    yield _t("void", "void: always null", [_f("v", "id", "void"), _f("b", "id", "bucket[2]")], [{"id": 2}, {"id": 2}])
    yield _t("no-rows", "a file without rows", day, [], single)
    rows = [{"ts": "2017-11-16T01:00:00.000000", "id": 34}, {"ts": "2017-11-16T02:00:00.000000", "id": 34}]
    spec = [_f("ts_hour", "ts", "hour"), _f("ts_month", "ts", "month"), _f("b", "id", "bucket[16]")]
    hours = 419665  # 2017-11-16T01
    yield _c("matches", "the claimed tuple is every row's", spec, rows[:1], [hours, 574, 3])
    yield _c("hour-off-by-one", "a claimed hour one later", spec, rows[:1], [hours + 1, 574, 3])
    yield _c("bucket-off-by-one", "a claimed bucket one more", spec, rows[:1], [hours, 574, 4])
    yield _c("one-row-outside", "one row of another hour", spec, rows, [hours, 574, 3])
    yield _c("null-claimed", "a null claimed for non-null values", spec, rows[:1], [None, 574, 3])
