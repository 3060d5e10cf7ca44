"""Partition spec cases (Partitioning, Partition Evolution, Appendix C): the JSON of each format
version, source-id / source-ids per version and revision, equivalent specs and partition field ids
(v1 positions from 1000, reuse and last-partition-id on evolution)."""

from __future__ import annotations

from spec_impl.vectors.families._partition_blocks import (
    APPENDIX_C_SPEC,
    assign_case,
    parse_case,
    partition_field,
    partition_spec,
    ptype_case,
)


def _equivalent():
    day = {"spec-id": 0, "fields": [{"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"}]}
    yield assign_case(
        "partition-spec.equivalent",
        "equivalent-spec-exists",
        "writers must not create a spec equivalent to an existing one (same fields, sources, transforms, names)",
        {"spec-id": 1, "fields": [{"source-id": 4, "name": "ts_day", "transform": "day"}]},
        [day],
        1000,
        2,
    )
    yield assign_case(
        "partition-spec.equivalent",
        "renamed-is-not-equivalent",
        "a spec whose field has another name is not equivalent (its field id is reused)",
        {"spec-id": 1, "fields": [{"source-id": 4, "name": "day_of_ts", "transform": "day"}]},
        [day],
        1000,
        2,
    )


def _partition_json():
    j = "partition-spec.json"
    for fv in (1, 2):
        yield parse_case(
            j,
            f"appendix-c-example-v{fv}",
            f"the Appendix C partition spec example read as v{fv}: written back unchanged",
            APPENDIX_C_SPEC,
            fv,
        )
    yield parse_case(
        j,
        "appendix-c-example-v2-schema",
        "the Appendix C example checked against a schema (ts is a timestamp, id a long)",
        APPENDIX_C_SPEC,
        2,
        schema=True,
    )
    yield parse_case(
        j, "unpartitioned", "a spec without fields (the unpartitioned spec) is valid", partition_spec(0), 2, schema=True
    )
    yield parse_case(
        j,
        "all-transforms",
        "one field of each transform of Appendix C's list, checked against the schema",
        partition_spec(
            3,
            partition_field(2, 1000, "data", "identity"),
            partition_field(1, 1001, "id_bucket", "bucket[16]"),
            partition_field(2, 1002, "data_trunc", "truncate[20]"),
            partition_field(4, 1003, "ts_year", "year"),
            partition_field(4, 1004, "ts_month", "month"),
            partition_field(4, 1005, "ts_day", "day"),
            partition_field(4, 1006, "ts_hour", "hour"),
            partition_field(3, 1007, "category_void", "void"),
        ),
        2,
        schema=True,
    )
    yield parse_case(
        j,
        "names-not-unique",
        "partition field names are not required to be unique nor to differ from column names "
        "(the spec is silent; Iceberg Java rejects both)",
        partition_spec(0, partition_field(1, 1000, "data", "bucket[2]"), partition_field(2, 1001, "data", "identity")),
        2,
        schema=True,
        note="Spec gap: no rule on partition field names; the reference accepts them.",
    )
    yield parse_case(
        j,
        "key-order-free",
        "the keys of a field may come in any order",
        partition_spec(0, {"transform": "day", "name": "ts_day", "field-id": 1000, "source-id": 4}),
        2,
    )
    bad = [
        ("not-an-object", "a spec must be a JSON object, not the field list", APPENDIX_C_SPEC["fields"]),
        ("missing-spec-id", "spec-id is required", {"fields": []}),
        ("spec-id-string", "spec-id must be a JSON int", {"spec-id": "0", "fields": []}),
        ("spec-id-bool", "spec-id must be a JSON int, not a boolean", {"spec-id": True, "fields": []}),
        ("missing-fields", "fields is required", {"spec-id": 0}),
        ("fields-object", "fields must be a JSON list", {"spec-id": 0, "fields": {}}),
        ("field-not-object", "a field must be a JSON object", partition_spec(0, 1)),  # type: ignore[arg-type]
        (
            "missing-name",
            "a field needs name",
            partition_spec(0, {"source-id": 1, "field-id": 1000, "transform": "identity"}),
        ),
        (
            "name-not-string",
            "name must be a JSON string",
            partition_spec(0, {"source-id": 1, "field-id": 1000, "name": 7, "transform": "identity"}),
        ),
        (
            "missing-transform",
            "a field needs transform",
            partition_spec(0, {"source-id": 1, "field-id": 1000, "name": "x"}),
        ),
        (
            "transform-not-string",
            "transform must be a JSON string",
            partition_spec(0, {"source-id": 1, "field-id": 1000, "name": "x", "transform": 1}),
        ),
        (
            "field-id-string",
            "field-id must be a JSON int",
            partition_spec(0, partition_field(1, "1000", "x", "identity")),
        ),  # type: ignore[arg-type]
        (
            "source-id-string",
            "source-id must be a JSON int",
            partition_spec(0, partition_field("4", 1000, "x", "identity")),
        ),
        (
            "source-id-null",
            "source-id must be a JSON int, not null",
            partition_spec(0, {"source-id": None, "field-id": 1000, "name": "x", "transform": "identity"}),
        ),
        (
            "source-id-fraction",
            "source-id must be a JSON int: 4.5 is rejected",
            partition_spec(0, partition_field(4.5, 1000, "ts_day", "day")),
        ),
    ]
    for slug, description, doc in bad:
        yield parse_case(j, slug, description, doc, 2)
    yield parse_case(
        j,
        "source-ids-empty",
        "source-ids must not be empty",
        partition_spec(0, partition_field([], 1000, "x", "identity")),
        3,
    )
    yield parse_case(
        j,
        "source-ids-not-list",
        "source-ids must be a JSON list",
        partition_spec(0, {"source-ids": 4, "field-id": 1000, "name": "x", "transform": "identity"}),
        3,
    )
    yield parse_case(
        j,
        "source-ids-bool",
        "source-ids holds ints: true is not an int",
        partition_spec(0, partition_field([1, True], 1000, "x", "zorder")),
        3,
    )
    yield parse_case(
        j,
        "source-ids-string-element",
        "source-ids holds ints, not strings",
        partition_spec(0, partition_field(["4"], 1000, "x", "identity")),
        3,
    )


