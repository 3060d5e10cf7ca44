"""The files that table metadata's `statistics` and `partition-statistics` entries name, checked
against their entries: a statistics file is a Puffin file whose size, footer size and blobs are the
entry's; a partition statistics file has the schema of "Partition Statistics File", one row per
partition tuple, sorted by partition with nulls first.

Spec: "Table Statistics", "Partition Statistics", "Partition Statistics File"; the adopted v3
digest §3 (v3 makes fields 6-9 required, adds field 13 `dv_count`) and §4 (Puffin essentials).

    violations = validate_statistics(LocalFiles(), "file:/warehouse/db/t/metadata/v3.metadata.json")

Run by `iceberg-validate-table` and the audit; the op `validate-statistics` of the vectors.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spec_impl import revisions
from spec_impl.deletes.puffin import BlobMetadata, read_puffin
from spec_impl.errors import SpecError
from spec_impl.manifests.tree import FileSource
from spec_impl.manifests.validate import Violation
from spec_impl.metadata import statistics as entries
from spec_impl.metadata.partitioning import unified_partition_type
from spec_impl.metadata.sorting import sort_key
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.arrow_values import read_parquet
from spec_impl.types import IcebergType, NestedField, StructType, parse_type
from spec_impl.validate import partition_counts

_TABLE, _FILE = "Table Statistics", "Partition Statistics File"
register(
    Rule("table.statistics.puffin", _TABLE, "A table statistics file is a valid Puffin file"),
    Rule(
        "table.statistics.file-size",
        f"{_TABLE}; Partition Statistics",
        "file-size-in-bytes of a statistics or partition-statistics entry is the size of the file it names",
    ),
    Rule(
        "table.statistics.footer-size",
        f"{_TABLE}; adopted 4",
        "file-footer-size-in-bytes is the size of the Puffin file's whole footer (not the footer payload size)",
    ),
    Rule(
        "table.statistics.blobs",
        _TABLE,
        "The blob-metadata list describes the blobs of the Puffin file: each entry matches one blob's type, "
        "snapshot-id, sequence-number and fields, and its properties are a subset of the blob's",
    ),
    Rule(
        "partition-statistics.file-schema",
        _FILE,
        "A partition statistics file has the columns of the field table by field id, with their types: the "
        "required ones required, partition the unified partition type (v3 adopted: fields 6-9 required, 13 dv_count)",
    ),
    Rule(
        "partition-statistics.sorted",
        _FILE,
        "The rows are sorted by partition, ascending with nulls first",
    ),
    Rule(
        "partition-statistics.unique-partition",
        _FILE,
        "Each unique partition tuple is stored as one row: no tuple in two rows, and a row for every partition "
        "of the snapshot's live files",
    ),
    Rule(
        "partition-statistics.counts",
        _FILE,
        "A row's data and delete file counts, record counts and data size are those of the snapshot's live files "
        "in its partition (zero for a partition without any); adopted v3: position_delete_record_count includes "
        "deletion vectors, position_delete_file_count excludes them, dv_count counts them; spec_id is the spec "
        "of its live files; total_record_count, where no position delete file or equality delete file applies, is "
        "the data records less the deletion vectors' positions; last_updated_snapshot_id is the statistics' "
        "snapshot or an ancestor, no older than the last snapshot that added or deleted a file of the partition, "
        "and last_updated_at is its timestamp-ms",
    ),
)

# "Partition Statistics File": field id -> (name, type, required); the adopted revision's v3 changes below.
COLUMNS: dict[int, tuple[str, str, bool]] = {
    2: ("spec_id", "int", True),
    3: ("data_record_count", "long", True),
    4: ("data_file_count", "int", True),
    5: ("total_data_file_size_in_bytes", "long", True),
    6: ("position_delete_record_count", "long", False),
    7: ("position_delete_file_count", "int", False),
    8: ("equality_delete_record_count", "long", False),
    9: ("equality_delete_file_count", "int", False),
    10: ("total_record_count", "long", False),
    11: ("last_updated_at", "long", False),
    12: ("last_updated_snapshot_id", "long", False),
}
PARTITION_ID, DV_COUNT_ID = 1, 13


def expected_columns(md: TableMetadata, revision: str) -> list[NestedField]:
    """The partition statistics schema of this table: partition (the unified partition type) and
    the fields of the table; in the adopted revision a v3 table's fields 6-9 are required and field
    13 dv_count (int) is added (digest §3; the digest does not say it is required)."""
    v3 = md.format_version >= 3 and revisions.has(revision, revisions.V3_ADOPTED)
    out = [NestedField(PARTITION_ID, "partition", unified_partition_type(md.specs, _all_columns(md), revision), True)]
    for fid, (name, t, required) in COLUMNS.items():
        out.append(NestedField(fid, name, parse_type(t), required or (v3 and 6 <= fid <= 9)))
    if v3:
        out.append(NestedField(DV_COUNT_ID, "dv_count", parse_type("int"), False))
    return out


def _all_columns(md: TableMetadata) -> StructType:
    """Every top-level field of every schema, the newest schema's where ids repeat: a partition source
    dropped from the current schema keeps its type for the unified partition type."""
    by_id: dict[int, NestedField] = {}
    for s in sorted(md.schemas, key=lambda s: s.schema_id):
        by_id.update({f.id: f for f in s.fields})
    return StructType(tuple(by_id[i] for i in sorted(by_id)))


# --- the validator ------------------------------------------------------------------------------


def validate_statistics(
    files: FileSource, metadata_location: str, revision: str = revisions.DEFAULT
) -> list[Violation]:
    """Every violation of the statistics files the table's metadata registers. A metadata file that
    cannot be read gives none here: the tree validator reports it."""
    try:
        md = read_metadata_file(files.read(metadata_location), revision)
    except SpecError:
        return []
    found: list[Violation] = []
    for key, listed in (("statistics", md.statistics), ("partition-statistics", md.partition_statistics)):
        for entry in listed:
            path = entry["statistics-path"]
            try:
                data = files.read(path)
            except SpecError as e:  # tree.file-exists, tree.file-location
                found.append(Violation(e.rule, path, str(e)))
                continue
            if key == "statistics":
                found += [Violation(r, path, m) for r, m in check_statistics_file(entry, data, md, revision)]
            else:
                found += [Violation(r, path, m) for r, m in check_partition_statistics_file(entry, data, md, revision)]
                struct = expected_columns(md, revision)[0].type
                found += [Violation(r, path, m) for r, m in partition_counts.findings(files, md, entry, data, struct)]
    return found


@implements("table.statistics.file-size")
def _size(entry: dict, data: bytes) -> Iterator[tuple[str, str]]:
    if entry["file-size-in-bytes"] != len(data):
        yield (
            "table.statistics.file-size",
            f"file-size-in-bytes is {entry['file-size-in-bytes']}, the file has {len(data)}",
        )


@implements("table.statistics.puffin", "table.statistics.footer-size", "table.statistics.blobs")
def check_statistics_file(entry: dict, data: bytes, md: TableMetadata, revision: str) -> list[tuple[str, str]]:
    """A `statistics` entry's Puffin file: (rule id, message) for each violation."""
    found = list(_size(entry, data))
    try:
        puffin = read_puffin(data)
    except SpecError as e:
        return found + [("table.statistics.puffin", f"not a valid Puffin file ({e.rule}): {e}")]
    if entry["file-footer-size-in-bytes"] != puffin.footer_size:
        found.append(
            (
                "table.statistics.footer-size",
                f"file-footer-size-in-bytes is {entry['file-footer-size-in-bytes']}, "
                f"the footer has {puffin.footer_size}",
            )
        )
    found += _blob_findings(entry["blob-metadata"], list(puffin.blobs))
    if revisions.has(revision, revisions.V3_ADOPTED):
        for blob in puffin.blobs:
            try:
                entries.check_theta_properties(blob.type, blob.properties)
            except SpecError as e:
                found.append((e.rule, f"blob at offset {blob.offset}: {e}"))
    return found


