"""The counts of a partition statistics file against the snapshot's live files.

Spec: "Partition Statistics File" (fields 3-9: "Count of records in data files", "Count of data
files", "Total size of data files in bytes", the position and equality delete counts; "Statistics
information for each unique partition tuple is stored as a row"); adopted v3 digest §3 ("6
includes DVs; 7 excludes them. New field **13 `dv_count` (int)**"). Field 2 spec_id ("Partition spec
id") is the spec of the partition's live files (any spec of the table for a row without live files).
Fields 11 and 12 ("Timestamp in milliseconds from the unix epoch when the partition was last updated",
"ID of snapshot that last updated this partition"): the snapshot is the statistics' snapshot or one
of its ancestors, no older than the newest snapshot that added or deleted a file of the partition
among the entries of the snapshot's manifests, and last_updated_at is its timestamp-ms (checked
where the snapshots are still in the metadata: expiry may remove them). Field 10
total_record_count ("Accurate count of records in a partition after applying the delete files if
any") is compared where no position delete file or equality delete file applies: the data records
less the deletion vectors' cardinalities; otherwise it needs the rows.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.manifests.avro_files import physical_value
from spec_impl.manifests.inheritance import DELETED
from spec_impl.manifests.tree import FileSource, find_snapshot, manifest_rows, read_manifest
from spec_impl.metadata.snapshots import ancestors
from spec_impl.metadata.table_metadata import TableMetadata
from spec_impl.rules import implements
from spec_impl.scan.arrow_values import read_parquet
from spec_impl.types import StructType

DATA, POSITION_DELETES, EQUALITY_DELETES = 0, 1, 2
COUNTED = {3: "data_record_count", 4: "data_file_count", 5: "total_data_file_size_in_bytes"}
COUNTED.update({6: "position_delete_record_count", 7: "position_delete_file_count"})
COUNTED.update({8: "equality_delete_record_count", 9: "equality_delete_file_count", 13: "dv_count"})


@dataclass
class _Partition:
    """What the snapshot's manifests say of one partition: counts and spec ids of its live files, and
    the snapshot ids of all its entries (ADDED, EXISTING and DELETED)."""

    counts: Counter = field(default_factory=Counter)
    spec_ids: set[int] = field(default_factory=set)
    entry_snapshots: set[int] = field(default_factory=set)


def partitions(files: FileSource, md: TableMetadata, snapshot_id: int, struct: StructType) -> dict[tuple, _Partition]:
    """Per partition tuple of the unified type (values in field-id order): what its entries say."""
    specs = {s.spec_id: s for s in md.specs}
    found: dict[tuple, _Partition] = defaultdict(_Partition)
    snapshot = find_snapshot(md, snapshot_id)
    for row in manifest_rows(files, md, snapshot)[1]:
        manifest = read_manifest(files, row, md.format_version)
        spec = specs[manifest.row["partition_spec_id"]]
        for entry in manifest.entries:
            df = entry["data_file"]
            part = found[_manifest_key(df.get("partition") or {}, spec, struct)]
            if entry.get("snapshot_id") is not None:
                part.entry_snapshots.add(entry["snapshot_id"])
            if entry["status"] != DELETED:
                _count(part.counts, df)
                part.spec_ids.add(spec.spec_id)
    return found


def live_counts(files: FileSource, md: TableMetadata, snapshot_id: int, struct: StructType) -> dict[tuple, Counter]:
    """Per partition tuple of the unified type with live files: the counts of those files."""
    return {k: p.counts for k, p in partitions(files, md, snapshot_id, struct).items() if p.spec_ids}


def _count(c: Counter, df: dict[str, Any]) -> None:
    records, content = df.get("record_count") or 0, df.get("content") or DATA
    if content == DATA:
        c[3], c[4], c[5] = c[3] + records, c[4] + 1, c[5] + (df.get("file_size_in_bytes") or 0)
    elif content == POSITION_DELETES:
        c[6] += records
        if str(df.get("file_format", "")).lower() == "puffin":  # a deletion vector
            c[13] += 1
        else:
            c[7] += 1
    elif content == EQUALITY_DELETES:
        c[8], c[9] = c[8] + records, c[9] + 1


def _manifest_key(partition: dict[str, Any], spec: Any, struct: StructType) -> tuple:
    by_id = {}
    for f in spec.fields:
        if f.field_id in {u.id for u in struct.fields}:
            by_id[f.field_id] = physical_value(struct.field(f.field_id).type, partition.get(f.name))
    return tuple(by_id.get(u.id) for u in struct.fields)


def row_key(value: dict | None, struct: StructType) -> tuple:
    value = value or {}
    return tuple(value.get(u.id) for u in struct.fields)


@implements("partition-statistics.counts", "partition-statistics.unique-partition")
def findings(
    files: FileSource, md: TableMetadata, entry: dict, data: bytes, struct: StructType
) -> list[tuple[str, str]]:
    """(rule id, message) for each count of the file that differs from the snapshot's live files, and
    each partition of those files without a row (`struct`: the unified partition type). Nothing when
    the file or the snapshot's tree cannot be read (the schema check and the tree validator report that)."""
    try:
        _, rows = read_parquet(data)
        known = partitions(files, md, entry["snapshot-id"], struct)
    except SpecError:
        return []
    found = []
    keys = {row_key(row.get(1), struct) for row in rows}
    for key in sorted({k for k, p in known.items() if p.spec_ids} - keys, key=repr):
        found.append(("partition-statistics.unique-partition", f"partition {key} of the snapshot's files has no row"))
    for row in rows:
        key = row_key(row.get(1), struct)
        part = known.get(key, _Partition())
        for fid, name in COUNTED.items():
            if row.get(fid) is not None and row[fid] != part.counts[fid]:
                found.append(
                    (
                        "partition-statistics.counts",
                        f"partition {key}: {name} is {row[fid]}, the snapshot's live files give {part.counts[fid]}",
                    )
                )
        changed = _changed_by(files, md, struct, key)
        found += [
            ("partition-statistics.counts", f"partition {key}: {m}")
            for m in _row_findings(row, part, md, entry, changed)
        ]
    return found


