"""Snapshots, snapshot references, the snapshot log, snapshot expiration and view metadata.

Snapshot JSON cases start from Appendix C's snapshot example (with the comma the printed example
lacks after "manifest-list"); table-level cases (refs, current-snapshot-id, snapshot-log, parent
chains, sequence numbers, row-id ranges) modify copies of the table-metadata family's documents;
expiration cases walk the five steps of "Snapshot Retention Policy" on a small history; view
cases start from the adopted view spec's Appendix A example and from the early draft's example,
corrected into valid JSON."""

from __future__ import annotations

import copy
from typing import Any

from spec_impl.vectors.cases import case
from spec_impl.vectors.families.table_metadata import v1_legacy, v2, v3

NAME = "snapshots-and-views"
DESCRIPTION = (
    "Snapshots, Snapshot Reference, Snapshot Retention Policy, snapshot-log (Table Metadata Fields), "
    "Appendix C; the view spec (adopted and early draft)"
)

ADOPTED = ("v3-adopted",)
SEED = ("2024-seed",)

# --- snapshots ---------------------------------------------------------------------------------

# Appendix C's snapshot example. Finding: as printed it is not valid JSON (no comma after
# "manifest-list"), and the template above it writes "schema-id": "<id>" as a string.
APPENDIX_C = {
    "snapshot-id": 3051729675574597004,
    "timestamp-ms": 1515100955770,
    "summary": {"operation": "append"},
    "manifest-list": "s3://b/wh/.../s1.avro",
    "schema-id": 0,
}
FIXED = "Appendix C's snapshot example (with the comma the printed example lacks after manifest-list)"


def _snap(**changes: Any) -> dict:
    """Appendix C's example with changes; a value None removes the key (as `_doc`)."""
    return _doc(APPENDIX_C, **changes)


def _v2snap(**changes: Any) -> dict:
    return _snap(sequence_number=1, **changes)


def _parse(rule_id: str, slug: str, description: str, snapshot: dict, fv: int, **kw):
    return case(rule_id, slug, description, "parse-snapshot", snapshot=snapshot, format_version=fv, **kw)


def _snapshot_specs():
    r = "snapshot.json"
    yield _parse(r, "appendix-c-v2", f"{FIXED} with sequence-number 1, read in v2", _v2snap(), 2)
    yield _parse(
        r,
        "parent-and-extra-fields",
        "a v2 snapshot with a parent; a field the spec does not define is ignored and not written",
        _v2snap(parent_snapshot_id=3051729675574597003, **{"unknown-field": "x"}),
        2,
    )
    yield _parse(
        r,
        "parent-null",
        "parent-snapshot-id null reads as no parent (the first snapshot)",
        _v2snap(parent_snapshot_id=None) | {"parent-snapshot-id": None},
        2,
    )
    yield _parse(r, "no-schema-id", "schema-id is optional", _v2snap(schema_id=None), 2)
    yield _parse(r, "not-an-object", "a snapshot must be a JSON object", [APPENDIX_C], 2)
    yield _parse(r, "missing-snapshot-id", "snapshot-id is required", _v2snap(snapshot_id=None), 2)
    yield _parse(r, "missing-timestamp-ms", "timestamp-ms is required", _v2snap(timestamp_ms=None), 2)
    yield _parse(
        r,
        "snapshot-id-string",
        "snapshot-id is a JSON number (long), not a string",
        _v2snap(snapshot_id="3051729675574597004"),
        2,
    )
    yield _parse(r, "snapshot-id-above-long", "snapshot-id 2^63 does not fit a long", _v2snap(snapshot_id=2**63), 2)
    yield _parse(r, "snapshot-id-fractional", "snapshot-id 1.5 is not an integer", _v2snap(snapshot_id=1.5), 2)
    yield _parse(
        r,
        "timestamp-string",
        "timestamp-ms is a long, not an ISO timestamp string",
        _v2snap(timestamp_ms="2018-01-04T21:22:35.770Z"),
        2,
    )
    yield _parse(
        r,
        "schema-id-string",
        'schema-id is an int: the string "0" (as Appendix C\'s template writes "<id>") is rejected',
        _v2snap(schema_id="0"),
        2,
        note='Finding: Appendix C\'s template shows "schema-id": "<id>" in quotes while its example and the snapshot '
        "table use an int.",
    )
    yield _parse(r, "schema-id-above-int", "schema-id 2^31 does not fit an int", _v2snap(schema_id=2**31), 2)
    yield _parse(r, "parent-boolean", "parent-snapshot-id true is not a long", _v2snap(parent_snapshot_id=True), 2)
    lineage = _v2snap(**{"first-row-id": 0, "added-rows": 100, "key-id": "k1"})
    yield _parse(
        r,
        "v3-fields-by-revision",
        "a v3 snapshot with first-row-id, added-rows and key-id: the adopted spec reads and writes them; "
        "the 2024 seed text has no such fields, so they are ignored and not written",
        lineage,
        3,
    )

    r = "snapshot.sequence-number"
    yield _parse(r, "appendix-c-v1", f"{FIXED} read in v1: sequence-number reads as 0 and is not written", _snap(), 1)
    yield _parse(
        r,
        "v1-written-anyway",
        "a v1 snapshot with sequence-number 7 (which v1 writers should not write): read, but not written back in v1",
        _snap(sequence_number=7),
        1,
    )
    yield _parse(
        r,
        "v2-missing",
        f"{FIXED} has no sequence-number: v2 writers write it, but a v2 table upgraded from v1 keeps v1 "
        "snapshots without one (Iceberg Java writes them so); read as 0",
        _snap(),
        2,
    )
    yield _parse(r, "v3-missing", f"{FIXED} has no sequence-number: read as 0 in v3 too", _snap(), 3)
    yield _parse(
        r,
        "v2-zero",
        "sequence-number 0 is valid in v2 (a snapshot written before an upgrade from v1)",
        _snap(sequence_number=0),
        2,
    )
    yield _parse(r, "v2-negative", "sequence-number -1 is rejected", _snap(sequence_number=-1), 2)
    yield _parse(r, "v2-string", 'sequence-number "1" is a string, not a long', _snap(sequence_number="1"), 2)

    r = "snapshot.manifest-list"
    yield _parse(r, "v2-missing", "v2 requires manifest-list", _v2snap(manifest_list=None), 2)
    yield _parse(r, "v1-neither", "a v1 snapshot needs manifest-list or manifests", _snap(manifest_list=None), 1)
    yield _parse(
        r, "not-a-string", "manifest-list is a location string", _v2snap(manifest_list=["s3://b/wh/.../s1.avro"]), 2
    )
    yield _parse(
        r,
        "v1-manifests-only",
        "a v1 snapshot with the manifests list instead of a manifest list (and no summary)",
        {"snapshot-id": 1, "timestamp-ms": 1515100955770, "manifests": ["s3://b/wh/m/a.avro", "s3://b/wh/m/b.avro"]},
        1,
    )

    r = "snapshot.manifests"
    yield _parse(
        r,
        "v1-both",
        "manifests must be omitted if manifest-list is present",
        _snap(manifests=["s3://b/wh/m/a.avro"]),
        1,
    )
    yield _parse(
        r,
        "v2-both",
        "v2 writes manifest-list only; a v2 snapshot with both is rejected",
        _v2snap(manifests=["s3://b/wh/m/a.avro"]),
        2,
    )
    yield _parse(
        r,
        "not-a-list",
        "manifests is a list of locations, not one string",
        {"snapshot-id": 1, "timestamp-ms": 1, "manifests": "s3://b/wh/m/a.avro"},
        1,
    )
    yield _parse(
        r,
        "non-string-item",
        "every manifests entry is a location string",
        {"snapshot-id": 1, "timestamp-ms": 1, "manifests": ["s3://b/wh/m/a.avro", 2]},
        1,
    )

    r = "snapshot.summary"
    yield _parse(r, "v1-optional", "summary is optional in v1", _snap(summary=None), 1)
    yield _parse(r, "v2-missing", "summary is required in v2", _v2snap(summary=None), 2)
    yield _parse(r, "no-operation", "the summary must include operation", _v2snap(summary={"added-data-files": "1"}), 2)
    yield _parse(
        r,
        "non-string-value",
        'summary values are strings: "added-records": 3 is rejected',
        _v2snap(summary={"operation": "append", "added-records": 3}),
        2,
    )
    yield _parse(r, "not-a-map", "summary is a map, not the operation string", _v2snap(summary="append"), 2)
    yield _parse(
        r,
        "extra-keys-kept",
        "summary keys besides operation are kept",
        _v2snap(summary={"operation": "append", "added-data-files": "4", "total-records": "100"}),
        2,
    )

    r = "snapshot.operation"
    for operation in ("append", "replace", "overwrite", "delete"):
        yield _parse(
            r,
            operation,
            f"operation {operation} is one of the four the spec lists",
            _v2snap(summary={"operation": operation}),
            2,
        )
    for operation, why in (
        ("Append", "operations are case-sensitive"),
        ("merge", "not an operation of the spec"),
        ("", "the empty string is not an operation"),
    ):
        yield _parse(
            r,
            f"bad-{operation or 'empty'}",
            f"operation {operation!r}: {why}",
            _v2snap(summary={"operation": operation}),
            2,
        )

    r = "snapshot.row-lineage"
    yield _parse(
        r,
        "v3-both",
        "a v3 snapshot with first-row-id 0 and added-rows 100",
        _v2snap(**{"first-row-id": 0, "added-rows": 100}),
        3,
    )
    yield _parse(
        r,
        "v3-zero-rows",
        "added-rows 0 (a commit that adds no rows) is valid",
        _v2snap(**{"first-row-id": 100, "added-rows": 0}),
        3,
    )
    yield _parse(
        r,
        "v3-pre-upgrade",
        "a v3 snapshot without first-row-id and added-rows: a snapshot from before the upgrade to v3 keeps a "
        "null first-row-id",
        _v2snap(),
        3,
        note="The adopted spec makes both fields required, yet older snapshots keep a null first-row-id after an "
        "upgrade: both absent is accepted.",
    )
    yield _parse(
        r, "v3-first-row-id-only", "first-row-id without added-rows is rejected", _v2snap(**{"first-row-id": 0}), 3
    )
    yield _parse(
        r, "v3-added-rows-only", "added-rows without first-row-id is rejected", _v2snap(**{"added-rows": 100}), 3
    )
    yield _parse(
        r, "v3-negative-added-rows", "added-rows -1 is rejected", _v2snap(**{"first-row-id": 0, "added-rows": -1}), 3
    )
    yield _parse(
        r,
        "v3-negative-first-row-id",
        "first-row-id -1 is rejected",
        _v2snap(**{"first-row-id": -1, "added-rows": 1}),
        3,
    )
    yield _parse(
        r, "v3-string", "first-row-id is a long, not a string", _v2snap(**{"first-row-id": "0", "added-rows": 100}), 3
    )
    yield _parse(
        r,
        "v2-ignored",
        "first-row-id and added-rows are not v2 fields: a v2 reader ignores them and does not write them",
        _v2snap(**{"first-row-id": 0, "added-rows": 100}),
        2,
    )

    r = "snapshot.key-id"
    yield _parse(
        r,
        "v3-string",
        "a v3 snapshot's key-id is a string, kept",
        _v2snap(**{"first-row-id": 0, "added-rows": 1, "key-id": "k1"}),
        3,
    )
    yield _parse(
        r, "v3-number", "key-id 7 is not a string", _v2snap(**{"first-row-id": 0, "added-rows": 1, "key-id": 7}), 3
    )
    yield _parse(r, "v2-ignored", "key-id is not a v2 field: ignored and not written", _v2snap(**{"key-id": 7}), 2)


