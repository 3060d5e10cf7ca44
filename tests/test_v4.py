"""The v4 "Single File Commits" proposal (spec_impl.v4): entries, files, replay, commits, validator.

Each "Examples" section of the proposal is a test with the live set the proposal implies; each
rule has a valid case and an invalid tree naming its rule id.
"""

from __future__ import annotations

import dataclasses

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.manifests.inheritance import ADDED as V3_ADDED
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.manifests.writer import TreeWriter, data_file as v3_data_file, entry as v3_entry
from spec_impl.rules import RULES
from spec_impl.v4 import PROVISIONAL_RULES
from spec_impl.v4.commits import (
    Operation,
    TableState,
    append,
    commit,
    compact,
    delete_files,
    manifest_stats,
    overwrite,
    row_delta,
    upgrade_from_v3,
)
from spec_impl.v4.entries import (
    ADDED,
    DATA,
    DATA_MANIFEST,
    DELETE_MANIFEST,
    DELETED,
    EXISTING,
    MANIFEST_DV,
    POSITION_DELETE,
    ContentEntry,
    DeletionVectorRef,
    content_entry_schema,
    data_file,
    equality_delete,
)
from spec_impl.v4.files import inline_manifest_dv, puffin_dvs, read_manifest, write_manifest
from spec_impl.v4.replay import replay
from spec_impl.v4.validate import validate_snapshot

L = "s3://b/t"


def D(n: int) -> str:
    return f"{L}/data/d{n}.parquet"


class Table:
    """Commits applied in order, every file kept, every snapshot validated against its parent."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.state = TableState.empty(L)
        self.commits = []

    def read(self, path: str) -> bytes:
        return InMemoryFiles(self.files).read(path)

    def apply(self, fn, *args, **kw):
        c = fn(self.state, self.read, len(self.commits) + 1, *args, **kw)
        self.files.update(c.files)
        parent = self.commits[-1].root if self.commits else None
        assert validate_snapshot(self.read, c.root, parent) == []
        self.commits.append(c)
        self.state = c.state
        return c

    def live(self, snapshot: int | None = None) -> list[str]:
        c = self.commits[-1 if snapshot is None else snapshot - 1]
        return sorted(p.rsplit("/", 1)[1] for p in replay(self.read, c.root).data_files)

    def rewrite_root(self, c, entries) -> None:
        """Replace the root of commit `c` with `entries` (an invalid tree, on purpose)."""
        self.files[c.root.location] = write_manifest("root", entries)

    def violations(self, index: int = -1) -> set[str]:
        c = self.commits[index]
        parent = self.commits[index - 1].root if len(self.commits) + index > 0 and index != 0 else None
        return {v.rule for v in validate_snapshot(self.read, c.root, parent)}


def files(*ns: int) -> list[ContentEntry]:
    return [data_file(D(n), 10 * n) for n in ns]


def shape(c) -> list[tuple[str, int, str]]:
    """The root's entries as (status, type, name)."""
    names = {ADDED: "ADDED", EXISTING: "EXISTING", DELETED: "DELETED"}
    return [(names[e.status], e.content_type, e.location.rsplit("/", 1)[1]) for e in c.written]


# --- entries and files -------------------------------------------------------------------------------


def test_content_entry_field_ids_and_types():
    """v4.entry.content-type: the proposal's field ids and content types 0..5."""
    schema = content_entry_schema()
    ids = {f["name"]: f["field-id"] for f in schema["fields"]}
    assert ids == {
        "content_type": 134,
        "location": 100,
        "file_format": 101,
        "version_info": 5,
        "deletion_vector": 147,
        "partition_spec_id": 148,
        "sort_order_id": 140,
        "record_count": 103,
        "file_size_in_bytes": 104,
        "manifest_stats": 521,
        "referenced_file": 143,
        "key_metadata": 131,
        "split_offsets": 132,
        "equality_ids": 135,
        "first_row_id": 142,
    }
    vi = next(f for f in schema["fields"] if f["name"] == "version_info")["type"][1]
    assert [(f["name"], f["field-id"]) for f in vi["fields"]] == [
        ("status", 0),
        ("snapshot_id", 1),
        ("sequence_number", 3),
        ("file_sequence_number", 4),
    ]
    dv = next(f for f in schema["fields"] if f["name"] == "deletion_vector")["type"][1]
    assert [f["field-id"] for f in dv["fields"]] == [144, 145, 146]
    stats = next(f for f in schema["fields"] if f["name"] == "manifest_stats")["type"][1]
    assert [f["field-id"] for f in stats["fields"]] == [504, 505, 506, 512, 513, 514, 516]
    assert (DATA, POSITION_DELETE, DATA_MANIFEST, DELETE_MANIFEST, MANIFEST_DV) == (0, 1, 3, 4, 5)
    with pytest.raises(InvalidInput, match="v4.entry.content-type"):
        ContentEntry.from_record(dict(data_file(D(1), 1).to_record(), content_type=6))


