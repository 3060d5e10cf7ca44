"""JSON Schemas of table metadata (v1, v2, v3) and view metadata, shipped in vectors/metadata/.

They express what a JSON Schema can: the fields each format version requires, their JSON types,
the shapes of schemas, partition specs, sort orders, snapshots, refs, logs and statistics
(Appendix C; Table Metadata Fields; adopted v3 digest §1.4, §1.7, §5). Cross-field rules (ids
that must exist, sequence numbers, refs agreeing with current-snapshot-id) are beyond a JSON
Schema and are checked by the reference only.
"""

from __future__ import annotations

from typing import Any

from spec_impl.metadata.table_metadata import REQUIRED_FIELDS

_LONG = {"type": "integer"}
_INT = {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1}
_STR = {"type": "string"}
_SIZE = {"type": "integer", "minimum": 0}
_UUID = {"type": "string", "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"}
_STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
_BASE64 = {"type": "string", "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"}


def _obj(required_keys: list[str], /, **properties: Any) -> dict:
    """An object schema; property names are given with `_` for `-`."""
    return {
        "type": "object",
        "required": required_keys,
        "properties": {k.replace("_", "-"): v for k, v in properties.items()},
    }


DEFS: dict[str, Any] = {
    "type": {
        "oneOf": [{"type": "string"}, {"$ref": "#/$defs/struct"}, {"$ref": "#/$defs/list"}, {"$ref": "#/$defs/map"}]
    },
    "field": _obj(
        ["id", "name", "required", "type"],
        id=_INT,
        name=_STR,
        required={"type": "boolean"},
        type={"$ref": "#/$defs/type"},
        doc=_STR,
    ),
    "struct": _obj(
        ["type", "fields"], type={"const": "struct"}, fields={"type": "array", "items": {"$ref": "#/$defs/field"}}
    ),
    "list": _obj(
        ["type", "element-id", "element", "element-required"],
        type={"const": "list"},
        element_id=_INT,
        element={"$ref": "#/$defs/type"},
        element_required={"type": "boolean"},
    ),
    "map": _obj(
        ["type", "key-id", "key", "value-id", "value", "value-required"],
        type={"const": "map"},
        key_id=_INT,
        key={"$ref": "#/$defs/type"},
        value_id=_INT,
        value={"$ref": "#/$defs/type"},
        value_required={"type": "boolean"},
    ),
    "schema": {
        "allOf": [
            {"$ref": "#/$defs/struct"},
            _obj([], schema_id=_INT, identifier_field_ids={"type": "array", "items": _INT}),
        ]
    },
    "source-ids": {"type": "array", "items": _INT, "minItems": 1},
    "partition-field": _obj(
        ["name", "transform"],
        source_id=_INT,
        source_ids={"$ref": "#/$defs/source-ids"},
        field_id=_INT,
        name=_STR,
        transform=_STR,
    ),
    "sort-field": _obj(
        ["transform", "direction", "null-order"],
        source_id=_INT,
        source_ids={"$ref": "#/$defs/source-ids"},
        transform=_STR,
        direction={"enum": ["asc", "desc"]},
        null_order={"enum": ["nulls-first", "nulls-last"]},
    ),
    "sort-order": _obj(
        ["order-id", "fields"], order_id=_INT, fields={"type": "array", "items": {"$ref": "#/$defs/sort-field"}}
    ),
    "snapshot": _obj(
        ["snapshot-id", "timestamp-ms"],
        snapshot_id=_LONG,
        parent_snapshot_id=_LONG,
        sequence_number=_LONG,
        timestamp_ms=_LONG,
        manifest_list=_STR,
        manifests={"type": "array", "items": _STR},
        summary={"allOf": [_STRING_MAP, {"required": ["operation"]}]},
        schema_id=_INT,
        first_row_id=_LONG,
        added_rows=_LONG,
        key_id=_STR,
    ),
    "ref": _obj(
        ["snapshot-id", "type"],
        snapshot_id=_LONG,
        type={"type": "string"},
        min_snapshots_to_keep=_INT,
        max_snapshot_age_ms=_LONG,
        max_ref_age_ms=_LONG,
    ),
    "snapshot-log": {
        "type": "array",
        "items": _obj(["snapshot-id", "timestamp-ms"], snapshot_id=_LONG, timestamp_ms=_LONG),
    },
    "metadata-log": {
        "type": "array",
        "items": _obj(["metadata-file", "timestamp-ms"], metadata_file=_STR, timestamp_ms=_LONG),
    },
    "statistics": {  # "Table Statistics"; snapshot-id a long as the adopted spec corrected it
        "type": "array",
        "items": _obj(
            ["snapshot-id", "statistics-path", "file-size-in-bytes", "file-footer-size-in-bytes", "blob-metadata"],
            snapshot_id=_LONG,
            statistics_path=_STR,
            file_size_in_bytes=_SIZE,
            file_footer_size_in_bytes=_SIZE,
            key_metadata=_STR,
            blob_metadata={
                "type": "array",
                "items": _obj(
                    ["type", "snapshot-id", "sequence-number", "fields"],
                    type=_STR,
                    snapshot_id=_LONG,
                    sequence_number=_LONG,
                    fields={"type": "array", "items": _INT},
                    properties=_STRING_MAP,
                ),
            },
        ),
    },
    "partition-statistics": {  # "Partition Statistics"
        "type": "array",
        "items": _obj(
            ["snapshot-id", "statistics-path", "file-size-in-bytes"],
            snapshot_id=_LONG,
            statistics_path=_STR,
            file_size_in_bytes=_SIZE,
        ),
    },
    "encryption-keys": {
        "type": "array",
        "items": _obj(
            ["key-id", "encrypted-key-metadata"],
            key_id=_STR,
            encrypted_key_metadata=_BASE64,
            encrypted_by_id=_STR,
            properties=_STRING_MAP,
        ),
    },
}

