"""The operations that vectors over whole files exercise: metadata trees, delete planning, Puffin
files and deletion vectors, Parquet data files, golden tables and the v4 proposal's trees
(computed by the reference; see metadata_ops.py for documents and value_ops.py for values).

- read-manifest-tree: input keys: files ({path: base64}), metadata-location, snapshot-id (null: current); output: the
  snapshot's manifests and every entry with its inherited values (`tree_reading`)
- validate-tree: input keys: files, metadata-location; output: sorted rule ids of the tree's violations ([] = a correct
  tree); tree.position-delete-sort-order is a should (a recommendation not followed), the others musts
- validate-history: input keys: files, metadata-location; output: history rule ids, sorted ([] = a
  correct history)
- validate-statistics: input keys: files, metadata-location; output: sorted rule ids of the violations of the
  statistics and partition statistics files the metadata registers ([] = correct files)
- plan-deletes: input keys: specs, data-files, delete-files (file_path, content, spec_id, partition (floats may be
  {"ieee754"}), sequence_number, file_format?, referenced_data_file?, file_path_lower?, file_path_upper?); output: {data
  file path: sorted paths of the deletes that apply}
- read-puffin: input keys: file-base64; output: {"properties", "blobs": each blob's metadata and its content
  (decompressed) in base64}
- read-deletion-vector: input keys: puffin-base64, data-file (the DV's manifest data_file fields); output: the deleted
  row positions, ascending
- read-table: input keys: table (a golden table of vectors/tables/), snapshot-id, metadata-columns? (`_file`, `_pos`,
  `_deleted`, `_spec_id`, `_partition`: returned after the table's columns, instead of the row lineage columns); output:
  {"columns", "rows"}: the rows a correct reader returns (`golden_tables.table_rows`)
- read-parquet: input keys: file-base64 (a Parquet file); output: {"schema": the Iceberg schema JSON, or null without
  field ids; "rows": records by field id (by name without ids), Appendix D JSON}
- read-data-file: input keys: file-format (a manifest entry's file_format), file-base64 (an Avro, ORC or Parquet
  file); output: as read-parquet
- check-parquet-schema: input keys: file-base64 (a Parquet data file), schema (the table schema it belongs to),
  format-version, name-mapped? (whether the table has a name mapping); output: the findings of Appendix A's Parquet
  rules, each {"rule", "column"} (the column's dotted name path, null for the whole file), sorted ([] = none);
  parquet.type-mapping is a should (a recommendation not followed), the others musts
- check-content-file: input keys: file-format, file-base64 (a data or delete file), data-file (its manifest data_file
  fields as JSON: maps as objects keyed by field id, bounds as hex), schema? (the table's); output: the sorted rule
  ids of what the file contradicts (`spec_impl.datafiles.content_file`: column_sizes, equality_ids, a delete file's
  schema, counts and bounds, UTF-8 strings, Avro unions, uuid storage); content-file.uuid-fixed is a should
- parquet-round-trip: input keys: schema, rows (records as struct JSON; a field a record lacks is not supplied and takes
  its write-default); output: the rows as written to Parquet and read back
- v4-replay: input keys: files, root ({location, snapshot-id, sequence-number}); output: {"data-files": the live data
  files, "deletes": per data file the deletes that apply ("path" or "path@offset" for a DV), "first-row-ids": per
  data file its first_row_id, explicit or inherited (only the files that have one; absent when none has)}
- v4-validate: input keys: files, root, parent? (the parent snapshot's root); output: sorted rule ids of the violations
  ([] = valid)
- v4-read-manifest: input keys: file-base64 (a v4 manifest); output: each entry's [content_type, status, location]
- v4-upgrade: input keys: files (a v3 tree), metadata-location, remove (paths); output: the first v4 commit removing
  `remove`: {"root": entries as [content_type, status, location], "data-files": live}

Files travel inline, `{path: base64}` keyed by the exact path strings the tree references.
"""

from __future__ import annotations

import base64
from typing import Any
from collections.abc import Callable

from spec_impl.deletes import deletion_vectors, puffin, scoping
from spec_impl.manifests import tree, validate
from spec_impl.validate import history
from spec_impl.metadata import schema
from spec_impl.validate import statistics_files
from spec_impl.ops import golden_tables
from spec_impl.ops.encoding import bits_to_float, decode, encode


def _tree_files(inp: dict) -> tree.InMemoryFiles:
    return tree.InMemoryFiles({path: base64.b64decode(data) for path, data in inp["files"].items()})


