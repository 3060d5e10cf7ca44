"""The files of a parent snapshot and its child, as the history rules see them
(`spec_impl.validate.history`, `history_writes`, `history_deletes`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from spec_impl.manifests.inheritance import DELETED
from spec_impl.manifests.tree import FileSource
from spec_impl.manifests.validate import Violation
from spec_impl.metadata.snapshots import Snapshot


@dataclass(frozen=True)
class FileEntry:
    """One manifest entry of a snapshot, after inheritance (and, in v3, first_row_id derivation)."""

    key: str  # live_key: the file path, or a DV's Puffin path and blob offset
    status: int
    snapshot_id: int
    content: int
    file_format: str
    referenced_data_file: str | None
    sequence_number: int
    file_sequence_number: int
    first_row_id: int | None
    manifest: str
    record_count: int = 0
    written: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)  # the entry as stored, raw
    data_file: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)  # after inheritance

    @property
    def is_dv(self) -> bool:
        return self.file_format.lower() == "puffin"


@dataclass
class SnapshotFiles:
    """A snapshot's manifests (path -> manifest-list row) and every entry of them."""

    snapshot: Snapshot
    manifest_list: str  # where a violation of the snapshot as a whole is reported
    format_version: int  # of the snapshot: 3 for a v3 snapshot of a v3 table (it has a first-row-id)
    manifests: dict[str, dict[str, Any]]
    entries: list[FileEntry]

    @cached_property
    def live(self) -> dict[str, FileEntry]:
        return {e.key: e for e in self.entries if e.status != DELETED}


@dataclass
class Pair:
    """A snapshot and its parent, and what the child changed."""

    parent: SnapshotFiles
    child: SnapshotFiles
    files: FileSource | None = None  # to read data and delete files (DV merges, rows); None: metadata only
    metadata_location: str | None = None  # of the table, to read its rows

    @property
    def operation(self) -> str | None:
        return self.child.snapshot.operation

    @cached_property
    def added(self) -> list[FileEntry]:
        """Files live in the child and not in the parent."""
        return [e for key, e in self.child.live.items() if key not in self.parent.live]

    @cached_property
    def removed(self) -> list[FileEntry]:
        """Files live in the parent and not in the child (as the parent had them)."""
        return [e for key, e in self.parent.live.items() if key not in self.child.live]

    def violation(self, rule_id: str, message: str, path: str | None = None) -> Violation:
        where = f"snapshot {self.child.snapshot.snapshot_id} (parent {self.parent.snapshot.snapshot_id})"
        return Violation(rule_id, path or self.child.manifest_list, f"{where}: {message}")
