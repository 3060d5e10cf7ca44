"""The checks of one live file, run where the file is read (an executor). Every rule is the
reference's; this module reads the file and hands its parts to them.

- every file: `spec_impl.metrics.file_counts` (rules file.record-count, file.size-in-bytes; a
  deletion vector's record_count is its cardinality, dv.cardinality);
- every data or delete file is read in its format (`spec_impl.scan.data_files.read_arrow`: Parquet,
  ORC, Avro); a Parquet file is opened once (`spec_impl.scan.arrow_values.open_parquet`) for both
  its schema (Appendix A, below) and its rows;
- a data file: the partition tuple recomputed from the rows with the bulk transforms
  (`spec_impl.metrics.partition_values.partition_tuple_arrow`; rules data-file.partition-tuple and
  data-file.partition-tuple.single) and the column metrics recomputed from the rows (`columns`;
  metrics.*);
- a position delete file: `spec_impl.deletes.position_files.check_position_arrays` (rules
  position-deletes.sorted and position-deletes.in-range, against the targets' row counts) and,
  for its optional row column, `spec_impl.deletes.row_column.check_row_column` (rules
  position-deletes.row-required, position-deletes.row-field-ids);
- a Parquet data or delete file: its schema against Appendix A
  (`spec_impl.datafiles.table_files.parquet_file_findings`: parquet.field-ids,
  parquet.list-3-level, parquet.decimal-fixed-size, and the should parquet.type-mapping, whose
  findings the audit lists apart as recommendations);
- a deletion vector: the blob checked by `spec_impl.deletes.deletion_vectors.read_dv` (its
  cardinality against the blob property and the entry's record_count: dv.cardinality, and the blob
  rules dv.*), its positions inside the referenced data file (position-deletes.in-range).

Spec: "Manifests" (data_file fields), "Partitioning", "Position Delete Files", adopted 1.5.
"""

from __future__ import annotations


import pyarrow as pa
import pyarrow.compute as pc

from spec_impl.datafiles.table_files import parquet_file_findings
from spec_impl.deletes.deletion_vectors import read_dv
from spec_impl.deletes.position_files import check_position_arrays, check_positions_in_range
from spec_impl.deletes.puffin import read_puffin
from spec_impl.deletes.row_column import ROW_FIELD_ID, check_row_column
from spec_impl.errors import InvalidInput, SpecError
from spec_impl.expressions.projection import PartitionField as NamedField
from spec_impl.manifests import locations
from spec_impl.manifests.avro_files import physical_value
from spec_impl.manifests.tree import FileSource
from spec_impl.metadata.partitioning import Finding, partition_values_equal
from spec_impl.metrics.file_counts import check_file_size, check_record_count
from spec_impl.metrics.partition_values import partition_tuple_arrow
from spec_impl.scan.arrow_values import FIELD_ID_KEY, arrow_type, iceberg_schema, open_parquet, primitive_type
from spec_impl.scan.data_files import read_arrow, row_count

from .columns import NONE_CLAIMED, claimed_metrics_by_field, column_findings, leaf_columns
from .model import DATA, POSITION_DELETES, AuditContext, FileTask, Violation

FILE_PATH_ID, POS_ID = 2147483546, 2147483545


def check_file(ctx: AuditContext, files: FileSource, task: FileTask) -> tuple[list[Violation], int]:
    """The violations of one live file, and the number of rows read. A path outside the table's
    location (the file's own, or its referenced_data_file) raises tree.file-location unread."""
    locations.check_reference(files, task.data_file.get("referenced_data_file"), f"referenced_data_file of {task.path}")
    data = files.read(task.path)
    found = check_file_size(task.data_file.get("file_size_in_bytes"), len(data))
    schema_findings: list[Violation] = []
    if task.is_dv:
        found += _dv_findings(files, task, data)
        rows = 0
    else:
        table, schema_findings = _read_table(ctx, task, data)
        rows = table.num_rows
        found += check_record_count(task.data_file.get("record_count"), rows)
        if task.content == DATA:
            found += _partition_findings(ctx, task, table) + _metrics_findings(ctx, task, table)
        elif task.content == POSITION_DELETES:
            found += _position_findings(files, table) + _row_findings(ctx, table)
    claimed = [Violation(f.rule, task.path, f"{f.message} (claimed {f.value!r})") for f in found]
    return claimed + schema_findings, rows


def _read_table(ctx: AuditContext, task: FileTask, data: bytes) -> tuple[pa.Table, list[Violation]]:
    """The file's rows in its format and, for a Parquet file, the rules of Appendix A on its schema,
    each naming its column: the file is parsed once (`open_parquet`) for both."""
    file_format = task.data_file.get("file_format")
    if str(file_format or "").lower() != "parquet":
        return read_arrow(data, file_format, task.path), []
    opened = open_parquet(data)
    found = parquet_file_findings(data, ctx.metadata, opened=opened, types=ctx.schema_field_types)
    return read_arrow(data, file_format, task.path, opened), [Violation(f.rule, task.path, f.message) for f in found]


