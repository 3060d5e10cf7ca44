"""Arrow and Parquet as carriers of the physical value model: schemas, records and Parquet bytes.

Spec: Appendix A "Parquet" (type mapping; field ids are stored as the Parquet `field_id`, which
pyarrow exposes as the field metadata key b"PARQUET:field_id"), "Nested Types", "Column
Projection" (files without field ids). Records follow `spec_impl.metadata.projection`: dicts keyed
by field id (by column name for files without ids), nested structs likewise, lists as lists, maps
as dicts; values are those of `spec_impl.values`.

| Iceberg            | Arrow written                 | Arrow also read                                  |
|--------------------|-------------------------------|--------------------------------------------------|
| boolean            | bool_                         |                                                  |
| int                | int32                         | int8, int16, uint8, uint16                       |
| long               | int64                         | uint32                                           |
| float, double      | float32, float64              |                                                  |
| decimal(P, S)      | decimal128(P, S)              | decimal32/64/256 with P <= 38                    |
| date               | date32                        |                                                  |
| time               | time64('us')                  |                                                  |
| timestamp(_ns)     | timestamp('us' / 'ns')        |                                                  |
| timestamptz(_ns)   | timestamp('us' / 'ns', 'UTC') | tz '+00:00', 'Etc/UTC', 'Z'                      |
| string, binary     | string, binary                | large_ and _view variants, dictionary-encoded    |
| uuid               | fixed_size_binary(16)         | pa.uuid() (arrow.uuid extension)                 |
| fixed[L]           | fixed_size_binary(L)          |                                                  |
| struct, list, map  | struct, list, map             | large_list                                       |

unknown, variant, geometry and geography have no mapping here (rule scan.arrow-type).
`write_parquet` writes uuid columns as the arrow.uuid extension (when pyarrow has it) so that the
Parquet column carries the UUID logical type of Appendix A; pyarrow reads it back as pa.uuid().
"""

from __future__ import annotations

import io
import uuid
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.metadata.schema import Schema, walk
from spec_impl.rules import Rule, register, implements
from spec_impl.types import (
    BINARY,
    BOOLEAN,
    DATE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    STRING,
    TIME,
    TIMESTAMP,
    TIMESTAMP_NS,
    TIMESTAMPTZ,
    TIMESTAMPTZ_NS,
    UUID,
    DecimalType,
    FixedType,
    IcebergType,
    ListType,
    MapType,
    NestedField,
    PrimitiveType,
    StructType,
)
from spec_impl.values import normalize

_A = "Appendix A: Parquet"

register(
    Rule(
        "scan.arrow-type",
        _A,
        "Iceberg types map to Arrow/Parquet types as in Appendix A (uuid as fixed[16] with the UUID annotation, "
        "timestamptz as UTC-adjusted); unknown, variant, geometry and geography and Arrow types outside the "
        "table have no mapping here",
    ),
    Rule(
        "scan.field-ids",
        "Appendix A; Column Projection",
        "Field ids are stored as Parquet field_id on every field (list elements, map keys and values included) "
        "or on none; records by id need them",
    ),
    Rule(
        "scan.required",
        "Nested Types; Appendix A",
        "A required field, required list element or required map value holds no null where its parent is "
        "present; map keys are never null",
    ),
    Rule("scan.map-keys", "Nested Types", "The keys of one map value are distinct"),
    Rule(
        "scan.data-file",
        "Appendix A (Parquet); Scan Planning",
        "A data or delete file a table references is a readable Parquet file",
    ),
)

FIELD_ID_KEY = b"PARQUET:field_id"
HAS_UUID_EXTENSION = hasattr(pa, "uuid")
UTC_ZONES = frozenset({"UTC", "+00:00", "Etc/UTC", "Z"})

