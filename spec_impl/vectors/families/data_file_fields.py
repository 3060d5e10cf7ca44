"""Data and delete files checked against the data_file fields their manifest entry claims: column
sizes, the equality delete columns, a delete file's metrics (`spec_impl.datafiles.content_file`)."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

from spec_impl.datafiles.content_file import parquet_column_sizes
from spec_impl.deletes.apply import FILE_PATH_ID, POS_ID
from spec_impl.manifests.avro_files import write_avro
from spec_impl.metadata.schema import parse_schema
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.scan.table_writer import POSITION_DELETE_SCHEMA
from spec_impl.vectors.cases import CaseSpec, case

NAME = "data-file-fields"
DESCRIPTION = (
    "Manifests: a data or delete file against its data_file fields (column_sizes, equality_ids, a delete "
    "file's counts and bounds)"
)

TABLE = parse_schema(
    {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 2, "name": "data", "required": False, "type": "string"},
        ],
    },
    2,
)
ID_ONLY = parse_schema(
    {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}, 2
)
DATA_PATH = "file:/warehouse/t/data/a.parquet"


def _long(v: int) -> str:
    return v.to_bytes(8, "little", signed=True).hex()


def _case(
    rule_id: str, slug: str, description: str, data: bytes, file_format: str, data_file: dict, **more
) -> CaseSpec:
    return case(
        rule_id,
        slug,
        description,
        "check-content-file",
        file_format=file_format,
        file_base64=base64.b64encode(data).decode(),
        data_file={"file_format": file_format, **data_file},
        **more,
    )


def specs() -> Iterator[CaseSpec]:
    yield from _column_sizes()
    yield from _equality_columns()
    yield from _delete_metrics()
    yield from _delete_schemas()
    yield from _utf8()
    yield from _avro_unions()
    yield from _uuids()


def _column_sizes() -> Iterator[CaseSpec]:
    parquet = write_parquet([{1: 1, 2: "a"}, {1: 2, 2: None}], TABLE)
    exact = {str(fid): size for fid, size in parquet_column_sizes(parquet).items()}
    rule = "content-file.column-sizes"
    yield _case(
        rule,
        "parquet-exact",
        "a Parquet data file whose column_sizes are its column chunks' sizes",
        parquet,
        "PARQUET",
        {"content": 0, "column_sizes": exact},
    )
    yield _case(
        rule,
        "parquet-omitted",
        "a Parquet data file without column_sizes (optional)",
        parquet,
        "PARQUET",
        {"content": 0},
    )
    wrong = dict(exact, **{"1": exact["1"] + 100})
    yield _case(
        rule,
        "parquet-wrong-size",
        "a Parquet data file claiming 100 bytes more for column 1 than its column chunks hold",
        parquet,
        "PARQUET",
        {"content": 0, "column_sizes": wrong},
    )
    avro = write_avro(
        {"type": "record", "name": "r", "fields": [{"name": "id", "type": "long", "field-id": 1}]}, [{"id": 1}], {}
    )
    yield _case(
        rule,
        "avro-without-sizes",
        "an Avro data file without column_sizes: 'Leave null for row-oriented formats (Avro)'",
        avro,
        "AVRO",
        {"content": 0},
    )
    yield _case(
        rule,
        "avro-with-sizes",
        "an Avro data file with column_sizes, which a row-oriented format leaves null",
        avro,
        "AVRO",
        {"content": 0, "column_sizes": {"1": 10}},
    )


def _equality_columns() -> Iterator[CaseSpec]:
    deletes = write_parquet([{1: 3}], ID_ONLY)
    rule = "delete-file.equality-columns"
    yield _case(
        rule,
        "ids-present",
        "an equality delete file on id (1) holding column 1",
        deletes,
        "PARQUET",
        {"content": 2, "equality_ids": [1]},
    )
    yield _case(
        rule,
        "id-missing",
        "an equality delete file whose equality_ids [1, 2] name column 2, which the file lacks",
        deletes,
        "PARQUET",
        {"content": 2, "equality_ids": [1, 2]},
    )


def _delete_metrics() -> Iterator[CaseSpec]:
    positions = write_parquet(
        [{FILE_PATH_ID: DATA_PATH, POS_ID: 1}, {FILE_PATH_ID: DATA_PATH, POS_ID: 4}], POSITION_DELETE_SCHEMA
    )
    pos = str(POS_ID)
    exact = {
        "value_counts": {pos: 2},
        "null_value_counts": {pos: 0},
        "lower_bounds": {pos: _long(1)},
        "upper_bounds": {pos: _long(4)},
    }
    rule = "delete-file.metrics"
    yield _case(
        rule,
        "position-exact",
        "a position delete file whose counts and bounds of pos cover its two deleted rows",
        positions,
        "PARQUET",
        dict(exact, content=1),
    )
    yield _case(
        rule,
        "position-omitted",
        "a position delete file without metrics: 'or must be omitted'",
        positions,
        "PARQUET",
        {"content": 1},
    )
    yield _case(
        rule,
        "position-upper-below",
        "a position delete file whose upper bound of pos (3) misses its deleted row at 4",
        positions,
        "PARQUET",
        dict(exact, content=1, upper_bounds={pos: _long(3)}),
    )
    yield _case(
        rule,
        "position-count-short",
        "a position delete file whose value count of pos (1) misses one of its two deleted rows",
        positions,
        "PARQUET",
        dict(exact, content=1, value_counts={pos: 1}),
    )
    equality = write_parquet([{1: 3}, {1: 9}], ID_ONLY)
    yield _case(
        rule,
        "equality-lower-above",
        "an equality delete file whose lower bound of id (5) is above its deleted value 3",
        equality,
        "PARQUET",
        {"content": 2, "equality_ids": [1], "lower_bounds": {"1": _long(5)}},
    )


def _delete_schemas() -> Iterator[CaseSpec]:
    """Delete Formats: "Row-level delete files are valid Iceberg data files"."""
    rule, table = "delete-file.schema", TABLE.to_json(2)
    positions = write_parquet([{FILE_PATH_ID: DATA_PATH, POS_ID: 1}], POSITION_DELETE_SCHEMA)
    yield _case(
        rule,
        "position-valid",
        "a position delete file with required file_path and pos",
        positions,
        "PARQUET",
        {"content": 1},
        schema=table,
    )
    only_path = parse_schema(
        {
            "type": "struct",
            "schema-id": 0,
            "fields": [{"id": FILE_PATH_ID, "name": "file_path", "required": True, "type": "string"}],
        },
        2,
    )
    yield _case(
        rule,
        "position-without-pos",
        "a position delete file without the pos column",
        write_parquet([{FILE_PATH_ID: DATA_PATH}], only_path),
        "PARQUET",
        {"content": 1},
        schema=table,
    )
    int_pos = parse_schema(
        {
            "type": "struct",
            "schema-id": 0,
            "fields": [
                {"id": FILE_PATH_ID, "name": "file_path", "required": True, "type": "string"},
                {"id": POS_ID, "name": "pos", "required": True, "type": "int"},
            ],
        },
        2,
    )
    yield _case(
        rule,
        "position-int-pos",
        "a position delete file whose pos is an int, not a long",
        write_parquet([{FILE_PATH_ID: DATA_PATH, POS_ID: 1}], int_pos),
        "PARQUET",
        {"content": 1},
        schema=table,
    )
    yield _case(
        rule,
        "equality-valid",
        "an equality delete file on the table's long column id",
        write_parquet([{1: 3}], ID_ONLY),
        "PARQUET",
        {"content": 2, "equality_ids": [1]},
        schema=table,
    )
    string_id = parse_schema(
        {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "string"}]}, 2
    )
    yield _case(
        rule,
        "equality-wrong-type",
        "an equality delete file whose column 1 is a string; the table's id (1) is a long",
        write_parquet([{1: "3"}], string_id),
        "PARQUET",
        {"content": 2, "equality_ids": [1]},
        schema=table,
    )
    unknown = parse_schema(
        {
            "type": "struct",
            "schema-id": 0,
            "fields": [
                {"id": 1, "name": "id", "required": True, "type": "long"},
                {"id": 9, "name": "extra", "required": False, "type": "long"},
            ],
        },
        2,
    )
    yield _case(
        rule,
        "equality-unknown-column",
        "an equality delete file with a column 9 that is no field of the table",
        write_parquet([{1: 3, 9: 4}], unknown),
        "PARQUET",
        {"content": 2, "equality_ids": [1]},
        schema=table,
    )


def _utf8() -> Iterator[CaseSpec]:
    """Primitive Types: "Character strings must be stored as UTF-8 encoded byte arrays"."""
    field = pa.field("data", pa.string(), metadata={b"PARQUET:field_id": b"2"})
    offsets = pa.py_buffer(b"\x00\x00\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00")
    for slug, text, description in (
        ("utf8-valid", "okéé".encode()[:4], "a string column of valid UTF-8 values"),
        ("utf8-invalid", b"ok\xff\xfe", "a string column whose second value is the bytes ff fe, not UTF-8"),
    ):
        values = pa.Array.from_buffers(pa.string(), 2, [None, offsets, pa.py_buffer(text)])
        buf = io.BytesIO()
        pq.write_table(pa.Table.from_arrays([values], schema=pa.schema([field])), buf)
        yield _case("content-file.utf8-strings", slug, description, buf.getvalue(), "PARQUET", {"content": 0})


def _avro_unions() -> Iterator[CaseSpec]:
    """Avro: "Optional fields, array elements, and map values must be wrapped in an Avro union with null"."""
    table = parse_schema(
        {
            "type": "struct",
            "schema-id": 0,
            "fields": [
                {"id": 1, "name": "id", "required": True, "type": "long"},
                {"id": 2, "name": "data", "required": False, "type": "string"},
                {
                    "id": 3,
                    "name": "tags",
                    "required": False,
                    "type": {"type": "list", "element-id": 4, "element": "string", "element-required": False},
                },
            ],
        },
        2,
    ).to_json(2)
    tags = {"type": "array", "items": ["null", "string"], "element-id": 4}
    bare_tags = {"type": "array", "items": "string", "element-id": 4}
    for slug, data_type, tags_type, description in (
        (
            "avro-unions",
            ["null", "string"],
            ["null", tags],
            "optional data and tags elements stored as unions with null",
        ),
        ("avro-optional-bare", "string", ["null", tags], "the optional field data (2) stored as a bare string"),
        ("avro-element-bare", ["null", "string"], ["null", bare_tags], "the optional list element (4) stored bare"),
    ):
        fields = [
            {"name": "id", "type": "long", "field-id": 1},
            {"name": "data", "type": data_type, "field-id": 2},
            {"name": "tags", "type": tags_type, "field-id": 3, "default": None},
        ]
        if isinstance(data_type, list):
            fields[1]["default"] = None
        data = write_avro(
            {"type": "record", "name": "r", "fields": fields}, [{"id": 1, "data": "a", "tags": ["x"]}], {}
        )
        yield _case(
            "content-file.avro-optional-union",
            slug,
            f"an Avro data file: {description}",
            data,
            "AVRO",
            {"content": 0},
            schema=table,
        )


def _uuids() -> Iterator[CaseSpec]:
    """Primitive Types: "uuid ... Should use 16-byte fixed" (a should: a recommendation not followed)."""
    table = parse_schema(
        {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "u", "required": True, "type": "uuid"}]}, 2
    ).to_json(2)
    value = bytes(range(16))
    for slug, avro_type, description in (
        (
            "avro-uuid-fixed",
            {"type": "fixed", "name": "uuid_fixed", "size": 16, "logicalType": "uuid"},
            "an Avro uuid stored as fixed[16] with logicalType uuid",
        ),
        (
            "avro-uuid-plain-fixed",
            {"type": "fixed", "name": "f16", "size": 16},
            "an Avro uuid stored as a plain fixed[16], without logicalType uuid",
        ),
    ):
        fields = [{"name": "u", "type": avro_type, "field-id": 1}]
        data = write_avro({"type": "record", "name": "r", "fields": fields}, [{"u": value}], {})
        yield _case("content-file.uuid-fixed", slug, description, data, "AVRO", {"content": 0}, schema=table)
    for slug, attributes, description in (
        (
            "orc-uuid-binary",
            {b"iceberg.id": b"1", b"iceberg.binary-type": b"UUID"},
            "an ORC uuid stored as binary with iceberg.binary-type=UUID",
        ),
        ("orc-uuid-plain-binary", {b"iceberg.id": b"1"}, "an ORC uuid stored as a plain binary"),
    ):
        field = pa.field("u", pa.binary(), False, metadata={**attributes, b"iceberg.required": b"true"})
        buf = io.BytesIO()
        orc.write_table(pa.Table.from_arrays([pa.array([value], pa.binary())], schema=pa.schema([field])), buf)
        yield _case("content-file.uuid-fixed", slug, description, buf.getvalue(), "ORC", {"content": 0}, schema=table)
