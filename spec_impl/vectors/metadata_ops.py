"""The operations that metadata vectors exercise, computed by the reference (see ops.py for values).

| op                          | input keys                                         | output                                   |
|-----------------------------|----------------------------------------------------|------------------------------------------|
| read-table-metadata         | document                                           | the normalized reading (vectors/README.md) |
| read-metadata-file          | file-base64 (the file's bytes; gzip allowed)       | the normalized reading                   |
| write-table-metadata        | document, format-version? (upgrade)                | the document as that version's writer writes it |
| read-view-metadata          | document                                           | the view as the revision writes it, absent optional values spelled out |
| parse-schema                | schema, format-version                             | the schema JSON as the version writes it |
| check-evolution             | from, to, format-version, last-column-id?, partition-specs? | sorted rule ids of the violations ([] = allowed) |
| project                     | file-schema (null: no field ids), read-schema, rows, name-mapping?, partition-values? | rows as struct JSON of the read schema |
| parse-name-mapping          | mapping                                            | the mapping JSON                         |
| parse-partition-spec        | spec, format-version, schema?                      | the spec JSON as the version writes it   |
| assign-partition-field-ids  | spec, existing-specs, last-partition-id, format-version | {"spec", "last-partition-id"}       |
| partition-spec-findings     | spec, previous? (v1 evolution), format-version     | sorted rule ids of writer violations and v1 warnings |
| partition-type              | specs, schema                                      | the (unified, for several specs) partition struct type |
| partition-values-equal      | a, b, type (the partition struct)                  | true / false                             |
| parse-sort-order            | order, format-version, schema?                     | the sort order JSON                      |
| sort-values                 | type, values, direction?, null-order?              | the values in the spec's order           |
| parse-snapshot              | snapshot, format-version                           | the snapshot JSON as the version writes it |
| inherit-manifest-entries    | manifest (a manifest-list row), entries, format-version (the manifest's) | {"entries" after inheritance, "min-sequence-number", v3: "first-row-ids"} |
| assign-manifest-first-row-ids | manifests, snapshot-first-row-id                 | {"manifests" with first_row_id, "next-row-id"} |
| manifest-avro-schema        | format-version                                     | {"manifest-list", "manifest"}: the Avro schemas (empty partition struct) |
| read-manifest-tree          | files ({path: base64}), metadata-location, snapshot-id (null: current) | the snapshot's manifests and every entry with its inherited values (`tree_reading`) |
| validate-tree               | files, metadata-location                           | sorted rule ids of the tree's violations ([] = a correct tree) |
| plan-deletes                | specs, data-files, delete-files (file_path, content, spec_id, partition (floats may be {"ieee754"}), sequence_number, file_format?, referenced_data_file?, file_path_lower?, file_path_upper?) | {data file path: sorted paths of the deletes that apply} |
| read-puffin                 | file-base64                                        | {"properties", "blobs": each blob's metadata and its content (decompressed) in base64} |
| read-deletion-vector        | puffin-base64, data-file (the DV's manifest data_file fields) | the deleted row positions, ascending |
| read-table                  | table (a golden table of vectors/tables/), snapshot-id | {"columns", "rows"}: the rows a correct reader returns (`tables.table_rows`) |
| read-parquet                | file-base64 (a Parquet file)                       | {"schema": the Iceberg schema JSON, or null without field ids; "rows": records by field id (by name without ids), Appendix D JSON} |
| parquet-round-trip          | schema, rows (records as struct JSON)              | the rows as written to Parquet and read back |
| v4-replay                   | files, root ({location, snapshot-id, sequence-number}) | {"data-files": the live data files, "deletes": per data file the deletes that apply ("path" or "path@offset" for a DV)} |
| v4-validate                 | files, root, parent? (the parent snapshot's root)  | sorted rule ids of the violations ([] = valid) |
| v4-read-manifest            | file-base64 (a v4 manifest)                        | each entry's [content_type, status, location] |
| v4-upgrade                  | files (a v3 tree), metadata-location, remove (paths) | the first v4 commit removing `remove`: {"root": entries as [content_type, status, location], "data-files": live} |
| row-lineage                 | first-row-id, data-sequence-number, rows           | each row's _row_id and _last_updated_sequence_number |
| expire-snapshots            | snapshots, refs, properties, now-ms, format-version, snapshot-log? | {"kept", "expired", "refs-removed"} (sorted), and the pruned "snapshot-log" when one is given |
"""

