"""Whole metadata trees (metadata file, manifest lists, manifests as Avro) written by the reference's
`TreeWriter`, with the inherited values a reader must report, and corrupted trees with the
violations the validator must find.

Each tree case carries its files inline (`files`: path → base64), keyed by the exact path strings
the tree references, so a reader needs no storage but a lookup. Data files are not included:
reading a tree reads metadata only.
"""

from __future__ import annotations

import base64
import copy
import sys
from collections.abc import Callable, Iterator

from spec_impl.manifests.avro_files import read_avro, write_avro
from spec_impl.manifests.inheritance import ADDED, DELETED, EXISTING
from spec_impl.manifests.writer import TreeWriter, data_file, edit_avro, entry, fix_manifest_lengths
from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import CaseSpec, case
from spec_impl.vectors.families import _manifest_tree_fields

NAME = "manifest-trees"
DESCRIPTION = (
    "Manifest Lists, Manifests, Sequence Numbers, adopted v3 row lineage: metadata trees read with "
    "inheritance, and validated"
)

SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "data", "required": False, "type": "string"},
    ],
}
BUCKETED = [
    {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "id_bucket", "transform": "bucket[4]"}]}
]


def _table(name: str, format_version: int, specs: list | None = None) -> TreeWriter:
    return TreeWriter(f"file:/warehouse/{name}", format_version, SCHEMA, specs=specs or [{"spec-id": 0, "fields": []}])


def _file(w: TreeWriter, name: str, records: int, **kw) -> dict:
    return data_file(f"{w.location}/data/{name}", records, **kw)


def _inputs(w: TreeWriter, snapshot_id: int | None = None) -> dict:
    """The tree's files, inline; for one snapshot only those it reaches (metadata, list, manifests)."""
    paths = set(w.files)
    if snapshot_id is not None:
        list_path = next(s["manifest-list"] for s in w.snapshots if s["snapshot-id"] == snapshot_id)
        paths = {w.metadata_location, list_path} | {r["manifest_path"] for r in _rows(w, snapshot_id)}
    files = {path: base64.b64encode(w.files[path]).decode() for path in sorted(paths)}
    return {"files": files, "metadata_location": w.metadata_location}


# --- valid trees -------------------------------------------------------------------------------------


def v1_appends() -> TreeWriter:
    w = _table("v1-appends", 1, BUCKETED)
    rows = w.commit(
        1,
        "append",
        [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10, partition={"id_bucket": 0}), 1)])],
    )
    w.commit(
        2,
        "append",
        [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 5, partition={"id_bucket": 3}), 2)])],
        rows,
    )
    return w


def imported_files() -> TreeWriter:
    """A data file imported from outside the table's location (file:/imports/2024/a.parquet beside
    the table's own file:/warehouse/imported/data/b.parquet). The spec tracks files by full path,
    not by directory ("Overview"; `location` is where writers put new files), so the tree reads like
    any other; the suite's own command-line readers read such a table's files only when the prefix
    is allowed (--allow-outside /imports): rule tree.file-location is a safety rule of the suite."""
    w = _table("imported", 2)
    rows = w.commit(
        1, "append", [w.write_manifest("m1.avro", [entry(ADDED, data_file("file:/imports/2024/a.parquet", 10))])]
    )
    w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 5))])], rows)
    return w


def v2_delete_rewrites_manifest() -> TreeWriter:
    """Append a, b; append c; delete b: m1 is rewritten as m3 with a EXISTING and b DELETED."""
    w = _table("v2-delete", 2)
    a, b, c = _file(w, "a.parquet", 10), _file(w, "b.parquet", 20), _file(w, "c.parquet", 5)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, a), entry(ADDED, b)])])
    r2 = w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, c)])], r1)
    m3 = w.write_manifest("m3.avro", [entry(EXISTING, a, 1, 1, 1), entry(DELETED, b, 3, 1, 1)])
    w.commit(3, "delete", [m3], [r for r in r2 if not r["manifest_path"].endswith("m1.avro")])
    return w


