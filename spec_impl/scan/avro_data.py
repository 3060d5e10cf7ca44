"""Avro data and delete files as the reference reads them: Appendix A "Avro".

Spec, Appendix A (Avro): "Values should be stored in Avro using the Avro types and logical type
annotations in the table below." Optional fields, list elements and map values are unions with
null, "the only union type allowed in Iceberg data files"; field ids are stored as `field-id` on
record fields, `element-id` on arrays, `key-id` / `value-id` on Avro maps (string keys), and as
the `field-id` of the key and value fields of a map stored as an array of key/value records with
the logical type `map`. `adjust-to-utc` is false when absent.

| Avro                                                   | Iceberg                    |
|--------------------------------------------------------|----------------------------|
| boolean, int, long, float, double, string, bytes       | the same, bytes as binary  |
| int / date                                             | date                       |
| long / time-micros                                     | time                       |
| long / timestamp-micros (-nanos), adjust-to-utc        | timestamp(tz)(_ns)         |
| fixed (or bytes) / decimal(P, S)                       | decimal(P, S)              |
| fixed[16] / uuid                                       | uuid                       |
| fixed[L]                                               | fixed[L]                   |
| record, array, array of key/value records / map, map  | struct, list, map          |

Records come out as `arrow_values` gives them for Parquet: dicts keyed by field id (by field name
when the file has no field ids, for a name mapping), lists as lists, maps as dicts, values of the
physical value model (a decimal a `Decimal`, a uuid a `uuid.UUID`, timestamps ints).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import count
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.manifests.avro_files import physical_value, read_avro
from spec_impl.metadata.json_document import brief
from spec_impl.metadata.schema import Schema
from spec_impl.rules import Rule, implements, register
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

RULE = "scan.avro-data"

register(
    Rule(
        RULE,
        "Appendix A: Avro",
        "An Avro data or delete file is read by Appendix A: types and logical types as in its table "
        "(adjust-to-utc false when absent), unions only with null (optional fields, list elements, map values), "
        "optional fields with the default null, "
        "field ids as field-id, element-id, key-id and value-id on every field or on none, maps as arrays of "
        "key/value records with the logical type map or, with string keys, as Avro maps",
    ),
)

_PRIMITIVES: dict[str, IcebergType] = {
    "boolean": BOOLEAN,
    "int": INT,
    "long": LONG,
    "float": FLOAT,
    "double": DOUBLE,
    "string": STRING,
    "bytes": BINARY,
}
_TIMESTAMPS = {
    ("timestamp-micros", False): TIMESTAMP,
    ("timestamp-micros", True): TIMESTAMPTZ,
    ("timestamp-nanos", False): TIMESTAMP_NS,
    ("timestamp-nanos", True): TIMESTAMPTZ_NS,
}


@dataclass(frozen=True)
class _Node:
    """An Avro schema node read as an Iceberg type, and how its decoded values become physical values."""

    type: IcebergType
    value: Callable[[Any], Any]


@implements(RULE)
def read_avro_data(data: bytes, path: str = "") -> tuple[Schema | None, list[dict]]:
    """An Avro data file's Iceberg schema (None without field ids) and its records (Appendix A: Avro).

    Bytes that are no Avro object container file break rule scan.file-format; a schema outside
    Appendix A breaks rule scan.avro-data."""
    try:
        avro = read_avro(data, path)
    except InvalidInput as e:
        raise InvalidInput("scan.file-format", f"{path or 'the file'} is not a readable Avro file: {e}", path) from None
    reader = _SchemaReader(path)
    root = reader.node(avro.schema, "the file's schema")
    if not isinstance(root.type, StructType):
        raise InvalidInput(RULE, f"{reader.path}: an Avro data file's schema is a record", brief(avro.schema))
    if reader.with_id and reader.without_id:
        raise InvalidInput(
            RULE, f"{reader.path}: some fields have field ids and some do not; fields without one", reader.without_id
        )
    rows = [root.value(r) for r in avro.records]
    if not reader.with_id:
        return None, rows
    return Schema.of(*root.type.fields), rows


class _SchemaReader:
    """Appendix A, read side: one file's Avro schema as Iceberg types. Records are keyed by field id,
    or by name when no field carries an id (`without_id` names the fields that lack one)."""

    def __init__(self, path: str):
        self.path = path or "the file"
        self.named: dict[str, Any] = {}  # Avro named types (record, fixed) by name and full name
        self.with_id: list[str] = []
        self.without_id: list[str] = []
        self._synthetic = count(-1, -1)  # ids of a file without ids: never seen by a caller

    def _id(self, obj: dict, key: str, where: str) -> int:
        raw = obj.get(key)
        if raw is None:
            self.without_id.append(where)
            return next(self._synthetic)
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise InvalidInput(RULE, f"{self.path}: {key} of {where} is not an integer", brief(raw))
        self.with_id.append(where)
        return raw

    def _keyed(self, fid: int, name: str) -> Any:
        return name if fid < 0 else fid

    @implements(RULE)
    def node(self, schema: Any, where: str) -> _Node:
        if isinstance(schema, list):
            raise InvalidInput(
                RULE, f"{self.path}: {where} is a union where only a union with null is allowed", brief(schema)
            )
        if isinstance(schema, str):
            if schema in _PRIMITIVES:
                return _Node(_PRIMITIVES[schema], _same)
            if schema in self.named:
                return self.node(self.named[schema], where)
            raise InvalidInput(RULE, f"{self.path}: {where} has the Avro type {schema!r}, outside Appendix A", schema)
        if not isinstance(schema, dict):
            raise InvalidInput(RULE, f"{self.path}: {where} has no Avro type", brief(schema))
        kind, logical = schema.get("type"), schema.get("logicalType")
        if kind in ("record", "fixed"):
            self._name(schema)
        if kind == "record":
            return self.record(schema, where)
        if kind == "array":
            return self.map_array(schema, where) if logical == "map" else self.array(schema, where)
        if kind == "map":
            return self.avro_map(schema, where)
        return self.primitive(schema, where)

    def _name(self, schema: dict) -> None:
        name, namespace = schema.get("name"), schema.get("namespace")
        if isinstance(name, str):
            self.named.setdefault(name, schema)
            if isinstance(namespace, str) and "." not in name:
                self.named.setdefault(f"{namespace}.{name}", schema)

    def optional(self, schema: Any, where: str) -> tuple[Any, bool]:
        """The non-null branch of a union with null and False; the schema itself and True otherwise."""
        if not isinstance(schema, list):
            return schema, True
        others = [s for s in schema if s != "null"]
        if len(schema) != 2 or len(others) != 1:
            raise InvalidInput(
                RULE, f"{self.path}: {where} is a union other than with null (the only one allowed)", brief(schema)
            )
        return others[0], False

    @implements(RULE)
    def record(self, schema: dict, where: str) -> _Node:
        fields, readers = [], []
        for f in schema.get("fields") or []:
            name = f.get("name")
            at = f"{where}.{name}" if where != "the file's schema" else str(name)
            fid = self._id(f, "field-id", at)
            inner, required = self.optional(f.get("type"), at)
            if not required and ("default" not in f or f["default"] is not None):
                raise InvalidInput(
                    RULE, f"{self.path}: {at}: an optional field sets the Avro field default value to null", None
                )
            child = self.node(inner, at)
            fields.append(NestedField(fid, name, child.type, required))
            readers.append((name, self._keyed(fid, name), child.value))

        def value(v: dict | None) -> dict | None:
            if v is None:
                return None
            return {key: _or_none(read, v.get(name)) for name, key, read in readers}

        return _Node(StructType(tuple(fields)), value)

    @implements(RULE)
    def array(self, schema: dict, where: str) -> _Node:
        at = f"{where}.element"
        eid = self._id(schema, "element-id", at)
        inner, required = self.optional(schema.get("items"), at)
        child = self.node(inner, at)

        def value(v: list | None) -> list | None:
            return None if v is None else [_or_none(child.value, x) for x in v]

        return _Node(ListType(eid, child.type, required), value)

    @implements(RULE)
    def avro_map(self, schema: dict, where: str) -> _Node:
        kid, vid = self._id(schema, "key-id", f"{where}.key"), self._id(schema, "value-id", f"{where}.value")
        inner, required = self.optional(schema.get("values"), f"{where}.value")
        child = self.node(inner, f"{where}.value")

        def value(v: dict | None) -> dict | None:
            return None if v is None else {k: _or_none(child.value, x) for k, x in v.items()}

        return _Node(MapType(kid, STRING, vid, child.type, required), value)

    @implements(RULE, "scan.map-keys")
    def map_array(self, schema: dict, where: str) -> _Node:
        items = schema.get("items")
        items = self.named.get(items, items) if isinstance(items, str) else items
        pairs = items.get("fields") if isinstance(items, dict) and items.get("type") == "record" else None
        if not isinstance(pairs, list) or len(pairs) != 2:
            raise InvalidInput(
                RULE, f"{self.path}: {where}: a map stored as an array has 2-field records as elements", brief(items)
            )
        self._name(items)
        kid, vid = self._id(pairs[0], "field-id", f"{where}.key"), self._id(pairs[1], "field-id", f"{where}.value")
        key_schema, key_required = self.optional(pairs[0].get("type"), f"{where}.key")
        if not key_required:
            raise InvalidInput(RULE, f"{self.path}: {where}: the first field of a map record is a non-null key", None)
        key = self.node(key_schema, f"{where}.key")
        inner, required = self.optional(pairs[1].get("type"), f"{where}.value")
        child = self.node(inner, f"{where}.value")
        key_name, value_name = pairs[0].get("name"), pairs[1].get("name")

        def value(v: list | None) -> dict | None:
            if v is None:
                return None
            out = {key.value(p[key_name]): _or_none(child.value, p[value_name]) for p in v}
            if len(out) != len(v):
                raise InvalidInput("scan.map-keys", f"{self.path}: {where}: a map value has duplicate keys", None)
            return out

        return _Node(MapType(kid, key.type, vid, child.type, required), value)

    @implements(RULE)
    def primitive(self, schema: dict, where: str) -> _Node:
        kind, logical = schema.get("type"), schema.get("logicalType")
        t: IcebergType | None = None
        precision, scale, size = schema.get("precision"), schema.get("scale", 0), schema.get("size")
        if logical == "decimal" and kind in ("fixed", "bytes") and _ints(precision, scale):
            t = DecimalType(precision, scale)
        elif kind == "fixed" and _ints(size):
            t = UUID if logical == "uuid" and size == 16 else FixedType(size) if logical is None else None
        elif kind == "int" and logical == "date":
            t = DATE
        elif kind == "long" and logical == "time-micros":
            t = TIME
        elif kind == "long" and logical in ("timestamp-micros", "timestamp-nanos"):
            t = _TIMESTAMPS[(logical, schema.get("adjust-to-utc", False) is True)]
        elif isinstance(kind, str) and kind in _PRIMITIVES and logical is None:
            t = _PRIMITIVES[kind]
        if t is None:
            raise InvalidInput(RULE, f"{self.path}: {where} has an Avro type outside Appendix A", brief(schema))
        if t == UUID or isinstance(t, DecimalType):
            return _Node(t, lambda v, t=t: physical_value(t, v))
        return _Node(t, _same)


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _same(v: Any) -> Any:
    return v


def _or_none(read: Callable[[Any], Any], v: Any) -> Any:
    return None if v is None else read(v)
