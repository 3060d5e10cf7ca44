"""Inheritance of manifest entry metadata: sequence numbers, snapshot ids, and v3 row ids.

Spec: "Manifests" (manifest_entry fields 1, 3, 4: "Inherited when null"), "Manifest Lists"
(sequence_number, min_sequence_number), Appendix E (v1 read defaults); adopted v3 digest §1.4
(first_row_id assignment and derivation, `_row_id`, `_last_updated_sequence_number`).

Entries and manifest-list rows are plain dicts keyed by their Avro field names
(`status`, `snapshot_id`, `sequence_number`, `file_sequence_number`, `data_file`; `sequence_number`,
`added_snapshot_id`, `first_row_id`, ...), as a reader sees them after decoding the Avro file.
"""

from __future__ import annotations

from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.manifests.records import check_entries, check_row
from spec_impl.metadata.json_document import brief
from spec_impl.metadata.versions import check_format_version
from spec_impl.rules import Rule, implements, register

_ENTRY = "Manifests (manifest_entry)"
_LIST = "Manifest Lists"
_LINEAGE = "adopted 1.4 Row lineage"
EXISTING, ADDED, DELETED = 0, 1, 2
DATA, DELETES = 0, 1  # manifest content

register(
    Rule(
        "manifest.v1-defaults",
        "Appendix E: Reading v1 metadata for v2",
        "v1 manifests and manifest lists read sequence numbers 0, manifest content 0 (data) and file content 0 (data)",
        (1, 2, 3),
    ),
    Rule("manifest.status", _ENTRY, "status is 0 EXISTING, 1 ADDED or 2 DELETED"),
    Rule(
        "manifest.inherit.snapshot-id",
        _ENTRY,
        "A null snapshot_id is inherited from the manifest list's added_snapshot_id",
        (2, 3),
    ),
    Rule(
        "manifest.inherit.sequence-number",
        _ENTRY,
        "Null data and file sequence numbers are inherited from the manifest's sequence_number, only for ADDED "
        "entries; an EXISTING or DELETED entry must carry them",
        (2, 3),
    ),
    Rule(
        "manifest.min-sequence-number",
        _LIST,
        "min_sequence_number is the minimum data sequence number of the manifest's live (ADDED or EXISTING) "
        "files; 0 is a legitimate value",
        (2, 3),
    ),
    Rule(
        "lineage.manifest-first-row-id",
        _LINEAGE,
        "Data manifests without first_row_id get one from the snapshot's first-row-id, each the previous plus "
        "added_rows_count + existing_rows_count; delete manifests get null",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "lineage.file-first-row-id",
        _LINEAGE,
        "A data file's null first_row_id is the manifest's first_row_id plus the record counts of the earlier "
        "null-id files of the manifest (DELETED entries skipped)",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "lineage.row-values",
        _LINEAGE,
        "A null _row_id is first_row_id + _pos and a null _last_updated_sequence_number the file's data sequence "
        "number; both null when the file has no first_row_id",
        (3,),
        revisions.ADOPTED,
    ),
)


@implements("manifest.avro-schema", "manifest.v1-defaults")
def read_manifest_file(row: dict[str, Any]) -> dict[str, Any]:
    """A manifest-list row with the v1 defaults applied (rule manifest.v1-defaults): content 0,
    sequence_number and min_sequence_number 0 when absent (a v1 manifest list, also one kept by
    an upgraded table). The row's shape is checked first (rule manifest.avro-schema)."""
    out = dict(check_row(row))
    for key in ("content", "sequence_number", "min_sequence_number"):
        if out.get(key) is None:
            out[key] = 0
    return out


@implements("manifest.inherit.sequence-number", "manifest.inherit.snapshot-id", "manifest.status")
def inherit_entries(
    manifest: dict[str, Any], entries: list[dict[str, Any]], format_version: int
) -> list[dict[str, Any]]:
    """The entries of one manifest as a reader must see them: snapshot ids and sequence numbers
    inherited from the manifest-list row `manifest` (rules manifest.inherit.*).

    `format_version` is the manifest file's own (its `format-version` key-value metadata; v1
    manifests have none): v1 entries read sequence numbers 0 (Appendix E), whatever their status.
    """
    manifest = read_manifest_file(manifest)
    check_format_version(format_version)
    out = []
    for e in check_entries(entries, str(manifest["manifest_path"])):
        status = e.get("status")
        if status not in (EXISTING, ADDED, DELETED):
            raise InvalidInput("manifest.status", "status must be 0 (EXISTING), 1 (ADDED) or 2 (DELETED)", status)
        resolved = dict(e, data_file=dict(e.get("data_file") or {}))
        resolved["data_file"].setdefault("content", DATA)
        if format_version == 1:  # Appendix E: v1 entries read sequence numbers 0
            resolved["sequence_number"] = e.get("sequence_number") or 0
            resolved["file_sequence_number"] = e.get("file_sequence_number") or 0
        else:
            for key in ("sequence_number", "file_sequence_number"):
                if e.get(key) is None:
                    if status != ADDED:
                        raise InvalidInput(
                            "manifest.inherit.sequence-number",
                            f"an {'EXISTING' if status == EXISTING else 'DELETED'} entry "
                            f"must carry {key}; only ADDED entries inherit it",
                            e["data_file"]["file_path"],
                        )
                    resolved[key] = manifest["sequence_number"]
        if e.get("snapshot_id") is None:
            if manifest.get("added_snapshot_id") is None:
                raise InvalidInput(
                    "manifest.inherit.snapshot-id",
                    "an entry without snapshot_id inherits the manifest's added_snapshot_id, which is null",
                    e["data_file"]["file_path"],
                )
            resolved["snapshot_id"] = manifest["added_snapshot_id"]
        out.append(resolved)
    return out


