"""Expectations typed by hand from the spec text, not computed: they replace the reference's result
in the golden files, and `tests/test_spec_examples.py` checks that the reference agrees with every
one of them (a disagreement is a bug of the reference or of the typing, to be read against the
cited text).

`TYPED` maps a case id to its typed expectation and the provenance it declares: `spec-example`
where the spec prints the example, `hand-typed` where the value follows from a sentence of the
spec that the source quotes or names. Sources name the spec section (the 2024 text in
../shared/spec/, or the adopted v3 digest where it says so); the v4 entries name the section and
example of the v4 proposal (../shared/spec/004_535f3eae0ad26c61.txt, up to its appendix), and
those whose verdict needs one of the reference's interpretations of it (spec_impl/v4/__init__.py)
are hand-typed and cite that interpretation by number.
"""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.provenance import hand_typed, spec_example

_PARTITION_FIELDS = (
    "Appendix C, Partition Specs: a partition field has source-id (JSON int), field-id (JSON int), "
    "name (JSON string) and transform (JSON string); a spec is an object with spec-id and fields"
)
_SORT_FIELDS = (
    "Appendix C, Sort Orders: an order is an object with order-id (JSON int) and a fields list; each sort "
    "field has transform, source-id (JSON int), direction and null-order"
)
_DIRECTION = (
    "Sorting: a sort field's direction is asc or desc, its null order nulls-first or nulls-last (Appendix "
    "C: JSON strings asc, nulls-last)"
)
_SORTING = (
    "Sorting: fields sort in the given direction; nulls-first puts nulls before all values and "
    "nulls-last after, whatever the direction"
)
_SNAPSHOT_FIELDS = (
    "Snapshots, the snapshot field table: snapshot-id (long) and timestamp-ms (long) are required, "
    "schema-id is an int, parent-snapshot-id a long; Appendix C serializes them as JSON numbers"
)
_OPERATIONS = "Snapshots: summary operation is one of append, replace, overwrite, delete"
_SCHEMA_ID = "Schemas, Appendix C: schema-id is a JSON int, required in v2 and v3 (optional in v1)"


