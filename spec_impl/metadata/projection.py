"""Column projection: reading the records of a data file with the table's read schema.

Spec: "Column Projection", Appendix C "Name Mapping Serialization", "Default values"; adopted
digest §1.2 (the order in which a missing field is filled).

Records are dicts. In a file with field ids they are keyed by field id, nested structs likewise;
lists are Python lists and maps dicts from key to value. `project` returns records keyed by the
read schema's ids, in the read schema's order, every read field present (None for null):

- a read field is taken from the file column with the same id in the same struct, whatever its
  name or position there (renames and reorders);
- a file column whose id is not in the read schema is dropped;
- a read field missing from the file is filled with, in order: the identity-partition value
  (`partition_values[field id]`, adopted revision only), its decoded `initial-default`, null. A
  struct default's sub-fields come from the sub-fields' own defaults. A required field that ends
  up null is an error;
- a file column of another type is promoted to the read type when the promotion is valid.

A file **without field ids** is given as `file_schema=None` with records keyed by the file's
column names (nested struct records keyed by name too) and a `name_mapping`: names are resolved to
ids level by level through the mapping; names it does not map, or maps without a `field-id`, are
dropped. The file's types are then taken to be the read schema's (no promotion).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata.schema import Schema, initial_default
from spec_impl.promotion import can_promote
from spec_impl.rules import Rule, implements, register
from spec_impl.temporal import MICROS_PER_DAY
from spec_impl.types import ABSENT, IcebergType, ListType, MapType, NestedField, PrimitiveType, StructType
from spec_impl.values import LONG_RANGE

_P = "Column Projection"
_NM = "Appendix C: Name Mapping Serialization; Column Projection"

register(
    Rule(
        "projection.by-id",
        _P,
        "Columns are selected by field id within each struct: renames and reorders follow the read schema; file "
        "columns not in it are dropped; list element and map key/value ids must match",
    ),
    Rule("projection.missing.null", _P, "A field id missing from a data file reads as null"),
    Rule(
        "projection.missing.default",
        "Default values",
        "A field missing from a data file reads as its initial-default; a struct default's missing sub-fields "
        "read as their own defaults",
        (3,),
    ),
    Rule(
        "projection.missing.partition",
        "adopted 1.2 Default values",
        "A field missing from a data file reads as its identity-partition value first, then the column the name "
        "mapping gives it in a file without field ids, then initial-default, then null",
        revisions=revisions.ADOPTED,
    ),
    Rule(
        "projection.required",
        _P,
        "A required read field missing from a file, with no default or partition value, cannot be read",
    ),
    Rule(
        "projection.promotion",
        "Schema Evolution; adopted 1.1 Type promotion",
        "A file column of another type is read only through a valid promotion (int to long, float to double, "
        "decimal widening; v3 adopted: date to timestamp/timestamp_ns, unknown to any); out-of-range results fail; "
        "a read field of type unknown reads as null whatever file column it has",
    ),
    Rule(
        "name-mapping.json",
        _NM,
        "A name mapping is a JSON list of objects with 'names' (a list of strings), optional 'field-id' (an int) "
        "and optional nested 'fields'",
    ),
    Rule(
        "name-mapping.unique-names",
        _NM,
        "A name appears at most once among the field mappings of one level (otherwise the fallback id is ambiguous)",
    ),
    Rule(
        "name-mapping.lookup",
        _NM,
        "Names are literal (a '.' is part of the name); any listed name maps to the field-id; mappings without "
        "field-id are ignored; children (struct fields, 'element', 'key', 'value') map under 'fields'",
    ),
)

# --- name mapping ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MappedField:
    """One field mapping: the names a column may have in files, its fallback id, its children."""

    names: tuple[str, ...]
    field_id: int | None = None
    fields: tuple[MappedField, ...] = ()

    def child(self, name: str) -> MappedField | None:
        return _lookup(self.fields, name)

    def to_json(self) -> dict:
        out: dict[str, Any] = {} if self.field_id is None else {"field-id": self.field_id}
        out["names"] = list(self.names)
        if self.fields:
            out["fields"] = [f.to_json() for f in self.fields]
        return out


@dataclass(frozen=True)
class NameMapping:
    """The `schema.name-mapping.default` table property, parsed."""

    fields: tuple[MappedField, ...]

    def find(self, *names: str) -> MappedField | None:
        """The mapping at this path of literal names (no splitting on '.'), or None."""
        level, found = self.fields, None
        for name in names:
            found = _lookup(level, name)
            if found is None:
                return None
            level = found.fields
        return found

    def to_json(self) -> list:
        return [f.to_json() for f in self.fields]


@implements("name-mapping.json")
def parse_name_mapping(obj: Any) -> NameMapping:
    """Read a name mapping from its JSON list (or the JSON text of the table property)."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as e:
            raise InvalidInput("name-mapping.json", f"the name mapping is not valid JSON: {e}", obj) from None
    return NameMapping(_parse_level(obj, ()))