def _read_manifest_tree(inp: dict, revision: str) -> dict:
    snapshot = tree.read_snapshot(_tree_files(inp), inp["metadata-location"], inp.get("snapshot-id"), revision)
    return tree.tree_reading(snapshot)


def _validate_tree(inp: dict, revision: str) -> list:
    return sorted({v.rule for v in validate.validate_table(_tree_files(inp), inp["metadata-location"], revision)})


def _validate_statistics(inp: dict, revision: str) -> list:
    return sorted(
        {v.rule for v in statistics_files.validate_statistics(_tree_files(inp), inp["metadata-location"], revision)}
    )


def _validate_history(inp: dict, revision: str) -> list:
    return sorted({v.rule for v in history.validate_history(_tree_files(inp), inp["metadata-location"], revision)})


def _scan_files(items: list) -> list[scoping.ScanFile]:
    def value(v: Any) -> Any:
        if isinstance(v, dict) and set(v) == {"ieee754"}:
            return bits_to_float("double" if len(v["ieee754"]) == 16 else "float", v["ieee754"])
        return v

    return [
        scoping.scan_file(
            dict(f, partition=[value(v) for v in f["partition"]]) if isinstance(f.get("partition"), list) else f
        )
        for f in items
    ]


def _plan_deletes(inp: dict, revision: str) -> dict:
    planned = scoping.plan(
        _scan_files(inp["data-files"]),
        _scan_files(inp["delete-files"]),
        scoping.unpartitioned_spec_ids(inp["specs"]),
        revision,
    )
    return {path: sorted(f.path for f in applied.files()) for path, applied in planned.items()}


def _read_puffin(inp: dict, revision: str) -> dict:
    f = puffin.read_puffin(base64.b64decode(inp["file-base64"]))
    blobs = [
        {
            "type": b.type,
            "fields": list(b.fields),
            "snapshot-id": b.snapshot_id,
            "sequence-number": b.sequence_number,
            "offset": b.offset,
            "length": b.length,
            "compression-codec": b.compression_codec,
            "properties": b.properties,
            "content-base64": base64.b64encode(f.read_blob(b)).decode(),
        }
        for b in f.blobs
    ]
    return {"properties": f.properties, "blobs": blobs}


def _read_deletion_vector(inp: dict, revision: str) -> list:
    return deletion_vectors.deleted_positions(base64.b64decode(inp["puffin-base64"]), inp["data-file"])


def _read_table(inp: dict, revision: str) -> dict:
    return golden_tables.read_rows(inp["table"], inp["snapshot-id"], revision, tuple(inp.get("metadata-columns", ())))


def _read_parquet(inp: dict, revision: str) -> dict:
    from spec_impl.scan.arrow_values import read_parquet

    file_schema, rows = read_parquet(base64.b64decode(inp["file-base64"]))
    if file_schema is None:
        return {"schema": None, "rows": [{k: v for k, v in r.items()} for r in rows]}
    return {"schema": file_schema.to_json(3), "rows": [encode(file_schema.struct, r) for r in rows]}


def _read_data_file(inp: dict, revision: str) -> dict:
    from spec_impl.scan.data_files import read_data_file

    file_schema, rows = read_data_file(base64.b64decode(inp["file-base64"]), inp["file-format"])
    if file_schema is None:
        return {"schema": None, "rows": [{k: v for k, v in r.items()} for r in rows]}
    return {"schema": file_schema.to_json(3), "rows": [encode(file_schema.struct, r) for r in rows]}


def _check_content_file(inp: dict, revision: str) -> list:
    from spec_impl.datafiles.content_file import check_content_file

    from spec_impl.datafiles.table_files import optional_field_ids, schemas_field_types

    types, optional = None, frozenset()
    if "schema" in inp:  # the table's schema: a delete file's columns and an Avro file's unions
        table = [schema.parse_schema(inp["schema"], 2)]
        types, optional = schemas_field_types(table), optional_field_ids(table)
    found = check_content_file(base64.b64decode(inp["file-base64"]), inp["data-file"], "", types, optional)
    return sorted({f.rule for f in found})


def _check_parquet_schema(inp: dict, revision: str) -> list:
    from spec_impl.datafiles.parquet_rules import check_parquet_schema
    from spec_impl.datafiles.parquet_schema import read_schema
    from spec_impl.metadata.schema import walk

    s = schema.parse_schema(inp["schema"], inp["format-version"])
    types = {info.id: (info.type,) for info in walk(s.struct)}
    nodes = read_schema(base64.b64decode(inp["file-base64"]))
    found = check_parquet_schema(nodes, types, inp["format-version"], bool(inp.get("name-mapped")))
    if inp.get("written-with"):  # the schema is the one the file was written with (rule content-file.known-fields)
        from spec_impl.datafiles.known_fields import missing_known_fields

        found += missing_known_fields(nodes, s.struct)
    return sorted(({"rule": f.rule, "column": f.value} for f in found), key=lambda f: (f["rule"], f["column"] or ""))


