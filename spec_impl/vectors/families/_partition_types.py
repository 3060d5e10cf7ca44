"""The partition tuple type of one or several specs (Partitioning), and partition value equality."""

from __future__ import annotations

import copy

from spec_impl.vectors.cases import case
from spec_impl.vectors.families._partition_blocks import float_bits, partition_field, partition_spec, ptype_case


def _partition_types():
    pt, uni = "partition-spec.partition-type", "partition-statistics.unified-type"
    example = partition_spec(
        0, partition_field([4], 1000, "ts_day", "day"), partition_field([1], 1001, "id_bucket", "bucket[16]")
    )
    note = "The specs are given with source-ids, which both revisions read in v3."
    yield ptype_case(
        pt,
        "appendix-c-example",
        "the partition tuple of the Appendix C example: optional fields 1000 ts_day "
        "and 1001 id_bucket (int); day's result is int in the seed text and date in the adopted spec",
        [example],
        note=note,
    )
    yield ptype_case(
        pt,
        "transform-result-types",
        "identity keeps the source type (timestamp, nested double), year/month/hour/bucket give int, "
        "truncate keeps string, void keeps the source type long",
        [
            partition_spec(
                0,
                partition_field([4], 1000, "ts", "identity"),
                partition_field([6], 1001, "lat", "identity"),
                partition_field([4], 1002, "ts_year", "year"),
                partition_field([4], 1003, "ts_month", "month"),
                partition_field([4], 1004, "ts_hour", "hour"),
                partition_field([2], 1005, "data_trunc", "truncate[4]"),
                partition_field([1], 1006, "id_void", "void"),
            )
        ],
        note=note,
    )
    yield ptype_case(
        pt,
        "required-source-optional-field",
        "partition fields are optional even when the source column id is required",
        [partition_spec(0, partition_field([1], 1000, "id", "identity"))],
        note=note,
    )
    yield ptype_case(
        pt,
        "ids-not-sorted",
        "a single spec's partition type keeps the field order, not sorted by id",
        [
            partition_spec(
                0, partition_field([2], 1001, "data", "identity"), partition_field([1], 1000, "id", "identity")
            )
        ],
        note=note,
    )
    yield ptype_case(pt, "unpartitioned", "the unpartitioned spec has an empty partition struct", [partition_spec(0)])
    yield ptype_case(
        "transform.unknown",
        "partition-type-of-zorder",
        "the result type of an unknown transform is not known",
        [partition_spec(0, partition_field([1, 2], 1000, "z", "zorder"))],
        note=note,
    )

    f1, f2, f3 = (
        partition_field([1], 1, "f1", "bucket[4]"),
        partition_field([2], 2, "f2", "identity"),
        partition_field([3], 3, "f3", "identity"),
    )
    yield ptype_case(
        uni,
        "spec-example-1",
        "Partition Statistics example 1: spec#0 {field#1, field#2}, spec#1 {field#1, field#2, field#3} "
        "give struct<1, 2, 3>",
        [partition_spec(0, f1, f2), partition_spec(1, f1, f2, f3)],
        note=note,
    )
    yield ptype_case(
        uni,
        "spec-example-2",
        "Partition Statistics example 2: spec#0 {field#1, field#2}, spec#1 {field#2} give struct<1, 2>",
        [partition_spec(0, f1, f2), partition_spec(1, f2)],
        note=note,
    )
    yield ptype_case(
        uni,
        "sorted-by-field-id",
        "fields sorted by field id ascending, whatever the spec and field order",
        [partition_spec(1, f3, f1), partition_spec(0, f2)],
        note=note,
    )
    yield ptype_case(
        uni,
        "latest-name",
        "a renamed field appears once, with the name of the most recent spec (highest spec-id)",
        [
            partition_spec(1, partition_field([1], 1000, "id_bucket", "bucket[4]")),
            partition_spec(0, partition_field([1], 1000, "id_b", "bucket[4]")),
        ],
        note=note + " Spec gap: the spec does not say which name a renamed field has in the unified type; "
        "the reference takes the most recent spec's.",
    )
    yield ptype_case(
        uni,
        "conflicting-id",
        "id 1000 names bucket[4](id) in spec 0 and identity(data) in spec 1: incompatible",
        [
            partition_spec(0, partition_field([1], 1000, "id_b", "bucket[4]")),
            partition_spec(1, partition_field([2], 1000, "data", "identity")),
        ],
        note=note,
    )
    yield ptype_case(
        uni,
        "conflicting-transform",
        "id 1000 names bucket[4](id) and bucket[8](id): incompatible types of data",
        [
            partition_spec(0, partition_field([1], 1000, "id_b", "bucket[4]")),
            partition_spec(1, partition_field([1], 1000, "id_b", "bucket[8]")),
        ],
        note=note,
    )


_PTYPE = {
    "type": "struct",
    "fields": [
        {"id": 1000, "name": "d", "required": False, "type": "double"},
        {"id": 1001, "name": "f", "required": False, "type": "float"},
        {"id": 1002, "name": "s", "required": False, "type": "string"},
    ],
}


def _partition_values():
    eq = "partition-values.equality"

    def pv(slug: str, description: str, a: dict, b: dict, t: dict = _PTYPE):
        return case(eq, slug, description, "partition-values-equal", a=a, b=b, type=copy.deepcopy(t))

    yield pv(
        "same-values",
        "the same doubles, floats and strings are equal",
        {"1000": 1.5, "1001": 2.5, "1002": "a"},
        {"1000": 1.5, "1001": 2.5, "1002": "a"},
    )
    yield pv(
        "double-zero-signs",
        "double 0.0 and -0.0 differ: their bits differ",
        {"1000": 0.0, "1001": 1.0, "1002": "a"},
        {"1000": -0.0, "1001": 1.0, "1002": "a"},
    )
    yield pv(
        "float-zero-signs",
        "float 0.0 and -0.0 differ",
        {"1000": 1.0, "1001": 0.0, "1002": "a"},
        {"1000": 1.0, "1001": -0.0, "1002": "a"},
    )
    yield pv(
        "nan-canonical-double",
        "a double NaN equals another NaN of other sign and payload: NaNs are normalized (doubleToLongBits)",
        {"1000": float_bits("7ff8000000000000")},
        {"1000": float_bits("fff8000000000001")},
    )
    yield pv(
        "nan-canonical-float",
        "a float NaN equals another NaN of other payload: floatToIntBits",
        {"1001": float_bits("7fc00000")},
        {"1001": float_bits("7f800001")},
    )
    yield pv(
        "nan-not-infinity",
        "a NaN is not infinity",
        {"1000": float_bits("7ff8000000000000")},
        {"1000": float_bits("7ff0000000000000")},
    )
    yield pv("null-vs-zero", "null is not 0.0", {"1000": None, "1001": 1.0}, {"1000": 0.0, "1001": 1.0})
    yield pv(
        "nulls-equal", "two null values are equal (an absent key is null)", {"1000": None, "1002": "a"}, {"1002": "a"}
    )
    yield pv("other-string", "one differing field makes the tuples differ", {"1002": "a"}, {"1002": "b"})
    dec = {
        "type": "struct",
        "fields": [
            {"id": 1000, "name": "p", "required": False, "type": "decimal(9,2)"},
            {"id": 1001, "name": "u", "required": False, "type": "uuid"},
        ],
    }
    yield pv(
        "decimal-and-uuid",
        "decimals and uuids compare by value: 14.20 and the same uuid",
        {"1000": "14.20", "1001": "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
        {"1000": "14.20", "1001": "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
        dec,
    )


def specs():
    yield from _partition_types()
    yield from _partition_values()