# Appendix A: decimals of precision <= 9 / <= 18 as int32 / int64; the Parquet schema is the only
# type information (no ARROW:schema blob), so that reading tests the Parquet mapping itself.
PARQUET_OPTIONS: dict[str, Any] = {
    "store_decimal_as_integer": True,
    "store_schema": False,
    "write_statistics": True,
    "compression": "zstd",
    "version": "2.6",
}

_FIXED_WIDTH = {
    "boolean": pa.bool_(),
    "int": pa.int32(),
    "long": pa.int64(),
    "float": pa.float32(),
    "double": pa.float64(),
    "date": pa.date32(),
    "time": pa.time64("us"),
    "timestamp": pa.timestamp("us"),
    "timestamptz": pa.timestamp("us", tz="UTC"),
    "timestamp_ns": pa.timestamp("ns"),
    "timestamptz_ns": pa.timestamp("ns", tz="UTC"),
    "string": pa.string(),
    "binary": pa.binary(),
    "uuid": pa.binary(16),
}
# Arrow types whose values are ints in the physical model once cast to this integer type.
_AS_INT = {
    "date": pa.int32(),
    "time": pa.int64(),
    "timestamp": pa.int64(),
    "timestamptz": pa.int64(),
    "timestamp_ns": pa.int64(),
    "timestamptz_ns": pa.int64(),
}

# --- Iceberg -> Arrow -----------------------------------------------------------------------------


def arrow_schema(schema: Schema, *, uuid_extension: bool = False) -> pa.Schema:
    """Appendix A: the Arrow schema of `schema`, every field carrying its id as b"PARQUET:field_id".

    `uuid_extension` gives uuid columns the pa.uuid() extension type instead of fixed_size_binary(16).
    """
    return pa.schema([_arrow_field(f.id, f.name, f.type, f.required, uuid_extension) for f in schema.fields])


@implements("scan.arrow-type")
def arrow_type(t: IcebergType, *, uuid_extension: bool = False) -> pa.DataType:
    """Appendix A: the Arrow type of `t` (rule scan.arrow-type); nested fields carry their ids."""
    if isinstance(t, StructType):
        return pa.struct([_arrow_field(f.id, f.name, f.type, f.required, uuid_extension) for f in t.fields])
    if isinstance(t, ListType):
        return pa.list_(_arrow_field(t.element_id, "element", t.element, t.element_required, uuid_extension))
    if isinstance(t, MapType):
        key = _arrow_field(t.key_id, "key", t.key, True, uuid_extension)
        return pa.map_(key, _arrow_field(t.value_id, "value", t.value, t.value_required, uuid_extension))
    if isinstance(t, DecimalType):
        if not 1 <= t.precision <= 38 or not 0 <= t.scale <= t.precision:
            raise NotDefined(
                "scan.arrow-type", f"{t} has no Parquet DECIMAL form (needs 1 <= P <= 38, 0 <= S <= P)", str(t)
            )
        return pa.decimal128(t.precision, t.scale)
    if isinstance(t, FixedType):
        if t.length < 1:
            raise NotDefined(
                "scan.arrow-type", "fixed[0] has no Parquet form (FIXED_LEN_BYTE_ARRAY needs a positive length)", str(t)
            )
        return pa.binary(t.length)
    name = getattr(t, "name", None)
    if name == "uuid" and uuid_extension and HAS_UUID_EXTENSION:
        return pa.uuid()
    if name in _FIXED_WIDTH:
        return _FIXED_WIDTH[name]
    raise NotDefined("scan.arrow-type", f"{t} has no Arrow/Parquet type in the reference", str(t))


def _arrow_field(fid: int, name: str, t: IcebergType, required: bool, uuid_extension: bool) -> pa.Field:
    metadata = {FIELD_ID_KEY: str(fid).encode()}
    return pa.field(name, arrow_type(t, uuid_extension=uuid_extension), nullable=not required, metadata=metadata)


# --- Arrow -> Iceberg -----------------------------------------------------------------------------


