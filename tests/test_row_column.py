"""The optional row column of a position delete file (spec_impl/deletes/row_column.py), and the
table audit reading it from a Parquet file through the same check.

Spec ("Position Delete Files"): "When present in the delete file, row is required because all delete
entries must include the row values." and "When the deleted row column is present, its schema may be
any subset of the table schema and must use field ids matching the table."
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pyarrow as pa

from conformance.audit.file_checks import _row_findings
from spec_impl.deletes.row_column import ROW_FIELD_ID, check_row_column
from spec_impl.metadata.schema import Schema
from spec_impl.types import NestedField, StructType, parse_type

TABLE = parse_type(
    {
        "type": "struct",
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 2, "name": "data", "required": False, "type": "string"},
        ],
    }
)


def _row(*fields: NestedField, required: bool = True) -> NestedField:
    return NestedField(ROW_FIELD_ID, "row", StructType(fields), required)


def rules(found):
    return sorted({f.rule for f in found})


def test_absent_and_valid_row_columns_pass():
    assert check_row_column(None, [TABLE], 0) == []
    assert check_row_column(_row(TABLE.fields[1]), [TABLE], 0) == []


def test_null_rows_optional_column_and_foreign_ids_are_reported():
    assert rules(check_row_column(_row(TABLE.fields[0]), [TABLE], 1)) == ["position-deletes.row-required"]
    assert rules(check_row_column(_row(TABLE.fields[0], required=False), [TABLE], 0)) == [
        "position-deletes.row-required"
    ]
    foreign = NestedField(7, "z", parse_type("long"), True)
    assert rules(check_row_column(_row(foreign), [TABLE], 0)) == ["position-deletes.row-field-ids"]


def _meta(fid: int) -> dict:
    return {b"PARQUET:field_id": str(fid).encode()}


def test_the_audit_reads_the_row_column_of_a_parquet_file():
    ctx = SimpleNamespace(metadata=SimpleNamespace(schemas=(Schema(TABLE),)))
    struct = pa.struct([pa.field("id", pa.int64(), nullable=False, metadata=_meta(1))])
    fields = [
        pa.field("file_path", pa.string(), nullable=False, metadata=_meta(2147483546)),
        pa.field("pos", pa.int64(), nullable=False, metadata=_meta(2147483545)),
        pa.field("row", struct, nullable=False, metadata=_meta(ROW_FIELD_ID)),
    ]
    rows = {"file_path": ["a", "a"], "pos": [0, 1], "row": [{"id": 1}, {"id": 2}]}
    assert _row_findings(ctx, pa.table(rows, schema=pa.schema(fields))) == []
    fields[2] = fields[2].with_nullable(True)
    rows["row"][1] = None
    found = _row_findings(ctx, pa.table(rows, schema=pa.schema(fields)))
    assert rules(found) == ["position-deletes.row-required"] and len(found) == 2
    assert _row_findings(ctx, pa.table({"file_path": ["a"], "pos": [0]})) == []
    json.dumps([f.message for f in found])
