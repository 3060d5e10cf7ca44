"""The operations that metadata vectors exercise, computed by the reference (see value_ops.py for values).

- read-table-metadata: input keys: document; output: the normalized reading (vectors/README.md)
- read-metadata-file: input keys: file-base64 (the file's bytes; gzip allowed); output: the normalized reading
- write-table-metadata: input keys: document, format-version? (upgrade); output: the document as that version's writer
  writes it
- read-view-metadata: input keys: document; output: the view as the revision writes it, absent optional values spelled
  out
- view-findings: input keys: document (view metadata); output: sorted rule ids of the writer findings of the file's
  history (version ids, versions kept, version log); view.version-log-current is a should, the others musts
- parse-schema: input keys: schema, format-version; output: the schema JSON as the version writes it
- check-evolution: input keys: from, to, format-version, last-column-id?, partition-specs?; output: sorted rule ids of
  the violations ([] = allowed)
- project: input keys: file-schema (null: no field ids), read-schema, rows, name-mapping?, partition-values?; output:
  rows as struct JSON of the read schema
- parse-name-mapping: input keys: mapping; output: the mapping JSON
- parse-partition-spec: input keys: spec, format-version, schema?; output: the spec JSON as the version writes it
- assign-partition-field-ids: input keys: spec, existing-specs, last-partition-id, format-version; output: {"spec",
  "last-partition-id"}
- partition-spec-findings: input keys: spec, previous? (v1 evolution), format-version; output: sorted rule ids of writer
  violations and v1 warnings
- partition-type: input keys: specs, schema; output: the (unified, for several specs) partition struct type
- partition-values-equal: input keys: a, b, type (the partition struct); output: true / false
- parse-sort-order: input keys: order, format-version, schema?; output: the sort order JSON
- sort-values: input keys: type, values, direction?, null-order?; output: the values in the spec's order
- parse-snapshot: input keys: snapshot, format-version; output: the snapshot JSON as the version writes it
- inherit-manifest-entries: input keys: manifest (a manifest-list row), entries, format-version (the manifest's);
  output: {"entries" after inheritance, "min-sequence-number", v3: "first-row-ids"}
- assign-manifest-first-row-ids: input keys: manifests, snapshot-first-row-id; output: {"manifests" with first_row_id,
  "next-row-id"}
- manifest-avro-schema: input keys: format-version; output: {"manifest-list", "manifest"}: the Avro schemas (empty
  partition struct)
- row-lineage: input keys: first-row-id, data-sequence-number, rows; output: each row's _row_id and
  _last_updated_sequence_number
- expire-snapshots: input keys: snapshots, refs, properties, now-ms, format-version, snapshot-log?; output: {"kept",
  "expired", "refs-removed"} (sorted), and the pruned "snapshot-log" when one is given
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Callable
from typing import Any

from spec_impl import revisions
from spec_impl.manifests import avro_schemas, inheritance
from spec_impl.metadata import (
    evolution,
    partitioning,
    projection,
    retention,
    schema,
    snapshots,
    sorting,
    view_history,
    view_metadata,
)
from spec_impl.metadata.table_metadata import normalized, parse_table_metadata, read_metadata_file, write_table_metadata
from spec_impl.ops.encoding import decode, encode
from spec_impl.types import parse_type


def _schema(obj: Any, fv: int, revision: str) -> schema.Schema:
    s = schema.parse_schema(obj, fv)
    schema.validate_schema(s, fv, revision)
    return s


def _parse_schema(inp: dict, revision: str) -> Any:
    return _schema(inp["schema"], inp["format-version"], revision).to_json(inp["format-version"])


def _check_evolution(inp: dict, revision: str) -> list[str]:
    fv = inp["format-version"]
    specs = [partitioning.parse_partition_spec(s, fv, revision) for s in inp.get("partition-specs") or []]
    found = evolution.check_evolution(
        _schema(inp["from"], fv, revision),
        _schema(inp["to"], fv, revision),
        fv,
        revision,
        last_column_id=inp.get("last-column-id"),
        partition_specs=specs,
    )
    return sorted({v.rule for v in found})


def _project(inp: dict, revision: str) -> list:
    fv = inp.get("format-version", 3)
    read = _schema(inp["read-schema"], fv, revision)
    file_schema = None if inp["file-schema"] is None else _schema(inp["file-schema"], fv, revision)
    if file_schema is None:  # no field ids in the file: rows keyed by column name, typed through the mapping
        mapping = projection.parse_name_mapping(inp.get("name-mapping") or [])
        rows = [_decode_named(r, read.struct, mapping.fields) for r in inp["rows"]]
    else:
        rows = [decode(file_schema.struct, r) for r in inp["rows"]]
    parts = {int(k): decode(read.field_by_id(int(k)).type, v) for k, v in (inp.get("partition-values") or {}).items()}
    out = projection.project(
        rows, file_schema, read, inp.get("name-mapping"), parts or None, format_version=fv, revision=revision
    )
    return [encode(read.struct, r) for r in out]


def _decode_named(row: dict, struct, mapped: tuple) -> dict:
    """A row keyed by column names, its values decoded with the read type of the field each name maps to."""
    out = {}
    for name, value in row.items():
        m = next((f for f in mapped if name in f.names), None)
        field = next((f for f in struct.fields if m is not None and f.id == m.field_id), None)
        if field is None:
            out[name] = value  # unmapped: the projection drops it
        elif isinstance(value, dict) and hasattr(field.type, "fields"):
            out[name] = _decode_named(value, field.type, m.fields)
        else:
            out[name] = decode(field.type, value)
    return out


def _parse_name_mapping(inp: dict, revision: str) -> Any:
    return projection.parse_name_mapping(inp["mapping"]).to_json()


def _struct(inp: dict, fv: int, revision: str):
    return _schema(inp["schema"], fv, revision).struct if inp.get("schema") is not None else None


def _parse_and_validate(parse: Callable, validate: Callable, obj: Any, inp: dict, revision: str) -> Any:
    """Parse a spec or sort order; validate it against the input's schema when one is given."""
    fv = inp["format-version"]
    parsed = parse(obj, fv, revision)
    struct = _struct(inp, fv, revision)
    if struct is not None:
        validate(parsed, struct, fv, revision)
    return parsed.to_json(fv, revision)