@implements("scan.arrow-type", "scan.field-ids", "schema.field-id.unique")
def iceberg_schema(arrow: pa.Schema) -> Schema | None:
    """The Iceberg schema of an Arrow schema whose fields all carry field ids; None when none does.

    Rule scan.field-ids: some fields with ids and some without is an error; so are duplicate ids
    (schema.field-id.unique). Types follow Appendix A (scan.arrow-type); nullability gives `required`.
    """
    ids = [(path, _field_id(f)) for path, f in _walk_fields(arrow)]
    missing = [path for path, fid in ids if fid is None]
    if len(missing) == len(ids):
        return None
    if missing:
        raise InvalidInput("scan.field-ids", "some fields have field ids and some do not; fields without one", missing)
    seen: dict[int, str] = {}
    for path, fid in ids:
        if fid in seen:
            raise InvalidInput("schema.field-id.unique", f"field id {fid} is used by both {seen[fid]} and {path}", fid)
        seen[fid] = path
    return Schema.of(*(_iceberg_field(f) for f in arrow))


def _iceberg_field(field: pa.Field) -> NestedField:
    return NestedField(_field_id(field), field.name, _iceberg_type(field.type), required=not field.nullable)  # type: ignore[arg-type]


def _iceberg_type(t: pa.DataType) -> IcebergType:
    if pa.types.is_struct(t):
        return StructType(tuple(_iceberg_field(t.field(i)) for i in range(t.num_fields)))
    if pa.types.is_map(t):
        key, value = t.key_field, t.item_field
        return MapType(
            _field_id(key),
            _iceberg_type(key.type),
            _field_id(value),
            _iceberg_type(value.type),  # type: ignore[arg-type]
            value_required=not value.nullable,
        )
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        element = t.value_field
        return ListType(_field_id(element), _iceberg_type(element.type), element_required=not element.nullable)  # type: ignore[arg-type]
    return primitive_type(t)


@implements("scan.arrow-type")
def primitive_type(t: pa.DataType) -> PrimitiveType:
    """The Iceberg primitive type an Arrow type carries (Appendix A, read side; rule scan.arrow-type)."""
    if pa.types.is_dictionary(t):
        return primitive_type(t.value_type)
    if HAS_UUID_EXTENSION and t == pa.uuid():
        return UUID
    if pa.types.is_boolean(t):
        return BOOLEAN
    if t in (pa.int8(), pa.int16(), pa.int32(), pa.uint8(), pa.uint16()):
        return INT
    if t in (pa.int64(), pa.uint32()):
        return LONG
    if t in (pa.float32(), pa.float64()):
        return FLOAT if t == pa.float32() else DOUBLE
    if pa.types.is_decimal(t) and 1 <= t.precision <= 38 and t.scale >= 0:
        return DecimalType(t.precision, t.scale)
    if t == pa.date32():
        return DATE
    if t == pa.time64("us"):
        return TIME
    if pa.types.is_timestamp(t) and t.unit in ("us", "ns") and (t.tz is None or t.tz in UTC_ZONES):
        return {
            ("us", False): TIMESTAMP,
            ("us", True): TIMESTAMPTZ,
            ("ns", False): TIMESTAMP_NS,
            ("ns", True): TIMESTAMPTZ_NS,
        }[(t.unit, t.tz is not None)]
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return STRING
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return BINARY
    if pa.types.is_fixed_size_binary(t):
        return FixedType(t.byte_width)
    raise NotDefined("scan.arrow-type", f"the Arrow type {t} carries no Iceberg type", str(t))


@implements("scan.field-ids")
def _field_id(field: pa.Field) -> int | None:
    raw = (field.metadata or {}).get(FIELD_ID_KEY)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise InvalidInput(
            "scan.field-ids", f"field {field.name!r} has a field id that is not an integer", raw
        ) from None