# --- source-id / source-ids per format version and revision ------------------------------------


def _source_keys():
    sid, sids, agree = "partition-spec.source-id", "partition-spec.source-ids", "partition-spec.source-ids.agree"
    for fv in (1, 2):
        yield parse_case(
            sid,
            f"v{fv}-source-ids-only",
            f"v{fv} requires source-id: a field with only source-ids [4] is rejected",
            partition_spec(0, partition_field([4], 1000, "ts_day", "day")),
            fv,
        )
        yield parse_case(
            sid,
            f"v{fv}-no-source",
            f"v{fv}: a field with neither source-id nor source-ids is rejected",
            partition_spec(0, partition_field(None, 1000, "ts_day", "day")),
            fv,
        )
        yield parse_case(
            sid,
            f"v{fv}-both-agreeing",
            f"v{fv}: source-ids [4] next to source-id 4 is tolerated; "
            "a single-argument field is written with source-id only",
            partition_spec(0, partition_field(4, 1000, "ts_day", "day", ids=True)),
            fv,
        )
        yield parse_case(
            sid,
            f"v{fv}-multi-argument",
            f"v{fv} multi-argument field (source-id 1, source-ids [1, 2], unknown transform zorder): the seed "
            "writes both keys; the adopted spec writes no source-ids in v1/v2, so there is no form to write it",
            partition_spec(
                0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}
            ),
            fv,
        )

    yield parse_case(
        sids,
        "v3-appendix-c-example",
        "the Appendix C example (source-id only) read as v3: the seed requires source-ids; "
        "the adopted spec reads source-id and writes it back",
        APPENDIX_C_SPEC,
        3,
    )
    yield parse_case(
        sids,
        "v3-source-ids-single",
        "v3 single-argument fields given as source-ids [4] and [1]: the seed writes source-ids; "
        "the adopted spec reads the seed-era form and writes source-id",
        partition_spec(
            0, partition_field([4], 1000, "ts_day", "day"), partition_field([1], 1001, "id_bucket", "bucket[16]")
        ),
        3,
    )
    yield parse_case(
        sids,
        "v3-both-agreeing",
        "v3 source-id 4 with source-ids [4]: the seed writes only source-ids, the adopted spec only source-id",
        partition_spec(0, partition_field(4, 1000, "ts_day", "day", ids=True)),
        3,
    )
    yield parse_case(
        sids,
        "v3-multi-argument",
        "v3 multi-argument field (source-ids [1, 2], unknown transform zorder): "
        "written as source-ids in both revisions",
        partition_spec(0, partition_field([1, 2], 1000, "z", "zorder")),
        3,
    )
    yield parse_case(
        sids,
        "v3-multi-argument-with-source-id",
        "v3 multi-argument field with source-id 1 and source-ids [1, 2]: read, written back as source-ids only",
        partition_spec(0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        3,
    )
    yield parse_case(
        sids,
        "v3-no-source",
        "v3: a field with neither source-id nor source-ids is rejected",
        partition_spec(0, partition_field(None, 1000, "ts_day", "day")),
        3,
    )

    yield parse_case(
        agree,
        "v2-first-differs",
        "v2: source-id 2 is not the first element of source-ids [1, 2]",
        partition_spec(0, {"source-id": 2, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        2,
    )
    yield parse_case(
        agree,
        "v1-single-differs",
        "v1: source-id 4 next to source-ids [1]",
        partition_spec(0, {"source-id": 4, "source-ids": [1], "field-id": 1000, "name": "ts_day", "transform": "day"}),
        1,
    )
    yield parse_case(
        agree,
        "v3-single-differs",
        "v3: source-id 5 next to source-ids [4]",
        partition_spec(0, {"source-id": 5, "source-ids": [4], "field-id": 1000, "name": "ts_day", "transform": "day"}),
        3,
    )
    yield parse_case(
        agree,
        "v3-last-not-first",
        "v3: source-id 2 is in source-ids [1, 2] but not its first element",
        partition_spec(0, {"source-id": 2, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        3,
    )


def _field_ids():
    req, v1, uniq = (
        "partition-spec.field-id.required",
        "partition-spec.field-id.v1-assignment",
        "partition-spec.field-id.unique",
    )
    no_ids = partition_spec(
        0, partition_field(4, None, "ts_day", "day"), partition_field(1, None, "id_bucket", "bucket[16]")
    )
    yield parse_case(req, "v2-missing", "v2: the Appendix C example without field-id is rejected", no_ids, 2)
    yield parse_case(
        req,
        "v3-missing",
        "v3: the Appendix C example without field-id (sources in both keys, read by both revisions) is rejected",
        partition_spec(
            0,
            partition_field(4, None, "ts_day", "day", ids=True),
            partition_field(1, None, "id_bucket", "bucket[16]", ids=True),
        ),
        3,
    )
    yield parse_case(
        req,
        "v2-one-missing",
        "v2: the second field lacks field-id while the first has it",
        partition_spec(
            0, partition_field(4, 1000, "ts_day", "day"), partition_field(1, None, "id_bucket", "bucket[16]")
        ),
        2,
    )

    yield parse_case(
        v1,
        "appendix-c-without-ids",
        "v1: the Appendix C example without field-id gets 1000 and 1001 in field order",
        no_ids,
        1,
    )
    yield parse_case(
        v1,
        "positional-not-by-source",
        "v1: ids follow the field order, not the source ids: bucket(id) first gets 1000",
        partition_spec(
            0, partition_field(1, None, "id_bucket", "bucket[16]"), partition_field(4, None, "ts_day", "day")
        ),
        1,
    )
    yield parse_case(
        v1,
        "missing-id-is-position",
        "v1: a missing field-id is 1000 + position even when another field carries one "
        "(the second field keeps 1005, the first gets 1000)",
        partition_spec(
            0, partition_field(4, None, "ts_day", "day"), partition_field(1, 1005, "id_bucket", "bucket[16]")
        ),
        1,
    )
    yield parse_case(
        v1,
        "second-missing",
        "v1: the first field carries 1000, the missing second id is 1001",
        partition_spec(
            0, partition_field(4, 1000, "ts_day", "day"), partition_field(1, None, "id_bucket", "bucket[16]")
        ),
        1,
    )
    yield parse_case(
        v1,
        "later-spec-restarts",
        "v1: the ids of every spec start at 1000, whatever its spec-id (spec 3 here)",
        partition_spec(3, partition_field(2, None, "data", "identity")),
        1,
    )
    yield assign_case(
        v1,
        "assign-v1-positional",
        "assigning ids to a new v1 spec: 1000 + position, no reuse of the previous spec's ids "
        "(identity(data) had 1001 in spec 0 and gets 1000 at position 0); last-partition-id stays 1001",
        partition_spec(
            1, partition_field(2, None, "data", "identity"), partition_field(3, None, "category", "identity")
        ),
        [partition_spec(0, partition_field(1, 1000, "id", "identity"), partition_field(2, 1001, "data", "identity"))],
        1001,
        1,
    )

    yield parse_case(
        uniq,
        "duplicate-v2",
        "v2: two fields of one spec with field-id 1000",
        partition_spec(
            0, partition_field(4, 1000, "ts_day", "day"), partition_field(1, 1000, "id_bucket", "bucket[16]")
        ),
        2,
        schema=True,
    )
    yield parse_case(
        uniq,
        "duplicate-v1-explicit",
        "v1: explicit field ids 1000 twice",
        partition_spec(
            0, partition_field(4, 1000, "ts_day", "day"), partition_field(1, 1000, "id_bucket", "bucket[16]")
        ),
        1,
        schema=True,
    )
    yield parse_case(
        uniq,
        "distinct-not-sequential",
        "field ids need be unique, not sequential nor from 1000: 7 and 3",
        partition_spec(0, partition_field(4, 7, "ts_day", "day"), partition_field(1, 3, "id_bucket", "bucket[16]")),
        2,
        schema=True,
    )

    last, reuse, table = (
        "partition-spec.field-id.last-partition-id",
        "partition-spec.field-id.reuse",
        "partition-spec.field-id.table-unique",
    )
    s0 = APPENDIX_C_SPEC
    s0_v3 = partition_spec(
        0,
        partition_field(4, 1000, "ts_day", "day", ids=True),
        partition_field(1, 1001, "id_bucket", "bucket[16]", ids=True),
    )
    both = "Sources are given as source-id and source-ids, which every version and revision reads."
    yield assign_case(
        last,
        "first-spec",
        "v2: the first spec of a table (no last-partition-id yet) gets ids from 1000",
        partition_spec(
            0, partition_field(4, None, "ts_day", "day"), partition_field(1, None, "id_bucket", "bucket[16]")
        ),
        [],
        None,
        2,
    )
    yield assign_case(
        last,
        "after-last-partition-id",
        "v2: new ids continue from last-partition-id 1005, not from the highest id of the existing specs (1001)",
        partition_spec(
            1, partition_field(2, None, "data", "identity"), partition_field(3, None, "category", "identity")
        ),
        [s0],
        1005,
        2,
    )
    yield assign_case(
        last,
        "v3-after-last",
        "v3: one new field after last-partition-id 1001 gets 1002",
        partition_spec(1, partition_field(2, None, "data", "identity", ids=True)),
        [s0_v3],
        1001,
        3,
        note=both,
    )
    yield assign_case(
        last,
        "kept-ids-raise-last",
        "v2: a new spec's field that already carries id 1010 raises last-partition-id "
        "to 1010; the field without an id gets 1002",
        partition_spec(
            1, partition_field(2, 1010, "data", "identity"), partition_field(3, None, "category", "identity")
        ),
        [s0],
        1001,
        2,
    )

    yield assign_case(
        reuse,
        "rename-keeps-id",
        "v2: bucket[16](id) renamed to bucket_id keeps id 1001 (same source and transform); "
        "identity(data) is new: 1002",
        partition_spec(
            1, partition_field(1, None, "bucket_id", "bucket[16]"), partition_field(2, None, "data", "identity")
        ),
        [s0],
        1001,
        2,
    )
    yield assign_case(
        reuse,
        "other-parameter-new-id",
        "v2: bucket[8](id) is not bucket[16](id): a new id 1002; day(ts) reuses 1000",
        partition_spec(
            1, partition_field(4, None, "ts_day", "day"), partition_field(1, None, "id_bucket8", "bucket[8]")
        ),
        [s0],
        1001,
        2,
    )
    yield assign_case(
        reuse,
        "other-source-new-id",
        "v2: bucket[16] of category (source 3) is not bucket[16](id): a new id 1002",
        partition_spec(1, partition_field(3, None, "id_bucket", "bucket[16]")),
        [s0],
        1001,
        2,
    )
    yield assign_case(
        reuse,
        "readded-from-older-spec",
        "v3: bucket[16](id) was dropped in spec 1 and is added back: it gets its id 1001 "
        "of spec 0 and day(ts) keeps 1000 at its new position",
        partition_spec(
            2,
            partition_field(1, None, "id_bucket", "bucket[16]", ids=True),
            partition_field(4, None, "ts_day", "day", ids=True),
        ),
        [s0_v3, partition_spec(1, partition_field(4, 1000, "ts_day", "day", ids=True))],
        1001,
        3,
        note=both,
    )
    yield assign_case(
        table,
        "no-positional-ids-in-v2",
        "v2: identity(data) at position 0 must not take id 1000, which names day(ts) in spec 0: it gets 1002",
        partition_spec(1, partition_field(2, None, "data", "identity")),
        [s0],
        1001,
        2,
    )
    yield ptype_case(
        table,
        "void-replacement-shares-id",
        "one id may name a field and its void replacement (a v1 drop kept after "
        "an upgrade): the unified type keeps the transform's type int and the latest name",
        [
            partition_spec(0, partition_field([1], 1000, "id_bucket", "bucket[16]")),
            partition_spec(1, partition_field([1], 1000, "id_bucket_dropped", "void")),
        ],
        note="Spec gap: the type of a field replaced by void is not stated; the reference keeps the non-void field's "
        "type.",
    )


def specs():
    yield from _equivalent()
    yield from _partition_json()
    yield from _source_keys()
    yield from _field_ids()
