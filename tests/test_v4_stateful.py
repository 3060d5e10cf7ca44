"""Random operation sequences applied to a v3 table (TreeWriter, copy-on-write manifests, read with
`read_snapshot`) and to a v4 table (spec_impl.v4.commits, read with `replay`): after every step the
live data files, their data sequence numbers and the deletes that apply to them are the same, and
the v4 snapshot passes the v4 validator against its parent (v4.replay.live-files, v4.status.added,
v4.commit.no-copy-on-write, v4.compaction.no-net-change).
"""

from __future__ import annotations

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from spec_impl.deletes import scoping
from spec_impl.deletes.deletion_vectors import deleted_positions, dv_blob, manifest_fields
from spec_impl.deletes.puffin import read_puffin, write_puffin
from spec_impl.manifests.inheritance import ADDED, DELETED, EXISTING
from spec_impl.manifests.tree import InMemoryFiles, read_snapshot
from spec_impl.manifests.writer import TreeWriter, data_file as v3_file, entry
from spec_impl.v4 import commits
from spec_impl.v4.entries import data_file, equality_delete
from spec_impl.v4.files import dv_positions
from spec_impl.v4.replay import replay
from spec_impl.v4.validate import validate_snapshot

L = "s3://b/t"
SCHEMA = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}
ROWS = 10


class V3Table:
    """Copy-on-write v3: removals rewrite the manifest that holds the file."""

    def __init__(self):
        self.w = TreeWriter(L, 3, SCHEMA)
        self.rows: list[dict] = []
        self.n = 0

    def live(self) -> list[tuple[dict, dict]]:
        if not self.rows:
            return []
        tree = read_snapshot(InMemoryFiles(self.w.files), self.w.metadata_location)
        return [(m.row, e) for m in tree.manifests for e in m.entries if e["status"] != DELETED]

    def commit(
        self,
        snapshot_id: int,
        add: list[dict] = (),
        remove: set[str] = frozenset(),
        dvs: dict[str, set[int]] | None = None,
    ) -> None:
        new, carried, touched = [], [], set()
        live = self.live()
        delete_files = [dict(f) for f in add if f["content"] != 0]
        if dvs:
            old = {
                e["data_file"]["referenced_data_file"]: e
                for _, e in live
                if e["data_file"]["content"] == 1 and e["data_file"].get("referenced_data_file") in dvs
            }
            blobs = []
            for path, positions in dvs.items():
                if path in old:
                    f = old[path]["data_file"]
                    positions = positions | set(deleted_positions(self.w.files[f["file_path"]], f))
                    remove = remove | {(f["file_path"], f["content_offset"])}
                blobs.append(dv_blob(sorted(positions), path))
            puffin_path = f"{L}/data/v3-dvs-{snapshot_id}.puffin"
            self.w.files[puffin_path] = data = write_puffin(blobs)
            for meta in read_puffin(data).blobs:
                fields = manifest_fields(meta)
                delete_files.append(v3_file(puffin_path, fields.pop("record_count"), **fields, size=len(data)))
        gone = lambda f: f["file_path"] in remove or (f["file_path"], f.get("content_offset")) in remove  # noqa: E731
        for row, e in live:
            if gone(e["data_file"]):
                touched.add(row["manifest_path"])
        for row in self.rows:
            if row["manifest_path"] not in touched:
                carried.append(row)
                continue
            entries = [
                entry(
                    DELETED if gone(e["data_file"]) else EXISTING,
                    e["data_file"],
                    snapshot_id if gone(e["data_file"]) else e["snapshot_id"],
                    e["sequence_number"],
                    e["file_sequence_number"],
                )
                for r, e in live
                if r is row or r["manifest_path"] == row["manifest_path"]
            ]
            new.append(self.w.write_manifest(self._name(), entries, content=row["content"]))
        data = [f for f in add if f["content"] == 0]
        if data:
            new.append(self.w.write_manifest(self._name(), [entry(ADDED, f) for f in data]))
        if delete_files:
            new.append(self.w.write_manifest(self._name(), [entry(ADDED, f) for f in delete_files], content=1))
        self.rows = self.w.commit(snapshot_id, "overwrite", new, carried)

    def _name(self) -> str:
        self.n += 1
        return f"v3-m{self.n}.avro"

    def reading(self) -> dict:
        files = self.w.files
        live = [e["data_file"] | {"sequence_number": e["sequence_number"]} for _, e in self.live()]

        def describe(f: dict) -> tuple:
            if f["content"] == 1:
                return (
                    "dv",
                    f["referenced_data_file"],
                    tuple(deleted_positions(files[f["file_path"]], f)),
                    f["sequence_number"],
                )
            return ("eq", f["file_path"], f["sequence_number"])

        return _applicable(
            [
                (
                    f["file_path"],
                    f["content"],
                    f["sequence_number"],
                    f.get("referenced_data_file"),
                    describe(f),
                    f["file_format"],
                )
                for f in live
            ]
        )