def _parse_partition_spec(inp: dict, revision: str) -> Any:
    return _parse_and_validate(
        partitioning.parse_partition_spec, partitioning.validate_partition_spec, inp["spec"], inp, revision
    )


def _assign_ids(inp: dict, revision: str) -> dict:
    fv = inp["format-version"]
    existing = [partitioning.parse_partition_spec(s, fv, revision) for s in inp["existing-specs"]]
    parsed = partitioning.parse_partition_spec(inp["spec"], 1, revision)  # v1 reading tolerates missing field ids
    fields = tuple(
        f if "field-id" in raw else dataclasses.replace(f, field_id=None)  # ids still to assign
        for f, raw in zip(parsed.fields, inp["spec"]["fields"])
    )
    spec = dataclasses.replace(parsed, fields=fields)
    partitioning.check_new_spec(spec, existing)
    spec, last = partitioning.assign_field_ids(spec, existing, inp["last-partition-id"], fv)
    return {"spec": spec.to_json(fv, revision), "last-partition-id": last}


def _findings(inp: dict, revision: str) -> list[str]:
    fv = inp["format-version"]
    spec = partitioning.parse_partition_spec(inp["spec"], fv, revision)
    found = partitioning.writer_violations(spec)
    if inp.get("previous") is not None and fv == 1:  # the evolution recommendations are v1's
        found += partitioning.v1_evolution_warnings(
            partitioning.parse_partition_spec(inp["previous"], fv, revision), spec
        )
    return sorted({f.rule for f in found})