# --- whole tables: refs, current-snapshot-id, parents, sequence numbers, the snapshot log --------

S1, S2 = 3051729675574597004, 3055729675574597004
EXPIRED = 3050729675574597004  # a snapshot id that is no longer in the table
S0 = 3049729675574597004


def _doc(base: dict | None = None, **changes: Any) -> dict:
    """A copy of v2() (or `base`) with top-level changes; a value None removes the key."""
    doc = copy.deepcopy(base if base is not None else v2())
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def _set_snapshot(doc: dict, index: int, **changes: Any) -> dict:
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc["snapshots"][index].pop(key, None)
        else:
            doc["snapshots"][index][key] = value
    return doc


def _read(rule_id: str, slug: str, description: str, document: dict, **kw):
    return case(rule_id, slug, description, "read-table-metadata", document=document, **kw)


MAIN = {"snapshot-id": S2, "type": "branch"}
TEST_TAG = {"snapshot-id": S1, "type": "tag", "max-ref-age-ms": 10000000}  # Appendix C's refs example, pointing at S1


def _refs(**refs: dict) -> dict:
    return {"main": copy.deepcopy(MAIN), **{k.replace("_", "-"): v for k, v in refs.items()}}


def _table_specs():
    r = "ref.main-branch"
    yield _read(
        r, "refs-absent", "no refs map: the main branch pointing to current-snapshot-id is implied", _doc(refs=None)
    )
    doc = _doc()
    doc["refs"] = None
    yield _read(
        r, "refs-null", '"refs": null: "there is always a main branch reference ... even if the refs map is null"', doc
    )
    yield _read(
        r,
        "refs-without-main",
        'a refs map holding only Appendix C\'s tag "test": main is still implied, pointing to current-snapshot-id',
        _doc(refs={"test": TEST_TAG}),
        note="Iceberg Java keeps such a map without main; the spec says there is always a main branch.",
    )
    yield _read(
        r,
        "no-current-snapshot",
        "current-snapshot-id -1 and no refs: no main branch is implied",
        _doc(current_snapshot_id=-1, refs=None),
    )
    v1 = v1_legacy()
    v1.update(
        {
            "current-snapshot-id": S1,
            "snapshots": [{"snapshot-id": S1, "timestamp-ms": 1515100955770, "manifest-list": "s3://b/wh/.../s1.avro"}],
        }
    )
    yield _read(
        r, "v1-implied", "a v1 table with a snapshot and no refs (refs came with v2 writers): main is implied", v1
    )
    yield _read(
        r, "main-is-tag", "main must be a branch, not a tag", _doc(refs={"main": {"snapshot-id": S2, "type": "tag"}})
    )

    r = "ref.current-snapshot"
    yield _read(
        r, "differs-from-main", "current-snapshot-id names S1 but main points to S2", _doc(current_snapshot_id=S1)
    )
    yield _read(
        r,
        "minus-one-with-main",
        "current-snapshot-id -1 (none) while main points to a snapshot",
        _doc(current_snapshot_id=-1),
    )
    yield _read(
        r, "absent-with-main", "no current-snapshot-id while main points to a snapshot", _doc(current_snapshot_id=None)
    )
    yield _read(
        r,
        "minus-one-means-none",
        "current-snapshot-id -1 (as older writers write it) means no current snapshot",
        _doc(current_snapshot_id=-1, refs={"test": TEST_TAG}),
    )
    doc = _doc(base=v3(), refs={"test": TEST_TAG})
    doc["current-snapshot-id"] = None
    yield _read(
        r,
        "null-means-none",
        "current-snapshot-id null (as v3 writers of Iceberg Java 1.10 write it) means no current snapshot",
        doc,
        revisions=ADOPTED,
    )
    yield _read(r, "string", "current-snapshot-id is a long, not a string", _doc(current_snapshot_id=str(S2)))

    r = "ref.unknown-snapshot"
    yield _read(
        r,
        "tag",
        "a tag pointing to a snapshot not in snapshots",
        _doc(refs=_refs(test={"snapshot-id": EXPIRED, "type": "tag"})),
    )
    yield _read(
        r,
        "branch",
        "a branch pointing to a snapshot not in snapshots",
        _doc(refs=_refs(dev={"snapshot-id": EXPIRED, "type": "branch"})),
    )
    yield _read(
        r,
        "implied-main",
        "current-snapshot-id names an unknown snapshot and there are no refs: the implied main points nowhere",
        _doc(current_snapshot_id=EXPIRED, refs=None),
    )

    r = "ref.json"
    yield _read(r, "refs-list", "refs is a map of name to reference, not a list", _doc(refs=[MAIN]))
    yield _read(r, "ref-not-object", "a reference is an object, not a snapshot id", _doc(refs={"main": S2}))
    yield _read(r, "missing-snapshot-id", "a reference needs snapshot-id", _doc(refs=_refs(test={"type": "tag"})))
    yield _read(r, "missing-type", "a reference needs type", _doc(refs=_refs(test={"snapshot-id": S1})))
    yield _read(
        r,
        "max-ref-age-string",
        "max-ref-age-ms is a long, not a string",
        _doc(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-ref-age-ms": "10000000"})),
    )
    yield _read(
        r,
        "min-to-keep-above-int",
        "min-snapshots-to-keep is an int: 2^31 does not fit",
        _doc(refs=_refs(dev={"snapshot-id": S1, "type": "branch", "min-snapshots-to-keep": 2**31})),
    )

    r = "ref.type"
    yield _read(
        r,
        "unknown",
        'type "head" is neither branch nor tag',
        _doc(refs=_refs(test={"snapshot-id": S1, "type": "head"})),
    )
    yield _read(
        r,
        "uppercase",
        'type "BRANCH" reads as branch',
        _doc(refs=_refs(dev={"snapshot-id": S1, "type": "BRANCH"})),
        note='The spec says "tag or branch"; Iceberg Java reads the type case-insensitively, and so does the '
        "reference.",
    )

    r = "ref.branch-only-retention"
    yield _read(
        r,
        "tag-max-ref-age",
        'Appendix C\'s tag "test" with max-ref-age-ms 10000000: max-ref-age-ms is allowed on tags',
        _doc(refs=_refs(test=TEST_TAG)),
    )
    yield _read(
        r,
        "branch-all-three",
        "a branch with min-snapshots-to-keep, max-snapshot-age-ms and max-ref-age-ms",
        _doc(
            refs=_refs(
                dev={
                    "snapshot-id": S1,
                    "type": "branch",
                    "min-snapshots-to-keep": 3,
                    "max-snapshot-age-ms": 86400000,
                    "max-ref-age-ms": 604800000,
                }
            )
        ),
    )
    yield _read(
        r,
        "tag-min-to-keep",
        "min-snapshots-to-keep is for branches only",
        _doc(refs=_refs(test={"snapshot-id": S1, "type": "tag", "min-snapshots-to-keep": 3})),
    )
    yield _read(
        r,
        "tag-max-snapshot-age",
        "max-snapshot-age-ms is for branches only",
        _doc(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-snapshot-age-ms": 86400000})),
    )

    r = "ref.positive"
    for key in ("min-snapshots-to-keep", "max-snapshot-age-ms", "max-ref-age-ms"):
        yield _read(
            r,
            f"{key}-zero",
            f"{key} 0 is not positive",
            _doc(refs=_refs(dev={"snapshot-id": S1, "type": "branch", key: 0})),
        )
    yield _read(
        r,
        "max-ref-age-negative",
        "max-ref-age-ms -1 is not positive",
        _doc(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-ref-age-ms": -1})),
    )
    yield _read(
        r,
        "main-retention-one",
        "the smallest positive values on main: min-snapshots-to-keep 1, max-snapshot-age-ms 1, max-ref-age-ms 1",
        _doc(refs={"main": dict(MAIN, **{"min-snapshots-to-keep": 1, "max-snapshot-age-ms": 1, "max-ref-age-ms": 1})}),
    )

    r = "snapshot.unique-id"
    doc = _doc()
    doc["snapshots"].append(copy.deepcopy(doc["snapshots"][0]))
    yield _read(r, "duplicate", "the snapshot S1 listed twice", doc)

    r = "snapshot.parent"
    doc = _set_snapshot(_doc(), 0, parent_snapshot_id=S2)
    yield _read(r, "cycle", "S1's parent is S2 and S2's parent is S1: a cycle", doc)
    doc = _set_snapshot(_doc(), 1, parent_snapshot_id=S2)
    yield _read(r, "self-parent", "S2 is its own parent", doc)
    doc = _set_snapshot(_doc(), 0, parent_snapshot_id=EXPIRED)
    yield _read(r, "expired-parent", "S1's parent is not in the table: it has expired, which is allowed", doc)

    r = "snapshot.sequence-order"
    yield _read(
        r,
        "equal-to-parent",
        "S2's sequence-number equals its parent S1's (1)",
        _set_snapshot(_doc(), 1, sequence_number=1),
    )
    doc = _set_snapshot(_set_snapshot(_doc(), 0, sequence_number=2), 1, sequence_number=1)
    yield _read(r, "below-parent", "S2 has sequence-number 1 and its parent S1 has 2", doc)
    doc = _set_snapshot(_set_snapshot(_doc(last_sequence_number=0), 0, sequence_number=0), 1, sequence_number=0)
    yield _read(
        r, "both-zero", "S1 and S2 both with sequence-number 0: snapshots written in v1 before an upgrade to v2", doc
    )
    doc = _set_snapshot(_set_snapshot(_doc(), 0, sequence_number=0), 1, sequence_number=1)
    yield _read(
        r, "v1-parent", "S1 from v1 (sequence-number 0) and S2 committed after the upgrade (sequence-number 1)", doc
    )

    r = "snapshot.last-sequence-number"
    yield _read(
        r,
        "above-snapshots",
        "last-sequence-number 5 above every snapshot's (a newer snapshot was expired or a commit failed)",
        _doc(last_sequence_number=5),
    )
    yield _read(
        r, "below-snapshot", "S2's sequence-number 2 exceeds last-sequence-number 1", _doc(last_sequence_number=1)
    )

    r = "snapshot.next-row-id"
    yield _read(
        r,
        "one-below",
        "v3: S2's first-row-id 100 + added-rows 200 = 300 exceeds next-row-id 299",
        _doc(base=v3(), next_row_id=299),
    )
    yield _read(
        r,
        "above",
        "v3: next-row-id 1000 above the last assigned row id is valid (ids of other branches or failed commits)",
        _doc(base=v3(), next_row_id=1000),
    )
    doc = _set_snapshot(_doc(base=v3(), next_row_id=200), 0, first_row_id=None, added_rows=None)
    _set_snapshot(doc, 1, first_row_id=0)
    yield _read(
        r, "after-upgrade", "v3 after an upgrade: S1 has no row lineage, S2 assigned ids 0..199, next-row-id 200", doc
    )

    r = "snapshot.row-range"
    yield _read(
        r,
        "overlap",
        "v3: S1 has row ids [0, 100) and S2 [50, 250): the ranges overlap",
        _set_snapshot(_doc(base=v3()), 1, first_row_id=50),
    )
    yield _read(r, "adjacent", "v3: S1 [0, 100) and S2 [100, 300) are adjacent, not overlapping", _doc(base=v3()))
    doc = _set_snapshot(_doc(base=v3(), next_row_id=500), 0, first_row_id=300)
    yield _read(r, "out-of-order", "v3: ranges need not follow the parent order: S1 [300, 400), S2 [100, 300)", doc)

    r = "snapshot-log.json"
    yield _read(
        r, "not-a-list", "snapshot-log is a list", _doc(snapshot_log={"snapshot-id": S1, "timestamp-ms": 1515100955770})
    )
    yield _read(
        r,
        "missing-snapshot-id",
        "a snapshot-log entry needs snapshot-id",
        _doc(snapshot_log=[{"timestamp-ms": 1515100955770}]),
    )
    yield _read(
        r,
        "string-timestamp",
        "timestamp-ms is a long",
        _doc(snapshot_log=[{"snapshot-id": S1, "timestamp-ms": "1515100955770"}]),
    )
    yield _read(r, "absent", "snapshot-log is optional: absent reads as an empty log", _doc(snapshot_log=None))

    r = "snapshot-log.order"
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1515100955770 - 60_000},
    ]
    yield _read(
        r,
        "skew-60s",
        "the second entry is 60 s earlier than the first: within the one-minute clock skew Iceberg Java tolerates",
        _doc(snapshot_log=log),
        note="The spec states no order; the one-minute tolerance is Iceberg Java's.",
    )
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1515100955770 - 60_001},
    ]
    yield _read(
        r,
        "skew-above-60s",
        "the second entry is 60.001 s earlier than the first: rejected",
        _doc(snapshot_log=log),
        note="The spec states no order; the one-minute tolerance is Iceberg Java's.",
    )
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1555100955770},
        {"snapshot-id": S1, "timestamp-ms": 1555100955771},
    ]
    yield _read(
        r,
        "rollback",
        "a rollback to S1 after S2: a snapshot may appear twice in the log",
        _doc(current_snapshot_id=S1, refs=None, snapshot_log=log),
    )

    r = "snapshot-log.unknown-snapshot"
    prefix = [{"snapshot-id": EXPIRED, "timestamp-ms": 1505100955770}]
    yield _read(
        r,
        "expired-prefix",
        "the log starts with an entry for an expired snapshot: allowed before the retained ones",
        _doc(snapshot_log=prefix + v2()["snapshot-log"]),
    )
    log = copy.deepcopy(v2()["snapshot-log"])
    log.insert(1, {"snapshot-id": EXPIRED, "timestamp-ms": 1535100955770})
    yield _read(
        r,
        "expired-in-middle",
        "an entry for an expired snapshot between S1's and S2's: entries before an expired snapshot should have "
        "been removed",
        _doc(snapshot_log=log),
    )
    log = v2()["snapshot-log"] + [{"snapshot-id": EXPIRED, "timestamp-ms": 1555100955771}]
    yield _read(r, "unknown-last", "the last entry names a snapshot that is not in the table", _doc(snapshot_log=log))

    # retention.snapshot-log: what the log must look like after expiration. The ops have no output
    # for a pruned log, so the case reads the table an expiration leaves.
    r = "retention.snapshot-log"
    prune_note = (
        '"All entries before a snapshot that has expired should be removed": the reference also removes the expired '
        "snapshot's own entry (as Iceberg Java does), so that every remaining entry names a snapshot of the table."
    )
    s0 = {
        "snapshot-id": S0,
        "timestamp-ms": 1505100955770,
        "summary": {"operation": "append"},
        "manifest-list": "s3://b/wh/data.db/table/metadata/snap-0.avro",
        "schema-id": 0,
        "sequence-number": 1,
    }
    after = _doc(last_sequence_number=3, refs=_refs(old={"snapshot-id": S0, "type": "tag"}))  # history S0 <- S1 <- S2
    after["snapshots"] = [s0, _set_snapshot(copy.deepcopy(after), 1, sequence_number=3)["snapshots"][1]]  # S1 expired
    after["snapshot-log"].insert(0, {"snapshot-id": S0, "timestamp-ms": 1505100955770})
    unpruned = copy.deepcopy(after)
    yield _read(
        r,
        "not-pruned",
        "history S0 <- S1 <- S2 with log [S0, S1, S2]; S1 expired while a tag keeps S0: the log still naming S1 "
        "after S0 is rejected (entries up to the expired S1 must be removed)",
        unpruned,
        note=prune_note,
    )
    pruned = copy.deepcopy(after)
    pruned["snapshot-log"] = [e for e in pruned["snapshot-log"] if e["snapshot-id"] == S2]
    yield _read(
        r,
        "pruned",
        "the same table with the log pruned to [S2]: every entry up to and including the expired S1 removed",
        pruned,
        note=prune_note,
    )


