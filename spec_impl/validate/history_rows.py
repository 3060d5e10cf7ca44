"""The history rule over the rows of consecutive snapshots: a `replace` leaves the table's rows as
they were ("Snapshots": "replace -- Data and delete files were added and removed without changing
table data; i.e., compaction, changing the data file format, or relocating data files.").

Both snapshots are read with the reference reader (`spec_impl.scan.reader`, without the row lineage
columns) when the pair's file source has the data and delete files; a file that is not there or
cannot be read leaves the rule unchecked (the tree validator and the audit report missing files).
A table whose replace snapshot has more than `ROW_LIMIT` live rows is not read: the pass runs on
metadata otherwise, and reading the whole table twice per compaction would dominate it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.manifests.inheritance import DATA
from spec_impl.manifests.validate import Violation
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.reader import read_table
from spec_impl.validate.history_pairs import Pair

REPLACE_ROWS = "history.replace-rows"
MOVED_ROWS = "history.moved-row-lineage"
ROW_ID, LAST_UPDATED = "_row_id", "_last_updated_sequence_number"
ROW_LIMIT = 100_000
register(
    Rule(
        REPLACE_ROWS,
        "Snapshots",
        "A replace snapshot does not change the table's data: a reader returns the same rows (as a multiset) from "
        "it and from its parent",
    ),
    Rule(
        MOVED_ROWS,
        "adopted 1.4 Row lineage",
        "A row a v3 snapshot keeps under its _row_id has the parent's _last_updated_sequence_number if unchanged, "
        "the snapshot's sequence number if modified; a replace keeps every non-null _row_id",
        (3,),
        revisions.ADOPTED,
    ),
)


def _read(pair: Pair, snapshot_id: int, with_lineage: bool = False) -> list[dict] | None:
    """The snapshot's rows; None when a file cannot be read or the table is above `ROW_LIMIT` rows."""
    if sum(e.record_count for e in pair.child.live.values() if e.content == DATA) > ROW_LIMIT:
        return None
    try:
        table = read_table(
            pair.files, pair.metadata_location, snapshot_id, with_lineage=with_lineage, revision=revisions.DEFAULT
        )
    except (SpecError, OSError):
        return None
    return table.to_pylist()


def _text(row: dict) -> str:
    """A row's values without the row lineage columns, as comparable text (NaN equal to NaN)."""
    return json.dumps({k: v for k, v in row.items() if k not in (ROW_ID, LAST_UPDATED)}, sort_keys=True, default=str)


def _rows(pair: Pair, snapshot_id: int) -> Counter | None:
    """The snapshot's rows as a multiset of texts; None when they cannot be read."""
    rows = _read(pair, snapshot_id)
    return None if rows is None else Counter(_text(row) for row in rows)


@implements(REPLACE_ROWS)
def replace_keeps_rows(pair: Pair) -> Iterator[Violation]:
    """history.replace-rows. "replace -- Data and delete files were added and removed without
    changing table data; i.e., compaction, changing the data file format, or relocating data files."
    (Snapshots)"""
    if pair.operation != "replace" or pair.files is None or pair.metadata_location is None:
        return
    before, after = _rows(pair, pair.parent.snapshot.snapshot_id), _rows(pair, pair.child.snapshot.snapshot_id)
    if before is None or after is None or before == after:
        return
    lost, gained = sum((before - after).values()), sum((after - before).values())
    yield pair.violation(REPLACE_ROWS, f"a replace changed the rows: {lost} row(s) gone, {gained} new")


@implements(MOVED_ROWS)
def moved_row_lineage(pair: Pair) -> Iterator[Violation]:
    """history.moved-row-lineage. Rows moved to another file: "Copy a non-null `_row_id`." "If the
    row was modified, write `_last_updated_sequence_number` as null; otherwise copy it." (adopted
    v3 digest §1.4): a null reads as the new file's data sequence number, the snapshot's. Rows are
    followed by their _row_id; only a replace (which changes no row) shows a row that lost its id."""
    child = pair.child.snapshot
    if pair.child.format_version < 3 or pair.files is None or pair.metadata_location is None:
        return
    rows_removed = any(e.content == DATA for e in pair.removed) or any(e.content != DATA for e in pair.added)
    if pair.parent.snapshot.first_row_id is None or not rows_removed:
        return  # no row ids before, or no row removed (no data file removed, no delete added): no row moved
    before = _read(pair, pair.parent.snapshot.snapshot_id, True)
    after = _read(pair, child.snapshot_id, True)
    if not before or after is None or (after and set(after[0]) != set(before[0])):
        return  # not readable, or another schema: rows cannot be compared by value
    old = {r[ROW_ID]: r for r in before if r.get(ROW_ID) is not None}
    kept = set()
    for r in after:
        o = old.get(r.get(ROW_ID))
        if o is None:
            continue
        kept.add(r[ROW_ID])
        same = _text(r) == _text(o)
        wanted = o[LAST_UPDATED] if same else child.sequence_number
        if r[LAST_UPDATED] != wanted:
            yield pair.violation(
                MOVED_ROWS,
                f"the row with _row_id {r[ROW_ID]} ({'unchanged' if same else 'modified'}) has "
                f"_last_updated_sequence_number {r[LAST_UPDATED]}, not {wanted}",
            )
    lost = sorted(set(old) - kept)
    if pair.operation == "replace" and lost:
        yield pair.violation(MOVED_ROWS, f"a replace moved the rows with _row_id {lost[:10]} without their ids")


CHECKS = ((REPLACE_ROWS, replace_keeps_rows), (MOVED_ROWS, moved_row_lineage))
