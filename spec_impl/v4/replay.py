"""Replaying a v4 snapshot: its root manifest, leaf manifests and manifest DVs -> the live data
files with their deletion vectors and delete files.

Proposal: "Proposal" (a root with entries for data manifests, delete manifests, data files, data
DVs and manifest DVs; "leaf manifest files ... can't link to other data or delete manifest
files"), "Root Manifests" 1.e (a manifest DV deletes rows of a leaf manifest), version_info
("Inherited when null", "Deletes are not used in scans"), "Upgrade" (v3 manifests as leaves).

Inheritance: root entries inherit snapshot_id and (ADDED only) sequence numbers from the snapshot;
leaf entries from their manifest's root entry (and a data manifest's first_row_id, assigned as v3
does); v1-v3 leaves as `spec_impl.manifests.inheritance` does from a manifest-list row built of
that root entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from spec_impl.deletes import scoping
from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.manifests import inheritance
from spec_impl.rules import Rule, register, implements
from spec_impl.v4.sections import SECTION_ROOT, SECTION_STRUCTURE, SECTION_UPGRADE, V4
from spec_impl.v4.entries import (
    ADDED,
    DATA,
    DATA_MANIFEST,
    DELETED,
    FILE_TYPES,
    MANIFEST_DV,
    MANIFEST_TYPES,
    ROOT_ONLY,
    ContentEntry,
    DeletionVectorRef,
)
from spec_impl.v4.files import ManifestFile, dv_positions, read_manifest

register(
    Rule(
        "v4.tree.depth",
        "v4 proposal: Proposal; Why limit tree depth to 2?",
        "A snapshot's tree has at most two levels: the root's manifest entries point at leaf manifests "
        "(content data for type 3, delete for type 4), never at a root",
        *V4,
    ),
    Rule(
        "v4.tree.root-only",
        f"{SECTION_STRUCTURE} (content_type); {SECTION_ROOT} 1.e",
        "Content types 3, 4 and 5 (manifests and manifest DVs) only appear in the root manifest; a root "
        "manifest has content root",
        *V4,
    ),
    Rule(
        "v4.inherit",
        f"{SECTION_STRUCTURE} (version_info)",
        "A null snapshot_id is inherited; null sequence numbers are inherited only by ADDED entries: in the "
        "root from the snapshot, in a leaf from its manifest's root entry",
        *V4,
    ),
    Rule(
        "v4.manifest-dv.target",
        f"{SECTION_ROOT} 1.e; {SECTION_STRUCTURE} (referenced_file)",
        "A manifest DV's referenced_file is a data or delete manifest live in the same root",
        *V4,
    ),
    Rule(
        "v4.replay.live-files",
        SECTION_ROOT,
        "The live files are the live (not DELETED) file entries of the root and of its live leaf manifests, "
        "without the leaf entries whose ordinal a live manifest DV of that manifest deletes",
        *V4,
    ),
    Rule(
        "v4.lineage.first-row-id",
        f"{SECTION_STRUCTURE} (first_row_id)",
        "A data manifest's root entry first_row_id is the first _row_id of the data files of its leaf whose "
        "first_row_id is null, assigned in file order by their record counts as v3 assigns them from a "
        "manifest-list row; a data file's own first_row_id is kept",
        *V4,
    ),
    Rule(
        "v4.upgrade.v3-leaves",
        SECTION_UPGRADE,
        "A v4 root may reference v1-v3 manifests, read as their version defines (inheritance from their root "
        "entry, as from their manifest-list row)",
        *V4,
    ),
)


@dataclass(frozen=True)
class SnapshotRoot:
    """A snapshot as the v4 tree needs it: its root manifest, id and sequence number."""

    location: str
    snapshot_id: int
    sequence_number: int

    @implements("v4.inherit")
    def __post_init__(self):
        if not isinstance(self.location, str) or any(
            type(v) is not int for v in (self.snapshot_id, self.sequence_number)
        ):
            raise InvalidInput(
                "v4.inherit",
                "a snapshot root is a location string, a snapshot id and a sequence number (longs)",
                brief((self.location, self.snapshot_id, self.sequence_number)),
            )

    @classmethod
    @implements("v4.inherit")
    def from_json(cls, obj: Any) -> SnapshotRoot:
        """{"location", "snapshot-id", "sequence-number"} (the vectors' form), checked (rule v4.inherit:
        the values root entries inherit)."""
        if not isinstance(obj, dict):
            raise InvalidInput("v4.inherit", "a snapshot root is a JSON object", brief(obj))
        return cls(obj.get("location"), obj.get("snapshot-id"), obj.get("sequence-number"))


@implements("v4.inherit")
def inherit(e: ContentEntry, snapshot_id: int, sequence_number: int, where: str = "") -> ContentEntry:
    """`e` with inherited version_info values filled in (rule v4.inherit)."""
    changes: dict[str, Any] = {}
    if e.snapshot_id is None:
        changes["snapshot_id"] = snapshot_id
    for name in ("sequence_number", "file_sequence_number"):
        if getattr(e, name) is None:
            if e.status != ADDED:
                raise InvalidInput(
                    "v4.inherit",
                    f"{where}: a {'DELETED' if e.status == DELETED else 'EXISTING'} entry must carry {name}",
                    e.location,
                )
            changes[name] = sequence_number
    return replace(e, **changes) if changes else e


@implements("v4.inherit")
def require_root(root: Any) -> SnapshotRoot:
    """`root`, a caller's `SnapshotRoot`; anything else (None) is rejected (rule v4.inherit: the root
    gives the values its entries inherit)."""
    if not isinstance(root, SnapshotRoot):
        raise InvalidInput(
            "v4.inherit",
            "reading a snapshot needs its root (a SnapshotRoot: location, snapshot-id, sequence-number)",
            brief(root),
        )
    return root


@implements("v4.tree.root-only")
def read_root(read: Any, root: SnapshotRoot) -> tuple[ContentEntry, ...]:
    """The root's entries (DELETED ones included) with inherited values; `read(path) -> bytes`."""
    require_root(root)
    f = read_manifest(read(root.location), root.location)
    if f.content != "root":
        raise InvalidInput(
            "v4.tree.root-only", f"{root.location}: a snapshot's root manifest has content root", f.content
        )
    return tuple(
        inherit(e, root.snapshot_id, root.sequence_number, f"{root.location} entry {i}")
        for i, e in enumerate(f.entries)
    )