def _metrics_findings(ctx: AuditContext, task: FileTask, table: pa.Table) -> list[Finding]:
    found = []
    claimed = claimed_metrics_by_field(task.data_file)
    for fid, t, arr in leaf_columns(table, ctx.field_types):
        for f in column_findings(t, arr, claimed.get(fid, NONE_CLAIMED)):
            found.append(Finding(f.rule, f"column {fid}: {f.message}", f.value))
    return found


def _partition_findings(ctx: AuditContext, task: FileTask, table: pa.Table) -> list[Finding]:
    """Rules data-file.partition-tuple(.single): the claimed tuple against the rows' tuple."""
    spec, struct = ctx.partition(task.spec_id)
    if not spec.fields or table.num_rows == 0:
        return []
    by_id = {
        int(f.metadata[FIELD_ID_KEY]): i
        for i, f in enumerate(table.schema)
        if f.metadata and FIELD_ID_KEY in f.metadata
    }
    types, columns, fields = {}, {}, []
    for pf in spec.fields:
        sid = pf.source_ids[0]
        if sid in by_id:
            column = table.column(by_id[sid])
            types[str(sid)] = primitive_type(column.type)
        else:  # a column the file does not have reads as null
            types[str(sid)] = ctx.field_types[sid]
            column = pa.nulls(table.num_rows, arrow_type(types[str(sid)]))
        columns[str(sid)] = column
        fields.append(NamedField(pf.name, str(sid), pf.transform))
    partition = task.data_file.get("partition") or {}
    claimed = [physical_value(f.type, partition.get(f.name)) for f in struct.fields]
    try:
        actual = partition_tuple_arrow(fields, types, pa.table(columns))
    except InvalidInput as e:
        return [Finding(e.rule, str(e), claimed)]
    if partition_values_equal(actual, claimed, struct):
        return []
    return [Finding("data-file.partition-tuple", f"the rows' partition tuple is {actual!r}", claimed)]


def _position_findings(files: FileSource, table: pa.Table) -> list[Finding]:
    """Rules position-deletes.sorted and position-deletes.in-range, by the reference."""
    names = {int(f.metadata[FIELD_ID_KEY]): f.name for f in table.schema if f.metadata and FIELD_ID_KEY in f.metadata}
    if FILE_PATH_ID not in names or POS_ID not in names:
        return [
            Finding(
                "deletes.position-rows",
                "a position delete file has the columns file_path (2147483546) and pos (2147483545)",
                list(names),
            )
        ]
    try:
        if isinstance(files, locations.ContainedFiles):  # every target the rows name, before any is read
            files.check_all(
                pc.unique(table.column(names[FILE_PATH_ID])).to_pylist(), "file_path of a position delete row"
            )
        return check_position_arrays(
            table.column(names[FILE_PATH_ID]), table.column(names[POS_ID]), lambda path: _row_count(files, path)
        )
    except InvalidInput as e:
        return [Finding(e.rule, str(e), e.value)]


def _row_findings(ctx: AuditContext, table: pa.Table) -> list[Finding]:
    """Rules position-deletes.row-required and position-deletes.row-field-ids: the optional row column."""
    at = [i for i, f in enumerate(table.schema) if f.metadata and f.metadata.get(FIELD_ID_KEY) == b"%d" % ROW_FIELD_ID]
    if not at:
        return []
    try:
        row = iceberg_schema(pa.schema([table.schema.field(at[0])])).fields[0]  # type: ignore[union-attr]
    except InvalidInput as e:
        return [Finding(e.rule, str(e), e.value)]
    tables = [s.struct for s in ctx.metadata.schemas]
    return check_row_column(row, tables, table.column(at[0]).null_count)


def _row_count(files: FileSource, path: str) -> int | None:
    """The row count of a target data file (Parquet, ORC or Avro); None when it cannot be read. A
    target outside the table's location raises (tree.file-location): it is reported, not read."""
    try:
        return row_count(files.read(path))
    except InvalidInput as e:
        if e.rule == locations.FILE_LOCATION:
            raise
        return None
    except OSError:
        return None


def _dv_findings(files: FileSource, task: FileTask, data: bytes) -> list[Finding]:
    """Rule dv.cardinality (and the blob's rules) through read_dv; position-deletes.in-range."""
    try:
        dv = read_dv(read_puffin(data), task.data_file)
    except SpecError as e:
        return [Finding(e.rule, str(e), task.data_file.get("record_count"))]
    non_empty = [(k, b) for k, b in dv.bitmaps if len(b)]
    if not non_empty:
        return []
    low = (non_empty[0][0] << 32) | non_empty[0][1].min()
    high = (non_empty[-1][0] << 32) | non_empty[-1][1].max()
    target = task.data_file["referenced_data_file"]
    return check_positions_in_range(target, low, high, _row_count(files, target))
