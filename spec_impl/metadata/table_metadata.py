"""Table metadata: reading v1/v2/v3 documents with the Appendix E defaults, validating them,
and the normalized reading every reader must see (vectors/README.md, "metadata/").

Spec: "Table Metadata Fields", Appendix C ("Table Metadata and Snapshots"), Appendix E; adopted
v3 digest §1.4 (next-row-id), §1.7 (encryption-keys), §3 (gzip-compressed metadata files).
Schemas, partition specs, sort orders, snapshots and refs are parsed by their own modules.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata import json_document, partitioning, sorting
from spec_impl.metadata import schema as schemas_mod
from spec_impl.metadata import snapshots as snaps
from spec_impl.metadata import statistics as statistics_entries
from spec_impl.metadata.encryption import check_encryption_key, check_snapshot_key_ids
from spec_impl.metadata.last_updated import check_last_updated
from spec_impl.metadata.versions import MAX_FORMAT_VERSION, check_format_version
from spec_impl.rules import Rule, implements, register

SECTION = "Table Metadata Fields; Appendix C; Appendix E"

register(
    Rule(
        "table.required-field",
        SECTION,
        "The fields a version requires: v1 location, last-updated-ms, last-column-id, schema, partition-spec; v2 "
        "adds table-uuid, last-sequence-number, schemas, current-schema-id, partition-specs, default-spec-id, "
        "last-partition-id, sort-orders, default-sort-order-id; v3 adds next-row-id",
    ),
    Rule(
        "table.field-type", SECTION, "Each field has the JSON type of Appendix C (ints, longs, strings, lists, objects)"
    ),
    Rule(
        "table.v1-defaults",
        "Appendix E: Reading v1 metadata for v2",
        "Reading v1: last-sequence-number 0; schemas from schema, partition-specs from partition-spec (field ids "
        "from 1000), sort-orders the unsorted order",
        (1,),
    ),
    Rule(
        "table.deprecated-ignored",
        "Table Metadata Fields",
        "schema and partition-spec are ignored when schemas and partition-specs are present",
    ),
    Rule(
        "table.table-uuid",
        "Table Metadata Fields",
        "table-uuid is a UUID string; required (not null) from v2, optional in v1",
    ),
    Rule("table.current-schema", "Table Metadata Fields", "current-schema-id names a schema of schemas"),
    Rule("table.default-spec", "Table Metadata Fields", "default-spec-id names a spec of partition-specs"),
    Rule("table.default-sort-order", "Table Metadata Fields", "default-sort-order-id names an order of sort-orders"),
    Rule("table.last-column-id", "Table Metadata Fields", "last-column-id is at least every field id of every schema"),
    Rule(
        "table.last-partition-id",
        "Table Metadata Fields",
        "last-partition-id is at least every partition field id of every spec",
        (2, 3),
    ),
    Rule("table.unique-ids", "Table Metadata Fields", "schema ids, spec ids and sort order ids are unique"),
    Rule(
        "table.encryption-keys",
        "adopted 1.7 Encryption",
        "encryption-keys entries have a string key-id and base64 encrypted-key-metadata; encrypted-by-id, when "
        "present, is a string and properties a string map",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "table.statistics",
        "Table Statistics; Partition Statistics",
        "statistics entries have snapshot-id (long), statistics-path (string), file-size-in-bytes and "
        "file-footer-size-in-bytes (long), optional key-metadata (string) and blob-metadata (list); "
        "partition-statistics entries have snapshot-id, statistics-path and file-size-in-bytes",
    ),
    Rule(
        "table.logs",
        "Table Metadata Fields",
        "snapshot-log entries have snapshot-id and timestamp-ms; metadata-log entries metadata-file and timestamp-ms",
    ),
    Rule(
        "table.gzip",
        "adopted 3 Table metadata",
        "A metadata file may be gzip-compressed JSON",
        (1, 2, 3),
        revisions.ADOPTED,
    ),
)

REQUIRED_FIELDS = {  # the fields each format version requires (Table Metadata Fields; adopted 1.8)
    1: ("format-version", "location", "last-updated-ms", "last-column-id"),
    2: (
        "format-version",
        "table-uuid",
        "location",
        "last-sequence-number",
        "last-updated-ms",
        "last-column-id",
        "schemas",
        "current-schema-id",
        "partition-specs",
        "default-spec-id",
        "last-partition-id",
        "sort-orders",
        "default-sort-order-id",
    ),
}
REQUIRED_FIELDS[3] = REQUIRED_FIELDS[2] + ("next-row-id",)


@dataclass(frozen=True)
class TableMetadata:
    """A table metadata document as read, with the Appendix E defaults applied."""

    format_version: int
    table_uuid: str | None
    location: str
    last_sequence_number: int
    last_updated_ms: int
    last_column_id: int
    schemas: tuple
    current_schema_id: int
    specs: tuple
    default_spec_id: int
    last_partition_id: int
    sort_orders: tuple
    default_sort_order_id: int
    properties: dict = field(default_factory=dict)
    current_snapshot_id: int | None = None
    snapshots: tuple = ()
    refs: dict = field(default_factory=dict)
    snapshot_log: tuple = ()
    metadata_log: tuple = ()
    statistics: tuple = ()
    partition_statistics: tuple = ()
    next_row_id: int | None = None
    encryption_keys: tuple = ()


@implements("json.document", "table.field-type", "table.gzip")
def read_metadata_file(data: bytes, revision: str = revisions.DEFAULT) -> TableMetadata:
    """Read a metadata file's bytes: plain JSON, or (adopted v3, rule table.gzip) gzip-compressed JSON.

    The JSON is read strictly (rule json.document): no NaN/Infinity tokens, no duplicate keys,
    bounded size and nesting; see `spec_impl.metadata.json_document` for the reasons."""
    if not isinstance(data, (bytes, bytearray)):
        raise InvalidInput("table.field-type", "a metadata file is bytes", type(data).__name__)
    revisions.check(revision)
    if data[:2] == b"\x1f\x8b":
        if not revisions.has(revision, revisions.V3_ADOPTED):
            raise InvalidInput("table.gzip", "gzip-compressed metadata is a rule of the adopted spec only", revision)
        data = json_document.gunzip(data, "the gzip-compressed metadata file", "table.gzip")
    return parse_table_metadata(
        json_document.loads(data, "the metadata file", syntax_rule="table.field-type"), revision
    )


@implements("table.field-type", "table.required-field", "table.table-uuid")
def parse_table_metadata(doc: Any, revision: str = revisions.DEFAULT) -> TableMetadata:
    """Read a table metadata JSON object, validate it, and apply the defaults of its version."""
    revisions.check(revision)
    if not isinstance(doc, dict):
        raise InvalidInput("table.field-type", "table metadata is a JSON object", type(doc).__name__)
    json_document.check_depth(doc, "the table metadata")
    fv = _format_version(doc)
    for key in REQUIRED_FIELDS[fv]:
        if key not in doc or doc[key] is None:
            rule = (
                "table.table-uuid" if key == "table-uuid" and key in doc else "table.required-field"
            )  # a null uuid: not invented
            raise InvalidInput(rule, f"format v{fv} requires {key!r} (not null)", key)
    table_uuid = _uuid(doc.get("table-uuid"))
    schemas, current_schema_id = _schemas(doc, fv, revision)
    specs, default_spec_id = _specs(doc, fv, revision)
    orders, default_order_id = _sort_orders(doc, fv, revision)
    last_partition_id = _int(
        doc, "last-partition-id", default=max((f.field_id for s in specs for f in s.fields), default=999)
    )
    snapshot_list = tuple(snaps.parse_snapshot(s, fv, revision) for s in _list(doc, "snapshots"))
    current = snaps.parse_current_snapshot_id(doc.get("current-snapshot-id"))
    refs = snaps.resolve_refs(doc.get("refs"), current, fv)
    md = TableMetadata(
        format_version=fv,
        table_uuid=table_uuid,
        location=_str(doc, "location"),
        last_sequence_number=_int(doc, "last-sequence-number", default=0),
        last_updated_ms=_int(doc, "last-updated-ms"),
        last_column_id=_int(doc, "last-column-id"),
        schemas=schemas,
        current_schema_id=current_schema_id,
        specs=specs,
        default_spec_id=default_spec_id,
        last_partition_id=last_partition_id,
        sort_orders=orders,
        default_sort_order_id=default_order_id,
        properties=_properties(doc),
        current_snapshot_id=current,
        snapshots=snapshot_list,
        refs=refs,
        snapshot_log=snaps.parse_snapshot_log(doc.get("snapshot-log")),
        metadata_log=_log(doc, "metadata-log", "metadata-file"),
        statistics=tuple(_list(doc, "statistics")),
        partition_statistics=tuple(_list(doc, "partition-statistics")),
        next_row_id=_int(doc, "next-row-id", default=None) if fv >= 3 else None,
        encryption_keys=tuple(_list(doc, "encryption-keys")),
    )
    _validate(md, revision)
    return md


# --- field readers -----------------------------------------------------------------------------


def _format_version(doc: dict) -> int:
    return check_format_version(doc.get("format-version"))


@implements("table.field-type", "table.required-field")
def _int(doc: dict, key: str, default: Any = ...) -> Any:
    if key not in doc or doc[key] is None:
        if default is ...:
            raise InvalidInput("table.required-field", f"missing {key!r}", key)
        return default
    v = doc[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise InvalidInput("table.field-type", f"{key!r} must be a JSON integer", v)
    return v


@implements("table.field-type")
def _str(doc: dict, key: str) -> str:
    v = doc.get(key)
    if not isinstance(v, str):
        raise InvalidInput("table.field-type", f"{key!r} must be a JSON string", v)
    return v


@implements("table.field-type")
def _list(doc: dict, key: str) -> list:
    v = doc.get(key)
    if v is None:
        return []
    if not isinstance(v, list):
        raise InvalidInput("table.field-type", f"{key!r} must be a JSON list", v)
    return v


def _uuid(v: Any) -> str | None:
    if v is None:
        return None
    try:
        return str(uuid.UUID(v)) if isinstance(v, str) and len(v) == 36 else _bad_uuid(v)
    except ValueError:
        return _bad_uuid(v)


@implements("table.table-uuid")
def _bad_uuid(v: Any) -> str:
    raise InvalidInput("table.table-uuid", "table-uuid must be a UUID string (8-4-4-4-12 hex digits)", v)


@implements("table.field-type")
def _properties(doc: dict) -> dict:
    props = doc.get("properties") or {}
    if not isinstance(props, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in props.items()):
        raise InvalidInput("table.field-type", "properties must map strings to strings", props)
    return dict(props)


@implements("table.deprecated-ignored", "table.required-field", "table.v1-defaults")
def _schemas(doc: dict, fv: int, revision: str) -> tuple[tuple, int]:
    """schemas + current-schema-id, or (v1) the deprecated schema as schema 0 (rule table.v1-defaults)."""
    if doc.get("schemas") is not None:
        parsed = tuple(schemas_mod.parse_schema(s, fv) for s in _list(doc, "schemas"))
        current = _int(doc, "current-schema-id")
    else:
        if "schema" not in doc:
            raise InvalidInput("table.required-field", "v1 metadata needs 'schema' when 'schemas' is absent", "schema")
        only = schemas_mod.parse_schema(doc["schema"], fv)
        parsed, current = (only,), only.schema_id
    for s in parsed:
        schemas_mod.validate_schema(s, fv, revision)
    return parsed, current


@implements("table.deprecated-ignored", "table.required-field")
def _specs(doc: dict, fv: int, revision: str) -> tuple[tuple, int]:
    """partition-specs + default-spec-id, or (v1) partition-spec as spec 0 with field ids from 1000."""
    if doc.get("partition-specs") is not None:
        specs = tuple(partitioning.parse_partition_spec(s, fv, revision) for s in _list(doc, "partition-specs"))
        return specs, _int(doc, "default-spec-id")
    if "partition-spec" not in doc:
        raise InvalidInput(
            "table.required-field",
            "v1 metadata needs 'partition-spec' when 'partition-specs' is absent",
            "partition-spec",
        )
    return (partitioning.parse_partition_fields(_list(doc, "partition-spec"), fv, revision=revision),), 0


def _sort_orders(doc: dict, fv: int, revision: str) -> tuple[tuple, int]:
    if doc.get("sort-orders") is None:
        return (sorting.UNSORTED,), 0
    orders = tuple(sorting.parse_sort_order(o, fv, revision) for o in _list(doc, "sort-orders"))
    return orders, _int(doc, "default-sort-order-id", default=0)


@implements("table.logs")
def _log(doc: dict, key: str, ref_key: str) -> tuple:
    entries = _list(doc, key)
    for e in entries:
        if not isinstance(e, dict) or ref_key not in e or not isinstance(e.get("timestamp-ms"), int):
            raise InvalidInput("table.logs", f"{key} entries need {ref_key!r} and an integer 'timestamp-ms'", e)
    return tuple(entries)


# --- cross-field rules -------------------------------------------------------------------------


@implements(
    "table.current-schema",
    "table.default-sort-order",
    "table.default-spec",
    "table.encryption-keys",
    "table.last-column-id",
    "table.last-partition-id",
)
def _validate(md: TableMetadata, revision: str) -> None:
    _unique("schema", [s.schema_id for s in md.schemas])
    _unique("partition spec", [s.spec_id for s in md.specs])
    _unique("sort order", [o.order_id for o in md.sort_orders])
    if md.current_schema_id not in {s.schema_id for s in md.schemas}:
        raise InvalidInput("table.current-schema", "current-schema-id names no schema", md.current_schema_id)
    if md.default_spec_id not in {s.spec_id for s in md.specs}:
        raise InvalidInput("table.default-spec", "default-spec-id names no partition spec", md.default_spec_id)
    if md.default_sort_order_id not in {o.order_id for o in md.sort_orders}:
        raise InvalidInput(
            "table.default-sort-order", "default-sort-order-id names no sort order", md.default_sort_order_id
        )
    highest = max((s.highest_field_id() for s in md.schemas), default=0)
    if md.last_column_id < highest:
        raise InvalidInput(
            "table.last-column-id", f"last-column-id {md.last_column_id} is below field id {highest}", md.last_column_id
        )
    highest_partition = max((f.field_id for s in md.specs for f in s.fields), default=None)  # none assigned: no bound
    if md.format_version >= 2 and highest_partition is not None and md.last_partition_id < highest_partition:
        raise InvalidInput(
            "table.last-partition-id",
            f"last-partition-id {md.last_partition_id} is below partition field id {highest_partition}",
            md.last_partition_id,
        )
    if md.format_version >= 3 and revisions.has(revision, revisions.V3_ADOPTED):
        for key in md.encryption_keys:
            check_encryption_key(key)
        check_snapshot_key_ids(md.snapshots, md.encryption_keys)
    snaps.validate_snapshots(
        md.snapshots,
        md.refs,
        md.last_sequence_number,
        md.format_version,
        snapshot_log=md.snapshot_log,
        next_row_id=md.next_row_id,
        revision=revision,
    )
    check_last_updated(md.last_updated_ms, md.snapshot_log, md.metadata_log, md.snapshots)
    sequence_numbers = {s.snapshot_id: s.sequence_number for s in md.snapshots}
    statistics_entries.check_statistics(md.statistics, md.partition_statistics, sequence_numbers, revision)


@implements("table.unique-ids")
def _unique(what: str, ids: list[int]) -> None:
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise InvalidInput("table.unique-ids", f"{what} ids must be unique", dupes)


# --- the normalized reading --------------------------------------------------------------------


def normalized(md: TableMetadata, revision: str = revisions.DEFAULT) -> dict:
    """What a reader must see, in the one form of vectors/README.md ("metadata/")."""
    return {
        "format-version": md.format_version,
        "table-uuid": md.table_uuid,
        "location": md.location,
        "last-sequence-number": md.last_sequence_number,
        "last-updated-ms": md.last_updated_ms,
        "last-column-id": md.last_column_id,
        "current-schema-id": md.current_schema_id,
        "schemas": [_normal_schema(s) for s in md.schemas],
        "default-spec-id": md.default_spec_id,
        "partition-specs": [_normal_spec(s) for s in md.specs],
        "last-partition-id": md.last_partition_id,
        "default-sort-order-id": md.default_sort_order_id,
        "sort-orders": [_normal_order(o) for o in md.sort_orders],
        "properties": dict(md.properties),
        "current-snapshot-id": md.current_snapshot_id,
        "snapshots": [_normal_snapshot(s) for s in md.snapshots],
        "refs": {name: _normal_ref(r) for name, r in sorted(md.refs.items())},
        "snapshot-log": [e.to_json() for e in md.snapshot_log],
        "metadata-log": list(md.metadata_log),
        "next-row-id": md.next_row_id,
    }


def _normal_schema(s) -> dict:
    out = s.to_json(3)
    out.setdefault("identifier-field-ids", [])
    return out


def _normal_spec(spec) -> dict:
    return {
        "spec-id": spec.spec_id,
        "fields": [
            {"source-ids": list(f.source_ids), "field-id": f.field_id, "name": f.name, "transform": str(f.transform)}
            for f in spec.fields
        ],
    }


def _normal_order(order) -> dict:
    return {
        "order-id": order.order_id,
        "fields": [
            {
                "source-ids": list(f.source_ids),
                "transform": str(f.transform),
                "direction": f.direction,
                "null-order": f.null_order,
            }
            for f in order.fields
        ],
    }


def _normal_snapshot(s) -> dict:
    return {
        "snapshot-id": s.snapshot_id,
        "parent-snapshot-id": s.parent_snapshot_id,
        "sequence-number": s.sequence_number,
        "timestamp-ms": s.timestamp_ms,
        "manifest-list": s.manifest_list,
        "summary": None if s.summary is None else dict(s.summary),
        "schema-id": s.schema_id,
        "first-row-id": s.first_row_id,
        "added-rows": s.added_rows,
        "key-id": s.key_id,
    }


def _normal_ref(r) -> dict:
    return {
        "snapshot-id": r.snapshot_id,
        "type": r.type,
        "min-snapshots-to-keep": r.min_snapshots_to_keep,
        "max-snapshot-age-ms": r.max_snapshot_age_ms,
        "max-ref-age-ms": r.max_ref_age_ms,
    }


# --- writing -----------------------------------------------------------------------------------

register(
    Rule(
        "table.writer",
        "Appendix E: Writing v1 / v2 / v3 metadata",
        "Each version writes what it requires and omits what it must not: v1 writes schema and partition-spec "
        "and no last-sequence-number; v2 and v3 omit schema and partition-spec; v3 writes next-row-id",
    ),
)


@implements("table.writer")
def write_table_metadata(
    md: TableMetadata, format_version: int | None = None, revision: str = revisions.DEFAULT
) -> dict:
    """The metadata document a writer of `format_version` (default: the table's) produces (rule table.writer).

    v1 writes the deprecated `schema` and `partition-spec` (the current ones) beside their
    replacements, and no `last-sequence-number`; v2 and v3 omit the deprecated fields (Appendix E
    "should be omitted"); only v3 writes `next-row-id`. Upgrading (writing v2 metadata for a
    table read as v1) is allowed; downgrading is not.
    """
    fv = md.format_version if format_version is None else format_version
    if fv < md.format_version or not 1 <= fv <= MAX_FORMAT_VERSION:
        raise InvalidInput("table.writer", f"cannot write format v{fv} metadata for a v{md.format_version} table", fv)
    current_schema = next(s for s in md.schemas if s.schema_id == md.current_schema_id)
    default_spec = next(s for s in md.specs if s.spec_id == md.default_spec_id)
    doc: dict[str, Any] = {"format-version": fv}
    if md.table_uuid is not None or fv >= 2:
        doc["table-uuid"] = md.table_uuid or str(uuid.uuid4())
    doc["location"] = md.location
    if fv >= 2:
        doc["last-sequence-number"] = md.last_sequence_number
    doc.update({"last-updated-ms": md.last_updated_ms, "last-column-id": md.last_column_id})
    if fv == 1:
        doc["schema"] = current_schema.to_json(fv)
    doc.update({"schemas": [s.to_json(fv) for s in md.schemas], "current-schema-id": md.current_schema_id})
    if fv == 1:
        doc["partition-spec"] = default_spec.fields_to_json(fv, revision)
    doc.update(
        {
            "partition-specs": [s.to_json(fv, revision) for s in md.specs],
            "default-spec-id": md.default_spec_id,
            "last-partition-id": md.last_partition_id,
            "default-sort-order-id": md.default_sort_order_id,
            "sort-orders": [o.to_json(fv, revision) for o in md.sort_orders],
            "properties": dict(md.properties),
            "current-snapshot-id": snaps.current_snapshot_id_to_json(md.current_snapshot_id, fv),
            "refs": snaps.refs_to_json(md.refs),
            "snapshots": [s.to_json(fv, revision) for s in md.snapshots],
            "snapshot-log": [e.to_json() for e in md.snapshot_log],
            "metadata-log": list(md.metadata_log),
        }
    )
    for key, value in (("statistics", md.statistics), ("partition-statistics", md.partition_statistics)):
        if value:
            doc[key] = list(value)
    if fv >= 3:
        doc["next-row-id"] = md.next_row_id if md.next_row_id is not None else 0
        if md.encryption_keys:
            doc["encryption-keys"] = list(md.encryption_keys)
    return doc