def _partition_type(inp: dict, revision: str) -> Any:
    struct = _struct(inp, 3, revision)
    specs = [partitioning.parse_partition_spec(s, 3, revision) for s in inp["specs"]]
    if len(specs) == 1:
        return partitioning.partition_type(specs[0], struct, revision).to_json()
    return partitioning.unified_partition_type(specs, struct, revision).to_json()


def _partition_values_equal(inp: dict, revision: str) -> bool:
    t = parse_type(inp["type"])
    a, b = decode(t, inp["a"]), decode(t, inp["b"])
    return partitioning.partition_values_equal([a.get(f.id) for f in t.fields], [b.get(f.id) for f in t.fields], t)


def _parse_sort_order(inp: dict, revision: str) -> Any:
    return _parse_and_validate(sorting.parse_sort_order, sorting.validate_sort_order, inp["order"], inp, revision)


def _sort_values(inp: dict, revision: str) -> list:
    t = parse_type(inp["type"])
    values = [decode(t, v) for v in inp["values"]]
    key = lambda v: sorting.sort_key(
        v, t, inp.get("direction", sorting.ASC), inp.get("null-order", sorting.NULLS_FIRST)
    )  # noqa: E731
    return [encode(t, v) for v in sorted(values, key=key)]


def _parse_snapshot(inp: dict, revision: str) -> Any:
    fv = inp["format-version"]
    return snapshots.parse_snapshot(inp["snapshot"], fv, revision).to_json(fv, revision)


def _expire(inp: dict, revision: str) -> dict:
    fv = inp.get("format-version", 2)
    snaps = [snapshots.parse_snapshot(s, fv, revision) for s in inp["snapshots"]]
    refs = {name: snapshots.parse_ref(r) for name, r in inp["refs"].items()}
    if "main" in refs:  # main must be a branch (resolve_refs checks it against the current snapshot)
        snapshots.resolve_refs(inp["refs"], refs["main"].snapshot_id, fv)
    result = retention.expire_snapshots(snaps, refs, inp.get("properties") or {}, inp["now-ms"])
    out = {"kept": sorted(result.kept), "expired": sorted(result.expired), "refs-removed": sorted(result.refs_removed)}
    if "snapshot-log" in inp:  # the log as it must be left: entries up to the last expired snapshot removed
        log = snapshots.parse_snapshot_log(inp["snapshot-log"])
        out["snapshot-log"] = [e.to_json() for e in retention.prune_snapshot_log(log, result.kept)]
    return out


def _read_table_metadata(inp: dict, revision: str) -> dict:
    return normalized(parse_table_metadata(inp["document"], revision), revision)


def _write_table_metadata(inp: dict, revision: str) -> dict:
    md = parse_table_metadata(inp["document"], revision)
    return write_table_metadata(md, inp.get("format-version"), revision)


def _read_metadata_file(inp: dict, revision: str) -> dict:
    return normalized(read_metadata_file(base64.b64decode(inp["file-base64"]), revision), revision)


def _read_view_metadata(inp: dict, revision: str) -> dict:
    """The view as the revision writes it, with absent optional values spelled out: properties {},
    identifier-field-ids [], default-catalog null (the normalized view reading)."""
    out = view_metadata.parse_view_metadata(inp["document"], revision).to_json(revision)
    out.setdefault("properties", {})
    for s in out.get("schemas") or []:
        s.setdefault("identifier-field-ids", [])
    if revisions.has(revision, revisions.V3_ADOPTED):
        for v in out["versions"]:
            v.setdefault("default-catalog", None)
    return out


def _view_findings(inp: dict, revision: str) -> list[str]:
    view = view_metadata.parse_view_metadata(inp["document"], revision)
    return sorted({f.rule for f in view_history.view_findings(view)})


def _inherit(inp: dict, revision: str) -> dict:
    entries = inheritance.inherit_entries(inp["manifest"], inp["entries"], inp["format-version"])
    out: dict[str, Any] = {"entries": entries, "min-sequence-number": inheritance.min_sequence_number(entries)}
    if inp["format-version"] >= 3 and revisions.has(revision, revisions.V3_ADOPTED):
        out["first-row-ids"] = inheritance.file_first_row_ids(inp["manifest"].get("first_row_id"), entries)
    return out


