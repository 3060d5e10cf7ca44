"""Partition sources against the schema (Partitioning: source columns and transforms), and the
findings of writers and of v1 spec evolution."""

from __future__ import annotations

from spec_impl.vectors.families._partition_blocks import (
    APPENDIX_C_SPEC,
    findings_case,
    parse_case,
    partition_field,
    partition_spec,
)


def _sources():
    exists, prim, nest, arity = (
        "partition-spec.source.exists",
        "partition-spec.source.primitive",
        "partition-spec.source.nesting",
        "partition-spec.transform.arity",
    )
    yield parse_case(
        exists,
        "unknown-source",
        "source-id 99 names no column",
        partition_spec(0, partition_field(99, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        exists,
        "multi-argument-one-unknown",
        "v3: every source of a multi-argument field must exist: [1, 99]",
        partition_spec(0, partition_field([1, 99], 1000, "z", "zorder")),
        3,
        schema=True,
    )
    yield parse_case(
        exists,
        "nested-in-struct",
        "a source nested in a struct is allowed: identity(loc.lat), month(loc.day)",
        partition_spec(0, partition_field(6, 1000, "lat", "identity"), partition_field(7, 1001, "day_month", "month")),
        2,
        schema=True,
    )
    yield parse_case(
        exists,
        "unknown-transform-multi-source",
        "v3 readers tolerate an unknown transform over existing sources [1, 2, 3]",
        partition_spec(0, partition_field([1, 2, 3], 1000, "z", "zorder")),
        3,
        schema=True,
    )
    yield parse_case(
        prim,
        "struct-source",
        "identity of the struct column loc is rejected",
        partition_spec(0, partition_field(5, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        prim,
        "void-of-struct",
        "even void needs a primitive source: void(loc) is rejected",
        partition_spec(0, partition_field(5, 1000, "x", "void")),
        2,
        schema=True,
    )
    yield parse_case(
        prim,
        "list-source",
        "identity of the list column tags is rejected",
        partition_spec(0, partition_field(8, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        prim,
        "map-source",
        "identity of the map column props is rejected",
        partition_spec(0, partition_field(10, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        prim,
        "variant-source",
        "v3: a variant column is not primitive: void(v) is rejected",
        partition_spec(0, partition_field([13], 1000, "x", "void")),
        3,
        schema=True,
    )
    yield parse_case(
        nest,
        "list-element",
        "the element of the list tags is inside a list",
        partition_spec(0, partition_field(9, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        nest,
        "map-key",
        "the key of the map props is inside a map",
        partition_spec(0, partition_field(11, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        nest,
        "map-value",
        "the value of the map props is inside a map",
        partition_spec(0, partition_field(12, 1000, "x", "bucket[4]")),
        2,
        schema=True,
    )
    yield parse_case(
        nest,
        "struct-in-list",
        "x of the structs in the list points: inside a list, although its parent is a struct",
        partition_spec(0, partition_field(17, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield parse_case(
        arity,
        "identity-two-sources",
        "v3: identity takes one source, not source-ids [1, 2]",
        partition_spec(0, partition_field([1, 2], 1000, "x", "identity")),
        3,
        schema=True,
    )
    yield parse_case(
        arity,
        "bucket-two-sources-v2",
        "v2 (seed form): bucket[16] with source-id 1 and source-ids [1, 2] takes one source",
        partition_spec(
            0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "x", "transform": "bucket[16]"}
        ),
        2,
        schema=True,
    )
    st = "transform.source-type"
    yield parse_case(
        st,
        "partition-bucket-of-float",
        "bucket does not accept the float column price",
        partition_spec(0, partition_field(14, 1000, "x", "bucket[4]")),
        2,
        schema=True,
    )
    yield parse_case(
        st,
        "partition-hour-of-date",
        "hour does not accept a date (loc.day)",
        partition_spec(0, partition_field(7, 1000, "x", "hour")),
        2,
        schema=True,
    )


def _writers_and_evolution():
    uw = "partition-spec.transform.unknown-writer"
    yield findings_case(
        uw, "appendix-c-clean", "the Appendix C example: nothing a writer must avoid", APPENDIX_C_SPEC, 2
    )
    yield findings_case(
        uw,
        "zorder-flagged",
        "v3: a spec with the unknown transform zorder must not be written with",
        partition_spec(1, partition_field([4], 1000, "ts_day", "day"), partition_field([1, 2], 1001, "z", "zorder")),
        3,
    )
    yield findings_case(
        uw,
        "unknown-v2",
        "v2: an unknown single-argument transform custom[3] is flagged too",
        partition_spec(1, partition_field(2, 1000, "c", "custom[3]")),
        2,
    )
    yield findings_case(
        uw,
        "void-is-known",
        "void is a known transform: not flagged",
        partition_spec(1, partition_field(2, 1000, "c", "void")),
        2,
    )

    reorder, drop, append = (
        "partition-spec.v1-evolution.reorder",
        "partition-spec.v1-evolution.drop",
        "partition-spec.v1-evolution.append",
    )
    old = partition_spec(0, partition_field(1, 1000, "a", "identity"), partition_field(2, 1001, "b", "bucket[4]"))
    a, b = old["fields"]
    c = partition_field(3, 1002, "c", "identity")
    yield findings_case(
        drop,
        "recommended-evolution",
        "v1: rename a, replace b's transform with void, add c at the end: no recommendation broken",
        partition_spec(1, partition_field(1, 1000, "a2", "identity"), partition_field(2, 1001, "b", "void"), c),
        1,
        old,
    )
    yield findings_case(
        drop, "dropped", "v1: b is dropped instead of being replaced by void", partition_spec(1, a), 1, old
    )
    yield findings_case(
        drop,
        "transform-changed",
        "v1: bucket[4](b) replaced by bucket[8](b) in place: the old field is dropped (only void replaces it) "
        "and a new field is added before the end",
        partition_spec(1, a, partition_field(2, 1001, "b", "bucket[8]")),
        1,
        old,
    )
    yield findings_case(
        reorder,
        "swapped",
        "v1: a and b swap places",
        partition_spec(1, partition_field(2, 1000, "b", "bucket[4]"), partition_field(1, 1001, "a", "identity")),
        1,
        old,
    )
    yield findings_case(
        append,
        "inserted-in-the-middle",
        "v1: c is inserted between a and b: added before the end and b moves",
        partition_spec(1, a, partition_field(3, 1001, "c", "identity"), partition_field(2, 1002, "b", "bucket[4]")),
        1,
        old,
    )
    yield findings_case(
        append,
        "added-first",
        "v1: c is added in front, shifting a and b",
        partition_spec(
            1,
            partition_field(3, 1000, "c", "identity"),
            partition_field(1, 1001, "a", "identity"),
            partition_field(2, 1002, "b", "bucket[4]"),
        ),
        1,
        old,
    )
    yield findings_case(
        append,
        "from-unpartitioned",
        "v1: partitioning an unpartitioned table appends to an empty spec: nothing broken",
        partition_spec(1, a),
        1,
        partition_spec(0),
    )


def specs():
    yield from _sources()
    yield from _writers_and_evolution()