from __future__ import annotations

import base64
import dataclasses
from typing import Any, Callable

from spec_impl import revisions
from spec_impl.deletes import deletion_vectors, puffin, scoping
from spec_impl.manifests import avro_schemas, inheritance, tree, validate
from spec_impl.metadata import evolution, partitioning, projection, retention, schema, snapshots, sorting, view_metadata
from spec_impl.metadata.table_metadata import normalized, parse_table_metadata, read_metadata_file, write_table_metadata
from spec_impl.types import parse_type
from spec_impl.vectors.encoding import bits_to_float, decode, encode


def _schema(obj: Any, fv: int, revision: str) -> schema.Schema:
    s = schema.parse_schema(obj, fv)
    schema.validate_schema(s, fv, revision)
    return s


def _parse_schema(inp: dict, revision: str) -> Any:
    return _schema(inp["schema"], inp["format-version"], revision).to_json(inp["format-version"])


def _check_evolution(inp: dict, revision: str) -> list[str]:
    fv = inp["format-version"]
    specs = [partitioning.parse_partition_spec(s, fv, revision) for s in inp.get("partition-specs") or []]
    found = evolution.check_evolution(_schema(inp["from"], fv, revision), _schema(inp["to"], fv, revision), fv, revision,
                                      last_column_id=inp.get("last-column-id"), partition_specs=specs)  # fmt: skip
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
    out = projection.project(rows, file_schema, read, inp.get("name-mapping"), parts or None, format_version=fv, revision=revision)
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
    return _parse_and_validate(partitioning.parse_partition_spec, partitioning.validate_partition_spec, inp["spec"], inp, revision)


def _assign_ids(inp: dict, revision: str) -> dict:
    fv = inp["format-version"]
    existing = [partitioning.parse_partition_spec(s, fv, revision) for s in inp["existing-specs"]]
    parsed = partitioning.parse_partition_spec(inp["spec"], 1, revision)  # v1 reading tolerates missing field ids
    fields = tuple(f if "field-id" in raw else dataclasses.replace(f, field_id=None)  # ids still to assign
                   for f, raw in zip(parsed.fields, inp["spec"]["fields"]))  # fmt: skip
    spec = dataclasses.replace(parsed, fields=fields)
    partitioning.check_new_spec(spec, existing)
    spec, last = partitioning.assign_field_ids(spec, existing, inp["last-partition-id"], fv)
    return {"spec": spec.to_json(fv, revision), "last-partition-id": last}


def _findings(inp: dict, revision: str) -> list[str]:
    fv = inp["format-version"]
    spec = partitioning.parse_partition_spec(inp["spec"], fv, revision)
    found = partitioning.writer_violations(spec)
    if inp.get("previous") is not None and fv == 1:  # the evolution recommendations are v1's
        found += partitioning.v1_evolution_warnings(partitioning.parse_partition_spec(inp["previous"], fv, revision), spec)
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
    key = lambda v: sorting.sort_key(v, t, inp.get("direction", sorting.ASC), inp.get("null-order", sorting.NULLS_FIRST))  # noqa: E731
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
    if revision == revisions.V3_ADOPTED:
        for v in out["versions"]:
            v.setdefault("default-catalog", None)
    return out


def _inherit(inp: dict, revision: str) -> dict:
    entries = inheritance.inherit_entries(inp["manifest"], inp["entries"], inp["format-version"])
    out: dict[str, Any] = {"entries": entries, "min-sequence-number": inheritance.min_sequence_number(entries)}
    if inp["format-version"] >= 3 and revision == revisions.V3_ADOPTED:
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


