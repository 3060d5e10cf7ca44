"""Reading and validating metadata trees (spec_impl.manifests.tree, .validate, .writer, .avro_files).

The trees here are written by the reference's `TreeWriter`; trees written by Iceberg Java are
checked in tests/test_engine_trees.py (captured) and conformance/test_spark_trees.py (live).
"""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.manifests.avro_files import avro_map, read_avro, to_avro_map, write_avro
from spec_impl.manifests.tree import InMemoryFiles, LocalFiles, read_snapshot, tree_reading
from spec_impl.manifests.validate import validate_table
from spec_impl.manifests.writer import TreeWriter, data_file, entry
from spec_impl.vectors.families import manifest_trees as trees


def _reading(w: TreeWriter, snapshot_id: int | None = None) -> dict:
    return tree_reading(read_snapshot(InMemoryFiles(w.files), w.metadata_location, snapshot_id))


def _entries(reading: dict) -> dict[str, tuple]:
    return {
        e["file_path"].rsplit("/", 1)[1]: (
            e["status"],
            e["snapshot_id"],
            e["sequence_number"],
            e["file_sequence_number"],
            e["first_row_id"],
        )
        for e in reading["entries"]
    }


def test_avro_file_errors_name_the_rule_and_path():
    with pytest.raises(InvalidInput) as e:
        read_avro(b"not an avro file", "s3://b/m.avro")
    assert e.value.rule == "manifest.avro-file" and "s3://b/m.avro" in str(e.value)


def test_avro_writing_is_deterministic_and_keeps_physical_values():
    schema = {
        "type": "record",
        "name": "r",
        "fields": [
            {"name": "d", "type": {"type": "int", "logicalType": "date"}},
            {
                "name": "m",
                "type": {
                    "type": "array",
                    "items": {
                        "type": "record",
                        "name": "kv",
                        "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "bytes"}],
                    },
                },
            },
        ],
    }
    data = write_avro(schema, [{"d": 19723, "m": to_avro_map({1: b"\x01"})}], {"k": "v"})
    assert data == write_avro(schema, [{"d": 19723, "m": to_avro_map({1: b"\x01"})}], {"k": "v"})
    f = read_avro(data)
    assert f.records[0]["d"] == 19723 and avro_map(f.records[0]["m"]) == {1: b"\x01"} and f.metadata == {"k": "v"}


def test_v2_delete_reads_existing_and_deleted_entries_with_their_own_sequence_numbers():
    r = _reading(trees.v2_delete_rewrites_manifest())
    assert _entries(r) == {
        "a.parquet": (0, 1, 1, 1, None),
        "b.parquet": (2, 3, 1, 1, None),
        "c.parquet": (1, 2, 2, 2, None),
    }
    assert [m["min_sequence_number"] for m in r["manifests"]] == [1, 2]


def test_retried_commit_inherits_the_sequence_number_of_the_list_that_commits_it():
    r = _reading(trees.retried_commit())
    assert _entries(r)["c.parquet"] == (1, 3, 3, 3, None)


def test_upgrade_reads_v1_entries_as_zero_and_assigns_row_ids_in_the_first_v3_snapshot():
    w = trees.upgrade_v1_v2_v3()
    assert _entries(_reading(w, 2))["a.parquet"] == (1, 1, 0, 0, None)
    entries = _entries(_reading(w, 3))
    # new manifest first: c 0..4, d 5..11; then b (12..31) and the v1 manifest a (32..41)
    assert [entries[n][4] for n in ("c.parquet", "d.parquet", "b.parquet", "a.parquet")] == [0, 5, 12, 32]
    assert entries["a.parquet"][2:4] == (0, 0)


def test_v3_compaction_keeps_deleted_ids_and_gives_new_file_a_new_range():
    entries = _entries(_reading(trees.v3_compaction()))
    assert entries["a.parquet"] == (2, 4, 1, 1, 0) and entries["b.parquet"] == (2, 4, 2, 2, 10)
    assert entries["c.parquet"] == (1, 4, 4, 4, 15) and entries["dv.puffin"][4] is None