def test_entry_records_round_trip_and_reject_bad_values():
    """v4.entry.status, v4.entry.required; a null version_info reads as ADDED."""
    e = ContentEntry(
        MANIFEST_DV,
        "x#dv",
        "puffin",
        2,
        EXISTING,
        3,
        4,
        4,
        deletion_vector=DeletionVectorRef(inline_content=b"ab"),
        referenced_file="m",
    )
    assert ContentEntry.from_record(e.to_record()) == e
    bad = e.to_record()
    bad["version_info"]["status"] = 3
    with pytest.raises(InvalidInput, match="v4.entry.status"):
        ContentEntry.from_record(bad)
    with pytest.raises(InvalidInput, match="v4.entry.required"):
        ContentEntry.from_record(dict(e.to_record(), location=None))
    assert ContentEntry.from_record(dict(e.to_record(), version_info=None)).status == ADDED


def test_manifest_files_carry_format_version_4_and_content():
    """v4.manifest.metadata: key-value metadata format-version 4, content data | delete | root; deterministic."""
    data = write_manifest("root", files(1))
    assert data == write_manifest("root", files(1))
    f = read_manifest(data, "r.avro")
    assert (f.format_version, f.content, f.entries) == (4, "root", tuple(files(1)))
    with pytest.raises(InvalidInput, match="v4.manifest.metadata"):
        write_manifest("deletes", [])
    from spec_impl.manifests.avro_files import write_avro

    with pytest.raises(InvalidInput, match="v4.manifest.metadata"):
        read_manifest(write_avro(content_entry_schema(), [], {"format-version": "3", "content": "root"}), "r.avro")


def test_dv_storage_inline_and_puffin():
    """v4.dv.storage: manifest DVs inline or in Puffin; data DVs only in Puffin."""
    from spec_impl.v4.files import check_dv_storage, dv_positions

    inline = inline_manifest_dv("r#dv-0", "m.avro", [2, 0])
    assert dv_positions(None, inline) == {0, 2} and inline.record_count == 2
    data, (e,) = puffin_dvs("p.puffin", MANIFEST_DV, {"m.avro": [1]})
    assert dv_positions({"p.puffin": data}.__getitem__, e) == {1}
    with pytest.raises(InvalidInput, match="v4.dv.storage"):
        check_dv_storage(dataclasses.replace(inline, content_type=POSITION_DELETE))


# --- examples of the proposal ------------------------------------------------------------------------------


def test_example_appends_to_the_root_manifest():
    """Examples, "Appends To the Root Manifest": D4, then D5 at the root; v4.replay.live-files."""
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(append, files(4))
    assert shape(c2) == [("EXISTING", DATA_MANIFEST, "1-data.avro"), ("ADDED", DATA, "d4.parquet")]
    c3 = t.apply(append, files(5))
    assert shape(c3) == [
        ("EXISTING", DATA_MANIFEST, "1-data.avro"),
        ("EXISTING", DATA, "d4.parquet"),
        ("ADDED", DATA, "d5.parquet"),
    ]
    assert t.live() == ["d1.parquet", "d2.parquet", "d3.parquet", "d4.parquet", "d5.parquet"]
    assert len(c3.files) == 1  # a single file per commit


def test_example_appends_using_new_data_manifests():
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(append, files(4, 5, 6), layout="manifest")
    assert shape(c2) == [("EXISTING", DATA_MANIFEST, "1-data.avro"), ("ADDED", DATA_MANIFEST, "2-data.avro")]
    assert t.live() == [f"d{i}.parquet" for i in range(1, 7)]