@implements("v4.tree.depth", "v4.tree.root-only", "v4.upgrade.v3-leaves")
def read_leaf(read: Any, manifest: ContentEntry) -> tuple[ManifestFile, tuple[ContentEntry, ...]]:
    """A leaf manifest and its entries in file order (ordinal = index), inherited from `manifest`,
    its resolved root entry (rules v4.tree.depth, v4.tree.root-only, v4.upgrade.v3-leaves)."""
    f = read_manifest(read(manifest.location), manifest.location, allow_v3=True)
    expected = "data" if manifest.content_type == DATA_MANIFEST else "delete"
    if f.content != expected:
        raise InvalidInput(
            "v4.tree.depth",
            f"{manifest.location}: a type {manifest.content_type} entry points at a {expected} manifest, "
            f"this one has content {f.content}",
            f.content,
        )
    if f.format_version < 4:
        return f, tuple(_from_v3(e) for e in _v3_entries(f, manifest))
    out = []
    for i, e in enumerate(f.entries):
        where = f"{manifest.location} entry {i}"
        if e.content_type in ROOT_ONLY:
            raise InvalidInput(
                "v4.tree.root-only",
                f"{where}: content type {e.content_type} is only allowed in the root manifest",
                e.location,
            )
        out.append(inherit(e, manifest.snapshot_id, manifest.sequence_number, where))
    return f, _with_first_row_ids(manifest, out)


@implements("v4.lineage.first-row-id")
def _with_first_row_ids(manifest: ContentEntry, entries: list[ContentEntry]) -> tuple[ContentEntry, ...]:
    """The leaf's entries with first_row_id inherited from the data manifest's root entry (rule
    v4.lineage.first-row-id), by the v3 assignment (`inheritance.file_first_row_ids`)."""
    if manifest.content_type != DATA_MANIFEST or manifest.first_row_id is None:
        return tuple(entries)
    v3_form = [
        {
            "status": e.status,
            "data_file": {
                "content": e.content_type,
                "file_path": e.location,
                "record_count": e.record_count,
                "first_row_id": e.first_row_id,
            },
        }
        for e in entries
    ]
    firsts = inheritance.file_first_row_ids(manifest.first_row_id, v3_form)
    return tuple(e if first == e.first_row_id else replace(e, first_row_id=first) for e, first in zip(entries, firsts))


def _v3_entries(f: ManifestFile, manifest: ContentEntry) -> list[dict[str, Any]]:
    row = {
        "manifest_path": manifest.location,
        "sequence_number": manifest.sequence_number,
        "added_snapshot_id": manifest.snapshot_id,
        "content": 0 if manifest.content_type == DATA_MANIFEST else 1,
    }
    entries = inheritance.inherit_entries(row, list(f.records), f.format_version)
    if manifest.content_type == DATA_MANIFEST and manifest.first_row_id is not None:
        for e, first in zip(entries, inheritance.file_first_row_ids(manifest.first_row_id, entries)):
            e["data_file"]["first_row_id"] = first
    return entries


