"""The Parquet rules (`spec_impl.datafiles.parquet_rules`) and the checks of a file against its
data_file fields (`spec_impl.datafiles.content_file`) over every live data and delete file of every
snapshot of a table, each file read once: what `iceberg-validate-table` and the table audit report
per file.

Spec: Appendix A (Parquet); "Reserved Field IDs" (the columns of position delete files and, in v3,
the row lineage columns); "Column Projection" (name mapping); "Schema Evolution" (a file keeps
the types it was written with).
"""

from __future__ import annotations


from collections.abc import Iterable, Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl import revisions
from spec_impl.datafiles.content_file import check_content_file
from spec_impl.datafiles.parquet_rules import check_parquet_schema
from spec_impl.datafiles.parquet_schema import read_schema
from spec_impl.errors import SpecError
from spec_impl.manifests.inheritance import DELETED
from spec_impl.manifests.tree import FileSource, manifest_rows, read_manifest
from spec_impl.manifests.validate import Violation
from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.schema import Schema, walk
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import implements, split_recommendations
from spec_impl.scan.arrow_values import open_parquet
from spec_impl.types import LONG, STRING, IcebergType

# Reserved columns a data or delete file may hold, with their types ("Reserved Field IDs"): the
# position delete columns file_path and pos, and the v3 row lineage columns.
RESERVED_TYPES: dict[int, IcebergType] = {2147483546: STRING, 2147483545: LONG, 2147483540: LONG, 2147483539: LONG}
NAME_MAPPING = "schema.name-mapping.default"


def field_types(md: TableMetadata) -> dict[int, tuple[IcebergType, ...]]:
    """Every type each field id had in the table's schemas, and the reserved columns' types."""
    return schemas_field_types(md.schemas)


def optional_field_ids(schemas: Iterable[Schema]) -> frozenset[int]:
    """The field ids (fields, list elements, map values) optional in every schema that has them."""
    optional: set[int] = set()
    required: set[int] = set()
    for schema in schemas:
        for info in walk(schema.struct):
            (required if info.required else optional).add(info.id)
    return frozenset(optional - required)


def schemas_field_types(schemas: Iterable[Schema]) -> dict[int, tuple[IcebergType, ...]]:
    """Every type each field id has in `schemas`, and the reserved columns' types."""
    types: dict[int, tuple[IcebergType, ...]] = {fid: (t,) for fid, t in RESERVED_TYPES.items()}
    for schema in schemas:
        for info in walk(schema.struct):
            if info.type not in types.get(info.id, ()):
                types[info.id] = types.get(info.id, ()) + (info.type,)
    return types


@implements("parquet.field-ids", "parquet.list-3-level", "parquet.decimal-fixed-size", "parquet.type-mapping")
def parquet_file_findings(
    data: bytes,
    md: TableMetadata,
    opened: pq.ParquetFile | None = None,
    types: dict[int, tuple[IcebergType, ...]] | None = None,
) -> list[Finding]:
    """The findings of one Parquet file of the table `md` (a file pyarrow cannot read: scan.data-file).
    A caller checking many files may pass what it has already: `opened`, the file opened from
    `data` (`spec_impl.scan.arrow_values.open_parquet`), and `types`, `field_types(md)`."""
    try:
        nodes = read_schema(data if opened is None else opened)
    except (pa.ArrowException, OSError, ValueError) as e:
        return [Finding("scan.data-file", f"not a readable Parquet file: {str(e)[:200]}", len(data))]
    mapped = bool(md.properties.get(NAME_MAPPING))
    return check_parquet_schema(
        nodes, field_types(md) if types is None else types, md.format_version, name_mapped=mapped
    )


def live_parquet_files(files: FileSource, md: TableMetadata) -> list[str]:
    """The paths of the Parquet files live in any snapshot, each once, in the order first met."""
    return [p for p, df in live_files(files, md) if _format(df) == "parquet"]


def live_files(files: FileSource, md: TableMetadata) -> Iterator[tuple[str, dict]]:
    """(path, data_file) of the data and delete files live in any snapshot (deletion vectors
    aside), each once, in the order first met; manifests are read one at a time and only the paths
    met are kept. A manifest list or manifest that cannot be read is skipped: the tree validator
    reports it."""
    seen: set[str] = set()
    for snapshot in md.snapshots:
        try:
            rows = manifest_rows(files, md, snapshot)[1]
        except SpecError:
            continue
        for row in rows:
            try:
                entries = read_manifest(files, row, md.format_version).entries
            except SpecError:
                continue
            for e in entries:
                df = e["data_file"]
                if e["status"] != DELETED and _format(df) != "puffin" and df["file_path"] not in seen:
                    seen.add(df["file_path"])
                    yield df["file_path"], df


def _opened_parquet(data: bytes) -> pq.ParquetFile | None:
    """The Parquet file opened once for every check of it; None when it cannot be opened (each
    check then reports it as it does for a file read from bytes: rule scan.data-file)."""
    try:
        return open_parquet(data)
    except SpecError:
        return None


def _format(df: dict) -> str:
    return str(df.get("file_format", "")).lower()


def validate_data_files(
    files: FileSource, metadata_location: str, revision: str = revisions.DEFAULT
) -> tuple[list[Violation], list[Violation]]:
    """(violations, recommendations not followed) of the table's live data and delete files: the
    Parquet files' schemas against Appendix A, and every file against its data_file fields
    (`spec_impl.datafiles.content_file`), each with the file's path and the column in its message.
    A file that is not there or lies outside the table's location is not read (the tree validator
    never read data files; the audit reports them). Manifests are read one at a time, and each file
    is read, checked and let go."""
    try:
        md = read_metadata_file(files.read(metadata_location), revision)
    except SpecError:
        return [], []  # the tree validator reports it
    violations: list[Violation] = []
    types, optional = field_types(md), optional_field_ids(md.schemas)
    for path, df in live_files(files, md):
        try:
            data = files.read(path)
        except SpecError:  # not there, or outside the table: the audit reports it (tree.file-exists, ...)
            continue
        opened = _opened_parquet(data) if _format(df) == "parquet" else None
        found = parquet_file_findings(data, md, opened, types) if _format(df) == "parquet" else []
        try:
            found += check_content_file(data, df, path, types, optional, opened)
        except SpecError as e:  # a file that cannot be read in its format
            found.append(Finding(e.rule, str(e)))
        violations += [Violation(f.rule, path, f.message) for f in found]
    return split_recommendations(violations)
