"""v4 commits as pure functions: (the previous root's state, an operation) -> (the new root, the new files).

Proposal: "Commit Procedure" (adding files; removing files or adding DVs "with ... an ADDED Delete
Vector"; no copy on write; "All previously existing entries are marked as EXISTING"), "Manifest
Compaction", "Examples", "Upgrade", and the package docstring's interpretations.

    state = TableState.empty("s3://b/t")
    c1 = append(state, read, 1, [data_file("s3://b/t/data/d1.parquet", 10)], layout="manifest")
    c2 = delete_files(c1.state, read_with(c1.files), 2, ["s3://b/t/data/d1.parquet"])

`read(path) -> bytes` reads the files written before; a `Commit` carries only the files it wrote
(`Commit.files`). Every commit writes exactly one new root manifest, plus leaf manifests when the
layout is "manifest", plus Puffin files for data DVs and Puffin-stored manifest DVs. Files go
under `<location>/metadata/` (manifests, manifest DVs) and `<location>/data/` (data DVs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from spec_impl.errors import InvalidInput
from spec_impl.manifests import inheritance
from spec_impl.manifests.tree import FileSource, read_snapshot
from spec_impl.rules import Rule, register, implements
from spec_impl.v4.sections import SECTION_COMMIT, SECTION_UPGRADE, V4
from spec_impl.v4.entries import (
    ADDED,
    DATA,
    DATA_MANIFEST,
    DELETE_MANIFEST,
    DELETED,
    EXISTING,
    MANIFEST_DV,
    MANIFEST_TYPES,
    POSITION_DELETE,
    ContentEntry,
    ManifestStats,
)
from spec_impl.v4.files import inline_manifest_dv, puffin_dvs, write_manifest, dv_positions
from spec_impl.v4.replay import LiveFiles, SnapshotRoot, inherit, replay_entries

register(
    Rule(
        "v4.commit.target",
        SECTION_COMMIT,
        "A commit removes, or adds a DV to, only files live in its parent snapshot; added files are ADDED "
        "entries without version values",
        *V4,
    ),
    Rule(
        "v4.upgrade.migration",
        SECTION_UPGRADE,
        "The first v4 commit propagates every manifest-list entry of the v3 snapshot into a root manifest entry "
        "(type 3 or 4, location, size, spec id, sequence numbers, snapshot id, counts as manifest_stats, "
        "first_row_id)",
        *V4,
    ),
)

Read = Callable[[str], bytes]


@dataclass(frozen=True)
class TableState:
    """A table's current v4 tree: its root (None before the first v4 root) and the root's live
    entries with inherited values filled in."""

    location: str
    root: str | None = None
    snapshot_id: int | None = None
    sequence_number: int = 0  # the last assigned sequence number
    entries: tuple[ContentEntry, ...] = ()

    @classmethod
    def empty(cls, location: str) -> TableState:
        return cls(location)

    @property
    def snapshot(self) -> SnapshotRoot | None:
        return None if self.root is None else SnapshotRoot(self.root, self.snapshot_id, self.sequence_number)


@dataclass(frozen=True)
class Operation:
    """What a commit changes. `add`: new data and equality delete files (ADDED entries without
    version values). `remove`: locations of live data or delete files. `dvs`: data file -> row
    positions newly deleted (a row delta; an existing DV of the file is replaced by the union).
    `layout`: new entries directly in the "root" or in new leaf "manifest"s. `dv_storage`: manifest
    DVs "inline" or in a "puffin" file. `compact`: merge the unchanged leaf manifests of each kind
    with their manifest DVs into one EXISTING manifest. `affiliate`: the new delete manifest's
    referenced_file (a data manifest location, or "new" for the commit's own data manifest)."""

    add: tuple[ContentEntry, ...] = ()
    remove: tuple[str, ...] = ()
    dvs: Mapping[str, Iterable[int]] = field(default_factory=dict)
    layout: str = "root"
    dv_storage: str = "inline"
    compact: bool = False
    affiliate: str | None = None


@dataclass(frozen=True)
class Commit:
    parent: TableState
    state: TableState
    root: SnapshotRoot
    written: tuple[ContentEntry, ...]  # the root's entries as stored
    files: dict[str, bytes]


@implements("tree.file-exists")
def read_with(files: Mapping[str, bytes], read: Read | None = None) -> Read:
    """A reader of `files`, falling back to `read`."""

    def _read(path: str) -> bytes:
        if path in files:
            return files[path]
        if read is None:
            raise InvalidInput("tree.file-exists", "the tree references a file that is not there", path)
        return read(path)

    return _read


def manifest_stats(entries: Iterable[ContentEntry], sequence_number: int) -> ManifestStats:
    """manifest_stats of a leaf (package docstring 7): counts by status; min data sequence number
    of live entries, ADDED ones inheriting `sequence_number` (the manifest's own when none are live)."""
    entries = list(entries)
    counts = {s: [e for e in entries if e.status == s] for s in (ADDED, EXISTING, DELETED)}
    live = [sequence_number if e.sequence_number is None else e.sequence_number for e in entries if e.live]
    return ManifestStats(
        len(counts[ADDED]),
        len(counts[EXISTING]),
        len(counts[DELETED]),
        sum(e.record_count for e in counts[ADDED]),
        sum(e.record_count for e in counts[EXISTING]),
        sum(e.record_count for e in counts[DELETED]),
        min(live, default=sequence_number),
    )


class _Builder:
    def __init__(self, state: TableState, read: Read, snapshot_id: int):
        self.state, self.read, self.snapshot_id = state, read, snapshot_id
        self.seq = state.sequence_number + 1
        self.root_path = f"{state.location}/metadata/root-{snapshot_id}.avro"
        self.carried: dict[tuple, ContentEntry] = {e.key: e for e in state.entries}
        self.deleted: list[ContentEntry] = []
        self.new: list[ContentEntry] = []
        self.files: dict[str, bytes] = {}
        self.leaf_removals: dict[str, set[int]] = {}
        self.live: LiveFiles = replay_entries(read, state.entries)

    def drop(self, key: tuple) -> None:
        e = self.carried.pop(key)
        self.deleted.append(e.with_status(DELETED, snapshot_id=self.snapshot_id))

    def remove(self, key: tuple) -> None:
        located = self.live.files[key]
        if located.manifest is None:
            self.drop(key)
        else:
            self.leaf_removals.setdefault(located.manifest, set()).add(located.ordinal)

    @implements("v4.commit.target")
    def remove_location(self, path: str) -> None:
        keys = [k for k, loc in self.live.files.items() if loc.entry.location == path]
        if not keys:
            raise InvalidInput("v4.commit.target", f"{path} is not a live file of the parent snapshot", path)
        for k in keys:
            self.remove(k)

    @implements("v4.commit.target")
    def row_delta(self, dvs: Mapping[str, Iterable[int]]) -> list[ContentEntry]:
        targets: dict[str, set[int]] = {}
        for data_path, positions in dvs.items():
            if data_path not in self.live.data_files:
                raise InvalidInput(
                    "v4.commit.target", f"a DV for {data_path}, which is not a live data file", data_path
                )
            union = set(positions)
            for key, loc in list(self.live.files.items()):
                e = loc.entry
                if (
                    e.content_type == POSITION_DELETE
                    and e.referenced_file == data_path
                    and e.deletion_vector is not None
                ):
                    union |= dv_positions(self.read, e)
                    self.remove(key)
            targets[data_path] = union
        if not targets:
            return []
        path = f"{self.state.location}/data/dvs-{self.snapshot_id}.puffin"
        data, entries = puffin_dvs(path, POSITION_DELETE, targets)
        self.files[path] = data
        return entries

    def manifest_dvs(self, storage: str) -> None:
        targets: dict[str, set[int]] = {}
        for manifest, positions in self.leaf_removals.items():
            for key, e in list(self.carried.items()):
                if e.content_type == MANIFEST_DV and e.referenced_file == manifest:
                    self.drop(key)  # replaced by the union (package docstring 2)
            targets[manifest] = set(positions) | self.live.manifest_dvs.get(manifest, frozenset())
        if storage == "inline":
            self.new += [
                inline_manifest_dv(f"{self.root_path}#dv-{i}", m, p) for i, (m, p) in enumerate(targets.items())
            ]
        elif targets:
            path = f"{self.state.location}/metadata/manifest-dvs-{self.snapshot_id}.puffin"
            self.files[path], entries = puffin_dvs(path, MANIFEST_DV, targets)
            self.new += entries

    def compact(self) -> None:
        for content_type in MANIFEST_TYPES:
            inputs = [
                e
                for e in self.carried.values()
                if e.content_type == content_type and e.location not in self.leaf_removals
            ]
            with_dvs = [e for e in inputs if e.location in self.live.manifest_dvs]
            if len(inputs) < 2 and not with_dvs:
                continue
            kept: list[ContentEntry] = []
            for m in inputs:
                gone = self.live.manifest_dvs.get(m.location, frozenset())
                kept += [
                    e.with_status(EXISTING)
                    for i, e in enumerate(self.live.leaves[m.location])
                    if e.live and i not in gone
                ]
                self.drop(m.key)
                for key, dv in list(self.carried.items()):
                    if dv.content_type == MANIFEST_DV and dv.referenced_file == m.location:
                        self.drop(key)
            if kept:
                kind = "data" if content_type == DATA_MANIFEST else "delete"
                self.new.append(self.leaf(kind, kept, f"compact-{kind}", EXISTING))

    def leaf(
        self, kind: str, entries: list[ContentEntry], name: str, status: int, referenced_file: str | None = None
    ) -> ContentEntry:
        path = f"{self.state.location}/metadata/{self.snapshot_id}-{name}.avro"
        data = write_manifest(kind, entries)
        self.files[path] = data
        version = (
            {}
            if status == ADDED
            else {"snapshot_id": self.snapshot_id, "sequence_number": self.seq, "file_sequence_number": self.seq}
        )
        return ContentEntry(
            DATA_MANIFEST if kind == "data" else DELETE_MANIFEST,
            path,
            "avro",
            len(entries),
            status,
            file_size_in_bytes=len(data),
            manifest_stats=manifest_stats(entries, self.seq),
            referenced_file=referenced_file,
            **version,
        )

    @implements("v4.commit.target")
    def add(self, entries: list[ContentEntry], layout: str, affiliate: str | None) -> None:
        for e in entries:
            if (
                e.status != ADDED
                or e.sequence_number is not None
                or e.file_sequence_number is not None
                or e.content_type in MANIFEST_TYPES + (MANIFEST_DV,)
            ):
                raise InvalidInput(
                    "v4.commit.target",
                    "added files are ADDED data or delete entries without sequence numbers",
                    e.location,
                )
        if layout == "root":
            self.new += entries
            return
        if layout != "manifest":
            raise ValueError(f"layout is 'root' or 'manifest', not {layout!r}")
        data = [e for e in entries if e.content_type == DATA]
        deletes = [e for e in entries if e.content_type != DATA]
        if data:
            self.new.append(self.leaf("data", data, "data", ADDED))
            affiliate = self.new[-1].location if affiliate == "new" else affiliate
        if deletes:
            self.new.append(self.leaf("delete", deletes, "delete", ADDED, affiliate))

    def finish(self) -> Commit:
        written = [e.with_status(EXISTING) for e in self.carried.values()] + self.new + self.deleted
        self.files[self.root_path] = write_manifest("root", written)
        root = SnapshotRoot(self.root_path, self.snapshot_id, self.seq)
        resolved = tuple(inherit(e, self.snapshot_id, self.seq) for e in written if e.live)
        state = TableState(self.state.location, self.root_path, self.snapshot_id, self.seq, resolved)
        return Commit(self.state, state, root, tuple(written), self.files)


def commit(state: TableState, read: Read, snapshot_id: int, op: Operation) -> Commit:
    """One commit: removals (DELETED root entries or manifest DVs), DVs, compaction, additions, and
    a new root where every carried entry is EXISTING."""
    b = _Builder(state, read, snapshot_id)
    for path in op.remove:
        b.remove_location(path)
    dvs = b.row_delta(op.dvs)
    b.manifest_dvs(op.dv_storage)
    if op.compact:
        b.compact()
    b.add(list(op.add) + dvs, op.layout, op.affiliate)
    return b.finish()


def append(
    state: TableState,
    read: Read,
    snapshot_id: int,
    files: Iterable[ContentEntry],
    layout: str = "root",
    compact: bool = False,
) -> Commit:
    """Append data or delete files at the root or through a new leaf manifest ("Append Files")."""
    return commit(state, read, snapshot_id, Operation(add=tuple(files), layout=layout, compact=compact))


def delete_files(
    state: TableState, read: Read, snapshot_id: int, paths: Iterable[str], dv_storage: str = "inline"
) -> Commit:
    """Remove files: a DELETED root entry, or a manifest DV for a leaf ("Remove Files")."""
    return commit(state, read, snapshot_id, Operation(remove=tuple(paths), dv_storage=dv_storage))


def overwrite(
    state: TableState,
    read: Read,
    snapshot_id: int,
    remove: Iterable[str],
    add: Iterable[ContentEntry],
    layout: str = "root",
    dv_storage: str = "inline",
) -> Commit:
    """Remove and add files in one commit ("Overwrite Files")."""
    return commit(
        state, read, snapshot_id, Operation(add=tuple(add), remove=tuple(remove), layout=layout, dv_storage=dv_storage)
    )


def row_delta(
    state: TableState,
    read: Read,
    snapshot_id: int,
    dvs: Mapping[str, Iterable[int]],
    add: Iterable[ContentEntry] = (),
    layout: str = "root",
    dv_storage: str = "inline",
    affiliate: str | None = None,
) -> Commit:
    """New DVs (replacing existing ones by their union) and new files ("Row Delta")."""
    return commit(
        state,
        read,
        snapshot_id,
        Operation(add=tuple(add), dvs=dvs, layout=layout, dv_storage=dv_storage, affiliate=affiliate),
    )


def compact(state: TableState, read: Read, snapshot_id: int) -> Commit:
    """A commit that only compacts manifests ("Manifest Compaction"): no net change."""
    return commit(state, read, snapshot_id, Operation(compact=True))


@implements("v4.upgrade.migration")
def upgrade_from_v3(files: FileSource, metadata_location: str) -> TableState:
    """The state a v3 table's current snapshot gives the first v4 commit (rule v4.upgrade.migration):
    every manifest-list row becomes a root entry; its leaves stay v3 manifests."""
    tree = read_snapshot(files, metadata_location)
    entries = []
    for m in tree.manifests:
        row = m.row
        counts = {s: [e for e in m.entries if e["status"] == s] for s in (ADDED, EXISTING, DELETED)}
        low = inheritance.min_sequence_number(m.entries)
        stats = ManifestStats(
            *(len(counts[s]) for s in (ADDED, EXISTING, DELETED)),
            *(sum(e["data_file"]["record_count"] for e in counts[s]) for s in (ADDED, EXISTING, DELETED)),
            row["min_sequence_number"] if low is None else low,
        )
        entries.append(
            ContentEntry(
                DATA_MANIFEST if row["content"] == 0 else DELETE_MANIFEST,
                row["manifest_path"],
                "avro",
                len(m.entries),
                EXISTING,
                row["added_snapshot_id"],
                row["sequence_number"],
                row["sequence_number"],
                row["partition_spec_id"],
                row["manifest_length"],
                manifest_stats=stats,
                key_metadata=row.get("key_metadata"),
                first_row_id=row.get("first_row_id"),
            )
        )
    return TableState(
        metadata_location.rsplit("/metadata/", 1)[0],
        None,
        tree.snapshot.snapshot_id,
        tree.metadata.last_sequence_number,
        tuple(entries),
    )