def test_example_removing_a_file_from_the_root_manifest():
    t = Table()
    t.apply(append, files(1, 2))
    c2 = t.apply(delete_files, [D(1)])
    assert shape(c2) == [("EXISTING", DATA, "d2.parquet"), ("DELETED", DATA, "d1.parquet")]
    assert t.live() == ["d2.parquet"]


@pytest.mark.parametrize("storage", ["inline", "puffin"])
def test_example_removing_a_file_from_a_leaf_manifest(storage):
    """A manifest DV marks ordinal 1 (D2) of M1 (v4.manifest-dv.positions)."""
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(delete_files, [D(2)], dv_storage=storage)
    (dv,) = [e for e in c2.written if e.content_type == MANIFEST_DV]
    assert (
        dv.status == ADDED
        and dv.referenced_file == f"{L}/metadata/1-data.avro"
        and dv.deletion_vector.inline == (storage == "inline")
    )
    assert replay(t.read, c2.root).manifest_dvs == {f"{L}/metadata/1-data.avro": frozenset({1})}
    assert t.live() == ["d1.parquet", "d3.parquet"]


def test_example_overwrite_files_in_the_root_manifest():
    t = Table()
    t.apply(append, files(1))
    t.apply(overwrite, [D(1)], files(2))
    c3 = t.apply(overwrite, [D(2)], files(3))
    assert shape(c3) == [("ADDED", DATA, "d3.parquet"), ("DELETED", DATA, "d2.parquet")]
    assert t.live(2) == ["d2.parquet"] and t.live() == ["d3.parquet"]


def test_example_overwrite_files_in_a_leaf_manifest():
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(overwrite, [D(2)], files(4))
    assert [s[:2] for s in shape(c2)] == [("EXISTING", DATA_MANIFEST), ("ADDED", MANIFEST_DV), ("ADDED", DATA)]
    assert t.live() == ["d1.parquet", "d3.parquet", "d4.parquet"]


def test_example_root_manifest_only_row_delta():
    t = Table()
    t.apply(append, files(1))
    c2 = t.apply(row_delta, {D(1): [0, 3]}, add=files(2))
    assert [s[:2] for s in shape(c2)] == [("EXISTING", DATA), ("ADDED", DATA), ("ADDED", POSITION_DELETE)]
    live = replay(t.read, c2.root)
    dv = next(e for e in live.delete_files)
    assert live.applicable_deletes() == {D(1): (dv.key,), D(2): ()}
    assert t.live() == ["d1.parquet", "d2.parquet"]


def test_example_complex_row_delta_with_modified_delete_vectors():
    """DV3 (manifest DV) deletes DV1 from DVM1; DVM2 adds DV4 = DV1 + new deletes for D1; DM2 adds D3."""
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")  # DM1
    t.apply(row_delta, {D(1): [0], D(2): [1]}, layout="manifest", dv_storage="puffin")  # DVM1 with DV1, DV2
    c3 = t.apply(row_delta, {D(1): [5]}, add=files(3), layout="manifest")
    assert shape(c3) == [
        ("EXISTING", DATA_MANIFEST, "1-data.avro"),
        ("EXISTING", DELETE_MANIFEST, "2-delete.avro"),
        ("ADDED", MANIFEST_DV, "root-3.avro#dv-0"),
        ("ADDED", DATA_MANIFEST, "3-data.avro"),
        ("ADDED", DELETE_MANIFEST, "3-delete.avro"),
    ]
    live = replay(t.read, c3.root)
    assert live.manifest_dvs == {f"{L}/metadata/2-delete.avro": frozenset({0})}
    applied = live.applicable_deletes()
    from spec_impl.v4.files import dv_positions

    positions = {p: [sorted(dv_positions(t.read, live.files[k].entry)) for k in keys] for p, keys in applied.items()}
    assert positions == {D(1): [[0, 5]], D(2): [[1]], D(3): []}