def upgrade_v1_v2_v3() -> TreeWriter:
    """A v1 append, the upgrade to v2 and an append, the upgrade to v3 and an append: the first v3
    snapshot assigns first_row_id to every data manifest, the v1 one included."""
    w = _table("upgrade-v1-v2-v3", 1)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10), 1)])])
    w.upgrade(2)
    r2 = w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 20))])], r1)
    w.upgrade(3)
    w.commit(
        3,
        "append",
        [w.write_manifest("m3.avro", [entry(ADDED, _file(w, "c.parquet", 5)), entry(ADDED, _file(w, "d.parquet", 7))])],
        r2,
    )
    return w


def rewrite_manifests() -> TreeWriter:
    """Two appends, then their manifests merged into one: EXISTING entries keep sequence numbers 1 and 2."""
    w = _table("rewrite-manifests", 2)
    a, b = _file(w, "a.parquet", 10), _file(w, "b.parquet", 20)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, a)])])
    w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, b)])], r1)
    w.commit(3, "replace", [w.write_manifest("m3.avro", [entry(EXISTING, a, 1, 1, 1), entry(EXISTING, b, 2, 2, 2)])])
    return w


def retried_commit() -> TreeWriter:
    """A manifest written for sequence number 2 whose commit lost the race: another writer committed
    snapshot 2; the retry commits snapshot 3 with the same manifest, whose ADDED entries inherit 3."""
    w = _table("retried-commit", 2)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10))])])
    retried = w.write_manifest("m-retry.avro", [entry(ADDED, _file(w, "c.parquet", 3))])
    r2 = w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 4))])], r1)
    w.commit(3, "append", [retried], r2)
    return w


def row_delta() -> TreeWriter:
    """v2 merge-on-read: a data manifest and a delete manifest with a position delete file (covering
    one data file) and an equality delete file, added by one snapshot."""
    w = _table("row-delta", 2)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10))])])
    pos = _file(w, "a-deletes.parquet", 2, content=1, referenced_data_file=f"{w.location}/data/a.parquet")
    eq = _file(w, "eq-deletes.parquet", 1, content=2, equality_ids=[1])
    deletes = w.write_manifest("d1.avro", [entry(ADDED, pos), entry(ADDED, eq)], content=1)
    data = w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 3))])
    w.commit(2, "overwrite", [data, deletes], r1)
    return w


def v3_compaction() -> TreeWriter:
    """v3: two appends, a deletion vector, then compaction of a and b into c: the DELETED entries keep
    their first_row_id; c gets a new range after the ones already assigned."""
    w = _table("v3-compaction", 3)
    a, b = _file(w, "a.parquet", 10), _file(w, "b.parquet", 5)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, a)])])
    r2 = w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, b)])], r1)
    dv = _file(
        w,
        "dv.puffin",
        1,
        content=1,
        file_format="PUFFIN",
        referenced_data_file=a["file_path"],
        content_offset=4,
        content_size_in_bytes=40,
    )
    w.commit(3, "delete", [w.write_manifest("d1.avro", [entry(ADDED, dv)], content=1)], r2)
    moved = [
        entry(DELETED, dict(a, first_row_id=0), 4, 1, 1),
        entry(DELETED, dict(b, first_row_id=10), 4, 2, 2),
        entry(ADDED, _file(w, "c.parquet", 14)),
    ]
    dv_gone = [entry(DELETED, dv, 4, 3, 3)]
    w.commit(4, "replace", [w.write_manifest("m3.avro", moved), w.write_manifest("d2.avro", dv_gone, content=1)], [])
    return w


def distinct_counts() -> TreeWriter:
    """v2 manifests that write the optional (deprecated) distinct_counts map, which Iceberg Java
    never writes: a reader must read the file all the same."""
    w = _table("distinct-counts", 2)
    w.write_distinct_counts = True
    r1 = w.commit(
        1, "append", [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10, distinct_counts={1: 10}))])]
    )
    w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 5))])], r1)
    return w