# --- expiration --------------------------------------------------------------------------------

NOW = 1700000000000  # 2023-11-14T22:13:20Z
DAY = 86400000
RETENTION_DEFAULTS = (
    "The spec names the table properties but not their defaults; the reference uses Iceberg Java's: "
    "max-snapshot-age 5 days (432000000 ms), min-snapshots-to-keep 1, max-ref-age never."
)
SPEC_STEPS = (
    "The spec's five steps expire every snapshot no ref retains; Iceberg Java also keeps unreferenced snapshots "
    "younger than the table's max snapshot age."
)


def _s(sid: int, days_ago: float, parent: int | None = None) -> dict:
    snap = {
        "snapshot-id": sid,
        "sequence-number": sid,
        "timestamp-ms": NOW - int(days_ago * DAY),
        "summary": {"operation": "append"},
        "manifest-list": f"s3://b/wh/t/metadata/snap-{sid}.avro",
    }
    if parent is not None:
        snap["parent-snapshot-id"] = parent
    return snap


# main: 1 <- 2 <- 3 <- 4 <- 5, taken 10, 8, 6, 3 and 1 days before now-ms
HISTORY = [_s(1, 10), _s(2, 8, 1), _s(3, 6, 2), _s(4, 3, 3), _s(5, 1, 4)]
HISTORY_TEXT = "history 1 <- 2 <- 3 <- 4 <- 5 taken 10, 8, 6, 3, 1 days ago"


