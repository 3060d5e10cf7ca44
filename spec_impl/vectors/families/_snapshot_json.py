"""Snapshot JSON cases (Snapshots, Appendix C): Appendix C's snapshot example, with the comma the printed
example lacks after "manifest-list", read per format version."""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.cases import case
from spec_impl.vectors.families._snapshot_tables import with_changes


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
    """Appendix C's example with changes; a value None removes the key (as `with_changes`)."""
    return with_changes(APPENDIX_C, **changes)


def _v2snap(**changes: Any) -> dict:
    return _snap(sequence_number=1, **changes)


def _parse(rule_id: str, slug: str, description: str, snapshot: dict, fv: int, **kw):
    return case(rule_id, slug, description, "parse-snapshot", snapshot=snapshot, format_version=fv, **kw)


def specs():
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