def test_example_manifest_compaction_during_an_append():
    """M1, M2 with DV1 (M1 ordinal 0) and DV2 (M2 ordinal 1); the append of D7 compacts them into M3 (EXISTING)."""
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(append, files(4, 5, 6), layout="manifest")
    t.apply(delete_files, [D(1), D(5)])
    c4 = t.apply(append, files(7), compact=True)
    assert shape(c4) == [
        ("EXISTING", DATA_MANIFEST, "4-compact-data.avro"),
        ("ADDED", DATA, "d7.parquet"),
        ("DELETED", DATA_MANIFEST, "1-data.avro"),
        ("DELETED", MANIFEST_DV, "root-3.avro#dv-0"),
        ("DELETED", DATA_MANIFEST, "2-data.avro"),
        ("DELETED", MANIFEST_DV, "root-3.avro#dv-1"),
    ]
    m3 = replay(t.read, c4.root).leaves[f"{L}/metadata/4-compact-data.avro"]
    assert [(e.status, e.location.rsplit("/", 1)[1], e.sequence_number) for e in m3] == [
        (EXISTING, "d2.parquet", 1),
        (EXISTING, "d3.parquet", 1),
        (EXISTING, "d4.parquet", 2),
        (EXISTING, "d6.parquet", 2),
    ]
    assert t.live() == ["d2.parquet", "d3.parquet", "d4.parquet", "d6.parquet", "d7.parquet"]
    c5 = t.apply(compact)  # nothing left to combine: the root is carried over
    assert [s[0] for s in shape(c5)] == ["EXISTING", "EXISTING"]


def test_example_optional_affinity():
    """v4.affinity.targets, v4.entry.referenced-file: a delete manifest affiliated to its data manifest."""
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")
    c2 = t.apply(row_delta, {D(1): [0]}, layout="manifest", affiliate=f"{L}/metadata/1-data.avro")
    assert (
        next(e for e in c2.written if e.content_type == DELETE_MANIFEST).referenced_file == f"{L}/metadata/1-data.avro"
    )
    t.apply(append, files(3), layout="manifest")
    c4 = row_delta(
        t.state, t.read, 4, {D(2): [1]}, layout="manifest", affiliate=f"{L}/metadata/3-data.avro"
    )  # D2 is not in M3
    t.files.update(c4.files)
    assert {v.rule for v in validate_snapshot(t.read, c4.root)} >= {"v4.affinity.targets"}


def test_compaction_does_not_take_manifests_the_commit_changes():
    """v4.compaction.no-merge: a manifest with a new manifest DV of this commit is not compacted."""
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")
    t.apply(append, files(3, 4), layout="manifest")
    c3 = t.apply(commit, Operation(remove=(D(1),), compact=True))
    assert ("EXISTING", DATA_MANIFEST, "1-data.avro") in shape(c3)
    assert t.live() == ["d2.parquet", "d3.parquet", "d4.parquet"]


def test_equality_deletes_at_the_root_and_in_delete_manifests():
    t = Table()
    t.apply(append, files(1), layout="manifest")
    c2 = t.apply(append, [equality_delete(f"{L}/data/eq.parquet", 1)], layout="manifest")
    live = replay(t.read, c2.root)
    assert live.applicable_deletes({0}) == {D(1): ((2, f"{L}/data/eq.parquet", None),)}
    t.apply(append, files(2))
    assert (
        replay(t.read, t.commits[-1].root).applicable_deletes({0})[D(2)] == ()
    )  # data sequence number 3 > the delete's 2


def test_remove_targets_only_live_files():
    """v4.commit.target"""
    t = Table()
    t.apply(append, files(1))
    with pytest.raises(InvalidInput, match="v4.commit.target"):
        delete_files(t.state, t.read, 2, [D(9)])
    with pytest.raises(InvalidInput, match="v4.commit.target"):
        row_delta(t.state, t.read, 2, {D(9): [1]})
    with pytest.raises(InvalidInput, match="v4.commit.target"):
        append(t.state, t.read, 2, [dataclasses.replace(data_file(D(2), 1), sequence_number=1)])


