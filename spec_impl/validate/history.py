"""The history validator: rules over consecutive snapshots of a table (a parent and its child).

Spec: "Manifest Entry Fields" (sequence numbers never change; a deleted entry names a file of the
dataset), "Snapshots" (the `operation` values), "Manifest Lists" (new manifests carry the
snapshot's sequence number); adopted v3 digest §1.4 (row ids kept) and §1.5 (no new position-delete
files, a removed data file's DV removed with it).

Each rule is one small function over a `Pair` (the parent's and the child's files), yielding
violations under its rule id. The table's snapshots are walked once: every snapshot is read once
(its manifests cached by path), compared with its parent when the parent is still in the table,
and dropped once its last child has been compared.

    violations = validate_history(LocalFiles(), "file:/warehouse/db/t/metadata/v3.metadata.json")

`overwrite` has no rule of its own: "Data and delete files were added and removed in a logical
overwrite operation" allows any change, and the rules for every operation apply to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.manifests.avro_schemas import without_column_metrics
from spec_impl.manifests.inheritance import ADDED, DATA, DELETED
from spec_impl.manifests.tree import FileSource, ManifestReading, manifest_rows, read_manifest
from spec_impl.manifests.validate import Violation, live_key
from spec_impl.metadata.snapshots import Snapshot
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import RULES, Rule, implements, register
from spec_impl.validate.history_deletes import CHECKS as DELETE_CHECKS
from spec_impl.validate.history_metadata import validate_metadata_history
from spec_impl.validate.history_pairs import FileEntry, Pair, SnapshotFiles
from spec_impl.validate.history_rows import CHECKS as ROW_CHECKS
from spec_impl.validate.history_writes import CHECKS as WRITE_CHECKS

_ENTRY = "Manifest Entry Fields"
_SNAPSHOTS = "Snapshots"
POSITION_DELETES = 1
register(
    Rule(
        "history.data-sequence-number",
        _ENTRY,
        "A file's data sequence number never changes after the file is added: every later entry of it carries the same",
        (2, 3),
    ),
    Rule(
        "history.file-sequence-number",
        _ENTRY,
        "A file's file sequence number, assigned at the commit that added it, stays unchanged in every later entry",
        (2, 3),
    ),
    Rule(
        "history.deleted-were-live",
        _ENTRY,
        "A DELETED entry written by a snapshot names a file that was live in its parent: only a file of the "
        "dataset can be replaced or deleted from it",
    ),
    Rule(
        "history.append",
        _SNAPSHOTS,
        "An append snapshot only adds data files: every file live in the parent stays live, and no delete file "
        "is added",
    ),
    Rule(
        "history.delete",
        _SNAPSHOTS,
        "A delete snapshot removes data files and/or adds delete files: it adds no data file",
    ),
    Rule(
        "history.new-manifest-sequence-number",
        "Manifest Lists",
        "A manifest new in a snapshot (not in its parent's manifest list, added by the snapshot) has the snapshot's "
        "sequence number",
        (2, 3),
    ),
    Rule(
        "history.v3-no-position-deletes",
        "adopted 1.5 Deletion vectors",
        "A v3 snapshot adds no position-delete file (a deletion vector instead); existing ones stay valid",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "history.dv-removed-with-data-file",
        "adopted 1.5 Deletion vectors",
        "A snapshot that removes a data file removes its deletion vector too: no live DV references a data file the "
        "snapshot removed",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "history.row-ids-kept",
        "adopted 1.4 Row lineage",
        "A data file that had a first_row_id in the parent keeps it in the child's EXISTING and DELETED entries",
        (3,),
        revisions.ADOPTED,
    ),
)


# --- the rules, one function each ----------------------------------------------------------------


@implements("history.data-sequence-number")
def data_sequence_numbers(pair: Pair) -> Iterator[Violation]:
    """history.data-sequence-number. "The sequence_number field represents the data sequence number
    and must never change after a file is added to the dataset." (Manifest Entry Fields): every
    entry of the child for a file live in the parent carries the parent's data sequence number."""
    for e in pair.child.entries:
        before = pair.parent.live.get(e.key)
        if before is not None and e.sequence_number != before.sequence_number:
            yield pair.violation(
                "history.data-sequence-number",
                f"{e.key}: data sequence number {e.sequence_number}, was {before.sequence_number}",
                e.manifest,
            )