def dvs_in_one_puffin() -> TreeWriter:
    """v3: one Puffin file holds the DVs of two data files, two delete-file entries with the same
    file_path and different content_offset: each blob is live once (Iceberg Java writes such files)."""
    w = _table("dvs-in-one-puffin", 3)
    a, b = _file(w, "a.parquet", 10), _file(w, "b.parquet", 5)
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, a), entry(ADDED, b)])])
    dvs = [
        _file(
            w,
            "dvs.puffin",
            1,
            content=1,
            file_format="PUFFIN",
            referenced_data_file=f["file_path"],
            content_offset=offset,
            content_size_in_bytes=40,
        )
        for f, offset in ((a, 4), (b, 44))
    ]
    w.commit(2, "delete", [w.write_manifest("d1.avro", [entry(ADDED, dv) for dv in dvs], content=1)], r1)
    return w


def source_dropped_after_spec() -> TreeWriter:
    """A partition spec on `data` is replaced, then the column `data` is dropped: the manifest written
    under the old spec stays live, and its partition type comes from the newest schema that still has
    the column (Iceberg Java writes such tables; a validator once derived it from the current schema)."""
    by_data = {"spec-id": 0, "fields": [{"source-id": 2, "field-id": 1000, "name": "data", "transform": "identity"}]}
    w = TreeWriter("file:/warehouse/source-dropped", 2, SCHEMA, specs=[by_data])
    r1 = w.commit(
        1, "append", [w.write_manifest("m1.avro", [entry(ADDED, _file(w, "a.parquet", 10, partition={"data": "x"}))])]
    )
    w.add_spec({"spec-id": 1, "fields": []})
    w.commit(2, "append", [w.write_manifest("m2.avro", [entry(ADDED, _file(w, "b.parquet", 5))], spec_id=1)], r1)
    w.evolve_schema({"type": "struct", "schema-id": 1, "fields": SCHEMA["fields"][:1]})
    w.write_metadata()
    return w


def decimal_truncate() -> TreeWriter:
    """A decimal(9,2) column partitioned by truncate[3]: Avro carries the partition values as a
    4-byte fixed of the unscaled value (Appendix A), which is no string to measure against the width
    (a validator once read it so; Spark writes such tables)."""
    schema = {
        "type": "struct",
        "schema-id": 0,
        "fields": [{"id": 1, "name": "d", "required": False, "type": "decimal(9, 2)"}],
    }
    spec = {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "d_trunc", "transform": "truncate[3]"}]}
    w = TreeWriter("file:/warehouse/decimal-truncate", 2, schema, specs=[spec])
    unscaled = {"a.parquet": -108, "b.parquet": 999999999}  # -1.08 (from -1.06) and 9999999.99
    files = [
        _file(w, name, 1, partition={"d_trunc": u.to_bytes(4, "big", signed=True)}) for name, u in unscaled.items()
    ]
    w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, f) for f in files])])
    return w


TREES: dict[str, tuple[Callable[[], TreeWriter], str, tuple[str, ...]]] = {
    "v1-appends": (v1_appends, "manifest.v1-defaults", ()),
    "v2-delete": (v2_delete_rewrites_manifest, "manifest.inherit.sequence-number", ()),
    "imported-files": (imported_files, "tree.file-location", ()),
    "upgrade-v1-v2-v3": (upgrade_v1_v2_v3, "lineage.manifest-first-row-id", ADOPTED),
    "rewrite-manifests": (rewrite_manifests, "manifest.inherit.sequence-number", ()),
    "retried-commit": (retried_commit, "manifest.inherit.sequence-number", ()),
    "row-delta": (row_delta, "manifest.inherit.snapshot-id", ()),
    "v3-compaction": (v3_compaction, "lineage.file-first-row-id", ADOPTED),
    "distinct-counts": (distinct_counts, "manifest.avro-schema", ()),
    "decimal-truncate": (decimal_truncate, "tree.partition-tuple", ()),
    "source-dropped-after-spec": (source_dropped_after_spec, "tree.partition-tuple", ()),
    "dvs-in-one-puffin": (dvs_in_one_puffin, "tree.unique-live-files", ADOPTED),
}
DESCRIPTIONS = {
    name: (fn.__doc__ or name).strip().split("\n\n")[0].replace("\n    ", " ") for name, (fn, _, _) in TREES.items()
}