@implements("name-mapping.json", "name-mapping.unique-names")
def _parse_level(obj: Any, path: tuple[str, ...]) -> tuple[MappedField, ...]:
    where = "/".join(path) or "the top level"
    if not isinstance(obj, list):
        raise InvalidInput("name-mapping.json", f"field mappings at {where} must be a JSON list", obj)
    fields = tuple(_parse_field(f, path) for f in obj)
    seen: set[str] = set()
    for f in fields:
        for name in f.names:
            if name in seen:
                raise InvalidInput("name-mapping.unique-names", f"name {name!r} is mapped twice at {where}", name)
            seen.add(name)
    return fields


@implements("name-mapping.json")
def _parse_field(obj: Any, path: tuple[str, ...]) -> MappedField:
    if not isinstance(obj, dict):
        raise InvalidInput("name-mapping.json", "a field mapping must be a JSON object", obj)
    if "field_id" in obj and "field-id" not in obj:
        raise InvalidInput(
            "name-mapping.json",
            "the key is spelled 'field-id' (the spec's field table says 'field_id'; "
            "its example and readers use 'field-id')",
            obj,
        )
    names = obj.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidInput("name-mapping.json", "'names' is required and must be a JSON list of strings", obj)
    field_id = obj.get("field-id")
    if field_id is not None and (not isinstance(field_id, int) or isinstance(field_id, bool)):
        raise InvalidInput("name-mapping.json", "'field-id' must be a JSON int", field_id)
    children = obj.get("fields")
    nested = () if children is None else _parse_level(children, path + (names[0] if names else "?",))
    return MappedField(tuple(names), field_id, nested)


def _lookup(level: tuple[MappedField, ...], name: str) -> MappedField | None:
    for f in level:
        if name in f.names:
            return f
    return None


# --- promotion of values --------------------------------------------------------------------------

_NANOS_PER_DAY = MICROS_PER_DAY * 1_000


@implements("projection.promotion")
def promote_value(
    value: Any, source: IcebergType, target: IcebergType, format_version: int = 3, revision: str = revisions.DEFAULT
) -> Any:
    """A value of `source` read as `target`: identical for an equal type, else through a valid promotion."""
    if value is None or source == target:
        return value
    if not can_promote(source, target, format_version, revision):
        message = f"a {source} column cannot be read as {target} (format v{format_version}, {revision})"
        raise InvalidInput("projection.promotion", message, str(source))
    src, dst = source.name, target.name  # type: ignore[attr-defined]
    if src == "unknown":
        return None
    if src == "date":
        result = value * (MICROS_PER_DAY if dst == "timestamp" else _NANOS_PER_DAY)
        if not LONG_RANGE[0] <= result <= LONG_RANGE[1]:
            raise InvalidInput("projection.promotion", f"date {value} (days) is out of the range of {target}", value)
        return result
    return value  # int -> long, float -> double and decimal widening keep the Python value


# --- projection -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    partition_values: dict[int, Any]
    format_version: int
    revision: str