@implements("history.file-sequence-number")
def file_sequence_numbers(pair: Pair) -> Iterator[Violation]:
    """history.file-sequence-number. "The file_sequence_number field represents the sequence number
    of the snapshot that added the file and must also remain unchanged upon assigning at commit."
    (Manifest Entry Fields)."""
    for e in pair.child.entries:
        before = pair.parent.live.get(e.key)
        if before is not None and e.file_sequence_number != before.file_sequence_number:
            yield pair.violation(
                "history.file-sequence-number",
                f"{e.key}: file sequence number {e.file_sequence_number}, was {before.file_sequence_number}",
                e.manifest,
            )


@implements("history.deleted-were-live")
def deleted_were_live(pair: Pair) -> Iterator[Violation]:
    """history.deleted-were-live. "When a file is replaced or deleted from the dataset, its manifest
    entry fields store the snapshot ID in which the file was deleted and status 2 (deleted)."
    (Manifest Entry Fields); `replace`: "Data and delete files were added and removed" (Snapshots).
    A file not in the parent's dataset cannot be removed from it. The text states what a deletion
    records, not that a writer must not record any other: a `reading` (question
    history.deleted-not-live); the reference reads it as a violation."""
    child_id = pair.child.snapshot.snapshot_id
    for e in pair.child.entries:
        if e.status == DELETED and e.snapshot_id == child_id and e.key not in pair.parent.live:
            yield pair.violation(
                "history.deleted-were-live", f"{e.key} is marked DELETED but was not live in the parent", e.manifest
            )


@implements("history.append")
def append_only_adds_data(pair: Pair) -> Iterator[Violation]:
    """history.append. "append -- Only data files were added and no files were removed." (Snapshots)"""
    if pair.operation != "append":
        return
    for e in pair.removed:
        yield pair.violation("history.append", f"an append removed {e.key}, live in the parent")
    for e in pair.added:
        if e.content != DATA:
            yield pair.violation("history.append", f"an append added the delete file {e.key}", e.manifest)


@implements("history.delete")
def delete_adds_no_data(pair: Pair) -> Iterator[Violation]:
    """history.delete. "delete -- Data files were removed and their contents logically deleted
    and/or delete files were added to delete rows." (Snapshots): a delete adds no data file.
    Removing delete files is not excluded (a v3 writer replaces a DV by a merged one)."""
    if pair.operation != "delete":
        return
    for e in pair.added:
        if e.content == DATA:
            yield pair.violation("history.delete", f"a delete added the data file {e.key}", e.manifest)


@implements("history.new-manifest-sequence-number")
def new_manifest_sequence_numbers(pair: Pair) -> Iterator[Violation]:
    """history.new-manifest-sequence-number. "When a manifest list is written, the (optimistic)
    sequence number of the snapshot is written for all new manifest files tracked by the list."
    (Manifest Lists). New: not in the parent's list, and added by this snapshot."""
    if pair.child.format_version < 2:
        return
    snapshot = pair.child.snapshot
    for path, row in pair.child.manifests.items():
        if path in pair.parent.manifests or row.get("added_snapshot_id") != snapshot.snapshot_id:
            continue
        if row["sequence_number"] != snapshot.sequence_number:
            yield pair.violation(
                "history.new-manifest-sequence-number",
                f"new manifest {path} has sequence_number {row['sequence_number']}, "
                f"the snapshot's is {snapshot.sequence_number}",
            )


