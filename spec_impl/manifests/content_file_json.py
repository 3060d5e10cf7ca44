"""The JSON forms of a content file (data or delete file) and of a file scan task.

Spec: "Content File (Data and Delete) Serialization" and "File Scan Task Serialization" (the forms
the REST scan-planning protocol exchanges). A content file is a JSON object of the manifest's
data_file fields in kebab case:

- spec-id (int), content (DATA, POSITION_DELETES, EQUALITY_DELETES for 0, 1, 2), file-path,
  file-format, record-count, file-size-in-bytes: the entry's required values (rule content-file.json,
  content-file.json.content);
- partition: the Appendix D JSON struct of the partition tuple, keyed by the partition field ids
  of the spec named by spec-id (rule content-file.json.partition);
- column-sizes, value-counts, null-value-counts, nan-value-counts: maps from column id to count as
  `{"keys": [...], "values": [...]}`; lower-bounds, upper-bounds: the same with the Appendix D
  binary bounds as hexadecimal strings; key-metadata: hexadecimal (rule content-file.json.bounds);
- split-offsets, equality-ids, sort-order-id: as in the manifest.

A file scan task is an object of schema, spec, data-file, delete-files and residual-filter (rule
file-scan-task.json). The spec does not say which keys are required: the reference requires those
that carry a manifest's required field (and, in a task, schema, spec and data-file) and leaves the
rest optional. Hexadecimal is read in either case (the section's example writes "0A000000",
Appendix D "000102ff") and written in lowercase; keys the tables do not list are ignored.

The manifest side is the data_file record in dict form: `content`, `file_path`, `file_format`,
`partition` ({partition field id: value}), `record_count`, `file_size_in_bytes`, the maps as
{column id: value} (bounds as bytes), `key_metadata` (bytes), `split_offsets`, `equality_ids`,
`sort_order_id`; absent optional fields are left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from spec_impl.errors import InvalidInput, SpecError
from spec_impl.metadata.partitioning import PartitionSpec, parse_partition_spec, partition_type
from spec_impl.metadata.schema import Schema, parse_schema
from spec_impl.rules import Rule, implements, register
from spec_impl.serde import json_value
from spec_impl.types import StructType

_CF = "Content File (Data and Delete) Serialization"
register(
    Rule(
        "content-file.json",
        _CF,
        "A content file is a JSON object of the table's fields: spec-id, content, file-path, file-format, "
        "partition, record-count and file-size-in-bytes, and the optional metrics maps, key-metadata, "
        "split-offsets, equality-ids and sort-order-id, each of its JSON type; it pairs one-to-one with the "
        "manifest entry's data_file",
    ),
    Rule(
        "content-file.json.content",
        _CF,
        "content is the JSON string DATA, POSITION_DELETES or EQUALITY_DELETES (manifest content 0, 1, 2)",
    ),
    Rule(
        "content-file.json.partition",
        _CF,
        "partition is the partition data tuple as a JSON object keyed by the partition field ids of the file's "
        "spec, each value in its Appendix D JSON form",
    ),
    Rule(
        "content-file.json.bounds",
        _CF,
        "lower-bounds and upper-bounds map column ids to the bound's binary serialized as a hexadecimal string, "
        '{"keys": [...], "values": [...]}; key-metadata is hexadecimal too',
    ),
    Rule(
        "file-scan-task.json",
        "File Scan Task Serialization",
        "A file scan task is a JSON object of schema, spec, data-file (a content file), delete-files (a list "
        "of content files) and residual-filter (an expression)",
    ),
)

CONTENT = {"DATA": 0, "POSITION_DELETES": 1, "EQUALITY_DELETES": 2}
FORMATS = ("AVRO", "ORC", "PARQUET", "PUFFIN")
COUNT_MAPS = (
    ("column-sizes", "column_sizes"),
    ("value-counts", "value_counts"),
    ("null-value-counts", "null_value_counts"),
    ("nan-value-counts", "nan_value_counts"),
)
BOUND_MAPS = (("lower-bounds", "lower_bounds"), ("upper-bounds", "upper_bounds"))
INT_LISTS = (("split-offsets", "split_offsets"), ("equality-ids", "equality_ids"))
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
_RULE = "content-file.json"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(doc: dict, key: str, rule_id: str = _RULE, *, required: bool = True) -> int | None:
    if key not in doc or doc[key] is None:
        if required:
            raise InvalidInput(rule_id, f"{key} is required", doc)
        return None
    if not _is_int(doc[key]):
        raise InvalidInput(rule_id, f"{key} must be a JSON integer", doc[key])
    return doc[key]


def _string(doc: dict, key: str) -> str:
    if not isinstance(doc.get(key), str):
        raise InvalidInput(_RULE, f"{key} is a required JSON string", doc.get(key))
    return doc[key]


@implements("content-file.json.bounds")
def _unhex(text: Any, what: str) -> bytes:
    """A binary value from its hexadecimal string (either case)."""
    if not isinstance(text, str) or not _HEX.fullmatch(text):
        raise InvalidInput("content-file.json.bounds", f"{what} must be a hexadecimal string", text)
    return bytes.fromhex(text)


def _pairs(obj: Any, key: str, rule_id: str) -> list[tuple[int, Any]]:
    if not isinstance(obj, dict) or not isinstance(obj.get("keys"), list) or not isinstance(obj.get("values"), list):
        raise InvalidInput(rule_id, f'{key} is a JSON object {{"keys": [...], "values": [...]}}', obj)
    keys, values = obj["keys"], obj["values"]
    if len(keys) != len(values) or not all(_is_int(k) for k in keys) or len(set(keys)) != len(keys):
        raise InvalidInput(rule_id, f"{key}: as many distinct integer column ids as values", obj)
    return list(zip(keys, values))


def _spec_for(doc: dict, specs: dict[int, PartitionSpec]) -> PartitionSpec:
    spec_id = _int(doc, "spec-id")
    if spec_id not in specs:
        raise InvalidInput(_RULE, f"spec-id {spec_id} names no partition spec of the table", spec_id)
    return specs[spec_id]


@implements("content-file.json.partition")
def _partition_from_json(obj: Any, ptype: StructType) -> dict[int, Any]:
    """The partition tuple from its JSON object keyed by partition field id."""
    if not isinstance(obj, dict):
        raise InvalidInput("content-file.json.partition", "partition is a JSON object keyed by field id", obj)
    ids = {str(f.id) for f in ptype.fields}
    if not set(obj) <= ids:  # a field left out is null, as in any Appendix D struct
        raise InvalidInput(
            "content-file.json.partition", f"partition is keyed by the partition field ids {sorted(ids)}", obj
        )
    try:
        return json_value.from_json(ptype, obj)
    except SpecError as e:
        raise InvalidInput(
            "content-file.json.partition", f"a partition value is not its JSON form ({e})", obj
        ) from None


@implements("content-file.json", "content-file.json.content")
def content_file_from_json(doc: Any, specs: dict[int, PartitionSpec], schema: StructType) -> tuple[int, dict]:
    """(spec id, data_file record) of a content file's JSON object."""
    if not isinstance(doc, dict):
        raise InvalidInput(_RULE, "a content file is a JSON object", doc)
    spec = _spec_for(doc, specs)
    if doc.get("content") not in CONTENT:
        raise InvalidInput(
            "content-file.json.content", "content is DATA, POSITION_DELETES or EQUALITY_DELETES", doc.get("content")
        )
    file_format = _string(doc, "file-format")
    if file_format.upper() not in FORMATS:
        raise InvalidInput(_RULE, f"file-format is one of {FORMATS}", file_format)
    if "partition" not in doc:
        raise InvalidInput("content-file.json.partition", "partition is required", doc)
    out: dict[str, Any] = {
        "content": CONTENT[doc["content"]],
        "file_path": _string(doc, "file-path"),
        "file_format": file_format,
        "partition": _partition_from_json(doc["partition"], partition_type(spec, schema)),
        "record_count": _int(doc, "record-count"),
        "file_size_in_bytes": _int(doc, "file-size-in-bytes"),
    }
    for key, field in COUNT_MAPS:
        if doc.get(key) is not None:
            pairs = _pairs(doc[key], key, _RULE)
            if not all(_is_int(v) for _, v in pairs):
                raise InvalidInput(_RULE, f"{key} values are JSON integers", doc[key])
            out[field] = dict(pairs)
    for key, field in BOUND_MAPS:
        if doc.get(key) is not None:
            out[field] = {k: _unhex(v, key) for k, v in _pairs(doc[key], key, "content-file.json.bounds")}
    if doc.get("key-metadata") is not None:
        out["key_metadata"] = _unhex(doc["key-metadata"], "key-metadata")
    for key, field in INT_LISTS:
        if doc.get(key) is not None:
            if not isinstance(doc[key], list) or not all(_is_int(v) for v in doc[key]):
                raise InvalidInput(_RULE, f"{key} is a JSON list of integers", doc[key])
            out[field] = list(doc[key])
    sort_order_id = _int(doc, "sort-order-id", required=False)
    if sort_order_id is not None:
        out["sort_order_id"] = sort_order_id
    return spec.spec_id, out


