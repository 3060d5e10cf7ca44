"""History rules on what a snapshot writes into its manifest entries and manifest list: the snapshot
id and status of the entries it adds and deletes, null inherited values in new entries, and (v3)
the row ids it assigns and keeps.

Spec: "Manifest Entry Fields" (an added entry stores the adding snapshot, a deleted one the
deleting snapshot; a deleted file is not added back), "Sequence Number Inheritance" (new entries
are written with null sequence numbers); adopted v3 digest §1.4 (new files are written with a
null first_row_id (delete files: rule tree.first-row-id), manifests keep their first_row_id,
`added-rows` bounds the ids a snapshot assigns). Each rule is a function over a `history.Pair`,
as in `spec_impl.validate.history`.
"""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl import revisions
from spec_impl.manifests.inheritance import ADDED, DATA, DELETED
from spec_impl.manifests.validate import Violation
from spec_impl.rules import SHOULD, Rule, implements, register
from spec_impl.validate.history_pairs import Pair

_ENTRY = "Manifest Entry Fields"
_LINEAGE = "adopted 1.4 Row lineage"
ADDED_ENTRY = "history.added-entry-snapshot"
DELETED_ENTRY = "history.deleted-entry-snapshot"
RE_ADDED = "history.deleted-file-re-added"
NEW_ENTRY_NULLS = "history.new-entry-sequence-numbers"
NEW_FILE_ROW_ID = "history.new-file-row-id-null"
MANIFEST_ROW_ID = "history.manifest-row-id-kept"
ASSIGNED_RANGE = "history.assigned-row-ids-in-range"
_V3 = ((3,), revisions.ADOPTED)
register(
    Rule(
        ADDED_ENTRY,
        _ENTRY,
        "A recommendation (should): a file a snapshot adds to the dataset has an ADDED entry that stores the "
        "snapshot's id",
        strength=SHOULD,
    ),
    Rule(
        DELETED_ENTRY,
        _ENTRY,
        "A DELETED entry for a file live in the parent stores the id of the snapshot that deleted it",
    ),
    Rule(
        RE_ADDED,
        _ENTRY,
        "A recommendation (should-not): a snapshot does not add back a file its parent's manifests mark DELETED",
        strength=SHOULD,
    ),
    Rule(
        NEW_ENTRY_NULLS,
        "Sequence Number Inheritance",
        "An entry a snapshot adds is written with a null file sequence number, and a data sequence number that is "
        "null or explicitly older than the snapshot's",
        (2, 3),
    ),
    Rule(NEW_FILE_ROW_ID, _LINEAGE, "A v3 snapshot writes the data files it adds with a null first_row_id", *_V3),
    Rule(
        MANIFEST_ROW_ID,
        _LINEAGE,
        "A manifest listed by the parent with a first_row_id keeps it in the child's manifest list",
        *_V3,
    ),
    Rule(
        ASSIGNED_RANGE,
        _LINEAGE,
        "The row ids a v3 snapshot assigns (to the files that inherit them from a manifest first_row_id it "
        "assigned) lie in [first-row-id, first-row-id + added-rows)",
        *_V3,
    ),
)


def _added_by_child(pair: Pair):
    """The entries the child wrote as ADDED (its own snapshot id) for files not live in the parent."""
    child_id = pair.child.snapshot.snapshot_id
    return [e for e in pair.child.entries if e.status == ADDED and e.snapshot_id == child_id]


@implements(ADDED_ENTRY)
def added_entries(pair: Pair) -> Iterator[Violation]:
    """history.added-entry-snapshot. "When a file is added to the dataset, its manifest entry should
    store the snapshot ID in which the file was added and set status to 1 (added)." (Manifest Entry
    Fields): every file live in the child and not in the parent."""
    child_id = pair.child.snapshot.snapshot_id
    for e in pair.added:
        if e.status != ADDED or e.snapshot_id != child_id:
            yield pair.violation(
                ADDED_ENTRY,
                f"{e.key} is new in the snapshot but its entry has status {e.status} and snapshot id {e.snapshot_id}",
                e.manifest,
            )


@implements(DELETED_ENTRY)
def deleted_entries(pair: Pair) -> Iterator[Violation]:
    """history.deleted-entry-snapshot. "When a file is replaced or deleted from the dataset, its
    manifest entry fields store the snapshot ID in which the file was deleted and status 2
    (deleted)." (Manifest Entry Fields): a DELETED entry of the child for a file live in the parent."""
    child_id = pair.child.snapshot.snapshot_id
    for e in pair.child.entries:
        if e.status == DELETED and e.key in pair.parent.live and e.snapshot_id != child_id:
            yield pair.violation(
                DELETED_ENTRY,
                f"{e.key} was deleted by this snapshot, its entry says snapshot {e.snapshot_id}",
                e.manifest,
            )