def _tree_files(inp: dict) -> tree.InMemoryFiles:
    return tree.InMemoryFiles({path: base64.b64decode(data) for path, data in inp["files"].items()})


def _read_manifest_tree(inp: dict, revision: str) -> dict:
    snapshot = tree.read_snapshot(_tree_files(inp), inp["metadata-location"], inp.get("snapshot-id"), revision)
    return tree.tree_reading(snapshot)


def _validate_tree(inp: dict, revision: str) -> list:
    return sorted({v.rule for v in validate.validate_table(_tree_files(inp), inp["metadata-location"], revision)})


def _scan_files(items: list) -> list[scoping.ScanFile]:
    def value(v: Any) -> Any:
        if isinstance(v, dict) and set(v) == {"ieee754"}:
            return bits_to_float("double" if len(v["ieee754"]) == 16 else "float", v["ieee754"])
        return v

    return [scoping.scan_file(dict(f, partition=[value(v) for v in f["partition"]]) if isinstance(f.get("partition"), list) else f) for f in items]


def _plan_deletes(inp: dict, revision: str) -> dict:
    planned = scoping.plan(_scan_files(inp["data-files"]), _scan_files(inp["delete-files"]), scoping.unpartitioned_spec_ids(inp["specs"]), revision)
    return {path: sorted(f.path for f in applied.files()) for path, applied in planned.items()}


def _read_puffin(inp: dict, revision: str) -> dict:
    f = puffin.read_puffin(base64.b64decode(inp["file-base64"]))
    blobs = [{"type": b.type, "fields": list(b.fields), "snapshot-id": b.snapshot_id, "sequence-number": b.sequence_number,
              "offset": b.offset, "length": b.length, "compression-codec": b.compression_codec, "properties": b.properties,
              "content-base64": base64.b64encode(f.read_blob(b)).decode()} for b in f.blobs]  # fmt: skip
    return {"properties": f.properties, "blobs": blobs}


def _read_deletion_vector(inp: dict, revision: str) -> list:
    return deletion_vectors.deleted_positions(base64.b64decode(inp["puffin-base64"]), inp["data-file"])


def _read_table(inp: dict, revision: str) -> dict:
    from spec_impl.manifests.tree import InMemoryFiles
    from spec_impl.scan.reader import read_table
    from spec_impl.vectors import tables

    case, t = tables.build(inp["table"])
    table = read_table(InMemoryFiles(t.files), t.tree.metadata_location, inp["snapshot-id"], with_lineage=case.format_version >= 3, revision=revision)
    return tables.table_rows(table)


def _read_parquet(inp: dict, revision: str) -> dict:
    from spec_impl.scan.arrow_values import read_parquet

    file_schema, rows = read_parquet(base64.b64decode(inp["file-base64"]))
    if file_schema is None:
        return {"schema": None, "rows": [{k: v for k, v in r.items()} for r in rows]}
    return {"schema": file_schema.to_json(3), "rows": [encode(file_schema.struct, r) for r in rows]}