@implements("name-mapping.lookup")
def project(
    rows: list[dict],
    file_schema: Schema | None,
    read_schema: Schema,
    name_mapping: Any = None,
    partition_values: dict[int, Any] | None = None,
    *,
    format_version: int = 3,
    revision: str = revisions.DEFAULT,
) -> list[dict]:
    """Read `rows` of a data file written with `file_schema` as records of `read_schema`.

    `file_schema=None` means the file has no field ids (see the module docstring); `name_mapping`
    (a NameMapping or its JSON) is then required and is otherwise not used. `partition_values`
    maps source field ids of identity partition fields to the file's partition values.
    """
    revisions.check(revision)
    ctx = _Context(dict(partition_values or {}), format_version, revision)
    if file_schema is None:
        if name_mapping is None:
            raise InvalidInput("name-mapping.lookup", "a file without field ids needs a name mapping", None)
        mapping = name_mapping if isinstance(name_mapping, NameMapping) else parse_name_mapping(name_mapping)
        present: set[int] = set()
        rows = [_struct_by_names(read_schema.struct, r, mapping.fields, present) for r in rows]
        file_struct = _prune(read_schema.struct, _mapped_without_partition_values(present, ctx))
    else:
        file_struct = file_schema.struct
    return [_struct(read_schema.struct, file_struct, r, ctx) for r in rows]


@implements("projection.missing.partition")
def _mapped_without_partition_values(present: set[int], ctx: _Context) -> set[int]:
    """Adopted §1.2: "use the identity-partition value, then the name mapping": in a file without
    field ids, a field with an identity-partition value is not read from the column mapped to it."""
    if not revisions.has(ctx.revision, revisions.V3_ADOPTED):
        return present
    return present - set(ctx.partition_values)


@implements("projection.by-id")
def _struct(read: StructType, file: StructType, record: dict, ctx: _Context) -> dict:
    if not isinstance(record, dict):
        raise InvalidInput(
            "projection.by-id", f"a struct record must be a dict keyed by field id, not {type(record).__name__}", record
        )
    in_file = {f.id: f for f in file.fields}
    out = {}
    for f in read.fields:
        if f.id in in_file:
            out[f.id] = _value(f.type, in_file[f.id].type, record.get(f.id), ctx, f"field {f.id} ({f.name})")
        else:
            out[f.id] = _missing(f, ctx)
    return out


@implements("projection.promotion")
def _value(read: IcebergType, file: IcebergType, value: Any, ctx: _Context, where: str) -> Any:
    if value is None or getattr(read, "name", None) == "unknown":
        return None  # adopted 1.1, unknown: "Readers ignore any file column and return null"
    if isinstance(read, StructType):
        return _struct(read, _same_kind(read, file, StructType, where), value, ctx)
    if isinstance(read, ListType):
        fl = _same_kind(read, file, ListType, where)
        _same_id(read.element_id, fl.element_id, "list element", where)
        return [_value(read.element, fl.element, v, ctx, f"{where} element") for v in value]
    if isinstance(read, MapType):
        fm = _same_kind(read, file, MapType, where)
        _same_id(read.key_id, fm.key_id, "map key", where)
        _same_id(read.value_id, fm.value_id, "map value", where)
        return {
            _value(read.key, fm.key, k, ctx, f"{where} key"): _value(read.value, fm.value, v, ctx, f"{where} value")
            for k, v in value.items()
        }
    if not isinstance(file, PrimitiveType):
        raise InvalidInput(
            "projection.promotion", f"{where}: a {_kind(file)} file column cannot be read as {read}", str(file)
        )
    return promote_value(value, file, read, ctx.format_version, ctx.revision)


