"""Reading one data or delete file in the format its manifest entry names (Appendix A).

Spec, "Manifests": `file_format` is the "String file format name, avro, orc or parquet". Iceberg
Java writes the names in upper case (AVRO, ORC, PARQUET); the reference accepts any case, as it
does for `puffin` (`deletes.deletion_vectors`). Each format has its module: `arrow_values`
(Parquet), `avro_data` (Avro), `orc_data` (ORC); each returns the file's Iceberg schema (None
without field ids) and its records by field id (by name without ids).
"""

from __future__ import annotations

import io
from collections.abc import Callable

from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.metadata.schema import Schema
from spec_impl.rules import Rule, implements, register
import fastavro
import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

from spec_impl.scan.arrow_values import arrow_table, read_parquet, read_parquet_table
from spec_impl.scan.avro_data import read_avro_data
from spec_impl.scan.orc_data import read_orc_arrow, read_orc_data

RULE = "scan.file-format"

register(
    Rule(
        RULE,
        "Manifests (file_format); Delete Formats",
        "A data or delete file is read in the format its file_format names, avro, orc or parquet (in any case: "
        "Iceberg Java writes them in upper case); another name, or bytes that are no file of that format, is an "
        "error",
    ),
)

READERS: dict[str, Callable[[bytes, str], tuple[Schema | None, list[dict]]]] = {
    "avro": read_avro_data,
    "orc": read_orc_data,
    "parquet": lambda data, path: read_parquet(data),
}


@implements(RULE)
def read_data_file(data: bytes, file_format: object, path: str = "") -> tuple[Schema | None, list[dict]]:
    """The Iceberg schema (None without field ids) and the records of a data or delete file in
    `file_format` (rule scan.file-format)."""
    return READERS[_format(file_format, path)](data, path)


def _format(file_format: object, path: str) -> str:
    if isinstance(file_format, str) and file_format.lower() in READERS:
        return file_format.lower()
    raise InvalidInput(
        RULE, f"{path or 'a data file'}: file_format is avro, orc or parquet, not {brief(file_format)}", file_format
    )


@implements(RULE)
def read_arrow(data: bytes, file_format: object, path: str = "", opened: pq.ParquetFile | None = None) -> pa.Table:
    """The file as an Arrow table whose fields carry their ids as b"PARQUET:field_id" (for column-wise
    checks such as the audit's): Parquet as written, ORC cast to Appendix A's Arrow types, Avro built
    from its records (by column name when the file has no field ids). `opened`: the Parquet file
    already opened from `data` (`arrow_values.open_parquet`), so that it is parsed once."""
    kind = _format(file_format, path)
    if kind == "orc":
        return read_orc_arrow(data, path)
    if kind == "avro":
        schema, rows = read_avro_data(data, path)
        return pa.Table.from_pylist(rows) if schema is None else arrow_table(rows, schema)
    return read_parquet_table(data, opened)


MAGIC = {b"PAR1": "parquet", b"ORC": "orc", b"Obj\x01": "avro"}


def row_count(data: bytes) -> int | None:
    """The number of rows of a data file in the format its leading magic bytes name (Parquet PAR1,
    ORC, Avro Obj 1), None when it cannot be read: for tooling that finds a file by path only (the
    target of a position delete)."""
    kind = next((name for magic, name in MAGIC.items() if data.startswith(magic)), None)
    try:
        if kind == "parquet":
            return pq.ParquetFile(io.BytesIO(data)).metadata.num_rows
        if kind == "orc":
            return orc.ORCFile(io.BytesIO(data)).nrows
        if kind == "avro":
            return sum(block.num_records for block in fastavro.block_reader(io.BytesIO(data)))
    except Exception:  # noqa: BLE001  (a damaged file of any of three libraries: no row count)
        return None
    return None
