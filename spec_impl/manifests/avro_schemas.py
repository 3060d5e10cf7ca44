"""The Avro schemas of manifest lists (`manifest_file`) and manifests (`manifest_entry`, `data_file`)
for format versions 1, 2 and 3, kept as data transcribed from the spec's tables.

Spec: "Manifest Lists" (manifest_file, field_summary), "Manifests" (manifest_entry, data_file),
adopted v3 digest §1.4–1.5 and §3 (first_row_id 520 and 142, referenced_data_file 143,
content_offset 144, content_size_in_bytes 145; distinct_counts 111 not written in v3).

Each row is (field id, name, type, requirement per version) where the requirement is "required",
"optional" or None (not written). Iceberg maps are Avro arrays of key/value records with the
`map` logical type, as the spec's Appendix A prescribes.
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, register, implements

register(
    Rule(
        "manifest.avro-schema",
        "Manifest Lists; Manifests; adopted 1.4, 1.5",
        "The Avro schemas of manifest_file, manifest_entry and data_file per format version: field ids, names, "
        "types, and which fields are required, optional or not written",
    ),
)

R, O, N = "required", "optional", None
# (id, name, type, (v1, v2, v3))
FIELD_SUMMARY = [
    (509, "contains_null", "boolean", (R, R, R)),
    (518, "contains_nan", "boolean", (O, O, O)),
    (510, "lower_bound", "bytes", (O, O, O)),
    (511, "upper_bound", "bytes", (O, O, O)),
]
MANIFEST_FILE = [
    (500, "manifest_path", "string", (R, R, R)),
    (501, "manifest_length", "long", (R, R, R)),
    (502, "partition_spec_id", "int", (R, R, R)),
    (517, "content", "int", (N, R, R)),
    (515, "sequence_number", "long", (N, R, R)),
    (516, "min_sequence_number", "long", (N, R, R)),
    (503, "added_snapshot_id", "long", (R, R, R)),
    (504, "added_files_count", "int", (O, R, R)),
    (505, "existing_files_count", "int", (O, R, R)),
    (506, "deleted_files_count", "int", (O, R, R)),
    (512, "added_rows_count", "long", (O, R, R)),
    (513, "existing_rows_count", "long", (O, R, R)),
    (514, "deleted_rows_count", "long", (O, R, R)),
    (507, "partitions", ("list", 508, "field_summary"), (O, O, O)),
    (519, "key_metadata", "bytes", (O, O, O)),
    (520, "first_row_id", "long", (N, N, O)),
]
DATA_FILE = [
    (134, "content", "int", (N, R, R)),
    (100, "file_path", "string", (R, R, R)),
    (101, "file_format", "string", (R, R, R)),
    (102, "partition", "partition", (R, R, R)),
    (103, "record_count", "long", (R, R, R)),
    (104, "file_size_in_bytes", "long", (R, R, R)),
    (105, "block_size_in_bytes", "long", (R, N, N)),
    (106, "file_ordinal", "int", (N, N, N)),  # "Deprecated. Do not write." (optional to read in v1)
    (107, "sort_columns", ("list", 112, "int"), (N, N, N)),  # "Deprecated. Do not write."
    (108, "column_sizes", ("map", 117, "int", 118, "long"), (O, O, O)),
    (109, "value_counts", ("map", 119, "int", 120, "long"), (O, O, O)),
    (110, "null_value_counts", ("map", 121, "int", 122, "long"), (O, O, O)),
    (137, "nan_value_counts", ("map", 138, "int", 139, "long"), (O, O, O)),
    (111, "distinct_counts", ("map", 123, "int", 124, "long"), (O, O, N)),
    (125, "lower_bounds", ("map", 126, "int", 127, "bytes"), (O, O, O)),
    (128, "upper_bounds", ("map", 129, "int", 130, "bytes"), (O, O, O)),
    (131, "key_metadata", "bytes", (O, O, O)),
    (132, "split_offsets", ("list", 133, "long"), (O, O, O)),
    (135, "equality_ids", ("list", 136, "int"), (N, O, O)),
    (140, "sort_order_id", "int", (O, O, O)),
    (142, "first_row_id", "long", (N, N, O)),
    (143, "referenced_data_file", "string", (N, O, O)),
    (144, "content_offset", "long", (N, N, O)),
    (145, "content_size_in_bytes", "long", (N, N, O)),
]
# The data_file fields that map a column id to a metric (108-111, 125, 128): what a plan or a
# history of many files leaves out when it keeps each file (`without_column_metrics`).
COLUMN_METRICS = tuple(name for field_id, name, _, _ in DATA_FILE if field_id in (108, 109, 110, 111, 125, 128, 137))


def without_column_metrics(data_file: dict) -> dict:
    """A data_file without its per-column metric maps (`COLUMN_METRICS`)."""
    return {k: v for k, v in data_file.items() if k not in COLUMN_METRICS}


MANIFEST_ENTRY = [
    (0, "status", "int", (R, R, R)),
    (1, "snapshot_id", "long", (R, O, O)),
    (3, "sequence_number", "long", (N, O, O)),
    (4, "file_sequence_number", "long", (N, O, O)),
    (2, "data_file", "data_file", (R, R, R)),
]


@implements("manifest.avro-schema")
def _check(format_version: int) -> int:
    if format_version not in (1, 2, 3):
        raise InvalidInput("manifest.avro-schema", "manifests exist for format versions 1, 2 and 3", format_version)
    return format_version - 1


def _avro_type(t: Any, format_version: int, partition: dict) -> Any:
    if isinstance(t, str):
        if t == "field_summary":
            return record("r508", FIELD_SUMMARY, format_version, partition)
        if t == "data_file":
            return record("r2", DATA_FILE, format_version, partition)
        if t == "partition":
            return partition
        return t
    if t[0] == "list":
        _, element_id, element = t
        return {"type": "array", "element-id": element_id, "items": _avro_type(element, format_version, partition)}
    _, key_id, key, value_id, value = t
    entry = {
        "type": "record",
        "name": f"k{key_id}_v{value_id}",
        "fields": [
            {"name": "key", "type": key, "field-id": key_id},
            {"name": "value", "type": value, "field-id": value_id},
        ],
    }
    return {"type": "array", "logicalType": "map", "items": entry}


def record(name: str, rows: list, format_version: int, partition: dict | None = None) -> dict:
    """An Avro record of the rows written in `format_version`; optional fields are unions with null."""
    i = _check(format_version)
    partition = partition or {"type": "record", "name": "r102", "fields": []}
    fields = []
    for field_id, field_name, t, requirement in rows:
        if requirement[i] is None:
            continue
        avro = _avro_type(t, format_version, partition)
        if requirement[i] == O:
            fields.append({"name": field_name, "type": ["null", avro], "default": None, "field-id": field_id})
        else:
            fields.append({"name": field_name, "type": avro, "field-id": field_id})
    return {"type": "record", "name": name, "fields": fields}


@implements("manifest.avro-schema")
def manifest_list_schema(format_version: int) -> dict:
    """The Avro schema of a manifest list of `format_version` (rule manifest.avro-schema)."""
    return record("manifest_file", MANIFEST_FILE, format_version)


def manifest_schema(format_version: int, partition_fields: list[dict] | None = None) -> dict:
    """The Avro schema of a manifest: manifest_entry with data_file and its partition struct
    (`partition_fields`: Avro fields of the partition tuple, each with its partition field id)."""
    partition = {"type": "record", "name": "r102", "fields": partition_fields or []}
    return record("manifest_entry", MANIFEST_ENTRY, format_version, partition)