def _walk_fields(arrow: pa.Schema | pa.DataType, prefix: str = ""):
    """(dotted path, field) for every field that is an Iceberg field: struct fields, list elements,
    map keys and values (the map's entries struct is Parquet structure, not a field)."""
    if isinstance(arrow, pa.Schema):
        children = [(f.name, f) for f in arrow]
    elif pa.types.is_struct(arrow):
        children = [(arrow.field(i).name, arrow.field(i)) for i in range(arrow.num_fields)]
    elif pa.types.is_map(arrow):
        children = [("key", arrow.key_field), ("value", arrow.item_field)]
    elif pa.types.is_list(arrow) or pa.types.is_large_list(arrow):
        children = [("element", arrow.value_field)]
    else:
        return
    for name, field in children:
        path = f"{prefix}.{name}" if prefix else name
        yield path, field
        yield from _walk_fields(field.type, path)


# --- Arrow -> records -----------------------------------------------------------------------------


def rows_from_arrow(table: pa.Table, by_id: bool = True, schema: Schema | None = None) -> list[dict]:
    """The records of an Arrow table in the physical value model, keyed by field id (or column name).

    Types come from the Arrow types (`primitive_type`); `schema`, when given, is matched to the
    columns by id (by name when `by_id` is False) and decides what the Arrow types cannot say: a
    fixed_size_binary(16) column of an Iceberg uuid field reads as uuid.UUID (bytes otherwise).
    """
    struct = schema.struct if schema is not None else None
    keys, columns = [], []
    for i, field in enumerate(table.schema):
        key, hint = _key_and_hint(field, struct, by_id)
        keys.append(key)
        columns.append(_values(_one_array(table.column(i)), hint, by_id, field.name))
    if not columns:
        return [{} for _ in range(table.num_rows)]
    return [dict(zip(keys, row)) for row in zip(*columns)]


def _one_array(column: pa.ChunkedArray) -> pa.Array:
    """The chunks as one array (pa.nulls for none: combining zero chunks of nested extension types fails)."""
    return column.combine_chunks() if column.num_chunks else pa.nulls(0, column.type)


@implements("scan.field-ids")
def _key_and_hint(field: pa.Field, struct: StructType | None, by_id: bool) -> tuple[Any, IcebergType | None]:
    """The record key of an Arrow field and the Iceberg type the schema gives it (None when unknown)."""
    if not by_id:
        matches = [f for f in struct.fields if f.name == field.name] if struct is not None else []
        return field.name, matches[0].type if matches else None
    fid = _field_id(field)
    if fid is None:
        raise InvalidInput(
            "scan.field-ids", f"records by field id need a field id on {field.name!r}; read by names", field.name
        )
    matches = [f for f in struct.fields if f.id == fid] if struct is not None else []
    return fid, matches[0].type if matches else None


def _values(arr: pa.Array, hint: IcebergType | None, by_id: bool, path: str) -> list:
    """The Python values of one Arrow array (nulls as None at every level)."""
    t = arr.type
    if pa.types.is_dictionary(t):
        return _values(arr.dictionary_decode(), hint, by_id, path)
    if pa.types.is_struct(t):
        return _struct_values(arr, _expect_hint(hint, StructType, t, path), by_id, path)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        list_hint = _expect_hint(hint, ListType, t, path)
        elements = _values(arr.values, list_hint and list_hint.element, by_id, path + ".element")
        return _split(arr, elements)
    if pa.types.is_map(t):
        return _map_values(arr, _expect_hint(hint, MapType, t, path), by_id, path)
    return _primitive_values(arr, hint, path)


def _struct_values(arr: pa.StructArray, hint: StructType | None, by_id: bool, path: str) -> list:
    keys, columns = [], []
    for i in range(arr.type.num_fields):
        field = arr.type.field(i)
        key, child_hint = _key_and_hint(field, hint, by_id)
        keys.append(key)
        columns.append(_values(arr.field(i), child_hint, by_id, f"{path}.{field.name}"))  # field(i) honours slicing
    valid = arr.is_valid().to_pylist()
    rows = zip(*columns) if columns else ((),) * len(arr)
    return [dict(zip(keys, row)) if ok else None for ok, row in zip(valid, rows)]