def _all_optional(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {
            k: (False if k in ("required", "element-required", "value-required") else _all_optional(v))
            for k, v in obj.items()
        }
    if isinstance(obj, list):
        return [_all_optional(v) for v in obj]
    return obj


def _parquet_round_trip(inp: dict, revision: str) -> list:
    from spec_impl.scan.arrow_values import read_parquet, write_parquet
    from spec_impl.scan.write_defaults import with_write_defaults

    s = schema.parse_schema(inp["schema"], 3)
    lenient = schema.parse_schema(_all_optional(inp["schema"]), 3)  # nulls reach the writer, which must refuse them
    records = [with_write_defaults(s.struct, decode(lenient.struct, r)) for r in inp["rows"]]
    _, rows = read_parquet(write_parquet(records, s))
    return [encode(s.struct, r) for r in rows]


def _v4_root(obj: dict) -> Any:
    from spec_impl.v4.replay import SnapshotRoot

    return SnapshotRoot(obj["location"], obj["snapshot-id"], obj["sequence-number"])


def _v4_replay(inp: dict, revision: str) -> dict:
    from spec_impl.v4.replay import replay

    live = replay(_tree_files(inp).read, _v4_root(inp["root"]))
    deletes = {path: sorted(_v4_key(k) for k in keys) for path, keys in live.applicable_deletes().items()}
    out = {"data-files": sorted(live.data_files), "deletes": deletes}
    first = {path: e.first_row_id for path, e in sorted(live.data_files.items()) if e.first_row_id is not None}
    if first:  # row lineage (v4.lineage.first-row-id): only for trees that carry first_row_id
        out["first-row-ids"] = first
    return out


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

    return [
        [e.content_type, e.status, e.location]
        for e in read_manifest(base64.b64decode(inp["file-base64"]), "manifest").entries
    ]


def _v4_upgrade(inp: dict, revision: str) -> dict:
    from spec_impl.v4.commits import delete_files, upgrade_from_v3
    from spec_impl.v4.replay import replay

    source = _tree_files(inp)
    state = upgrade_from_v3(source, inp["metadata-location"])
    c = delete_files(state, source.read, 1000, inp["remove"])  # snapshot id 1000: after the v3 ones
    files = dict(source.files, **c.files)
    live = replay(lambda p: tree.InMemoryFiles(files).read(p), c.root)
    return {"root": [[e.content_type, e.status, e.location] for e in c.written], "data-files": sorted(live.data_files)}


FILE_OPS: dict[str, Callable[[dict, str], Any]] = {
    "read-manifest-tree": _read_manifest_tree,
    "validate-tree": _validate_tree,
    "validate-history": _validate_history,
    "validate-statistics": _validate_statistics,
    "plan-deletes": _plan_deletes,
    "read-puffin": _read_puffin,
    "read-deletion-vector": _read_deletion_vector,
    "read-table": _read_table,
    "read-parquet": _read_parquet,
    "read-data-file": _read_data_file,
    "check-parquet-schema": _check_parquet_schema,
    "check-content-file": _check_content_file,
    "parquet-round-trip": _parquet_round_trip,
    "v4-replay": _v4_replay,
    "v4-validate": _v4_validate,
    "v4-read-manifest": _v4_read_manifest,
    "v4-upgrade": _v4_upgrade,
}

INPUT_KEYS = {
    "read-manifest-tree": ["files", "metadata-location"],
    "validate-tree": ["files", "metadata-location"],
    "validate-history": ["files", "metadata-location"],
    "validate-statistics": ["files", "metadata-location"],
    "plan-deletes": ["specs", "data-files", "delete-files"],
    "read-puffin": ["file-base64"],
    "read-deletion-vector": ["puffin-base64", "data-file"],
    "read-table": ["table", "snapshot-id"],
    "read-parquet": ["file-base64"],
    "read-data-file": ["file-format", "file-base64"],
    "check-parquet-schema": ["file-base64", "schema", "format-version"],
    "check-content-file": ["file-format", "file-base64", "data-file"],
    "parquet-round-trip": ["schema", "rows"],
    "v4-replay": ["files", "root"],
    "v4-validate": ["files", "root"],
    "v4-read-manifest": ["file-base64"],
    "v4-upgrade": ["files", "metadata-location", "remove"],
}