def _applicable(files: list[tuple]) -> dict:
    """data file -> (data sequence number, sorted descriptions of the deletes that apply)."""
    scan, describe = [], {}
    for path, content, seq, ref, desc, fmt in files:
        f = scoping.ScanFile(path, content, 0, (), seq, fmt.lower(), ref)
        describe[id(f)] = desc
        scan.append(f)
    planned = scoping.plan([f for f in scan if f.content == 0], [f for f in scan if f.content != 0], {0})
    seqs = {f.path: f.sequence_number for f in scan if f.content == 0}
    return {p: (seqs[p], sorted(describe[id(f)] for f in a.files())) for p, a in planned.items()}


class V4Table:
    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.state = commits.TableState.empty(L)
        self.last = None

    def read(self, path: str) -> bytes:
        return self.files[path]

    def commit(self, snapshot_id: int, op: commits.Operation) -> None:
        c = commits.commit(self.state, self.read, snapshot_id, op)
        self.files.update(c.files)
        assert validate_snapshot(self.read, c.root, self.last.root if self.last else None) == []
        self.last, self.state = c, c.state

    def reading(self) -> dict:
        if self.last is None:
            return {}
        live = replay(self.read, self.last.root)

        def describe(e) -> tuple:
            if e.content_type == 1:
                return ("dv", e.referenced_file, tuple(sorted(dv_positions(self.read, e))), e.sequence_number)
            return ("eq", e.location, e.sequence_number)

        return _applicable(
            [
                (
                    loc.entry.location,
                    loc.entry.content_type,
                    loc.entry.sequence_number,
                    loc.entry.referenced_file,
                    describe(loc.entry),
                    loc.entry.file_format,
                )
                for loc in live.files.values()
            ]
        )


layouts = st.sampled_from(["root", "manifest"])
storages = st.sampled_from(["inline", "puffin"])


class SameLiveFiles(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.v3, self.v4 = V3Table(), V4Table()
        self.snapshot_id = 0
        self.names = 0
        self.data: list[str] = []  # live data files

    def _new(self, count: int) -> list[str]:
        out = []
        for _ in range(count):
            self.names += 1
            out.append(f"{L}/data/d{self.names}.parquet")
        return out

    def _commit(
        self,
        add: list[str] = (),
        remove: list[str] = (),
        dvs: dict | None = None,
        eq: list[str] = (),
        layout: str = "root",
        storage: str = "inline",
        compact: bool = False,
    ) -> None:
        self.snapshot_id += 1
        v3_add = [v3_file(p, ROWS) for p in add] + [v3_file(p, 1, content=2, equality_ids=[1]) for p in eq]
        self.v3.commit(self.snapshot_id, v3_add, set(remove), {k: set(v) for k, v in (dvs or {}).items()})
        v4_add = tuple(data_file(p, ROWS, file_size_in_bytes=1000 + ROWS) for p in add) + tuple(
            equality_delete(p, 1) for p in eq
        )
        self.v4.commit(self.snapshot_id, commits.Operation(v4_add, tuple(remove), dvs or {}, layout, storage, compact))
        self.data = [p for p in self.data if p not in remove] + list(add)

    @rule(count=st.integers(1, 3), layout=layouts, compact=st.booleans())
    def append(self, count, layout, compact):
        self._commit(add=self._new(count), layout=layout, compact=compact)

    @precondition(lambda self: self.data)
    @rule(pick=st.integers(0, 100), storage=storages)
    def delete(self, pick, storage):
        self._commit(remove=[self.data[pick % len(self.data)]], storage=storage)

    @precondition(lambda self: self.data)
    @rule(pick=st.integers(0, 100), layout=layouts, storage=storages)
    def overwrite(self, pick, layout, storage):
        self._commit(add=self._new(1), remove=[self.data[pick % len(self.data)]], layout=layout, storage=storage)

    @precondition(lambda self: self.data)
    @rule(
        pick=st.integers(0, 100),
        positions=st.sets(st.integers(0, ROWS - 1), min_size=1, max_size=3),
        layout=layouts,
        storage=storages,
        new=st.integers(0, 1),
    )
    def row_delta(self, pick, positions, layout, storage, new):
        self._commit(
            add=self._new(new), dvs={self.data[pick % len(self.data)]: positions}, layout=layout, storage=storage
        )

    @rule(layout=layouts)
    def equality_delete(self, layout):
        self.names += 1
        self._commit(eq=[f"{L}/data/eq{self.names}.parquet"], layout=layout)

    @precondition(lambda self: self.snapshot_id)
    @rule()
    def compaction(self):
        self._commit(compact=True)

    @invariant()
    def same_live_files_and_deletes(self):
        assert self.v4.reading() == self.v3.reading()
        assert sorted(self.v4.reading()) == sorted(self.data)


SameLiveFiles.TestCase.settings = settings(max_examples=40, stateful_step_count=8, deadline=None)
TestSameLiveFiles = SameLiveFiles.TestCase