def _blob_findings(listed: list[dict], blobs: list[BlobMetadata]) -> list[tuple[str, str]]:
    """Each blob-metadata entry matched with a blob of the file (each blob used once), and every blob listed."""
    found = []
    for entry in listed:
        match = next((b for b in blobs if _matches(entry, b)), None)
        if match is None:
            found.append(
                ("table.statistics.blobs", f"no blob of the file matches the blob metadata {_brief_blob(entry)}")
            )
        else:
            blobs.remove(match)
    for b in blobs:
        found.append(("table.statistics.blobs", f"the blob at offset {b.offset} ({b.type}) has no blob metadata"))
    return found


def _matches(entry: dict, blob: BlobMetadata) -> bool:
    properties = entry.get("properties") or {}
    return (
        entry["type"] == blob.type
        and entry["snapshot-id"] == blob.snapshot_id
        and entry["sequence-number"] == blob.sequence_number
        and tuple(entry["fields"]) == blob.fields
        and all(blob.properties.get(k) == v for k, v in properties.items())
    )


def _brief_blob(entry: dict) -> str:
    return f"{entry['type']} of fields {entry['fields']} (snapshot {entry['snapshot-id']})"


# --- partition statistics files -----------------------------------------------------------------


@implements("partition-statistics.file-schema", "partition-statistics.sorted", "partition-statistics.unique-partition")
def check_partition_statistics_file(
    entry: dict, data: bytes, md: TableMetadata, revision: str
) -> list[tuple[str, str]]:
    """A `partition-statistics` entry's file (Parquet): (rule id, message) for each violation."""
    found = list(_size(entry, data))
    try:
        schema, rows = read_parquet(data)
    except SpecError as e:
        return found + [("partition-statistics.file-schema", f"not a readable Parquet file: {e}")]
    expected = expected_columns(md, revision)
    columns = {f.id: f for f in schema.fields} if schema is not None else {}
    day_ids = frozenset(f.field_id for spec in md.specs for f in spec.fields if f.transform.name == "day")
    found += [("partition-statistics.file-schema", m) for m in _schema_findings(expected, columns, day_ids)]
    if any(m[0] == "partition-statistics.file-schema" for m in found) or PARTITION_ID not in columns:
        return found
    struct = expected[0].type
    keys = [_partition_key(row.get(PARTITION_ID), struct) for row in rows]
    if keys != sorted(keys):
        found.append(("partition-statistics.sorted", "the rows are not sorted by partition (ascending, nulls first)"))
    tuples = [repr(row.get(PARTITION_ID)) for row in rows]
    repeated = sorted({t for t in tuples if tuples.count(t) > 1})
    if repeated:
        found.append(("partition-statistics.unique-partition", f"partition tuples stored in several rows: {repeated}"))
    return found