def _all_optional(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: (False if k in ("required", "element-required", "value-required") else _all_optional(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_all_optional(v) for v in obj]
    return obj


def _parquet_round_trip(inp: dict, revision: str) -> list:
    from spec_impl.scan.arrow_values import read_parquet, write_parquet

    s = schema.parse_schema(inp["schema"], 3)
    lenient = schema.parse_schema(_all_optional(inp["schema"]), 3)  # nulls reach the writer, which must refuse them
    _, rows = read_parquet(write_parquet([decode(lenient.struct, r) for r in inp["rows"]], s))
    return [encode(s.struct, r) for r in rows]


def _v4_root(obj: dict) -> Any:
    from spec_impl.v4.replay import SnapshotRoot

    return SnapshotRoot(obj["location"], obj["snapshot-id"], obj["sequence-number"])


def _v4_replay(inp: dict, revision: str) -> dict:
    from spec_impl.v4.replay import replay

    live = replay(_tree_files(inp).read, _v4_root(inp["root"]))
    deletes = {path: sorted(_v4_key(k) for k in keys) for path, keys in live.applicable_deletes().items()}
    return {"data-files": sorted(live.data_files), "deletes": deletes}


def _v4_key(key: tuple) -> str:
    """A delete file by its location, a DV also by its offset in the Puffin file (ContentEntry.key)."""
    _, location, offset = key
    return location if offset is None else f"{location}@{offset}"


def _v4_validate(inp: dict, revision: str) -> list:
    from spec_impl.v4.validate import validate_snapshot

    parent = _v4_root(inp["parent"]) if inp.get("parent") else None
    return sorted({v.rule for v in validate_snapshot(_tree_files(inp).read, _v4_root(inp["root"]), parent)})


def _v4_read_manifest(inp: dict, revision: str) -> list:
    from spec_impl.v4.files import read_manifest

    return [[e.content_type, e.status, e.location] for e in read_manifest(base64.b64decode(inp["file-base64"]), "manifest").entries]


def _v4_upgrade(inp: dict, revision: str) -> dict:
    from spec_impl.v4.commits import delete_files, upgrade_from_v3
    from spec_impl.v4.replay import replay

    source = _tree_files(inp)
    state = upgrade_from_v3(source, inp["metadata-location"])
    c = delete_files(state, source.read, 1000, inp["remove"])  # snapshot id 1000: after the v3 ones
    files = dict(source.files, **c.files)
    live = replay(lambda p: tree.InMemoryFiles(files).read(p), c.root)
    return {"root": [[e.content_type, e.status, e.location] for e in c.written], "data-files": sorted(live.data_files)}


METADATA_OPS: dict[str, Callable[[dict, str], Any]] = {
    "manifest-avro-schema": _manifest_avro_schema,
    "inherit-manifest-entries": _inherit,
    "assign-manifest-first-row-ids": _assign_first_row_ids,
    "row-lineage": _row_lineage,
    "plan-deletes": _plan_deletes,
    "read-puffin": _read_puffin,
    "read-deletion-vector": _read_deletion_vector,
    "read-table": _read_table,
    "v4-replay": _v4_replay,
    "v4-validate": _v4_validate,
    "v4-read-manifest": _v4_read_manifest,
    "v4-upgrade": _v4_upgrade,
    "read-parquet": _read_parquet,
    "parquet-round-trip": _parquet_round_trip,
    "read-manifest-tree": _read_manifest_tree,
    "validate-tree": _validate_tree,
    "read-table-metadata": _read_table_metadata,
    "read-metadata-file": _read_metadata_file,
    "write-table-metadata": _write_table_metadata,
    "read-view-metadata": _read_view_metadata,
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
    "plan-deletes": ["specs", "data-files", "delete-files"], "read-puffin": ["file-base64"], "read-deletion-vector": ["puffin-base64", "data-file"], "read-table": ["table", "snapshot-id"], "v4-replay": ["files", "root"], "v4-validate": ["files", "root"], "v4-read-manifest": ["file-base64"], "v4-upgrade": ["files", "metadata-location", "remove"], "read-parquet": ["file-base64"], "parquet-round-trip": ["schema", "rows"],
    "read-manifest-tree": ["files", "metadata-location"], "validate-tree": ["files", "metadata-location"],
    "read-table-metadata": ["document"], "read-metadata-file": ["file-base64"], "write-table-metadata": ["document"], "read-view-metadata": ["document"], "parse-schema": ["schema", "format-version"],
    "check-evolution": ["from", "to", "format-version"], "project": ["file-schema", "read-schema", "rows"],
    "parse-name-mapping": ["mapping"], "parse-partition-spec": ["spec", "format-version"],
    "assign-partition-field-ids": ["spec", "existing-specs", "last-partition-id", "format-version"],
    "partition-spec-findings": ["spec", "format-version"], "partition-type": ["specs", "schema"],
    "partition-values-equal": ["a", "b", "type"], "parse-sort-order": ["order", "format-version"],
    "sort-values": ["type", "values"], "parse-snapshot": ["snapshot", "format-version"],
    "expire-snapshots": ["snapshots", "refs", "now-ms"],
}  # fmt: skip