def _changed_by(files: FileSource, md: TableMetadata, struct: StructType, key: tuple):
    """A function: whether snapshot `snapshot_id`'s manifests hold an entry of partition `key` that it
    added or deleted (None when its tree cannot be read)."""

    def changed(snapshot_id: int) -> bool | None:
        try:
            part = partitions(files, md, snapshot_id, struct).get(key)
        except SpecError:
            return None
        return part is not None and snapshot_id in part.entry_snapshots

    return changed


@implements("partition-statistics.counts")
def _row_findings(row: dict, part: _Partition, md: TableMetadata, entry: dict, changed_by) -> list[str]:
    """spec_id against the partition's live files; last_updated_snapshot_id and last_updated_at
    against the statistics snapshot's history (see the module docstring)."""
    out = []
    spec_ids = part.spec_ids or {s.spec_id for s in md.specs}
    if row.get(2) is not None and row[2] not in spec_ids:
        out.append(f"spec_id is {row[2]}; the partition's live files have spec {sorted(spec_ids)}")
    total = part.counts[3] - part.counts[6]  # exact without position delete files or equality deletes
    if row.get(10) is not None and part.counts[7] == part.counts[9] == 0 and row[10] != total:
        out.append(f"total_record_count is {row[10]}; its live data files less their deletion vectors hold {total}")
    by_id = {s.snapshot_id: s for s in md.snapshots}
    lineage = [s.snapshot_id for s in ancestors(entry["snapshot-id"], by_id)]  # newest first
    updated = row.get(12)
    if updated is None or updated not in by_id:
        return out  # absent, or expired: nothing to compare
    if updated not in lineage:
        return out + [f"last_updated_snapshot_id {updated} is not the statistics' snapshot nor one of its ancestors"]
    newest = min((lineage.index(i) for i in part.entry_snapshots if i in lineage), default=None)
    if newest is not None and lineage.index(updated) > newest:
        out.append(
            f"last_updated_snapshot_id is {updated}, older than snapshot {lineage[newest]}, which changed the partition"
        )
    elif (newest is None or lineage.index(updated) < newest) and changed_by(updated) is False:
        out.append(f"last_updated_snapshot_id is {updated}, whose own manifests add or delete no file of the partition")
    if row.get(11) is not None and row[11] != by_id[updated].timestamp_ms:
        out.append(f"last_updated_at is {row[11]}; snapshot {updated} has timestamp-ms {by_id[updated].timestamp_ms}")
    return out