def _branch(sid: int, **kw: Any) -> dict:
    return {"snapshot-id": sid, "type": "branch", **{k.replace("_", "-"): v for k, v in kw.items()}}


def _tag(sid: int, **kw: Any) -> dict:
    return {"snapshot-id": sid, "type": "tag", **{k.replace("_", "-"): v for k, v in kw.items()}}


def _expire(
    rule_id: str,
    slug: str,
    description: str,
    refs: dict,
    properties: dict | None = None,
    snapshots: list | None = None,
    now: int = NOW,
    **kw,
):
    return case(
        rule_id,
        slug,
        description,
        "expire-snapshots",
        format_version=2,
        snapshots=copy.deepcopy(snapshots or HISTORY),
        refs=refs,
        properties=properties or {},
        **{"now-ms": now},
        **kw,
    )


def _props(
    max_age_days: float | None = None, min_keep: int | None = None, max_ref_age_days: float | None = None
) -> dict:
    out = {}
    if max_age_days is not None:
        out["history.expire.max-snapshot-age-ms"] = str(int(max_age_days * DAY))
    if min_keep is not None:
        out["history.expire.min-snapshots-to-keep"] = str(min_keep)
    if max_ref_age_days is not None:
        out["history.expire.max-ref-age-ms"] = str(int(max_ref_age_days * DAY))
    return out


