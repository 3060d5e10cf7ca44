"""ORC data and delete files as the reference reads them: Appendix A "ORC", read with pyarrow.orc.

Spec, Appendix A (ORC): "The column IDs must be stored in ORC type attributes using the key
iceberg.id, and iceberg.required to store "true" if the Iceberg column is required, otherwise it
will be optional." pyarrow exposes ORC type attributes as Arrow field metadata.

| ORC (as pyarrow reads it)                       | attributes                                   | Iceberg          |
|-------------------------------------------------|----------------------------------------------|------------------|
| boolean, int, bigint, float, double, date       |                                              | the same         |
| tinyint, smallint                               |                                              | int              |
| decimal(P, S)                                   |                                              | decimal(P, S)    |
| bigint                                          | iceberg.long-type=TIME                       | time             |
| timestamp / timestamp_instant (nanoseconds)     | iceberg.timestamp-unit=MICROS (the default)  | timestamp(tz)    |
| timestamp / timestamp_instant                   | iceberg.timestamp-unit=NANOS                 | timestamp(tz)_ns |
| string, varchar, char                           |                                              | string           |
| binary                                          | iceberg.binary-type=UUID                     | uuid             |
| binary                                          | iceberg.binary-type=FIXED, iceberg.length=L  | fixed[L]         |
| binary                                          |                                              | binary           |
| struct, array, map                              |                                              | struct, list, map|

Iceberg Java also writes iceberg.long-type=LONG and iceberg.binary-type=BINARY on plain long and
binary columns (not in the table; they name the plain types). A MICROS timestamp holding
nanoseconds breaks "Iceberg ORC writers for Iceberg types timestamp and timestamptz must truncate
nanoseconds to microseconds."; a fixed[L] value of another length breaks "The length would not be
checked by the ORC reader and should be checked by the adapter." The columns are cast to the Arrow
types of `arrow_values.arrow_type` and read into records as Parquet files are
(`arrow_values.rows_from_arrow`): by field id, or by name without ids (a name mapping).
"""

from __future__ import annotations

import io
from itertools import count

import pyarrow as pa
import pyarrow.orc as orc

from spec_impl.errors import InvalidInput
from spec_impl.metadata.schema import Schema
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.arrow_values import arrow_schema, rows_from_arrow
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
    StructType,
)

RULE = "scan.orc-data"

register(
    Rule(
        RULE,
        "Appendix A: ORC",
        "An ORC data or delete file is read by Appendix A: column ids in the type attribute iceberg.id (on every "
        "field or on none), iceberg.required true for a required field, the type mapping with iceberg.long-type, "
        "iceberg.timestamp-unit (MICROS when absent; a MICROS value holds no nanoseconds), iceberg.binary-type and "
        "iceberg.length (a fixed value of another length is an error)",
    ),
)

ID, REQUIRED = b"iceberg.id", b"iceberg.required"
LONG_TYPE, TIMESTAMP_UNIT, BINARY_TYPE, LENGTH = (
    b"iceberg.long-type",
    b"iceberg.timestamp-unit",
    b"iceberg.binary-type",
    b"iceberg.length",
)
_PLAIN = {
    pa.bool_(): BOOLEAN,
    pa.int8(): INT,
    pa.int16(): INT,
    pa.int32(): INT,
    pa.int64(): LONG,
    pa.float32(): FLOAT,
    pa.float64(): DOUBLE,
    pa.date32(): DATE,
    pa.string(): STRING,
    pa.large_string(): STRING,
    pa.binary(): BINARY,
    pa.large_binary(): BINARY,
}


@implements(RULE, "scan.file-format")
def read_orc_data(data: bytes, path: str = "") -> tuple[Schema | None, list[dict]]:
    """An ORC data file's Iceberg schema (None without column ids) and its records (Appendix A: ORC).

    Bytes that are no ORC file break rule scan.file-format; attributes or values outside Appendix A
    break rule scan.orc-data."""
    schema, typed, by_id = _typed(data, path)
    return (schema if by_id else None), rows_from_arrow(typed, by_id=by_id, schema=schema)


def read_orc_arrow(data: bytes, path: str = "") -> pa.Table:
    """The ORC file as an Arrow table of Appendix A's Parquet-side Arrow types, every field carrying
    its id as b"PARQUET:field_id" (synthetic negative ids for a file without ids), for the audit."""
    return _typed(data, path)[1]