@implements("scan.arrow-type", "scan.map-keys")
def _map_values(arr: pa.MapArray, hint: MapType | None, by_id: bool, path: str) -> list:
    entries = arr.values  # struct<key, value>, not sliced: `_split` applies the offsets
    key_type = entries.type.field(0).type
    if pa.types.is_struct(key_type) or pa.types.is_list(key_type) or pa.types.is_map(key_type):
        raise NotDefined(
            "scan.arrow-type", f"{path}: map keys of nested type have no dict form in the value model", str(key_type)
        )
    keys = _values(entries.field(0), hint and hint.key, by_id, path + ".key")
    values = _values(entries.field(1), hint and hint.value, by_id, path + ".value")
    out = []
    for pairs in _split(arr, list(zip(keys, values))):
        if pairs is None:
            out.append(None)
            continue
        mapping = dict(pairs)
        if len(mapping) != len(pairs):
            raise InvalidInput("scan.map-keys", f"{path}: a map value has duplicate keys", [k for k, _ in pairs])
        out.append(mapping)
    return out


def _split(arr: pa.Array, children: list) -> list:
    """Cut the (unsliced) child values of a list or map array into its rows, by its offsets."""
    offsets = arr.offsets.to_pylist()  # len(arr) + 1 offsets into the unsliced child, slicing applied
    valid = arr.is_valid().to_pylist()
    return [children[offsets[i] : offsets[i + 1]] if ok else None for i, ok in enumerate(valid)]


@implements("scan.arrow-type")
def _primitive_values(arr: pa.Array, hint: IcebergType | None, path: str) -> list:
    actual = primitive_type(arr.type)
    t = actual if hint is None else hint
    if t != actual and not (t == UUID and actual == FixedType(16)):
        raise NotDefined(
            "scan.arrow-type", f"{path}: the Arrow type {arr.type} does not carry the Iceberg type {t}", str(arr.type)
        )
    if isinstance(arr, pa.ExtensionArray):
        arr = arr.storage
    name = t.name  # type: ignore[attr-defined]
    if name in _AS_INT:
        return arr.cast(_AS_INT[name]).to_pylist()  # days, µs or ns as ints: no datetime objects
    if name == "uuid":
        return [None if b is None else uuid.UUID(bytes=b) for b in arr.to_pylist()]
    return arr.to_pylist()


@implements("scan.arrow-type")
def _expect_hint(hint: IcebergType | None, kind: type, t: pa.DataType, path: str) -> Any:
    if hint is not None and not isinstance(hint, kind):
        raise NotDefined(
            "scan.arrow-type", f"{path}: the Arrow type {t} does not carry the Iceberg type {hint}", str(t)
        )
    return hint


# --- records -> Arrow -----------------------------------------------------------------------------


@implements("scan.required", "value.decimal", "value.range")
def arrow_table(rows: list[dict], schema: Schema, *, uuid_extension: bool = False) -> pa.Table:
    """An Arrow table with `arrow_schema(schema)` holding the physical records `rows` (keyed by field id).

    Each record is checked by `spec_impl.values.normalize` (value.range, value.decimal); a missing
    key is null; a null in a required position breaks rule scan.required.
    """
    target = arrow_schema(schema, uuid_extension=uuid_extension)
    plain = arrow_schema(schema) if uuid_extension else target
    columns: list[list] = [[] for _ in schema.fields]
    for r, row in enumerate(rows):
        row = normalize(schema.struct, row)
        for i, field in enumerate(schema.fields):
            columns[i].append(_to_arrow_py(field.type, row.get(field.id), field.required, f"row {r}: {field.name}"))
    arrays = [pa.array(col, type=plain.field(i).type) for i, col in enumerate(columns)]
    table = pa.Table.from_arrays(arrays, schema=plain)
    return table.cast(target) if uuid_extension else table  # nested extension types cannot be built from Python


