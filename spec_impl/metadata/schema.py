"""Table schemas: the model, Appendix C JSON, an index of every field id, and validation.

Spec: "Schemas and Data Types", "Default values", "Identifier Field IDs", "Reserved Field IDs",
Appendix C "Schemas"; the adopted v3 digest §1.1 (defaults of the new types, reserved columns) and
§1.2 (struct defaults). A schema is a struct plus `schema-id` and `identifier-field-ids`.

`parse_schema` reads the JSON shape only; `validate_schema` checks the rules that need the whole
tree (unique and unreserved ids, identifier fields, types and defaults allowed by the format
version). Field defaults stay in their Appendix D JSON form on `NestedField`; `initial_default` /
`write_default` decode them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput, SpecError
from spec_impl.metadata import versions
from spec_impl.rules import Rule, implements, register
from spec_impl.serde.json_value import from_json
from spec_impl.types import (
    ABSENT,
    IcebergType,
    ListType,
    MapType,
    NestedField,
    StructType,
    check_format_version,
    parse_type,
)

_C = "Appendix C: Schemas"
_IDENT = "Identifier Field IDs"
_DEFAULTS = "Default values; Appendix C"
_ADOPTED = revisions.ADOPTED

register(
    Rule(
        "schema.json",
        _C,
        "A schema is a struct JSON object (type 'struct', 'fields'); identifier-field-ids, when present, is a "
        "JSON list of ints",
    ),
    Rule(
        "schema.schema-id", _C, "schema-id is a JSON int: optional in v1 (read as 0 when absent), required in v2 and v3"
    ),
    Rule(
        "schema.field-id.unique",
        "Nested Types",
        "Every field id (struct fields, list elements, map keys and values) is unique in the table schema",
    ),
    Rule(
        "schema.field-id.reserved",
        "Reserved Field IDs",
        "Tables must not use field ids greater than 2147483447 (Integer.MAX_VALUE - 200); the range is reserved "
        "for metadata columns",
    ),
    Rule("schema.identifier.exists", _IDENT, "Each identifier-field-id names a field of the schema"),
    Rule(
        "schema.identifier.collection",
        _IDENT,
        "Identifier fields may be nested in structs but not within maps or lists",
    ),
    Rule("schema.identifier.primitive", _IDENT, "Identifier fields are primitive fields"),
    Rule("schema.identifier.floating", _IDENT, "float and double fields cannot be identifier fields"),
    Rule("schema.identifier.required", _IDENT, "Optional fields cannot be identifier fields"),
    Rule(
        "schema.identifier.optional-struct",
        _IDENT,
        "A field nested in an optional struct cannot be an identifier field",
    ),
    Rule(
        "schema.default.version",
        "Appendix E: Version 3",
        "Default values are added in v3: a v1 or v2 schema has no initial-default or write-default",
    ),
    Rule(
        "schema.default.decode",
        _DEFAULTS,
        "initial-default and write-default are values of the field's type in the Appendix D JSON form",
        (3,),
    ),
    Rule(
        "schema.default.required",
        "Schema Evolution (default values)",
        "A required field's defaults, when set, are not null",
        (3,),
    ),
    Rule(
        "schema.default.struct",
        "adopted 1.2 Default values",
        "A struct field's default is null or {}; sub-field values come from the sub-fields' own defaults",
        (3,),
        _ADOPTED,
    ),
    Rule(
        "schema.default.null-only",
        "adopted 1.1 New types",
        "unknown, variant, geometry and geography fields default to null; a non-null default is invalid",
        (3,),
        _ADOPTED,
    ),
)

# --- reserved ids and metadata columns ------------------------------------------------------------

MAX_TABLE_FIELD_ID = 2**31 - 1 - 200  # 2147483447: larger ids are reserved ("Reserved Field IDs")


@dataclass(frozen=True)
class MetadataColumn:
    """One row of the spec's metadata-column table. `type` is written as in the table; the struct
    columns (`_partition`, `row`) take their fields from the table they are read from."""

    id: int
    name: str
    type: str
    doc: str
    revisions: tuple[str, ...] = revisions.ALL


METADATA_COLUMNS: tuple[MetadataColumn, ...] = (
    MetadataColumn(2147483646, "_file", "string", "Path of the file in which a row is stored"),
    MetadataColumn(2147483645, "_pos", "long", "Ordinal position of a row in the source data file"),
    MetadataColumn(2147483644, "_deleted", "boolean", "Whether the row has been deleted"),
    MetadataColumn(2147483643, "_spec_id", "int", "Spec ID used to track the file containing a row"),
    MetadataColumn(2147483642, "_partition", "struct", "Partition to which a row belongs"),
    MetadataColumn(2147483546, "file_path", "string", "Path of a file, used in position-based delete files"),
    MetadataColumn(2147483545, "pos", "long", "Ordinal position of a row, used in position-based delete files"),
    MetadataColumn(2147483544, "row", "struct<...>", "Deleted row values, used in position-based delete files"),
    MetadataColumn(2147483543, "_change_type", "string", "Change type of a changelog row", _ADOPTED),
    MetadataColumn(2147483542, "_change_ordinal", "int", "Order of a change in a changelog", _ADOPTED),
    MetadataColumn(2147483541, "_commit_snapshot_id", "long", "Snapshot that committed a change", _ADOPTED),
    MetadataColumn(2147483540, "_row_id", "long", "Row lineage: the row's unique id", _ADOPTED),
    MetadataColumn(
        2147483539,
        "_last_updated_sequence_number",
        "long",
        "Row lineage: sequence number of the row's last update",
        _ADOPTED,
    ),
)


def metadata_column(key: int | str, revision: str = revisions.DEFAULT) -> MetadataColumn:
    """The metadata column with this id or name in `revision`; KeyError when there is none."""
    revisions.check(revision)
    for c in METADATA_COLUMNS:
        if key in (c.id, c.name) and revision in c.revisions:
            return c
    raise KeyError(f"no metadata column {key!r} in revision {revision}")


# --- the id index ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexedField:
    """Anything in a schema that carries a field id: a struct field, a list element, a map key or value.

    `kind` is "field", "element", "key" or "value"; `parent_id` is the id of the enclosing struct
    field, element or value (None at the top level); `path` the names from the top level
    ("element", "key", "value" for collection members); `in_collection` whether it is, or lies
    inside, a list element or map key/value; `under_optional` whether an enclosing field, element or
    value is optional; `field` the NestedField for struct fields.
    """

    id: int
    name: str
    type: IcebergType
    required: bool
    kind: str
    parent_id: int | None
    path: tuple[str, ...]
    in_collection: bool
    under_optional: bool
    field: NestedField | None = None

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def walk(t: IcebergType, parent: IndexedField | None = None) -> Iterator[IndexedField]:
    """Every id-carrying member of `t`, depth first, parents before children (duplicates kept)."""
    members: list[tuple[int, str, IcebergType, bool, str, NestedField | None]]
    if isinstance(t, StructType):
        members = [(f.id, f.name, f.type, f.required, "field", f) for f in t.fields]
    elif isinstance(t, ListType):
        members = [(t.element_id, "element", t.element, t.element_required, "element", None)]
    elif isinstance(t, MapType):
        members = [
            (t.key_id, "key", t.key, True, "key", None),
            (t.value_id, "value", t.value, t.value_required, "value", None),
        ]
    else:
        return
    for fid, name, ftype, required, kind, field in members:
        info = IndexedField(
            id=fid,
            name=name,
            type=ftype,
            required=required,
            kind=kind,
            parent_id=None if parent is None else parent.id,
            path=(() if parent is None else parent.path) + (name,),
            in_collection=kind != "field" or (parent is not None and parent.in_collection),
            under_optional=parent is not None and (parent.under_optional or not parent.required),
            field=field,
        )
        yield info
        yield from walk(ftype, info)


# --- the model ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Schema:
    """A table schema (Appendix C): the columns as a struct, its id and identifier fields."""

    struct: StructType
    schema_id: int = 0
    identifier_field_ids: tuple[int, ...] = ()

    @classmethod
    def of(cls, *fields: NestedField, schema_id: int = 0, identifier_field_ids: tuple[int, ...] = ()) -> Schema:
        return cls(StructType(tuple(fields)), schema_id, tuple(identifier_field_ids))

    @property
    def fields(self) -> tuple[NestedField, ...]:
        return self.struct.fields

    @cached_property
    def _index(self) -> dict[int, IndexedField]:
        index: dict[int, IndexedField] = {}
        for info in walk(self.struct):
            index.setdefault(info.id, info)  # the first occurrence; validate_schema rejects duplicates
        return index

    def field_by_id(self, field_id: int) -> IndexedField:
        """The struct field, list element or map key/value with this id; KeyError when absent."""
        try:
            return self._index[field_id]
        except KeyError:
            raise KeyError(f"schema {self.schema_id} has no field id {field_id}") from None

    @property
    def ids(self) -> frozenset[int]:
        """Every field id of the schema, nested element/key/value ids included."""
        return frozenset(self._index)

    def highest_field_id(self) -> int:
        """The largest field id in the schema (0 for a schema without fields)."""
        return max(self._index, default=0)

    def to_json(self, format_version: int) -> dict:
        """Appendix C form. Rejects only what `format_version` cannot hold (v3 types, defaults before
        v3), so invalid schemas can still be written as negative cases. schema-id is always written
        (it is optional only for v1 readers); identifier-field-ids only when there are some."""
        _check_format_version(format_version)
        _check_version_features(self, format_version)
        out: dict[str, Any] = {"type": "struct", "schema-id": self.schema_id}
        if self.identifier_field_ids:
            out["identifier-field-ids"] = list(self.identifier_field_ids)
        out["fields"] = [f.to_json() for f in self.fields]
        return out


@implements("schema.json", "schema.schema-id")
def parse_schema(obj: Any, format_version: int) -> Schema:
    """Read a schema from its Appendix C JSON (the JSON shape only; see `validate_schema`)."""
    _check_format_version(format_version)
    if not isinstance(obj, dict):
        raise InvalidInput("schema.json", "a schema must be a JSON object", obj)
    if obj.get("type") != "struct":
        raise InvalidInput("schema.json", "a schema is a struct: its 'type' must be 'struct'", obj.get("type"))
    struct = parse_type(obj)
    assert isinstance(struct, StructType)
    if "schema-id" not in obj:
        if format_version >= 2:
            raise InvalidInput("schema.schema-id", f"schema-id is required in format v{format_version}", obj)
        schema_id = 0
    else:
        schema_id = obj["schema-id"]
        if not _is_int(schema_id):
            raise InvalidInput("schema.schema-id", "schema-id must be a JSON int", schema_id)
    ids = obj.get("identifier-field-ids", [])
    if not isinstance(ids, list) or not all(_is_int(i) for i in ids):
        raise InvalidInput("schema.json", "identifier-field-ids must be a JSON list of ints", ids)
    return Schema(struct, schema_id, tuple(ids))


# --- defaults -------------------------------------------------------------------------------------

NULL_DEFAULT_TYPES = frozenset({"unknown", "variant", "geometry", "geography"})


def initial_default(field: NestedField) -> Any:
    """The decoded `initial-default` of `field` (None when absent or null)."""
    return _decode_default(field, "initial-default", field.initial_default)


def write_default(field: NestedField) -> Any:
    """The decoded `write-default` of `field` (None when absent or null)."""
    return _decode_default(field, "write-default", field.write_default)


@implements("schema.default.decode")
def _decode_default(field: NestedField, key: str, raw: Any) -> Any:
    if raw is ABSENT or raw is None:
        return None
    try:
        return from_json(field.type, raw)
    except SpecError as e:
        raise InvalidInput(
            "schema.default.decode", f"field {field.id} ({field.name}): {key} is not a {field.type} value: {e}", raw
        ) from None


@implements("schema.default.null-only", "schema.default.required", "schema.default.struct")
def _check_defaults(info: IndexedField, revision: str) -> None:
    field = info.field
    assert field is not None
    for key, raw in (("initial-default", field.initial_default), ("write-default", field.write_default)):
        if raw is ABSENT:
            continue
        where = f"field {field.id} ({info.dotted}): {key}"
        name = getattr(field.type, "name", None)
        if revisions.has(revision, revisions.V3_ADOPTED) and name in NULL_DEFAULT_TYPES and raw is not None:
            raise InvalidInput(
                "schema.default.null-only", f"{where}: a {field.type} field can only default to null", raw
            )
        if (
            revisions.has(revision, revisions.V3_ADOPTED)
            and isinstance(field.type, StructType)
            and raw not in (None, {})
        ):
            raise InvalidInput("schema.default.struct", f"{where}: a struct default must be null or {{}}", raw)
        _decode_default(field, key, raw)
        if raw is None and field.required:
            raise InvalidInput("schema.default.required", f"{where}: a required field's default cannot be null", raw)


# --- validation -----------------------------------------------------------------------------------


@implements("schema.field-id.reserved", "schema.field-id.unique")
def validate_schema(
    schema: Schema, format_version: int, revision: str = revisions.DEFAULT, *, allow_metadata_columns: bool = False
) -> None:
    """Raise InvalidInput naming the first rule `schema` breaks in a table of `format_version`.

    `allow_metadata_columns` admits the reserved ids of the metadata columns (with their names),
    as in read schemas and delete-file schemas; table schemas never use them.
    """
    _check_format_version(format_version)
    revisions.check(revision)
    seen: dict[int, IndexedField] = {}
    for info in walk(schema.struct):
        if info.id in seen:
            raise InvalidInput(
                "schema.field-id.unique",
                f"field id {info.id} is used by both {seen[info.id].dotted} and {info.dotted}",
                info.id,
            )
        seen[info.id] = info
        if info.id > MAX_TABLE_FIELD_ID and not (allow_metadata_columns and _is_metadata_column(info, revision)):
            raise InvalidInput(
                "schema.field-id.reserved",
                f"field {info.dotted} has id {info.id} > {MAX_TABLE_FIELD_ID}, which is reserved",
                info.id,
            )
    _check_version_features(schema, format_version)
    for info in walk(schema.struct):
        if info.field is not None:
            _check_defaults(info, revision)
    for fid in schema.identifier_field_ids:
        _check_identifier(schema, fid)


@implements("schema.default.version", "type.version")
def _check_version_features(schema: Schema, format_version: int) -> None:
    """Types added by a later format version (type.version); defaults before v3."""
    for info in walk(schema.struct):
        if not isinstance(info.type, (StructType, ListType, MapType)):
            try:
                check_format_version(info.type, format_version)
            except InvalidInput as e:
                raise InvalidInput("type.version", f"field {info.id} ({info.dotted}): {e}", str(info.type)) from None
        field = info.field
        if field is not None and format_version < 3:
            for key, raw in (("initial-default", field.initial_default), ("write-default", field.write_default)):
                if raw is not ABSENT:
                    where = f"field {field.id} ({info.dotted}) has a {key}"
                    raise InvalidInput(
                        "schema.default.version",
                        f"{where}: defaults need format v3, the table is v{format_version}",
                        raw,
                    )


@implements(
    "schema.identifier.collection",
    "schema.identifier.exists",
    "schema.identifier.floating",
    "schema.identifier.optional-struct",
    "schema.identifier.primitive",
    "schema.identifier.required",
)
def _check_identifier(schema: Schema, fid: int) -> None:
    try:
        info = schema.field_by_id(fid)
    except KeyError:
        raise InvalidInput(
            "schema.identifier.exists", f"identifier field id {fid} is not a field of the schema", fid
        ) from None
    where = f"identifier field {fid} ({info.dotted})"
    if info.in_collection:
        raise InvalidInput("schema.identifier.collection", f"{where} is nested in a list or map", fid)
    if not info.type.is_primitive:
        raise InvalidInput("schema.identifier.primitive", f"{where} has the non-primitive type {info.type}", fid)
    if getattr(info.type, "name", None) in ("float", "double"):
        raise InvalidInput("schema.identifier.floating", f"{where} has type {info.type}", fid)
    if not info.required:
        raise InvalidInput("schema.identifier.required", f"{where} is optional", fid)
    if info.under_optional:
        raise InvalidInput("schema.identifier.optional-struct", f"{where} is nested in an optional struct", fid)


def _is_metadata_column(info: IndexedField, revision: str) -> bool:
    try:
        return metadata_column(info.id, revision).name == info.name and info.kind == "field"
    except KeyError:
        return False


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@implements("table.format-version")
def _check_format_version(format_version: int) -> int:
    """A caller's format version, checked (rule table.format-version)."""
    return versions.check_format_version(format_version)