# --- corrupted trees ---------------------------------------------------------------------------------


def _lists(w: TreeWriter) -> list[str]:
    return [s["manifest-list"] for s in w.snapshots]


def _edit_list(w: TreeWriter, snapshot_id: int, change: Callable[[list[dict]], None]) -> None:
    """Rewrite one snapshot's manifest list with its rows changed in place."""
    path = next(s["manifest-list"] for s in w.snapshots if s["snapshot-id"] == snapshot_id)
    edit_avro(w.files, path, lambda rows, _: change(rows))


def _edit_manifest(w: TreeWriter, name: str, change: Callable[[list[dict], dict], None]) -> None:
    """Rewrite one manifest; the manifest lists that name it get its new length."""
    edit_avro(w.files, w.path(name), change)
    fix_manifest_lengths(w.files, _lists(w), w.path(name))


def _set(key: str, value, index: int = 0) -> Callable[[list[dict]], None]:
    return lambda rows: rows[index].update({key: value})


def _data_file(index: int, **changes) -> Callable[[list[dict], dict], None]:
    return lambda records, meta: records[index]["data_file"].update(changes)


CORRUPTIONS: list[tuple[str, str, str, Callable[[], TreeWriter], Callable[[TreeWriter], None]]] = [
    (
        "tree.manifest-counts",
        "added-files-count",
        "the manifest list says 2 added files; the manifest has 1",
        retried_commit,
        lambda w: _edit_list(w, 3, _set("added_files_count", 2)),
    ),
    (
        "tree.manifest-counts",
        "deleted-rows-count",
        "deleted_rows_count 0 for a manifest with a DELETED entry of 20 rows",
        v2_delete_rewrites_manifest,
        lambda w: _edit_list(w, 3, _set("deleted_rows_count", 0)),
    ),
    (
        "tree.manifest-counts",
        "existing-files-count",
        "existing_files_count 0 for a manifest with an EXISTING entry",
        v2_delete_rewrites_manifest,
        lambda w: _edit_list(w, 3, _set("existing_files_count", 0)),
    ),
    (
        "tree.min-sequence-number",
        "too-high",
        "min_sequence_number 2 for a manifest whose EXISTING file has data sequence number 1",
        v2_delete_rewrites_manifest,
        lambda w: _edit_list(w, 3, _set("min_sequence_number", 2)),
    ),
    (
        "tree.manifest-length",
        "wrong-length",
        "manifest_length one byte short of the file",
        v1_appends,
        lambda w: _edit_list(w, 1, lambda rows: rows[0].update(manifest_length=rows[0]["manifest_length"] - 1)),
    ),
    (
        "tree.partition-spec-id",
        "unknown-spec",
        "partition_spec_id 7 is not a spec of the table",
        v2_delete_rewrites_manifest,
        lambda w: _edit_list(w, 1, _set("partition_spec_id", 7)),
    ),
    (
        "manifest.inherit.sequence-number",
        "existing-without-sequence-numbers",
        "an EXISTING entry written without sequence numbers",
        rewrite_manifests,
        lambda w: _edit_manifest(
            w, "m3.avro", lambda r, m: r[0].update(sequence_number=None, file_sequence_number=None)
        ),
    ),
    (
        "tree.sequence-number-bound",
        "entry-above-snapshot",
        "an EXISTING entry with data and file sequence number 9 in snapshot 3 (sequence number 3)",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m3.avro", lambda r, m: r[1].update(sequence_number=9, file_sequence_number=9)),
    ),
    (
        "tree.sequence-number-bound",
        "data-after-file",
        "an EXISTING entry whose data sequence number 1 exceeds its file sequence number 0",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m3.avro", lambda r, m: r[0].update(file_sequence_number=0)),
    ),
    (
        "tree.unique-live-files",
        "file-live-twice",
        "the rewritten manifest keeps a live while the original manifest is also carried over",
        v2_delete_rewrites_manifest,
        lambda w: _edit_list(
            w, 3, lambda rows: rows.extend(r for r in _rows(w, 2) if r["manifest_path"].endswith("m1.avro"))
        ),
    ),
    (
        "tree.content",
        "delete-file-in-data-manifest",
        "a position delete file in a data manifest",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m1.avro", _data_file(0, content=1)),
    ),
    (
        "tree.file-path-uri",
        "file-path-without-scheme",
        "a data file whose file_path is a bare path (/warehouse/...), not a URI with a scheme",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m1.avro", _data_file(0, file_path="/warehouse/rewrite-manifests/data/a.parquet")),
    ),
    (
        "tree.equality-ids",
        "equality-delete-without-ids",
        "an equality delete file without equality_ids",
        row_delta,
        lambda w: _edit_manifest(w, "d1.avro", _data_file(1, equality_ids=None)),
    ),
    (
        "tree.equality-ids",
        "equality-ids-on-data-file",
        "a data file with equality_ids [1]: only equality delete files carry them",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m1.avro", _data_file(0, equality_ids=[1])),
    ),
    (
        "tree.partition-tuple",
        "bucket-out-of-range",
        "partition value 4 for bucket[4] (0..3)",
        v1_appends,
        lambda w: _edit_manifest(w, "m2.avro", _data_file(0, partition={"id_bucket": 4})),
    ),
    (
        "tree.bounds",
        "bound-does-not-decode",
        "a 3-byte lower bound for a long column",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m1.avro", _data_file(0, lower_bounds=[{"key": 1, "value": b"\x01\x02\x03"}])),
    ),
    (
        "tree.bounds",
        "lower-above-upper",
        "lower bound 5 above upper bound 3",
        rewrite_manifests,
        lambda w: _edit_manifest(
            w,
            "m1.avro",
            _data_file(
                0,
                lower_bounds=[{"key": 1, "value": (5).to_bytes(8, "little")}],
                upper_bounds=[{"key": 1, "value": (3).to_bytes(8, "little")}],
            ),
        ),
    ),
    (
        "tree.manifest-metadata",
        "v2-without-content-key",
        "a v2 manifest without the 'content' key-value metadata",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("content")),
    ),
    (
        "tree.manifest-metadata",
        "v2-without-partition-spec-id",
        "a v2 manifest without the 'partition-spec-id' key-value metadata",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("partition-spec-id")),
    ),
    (
        "tree.manifest-metadata",
        "v2-without-schema",
        "a v2 manifest without the 'schema' key-value metadata",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("schema")),
    ),
    (
        "tree.manifest-metadata",
        "v1-without-schema",
        "a v1 manifest without the 'schema' key-value metadata (required in v1 as well)",
        v1_appends,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("schema")),
    ),
    (
        "tree.manifest-metadata",
        "v2-without-format-version",
        "a v2 manifest (with the v2 entry fields) without the 'format-version' key-value metadata, required from v2",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("format-version")),
    ),
    (
        "tree.manifest-schema-id",
        "v2-without-schema-id",
        "a v2 manifest without the 'schema-id' key-value metadata (Iceberg Java 1.10 "
        "never writes it: apache/iceberg#10927)",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.pop("schema-id")),
    ),
    (
        "tree.manifest-metadata",
        "spec-id-disagrees",
        "the manifest's partition-spec-id says 1, the manifest list 0",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.update({"partition-spec-id": "1"})),
    ),
    (
        "tree.manifest-partition-spec",
        "fields-of-no-table-spec",
        "the manifest's partition-spec metadata holds a bucket[4] field; spec 0, which the manifest list names, "
        "is unpartitioned",
        rewrite_manifests,
        lambda w: _edit_manifest(
            w,
            "m2.avro",
            lambda r, m: m.update(
                {"partition-spec": '[{"source-id":1,"field-id":1000,"name":"id_bucket","transform":"bucket[4]"}]'}
            ),
        ),
    ),
    (
        "tree.manifest-partition-spec",
        "v3-whole-spec-object",
        "a v3 manifest whose partition-spec metadata is the whole spec object {spec-id, fields} of spec 0, not "
        "its fields array",
        v3_compaction,
        lambda w: _edit_manifest(w, "m1.avro", lambda r, m: m.update({"partition-spec": '{"spec-id":0,"fields":[]}'})),
    ),
    (
        "tree.manifest-partition-spec",
        "field-renamed",
        "the manifest's partition-spec metadata names the truncate[3] field 'd_trunc3'; the table's spec 0 "
        "names it 'd_trunc'",
        decimal_truncate,
        lambda w: _edit_manifest(
            w,
            "m1.avro",
            lambda r, m: m.update(
                {"partition-spec": '[{"source-id":1,"field-id":1000,"name":"d_trunc3","transform":"truncate[3]"}]'}
            ),
        ),
    ),
    (
        "tree.deletion-vector-fields",
        "dv-without-referenced-file",
        "a Puffin delete file without referenced_data_file",
        v3_compaction,
        lambda w: _edit_manifest(w, "d1.avro", _data_file(0, referenced_data_file=None)),
    ),
    (
        "tree.first-row-id",
        "overlapping-ranges",
        "data file b given first_row_id 5, inside a's range [0, 10)",
        v3_compaction,
        lambda w: _edit_manifest(w, "m2.avro", _data_file(0, first_row_id=5)),
    ),
    (
        "tree.first-row-id",
        "delete-file-with-first-row-id",
        "a deletion vector written with first_row_id 7 (delete files always have null)",
        v3_compaction,
        lambda w: _edit_manifest(w, "d1.avro", _data_file(0, first_row_id=7)),
    ),
    (
        "tree.first-row-id",
        "v3-manifest-without-first-row-id",
        "a data manifest without first_row_id in a v3 snapshot",
        v3_compaction,
        lambda w: _edit_list(w, 2, _set("first_row_id", None)),
    ),
    (
        "tree.file-exists",
        "missing-manifest",
        "the manifest list names a manifest that is not there",
        v1_appends,
        lambda w: w.files.pop(w.path("m1.avro")),
    ),
    (
        "manifest.avro-file",
        "manifest-not-avro",
        "the manifest's bytes are not an Avro file",
        v1_appends,
        lambda w: w.files.update({w.path("m2.avro"): b"PAR1 not avro"}),
    ),
    (
        "tree.manifest-format-version",
        "v3-manifest-in-v2-table",
        "a manifest whose format-version key says 3 in a v2 table",
        rewrite_manifests,
        lambda w: _edit_manifest(w, "m2.avro", lambda r, m: m.update({"format-version": "3"})),
    ),
    (
        "tree.unwritten-fields",
        "v1-fields-in-v2-manifest",
        "a manifest of a v2 table written with the v1 schema but format-version 2: "
        "block_size_in_bytes is written and content is missing",
        v2_delete_rewrites_manifest,
        lambda w: _as_v1_schema(w, "m2.avro"),
    ),
]