@implements("history.v3-no-position-deletes")
def v3_no_new_position_deletes(pair: Pair) -> Iterator[Violation]:
    """history.v3-no-position-deletes. "**Position-delete files in v3:** none may be added. Existing
    ones stay valid." (adopted v3 digest §1.5)"""
    if pair.child.format_version < 3:
        return
    for e in pair.added:
        if e.content == POSITION_DELETES and not e.is_dv:
            yield pair.violation(
                "history.v3-no-position-deletes", f"a v3 snapshot added the position-delete file {e.key}", e.manifest
            )


@implements("history.dv-removed-with-data-file")
def dv_removed_with_data_file(pair: Pair) -> Iterator[Violation]:
    """history.dv-removed-with-data-file. "**Removing a data file** requires removing its DV from
    the delete manifests; the Puffin file need not be rewritten." (adopted v3 digest §1.5)"""
    removed = {e.key for e in pair.removed if e.content == DATA}
    for e in pair.child.live.values():
        if e.is_dv and e.referenced_data_file in removed:
            yield pair.violation(
                "history.dv-removed-with-data-file",
                f"the DV {e.key} of {e.referenced_data_file} is live, the data file was removed",
                e.manifest,
            )


@implements("history.row-ids-kept")
def row_ids_kept(pair: Pair) -> Iterator[Violation]:
    """history.row-ids-kept. "EXISTING and DELETED entries carry the value they inherited."
    (adopted v3 digest §1.4, data files): a data file's first_row_id, once the parent has one."""
    if pair.child.format_version < 3:
        return
    for e in pair.child.entries:
        before = pair.parent.live.get(e.key)
        if before is None or before.content != DATA or before.first_row_id is None or e.status == ADDED:
            continue
        if e.first_row_id != before.first_row_id:
            yield pair.violation(
                "history.row-ids-kept",
                f"{e.key}: first_row_id {e.first_row_id} in a {'DELETED' if e.status == DELETED else 'EXISTING'} "
                f"entry, it inherited {before.first_row_id}",
                e.manifest,
            )


CHECKS: tuple[tuple[str, Callable[[Pair], Iterator[Violation]]], ...] = (
    ("history.data-sequence-number", data_sequence_numbers),
    ("history.file-sequence-number", file_sequence_numbers),
    ("history.deleted-were-live", deleted_were_live),
    ("history.append", append_only_adds_data),
    ("history.delete", delete_adds_no_data),
    ("history.new-manifest-sequence-number", new_manifest_sequence_numbers),
    ("history.v3-no-position-deletes", v3_no_new_position_deletes),
    ("history.dv-removed-with-data-file", dv_removed_with_data_file),
    ("history.row-ids-kept", row_ids_kept),
    *WRITE_CHECKS,  # what a snapshot writes (entries, row ids): history_writes
    *DELETE_CHECKS,  # deletion vectors and the summary's delete counts: history_deletes
    *ROW_CHECKS,  # a replace keeps the rows: history_rows
)
__all__ = ["CHECKS", "FileEntry", "Pair", "SnapshotFiles", "check_pair", "validate_history"]


def check_pair(pair: Pair, revision: str = revisions.DEFAULT) -> list[Violation]:
    """The violations of one parent/child pair, by every rule that exists in `revision`."""
    out: list[Violation] = []
    for rule_id, check in CHECKS:
        if revision in RULES[rule_id].revisions:
            out.extend(v for v in check(pair) if v not in out)
    return out


# --- walking the history -----------------------------------------------------------------------------


