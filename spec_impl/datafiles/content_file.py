"""A data or delete file checked against the data_file fields its manifest entry claims for it:
what only reading the file can tell.

- `column_sizes` (rule content-file.column-sizes): "Map from column id to the total size on disk of
  all regions that store the column. Does not include bytes necessary to read other columns, like
  footers. Leave null for row-oriented formats (Avro)". In a Parquet file the regions of a column
  are its column chunks: each size claimed must be the sum of the column's chunk sizes (compressed,
  as stored) over all row groups; an Avro file has no column_sizes. ORC sizes are not compared, nor
  are a delete file's: the captured Spark tables' Parquet position delete files were rewritten by the
  capture's relocation (new file_path values) under their old column_sizes (`relocate` now updates
  them; the delete files can be compared once the tables are captured again).
- string values (rule content-file.utf8-strings): "Character strings must be stored as UTF-8 encoded
  byte arrays" (Primitive Types; Appendix A, Parquet: "Encoding must be UTF-8"): every string value of
  a Parquet or ORC file is valid UTF-8 (an Avro reader already fails on one that is not).
- Avro unions (rule content-file.avro-optional-union): "Optional fields, array elements, and map values
  must be wrapped in an Avro union with null" (Avro): a field of an Avro file that is optional in
  every schema of the table that has it is stored as a union with null.
- uuid columns (rule content-file.uuid-fixed, a should: "uuid ... Should use 16-byte fixed"): a field
  of type uuid in the table is stored as Appendix A's uuid form, in Avro a fixed[16] with logicalType
  uuid, in ORC a binary with iceberg.binary-type=UUID (Parquet: rule parquet.type-mapping); a
  recommendation (strength should), reported apart.
- `equality_ids` (rule delete-file.equality-columns): "Fields with ids listed in this column must be
  present in the delete file".
- a delete file's schema (rule delete-file.schema): "Row-level delete files are valid Iceberg data
  files: files must use valid Iceberg formats, schemas, and column projection". A position delete
  file has the required columns file_path (2147483546, string) and pos (2147483545, long) ("Reserved
  Field IDs"); each column of an equality delete file is a field of the table, in a type the field
  has or had in the table's schemas.
- a delete file's metrics (rule delete-file.metrics): "For delete files, the metrics must store
  bounds and counts for all deleted rows, or must be omitted": each count and bound claimed for a
  column of the file is checked against the file's rows by `check_column_metrics`, whose metric
  rules (metrics.value-count, metrics.lower-bound, ...) name the findings.

Spec: "Manifests" (data_file fields 108 column_sizes, 135 equality_ids, and the metrics of delete
files), "Equality Delete Files".
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from typing import Any

import fastavro
import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl.datafiles.parquet_schema import PRIMITIVE, Node, read_schema
from spec_impl.deletes.apply import FILE_PATH_ID, POS_ID
from spec_impl.manifests.avro_files import avro_map
from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.schema import Schema, walk
from spec_impl.metrics.column_metrics import ColumnMetrics, check_column_metrics
from spec_impl.rules import SHOULD, Rule, implements, register
from spec_impl.scan.data_files import read_arrow, read_data_file
from spec_impl.types import LONG, STRING, UUID, PrimitiveType

DATA, POSITION_DELETES, EQUALITY_DELETES = 0, 1, 2
METRIC_FIELDS = ("value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds")
register(
    Rule(
        "content-file.column-sizes",
        "Manifests (column_sizes)",
        "column_sizes of a data file: in Parquet each column's size is the total size of its column chunks over "
        "all row groups; an Avro file (row-oriented) has none (ORC files and delete files are not compared)",
    ),
    Rule(
        "content-file.utf8-strings",
        "Primitive Types",
        "Every string value of a Parquet or ORC data or delete file is valid UTF-8",
    ),
    Rule(
        "content-file.avro-optional-union",
        "Avro",
        "In an Avro data or delete file, a field, list element or map value that is optional in every table "
        "schema that has it is stored as a union with null",
    ),
    Rule(
        "content-file.uuid-fixed",
        "Primitive Types",
        "A should: a uuid field of an Avro or ORC file is stored in Appendix A's uuid form (Avro fixed[16] with "
        "logicalType uuid, ORC binary with iceberg.binary-type=UUID); a recommendation, reported apart",
        strength=SHOULD,
    ),
    Rule(
        "delete-file.equality-columns",
        "Manifests (equality_ids)",
        "Every field id of an equality delete file's equality_ids is a field of the delete file",
        (2, 3),
    ),
    Rule(
        "delete-file.schema",
        "Delete Formats",
        "A delete file's schema is valid: a position delete file has the required columns file_path (string) "
        "and pos (long) with their reserved ids; an equality delete file's columns are fields of the table, "
        "in a type the field has or had",
        (2, 3),
    ),
    Rule(
        "delete-file.metrics",
        "Manifests (delete files' metrics)",
        "A delete file's counts and bounds, where written, describe all its deleted rows (the metric rules over "
        "the delete file's rows)",
        (2, 3),
    ),
)


def check_content_file(
    data: bytes,
    df: Mapping[str, Any],
    path: str = "",
    table_types: Mapping[int, tuple] | None = None,
    optional_ids: frozenset[int] = frozenset(),
    opened: pq.ParquetFile | None = None,
) -> list[Finding]:
    """The findings of one data or delete file (not a deletion vector) against its data_file `df`
    (Avro maps as lists of key/value records, or JSON objects keyed by field id); with
    `table_types` (field id -> every type it had in the table's schemas) also a delete file's
    schema; `optional_ids` are the ids optional in every table schema that has them. `opened`: a
    Parquet file already opened from `data` (`spec_impl.scan.arrow_values.open_parquet`)."""
    file_format = str(df.get("file_format", "")).lower()
    content = df.get("content") or DATA
    encoded = utf8_findings(data, file_format, path, opened) + avro_union_findings(data, file_format, optional_ids)
    if content == DATA and file_format not in ("avro", "orc"):
        return encoded + column_size_findings(data, file_format, df, opened)
    schema, rows = read_data_file(data, file_format, path)
    if schema is not None and table_types is not None:
        encoded += uuid_findings(schema, table_types)
    if content == DATA:
        return encoded + column_size_findings(data, file_format, df)
    if schema is None:
        return encoded
    found = missing_equality_columns(schema, df.get("equality_ids")) if content == EQUALITY_DELETES else []
    found += delete_schema_findings(schema, content, table_types) + delete_metric_findings(schema, rows, df)
    return encoded + found


@implements("content-file.avro-optional-union")
def avro_union_findings(data: bytes, file_format: str, optional_ids: frozenset[int]) -> list[Finding]:
    """The optional fields, elements and values of an Avro file not stored as a union with null."""
    if file_format != "avro" or not optional_ids:
        return []
    writer_schema = fastavro.reader(io.BytesIO(data)).writer_schema
    return [
        Finding(
            "content-file.avro-optional-union", f"field {fid} is optional but stored without a union with null", fid
        )
        for fid, nullable in _avro_members(writer_schema)
        if fid in optional_ids and not nullable
    ]


def _avro_members(t: Any) -> Iterator[tuple[int, bool]]:
    """(field id, stored as a union with null) of every id-carrying member of an Avro schema."""
    t = _non_null(t)
    if not isinstance(t, dict):
        return
    members = []
    if t.get("type") == "record":
        members = [(f.get("field-id"), f["type"]) for f in t.get("fields", [])]
    elif t.get("type") == "array":
        members = [(t.get("element-id"), t.get("items"))]
    elif t.get("type") == "map":
        members = [(t.get("value-id"), t.get("values"))]
    for fid, member in members:
        if fid is not None:
            yield int(fid), isinstance(member, list) and "null" in member
        yield from _avro_members(member)


def _non_null(t: Any) -> Any:
    if isinstance(t, list):
        branches = [b for b in t if b != "null"]
        return branches[0] if len(branches) == 1 else None
    return t


@implements("content-file.uuid-fixed")
def uuid_findings(schema: Schema, table_types: Mapping[int, tuple]) -> list[Finding]:
    """The uuid fields of the table that an Avro or ORC file stores in another type (read as that
    type: fixed[16] without logicalType uuid, binary without iceberg.binary-type=UUID)."""
    return [
        Finding("content-file.uuid-fixed", f"the uuid field {info.id} is stored as {info.type}", info.id)
        for info in walk(schema.struct)
        if UUID in table_types.get(info.id, ()) and info.type != UUID
    ]


@implements("content-file.utf8-strings")
def utf8_findings(data: bytes, file_format: str, path: str = "", opened: pq.ParquetFile | None = None) -> list[Finding]:
    """The columns of a Parquet or ORC file holding a string value that is not valid UTF-8."""
    if file_format not in ("parquet", "orc"):
        return []
    table = read_arrow(data, file_format, path, opened=opened)
    found = []
    for name, column in zip(table.column_names, table.columns):
        try:
            column.validate(full=True)
        except pa.ArrowInvalid as e:
            if "UTF8" in str(e) or "UTF-8" in str(e):
                found.append(Finding("content-file.utf8-strings", f"column {name!r}: {e}", name))
    return found


@implements("delete-file.schema")
def delete_schema_findings(schema: Schema, content: int, table_types: Mapping[int, tuple] | None) -> list[Finding]:
    fields = {f.id: f for f in schema.struct.fields}
    found = []
    if content == POSITION_DELETES:
        for fid, name, t in ((FILE_PATH_ID, "file_path", STRING), (POS_ID, "pos", LONG)):
            f = fields.get(fid)
            if f is None or f.type != t or not f.required:
                what = "lacks it" if f is None else f"has it as {'required' if f.required else 'optional'} {f.type}"
                found.append(Finding("delete-file.schema", f"{name} ({fid}) is a required {t}; the file {what}", fid))
    elif content == EQUALITY_DELETES and table_types is not None:
        for f in schema.struct.fields:
            if f.type not in table_types.get(f.id, ()):
                had = [str(t) for t in table_types.get(f.id, ())] or "no field of the table"
                found.append(Finding("delete-file.schema", f"column {f.id} ({f.type}) is {had}", f.id))
    return found


@implements("content-file.column-sizes")
def column_size_findings(
    data: bytes, file_format: str, df: Mapping[str, Any], opened: pq.ParquetFile | None = None
) -> list[Finding]:
    claimed = _id_map(df.get("column_sizes"))
    if file_format == "avro":
        return [Finding("content-file.column-sizes", "an Avro file has no column_sizes", claimed)] if claimed else []
    if file_format != "parquet" or not claimed:
        return []
    actual = parquet_column_sizes(data if opened is None else opened)
    return [
        Finding("content-file.column-sizes", f"column {fid} is stored in {actual.get(fid, 0)} bytes", size)
        for fid, size in sorted(claimed.items())
        if actual.get(fid, 0) != size
    ]


def parquet_column_sizes(data: bytes | pq.ParquetFile) -> dict[int, int]:
    """Field id -> the stored (compressed) size of the field's column chunks over all row groups,
    from the file's bytes or the file already opened."""
    opened = data if isinstance(data, pq.ParquetFile) else pq.ParquetFile(pa.BufferReader(data))
    ids = list(_leaf_ids(read_schema(opened)))
    meta = opened.metadata
    sizes: dict[int, int] = {}
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for i, fid in enumerate(ids):
            if fid is not None:
                sizes[fid] = sizes.get(fid, 0) + group.column(i).total_compressed_size
    return sizes


def _leaf_ids(nodes: list[Node] | tuple[Node, ...]) -> Iterator[int | None]:
    """The field ids of the primitive leaves, in the order of the file's leaf columns."""
    for n in nodes:
        if n.kind == PRIMITIVE:
            yield n.field_id
        else:
            yield from _leaf_ids(n.children)


@implements("delete-file.equality-columns")
def missing_equality_columns(schema: Schema, equality_ids: Any) -> list[Finding]:
    present = {info.id for info in walk(schema.struct)}
    return [
        Finding("delete-file.equality-columns", f"equality_ids names field {fid}, which the delete file lacks", fid)
        for fid in equality_ids or ()
        if fid not in present
    ]


@implements("delete-file.metrics")
def delete_metric_findings(schema: Schema, rows: list[dict], df: Mapping[str, Any]) -> list[Finding]:
    """The metrics claimed for each top-level primitive column of a delete file, against its rows."""
    maps = {key: _id_map(df.get(key)) for key in METRIC_FIELDS}
    found = []
    for f in schema.struct.fields:
        claimed = ColumnMetrics(*(maps[key].get(f.id) for key in METRIC_FIELDS))
        if not isinstance(f.type, PrimitiveType) or claimed == ColumnMetrics():
            continue
        for finding in check_column_metrics(f.type, [r.get(f.id) for r in rows], claimed):
            found.append(Finding(finding.rule, f"column {f.id}: {finding.message}", finding.value))
    return found


def _id_map(value: Any) -> dict[int, Any]:
    """A data_file map as {field id: value}: Avro's key/value records, or JSON with string keys
    (bound bytes as hex)."""
    if isinstance(value, dict):
        return {int(k): bytes.fromhex(v) if isinstance(v, str) else v for k, v in value.items()}
    return avro_map(value) or {}