@implements("manifest.min-sequence-number")
def min_sequence_number(entries: list[dict[str, Any]]) -> int | None:
    """The minimum data sequence number of the live (ADDED, EXISTING) entries, after inheritance;
    None for a manifest without live entries (rule manifest.min-sequence-number)."""
    live = [e["sequence_number"] for e in entries if e["status"] != DELETED]
    return min(live) if live else None


@implements("lineage.manifest-first-row-id", "manifest.avro-schema")
def assign_manifest_first_row_ids(
    manifests: list[dict[str, Any]], snapshot_first_row_id: int
) -> tuple[list[dict[str, Any]], int]:
    """first_row_id for the manifest list of a v3 snapshot (rule lineage.manifest-first-row-id).

    Existing values are kept; data manifests without one get the next id, which then grows by
    added_rows_count + existing_rows_count (the recommended increment); delete manifests get null.
    Returns the rows and the next unassigned row id (the snapshot's first-row-id + added-rows).
    """
    if type(snapshot_first_row_id) is not int:
        raise InvalidInput(
            "lineage.manifest-first-row-id", "the snapshot's first-row-id is an integer", brief(snapshot_first_row_id)
        )
    if not isinstance(manifests, (list, tuple)):
        raise InvalidInput(
            "manifest.avro-schema", "a manifest list is a list of manifest_file rows", type(manifests).__name__
        )
    next_id = snapshot_first_row_id
    out = []
    for m in manifests:
        m = dict(check_row(m, reader_required=False))
        if m.get("content", DATA) != DATA:
            m["first_row_id"] = None
        elif m.get("first_row_id") is None:
            m["first_row_id"] = next_id
            next_id += (m.get("added_rows_count") or 0) + (m.get("existing_rows_count") or 0)
        out.append(m)
    return out, next_id


@implements("lineage.file-first-row-id")
def file_first_row_ids(manifest_first_row_id: int | None, entries: list[dict[str, Any]]) -> list[int | None]:
    """Each entry's data file first_row_id (rule lineage.file-first-row-id): explicit values kept;
    null ones follow from the manifest's first_row_id and the record counts of earlier null-id
    files, DELETED entries skipped (they keep null). A manifest without first_row_id gives nulls."""
    if manifest_first_row_id is not None and type(manifest_first_row_id) is not int:
        raise InvalidInput(
            "lineage.file-first-row-id", "a manifest's first_row_id is a long", brief(manifest_first_row_id)
        )
    check_entries(entries, "the manifest")
    out: list[int | None] = []
    offset = 0
    for e in entries:
        f = e["data_file"]
        if f.get("first_row_id") is not None:
            out.append(f["first_row_id"])
        elif manifest_first_row_id is None or e["status"] == DELETED or f.get("content", DATA) != DATA:
            out.append(None)
        else:
            out.append(manifest_first_row_id + offset)
            offset += f["record_count"]
    return out


@implements("lineage.row-values")
def row_lineage(
    first_row_id: int | None, data_sequence_number: int, rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """`_row_id` and `_last_updated_sequence_number` of each row of one data file, in position
    order (rule lineage.row-values): stored non-null values are kept; nulls are derived; a file
    without first_row_id reads both as null."""
    out = []
    for pos, row in enumerate(rows):
        if first_row_id is None:
            out.append({"_row_id": None, "_last_updated_sequence_number": None})
            continue
        row_id = row.get("_row_id")
        seq = row.get("_last_updated_sequence_number")
        out.append(
            {
                "_row_id": first_row_id + pos if row_id is None else row_id,
                "_last_updated_sequence_number": data_sequence_number if seq is None else seq,
            }
        )
    return out