def _map_json(values: dict[int, Any], encode) -> dict:
    keys = sorted(values)
    return {"keys": keys, "values": [encode(values[k]) for k in keys]}


@implements("content-file.json", "content-file.json.content", "content-file.json.partition")
def content_file_to_json(data_file: dict, spec: PartitionSpec, schema: StructType) -> dict:
    """The JSON object of a data_file record written under `spec`."""
    names = {v: k for k, v in CONTENT.items()}
    out: dict[str, Any] = {
        "spec-id": spec.spec_id,
        "content": names[data_file.get("content", 0)],
        "file-path": data_file["file_path"],
        "file-format": data_file["file_format"],
        "partition": json_value.to_json(partition_type(spec, schema), data_file["partition"]),
        "record-count": data_file["record_count"],
        "file-size-in-bytes": data_file["file_size_in_bytes"],
    }
    for key, field in COUNT_MAPS:
        if data_file.get(field) is not None:
            out[key] = _map_json(data_file[field], int)
    for key, field in BOUND_MAPS:
        if data_file.get(field) is not None:
            out[key] = _map_json(data_file[field], bytes.hex)
    if data_file.get("key_metadata") is not None:
        out["key-metadata"] = data_file["key_metadata"].hex()
    for key, field in INT_LISTS:
        if data_file.get(field) is not None:
            out[key] = list(data_file[field])
    if data_file.get("sort_order_id") is not None:
        out["sort-order-id"] = data_file["sort_order_id"]
    return out