@implements(RULE, "scan.file-format")
def _typed(data: bytes, path: str) -> tuple[Schema, pa.Table, bool]:
    """The file's schema (synthetic ids without ids), its columns cast to the Arrow types of that
    schema, and whether the file has ids."""
    try:
        table = orc.ORCFile(io.BytesIO(data)).read()
    except (pa.ArrowException, OSError, ValueError) as e:
        raise InvalidInput(
            "scan.file-format", f"{path or 'the file'} is not a readable ORC file: {str(e)[:200]}", path
        ) from None
    reader = _SchemaReader(path)
    schema = Schema.of(*(reader.field(f, f.name) for f in table.schema))
    if reader.with_id and reader.without_id:
        raise InvalidInput(
            RULE, f"{reader.path}: some fields have iceberg.id and some do not; fields without one", reader.without_id
        )
    try:
        typed = table.cast(arrow_schema(schema))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise InvalidInput(
            RULE,
            f"{path}: a value does not fit its Iceberg type (a MICROS timestamp with nanoseconds, a fixed value of "
            f"another length): {str(e)[:200]}",
            path,
        ) from None
    return schema, typed, bool(reader.with_id)  # without ids, records by name (synthetic ids never read)


class _SchemaReader:
    """Appendix A, read side: ORC types (as Arrow fields with their attributes) as Iceberg types."""

    def __init__(self, path: str):
        self.path = path or "the file"
        self.with_id: list[str] = []
        self.without_id: list[str] = []
        self._synthetic = count(-1, -1)

    def _id(self, field: pa.Field, where: str) -> int:
        raw = (field.metadata or {}).get(ID)
        if raw is None:
            self.without_id.append(where)
            return next(self._synthetic)
        try:
            fid = int(raw)
        except ValueError:
            raise InvalidInput(RULE, f"{self.path}: iceberg.id of {where} is not an integer", raw) from None
        self.with_id.append(where)
        return fid

    @implements(RULE)
    def field(self, field: pa.Field, where: str) -> NestedField:
        fid = self._id(field, where)
        required = (field.metadata or {}).get(REQUIRED, b"false").lower() == b"true"
        return NestedField(fid, field.name, self.type(field, where), required)

    @implements(RULE)
    def type(self, field: pa.Field, where: str) -> IcebergType:
        t, attrs = field.type, field.metadata or {}
        if pa.types.is_struct(t):
            return StructType(tuple(self.field(t.field(i), f"{where}.{t.field(i).name}") for i in range(t.num_fields)))
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            element = self.field(t.value_field, f"{where}.element")
            return ListType(element.id, element.type, element.required)
        if pa.types.is_map(t):
            key, value = self.field(t.key_field, f"{where}.key"), self.field(t.item_field, f"{where}.value")
            return MapType(key.id, key.type, value.id, value.type, value.required)
        if pa.types.is_decimal(t):
            return DecimalType(t.precision, t.scale)
        if pa.types.is_timestamp(t):
            unit = attrs.get(TIMESTAMP_UNIT, b"MICROS")
            if unit not in (b"MICROS", b"NANOS"):
                raise InvalidInput(RULE, f"{self.path}: {where}: iceberg.timestamp-unit is MICROS or NANOS", unit)
            return {
                (b"MICROS", False): TIMESTAMP,
                (b"MICROS", True): TIMESTAMPTZ,
                (b"NANOS", False): TIMESTAMP_NS,
                (b"NANOS", True): TIMESTAMPTZ_NS,
            }[(unit, t.tz is not None)]
        if t == pa.int64() and attrs.get(LONG_TYPE) == b"TIME":
            return TIME
        if pa.types.is_binary(t) and attrs.get(BINARY_TYPE, b"BINARY") != b"BINARY":
            return self._binary(attrs, where)
        if t in _PLAIN:
            return _PLAIN[t]
        raise InvalidInput(RULE, f"{self.path}: {where} has the ORC type {t}, outside Appendix A", str(t))

    def _binary(self, attrs: dict, where: str) -> IcebergType:
        kind = attrs[BINARY_TYPE]
        if kind == b"UUID":
            return UUID
        length = attrs.get(LENGTH, b"")
        if kind == b"FIXED" and length.isdigit():
            return FixedType(int(length))
        raise InvalidInput(
            RULE, f"{self.path}: {where}: iceberg.binary-type UUID, or FIXED with iceberg.length", (kind, length)
        )