def _rows(w: TreeWriter, snapshot_id: int) -> list[dict]:
    path = next(s["manifest-list"] for s in w.snapshots if s["snapshot-id"] == snapshot_id)
    return read_avro(w.files[path], path).records


def _as_v1_schema(w: TreeWriter, name: str) -> None:
    from spec_impl.manifests.avro_schemas import manifest_schema

    path = w.path(name)
    f = read_avro(w.files[path], path)
    records = [
        {
            "status": r["status"],
            "snapshot_id": r["snapshot_id"] or 2,
            "data_file": {
                **{k: v for k, v in r["data_file"].items() if k != "content"},
                "block_size_in_bytes": 67108864,
            },
        }
        for r in f.records
    ]
    w.files[path] = write_avro(manifest_schema(1), records, f.metadata)
    fix_manifest_lengths(w.files, _lists(w), path)


def _with_v1_fields(
    w: TreeWriter, list_fields=(), file_fields=(), entry_fields=(), manifests=("m1.avro", "m2.avro")
) -> TreeWriter:
    """Every manifest list and manifest of a tree (v1 by default) rewritten with extra fields, each
    an (Avro field, value) pair: in the manifest list rows, in data_file, or in the manifest entry."""
    for path in [*_lists(w), *(w.path(m) for m in manifests)]:
        f = read_avro(w.files[path], path)
        schema, records = copy.deepcopy(f.schema), [dict(r) for r in f.records]
        if path in _lists(w):
            schema["fields"].extend(a for a, _ in list_fields)
            records = [{**r, **{a["name"]: v for a, v in list_fields}} for r in records]
        else:
            data_file_record = next(x["type"] for x in schema["fields"] if x["name"] == "data_file")
            data_file_record["fields"].extend(a for a, _ in file_fields)
            schema["fields"].extend(a for a, _ in entry_fields)
            records = [
                {
                    **r,
                    **{a["name"]: v for a, v in entry_fields},
                    "data_file": {**r["data_file"], **{a["name"]: v for a, v in file_fields}},
                }
                for r in records
            ]
        w.files[path] = write_avro(schema, records, f.metadata)
        if not path.endswith("manifest-list.avro") and path not in _lists(w):
            fix_manifest_lengths(w.files, _lists(w), path)
    return w