@implements(
    "projection.missing.default", "projection.missing.null", "projection.missing.partition", "projection.required"
)
def _missing(field: NestedField, ctx: _Context) -> Any:
    """The value of a read field that the file does not have (adopted digest §1.2 order)."""
    if revisions.has(ctx.revision, revisions.V3_ADOPTED) and field.id in ctx.partition_values:
        return ctx.partition_values[field.id]
    if field.initial_default is not ABSENT and field.initial_default is not None:
        value = initial_default(field)
        if isinstance(field.type, StructType):
            return {f.id: value[f.id] if f.id in value else _missing(f, ctx) for f in field.type.fields}
        return value
    if field.required:
        message = f"required field {field.id} ({field.name}) is missing from the file and has no initial-default"
        raise InvalidInput("projection.required", message, field.id)
    return None


@implements("projection.promotion")
def _same_kind(read: IcebergType, file: IcebergType, kind: type, where: str) -> Any:
    if not isinstance(file, kind):
        raise InvalidInput(
            "projection.promotion", f"{where}: a {_kind(file)} file column cannot be read as a {_kind(read)}", str(file)
        )
    return file


@implements("projection.by-id")
def _same_id(read_id: int, file_id: int, what: str, where: str) -> None:
    if read_id != file_id:
        raise InvalidInput(
            "projection.by-id",
            f"{where}: the {what} has id {read_id} in the read schema but {file_id} in the file",
            file_id,
        )


def _kind(t: IcebergType) -> str:
    return {StructType: "struct", ListType: "list", MapType: "map"}.get(type(t), str(t))


# --- files without field ids ----------------------------------------------------------------------


@implements("name-mapping.lookup")
def _struct_by_names(read: StructType, record: dict, level: tuple[MappedField, ...], present: set[int]) -> dict:
    """A name-keyed record as an id-keyed one: each file name resolved through the mapping level."""
    if not isinstance(record, dict):
        message = f"a record of a file without ids must be a dict keyed by name, not {type(record).__name__}"
        raise InvalidInput("name-mapping.lookup", message, record)
    by_id = {f.id: f for f in read.fields}
    out: dict[int, Any] = {}
    source: dict[int, str] = {}
    for name, value in record.items():
        mapped = _lookup(level, name)
        if mapped is None or mapped.field_id is None or mapped.field_id not in by_id:
            continue  # not mapped, mapped without an id, or not in the read schema: dropped
        fid = mapped.field_id
        if fid in source:
            raise InvalidInput(
                "name-mapping.lookup", f"file columns {source[fid]!r} and {name!r} both map to field id {fid}", name
            )
        source[fid] = name
        present.add(fid)
        out[fid] = _value_by_names(by_id[fid].type, value, mapped, present)
    return out


def _value_by_names(t: IcebergType, value: Any, mapped: MappedField, present: set[int]) -> Any:
    if value is None:
        return None
    if isinstance(t, StructType):
        return _struct_by_names(t, value, mapped.fields, present)
    if isinstance(t, ListType):
        return [_value_by_names(t.element, v, _child(mapped, "element"), present) for v in value]
    if isinstance(t, MapType):
        key_map, value_map = _child(mapped, "key"), _child(mapped, "value")
        return {
            _value_by_names(t.key, k, key_map, present): _value_by_names(t.value, v, value_map, present)
            for k, v in value.items()
        }
    return value


def _child(mapped: MappedField, name: str) -> MappedField:
    """The 'element' / 'key' / 'value' mapping; an empty one (no nested names) when not given."""
    return mapped.child(name) or MappedField((name,))


def _prune(read: StructType, present: set[int]) -> StructType:
    """The read struct restricted to the ids found in the file: the file schema of an id-less file."""
    return StructType(tuple(_prune_field(f, present) for f in read.fields if f.id in present))


def _prune_field(f: NestedField, present: set[int]) -> NestedField:
    return NestedField(f.id, f.name, _prune_type(f.type, present), f.required)


def _prune_type(t: IcebergType, present: set[int]) -> IcebergType:
    if isinstance(t, StructType):
        return _prune(t, present)
    if isinstance(t, ListType):
        return ListType(t.element_id, _prune_type(t.element, present), t.element_required)
    if isinstance(t, MapType):
        return MapType(
            t.key_id, _prune_type(t.key, present), t.value_id, _prune_type(t.value, present), t.value_required
        )
    return t