def test_v1_snapshot_with_inline_manifests_list(tmp_path):
    w = trees.v1_appends()
    import json

    doc = json.loads(w.files[w.metadata_location])
    for s in doc["snapshots"]:  # v1 allowed "manifests" instead of a manifest list
        s["manifests"] = (
            [f"{w.location}/metadata/m{s['snapshot-id']}.avro"]
            if s["snapshot-id"] == 1
            else [f"{w.location}/metadata/m2.avro", f"{w.location}/metadata/m1.avro"]
        )
        del s["manifest-list"]
    w.files[w.metadata_location] = json.dumps(doc).encode()
    r = _reading(w)
    assert _entries(r) == {"b.parquet": (1, 2, 0, 0, None), "a.parquet": (1, 1, 0, 0, None)}


def test_local_files_read_file_uris(tmp_path):
    (tmp_path / "x.avro").write_bytes(b"abc")
    assert LocalFiles().read(f"file:{tmp_path}/x.avro") == b"abc" == LocalFiles().read(f"file://{tmp_path}/x.avro")
    with pytest.raises(InvalidInput) as e:
        LocalFiles().read(f"file:{tmp_path}/missing.avro")
    assert e.value.rule == "tree.file-exists"


def test_reading_unknown_snapshot_and_missing_file():
    w = trees.rewrite_manifests()
    with pytest.raises(InvalidInput) as e:
        _reading(w, 42)
    assert e.value.rule == "tree.snapshot"
    del w.files[w.path("m3.avro")]
    with pytest.raises(InvalidInput) as e:
        _reading(w)
    assert e.value.rule == "tree.file-exists"


def test_manifest_with_a_newer_format_version_than_the_table():
    w = trees.rewrite_manifests()
    trees._edit_manifest(w, "m3.avro", lambda records, meta: meta.update({"format-version": "3"}))
    with pytest.raises(InvalidInput) as e:
        _reading(w)
    assert e.value.rule == "tree.manifest-format-version"


@pytest.mark.parametrize("name", sorted(trees.TREES))
def test_trees_of_the_writer_are_valid(name):
    w = trees.TREES[name][0]()
    assert validate_table(InMemoryFiles(w.files), w.metadata_location) == []


@pytest.mark.parametrize(
    "rule_id,slug,build,corrupt",
    [(c[0], c[1], c[3], c[4]) for c in trees.CORRUPTIONS],
    ids=[c[1] for c in trees.CORRUPTIONS],
)
def test_validator_finds_each_corruption(rule_id, slug, build, corrupt):
    """Rules: tree.manifest-counts, tree.min-sequence-number, tree.manifest-length, tree.partition-spec-id,
    tree.sequence-number-bound, tree.unique-live-files, tree.content, tree.equality-ids, tree.partition-tuple,
    tree.bounds, tree.manifest-metadata, tree.manifest-schema-id, tree.deletion-vector-fields, tree.first-row-id,
    tree.file-exists, tree.unwritten-fields, tree.required-fields, manifest.avro-file, tree.manifest-format-version,
    tree.file-path-uri."""
    w = build()
    assert validate_table(InMemoryFiles(w.files), w.metadata_location) == []
    corrupt(w)
    violations = validate_table(InMemoryFiles(w.files), w.metadata_location)
    assert rule_id in {v.rule for v in violations}
    assert all(v.path and v.message for v in violations)


@pytest.mark.parametrize(
    "file_path,violates",
    [
        ("s3://bucket/t/data/a.parquet", False),
        ("hdfs://nn:8020/t/a.parquet", False),
        ("file:///warehouse/t/a.parquet", False),
        ("/warehouse/t/a.parquet", True),
        ("warehouse/t/a.parquet", True),
        ("C:/warehouse/t/a.parquet", True),
    ],
)
def test_file_path_is_a_uri_with_a_scheme(file_path, violates):
    """tree.file-path-uri: "Full URI for the file with FS scheme"; a drive letter is no scheme."""
    w = trees.rewrite_manifests()
    trees._edit_manifest(w, "m1.avro", lambda records, meta: records[0]["data_file"].update(file_path=file_path))
    rules = {v.rule for v in validate_table(InMemoryFiles(w.files), w.metadata_location)}
    assert ("tree.file-path-uri" in rules) == violates


def test_validator_reports_every_violation_not_only_the_first():
    w = trees.rewrite_manifests()
    trees._edit_list(w, 3, lambda rows: rows[0].update(added_files_count=5, min_sequence_number=0))
    trees._edit_manifest(w, "m1.avro", lambda records, meta: records[0]["data_file"].update(content=1))
    rules = {v.rule for v in validate_table(InMemoryFiles(w.files), w.metadata_location)}
    assert {"tree.manifest-counts", "tree.min-sequence-number", "tree.content"} <= rules


