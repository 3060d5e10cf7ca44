"""History rules over consecutive metadata files of a table: the files its `metadata-log` names,
oldest first, then the metadata file given. Each file is compared with the one before it.

Spec: "Table Metadata Fields" (`snapshot-log`: an entry for each change of the current snapshot;
`metadata-log`: an entry for the previous metadata file in each new one), "Sequence Numbers" (a
new snapshot is assigned the next sequence number); adopted v3 digest §1.4
(a snapshot's `first-row-id` is the table's `next-row-id`). A logged metadata file that is not
there (deleted after `write.metadata.previous-versions-max`) or cannot be read is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.manifests.tree import FileSource
from spec_impl.manifests.validate import Violation
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import RULES, SHOULD, Rule, implements, register

_FIELDS = "Table Metadata Fields"
METADATA_LOG = "history.metadata-log-entry"
SNAPSHOT_LOG = "history.snapshot-log-entry"
FIRST_ROW_ID = "history.snapshot-first-row-id"
NEXT_SEQUENCE_NUMBER = "history.next-sequence-number"
register(
    Rule(
        NEXT_SEQUENCE_NUMBER,
        "Sequence Numbers",
        "The snapshots a v2+ metadata file adds have the next sequence numbers: the previous file's "
        "last-sequence-number plus 1, plus 2 for a second added snapshot, and so on",
        (2, 3),
    ),
    Rule(
        METADATA_LOG,
        _FIELDS,
        "A recommendation (should): each metadata file's metadata-log ends with the metadata file before it",
        strength=SHOULD,
    ),
    Rule(
        SNAPSHOT_LOG,
        _FIELDS,
        "A recommendation (should): a metadata file that changes current-snapshot-id ends its snapshot-log with "
        "an entry of its last-updated-ms and the new current-snapshot-id",
        strength=SHOULD,
    ),
    Rule(
        FIRST_ROW_ID,
        "adopted 1.4 Row lineage",
        "A snapshot a metadata file adds has the first-row-id of the previous file's next-row-id (0 before v3), "
        "plus the added-rows of the snapshots added before it in the same file",
        (3,),
        revisions.ADOPTED,
    ),
)


def metadata_chain(
    files: FileSource, md: TableMetadata, location: str, revision: str
) -> list[tuple[str, TableMetadata | None]]:
    """(location, metadata) of the logged metadata files, oldest first, then `md`; None for a file
    that is not there or cannot be read (the files on either side of it are not consecutive)."""
    chain: list[tuple[str, TableMetadata | None]] = []
    for entry in md.metadata_log:
        try:
            chain.append((entry["metadata-file"], read_metadata_file(files.read(entry["metadata-file"]), revision)))
        except (SpecError, TypeError):
            chain.append((str(entry.get("metadata-file")), None))
    return [*chain, (location, md)]


def validate_metadata_history(
    files: FileSource, md: TableMetadata, location: str, revision: str = revisions.DEFAULT
) -> list[Violation]:
    """The violations of the rules over each consecutive pair of the table's metadata files."""
    chain = metadata_chain(files, md, location, revision)
    out: list[Violation] = []
    for (before_at, before), (after_at, after) in zip(chain, chain[1:]):
        if before is None or after is None:
            continue
        for rule_id, check in CHECKS:
            if revision in RULES[rule_id].revisions:
                out += check(before_at, before, after_at, after)
    return out


@implements(METADATA_LOG)
def metadata_log_entry(
    before_at: str, before: TableMetadata, after_at: str, after: TableMetadata
) -> Iterator[Violation]:
    """history.metadata-log-entry. "Each time a new metadata file is created, a new entry of the
    previous metadata file location should be added to the list." (Table Metadata Fields)"""
    last = after.metadata_log[-1]["metadata-file"] if after.metadata_log else None
    if last != before_at:
        yield Violation(METADATA_LOG, after_at, f"the metadata-log ends with {last}, not the previous file {before_at}")


@implements(SNAPSHOT_LOG)
def snapshot_log_entry(
    before_at: str, before: TableMetadata, after_at: str, after: TableMetadata
) -> Iterator[Violation]:
    """history.snapshot-log-entry. "Each time the current-snapshot-id is changed, a new entry should
    be added with the last-updated-ms and the new current-snapshot-id." (Table Metadata Fields)"""
    if after.current_snapshot_id is None or after.current_snapshot_id == before.current_snapshot_id:
        return
    last = after.snapshot_log[-1] if after.snapshot_log else None
    wanted = (after.last_updated_ms, after.current_snapshot_id)
    if last is None or (last.timestamp_ms, last.snapshot_id) != wanted:
        found = None if last is None else (last.timestamp_ms, last.snapshot_id)
        yield Violation(
            SNAPSHOT_LOG,
            after_at,
            f"current-snapshot-id changed from {before.current_snapshot_id} to {after.current_snapshot_id}; the "
            f"snapshot-log's last entry is {found}, not (last-updated-ms, snapshot id) {wanted}",
        )


@implements(FIRST_ROW_ID)
def snapshot_first_row_ids(
    before_at: str, before: TableMetadata, after_at: str, after: TableMetadata
) -> Iterator[Violation]:
    """history.snapshot-first-row-id. "**Snapshot `first-row-id`:** set to the table's `next-row-id`
    on every commit attempt." (adopted v3 digest §1.4); "`next-row-id` starts at 0" on upgrade."""
    known = {s.snapshot_id for s in before.snapshots}
    next_row_id = before.next_row_id or 0
    for s in after.snapshots:
        if s.snapshot_id in known or s.first_row_id is None:
            continue
        if s.first_row_id != next_row_id:
            yield Violation(
                FIRST_ROW_ID,
                after_at,
                f"snapshot {s.snapshot_id} has first-row-id {s.first_row_id}; "
                f"the table's next-row-id was {next_row_id}",
            )
        next_row_id = s.first_row_id + (s.added_rows or 0)


@implements(NEXT_SEQUENCE_NUMBER)
def next_sequence_numbers(
    before_at: str, before: TableMetadata, after_at: str, after: TableMetadata
) -> Iterator[Violation]:
    """history.next-sequence-number. "When a snapshot is created for a commit, it is optimistically
    assigned the next sequence number, and it is written into the snapshot's metadata." (Sequence
    Numbers); a v1 file's last-sequence-number is 0 ("must default to 0", Appendix E)."""
    if after.format_version < 2:
        return
    known = {s.snapshot_id for s in before.snapshots}
    added = sorted(s.sequence_number for s in after.snapshots if s.snapshot_id not in known)
    wanted = list(range(before.last_sequence_number + 1, before.last_sequence_number + 1 + len(added)))
    if added != wanted:
        yield Violation(
            NEXT_SEQUENCE_NUMBER,
            after_at,
            f"the snapshots added after last-sequence-number {before.last_sequence_number} have sequence "
            f"numbers {added}, not the next ones {wanted}",
        )


CHECKS = (
    (NEXT_SEQUENCE_NUMBER, next_sequence_numbers),
    (METADATA_LOG, metadata_log_entry),
    (SNAPSHOT_LOG, snapshot_log_entry),
    (FIRST_ROW_ID, snapshot_first_row_ids),
)