def _with_v1_content(w: TreeWriter, list_content: int, file_content: int) -> TreeWriter:
    """A v1 tree with the `content` field (517 in the list, 134 in data_file) set to the given values:
    Appendix E lets a v1 writer write 0 there."""
    return _with_v1_fields(
        w,
        [({"name": "content", "type": "int", "field-id": 517}, list_content)],
        [({"name": "content", "type": "int", "field-id": 134}, file_content)],
    )


def _v1_sequence_number_cases() -> Iterator[CaseSpec]:
    """Appendix E, writing v1 metadata: the sequence number fields "should not be written"."""
    seq = [
        ({"name": "sequence_number", "type": "long", "field-id": 515}, 0),
        ({"name": "min_sequence_number", "type": "long", "field-id": 516}, 0),
    ]
    yield case(
        "tree.unwritten-fields",
        "v1-list-sequence-numbers",
        "corrupted tree: v1 manifest lists that write sequence_number and min_sequence_number",
        "validate-tree",
        **_inputs(_with_v1_fields(v1_appends(), list_fields=seq)),
    )
    entry = [
        ({"name": "sequence_number", "type": ["null", "long"], "field-id": 3, "default": None}, 0),
        ({"name": "file_sequence_number", "type": ["null", "long"], "field-id": 4, "default": None}, 0),
    ]
    yield case(
        "tree.unwritten-fields",
        "v1-entry-sequence-numbers",
        "corrupted tree: v1 manifest entries that write sequence_number and file_sequence_number",
        "validate-tree",
        **_inputs(_with_v1_fields(v1_appends(), entry_fields=entry)),
    )