def validate_history(
    files: FileSource, metadata_location: str, revision: str = revisions.DEFAULT, data_files: bool = True
) -> list[Violation]:
    """Every violation of the history rules over each snapshot and its parent. A metadata file or a
    snapshot tree that cannot be read is left to the tree validator (`validate.validate_table`).
    With `data_files` False the rules that read data and delete files (rows, DV positions) are
    skipped: only metadata is read."""
    try:
        md = read_metadata_file(files.read(metadata_location), revision)
    except SpecError:
        return []
    reader = _SnapshotReader(files, md, metadata_location)
    ids = {s.snapshot_id for s in md.snapshots}
    children_left = Counter(s.parent_snapshot_id for s in md.snapshots if s.parent_snapshot_id in ids)
    read: dict[int, SnapshotFiles | None] = {}

    def snapshot_files(s: Snapshot) -> SnapshotFiles | None:
        if s.snapshot_id not in read:
            read[s.snapshot_id] = reader.read(s)
        return read[s.snapshot_id]

    by_id = {s.snapshot_id: s for s in md.snapshots}
    violations: list[Violation] = validate_metadata_history(files, md, metadata_location, revision)
    for s in md.snapshots:
        parent = by_id.get(s.parent_snapshot_id) if s.parent_snapshot_id is not None else None
        if parent is None:
            continue
        parent_files, child_files = snapshot_files(parent), snapshot_files(s)
        if parent_files is not None and child_files is not None:
            pair = Pair(parent_files, child_files, files if data_files else None, metadata_location)
            violations.extend(v for v in check_pair(pair, revision) if v not in violations)
        children_left[parent.snapshot_id] -= 1
        for done in (parent.snapshot_id, s.snapshot_id):
            if children_left[done] <= 0:
                read.pop(done, None)  # no child of it left to compare: let it go
        reader.keep_only([f for f in read.values() if f is not None])
    return violations


class _SnapshotReader:
    """Reads a snapshot's entries, each manifest once while a snapshot that lists it is held
    (cached by its path and the manifest-list values its entries inherit; `keep_only` lets the
    others go, so memory is bounded by the snapshots being compared, not by the table)."""

    def __init__(self, files: FileSource, md: TableMetadata, metadata_location: str):
        self.files, self.md, self.metadata_location = files, md, metadata_location
        self._manifests: dict[tuple, tuple[dict[str, Any], tuple[FileEntry, ...]]] = {}

    def read(self, snapshot: Snapshot) -> SnapshotFiles | None:
        try:
            _, rows = manifest_rows(self.files, self.md, snapshot)
            readings = [self.manifest(row) for row in rows]
        except SpecError:
            return None  # the tree validator reports it
        v3 = self.md.format_version >= 3 and snapshot.first_row_id is not None
        version = 3 if v3 else min(self.md.format_version, 2)
        return SnapshotFiles(
            snapshot,
            snapshot.manifest_list or self.metadata_location,  # a v1 snapshot may list its manifests inline
            version,
            {row["manifest_path"]: row for row, _ in readings},
            [e for _, entries in readings for e in entries],
        )

    def keep_only(self, held: list[SnapshotFiles]) -> None:
        """Forget the manifests that no snapshot in `held` lists."""
        listed = {path for files in held for path in files.manifests}
        self._manifests = {key: m for key, m in self._manifests.items() if key[0] in listed}

    def manifest(self, row: dict[str, Any]) -> tuple[dict[str, Any], tuple[FileEntry, ...]]:
        """A manifest's list row (v1 defaults applied) and its entries, read once per path and inherited values."""
        key = tuple(
            row.get(k) for k in ("manifest_path", "sequence_number", "added_snapshot_id", "first_row_id", "content")
        )
        if key not in self._manifests:
            m = read_manifest(self.files, row, self.md.format_version)
            self._manifests[key] = (m.row, tuple(_entry(m, e, w) for e, w in zip(m.entries, m.file.records)))
        return self._manifests[key]


def _entry(m: ManifestReading, e: dict[str, Any], written: dict[str, Any]) -> FileEntry:
    df = e["data_file"]
    return FileEntry(
        key=live_key(df),
        status=e["status"],
        snapshot_id=e["snapshot_id"],
        content=df.get("content", DATA),
        file_format=str(df.get("file_format", "")),
        referenced_data_file=df.get("referenced_data_file"),
        sequence_number=e["sequence_number"],
        file_sequence_number=e["file_sequence_number"],
        first_row_id=df.get("first_row_id"),
        manifest=m.path,
        record_count=df.get("record_count") or 0,
        written=dict(written, data_file=None, first_row_id=(written.get("data_file") or {}).get("first_row_id")),
        data_file=without_column_metrics(df),  # a snapshot's files are held: its metrics are not
    )