def test_upgrade_from_a_v3_manifest_list():
    """v4.upgrade.migration, v4.upgrade.v3-leaves: the first v4 commit propagates the manifest list
    and removes a file of a v3 manifest with a manifest DV."""
    schema = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}
    w = TreeWriter(L, 3, schema)
    rows = w.commit(
        1,
        "append",
        [
            w.write_manifest(
                "m1.avro", [v3_entry(V3_ADDED, v3_data_file(D(1), 10)), v3_entry(V3_ADDED, v3_data_file(D(2), 20))]
            )
        ],
    )
    w.commit(2, "append", [w.write_manifest("m2.avro", [v3_entry(V3_ADDED, v3_data_file(D(3), 30))])], rows)
    source = InMemoryFiles(w.files)
    state = upgrade_from_v3(source, w.metadata_location)
    assert [
        (e.content_type, e.status, e.sequence_number, e.manifest_stats.added_files_count) for e in state.entries
    ] == [(3, 0, 2, 1), (3, 0, 1, 2)]
    c = delete_files(state, source.read, 3, [D(2)])
    files = dict(w.files, **c.files)
    read = files.__getitem__
    assert shape(c)[:3] == [
        ("EXISTING", DATA_MANIFEST, "m2.avro"),
        ("EXISTING", DATA_MANIFEST, "m1.avro"),
        ("ADDED", MANIFEST_DV, "root-3.avro#dv-0"),
    ]
    assert sorted(replay(read, c.root).data_files) == [D(1), D(3)]
    assert validate_snapshot(read, c.root, state) == []
    c4 = compact(c.state, read, 4)
    files.update(c4.files)
    assert sorted(replay(read, c4.root).data_files) == [D(1), D(3)]
    assert validate_snapshot(read, c4.root, c.root) == []


# --- invalid trees: one per rule ---------------------------------------------------------------------------


def _leaf_table() -> tuple[Table, object]:
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(delete_files, [D(2)])
    return t, c2


def _edit(t: Table, c, index: int, **changes) -> None:
    entries = list(c.written)
    entries[index] = dataclasses.replace(entries[index], **changes)
    t.rewrite_root(c, entries)


@pytest.mark.parametrize(
    "index, changes, rule",
    [
        (0, {"deletion_vector": DeletionVectorRef(1, 2)}, "v4.entry.deletion-vector"),
        (1, {"deletion_vector": None}, "v4.entry.deletion-vector"),
        (1, {"deletion_vector": DeletionVectorRef(4, 10, b"x")}, "v4.dv.storage"),
        (0, {"manifest_stats": None}, "v4.entry.manifest-stats"),
        (0, {"record_count": 7}, "v4.manifest-stats.counts"),
        (0, {"file_sequence_number": 9}, "v4.entry.manifest-sequence-number"),
        (0, {"referenced_file": D(1)}, "v4.entry.referenced-file"),
        (1, {"referenced_file": D(1)}, "v4.entry.referenced-file"),
        (0, {"sort_order_id": 1}, "v4.entry.sort-order-id"),
        (0, {"equality_ids": (1,)}, "v4.entry.equality-ids"),
        (0, {"file_size_in_bytes": None}, "v4.entry.file-size"),
        (0, {"status": ADDED}, "v4.root.carried-existing"),
        (0, {"sequence_number": None, "file_sequence_number": None}, "v4.inherit"),
        (1, {"status": EXISTING}, "v4.status.added"),
    ],
)
def test_invalid_root_entries(index, changes, rule):
    t, c2 = _leaf_table()
    _edit(t, c2, index, **changes)
    assert rule in t.violations()


def test_invalid_manifest_dv_positions_and_target():
    """v4.manifest-dv.positions, v4.manifest-dv.target"""
    t, c2 = _leaf_table()
    entries = list(c2.written)
    entries[1] = inline_manifest_dv(entries[1].location, entries[1].referenced_file, [1, 3])
    t.rewrite_root(c2, entries)
    assert "v4.manifest-dv.positions" in t.violations()
    entries[1] = inline_manifest_dv(entries[1].location, f"{L}/metadata/other.avro", [1])
    t.rewrite_root(c2, entries)
    assert {"v4.manifest-dv.target", "v4.entry.referenced-file"} <= t.violations()
    with pytest.raises(InvalidInput, match="v4.manifest-dv.target"):
        replay(t.read, c2.root)