def _from_v3(e: dict[str, Any]) -> ContentEntry:
    """A v1-v3 manifest entry as a content entry (the field mapping of the proposal's tables)."""
    f = e["data_file"]
    dv = None
    if f.get("content_offset") is not None:
        dv = DeletionVectorRef(f["content_offset"], f.get("content_size_in_bytes"))
    return ContentEntry(
        f.get("content", DATA),
        f["file_path"],
        str(f["file_format"]).lower(),
        f["record_count"],
        e["status"],
        e["snapshot_id"],
        e["sequence_number"],
        e["file_sequence_number"],
        0,
        f.get("file_size_in_bytes"),
        dv,
        f.get("sort_order_id"),
        None,
        f.get("referenced_data_file"),
        f.get("key_metadata"),
        None if f.get("split_offsets") is None else tuple(f["split_offsets"]),
        None if f.get("equality_ids") is None else tuple(f["equality_ids"]),
        f.get("first_row_id"),
    )


@dataclass(frozen=True)
class Located:
    """A live file entry and where it is: `manifest` None for the root, else the leaf and ordinal."""

    entry: ContentEntry
    manifest: str | None = None
    ordinal: int | None = None


@dataclass(frozen=True)
@implements("v4.replay.live-files")
class LiveFiles:
    """The live content of a snapshot (rule v4.replay.live-files)."""

    files: dict[tuple, Located]  # keyed by ContentEntry.key
    manifest_dvs: dict[str, frozenset[int]]  # leaf manifest -> ordinals deleted by its live manifest DVs
    leaves: dict[str, tuple[ContentEntry, ...]]  # live leaf manifest -> its entries (all statuses)

    @property
    def data_files(self) -> dict[str, ContentEntry]:
        return {loc.entry.location: loc.entry for loc in self.files.values() if loc.entry.content_type == DATA}

    @property
    def delete_files(self) -> list[ContentEntry]:
        return [loc.entry for loc in self.files.values() if loc.entry.content_type != DATA]

    def applicable_deletes(self, unpartitioned_specs: Iterable[int] = ()) -> dict[str, tuple[tuple, ...]]:
        """For each live data file, the keys of the delete files that apply to it (Scan Planning,
        as in v3: `spec_impl.deletes.scoping`; partitions are empty, see the package docstring 9)."""
        keys: dict[int, tuple] = {}
        deletes = []
        for e in self.delete_files:
            f = _scan_file(e)
            keys[id(f)] = e.key
            deletes.append(f)
        planned = scoping.plan([_scan_file(e) for e in self.data_files.values()], deletes, unpartitioned_specs)
        return {path: tuple(sorted(keys[id(f)] for f in applied.files())) for path, applied in planned.items()}


def _scan_file(e: ContentEntry) -> scoping.ScanFile:
    return scoping.ScanFile(
        e.location, e.content_type, e.partition_spec_id, (), e.sequence_number, e.file_format, e.referenced_file
    )


@implements("v4.manifest-dv.target")
def replay_entries(read: Any, root_entries: Iterable[ContentEntry]) -> LiveFiles:
    """The live files of a root whose entries are resolved (`read_root`, or an upgraded state)."""
    live_root = [e for e in root_entries if e.live]
    manifests = {e.location: e for e in live_root if e.content_type in MANIFEST_TYPES}
    deleted: dict[str, set[int]] = {}
    for e in live_root:
        if e.content_type == MANIFEST_DV:
            if e.referenced_file not in manifests:
                raise InvalidInput(
                    "v4.manifest-dv.target",
                    f"manifest DV {e.location} names {e.referenced_file!r}, not a manifest live in the root",
                    e.referenced_file,
                )
            deleted.setdefault(e.referenced_file, set()).update(dv_positions(read, e))
    files: dict[tuple, Located] = {}
    leaves: dict[str, tuple[ContentEntry, ...]] = {}
    for e in live_root:
        if e.content_type in FILE_TYPES:
            files[e.key] = Located(e)
        elif e.content_type in MANIFEST_TYPES:
            _, entries = read_leaf(read, e)
            leaves[e.location] = entries
            gone = deleted.get(e.location, set())
            for i, leaf in enumerate(entries):
                if leaf.live and i not in gone:
                    files[leaf.key] = Located(leaf, e.location, i)
    return LiveFiles(files, {k: frozenset(v) for k, v in deleted.items()}, leaves)


def replay(read: Any, root: SnapshotRoot) -> LiveFiles:
    """The live files of the snapshot whose root is `root`; `read(path) -> bytes` (e.g. `InMemoryFiles(...).read`)."""
    return replay_entries(read, read_root(read, root))
