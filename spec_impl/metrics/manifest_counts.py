"""Whether a manifest's file and row counts let a reader skip it.

Spec: "Scan Planning": "Manifests that contain no matching files, determined using either file
counts or partition summaries, may be skipped." "Manifest Lists": `added_files_count` (504),
`existing_files_count` (505) and `deleted_files_count` (506) count the entries with status ADDED,
EXISTING and DELETED, `added_rows_count` (512), `existing_rows_count` (513) and
`deleted_rows_count` (514) the rows of those entries' files, and of each: "when null this is
assumed to be non-zero".

A scan reads live entries (ADDED and EXISTING): a manifest whose added and existing file counts
are both 0, or whose added and existing row counts are both 0, holds no live row and may be
skipped. A reader of the rows of DELETED entries (the rows a snapshot removed, as a change log reads
them) may skip a manifest whose deleted file count or deleted row count is 0. A null count never
proves anything, so it never lets a reader skip the manifest (v1 manifest lists may leave the
counts out).
"""

from __future__ import annotations

from collections.abc import Mapping

from spec_impl.rules import Rule, implements, register

register(
    Rule(
        "file-pruning.manifest-counts",
        "Scan Planning; Manifest Lists (504-506 file counts, 512-514 row counts)",
        "A manifest may be skipped by its counts only when they prove it holds no row a reader wants: for a scan, "
        "added_files_count and existing_files_count both 0 or added_rows_count and existing_rows_count both 0; "
        "for DELETED entries, deleted_files_count or deleted_rows_count 0; a null count is assumed to be non-zero, "
        "so it never lets a reader skip the manifest",
    ),
)

LIVE, DELETED = "live", "deleted"
# The count keys of each kind of entry a reader wants: (files, rows) per entry status.
_COUNTS = {
    LIVE: (("added", "added-rows"), ("existing", "existing-rows")),
    DELETED: (("deleted", "deleted-rows"),),
}


def _zero(count: int | None) -> bool:
    """A count proves emptiness only when it is known and 0 (null is assumed to be non-zero)."""
    return count is not None and count == 0


@implements("file-pruning.manifest-counts")
def may_hold_wanted_rows(counts: Mapping[str, int | None], wanted: str = LIVE) -> bool:
    """False only when the known counts prove the manifest holds no entry row of the wanted kind.

    `counts` maps "added", "existing", "deleted" (file counts) and "added-rows", "existing-rows",
    "deleted-rows" (row counts) to the manifest list's values; a missing key is a null count.
    """
    statuses = _COUNTS[wanted]
    no_files = all(_zero(counts.get(files)) for files, _ in statuses)
    no_rows = all(_zero(counts.get(rows)) for _, rows in statuses)
    return not (no_files or no_rows)