def _assign_first_row_ids(inp: dict, revision: str) -> dict:
    rows, next_id = inheritance.assign_manifest_first_row_ids(inp["manifests"], inp["snapshot-first-row-id"])
    return {"manifests": rows, "next-row-id": next_id}


def _row_lineage(inp: dict, revision: str) -> list:
    return inheritance.row_lineage(inp["first-row-id"], inp["data-sequence-number"], inp["rows"])


def _manifest_avro_schema(inp: dict, revision: str) -> dict:
    fv = inp["format-version"]
    return {"manifest-list": avro_schemas.manifest_list_schema(fv), "manifest": avro_schemas.manifest_schema(fv)}


METADATA_OPS: dict[str, Callable[[dict, str], Any]] = {
    "manifest-avro-schema": _manifest_avro_schema,
    "inherit-manifest-entries": _inherit,
    "assign-manifest-first-row-ids": _assign_first_row_ids,
    "row-lineage": _row_lineage,
    "read-table-metadata": _read_table_metadata,
    "read-metadata-file": _read_metadata_file,
    "write-table-metadata": _write_table_metadata,
    "read-view-metadata": _read_view_metadata,
    "view-findings": _view_findings,
    "parse-schema": _parse_schema,
    "check-evolution": _check_evolution,
    "project": _project,
    "parse-name-mapping": _parse_name_mapping,
    "parse-partition-spec": _parse_partition_spec,
    "assign-partition-field-ids": _assign_ids,
    "partition-spec-findings": _findings,
    "partition-type": _partition_type,
    "partition-values-equal": _partition_values_equal,
    "parse-sort-order": _parse_sort_order,
    "sort-values": _sort_values,
    "parse-snapshot": _parse_snapshot,
    "expire-snapshots": _expire,
}

INPUT_KEYS = {
    "manifest-avro-schema": ["format-version"],
    "inherit-manifest-entries": ["manifest", "entries", "format-version"],
    "assign-manifest-first-row-ids": ["manifests", "snapshot-first-row-id"],
    "row-lineage": ["first-row-id", "data-sequence-number", "rows"],
    "read-table-metadata": ["document"],
    "read-metadata-file": ["file-base64"],
    "write-table-metadata": ["document"],
    "read-view-metadata": ["document"],
    "view-findings": ["document"],
    "parse-schema": ["schema", "format-version"],
    "check-evolution": ["from", "to", "format-version"],
    "project": ["file-schema", "read-schema", "rows"],
    "parse-name-mapping": ["mapping"],
    "parse-partition-spec": ["spec", "format-version"],
    "assign-partition-field-ids": ["spec", "existing-specs", "last-partition-id", "format-version"],
    "partition-spec-findings": ["spec", "format-version"],
    "partition-type": ["specs", "schema"],
    "partition-values-equal": ["a", "b", "type"],
    "parse-sort-order": ["order", "format-version"],
    "sort-values": ["type", "values"],
    "parse-snapshot": ["snapshot", "format-version"],
    "expire-snapshots": ["snapshots", "refs", "now-ms"],
}

# The planning ops (metrics, summaries, partition tuples, predicates, projection, pruning) have
# their own module; they are registered here so that every op list and the case schema see them.
from spec_impl.ops.planning_ops import INPUT_KEYS as _PLANNING_INPUT_KEYS  # noqa: E402
from spec_impl.ops.planning_ops import PLANNING_OPS  # noqa: E402

METADATA_OPS.update(PLANNING_OPS)
INPUT_KEYS.update(_PLANNING_INPUT_KEYS)

from spec_impl.ops.content_file_ops import CONTENT_FILE_OPS  # noqa: E402
from spec_impl.ops.content_file_ops import INPUT_KEYS as _CONTENT_FILE_INPUT_KEYS  # noqa: E402

METADATA_OPS.update(CONTENT_FILE_OPS)
INPUT_KEYS.update(_CONTENT_FILE_INPUT_KEYS)
