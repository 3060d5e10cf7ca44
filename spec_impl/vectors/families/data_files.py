"""Parquet data files as the reference reads and writes them (Appendix A): field ids, the type
mapping, and the values a file may not hold."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl.vectors.cases import CaseSpec, case

NAME = "parquet-files"
DESCRIPTION = (
    "Appendix A (Parquet), Nested Types, Column Projection: reading and writing Parquet data files by field id"
)

SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "name", "required": False, "type": "string"},
        {
            "id": 3,
            "name": "tags",
            "required": False,
            "type": {"type": "list", "element-id": 4, "element": "string", "element-required": True},
        },
        {
            "id": 5,
            "name": "props",
            "required": False,
            "type": {
                "type": "map",
                "key-id": 6,
                "key": "string",
                "value-id": 7,
                "value": "int",
                "value-required": False,
            },
        },
    ],
}


def _ids(field_id: int) -> dict:
    return {b"PARQUET:field_id": str(field_id).encode()}


def _file(table: pa.Table) -> str:
    buf = io.BytesIO()
    pq.write_table(table, buf, store_schema=False)
    return base64.b64encode(buf.getvalue()).decode()


def specs() -> Iterator[CaseSpec]:
    with_ids = pa.schema(
        [
            pa.field("id", pa.int64(), False, metadata=_ids(1)),
            pa.field("ts", pa.timestamp("us", tz="UTC"), metadata=_ids(2)),
        ]
    )
    rows = pa.table({"id": [1, 2], "ts": pa.array([0, None], pa.timestamp("us", tz="UTC"))}, schema=with_ids)
    yield case(
        "scan.field-ids",
        "with-ids",
        "a file with field ids: records by id, timestamptz as UTC microseconds",
        "read-parquet",
        file_base64=_file(rows),
    )
    plain = pa.table({"id": [1], "name": ["a"]})
    yield case(
        "scan.field-ids",
        "without-ids",
        "a file without field ids: no schema, records by column name (read through a name mapping)",
        "read-parquet",
        file_base64=_file(plain),
    )
    partial = pa.schema([pa.field("id", pa.int64(), metadata=_ids(1)), pa.field("name", pa.string())])
    yield case(
        "scan.field-ids",
        "some-ids",
        "field ids on some columns only",
        "read-parquet",
        file_base64=_file(pa.table({"id": [1], "name": ["a"]}, schema=partial)),
    )
    millis = pa.schema([pa.field("ts", pa.timestamp("ms"), metadata=_ids(1))])
    yield case(
        "scan.arrow-type",
        "millisecond-timestamp",
        "a millisecond timestamp column is no Iceberg type",
        "read-parquet",
        file_base64=_file(pa.table({"ts": pa.array([1], pa.timestamp("ms"))}, schema=millis)),
    )
    map_type = pa.map_(
        pa.field("key", pa.string(), False, metadata=_ids(2)), pa.field("value", pa.int32(), metadata=_ids(3))
    )
    dup = pa.table(
        {"m": pa.array([[("a", 1), ("a", 2)]], map_type)}, schema=pa.schema([pa.field("m", map_type, metadata=_ids(1))])
    )
    yield case(
        "scan.map-keys", "duplicate-keys", "a map value with the key 'a' twice", "read-parquet", file_base64=_file(dup)
    )
    yield case(
        "scan.data-file",
        "not-parquet",
        "bytes that are not a Parquet file (no PAR1 footer)",
        "read-parquet",
        file_base64=base64.b64encode(b"PAR1 truncated").decode(),
    )
    good = [{"1": 1, "2": "a", "3": ["x", "y"], "5": {"keys": ["k"], "values": [None]}}, {"1": 2}]
    yield case(
        "scan.required",
        "round-trip",
        "records with nested values and nulls where allowed survive a write and a read",
        "parquet-round-trip",
        schema=SCHEMA,
        rows=good,
    )
    yield case(
        "scan.required",
        "null-required-element",
        "a null element in a list whose elements are required cannot be written",
        "parquet-round-trip",
        schema=SCHEMA,
        rows=[{"1": 1, "3": ["x", None]}],
    )
    yield case(
        "scan.required",
        "null-required-field",
        "a null in the required column id cannot be written",
        "parquet-round-trip",
        schema=SCHEMA,
        rows=[{"1": None}],
    )
    yield from _write_default_cases()


DEFAULTS_SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {
            "id": 2,
            "name": "status",
            "required": True,
            "type": "string",
            "initial-default": "new",
            "write-default": "new",
        },
        {"id": 3, "name": "score", "required": False, "type": "int", "initial-default": 7, "write-default": 7},
        {"id": 4, "name": "note", "required": False, "type": "string"},
    ],
}


def _write_default_cases() -> Iterator[CaseSpec]:
    """Default values: a field a write does not supply takes its write-default; a required one without
    a write-default fails the write."""
    yield case(
        "write.default",
        "fields-not-supplied",
        "records that do not supply status (required, write-default 'new'), score (write-default 7) or note "
        "(no default): written as 'new', 7 and null; supplied values, a supplied null too, are kept",
        "parquet-round-trip",
        schema=DEFAULTS_SCHEMA,
        rows=[{"1": 1}, {"1": 2, "2": "done", "3": None, "4": "n"}],
    )
    changed = {
        "type": "struct",
        "schema-id": 1,
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 3, "name": "score", "required": False, "type": "int", "initial-default": 7, "write-default": 9},
        ],
    }
    yield case(
        "write.default",
        "after-write-default-change",
        "score's write-default changed from 7 (its initial-default) to 9: a record written after the change that "
        "does not supply score is written with 9, not 7",
        "parquet-round-trip",
        schema=changed,
        rows=[{"1": 1}, {"1": 2, "3": 7}],
    )
    sub = [
        {"id": 6, "name": "x", "required": True, "type": "int", "initial-default": 5, "write-default": 5},
        {"id": 7, "name": "y", "required": False, "type": "string"},
    ]
    nested = {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {
                "id": 5,
                "name": "s",
                "required": False,
                "type": {"type": "struct", "fields": sub},
                "initial-default": {},
                "write-default": {},
            },
        ],
    }
    yield case(
        "write.default",
        "struct-write-default-sub-fields",
        "a record that does not supply the struct s, whose write-default {} has no sub-field values: s is written "
        "with x = 5 (x's write-default) and y = null (no default); a supplied s keeps its values",
        "parquet-round-trip",
        schema=nested,
        rows=[{"1": 1}, {"1": 2, "5": {"6": 1, "7": "b"}}],
    )
    yield case(
        "write.default.required",
        "required-without-write-default",
        "a record that does not supply id, a required field without a write-default: the writer must fail",
        "parquet-round-trip",
        schema=DEFAULTS_SCHEMA,
        rows=[{"2": "done"}],
    )