@implements(RE_ADDED)
def deleted_files_added_back(pair: Pair) -> Iterator[Violation]:
    """history.deleted-file-re-added. "It is not recommended to add a deleted file back to a table."
    (Manifest Entry Fields): a file the parent's manifests mark DELETED (deleted by the parent or an
    earlier snapshot whose DELETED entry the parent still lists) is live again in the child."""
    deleted = {e.key for e in pair.parent.entries if e.status == DELETED}
    for e in pair.added:
        if e.key in deleted:
            yield pair.violation(RE_ADDED, f"{e.key} was deleted and is added back", e.manifest)


@implements(NEW_ENTRY_NULLS)
def new_entry_sequence_numbers(pair: Pair) -> Iterator[Violation]:
    """history.new-entry-sequence-numbers. "When adding a new file, its data and file sequence
    numbers are set to null because the snapshot's sequence number is not assigned until the
    snapshot is successfully committed." (Sequence Number Inheritance); the same section allows an
    explicit data sequence number for data that "logically belongs to an older sequence number"."""
    if pair.child.format_version < 2:
        return
    sequence_number = pair.child.snapshot.sequence_number
    for e in _added_by_child(pair):
        if e.key in pair.parent.live:
            continue
        written, data = e.written.get("file_sequence_number"), e.written.get("sequence_number")
        if written is not None or (data is not None and data >= sequence_number):
            yield pair.violation(
                NEW_ENTRY_NULLS,
                f"{e.key} is added with sequence_number {data} and file_sequence_number {written} written out "
                f"(the snapshot's sequence number is {sequence_number})",
                e.manifest,
            )


@implements(NEW_FILE_ROW_ID)
def new_file_row_ids(pair: Pair) -> Iterator[Violation]:
    """history.new-file-row-id-null. "New files are written with a null `first_row_id`." (adopted v3
    digest §1.4): the data files the child adds."""
    if pair.child.format_version < 3:
        return
    for e in _added_by_child(pair):
        if e.content == DATA and e.key not in pair.parent.live and e.written.get("first_row_id") is not None:
            yield pair.violation(
                NEW_FILE_ROW_ID, f"{e.key} is added with first_row_id {e.written['first_row_id']}", e.manifest
            )


@implements(MANIFEST_ROW_ID)
def manifest_row_ids_kept(pair: Pair) -> Iterator[Violation]:
    """history.manifest-row-id-kept. "Existing `first_row_id` values are kept, and delete manifests
    get null." (adopted v3 digest §1.4, manifest list): a manifest both lists name."""
    if pair.child.format_version < 3:
        return
    for path, row in pair.child.manifests.items():
        before = pair.parent.manifests.get(path, {}).get("first_row_id")
        if before is not None and row.get("first_row_id") != before:
            yield pair.violation(
                MANIFEST_ROW_ID,
                f"manifest {path} has first_row_id {row.get('first_row_id')}, the parent's list {before}",
            )


@implements(ASSIGNED_RANGE)
def assigned_row_ids_in_range(pair: Pair) -> Iterator[Violation]:
    """history.assigned-row-ids-in-range. "**`added-rows`:** an upper bound on the ids assigned, so it
    can include existing rows." (adopted v3 digest §1.4): the ids the child assigns are those its
    files inherit from a manifest first_row_id the child assigned (a manifest new in its list, or
    one the parent listed without an id); each file's range lies in the snapshot's."""
    snapshot = pair.child.snapshot
    if pair.child.format_version < 3 or snapshot.first_row_id is None or snapshot.added_rows is None:
        return
    low, high = snapshot.first_row_id, snapshot.first_row_id + snapshot.added_rows
    assigned = {
        path
        for path, row in pair.child.manifests.items()
        if row.get("first_row_id") is not None and pair.parent.manifests.get(path, {}).get("first_row_id") is None
    }
    for e in pair.child.entries:
        if e.manifest not in assigned or e.content != DATA or e.status == DELETED or e.first_row_id is None:
            continue
        if e.written.get("first_row_id") is None and (e.first_row_id < low or e.first_row_id + e.record_count > high):
            yield pair.violation(
                ASSIGNED_RANGE,
                f"{e.key} is assigned row ids [{e.first_row_id}, {e.first_row_id + e.record_count}), outside the "
                f"snapshot's [{low}, {high})",
                e.manifest,
            )


CHECKS = (
    (ADDED_ENTRY, added_entries),
    (DELETED_ENTRY, deleted_entries),
    (RE_ADDED, deleted_files_added_back),
    (NEW_ENTRY_NULLS, new_entry_sequence_numbers),
    (NEW_FILE_ROW_ID, new_file_row_ids),
    (MANIFEST_ROW_ID, manifest_row_ids_kept),
    (ASSIGNED_RANGE, assigned_row_ids_in_range),
)