@implements("scan.required")
def _to_arrow_py(t: IcebergType, value: Any, required: bool, path: str) -> Any:
    """A normalized physical value in the Python form pyarrow builds arrays from (structs keyed by name)."""
    if value is None:
        if required:
            raise InvalidInput("scan.required", f"{path} is required but null", None)
        return None
    if isinstance(t, StructType):
        return {f.name: _to_arrow_py(f.type, value.get(f.id), f.required, f"{path}.{f.name}") for f in t.fields}
    if isinstance(t, ListType):
        return [_to_arrow_py(t.element, v, t.element_required, f"{path}.element") for v in value]
    if isinstance(t, MapType):
        return [
            (_to_arrow_py(t.key, k, True, f"{path}.key"), _to_arrow_py(t.value, v, t.value_required, f"{path}.value"))
            for k, v in value.items()
        ]
    if isinstance(value, uuid.UUID):
        return value.bytes
    return value


# --- Parquet --------------------------------------------------------------------------------------


@implements("scan.arrow-type")
def write_parquet(rows: list[dict], schema: Schema, **options: Any) -> bytes:
    """Appendix A: the records as a Parquet file with field ids; the same input gives the same bytes.

    `options` override `PARQUET_OPTIONS` and go to `pyarrow.parquet.write_table`. A struct without
    fields (valid in Arrow) has no Parquet form (rule scan.arrow-type).
    """
    for info in walk(schema.struct):
        if isinstance(info.type, StructType) and not info.type.fields:
            raise NotDefined(
                "scan.arrow-type",
                f"{info.dotted}: a struct without fields has no Parquet form (a group needs a child)",
                info.id,
            )
    table = arrow_table(rows, schema, uuid_extension=HAS_UUID_EXTENSION)
    buf = io.BytesIO()
    pq.write_table(table, buf, **{**PARQUET_OPTIONS, **options})
    return buf.getvalue()


@implements("scan.data-file")
def open_parquet(data: bytes) -> pq.ParquetFile:
    """A Parquet file opened from its bytes (footer and schema parsed, no rows read), for a caller
    that needs both its schema and its rows (`read_parquet_table(data, opened)`): the file is
    parsed once. A file Parquet cannot open is rule scan.data-file."""
    try:
        return pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowException, OSError, ValueError) as e:
        raise _unreadable(e, data) from None


@implements("scan.data-file")
def read_parquet_table(data: bytes, opened: pq.ParquetFile | None = None) -> pa.Table:
    """A Parquet file as an Arrow table (from `opened` when the caller has opened `data` already);
    a file Parquet cannot read is rule scan.data-file. Read on one thread: the reference reads one
    file at a time (parallel work belongs to Spark), and pyarrow's thread pool can abort a
    short-lived process at exit ("terminate called without an active exception", exit status 134
    instead of the command's own)."""
    try:
        return (opened if opened is not None else open_parquet(data)).read(use_threads=False)
    except (pa.ArrowException, OSError, ValueError) as e:
        raise _unreadable(e, data) from None


def _unreadable(e: Exception, data: bytes) -> InvalidInput:
    return InvalidInput("scan.data-file", f"not a readable Parquet file: {str(e)[:200]}", len(data))


@implements("scan.data-file")
def read_parquet(data: bytes) -> tuple[Schema | None, list[dict]]:
    """A Parquet file's Iceberg schema (None without field ids) and its records: by field id, or by
    column name when the file has no field ids (Column Projection). A file Parquet cannot read
    is rule scan.data-file."""
    table = read_parquet_table(data)
    try:
        schema = iceberg_schema(table.schema)
        return schema, rows_from_arrow(table, by_id=schema is not None, schema=schema)
    except UnicodeDecodeError as e:  # a column name, or a string column's bytes, that are not UTF-8
        raise InvalidInput(
            "scan.data-file", f"a column name or string value is not UTF-8: {e.reason}", e.object[e.start : e.start + 8]
        ) from None
