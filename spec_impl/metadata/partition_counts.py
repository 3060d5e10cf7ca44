"""The counts of a partition statistics file against the snapshot's live files.

Spec: "Partition Statistics File" (fields 3-9: "Count of records in data files", "Count of data
files", "Total size of data files in bytes", the position and equality delete counts; "Statistics
information for each unique partition tuple is stored as a row"); adopted v3 digest §3 ("6
includes DVs; 7 excludes them. New field **13 `dv_count` (int)**"). Columns 10-12 are not compared:
total_record_count needs the rows, and last_updated_* depend on history that expiry may remove.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.manifests.avro_files import physical_value
from spec_impl.manifests.inheritance import DELETED
from spec_impl.manifests.tree import FileSource, find_snapshot, manifest_rows, read_manifest
from spec_impl.metadata.table_metadata import TableMetadata
from spec_impl.rules import implements
from spec_impl.scan.arrow_values import read_parquet
from spec_impl.types import StructType

DATA, POSITION_DELETES, EQUALITY_DELETES = 0, 1, 2
COUNTED = {3: "data_record_count", 4: "data_file_count", 5: "total_data_file_size_in_bytes"}
COUNTED.update({6: "position_delete_record_count", 7: "position_delete_file_count"})
COUNTED.update({8: "equality_delete_record_count", 9: "equality_delete_file_count", 13: "dv_count"})


def live_counts(files: FileSource, md: TableMetadata, snapshot_id: int, struct: StructType) -> dict[tuple, Counter]:
    """Per partition tuple of the unified type (values in field-id order): the counts of the live files."""
    specs = {s.spec_id: s for s in md.specs}
    counts: dict[tuple, Counter] = defaultdict(Counter)
    snapshot = find_snapshot(md, snapshot_id)
    for row in manifest_rows(files, md, snapshot)[1]:
        manifest = read_manifest(files, row, md.format_version)
        spec = specs[manifest.row["partition_spec_id"]]
        for entry in manifest.entries:
            if entry["status"] == DELETED:
                continue
            df = entry["data_file"]
            key = _manifest_key(df.get("partition") or {}, spec, struct)
            _count(counts[key], df)
    return counts


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
        expected = live_counts(files, md, entry["snapshot-id"], struct)
    except SpecError:
        return []
    found = []
    keys = {row_key(row.get(1), struct) for row in rows}
    for key in sorted(set(expected) - keys, key=repr):
        found.append(("partition-statistics.unique-partition", f"partition {key} of the snapshot's files has no row"))
    for row in rows:
        key, counts = row_key(row.get(1), struct), expected.get(row_key(row.get(1), struct), Counter())
        for fid, name in COUNTED.items():
            if row.get(fid) is not None and row[fid] != counts[fid]:
                found.append(
                    (
                        "partition-statistics.counts",
                        f"partition {key}: {name} is {row[fid]}, the snapshot's live files give {counts[fid]}",
                    )
                )
    return found
