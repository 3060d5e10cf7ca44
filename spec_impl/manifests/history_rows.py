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
from spec_impl.manifests.history_pairs import Pair
from spec_impl.manifests.inheritance import DATA
from spec_impl.manifests.validate import Violation
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.reader import read_table

REPLACE_ROWS = "history.replace-rows"
ROW_LIMIT = 100_000
register(
    Rule(
        REPLACE_ROWS,
        "Snapshots",
        "A replace snapshot does not change the table's data: a reader returns the same rows (as a multiset) from "
        "it and from its parent",
    )
)


def _rows(pair: Pair, snapshot_id: int) -> Counter | None:
    """The snapshot's rows as a multiset of JSON texts; None when a file cannot be read."""
    try:
        table = read_table(pair.files, pair.metadata_location, snapshot_id, revision=revisions.DEFAULT)
    except (SpecError, OSError):
        return None
    return Counter(json.dumps(row, sort_keys=True, default=str) for row in table.to_pylist())


@implements(REPLACE_ROWS)
def replace_keeps_rows(pair: Pair) -> Iterator[Violation]:
    """history.replace-rows. "replace -- Data and delete files were added and removed without
    changing table data; i.e., compaction, changing the data file format, or relocating data files."
    (Snapshots)"""
    if pair.operation != "replace" or pair.files is None or pair.metadata_location is None:
        return
    if sum(e.record_count for e in pair.child.live.values() if e.content == DATA) > ROW_LIMIT:
        return
    before, after = _rows(pair, pair.parent.snapshot.snapshot_id), _rows(pair, pair.child.snapshot.snapshot_id)
    if before is None or after is None or before == after:
        return
    lost, gained = sum((before - after).values()), sum((after - before).values())
    yield pair.violation(REPLACE_ROWS, f"a replace changed the rows: {lost} row(s) gone, {gained} new")


CHECKS = ((REPLACE_ROWS, replace_keeps_rows),)
