"""year, month, day, hour: offsets from 1970 with floor semantics before the epoch."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "temporal"
DESCRIPTION = "Partition Transforms: year, month, day and hour of dates and timestamps"

_VALUES = {  # source type -> (value, what) pairs, chosen at the boundaries where floor matters
    "date": [
        ("1970-01-01", "the epoch"),
        ("1969-12-31", "the day before the epoch"),
        ("2017-11-16", "the Appendix B date"),
        ("2000-02-29", "a leap day"),
        ("1969-01-01", "the first day of 1969"),
        ("1968-12-31", "the last day of 1968"),
        ("0001-01-01", "year 1"),
        ("9999-12-31", "year 9999"),
        ("-5877641-06-23", "the smallest date (day -2147483648)"),
        ("+5881580-07-11", "the largest date (day 2147483647)"),
    ],
    "timestamp": [
        ("1970-01-01T00:00:00.000000", "the epoch"),
        ("1969-12-31T23:59:59.999999", "one microsecond before the epoch"),
        ("1969-12-31T23:00:00.000000", "one hour before the epoch"),
        ("2017-11-16T22:31:08.000001", "the Appendix B timestamp"),
        ("1900-03-01T12:00:00.000000", "1900 (not a leap year)"),
        ("-290308-12-21T19:59:05.224192", "the smallest timestamp (long min µs)"),
        ("+294247-01-10T04:00:54.775807", "the largest timestamp (long max µs)"),
    ],
    "timestamptz": [
        ("1969-12-31T23:59:59.999999+00:00", "one microsecond before the epoch"),
        ("2017-11-16T22:31:08.000001+00:00", "the Appendix B timestamp"),
    ],
    "timestamp_ns": [
        ("1969-12-31T23:59:59.999999999", "one nanosecond before the epoch"),
        ("1970-01-01T00:00:00.000000000", "the epoch"),
        ("2017-11-16T22:31:08.000001001", "the Appendix B timestamp"),
        ("1677-09-21T00:12:43.145224192", "the smallest timestamp_ns (long min ns)"),
        ("2262-04-11T23:47:16.854775807", "the largest timestamp_ns (long max ns)"),
    ],
    "timestamptz_ns": [
        ("1969-12-31T23:59:59.999999999+00:00", "one nanosecond before the epoch"),
        ("2017-11-16T22:31:08.000001001+00:00", "the Appendix B timestamp"),
    ],
}


def specs():
    for transform in ("year", "month", "day", "hour"):
        for t, values in _VALUES.items():
            if transform == "hour" and t == "date":
                continue
            for value, what in values:
                yield case(
                    f"transform.{transform}",
                    f"{t}-{value}",
                    f"{transform} of {t} {value}: {what}",
                    "transform",
                    transform=transform,
                    type=t,
                    value=value,
                )
        yield case(
            "transform.null",
            f"{transform}-null",
            f"{transform} of null is null",
            "transform",
            transform=transform,
            type="timestamp",
            value=None,
        )
    for transform, t, v in (
        ("hour", "date", "2017-11-16"),
        ("year", "time", "22:31:08.000000"),
        ("month", "long", 1),
        ("day", "string", "2017-11-16"),
    ):
        yield case(
            "transform.source-type",
            f"{transform}-rejects-{t}",
            f"{t} is not a {transform} source type",
            "transform",
            transform=transform,
            type=t,
            value=v,
        )