V2_MANIFESTS = ("m1.avro", "m2.avro", "m3.avro")  # the manifests of v2_delete_rewrites_manifest


def _deprecated_field_cases() -> Iterator[CaseSpec]:
    """Manifests, data_file fields 106 file_ordinal and 107 sort_columns: "Deprecated. Do not write."
    (Appendix E, version 2: both "removed")."""
    ordinal = [({"name": "file_ordinal", "type": ["null", "int"], "field-id": 106, "default": None}, 0)]
    sort_columns = [
        (
            {
                "name": "sort_columns",
                "type": ["null", {"type": "array", "items": "int", "element-id": 112}],
                "field-id": 107,
                "default": None,
            },
            [1],
        )
    ]
    yield case(
        "tree.unwritten-fields",
        "v1-file-ordinal-written",
        "corrupted tree: v1 data files that write the deprecated file_ordinal (106)",
        "validate-tree",
        **_inputs(_with_v1_fields(v1_appends(), file_fields=ordinal)),
    )
    yield case(
        "tree.unwritten-fields",
        "v2-sort-columns-written",
        "corrupted tree: v2 data files that write the deprecated sort_columns (107), which v2 removed",
        "validate-tree",
        **_inputs(_with_v1_fields(v2_delete_rewrites_manifest(), file_fields=sort_columns, manifests=V2_MANIFESTS)),
    )
    yield case(
        "tree.unwritten-fields",
        "v2-file-ordinal-written",
        "corrupted tree: v2 data files that write the deprecated file_ordinal (106), which v2 removed",
        "validate-tree",
        **_inputs(_with_v1_fields(v2_delete_rewrites_manifest(), file_fields=ordinal, manifests=V2_MANIFESTS)),
    )
    reserved = [({"name": "spec_id", "type": ["null", "int"], "field-id": 141, "default": None}, 0)]
    for version, tree, manifests, scope in (
        (3, v3_compaction, ("m1.avro", "m2.avro"), ""),
        (1, v1_appends, ("m1.avro", "m2.avro"), " in every version"),
        (2, v2_delete_rewrites_manifest, V2_MANIFESTS, " in every version"),
    ):
        yield case(
            "tree.unwritten-fields",
            f"v{version}-reserved-field-id-141",
            f"corrupted tree: v{version} data files with a field of id 141, which is reserved on data_file{scope}",
            "validate-tree",
            **_inputs(_with_v1_fields(tree(), file_fields=reserved, manifests=manifests)),
        )