def _retention_specs():
    main = {"main": _branch(5)}
    log = [
        {"snapshot-id": sid, "timestamp-ms": NOW - days * DAY}
        for sid, days in ((1, 10), (2, 8), (3, 6), (4, 3), (5, 1))
    ]
    yield _expire(
        "retention.snapshot-log",
        "log-pruned",
        f"{HISTORY_TEXT}, main at 5 with the Java defaults: 1-3 expire, and the "
        "snapshot log loses every entry up to the last expired snapshot (3), leaving 4 and 5",
        main,
        **{"snapshot-log": log},
    )
    rollback = [
        {"snapshot-id": 4, "timestamp-ms": NOW - 3 * DAY},
        {"snapshot-id": 1, "timestamp-ms": NOW - 2 * DAY},
        {"snapshot-id": 5, "timestamp-ms": NOW - DAY},
    ]
    yield _expire(
        "retention.snapshot-log",
        "log-after-rollback",
        "a log [4, 1, 5] (a rollback to 1, then 5): everything up to the last "
        "entry of an expired snapshot goes, the entry for the kept 4 before it too, leaving [5]",
        main,
        **{"snapshot-log": rollback},
    )

    r = "retention.expire"
    yield _expire(
        r,
        "java-defaults",
        f"{HISTORY_TEXT}, main at 5, no properties: 4 and 5 are younger than 5 days and kept, 1-3 expire",
        main,
        note=RETENTION_DEFAULTS,
    )
    yield _expire(
        r,
        "unreferenced-young",
        "a snapshot 6 taken 1 ms ago whose parent is 5 but that no ref points to (a staged commit) expires",
        main,
        snapshots=HISTORY + [_s(6, 0, 5) | {"timestamp-ms": NOW - 1}],
        note=SPEC_STEPS,
    )
    yield _expire(
        r,
        "no-refs",
        f"{HISTORY_TEXT} and no refs at all (no current snapshot): every snapshot expires",
        {},
        note=SPEC_STEPS,
    )
    yield _expire(r, "unique-id", "two snapshots with id 1", main, snapshots=HISTORY + [_s(1, 10)])
    yield _expire(
        r,
        "ref-to-unknown",
        "a tag pointing to snapshot 42, which is not in the table",
        {**main, "t": _tag(42)},
        note="Iceberg Java drops such a ref; the reference rejects the input.",
    )

    r = "retention.ref-age"
    refs = {**main, "old": _tag(2, max_ref_age_ms=7 * DAY), "fresh": _tag(3, max_ref_age_ms=7 * DAY)}
    yield _expire(
        r,
        "tag-own-max-ref-age",
        'tags with max-ref-age-ms 7 days: "old" on 2 (8 days old) is removed and 2 expires; "fresh" on 3 (6 '
        "days) stays",
        refs,
        note="The age is that of the referenced snapshot (step 2), not of the ref, whose creation time is not "
        "recorded.",
    )
    refs = {**main, "a": _tag(1), "b": _tag(2, max_ref_age_ms=30 * DAY), "c": _branch(3)}
    yield _expire(
        r,
        "table-property",
        'history.expire.max-ref-age-ms 5 days removes tag "a" (on 1) and branch "c" (on 3); tag "b" on 2 keeps '
        "its own 30 days",
        refs,
        _props(max_ref_age_days=5),
    )
    yield _expire(
        r,
        "never-by-default",
        "without max-ref-age-ms anywhere refs never age out: tags on 1 and 2 keep their snapshots",
        {**main, "a": _tag(1), "b": _tag(2)},
    )
    yield _expire(
        r,
        "boundary",
        'a tag whose snapshot (2) is exactly max-ref-age-ms (8 days) old is kept: "older than" is strict',
        {**main, "t": _tag(2, max_ref_age_ms=8 * DAY)},
    )
    yield _expire(
        r,
        "boundary-plus-1ms",
        "1 ms later the same tag is removed and 2 expires",
        {**main, "t": _tag(2, max_ref_age_ms=8 * DAY)},
        now=NOW + 1,
    )
    dev = [_s(11, 30, 1)]
    refs = {**main, "dev": _branch(11, max_ref_age_ms=DAY, min_snapshots_to_keep=10)}
    yield _expire(
        r,
        "removed-branch",
        'branch "dev" on 11 (30 days old, parent 1) ages out by its max-ref-age-ms 1 day: its min-snapshots-to-keep 10 '
        "no longer protects 11 or 1",
        refs,
        snapshots=HISTORY + dev,
    )
    yield _expire(
        r,
        "removed-tag-shared-snapshot",
        'tag "t" on 4 ages out (max-ref-age-ms 1 day) but main still retains 4',
        {**main, "t": _tag(4, max_ref_age_ms=DAY)},
    )

    r = "retention.main-never-expires"
    yield _expire(
        r,
        "own-and-property",
        "main on 1 (10 days old) with max-ref-age-ms 1 and history.expire.max-ref-age-ms 1: main stays, 1 is kept",
        {"main": _branch(1, max_ref_age_ms=1)},
        {"history.expire.max-ref-age-ms": "1"},
        snapshots=HISTORY[:1],
    )
    yield _expire(
        r,
        "property-only",
        'history.expire.max-ref-age-ms 1 day removes tag "t" on 2 but not main on 5, whose ancestors are walked '
        "as usual",
        {**main, "t": _tag(2)},
        _props(max_ref_age_days=1, max_age_days=7),
    )

    r = "retention.ref-snapshots"
    yield _expire(
        r,
        "tag-without-ancestors",
        'tag "v1.0" on 2 retains 2 but not its ancestor 1; main retains 4 and 5; 1 and 3 expire',
        {**main, "v1.0": _tag(2)},
    )
    yield _expire(
        r,
        "old-branch-head",
        "main on 2 with history.expire.max-snapshot-age-ms 1: the head 2 is kept however old; 1 expires, and "
        "3-5, not reachable from main, expire",
        {"main": _branch(2)},
        {"history.expire.max-snapshot-age-ms": "1"},
    )
    yield _expire(r, "old-tag", 'tag "t" on 1 (10 days old, no max-ref-age-ms): 1 is kept', {**main, "t": _tag(1)})

    r = "retention.branch-ancestors"
    yield _expire(
        r,
        "age-boundary",
        "history.expire.max-snapshot-age-ms 6 days: 3, exactly 6 days old, is not older and is kept",
        main,
        _props(max_age_days=6),
    )
    yield _expire(
        r,
        "age-boundary-plus-1ms",
        "1 ms later 3 is older than 6 days and expires",
        main,
        _props(max_age_days=6),
        now=NOW + 1,
    )
    yield _expire(
        r,
        "min-overrides-age",
        "max-snapshot-age-ms 1 ms and min-snapshots-to-keep 3: the first 3 of main (5, 4, 3, counting the head) "
        "are kept however old",
        main,
        {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "3"},
    )
    yield _expire(
        r,
        "both-conditions",
        "max-snapshot-age 9 days, min-snapshots-to-keep 1: 2, 3 and 4 are beyond the minimum but young, so kept; "
        "1 is both and expires",
        main,
        _props(max_age_days=9, min_keep=1),
    )
    yield _expire(
        r,
        "min-above-history",
        "min-snapshots-to-keep 10 on a history of 5 with max-snapshot-age 1 ms: all 5 kept",
        main,
        {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "10"},
    )
    odd = [_s(1, 1), _s(2, 30, 1), _s(3, 1, 2)]
    yield _expire(
        r,
        "walk-stops",
        "history 1 <- 2 <- 3 taken 1, 30, 1 days ago (a clock jump), main on 3: the walk stops at 2, so 1 "
        "expires although it is young",
        {"main": _branch(3)},
        snapshots=odd,
        note='"add its ancestors ... until": the walk ends at the first ancestor that meets both conditions.',
    )
    yield _expire(
        r,
        "expired-parent-ends-walk",
        "history 3 <- 4 <- 5 whose 3 has a parent (2) already expired; main with min-snapshots-to-keep 10: 3, 4, "
        "5 kept",
        {"main": _branch(5, min_snapshots_to_keep=10)},
        snapshots=HISTORY[2:],
    )
    tight = {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "1"}
    yield _expire(
        r,
        "branch-min-overrides-property",
        "table properties keep 1 snapshot of any age; main's own min-snapshots-to-keep 4 keeps 5, 4, 3, 2",
        {"main": _branch(5, min_snapshots_to_keep=4)},
        tight,
    )
    yield _expire(
        r,
        "branch-age-overrides-property",
        "table max-snapshot-age 1 ms; main's own max-snapshot-age-ms 7 days keeps 5, 4, 3",
        {"main": _branch(5, max_snapshot_age_ms=7 * DAY)},
        tight,
    )
    yield _expire(
        r,
        "branch-age-shorter-than-property",
        "table max-snapshot-age 50 days; main's own max-snapshot-age-ms 2 days keeps only 5",
        {"main": _branch(5, max_snapshot_age_ms=2 * DAY)},
        _props(max_age_days=50),
    )
    yield _expire(
        r,
        "branch-settings-not-shared",
        'branch "dev" on 3 with min-snapshots-to-keep 3 keeps 3, 2, 1; main keeps 5, 4 with the defaults',
        {**main, "dev": _branch(3, min_snapshots_to_keep=3)},
    )
    shared = HISTORY + [_s(11, 9, 3), _s(12, 2, 11)]  # dev: 3 <- 11 <- 12
    yield _expire(
        r,
        "shared-ancestors",
        'branch "dev" 3 <- 11 <- 12 (11 nine days, 12 two days old) forks from main at 3; '
        "dev's min-snapshots-to-keep 4 reaches the shared ancestors 3 and 2; 1 expires",
        {**main, "dev": _branch(12, min_snapshots_to_keep=4)},
        snapshots=shared,
    )
    yield _expire(
        r,
        "shared-ancestors-defaults",
        "the same branches with the defaults: dev keeps only 12 (11 is 9 days old), main 5 and 4; 1, 2, 3, 11 expire",
        {**main, "dev": _branch(12)},
        snapshots=shared,
        note=RETENTION_DEFAULTS,
    )
    yield _expire(
        r,
        "tag-no-walk",
        "a tag's ancestors are not walked, even with table properties that would keep them",
        {"main": _branch(1), "t": _tag(5)},
        _props(max_age_days=30, min_keep=5),
    )

    r = "retention.property"
    for key, value, why in (
        ("history.expire.min-snapshots-to-keep", "0", "zero"),
        ("history.expire.max-snapshot-age-ms", "-5", "negative"),
        ("history.expire.max-ref-age-ms", "five days", "not a number"),
        ("history.expire.max-snapshot-age-ms", "1.5", "not an integer"),
        ("history.expire.max-snapshot-age-ms", "9223372036854775808", "beyond a long"),
        ("history.expire.max-ref-age-ms", "9" * 4301, "4,301 digits long"),
    ):
        yield _expire(
            r,
            f"{key.rsplit('.', 1)[1]}-{why}",
            f"table property {key} = {value!r} is {why}: rejected",
            main,
            {key: value},
        )