def test_invalid_tree_depth_and_root_only_types():
    """v4.tree.depth: a manifest entry pointing at a root; v4.tree.root-only: a manifest DV in a leaf."""
    t, c2 = _leaf_table()
    _edit(t, c2, 0, location=t.commits[0].root.location)
    assert "v4.tree.depth" in t.violations()
    t, c2 = _leaf_table()
    leaf = f"{L}/metadata/1-data.avro"
    entries = list(read_manifest(t.files[leaf], leaf).entries)
    t.files[leaf] = write_manifest("data", entries + [inline_manifest_dv("x#dv", leaf, [0])])
    assert "v4.tree.root-only" in t.violations()
    t.files[t.commits[0].root.location] = write_manifest("data", [])
    assert "v4.tree.root-only" in {v.rule for v in validate_snapshot(t.read, t.commits[0].root)}


def test_invalid_leaf_with_deleted_entry_and_wrong_stats():
    """v4.leaf.no-deleted, v4.manifest-stats.counts"""
    t, c2 = _leaf_table()
    leaf = f"{L}/metadata/1-data.avro"
    entries = list(read_manifest(t.files[leaf], leaf).entries)
    entries[2] = entries[2].with_status(DELETED, sequence_number=1, file_sequence_number=1)
    t.files[leaf] = write_manifest("data", entries)
    assert {"v4.leaf.no-deleted", "v4.manifest-stats.counts"} <= t.violations()


def test_invalid_root_without_deleted_entries():
    """v4.root.deleted-entries: dropping a parent entry silently; DELETED entries without a parent."""
    t = Table()
    t.apply(append, files(1, 2))
    c2 = t.apply(delete_files, [D(1)])
    t.rewrite_root(c2, c2.written[:1])
    assert "v4.root.deleted-entries" in t.violations()
    t.rewrite_root(c2, c2.written)
    assert "v4.root.deleted-entries" in {v.rule for v in validate_snapshot(t.read, t.commits[1].root, None)}


def test_invalid_copy_on_write_and_compaction_with_net_change():
    """v4.commit.no-copy-on-write: deleting a whole leaf; v4.compaction.no-net-change: a compacted
    manifest missing a file; v4.compaction.no-merge and v4.status.existing: merging new files."""
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c2 = t.apply(append, files(4))
    m1 = c2.written[0]
    t.rewrite_root(c2, [c2.written[1], m1.with_status(DELETED, snapshot_id=2)])
    assert "v4.commit.no-copy-on-write" in t.violations()
    # a "compaction" of M1 that drops D2
    kept = [
        e.with_status(EXISTING) for e in replay(t.read, t.commits[0].root).leaves[m1.location] if e.location != D(2)
    ]
    t.files[f"{L}/metadata/m3.avro"] = data = write_manifest("data", kept)
    m3 = ContentEntry(
        DATA_MANIFEST,
        f"{L}/metadata/m3.avro",
        "avro",
        2,
        EXISTING,
        2,
        2,
        2,
        file_size_in_bytes=len(data),
        manifest_stats=manifest_stats(kept, 2),
    )
    t.rewrite_root(c2, [m3, c2.written[1], m1.with_status(DELETED, snapshot_id=2)])
    assert "v4.compaction.no-net-change" in t.violations()
    merged = kept + [data_file(D(9), 1)]
    t.files[f"{L}/metadata/m3.avro"] = data = write_manifest("data", merged)
    m3 = dataclasses.replace(m3, record_count=3, file_size_in_bytes=len(data), manifest_stats=manifest_stats(merged, 2))
    t.rewrite_root(c2, [m3, c2.written[1], m1.with_status(DELETED, snapshot_id=2)])
    assert "v4.compaction.no-merge" in t.violations()
    t.files[f"{L}/metadata/m3.avro"] = data = write_manifest(
        "data", [e.with_status(EXISTING) for e in replay(t.read, t.commits[0].root).leaves[m1.location]]
    )
    m3 = dataclasses.replace(
        m3,
        status=ADDED,
        file_size_in_bytes=len(data),
        record_count=3,
        manifest_stats=manifest_stats(read_manifest(data, "m3").entries, 2),
    )
    t.rewrite_root(c2, [m3, c2.written[1], m1.with_status(DELETED, snapshot_id=2)])
    assert "v4.status.existing" in t.violations()


def test_every_rule_is_registered_for_v4_and_provisional_rules_exist():
    mine = [r for r in RULES.values() if r.id.startswith("v4.")]
    assert mine and all(r.versions == (4,) and r.section.startswith("v4 proposal") for r in mine)
    assert set(PROVISIONAL_RULES) <= {r.id for r in mine}
