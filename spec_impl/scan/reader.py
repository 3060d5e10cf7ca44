"""The reference reader: table metadata and a snapshot (or ref) to the rows a correct reader returns.

Spec: "Scan Planning" (live entries, delete scoping), "Position / Equality Delete Files",
"Column Projection", adopted v3 digest §1.4 (row lineage) and §1.5 (deletion vectors).

    rows = read_table(LocalFiles(), "file:/warehouse/db/t/metadata/v7.metadata.json")   # a pyarrow.Table

The steps, each in its own module: read the snapshot's tree with inheritance
(`manifests.tree`), index the live delete files and scope them to each live data file
(`deletes.scoping`), read each data file by field id in its format (`data_files`: Parquet, Avro,
ORC), drop the rows its deletes remove (`deletes.apply`, with DVs from
`deletes.deletion_vectors`), project the rest onto the read schema (`metadata.projection`) and,
in v3, add `_row_id` and `_last_updated_sequence_number` (`manifests.inheritance.row_lineage`).
Clarity before speed: rows go through Python records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from spec_impl import revisions
from spec_impl.deletes import apply, scoping
from spec_impl.deletes.deletion_vectors import deleted_positions
from spec_impl.errors import InvalidInput
from spec_impl.manifests import locations
from spec_impl.manifests.avro_files import avro_map
from spec_impl.manifests.avro_schemas import without_column_metrics
from spec_impl.manifests.inheritance import DELETED, row_lineage
from spec_impl.manifests.records import RULE as AVRO_SCHEMA_RULE
from spec_impl.manifests.tree import FileSource, SnapshotTree, read_snapshot
from spec_impl.metadata.json_document import brief
from spec_impl.metadata.projection import project
from spec_impl.metadata.schema import Schema, initial_default, walk
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import Rule, register, implements
from spec_impl.scan.arrow_values import arrow_table
from spec_impl.scan.data_files import read_data_file
from spec_impl.scan.metadata_columns import MetadataColumns

register(
    Rule(
        "scan.snapshot",
        "Snapshots; Snapshot References",
        "A read names a snapshot by id or by ref (branch or tag), or reads the current snapshot; a table without "
        "snapshots reads no rows",
    ),
    Rule(
        "scan.read-schema",
        "Column Projection; Snapshots (schema-id); Branching and Tagging",
        "A read of the table or of a branch uses the table's current schema; a read that names a snapshot id or "
        "a tag uses that snapshot's schema-id when it has one (the spec is silent; this is what Iceberg Java, "
        "PyIceberg, DuckDB and Polars do)",
    ),
)

ROW_ID, LAST_UPDATED = 2147483540, 2147483539
LINEAGE_COLUMNS = ("_row_id", "_last_updated_sequence_number")


@dataclass(frozen=True, slots=True)
class LiveFile:
    """A live entry of the snapshot: its planning view and the data_file fields as read, without
    the column metrics (a plan holds every live file; the file_path bounds are in the ScanFile)."""

    scan: scoping.ScanFile
    data_file: dict[str, Any]
    partition_values: dict[int, Any]  # source field id -> value, for identity partition fields


@implements("tree.file-location")
def read_table(
    files: FileSource,
    metadata_location: str,
    snapshot_id: int | None = None,
    ref: str | None = None,
    *,
    with_lineage: bool = False,
    metadata_columns: Sequence[str] = (),
    revision: str = revisions.DEFAULT,
    allow_outside: Sequence[str] = (),
) -> pa.Table:
    """The rows of a snapshot: `snapshot_id`, the snapshot of `ref`, or the current one.
    `with_lineage` adds `_row_id` and `_last_updated_sequence_number` (v3 tables), after the
    requested `metadata_columns` (`_file`, `_pos`, ...: `spec_impl.scan.metadata_columns`). Files are read
    only under the table's location and write paths, and the `allow_outside` prefixes (rule
    tree.file-location, `spec_impl.manifests.locations`)."""
    files = locations.contain(files, metadata_location, allow_outside)
    md = read_metadata_file(files.read(metadata_location), revision)
    wanted = _snapshot_id(md, snapshot_id, ref)
    if wanted is None:
        schema = _schema(md, md.current_schema_id)
        empty = MetadataColumns(md, metadata_columns, schema, revision).append_to(arrow_table([], schema))
        return _with_lineage_columns(empty, [], with_lineage and md.format_version >= 3)
    tree = read_snapshot(files, metadata_location, wanted, revision)
    schema = read_schema(
        md, tree, by_snapshot=snapshot_id is not None or (ref is not None and md.refs[ref].type == "tag")
    )
    data, deletes = live_files(tree)
    for d in deletes:  # never read, still named by the tree
        locations.check_reference(
            files, d.scan.referenced_data_file, "referenced_data_file of delete file " + d.scan.path
        )
    index = scoping.DeleteIndex([d.scan for d in deletes], _unpartitioned(md), revision)
    by_scan = {d.scan: d for d in deletes}  # by entry, not path: one Puffin file may hold the DVs of several data files
    name_mapping = _name_mapping(md)
    defaults = _initial_defaults(md)
    meta = MetadataColumns(md, metadata_columns, schema, revision)
    rows, lineage = [], []
    for f in data:
        applied = index.for_data_file(f.scan)
        file_schema, raw = read_data_file(files.read(f.scan.path), f.scan.file_format, f.scan.path)
        gone = _deleted_positions(files, f.scan.path, applied, by_scan)
        equality = [_equality(files, by_scan[e]) for e in (*applied.equality, *applied.global_equality)]
        keep = apply.surviving_positions(raw, gone, equality, defaults.get)
        kept = [raw[p] for p in keep]
        meta.add(f.scan.path, f.scan.spec_id, f.data_file.get("partition") or {}, keep)
        rows.extend(
            project(
                kept,
                file_schema,
                schema,
                name_mapping,
                f.partition_values,
                format_version=md.format_version,
                revision=revision,
            )
        )
        if with_lineage and md.format_version >= 3:
            stored = [{"_row_id": r.get(ROW_ID), "_last_updated_sequence_number": r.get(LAST_UPDATED)} for r in raw]
            values = row_lineage(f.data_file.get("first_row_id"), f.scan.sequence_number, stored)
            lineage.extend(values[p] for p in keep)
    table = meta.append_to(arrow_table(rows, schema))
    return _with_lineage_columns(table, lineage, with_lineage and md.format_version >= 3)


@implements("scan.snapshot")
def _snapshot_id(md: TableMetadata, snapshot_id: int | None, ref: str | None) -> int | None:
    """Rule scan.snapshot."""
    if snapshot_id is not None and ref is not None:
        raise InvalidInput("scan.snapshot", "give a snapshot id or a ref, not both", (snapshot_id, ref))
    if ref is not None:
        if ref not in md.refs:
            raise InvalidInput("scan.snapshot", "the table has no such ref", ref)
        return md.refs[ref].snapshot_id
    return snapshot_id if snapshot_id is not None else md.current_snapshot_id


@implements("scan.read-schema")
def _schema(md: TableMetadata, schema_id: int) -> Schema:
    """The schema `schema_id` of the table (a snapshot's schema-id must name one: rule scan.read-schema)."""
    for s in md.schemas:
        if s.schema_id == schema_id:
            return s
    raise InvalidInput("scan.read-schema", "the snapshot's schema-id names no schema of the table", schema_id)


@implements("scan.read-schema")
def read_schema(md: TableMetadata, tree: SnapshotTree, by_snapshot: bool) -> Schema:
    """Rule scan.read-schema: `by_snapshot` when the read named a snapshot id or a tag."""
    snapshot = tree.snapshot
    if by_snapshot and snapshot.schema_id is not None:
        return _schema(md, snapshot.schema_id)
    return _schema(md, md.current_schema_id)


@implements("tree.partition-spec-id", "tree.partition-tuple")
def live_files(tree: SnapshotTree) -> tuple[list[LiveFile], list[LiveFile]]:
    """The snapshot's live data files and live delete files, in manifest and entry order; the
    manifests are read one at a time, and only the live files' planning fields are kept."""
    specs = {s.spec_id: s for s in tree.metadata.specs}
    data, deletes = [], []
    for m in tree.manifests:
        spec = specs.get(m.row.get("partition_spec_id"))
        if spec is None:
            raise InvalidInput(
                "tree.partition-spec-id",
                f"{m.path}: partition_spec_id is not in the table's partition-specs",
                m.row.get("partition_spec_id"),
            )
        for e in m.entries:
            if e["status"] == DELETED:
                continue
            f = e["data_file"]
            if not isinstance(
                f.get("file_format"), str
            ):  # required; it tells a deletion vector (Puffin) from a position delete file
                raise InvalidInput(
                    AVRO_SCHEMA_RULE,
                    f"{m.path}: data_file.file_format is required to read {f['file_path']!r}",
                    brief(f.get("file_format")),
                )
            partition = f.get("partition") or {}
            values = tuple(partition.get(pf.name) for pf in spec.fields)
            if any(isinstance(v, (list, dict)) for v in values):
                raise InvalidInput(
                    "tree.partition-tuple",
                    f"{m.path}: a partition value of {f['file_path']!r} is a single value, not a list or record",
                    brief(values),
                )
            lower, upper = avro_map(f.get("lower_bounds")) or {}, avro_map(f.get("upper_bounds")) or {}
            scan = scoping.ScanFile(
                f["file_path"],
                f.get("content", 0),
                spec.spec_id,
                values,
                e["sequence_number"],
                f["file_format"],
                f.get("referenced_data_file"),
                _text(lower.get(scoping.FILE_PATH_FIELD_ID)),
                _text(upper.get(scoping.FILE_PATH_FIELD_ID)),
            )
            identity = {pf.source_ids[0]: v for pf, v in zip(spec.fields, values) if pf.transform.name == "identity"}
            (data if scan.content == 0 else deletes).append(LiveFile(scan, without_column_metrics(f), identity))
    return data, deletes


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8", errors="replace")


def _unpartitioned(md: TableMetadata) -> set[int]:
    return {s.spec_id for s in md.specs if all(f.transform.name == "void" for f in s.fields)}


def _deleted_positions(
    files: FileSource, path: str, applied: scoping.AppliedDeletes, by_scan: dict[scoping.ScanFile, LiveFile]
) -> set[int]:
    if applied.dv is not None:
        dv = by_scan[applied.dv]
        return set(deleted_positions(files.read(dv.scan.path), dv.data_file))
    gone: set[int] = set()
    for d in applied.position:
        _, rows = read_data_file(files.read(d.path), d.file_format, d.path)
        if isinstance(files, locations.ContainedFiles):
            files.check_all(
                (r.get(apply.FILE_PATH_ID) for r in rows), "file_path of a row of position delete file " + d.path
            )
        gone |= apply.position_deletes(rows, path, d.path)
    return gone


@implements("deletes.equality-columns")
def _equality(files: FileSource, delete: LiveFile) -> apply.EqualityDelete:
    file_schema, rows = read_data_file(files.read(delete.scan.path), delete.scan.file_format, delete.scan.path)
    if file_schema is None:
        raise InvalidInput(
            "deletes.equality-columns", f"{delete.scan.path}: an equality delete file needs field ids", delete.scan.path
        )
    types = {f.id: f.type for f in file_schema.fields}
    return apply.equality_delete(delete.scan.path, delete.data_file.get("equality_ids") or (), rows, types)


def _initial_defaults(md: TableMetadata) -> dict[int, Any]:
    """What a delete column a data file lacks reads as: its initial-default in the newest schema
    that has the field (a dropped column's too); absent ids read null."""
    out: dict[int, Any] = {}
    for s in sorted(md.schemas, key=lambda s: s.schema_id):
        for info in walk(s.struct):
            out[info.id] = initial_default(info.field) if info.field is not None else None
    return out


def _name_mapping(md: TableMetadata) -> str | None:
    """The table's name mapping as its property's JSON text: parsed (Name Mapping Serialization) only
    when a data file without field ids needs it (`project`)."""
    return md.properties.get("schema.name-mapping.default") or None


def _with_lineage_columns(table: pa.Table, lineage: list[dict], wanted: bool) -> pa.Table:
    if not wanted:
        return table
    for name in LINEAGE_COLUMNS:
        table = table.append_column(pa.field(name, pa.int64()), pa.array([v[name] for v in lineage], pa.int64()))
    return table