# --- views -------------------------------------------------------------------------------------

VIEW_SCHEMA = {
    "schema-id": 1,
    "type": "struct",
    "fields": [
        {"id": 1, "name": "event_count", "required": False, "type": "int", "doc": "Count of events"},
        {"id": 2, "name": "event_date", "required": False, "type": "date"},
    ],
}


def _view_version(vid: int, ts: int, sql: str) -> dict:
    return {
        "version-id": vid,
        "timestamp-ms": ts,
        "schema-id": 1,
        "default-catalog": "prod",
        "default-namespace": ["default"],
        "summary": {"engine-name": "Spark", "engine-version": "3.3.2"},
        "representations": [{"type": "sql", "sql": sql, "dialect": "spark"}],
    }


def adopted_view() -> dict:
    """The adopted view spec's Appendix A example after the second CREATE OR REPLACE."""
    return {
        "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
        "format-version": 1,
        "location": "s3://bucket/warehouse/default.db/event_agg",
        "current-version-id": 2,
        "properties": {"comment": "Daily event counts"},
        "versions": [
            _view_version(1, 1573518431292, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2"),
            _view_version(
                2, 1573518981593, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM prod.default.events\nGROUP BY 2"
            ),
        ],
        "schemas": [copy.deepcopy(VIEW_SCHEMA)],
        "version-log": [
            {"timestamp-ms": 1573518431292, "version-id": 1},
            {"timestamp-ms": 1573518981593, "version-id": 2},
        ],
    }


def adopted_view_first() -> dict:
    """The adopted Appendix A's first metadata file (after the CREATE)."""
    doc = adopted_view()
    doc["current-version-id"] = 1
    doc["versions"] = doc["versions"][:1]
    doc["version-log"] = doc["version-log"][:1]
    return doc


def _draft_schema(sid: int, *fields: tuple[str, str]) -> dict:
    return {
        "schema-id": sid,
        "type": "struct",
        "fields": [{"id": i, "name": n, "required": False, "type": t, "doc": ""} for i, (n, t) in enumerate(fields)],
    }


def _draft_rep(sql: str, dialect: str, sid: int) -> dict:
    return {
        "type": "sql",
        "sql": sql,
        "dialect": dialect,
        "schema-id": sid,
        "default-catalog": "iceberg",
        "default-namespace": ["anorwood"],
    }


DRAFT_FIX = (
    'the early draft\'s Appendix A example, made valid JSON: the trailing commas (after "engineVersion", after a '
    'representation object and after the representations list) and the "=>" annotations removed, the final brace added'
)


def draft_view_first() -> dict:
    """The draft's example at the end of step 3 (CREATE VIEW), corrected into valid JSON."""
    return {
        "format-version": 1,
        "location": "s3n://my_company/my/warehouse/anorwood.db/common_view",
        "current-version-id": 1,
        "properties": {"comment": "View captures all the data from the table"},
        "versions": [
            {
                "version-id": 1,
                "parent-version-id": -1,
                "timestamp-ms": 1573518431292,
                "summary": {"operation": "create", "engineVersion": "presto-350"},
                "representations": [_draft_rep("SELECT *\nFROM\n  base_tab\n", "presto", 1)],
            }
        ],
        "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}],
        "schemas": [_draft_schema(1, ("c1", "int"), ("c2", "string"))],
        "current-schema-id": 1,
    }


def draft_view() -> dict:
    """The draft's example at the end of step 4 (CREATE OR REPLACE VIEW), corrected into valid JSON."""
    doc = draft_view_first()
    doc["current-version-id"] = 2
    doc["properties"] = {"comment": "View captures count of the data from the table"}
    doc["versions"][0]["properties"] = {}
    doc["versions"].append(
        {
            "version-id": 2,
            "parent-version-id": 1,
            "timestamp-ms": 1573518440265,
            "summary": {"operation": "replace", "engineVersion": "spark-2.4.4"},
            "representations": [_draft_rep('SELECT "count"(*) my_cnt\nFROM\n  base_tab\n', "spark", 2)],
        }
    )
    doc["version-log"].append({"timestamp-ms": 1573518440265, "version-id": 2})
    doc["schemas"].append(_draft_schema(2, ("my_cnt", "long")))
    doc["current-schema-id"] = 2
    return doc


def _view(rule_id: str, slug: str, description: str, document: Any, revisions: tuple[str, ...], **kw):
    return case(rule_id, slug, description, "read-view-metadata", revisions=revisions, document=document, **kw)


def _a(rule_id: str, slug: str, description: str, document: Any, **kw):
    return _view(rule_id, slug, description, document, ADOPTED, **kw)


def _d(rule_id: str, slug: str, description: str, document: Any, **kw):
    return _view(rule_id, f"draft-{slug}", f"early draft: {description}", document, SEED, **kw)


def _vwith(doc: dict, **changes: Any) -> dict:
    """A copy of a view document with top-level changes (as `_doc`)."""
    return _doc(doc, **changes)


def _version_with(doc: dict, index: int, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc["versions"][index].pop(key, None)
        else:
            doc["versions"][index][key] = value
    return doc


def _rep_with(doc: dict, index: int, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    rep = doc["versions"][index]["representations"][0]
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            rep.pop(key, None)
        else:
            rep[key] = value
    return doc


def _adopted_view_specs():
    a = adopted_view()
    r = "view.json"
    yield _a(
        r,
        "appendix-a-create",
        "the adopted view spec's Appendix A example after CREATE (one version)",
        adopted_view_first(),
    )
    yield _a(
        r, "appendix-a-replace", "the adopted view spec's Appendix A example after CREATE OR REPLACE (two versions)", a
    )
    yield _a(r, "not-an-object", "view metadata is a JSON object", [a])
    yield _a(r, "missing-location", "location is required", _vwith(a, location=None))
    yield _a(r, "properties-not-strings", "properties is a string-to-string map", _vwith(a, properties={"comment": 1}))
    yield _a(r, "no-properties", "properties is optional", _vwith(a, properties=None))
    yield _a(r, "version-missing-version-id", "a version needs version-id", _version_with(a, 0, version_id=None))
    yield _a(
        r,
        "version-timestamp-string",
        "a version's timestamp-ms is a long",
        _version_with(a, 0, timestamp_ms="2019-11-12T00:27:11.292Z"),
    )
    yield _a(r, "version-not-object", "a version is a JSON object", _vwith(a, versions=[a["versions"][0], 2]))
    yield _a(
        r,
        "draft-fields-ignored",
        "draft-only fields (current-schema-id, parent-version-id) are not adopted fields: ignored and not written",
        _version_with(_vwith(a, current_schema_id=1), 1, parent_version_id=1),
    )

    r = "view.format-version"
    for slug, value, why in (
        ("two", 2, "2 is above the supported version"),
        ("zero", 0, "0 is not 1"),
        ("string", "1", '"1" is a string'),
        ("missing", None, "it is required"),
    ):
        yield _a(r, slug, f"format-version must be 1: {why}", _vwith(a, format_version=value))

    r = "view.uuid"
    yield _a(r, "missing", "view-uuid is required in the adopted spec", _vwith(a, view_uuid=None))
    yield _a(r, "not-a-uuid", "view-uuid must be a UUID", _vwith(a, view_uuid="event_agg"))
    yield _a(
        r,
        "draft-example",
        "the early draft's example (corrected) has no view-uuid: rejected by the adopted spec",
        draft_view(),
    )

    r = "view.schemas"
    yield _a(r, "missing", "schemas is required in the adopted spec", _vwith(a, schemas=None))
    yield _a(r, "duplicate-id", "two schemas with schema-id 1", _vwith(a, schemas=[VIEW_SCHEMA, VIEW_SCHEMA]))
    yield _a(
        r,
        "no-schema-id",
        "a schema needs schema-id",
        _vwith(a, schemas=[{k: v for k, v in VIEW_SCHEMA.items() if k != "schema-id"}]),
    )
    yield _a(r, "not-a-list", "schemas is a list", _vwith(a, schemas=VIEW_SCHEMA))
    second = dict(copy.deepcopy(VIEW_SCHEMA), **{"schema-id": 2})
    second["fields"].append({"id": 3, "name": "event_type", "required": False, "type": "string"})
    doc = _version_with(_vwith(a, schemas=[VIEW_SCHEMA, second]), 1, schema_id=2)
    yield _a(r, "two-schemas", "two schemas, version 2 using schema 2 (a column added by the replace)", doc)

    r = "view.current-version"
    yield _a(r, "unknown", "current-version-id 3 names no version", _vwith(a, current_version_id=3))
    yield _a(r, "missing", "current-version-id is required", _vwith(a, current_version_id=None))
    yield _a(
        r,
        "not-latest",
        "current-version-id 1 (a rollback): the current version need not be the newest",
        _vwith(a, current_version_id=1),
    )

    r = "view.version-unique"
    yield _a(r, "duplicate", "two versions with version-id 1", _version_with(a, 1, version_id=1))
    yield _a(r, "empty", "versions must not be empty", _vwith(a, versions=[]))
    yield _a(r, "missing", "versions is required", _vwith(a, versions=None))

    r = "view.schema-id"
    yield _a(r, "unknown", "version 1's schema-id 9 names no schema", _version_with(a, 0, schema_id=9))
    yield _a(r, "missing", "a version's schema-id is required in the adopted spec", _version_with(a, 0, schema_id=None))

    r = "view.default-namespace"
    yield _a(r, "missing", "a version's default-namespace is required", _version_with(a, 0, default_namespace=None))
    yield _a(
        r,
        "string",
        "default-namespace is a list of strings, not one string",
        _version_with(a, 0, default_namespace="default"),
    )
    yield _a(
        r, "multi-level", "a namespace of two levels", _version_with(a, 1, default_namespace=["prod_db", "default"])
    )
    doc = _version_with(a, 0, default_namespace=[], default_catalog=None)
    yield _a(r, "empty-no-catalog", "an empty default-namespace and no default-catalog (the view's own catalog)", doc)
    yield _a(r, "catalog-number", "default-catalog is a string", _version_with(a, 0, default_catalog=3))

    r = "view.summary"
    yield _a(r, "missing", "a version's summary is required", _version_with(a, 0, summary=None))
    yield _a(
        r,
        "non-string-value",
        "summary values are strings",
        _version_with(a, 0, summary={"engine-name": "Spark", "engine-version": 3.3}),
    )
    yield _a(
        r,
        "empty",
        "an empty summary: engine-name and engine-version are optional, and there is no operation in the adopted spec",
        _version_with(a, 0, summary={}),
    )

    r = "view.representation"
    for slug, rep, why in (
        ("no-sql", {"type": "sql", "dialect": "spark"}, "a sql representation needs sql"),
        ("no-dialect", {"type": "sql", "sql": "SELECT 1"}, "a sql representation needs dialect"),
        ("no-type", {"sql": "SELECT 1", "dialect": "spark"}, "a representation needs type"),
        ("string", "SELECT 1", "a representation is an object"),
    ):
        yield _a(r, slug, why, _version_with(a, 0, representations=[rep]))
    yield _a(
        r,
        "not-a-list",
        "representations is a list",
        _version_with(a, 0, representations={"type": "sql", "sql": "SELECT 1", "dialect": "spark"}),
    )
    other = {"type": "substrait", "plan": "AAEC"}
    yield _a(
        r,
        "unknown-type-kept",
        "a representation of a type other than sql is kept as it is",
        _version_with(a, 1, representations=a["versions"][1]["representations"] + [other]),
    )

    r = "view.dialect-unique"
    trino = {
        "type": "sql",
        "sql": "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2",
        "dialect": "trino",
    }
    yield _a(
        r,
        "two-dialects",
        "one spark and one trino representation",
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [trino]),
    )
    same = {"type": "sql", "sql": "SELECT 1", "dialect": "spark"}
    yield _a(
        r,
        "same-dialect",
        "two spark representations in one version",
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [same]),
    )
    yield _a(
        r,
        "case-insensitive",
        'dialects "spark" and "Spark" are the same dialect',
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [dict(same, dialect="Spark")]),
        note="The adopted text does not say how dialects compare; Iceberg Java, PyIceberg and iceberg-rust compare "
        "them case-insensitively.",
    )

    r = "view.version-log"
    yield _a(r, "missing", "version-log is required", _vwith(a, version_log=None))
    yield _a(
        r,
        "entry-no-version-id",
        "a version-log entry needs version-id",
        _vwith(a, version_log=[{"timestamp-ms": 1573518431292}]),
    )
    yield _a(r, "entry-not-object", "a version-log entry is an object", _vwith(a, version_log=[1]))
    log = (
        [{"timestamp-ms": 1573518000000, "version-id": 0}]
        + a["version-log"]
        + [{"timestamp-ms": 1573519000000, "version-id": 1}]
    )
    yield _a(
        r,
        "expired-and-rollback",
        "the log names version 0, no longer in versions, and version 1 again after a rollback",
        _vwith(a, version_log=log, current_version_id=1),
    )


