"""Parquet data files checked against Appendix A (Parquet): field ids, 3-level lists, the decimal
physical types and the type table; valid files and corrupt variants, each with the table schema it
is checked against. Files pyarrow cannot write come from parquet-mr (vectors/sources/parquet/)."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl.metadata.schema import parse_schema
from spec_impl.resources import vectors_dir
from spec_impl.revisions import ADOPTED
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.vectors.cases import CaseSpec, case

NAME = "parquet-schemas"
DESCRIPTION = (
    "Appendix A (Parquet): a data file's physical schema against the table schema (field ids, 3-level lists, "
    "decimal physical types, the type table)"
)
SOURCES = vectors_dir() / "sources" / "parquet"
IDS, LISTS, DECIMAL, TYPES = (
    "parquet.field-ids",
    "parquet.list-3-level",
    "parquet.decimal-fixed-size",
    ("parquet.type-mapping"),
)
OP = "check-parquet-schema"

_PRIMITIVES = [
    ("b", "boolean"),
    ("i", "int"),
    ("l", "long"),
    ("f", "float"),
    ("d", "double"),
    ("d9", "decimal(9,2)"),
    ("d18", "decimal(18,2)"),
    ("d38", "decimal(38,10)"),
    ("dt", "date"),
    ("t", "time"),
    ("ts", "timestamp"),
    ("tz", "timestamptz"),
    ("tn", "timestamp_ns"),
    ("tzn", "timestamptz_ns"),
    ("s", "string"),
    ("u", "uuid"),
    ("fx", "fixed[5]"),
    ("bn", "binary"),
]


def _field(fid: int, name: str, t: Any, required: bool = False) -> dict:
    return {"id": fid, "name": name, "required": required, "type": t}


def _schema(*fields: dict) -> dict:
    return {"type": "struct", "schema-id": 0, "fields": list(fields)}


ALL_TYPES = _schema(*(_field(i + 1, n, t) for i, (n, t) in enumerate(_PRIMITIVES)))
NESTED = _schema(
    _field(1, "id", "long", True),
    _field(3, "tags", {"type": "list", "element-id": 4, "element": "string", "element-required": True}),
    _field(
        5,
        "props",
        {"type": "map", "key-id": 6, "key": "string", "value-id": 7, "value": "int", "value-required": False},
    ),
    _field(8, "point", {"type": "struct", "fields": [_field(9, "x", "double"), _field(10, "y", "double")]}),
)
TAGS = _schema(
    _field(1, "id", "long", True),
    _field(3, "tags", {"type": "list", "element-id": 4, "element": "string", "element-required": False}),
)
PRICE = _schema(_field(1, "id", "long", True), _field(2, "price", "decimal(5,2)"))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _reference(schema: dict, rows: list[dict] | None = None, **options: Any) -> str:
    """A file as the reference writes it (Appendix A's types, field ids everywhere)."""
    return _b64(write_parquet(rows or [{}], parse_schema(schema, 3), **options))


def _arrow(columns: dict[str, pa.Array], ids: dict[str, int] | None = None, **options: Any) -> str:
    """A file of Arrow columns as pyarrow writes them, each top-level column with its id in `ids`."""
    fields = [
        pa.field(
            name, arr.type, metadata=None if ids is None or name not in ids else {b"PARQUET:field_id": str(ids[name])}
        )
        for name, arr in columns.items()
    ]
    buf = io.BytesIO()
    pq.write_table(pa.table(list(columns.values()), schema=pa.schema(fields)), buf, store_schema=False, **options)
    return _b64(buf.getvalue())


def _source(name: str) -> str:
    return _b64((SOURCES / name).read_bytes())


def _check(
    rule: str,
    slug: str,
    description: str,
    file: str,
    schema: dict,
    fv: int = 2,
    revisions: tuple[str, ...] | None = None,
    **extra: Any,
) -> CaseSpec:
    return case(
        rule, slug, description, OP, revisions=revisions, file_base64=file, schema=schema, format_version=fv, **extra
    )


def specs() -> Iterator[CaseSpec]:
    yield from _valid()
    yield from _known_field_cases()
    yield from _field_id_cases()
    yield from _list_cases()
    yield from _decimal_cases()
    yield from _type_cases()


def _valid() -> Iterator[CaseSpec]:
    yield _check(
        TYPES,
        "every-primitive-type",
        "one column of every primitive type as Appendix A's table stores it (decimal(9,2) int32, decimal(18,2) "
        "int64, decimal(38,10) fixed[16], timestamps in micro- and nanoseconds with their UTC adjustment, uuid "
        "fixed[16] UUID): nothing to report",
        _reference(ALL_TYPES),
        ALL_TYPES,
        3,
    )
    rows = [{1: 1, 3: ["a", "b"], 5: {"k": 1}, 8: {9: 1.0, 10: None}}]
    yield _check(
        LISTS,
        "three-level-list-and-map",
        "a 3-level list, a 3-level map and a struct, every field with its id: nothing to report",
        _reference(NESTED, rows),
        NESTED,
    )
    yield _check(
        LISTS,
        "three-level-legacy-names",
        "a 3-level list whose repeated group is named bag and element array (parquet-mr's legacy names): the "
        "representation is 3-level whatever the names",
        _source("legacy-names-three-level-list.parquet"),
        TAGS,
    )
    yield _check(
        TYPES,
        "int-column-of-a-promoted-long",
        "an int32 column of a field that is now long (written before the promotion): a type the field promotes from",
        _reference(_schema(_field(1, "id", "int", True)), [{1: 7}]),
        _schema(_field(1, "id", "long", True)),
    )
    yield _check(
        IDS,
        "no-ids-name-mapped",
        "a file without field ids in a table with a name mapping (Column Projection: fallback field ids for "
        "files without them): nothing to report",
        _arrow({"id": pa.array([1], pa.int64())}),
        _schema(_field(1, "id", "long")),
        name_mapped=True,
    )


def _known_field_cases() -> Iterator[CaseSpec]:
    """Default values: "Omitting a known field when writing a data file is never allowed." The file
    is checked against the schema it was written with (`written_with`)."""
    rows = [{1: 1, 3: ["a", "b"], 5: {"k": 1}, 8: {9: 1.0, 10: None}}]
    nested_file = _reference(NESTED, rows)
    rule = "content-file.known-fields"
    yield _check(
        rule,
        "every-field-written",
        "a file with a column for every field of the schema it was written with, nested ones included",
        nested_file,
        NESTED,
        3,
        written_with=True,
    )
    yield _check(
        rule,
        "unknown-field-omitted",
        "the schema it was written with also has u, an unknown field, which the file omits (never stored)",
        nested_file,
        _schema(*NESTED["fields"], _field(11, "u", "unknown")),
        3,
        ADOPTED,
        written_with=True,
    )
    yield _check(
        rule,
        "top-level-field-omitted",
        "the schema it was written with has score (11), for which the file has no column",
        nested_file,
        _schema(*NESTED["fields"], _field(11, "score", "int")),
        3,
        written_with=True,
    )
    point = _field(
        8,
        "point",
        {"type": "struct", "fields": [_field(9, "x", "double"), _field(10, "y", "double"), _field(12, "z", "double")]},
    )
    yield _check(
        rule,
        "nested-field-omitted",
        "the schema it was written with has point.z (12), for which the file's point group has no column",
        nested_file,
        _schema(*NESTED["fields"][:3], point),
        3,
        written_with=True,
    )


def _field_id_cases() -> Iterator[CaseSpec]:
    schema = _schema(_field(1, "id", "long"), _field(2, "name", "string"))
    columns = {"id": pa.array([1], pa.int64()), "name": pa.array(["a"])}
    yield _check(
        IDS,
        "no-ids",
        "a file without field ids in a table without a name mapping",
        _arrow(columns),
        schema,
    )
    yield _check(IDS, "some-ids", "the column name has no field id", _arrow(columns, {"id": 1}), schema)
    variant = pa.struct([pa.field("metadata", pa.binary(), False), pa.field("value", pa.binary())])
    yield _check(
        IDS,
        "variant-sub-fields-without-ids",
        "a v3 variant column: a group with its field id whose metadata and value sub-fields have none (the "
        "adopted spec: the sub-fields have no field ids); not checked further here: nothing to report",
        _arrow({"id": pa.array([1], pa.int64()), "v": pa.array([None], variant)}, {"id": 1, "v": 2}),
        _schema(_field(1, "id", "long"), _field(2, "v", "variant")),
        3,
        ADOPTED,
    )
    element = pa.list_(pa.field("element", pa.string()))
    yield _check(
        IDS,
        "list-element-without-id",
        "the list column has its id but its element has none",
        _arrow({"id": pa.array([1], pa.int64()), "tags": pa.array([["a"]], element)}, {"id": 1, "tags": 3}),
        TAGS,
    )


def _list_cases() -> Iterator[CaseSpec]:
    two_level = _schema(
        _field(1, "id", "long", True),
        _field(3, "tags", {"type": "list", "element-id": 4, "element": "string", "element-required": True}),
    )
    yield _check(
        LISTS,
        "two-level-list",
        "a LIST group whose repeated field is the element itself (optional group tags (LIST) { repeated binary "
        "array (UTF8) }), a 2-level list",
        _source("two-level-list.parquet"),
        two_level,
    )
    yield _check(
        LISTS,
        "repeated-field-without-list-group",
        "a list stored as a bare repeated field (repeated binary tags (UTF8)), without a LIST group",
        _source("bare-repeated-list.parquet"),
        two_level,
    )


def _decimal_cases() -> Iterator[CaseSpec]:
    yield _check(
        DECIMAL,
        "fixed-16-for-precision-5",
        "decimal(5,2) in a fixed_len_byte_array[16] where 3 bytes hold 5 digits (also not int32, as the type "
        "table says for P <= 9)",
        _source("decimal-fixed-too-wide.parquet"),
        PRICE,
    )
    yield _check(
        DECIMAL,
        "fixed-minimum-bytes",
        "decimal(38,10) in fixed_len_byte_array[16], the minimum for 38 digits: nothing to report",
        _reference(_schema(_field(1, "d", "decimal(38,10)"))),
        _schema(_field(1, "d", "decimal(38,10)")),
    )
    yield _check(
        TYPES,
        "decimal-9-as-fixed",
        "decimal(9,2) as fixed_len_byte_array[4] (pyarrow's default): Appendix A's table says int32 for P <= 9",
        _reference(_schema(_field(1, "d", "decimal(9,2)")), store_decimal_as_integer=False),
        _schema(_field(1, "d", "decimal(9,2)")),
    )
    yield _check(
        TYPES,
        "decimal-18-as-fixed",
        "decimal(18,2) as fixed_len_byte_array[8]: Appendix A's table says int64 for P <= 18",
        _reference(_schema(_field(1, "d", "decimal(18,2)")), store_decimal_as_integer=False),
        _schema(_field(1, "d", "decimal(18,2)")),
    )
    yield _check(
        TYPES,
        "decimal-as-binary",
        "decimal(5,2) as a binary (BYTE_ARRAY) DECIMAL column",
        _source("decimal-binary.parquet"),
        PRICE,
    )


def _one(name: str, iceberg: Any, arr: pa.Array, fv: int = 2) -> tuple[str, dict, int]:
    return _arrow({name: arr}, {name: 1}, version="2.6"), _schema(_field(1, name, iceberg)), fv


def _type_cases() -> Iterator[CaseSpec]:
    utf8 = pa.array(["00000000-0000-0000-0000-000000000001"])
    entries = pa.list_(
        pa.field(
            "entries",
            pa.struct(
                [
                    pa.field("key", pa.string(), False, {b"PARQUET:field_id": b"6"}),
                    pa.field("value", pa.int32(), True, {b"PARQUET:field_id": b"7"}),
                ]
            ),
            False,
            {b"PARQUET:field_id": b"99"},
        )
    )
    props = {"type": "map", "key-id": 6, "key": "string", "value-id": 7, "value": "int", "value-required": False}
    cases = [
        (
            "timestamptz-not-utc-adjusted",
            "timestamptz as TIMESTAMP_MICROS with isAdjustedToUTC=false",
            _one("ts", "timestamptz", pa.array([0], pa.timestamp("us"))),
        ),
        (
            "timestamp-utc-adjusted",
            "timestamp as TIMESTAMP_MICROS with isAdjustedToUTC=true",
            _one("ts", "timestamp", pa.array([0], pa.timestamp("us", "UTC"))),
        ),
        (
            "timestamp-millis",
            "timestamp as TIMESTAMP_MILLIS",
            _one("ts", "timestamp", pa.array([0], pa.timestamp("ms"))),
        ),
        (
            "timestamp-nanos-for-timestamp",
            "a microsecond timestamp field stored as TIMESTAMP_NANOS",
            _one("ts", "timestamp", pa.array([0], pa.timestamp("ns"))),
        ),
        (
            "timestamptz-ns-not-utc-adjusted",
            "timestamptz_ns as TIMESTAMP_NANOS with isAdjustedToUTC=false",
            _one("ts", "timestamptz_ns", pa.array([0], pa.timestamp("ns")), 3),
        ),
        ("time-millis", "time as int32 TIME_MILLIS", _one("t", "time", pa.array([0], pa.time32("ms")))),
        ("date-as-int64", "date as a plain int64", _one("d", "date", pa.array([0], pa.int64()))),
        ("int-as-int64", "int as int64", _one("i", "int", pa.array([0], pa.int64()))),
        ("int-as-int8", "int as int32 with the INT(8) annotation", _one("i", "int", pa.array([0], pa.int8()))),
        ("float-as-double", "float as double", _one("f", "float", pa.array([0.5], pa.float64()))),
        ("uuid-as-string", "uuid as a UTF8 string", _one("u", "uuid", utf8)),
        (
            "uuid-without-annotation",
            "uuid as fixed_len_byte_array[16] without the UUID annotation",
            _one("u", "uuid", pa.array([b"\x00" * 16], pa.binary(16))),
        ),
        (
            "string-without-utf8",
            "string as binary without the UTF8 annotation",
            _one("s", "string", pa.array([b"a"], pa.binary())),
        ),
        (
            "fixed-wrong-length",
            "fixed[5] as fixed_len_byte_array[4]",
            _one("f", "fixed[5]", pa.array([b"abcd"], pa.binary(4))),
        ),
        (
            "map-as-list-of-structs",
            "a map stored as a list of key-value structs, without a MAP group",
            (_arrow({"props": pa.array([[("k", 1)]], entries)}, {"props": 5}), _schema(_field(5, "props", props)), 2),
        ),
    ]
    for slug, description, (file, schema, fv) in cases:
        yield _check(TYPES, slug, description, file, schema, fv)