def _v1_content_cases() -> Iterator[CaseSpec]:
    """Appendix E, writing v1 metadata: manifest list and data file `content` "must be 0 (data) or
    omitted"."""
    yield case(
        "tree.unwritten-fields",
        "v1-content-0-written",
        "a v1 tree whose manifest lists and data files write content 0: Appendix E allows it, no violation",
        "validate-tree",
        **_inputs(_with_v1_content(v1_appends(), 0, 0)),
    )
    yield case(
        "tree.unwritten-fields",
        "v1-list-content-1",
        "corrupted tree: a v1 manifest list whose rows say content 1 (deletes), where it must be 0 or omitted",
        "validate-tree",
        **_inputs(_with_v1_content(v1_appends(), 1, 0)),
    )
    yield case(
        "tree.unwritten-fields",
        "v1-data-file-content-2",
        "corrupted tree: v1 data files with content 2 (equality deletes), where it must be 0 or omitted",
        "validate-tree",
        **_inputs(_with_v1_content(v1_appends(), 0, 2)),
    )


def specs() -> Iterator[CaseSpec]:
    for name, (build, rule_id, revs) in TREES.items():
        w = build()
        for s in w.snapshots:
            yield case(
                rule_id,
                f"{name}-snapshot-{s['snapshot-id']}",
                f"{DESCRIPTIONS[name]} Snapshot {s['snapshot-id']}: every entry's "
                "inherited sequence numbers, snapshot id and (v3) first row id",
                "read-manifest-tree",
                revisions=revs or None,
                snapshot_id=s["snapshot-id"],
                **_inputs(w, s["snapshot-id"]),
            )
        yield case(
            "tree.required-fields",
            f"{name}-valid",
            f"{DESCRIPTIONS[name]} A correct tree: no violation",
            "validate-tree",
            revisions=revs or None,
            **_inputs(w),
        )
    w = v2_delete_rewrites_manifest()
    yield case(
        "tree.snapshot",
        "no-such-snapshot",
        "reading snapshot 99, which the table does not have",
        "read-manifest-tree",
        snapshot_id=99,
        **_inputs(w),
    )
    w = rewrite_manifests()
    _edit_manifest(w, "m3.avro", lambda r, m: r[0].update(sequence_number=None, file_sequence_number=None))
    yield case(
        "manifest.inherit.sequence-number",
        "reading-existing-without-sequence-numbers",
        "a reader must reject an EXISTING entry written without sequence numbers rather than inherit the manifest's 3",
        "read-manifest-tree",
        snapshot_id=3,
        **_inputs(w, 3),
    )
    for rule_id, slug, description, build, corrupt in CORRUPTIONS:
        w = build()
        corrupt(w)
        yield case(rule_id, slug, f"corrupted tree: {description}", "validate-tree", **_inputs(w))
    yield from _v1_content_cases()
    yield from _v1_sequence_number_cases()
    yield from _deprecated_field_cases()
    yield from _manifest_tree_fields.specs(sys.modules[__name__])