def _schema_findings(expected: list[NestedField], columns: dict[int, NestedField], day_ids: frozenset) -> list[str]:
    found = []
    for f in expected:
        got = columns.get(f.id)
        if got is None:
            if f.required:
                found.append(f"the required column {f.id} ({f.name}) is missing")
            continue
        if not _same_type(f.type, got.type, day_ids):
            found.append(f"column {f.id} ({f.name}) is {got.type}, not {f.type}")
        elif f.required and not got.required:
            found.append(f"column {f.id} ({f.name}) is required, the file has it optional")
    return found


def _same_type(want: IcebergType, got: IcebergType, day_ids: frozenset = frozenset()) -> bool:
    """Types equal; structs by their fields' ids and types (names and nullability of the partition
    fields are not the file's to choose, the ids are). A `day` partition field (ids `day_ids`) is
    `int` in the seed and `date` in the adopted spec (the same 4-byte int), and adopted §3 says
    "`day` now produces `date`, and readers must also accept `int`": either is accepted."""
    if isinstance(want, StructType) and isinstance(got, StructType):
        return len(want.fields) == len(got.fields) and all(
            a.id == b.id and (_same_type(a.type, b.type) or (a.id in day_ids and _day_forms(a.type, b.type)))
            for a, b in zip(want.fields, got.fields)
        )
    return want == got


def _day_forms(want: IcebergType, got: IcebergType) -> bool:
    return {str(want), str(got)} <= {"int", "date"}


def _partition_key(value: Any, struct: StructType) -> tuple:
    """The sort key of a partition tuple: field by field in field-id order, nulls first."""
    value = value or {}
    return tuple(sort_key(value.get(f.id), f.type) for f in struct.fields)