def test_unreadable_metadata_is_one_violation():
    [v] = validate_table(InMemoryFiles({"m.json": b"{"}), "m.json")
    assert v.rule == "table.field-type" and v.path == "m.json"


def test_writer_counts_and_min_sequence_number():
    w = TreeWriter("file:/t", 2, trees.SCHEMA)
    f = data_file("file:/t/data/a.parquet", 7)
    m = w.write_manifest("m.avro", [entry(1, f), entry(0, dict(f, file_path="file:/t/data/b.parquet"), 9, 0, 0)])
    [row] = w.commit(10, "append", [m], sequence_number=4)
    assert (
        row["added_files_count"],
        row["existing_files_count"],
        row["added_rows_count"],
        row["min_sequence_number"],
    ) == (1, 1, 7, 0)


def test_validate_table_cli(tmp_path, capsys):
    import json

    from spec_impl.validate import cli

    w = TreeWriter(f"file:{tmp_path}/t", 2, trees.SCHEMA)
    rows = w.commit(
        1, "append", [w.write_manifest("m1.avro", [entry(1, data_file(f"file:{tmp_path}/t/data/a.parquet", 3))])]
    )
    w.commit(
        2, "append", [w.write_manifest("m2.avro", [entry(1, data_file(f"file:{tmp_path}/t/data/b.parquet", 4))])], rows
    )

    def materialize():
        for path, data in w.files.items():
            local = tmp_path / path.removeprefix(f"file:{tmp_path}/")
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(data)

    materialize()
    assert cli.main([w.metadata_location]) == 0 and "ok: no violation" in capsys.readouterr().out
    trees._edit_list(w, 2, lambda rows: rows[0].update(added_files_count=3))
    materialize()
    assert cli.main([w.metadata_location.removeprefix("file:")]) == 1
    assert "[tree.manifest-counts]" in capsys.readouterr().out
    assert cli.main([w.metadata_location, "--json"]) == 1
    assert [v["rule"] for v in json.loads(capsys.readouterr().out)] == ["tree.manifest-counts"]


class _CountingFiles(InMemoryFiles):
    """Files in memory that count how often each path is read."""

    def __init__(self, files):
        super().__init__(files)
        self.reads: dict[str, int] = {}

    def read(self, path: str) -> bytes:
        self.reads[path] = self.reads.get(path, 0) + 1
        return super().read(path)


def test_manifests_are_read_as_they_are_iterated():
    """`read_snapshot` reads the metadata file and the manifest list; each manifest is read when the
    iteration reaches it (so a reader walking them holds one at a time), and again on a second walk."""
    w = trees.row_delta()
    files = _CountingFiles(w.files)
    tree = read_snapshot(files, w.metadata_location)
    manifests = [r["manifest_path"] for r in tree.manifests.rows]
    assert len(manifests) >= 2 and not any(p in files.reads for p in manifests)
    walk = iter(tree.manifests)
    first = next(walk)
    assert first.path == manifests[0] and [p for p in manifests if p in files.reads] == manifests[:1]
    assert [m.path for m in walk] == manifests[1:]
    assert len(tree.manifests) == len(manifests) and tree.manifests[1].path == manifests[1]
    assert tree_reading(tree) == tree_reading(read_snapshot(InMemoryFiles(w.files), w.metadata_location))


@pytest.mark.parametrize("name", ["retried-commit", "v3-compaction", "upgrade-v1-v2-v3"])
def test_validator_reads_each_manifest_once_for_all_snapshots_that_list_it(name):
    """The tree validator keeps a digest of each manifest (its live files, row-id ranges, largest
    sequence number), not its entries: a manifest listed by several snapshots with the same list
    row is read once; with other rows (an upgrade changes the inherited values), once per row."""
    w = trees.TREES[name][0]()
    files = _CountingFiles(w.files)
    assert validate_table(files, w.metadata_location) == []
    rows: dict[str, set[str]] = {}
    listings = 0
    for s in w.snapshots:
        for r in trees._rows(w, s["snapshot-id"]):
            rows.setdefault(r["manifest_path"], set()).add(repr(sorted(r.items())))
            listings += 1
    assert {p: files.reads[p] for p in rows} == {p: len(distinct) for p, distinct in rows.items()}
    assert listings > len(rows)  # later snapshots list earlier manifests
