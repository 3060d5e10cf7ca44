"""The operations of the content-file and file-scan-task JSON vectors (`spec_impl.manifests.content_file_json`),
computed by the reference.

- parse-content-file: input keys: schema (Appendix C, the table's), specs (the table's partition specs), json (a
  content file's JSON object); output: {"spec-id", "data-file": the manifest data_file it serializes}
- write-content-file: input keys: schema, spec (the file's partition spec), data-file; output: the JSON object
- parse-file-scan-task: input keys: task (a file scan task's JSON object), format-version; output: {"schema",
  "spec" (as that version writes them), "data-file" and "delete-files" (each as parse-content-file answers),
  "residual-filter" (Iceberg's expression JSON, values in vector form)}

The data_file form: the manifest's field names; `content` 0, 1 or 2; `partition` an object keyed by partition field
id (as a string) with values in vector form; `column_sizes`, `value_counts`, `null_value_counts`, `nan_value_counts`
objects keyed by column id; `lower_bounds`, `upper_bounds` the same with lowercase hex; `key_metadata` lowercase hex;
`split_offsets`, `equality_ids`, `sort_order_id` as in the manifest; absent optional fields left out.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from spec_impl.errors import InvalidInput
from spec_impl.expressions import predicates as P
from spec_impl.manifests import content_file_json as cf
from spec_impl.metadata.partitioning import PartitionSpec, parse_partition_spec, partition_type
from spec_impl.metadata.schema import Schema, parse_schema
from spec_impl.types import StructType
from spec_impl.ops.encoding import decode, encode

_FORMAT = 3  # the table's schema and specs of a content-file case are read as v3 writes them (every type)
_MAPS = tuple(field for _, field in cf.COUNT_MAPS)
_BOUNDS = tuple(field for _, field in cf.BOUND_MAPS)


def _table(inp: dict) -> tuple[StructType, dict[int, PartitionSpec]]:
    schema = parse_schema(inp["schema"], _FORMAT)
    specs = [parse_partition_spec(s, _FORMAT) for s in inp["specs"]]
    return schema.struct, {s.spec_id: s for s in specs}


def _vector_form(data_file: dict, ptype: StructType) -> dict:
    """A data_file record in the vectors' form (see the module docstring)."""
    out = dict(data_file)
    types = {f.id: f.type for f in ptype.fields}
    out["partition"] = {str(k): encode(types[k], v) for k, v in data_file["partition"].items()}
    for field in _MAPS:
        if field in out:
            out[field] = {str(k): v for k, v in out[field].items()}
    for field in _BOUNDS:
        if field in out:
            out[field] = {str(k): v.hex() for k, v in out[field].items()}
    if "key_metadata" in out:
        out["key_metadata"] = out["key_metadata"].hex()
    return out


def _record(obj: dict, ptype: StructType) -> dict:
    """The inverse of `_vector_form`."""
    out = dict(obj)
    types = {str(f.id): f for f in ptype.fields}
    out["partition"] = {types[k].id: decode(types[k].type, v) for k, v in obj.get("partition", {}).items()}
    for field in _MAPS:
        if field in out:
            out[field] = {int(k): v for k, v in out[field].items()}
    for field in _BOUNDS:
        if field in out:
            out[field] = {int(k): bytes.fromhex(v) for k, v in out[field].items()}
    if "key_metadata" in out:
        out["key_metadata"] = bytes.fromhex(out["key_metadata"])
    return out


def _parsed(spec_id: int, data_file: dict, specs: dict[int, PartitionSpec], schema: StructType) -> dict:
    return {"spec-id": spec_id, "data-file": _vector_form(data_file, partition_type(specs[spec_id], schema))}


def _parse_content_file(inp: dict, revision: str) -> dict:
    schema, specs = _table(inp)
    spec_id, data_file = cf.content_file_from_json(inp["json"], specs, schema)
    return _parsed(spec_id, data_file, specs, schema)


def _write_content_file(inp: dict, revision: str) -> dict:
    schema = parse_schema(inp["schema"], _FORMAT).struct
    spec = parse_partition_spec(inp["spec"], _FORMAT)
    return cf.content_file_to_json(_record(inp["data-file"], partition_type(spec, schema)), spec, schema)


def _residual(obj: Any, schema: Schema) -> Any:
    """A residual filter bound to the task's schema (its top-level columns), in expression JSON."""
    from spec_impl.ops.planning_ops import parse_predicate, predicate_json

    types = P.column_types(schema.struct)
    try:
        return predicate_json(parse_predicate(obj, types), types)
    except InvalidInput as e:
        raise InvalidInput(
            "file-scan-task.json", f"residual-filter is an expression on the schema ({e})", obj
        ) from None


def _parse_file_scan_task(inp: dict, revision: str) -> dict:
    fv = inp["format-version"]
    task = cf.file_scan_task_from_json(inp["task"], fv, _residual)
    schema, spec = task["schema"], task["spec"]
    specs = {spec.spec_id: spec}
    return {
        "schema": schema.to_json(fv),
        "spec": spec.to_json(fv),
        "data-file": _parsed(*task["data-file"], specs, schema.struct),
        "delete-files": [_parsed(i, f, specs, schema.struct) for i, f in task["delete-files"]],
        "residual-filter": task["residual-filter"],
    }


CONTENT_FILE_OPS: dict[str, Callable[[dict, str], Any]] = {
    "parse-content-file": _parse_content_file,
    "write-content-file": _write_content_file,
    "parse-file-scan-task": _parse_file_scan_task,
}

INPUT_KEYS = {
    "parse-content-file": ["schema", "specs", "json"],
    "write-content-file": ["schema", "spec", "data-file"],
    "parse-file-scan-task": ["task", "format-version"],
}