def _draft_view_specs():
    d = draft_view()
    r = "view.json"
    yield _d(
        r,
        "appendix-a-create",
        f"{DRAFT_FIX}, after step 3 (CREATE VIEW); parent-version-id, which the field tables do not define, is ignored",
        draft_view_first(),
    )
    yield _d(
        r,
        "appendix-a-replace",
        f"{DRAFT_FIX}, after step 4 (CREATE OR REPLACE VIEW); parent-version-id and the version-level properties "
        "are ignored",
        d,
    )
    yield _d(
        r,
        "namespace-string",
        "a representation's default-namespace is a list of strings",
        _rep_with(d, 0, default_namespace="anorwood"),
    )
    yield _d(r, "missing-location", "location is required", _vwith(d, location=None))
    yield _d(r, "catalog-number", "a representation's default-catalog is a string", _rep_with(d, 0, default_catalog=1))

    r = "view.format-version"
    yield _d(r, "two", "format-version must be 1: 2 is above the supported version", _vwith(d, format_version=2))
    r = "view.current-version"
    yield _d(r, "unknown", "current-version-id 7 names no version", _vwith(d, current_version_id=7))
    r = "view.version-unique"
    yield _d(r, "duplicate", "two versions with version-id 1", _version_with(d, 1, version_id=1))
    r = "view.version-log"
    yield _d(r, "missing", "version-log is required", _vwith(d, version_log=None))
    r = "view.summary"
    yield _d(r, "missing", "a version's summary is required", _version_with(d, 0, summary=None))
    r = "view.representation"
    yield _d(r, "no-sql", "a sql representation needs sql", _rep_with(d, 0, sql=None))

    r = "view.schemas"
    doc = _vwith(d, schemas=None, current_schema_id=None)
    for i in range(2):
        doc = _rep_with(doc, i, schema_id=None)
    yield _d(r, "optional", "schemas, current-schema-id and the representations' schema-id are all optional", doc)
    yield _d(
        r,
        "duplicate-id",
        "two schemas with schema-id 1",
        _vwith(d, schemas=[d["schemas"][0], d["schemas"][0]], current_schema_id=1),
    )

    r = "view.schema-id"
    yield _d(r, "current-unknown", "current-schema-id 5 names no schema", _vwith(d, current_schema_id=5))
    yield _d(
        r, "representation-unknown", "a representation's schema-id 5 names no schema", _rep_with(d, 0, schema_id=5)
    )
    yield _d(
        r,
        "without-schemas",
        "a representation names schema 2 but there is no schemas list",
        _vwith(d, schemas=None, current_schema_id=None),
    )
    yield _d(
        r,
        "adopted-version-schema-id",
        "a version-level schema-id (an adopted field) is ignored; the draft's are on representations",
        _version_with(d, 1, schema_id=99),
    )

    r = "view.summary-operation"
    yield _d(
        r, "missing", "summary.operation is required", _version_with(d, 1, summary={"engineVersion": "spark-2.4.4"})
    )
    yield _d(
        r,
        "drop",
        "summary.operation is create or replace, not drop",
        _version_with(d, 1, summary={"operation": "drop"}),
    )
    yield _d(
        r,
        "uppercase",
        'summary.operation "Replace": the allowed values are lowercase',
        _version_with(d, 1, summary={"operation": "Replace"}),
    )
    yield _d(
        r,
        "adopted-example",
        "the adopted spec's Appendix A example has no summary.operation: rejected by the draft",
        adopted_view(),
    )

    r = "view.field-aliases"
    doc = _rep_with(d, 0, field_aliases=["alias_name", "alias_name2"], field_docs=["docs", None])
    yield _d(
        r,
        "aliases-and-docs",
        "CREATE VIEW v (alias_name COMMENT 'docs', alias_name2) on schema 1's two fields: field-docs may hold null",
        doc,
    )
    yield _d(
        r,
        "aliases-too-short",
        "one alias for schema 1's two top-level fields",
        _rep_with(d, 0, field_aliases=["alias_name"]),
    )
    yield _d(
        r,
        "docs-too-long",
        "three docs for schema 1's two top-level fields",
        _rep_with(d, 0, field_docs=["docs", None, None]),
    )
    yield _d(r, "alias-null", "field-aliases holds strings only", _rep_with(d, 0, field_aliases=["alias_name", None]))
    yield _d(r, "aliases-string", "field-aliases is a list", _rep_with(d, 0, field_aliases="alias_name"))

    r = "view.dialect-unique"
    rep = _draft_rep("SELECT * FROM base_tab", "PRESTO", 1)
    doc = copy.deepcopy(d)
    doc["versions"][0]["representations"].append(rep)
    yield _d(
        r,
        "case-insensitive",
        'dialects "presto" and "PRESTO" in one version',
        doc,
        note="The draft states no such rule; the adopted spec's one-per-dialect rule is applied to both revisions.",
    )
    doc = copy.deepcopy(d)
    doc["versions"][0]["representations"].append(_draft_rep("SELECT * FROM base_tab", "spark", 1))
    yield _d(r, "two-dialects", "a presto and a spark representation in one version", doc)


def specs():
    yield from _snapshot_specs()
    yield from _table_specs()
    yield from _retention_specs()
    yield from _adopted_view_specs()
    yield from _draft_view_specs()