@implements("file-scan-task.json")
def file_scan_task_from_json(
    doc: Any,
    format_version: int,
    parse_filter: Callable[[Any, Schema], Any],
    table_specs: Iterable[PartitionSpec] = (),
) -> dict[str, Any]:
    """The parts of a file scan task's JSON object: {"schema", "spec", "data-file" and "delete-files"
    as (spec id, data_file record), "residual-filter" as `parse_filter` reads it (default true)}.

    Its content files are read with its own spec; a delete file of another spec (a global equality
    delete) needs the table's specs, `table_specs`."""
    if not isinstance(doc, dict):
        raise InvalidInput("file-scan-task.json", "a file scan task is a JSON object", doc)
    for key in ("schema", "spec", "data-file"):
        if not isinstance(doc.get(key), dict):
            raise InvalidInput("file-scan-task.json", f"{key} is a required JSON object", doc.get(key))
    deletes = doc.get("delete-files", [])
    if not isinstance(deletes, list):
        raise InvalidInput("file-scan-task.json", "delete-files is a JSON list of content files", deletes)
    schema = parse_schema(doc["schema"], format_version)
    spec = parse_partition_spec(doc["spec"], format_version)
    specs = {s.spec_id: s for s in table_specs} | {spec.spec_id: spec}
    data = content_file_from_json(doc["data-file"], {spec.spec_id: spec}, schema.struct)
    if data[1]["content"] != 0:
        raise InvalidInput("file-scan-task.json", "data-file is a content file of content DATA", doc["data-file"])
    delete_files = [content_file_from_json(d, specs, schema.struct) for d in deletes]
    if any(f["content"] == 0 for _, f in delete_files):
        raise InvalidInput("file-scan-task.json", "delete-files hold delete files only", deletes)
    return {
        "schema": schema,
        "spec": spec,
        "data-file": data,
        "delete-files": delete_files,
        "residual-filter": parse_filter(doc.get("residual-filter", True), schema),
    }