_COMMON = dict(
    table_uuid=_UUID,
    location=_STR,
    last_sequence_number=_LONG,
    last_updated_ms=_LONG,
    last_column_id=_INT,
    schema={"$ref": "#/$defs/schema"},
    schemas={"type": "array", "items": {"$ref": "#/$defs/schema"}},
    current_schema_id=_INT,
    partition_spec={"type": "array", "items": {"$ref": "#/$defs/partition-field"}},
    partition_specs={
        "type": "array",
        "items": _obj(
            ["spec-id", "fields"], spec_id=_INT, fields={"type": "array", "items": {"$ref": "#/$defs/partition-field"}}
        ),
    },
    default_spec_id=_INT,
    last_partition_id=_INT,
    properties=_STRING_MAP,
    current_snapshot_id={"type": ["integer", "null"]},
    snapshots={"type": "array", "items": {"$ref": "#/$defs/snapshot"}},
    snapshot_log={"$ref": "#/$defs/snapshot-log"},
    metadata_log={"$ref": "#/$defs/metadata-log"},
    sort_orders={"type": "array", "items": {"$ref": "#/$defs/sort-order"}},
    default_sort_order_id=_INT,
    refs={
        "anyOf": [{"type": "null"}, {"type": "object", "additionalProperties": {"$ref": "#/$defs/ref"}}]
    },  # may be null
    statistics={"$ref": "#/$defs/statistics"},
    partition_statistics={"$ref": "#/$defs/partition-statistics"},
)


def table_metadata_schema(format_version: int) -> dict:
    """The JSON Schema of a table metadata document of one format version."""
    required = list(REQUIRED_FIELDS[1 if format_version == 1 else 2])
    props: dict[str, Any] = dict(_COMMON, format_version={"const": format_version})
    doc: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"table-metadata-v{format_version}.schema.json",
        "title": f"Iceberg table metadata, format version {format_version}",
        **_obj(required, **props),
        "$defs": DEFS,
    }
    if format_version == 1:  # the deprecated fields or their replacements
        doc["allOf"] = [
            {"anyOf": [{"required": ["schema"]}, {"required": ["schemas", "current-schema-id"]}]},
            {"anyOf": [{"required": ["partition-spec"]}, {"required": ["partition-specs", "default-spec-id"]}]},
        ]
    else:  # snapshots carry manifest lists (sequence-number may be absent on v1 snapshots of an upgraded table)
        doc["properties"]["snapshots"] = {
            "type": "array",
            "items": {"allOf": [{"$ref": "#/$defs/snapshot"}, {"required": ["manifest-list"]}]},
        }
    if format_version == 3:
        doc["required"].append("next-row-id")
        doc["properties"].update({"next-row-id": _LONG, "encryption-keys": {"$ref": "#/$defs/encryption-keys"}})
    return doc


VIEW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "view-metadata.schema.json",
    "title": "Iceberg view metadata (the adopted view spec)",
    **_obj(
        ["view-uuid", "format-version", "location", "schemas", "current-version-id", "versions", "version-log"],
        view_uuid=_UUID,
        format_version={"const": 1},
        location=_STR,
        current_version_id=_INT,
        properties=_STRING_MAP,
        schemas={"type": "array", "items": {"allOf": [{"$ref": "#/$defs/schema"}, {"required": ["schema-id"]}]}},
        versions={
            "type": "array",
            "minItems": 1,
            "items": _obj(
                ["version-id", "schema-id", "timestamp-ms", "summary", "representations", "default-namespace"],
                version_id=_INT,
                schema_id=_INT,
                timestamp_ms=_LONG,
                summary=_STRING_MAP,
                default_catalog={"type": ["string", "null"]},
                default_namespace={"type": "array", "items": _STR},
                representations={"type": "array", "items": _obj(["type"], type=_STR, sql=_STR, dialect=_STR)},
            ),
        },
        version_log={
            "type": "array",
            "items": _obj(["timestamp-ms", "version-id"], timestamp_ms=_LONG, version_id=_INT),
        },
    ),
    "$defs": DEFS,
}

SCHEMA_FILES = {f"table-metadata-v{v}.schema.json": table_metadata_schema(v) for v in (1, 2, 3)}
SCHEMA_FILES["view-metadata.schema.json"] = VIEW_SCHEMA