def _reject(rule: str, source: str, *slugs: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Cases `rule/slug` whose input the spec forbids: rejected under `rule`."""
    return {f"{rule}/{slug}": ({"error": rule}, hand_typed(source)) for slug in slugs}


def _output(case_id: str, output: Any, provenance: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    return {case_id: ({"output": output}, provenance)}


# --- v4 proposal (Single File Commits): its "Examples" ------------------------------------------------
# A replay answers the live data files and, for each, the deletes that apply ("location@offset" for a
# DV in a Puffin file); the data files and DVs are named as the case input names them (D<n> is
# s3://b/t/data/d<n>.parquet; the DVs are the Puffin locations and blob offsets of the input's
# position-delete entries). A "-valid" case is the example's last commit checked against its parent.
_V4_DATA = "s3://b/t/data"
_V4_EXAMPLES = "v4 proposal, Examples"
_V4_VALID = "; its last commit, checked against its parent, is one the proposal allows: no violation"
_V4_INLINE = (
    "; its manifest DV is inline (Root Manifests 1.e.iii: 'It can be an inline DV blob'), which is "
    "valid only under the reference's interpretation 1 (spec_impl/v4/__init__.py): an inline manifest "
    "DV has no file_size_in_bytes, where the field table says 'Must be defined if location is defined'"
)


def _d(n: int) -> str:
    return f"{_V4_DATA}/d{n}.parquet"


def _live(*ns: int, deletes: dict[int, list[str]] | None = None) -> dict[str, Any]:
    """The v4-replay answer: data files D<n> live, each with the deletes that apply (none unless given)."""
    return {"data-files": sorted(_d(n) for n in ns), "deletes": {_d(n): (deletes or {}).get(n, []) for n in ns}}


# DVs as the inputs name them: row-delta-root-only's DV1 for D1 is the first blob of the Puffin file its
# snapshot 2 writes; in row-delta-complex DV1 (D1) and DV2 (D2) are the two blobs of snapshot 2's Puffin
# file and DV4 (D1) the blob of snapshot 3's (the proposal's snapshot 2); affinity's DV for D1 likewise.
_DV_ROOT_ONLY = f"{_V4_DATA}/dvs-2.puffin@4"
_DV2_COMPLEX = f"{_V4_DATA}/dvs-2.puffin@46"
_DV4_COMPLEX = f"{_V4_DATA}/dvs-3.puffin@4"
_DV_AFFINITY = f"{_V4_DATA}/dvs-2.puffin@4"


def _v4_example(
    slug: str, live: dict[str, Any], example: str, valid: dict[str, Any] | None = None
) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """The replay of an example the proposal prints (spec-example) and its validity (spec-example
    unless `valid` declares otherwise)."""
    valid = valid or spec_example(f"{_V4_EXAMPLES}, {example}{_V4_VALID}")
    return {
        **_output(f"v4.replay.live-files/{slug}", live, spec_example(f"{_V4_EXAMPLES}, {example}")),
        **_output(f"v4.tree.depth/{slug}-valid", [], valid),
    }


# Appendix C's partition spec example, field by field as printed.
_APPENDIX_C_SPEC = {
    "spec-id": 0,
    "fields": [
        {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
        {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
    ],
}
# Appendix C's sort order example (the printed field list, in an order with order-id 1 as its table says).
_APPENDIX_C_ORDER = {
    "order-id": 1,
    "fields": [
        {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
        {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"},
    ],
}

TYPED: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # --- partitioning: the Appendix C examples, as printed ---------------------------------------
    **_output(
        "partition-spec.json/appendix-c-example-v1",
        _APPENDIX_C_SPEC,
        spec_example("Appendix C, Partition Specs: the example"),
    ),
    **_output(
        "partition-spec.json/appendix-c-example-v2",
        _APPENDIX_C_SPEC,
        spec_example("Appendix C, Partition Specs: the example"),
    ),
    **_output(
        "partition-spec.field-id.v1-assignment/appendix-c-without-ids",
        _APPENDIX_C_SPEC,
        spec_example(
            "Appendix C, Partition Specs: the example; in v1 the reference implementation assigned field ids "
            "sequentially in each spec starting at 1,000"
        ),
    ),
    **_output(
        "sort-order.json/appendix-c-example-v1", _APPENDIX_C_ORDER, spec_example("Appendix C, Sort Orders: the example")
    ),
    **_output(
        "sort-order.json/appendix-c-example-v2", _APPENDIX_C_ORDER, spec_example("Appendix C, Sort Orders: the example")
    ),
    **_output(
        "partition-spec.json/unpartitioned",
        {"spec-id": 0, "fields": []},
        hand_typed(
            "Partitioning: a table without partition fields is unpartitioned; Appendix C: fields is a JSON list"
        ),
    ),
    **_output(
        "sort-order.order-id.unsorted/unsorted",
        {"order-id": 0, "fields": []},
        hand_typed("Sorting: order id 0 is reserved for the unsorted order"),
    ),
    # --- partitioning: JSON of partition specs and sort orders ---------------------------------
    **_reject(
        "partition-spec.json",
        _PARTITION_FIELDS,
        "not-an-object",
        "missing-spec-id",
        "spec-id-string",
        "spec-id-bool",
        "missing-fields",
        "fields-object",
        "field-not-object",
        "missing-name",
        "name-not-string",
        "missing-transform",
        "transform-not-string",
        "field-id-string",
        "source-id-string",
        "source-id-null",
        "source-id-fraction",
    ),
    **_reject(
        "partition-spec.source-id",
        "Appendix C, Partition Specs: source-id is required in v1 and v2",
        "v1-source-ids-only",
        "v1-no-source",
        "v2-source-ids-only",
        "v2-no-source",
    ),
    **_reject(
        "partition-spec.field-id.unique",
        "Partition Evolution: partition field ids must be unique within a spec",
        "duplicate-v2",
        "duplicate-v1-explicit",
    ),
    **_reject(
        "partition-spec.source.exists",
        "Partitioning: the source column is selected by id from the table schema",
        "unknown-source",
    ),
    **_reject(
        "sort-order.json",
        _SORT_FIELDS,
        "not-an-object",
        "missing-order-id",
        "order-id-string",
        "missing-fields",
        "fields-object",
        "field-not-object",
        "missing-transform",
        "transform-not-string",
        "missing-direction",
        "missing-null-order",
        "source-id-string",
    ),
    **_reject(
        "sort-order.source-id",
        "Appendix C, Sort Orders: source-id is required in v1 and v2",
        "v1-source-ids-only",
        "v1-no-source",
        "v2-source-ids-only",
        "v2-no-source",
    ),
    **_reject(
        "sort-order.order-id.unsorted",
        "Sorting: order id 0 is reserved for the unsorted order",
        "zero-with-fields",
        "fields-empty-nonzero",
    ),
    **_reject("sort-order.direction", _DIRECTION, "uppercase-asc", "ascending", "descending", "empty", "null"),
    **_reject("sort-order.null-order", _DIRECTION, "uppercase-underscore", "first", "underscore", "nulls-none", "null"),
    # --- partitioning: the order a sort produces ------------------------------------------------
    **_output("sort-order.record-order/string-asc-nulls-first", [None, None, "a", "b", "c"], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-asc-nulls-last", ["a", "b", "c", None, None], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-desc-nulls-first", [None, None, "c", "b", "a"], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-desc-nulls-last", ["c", "b", "a", None, None], hand_typed(_SORTING)),
    **_output(
        "sort-order.record-order/boolean", [None, False, True], hand_typed(_SORTING + "; false sorts before true")
    ),
    # --- schemas -------------------------------------------------------------------------------
    **_reject("schema.schema-id", _SCHEMA_ID, "v2-absent", "v3-absent", "string", "fraction", "boolean"),
    **_reject(
        "schema.field-id.unique",
        "Schemas: field ids must be unique within a schema (one id space for fields, "
        "list elements, map keys and values)",
        "top-level",
        "list-element",
    ),
    **_output(
        "evolution.move/grouping",
        ["evolution.move"],
        spec_example(
            "Schema Evolution: the example of grouping struct<a, b, c> into struct<a, struct<b, c>>, "
            "a move that keeps the ids of b and c"
        ),
    ),
    **_output(
        "evolution.move/ungrouping",
        ["evolution.move"],
        spec_example("Schema Evolution: the example of ungrouping struct<a, struct<b, c>> into struct<a, b, c>"),
    ),
    **_output(
        "projection.by-id/spec-example",
        [{"3": 1.5, "2": "x", "4": None}, {"3": None, "2": None, "4": None}],
        spec_example(
            "Column Projection: a file written with 1: a int, 2: b string, 3: c double read with "
            "3: measurement, 2: name, 4: a selects c, b and a column of nulls, in that order"
        ),
    ),
    # --- snapshots -----------------------------------------------------------------------------
    **_reject(
        "snapshot.json",
        _SNAPSHOT_FIELDS,
        "not-an-object",
        "missing-snapshot-id",
        "missing-timestamp-ms",
        "snapshot-id-string",
        "snapshot-id-fractional",
        "timestamp-string",
        "schema-id-string",
        "parent-boolean",
    ),
    **_reject(
        "snapshot.manifest-list",
        "Snapshots: manifest-list is required in v2; a v1 snapshot has manifest-list or the optional manifests list",
        "v2-missing",
        "v1-neither",
    ),
    **_reject(
        "snapshot.manifests",
        "Snapshots: manifests (v1) must be omitted if manifest-list is present",
        "v1-both",
        "v2-both",
    ),
    **_reject(
        "snapshot.summary",
        "Snapshots: summary is required in v2 and must include operation",
        "v2-missing",
        "no-operation",
    ),
    **_reject("snapshot.operation", _OPERATIONS, "bad-append", "bad-merge", "bad-empty"),
    **_reject(
        "snapshot.parent",
        "Snapshots: a snapshot's parent is an earlier snapshot: the ancestry has no cycle",
        "cycle",
        "self-parent",
    ),
    **_reject(
        "ref.main-branch",
        "Snapshot References: main is the table's current branch (a branch, never a tag)",
        "main-is-tag",
    ),
    # --- v4 proposal: the examples, replayed to their live files, and their commits valid ---------------
    **_v4_example(
        "append-to-root",
        _live(1, 2, 3, 4, 5),
        "Append Files, Appends To the Root Manifest: D1, D2, D3 in snapshot 1, D4 added in snapshot 2, "
        "D5 in snapshot 3 (root C: the content of root B EXISTING, D5 ADDED)",
    ),
    **_v4_example(
        "append-new-leaf",
        _live(1, 2, 3, 4, 5, 6),
        "Append Files, Appends to the Root Manifest using new Data Manifests: M1 (D1, D2, D3) preserved, "
        "M2 (D4, D5, D6) ADDED",
    ),
    **_v4_example(
        "remove-from-root",
        _live(2),
        "Remove Files, Removing a File From the Root Manifest: D1 replaced by a DELETED entry, D2 unchanged",
    ),
    **_v4_example(
        "remove-from-leaf-inline",
        _live(1, 3),
        "Remove Files, Removing a File From a Leaf Manifest: DV1 on M1 (D1, D2, D3) marks ordinal 1 (D2)",
        hand_typed(f"{_V4_EXAMPLES}, Remove Files, Removing a File From a Leaf Manifest{_V4_VALID}{_V4_INLINE}"),
    ),
    **_v4_example(
        "remove-from-leaf-puffin",
        _live(1, 3),
        "Remove Files, Removing a File From a Leaf Manifest: DV1 on M1 (D1, D2, D3) marks ordinal 1 (D2), "
        "stored in a Puffin file (Root Manifests 1.e.iii)",
    ),
    **_v4_example(
        "overwrite-in-root",
        _live(3),
        "Overwrite Files, Overwrite Files in Root Manifest: snapshot 2 removes D1 and adds D2, "
        "snapshot 3 removes D2 and adds a brand new file (D3)",
    ),
    **_v4_example(
        "overwrite-in-leaf",
        _live(1, 3, 4),
        "Overwrite Files, Overwrite Files in Leaf Manifest: DV1 on M1 (D1, D2, D3) removes D2, "
        "its replacement D4 added at the root",
        hand_typed(f"{_V4_EXAMPLES}, Overwrite Files, Overwrite Files in Leaf Manifest{_V4_VALID}{_V4_INLINE}"),
    ),
    **_v4_example(
        "row-delta-root-only",
        _live(1, 2, deletes={1: [_DV_ROOT_ONLY]}),
        "Row Delta, Root Manifest Only Row Delta: D1 modified by the data file DV1, new rows in D2",
    ),
    **_v4_example(
        "row-delta-complex",
        _live(1, 2, 3, deletes={1: [_DV4_COMPLEX], 2: [_DV2_COMPLEX]}),
        "Row Delta, A Complex Row Delta with Modified Delete Vectors: DV3 deletes DV1 from DVM1, DV4 "
        "(DV1's deletes and the new ones) in DVM2 applies to D1, DV2 still to D2, D3 added in DM2",
        hand_typed(
            f"{_V4_EXAMPLES}, Row Delta, A Complex Row Delta with Modified Delete Vectors{_V4_VALID}"
            f"{_V4_INLINE.replace('its manifest DV', 'its manifest DV3')}"
        ),
    ),
    **_v4_example(
        "compaction-during-append",
        _live(2, 3, 4, 6, 7),
        "Manifest Compaction, Manifest Compaction During an Append: M1 (D1, D2, D3) less ordinal 0 by DV1 "
        "and M2 (D4, D5, D6) less ordinal 1 by DV2 compacted into M3 (D2, D3, D4, D6), D7 added",
        hand_typed(
            f"{_V4_EXAMPLES}, Manifest Compaction, Manifest Compaction During an Append{_V4_VALID}: "
            "M3 EXISTING (Root Manifests 4); DV1 and DV2 inline, valid only under the reference's "
            "interpretation 1 (no file_size_in_bytes), and M1, M2, DV1, DV2 DELETED in root B, which "
            "the figure omits, under its interpretation 3 ('Deleted entries are required when the "
            "snapshot has a non-null parent-id'; spec_impl/v4/__init__.py)"
        ),
    ),
    **_output(
        "v4.replay.live-files/affinity",
        _live(1, 2, deletes={1: [_DV_AFFINITY]}),
        hand_typed(
            "v4 proposal, Optional Affinity between Data and Delete Manifests: a delete manifest "
            "affiliated to the data manifest of D1 and D2 holding a DV for D1; the affiliated delete "
            "manifests are read with their data manifest, and a DV applies to the data file it "
            "references (referenced_file)"
        ),
    ),
    **_output(
        "v4.tree.depth/affinity-valid",
        [],
        hand_typed(
            "v4 proposal, Optional Affinity between Data and Delete Manifests: 'a delete manifest can "
            "be affiliated to exactly one data manifest'; referenced_file of a type 4 entry is the "
            "'Location of affiliated data manifest'; here the affiliated manifest holds D1, the file "
            "of its DV"
        ),
    ),
    **_output(
        "v4.replay.live-files/compaction-no-net-change",
        _live(1, 2, 3, 4, 5, 6),
        hand_typed(
            "v4 proposal, Manifest Compaction: two existing data manifests combined into one; "
            "'Any compactions performed must not create files which cause a net change to table "
            "state'"
        ),
    ),
    **_output(
        "v4.tree.depth/compaction-no-net-change-valid",
        [],
        hand_typed(
            "v4 proposal, Manifest Compaction: 'two existing Data Manifests can be combined into a "
            "single Data Manifest which would also be marked as existing'; the two compacted manifests "
            "DELETED in the new root under the reference's interpretation 3 "
            "(spec_impl/v4/__init__.py)"
        ),
    ),
}
