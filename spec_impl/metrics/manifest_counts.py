"""Whether a manifest's file counts let a reader skip it.

Spec: "Scan Planning": "Manifests that contain no matching files, determined using either file
counts or partition summaries, may be skipped." "Manifest Lists": `added_files_count` and
`existing_files_count` count the entries with status ADDED and EXISTING, and "when null this is
assumed to be non-zero". A manifest whose added and existing file counts are both 0 tracks no live
file (its entries, if any, are DELETED) and may be skipped; a null count is assumed to be
non-zero, so it never proves a manifest empty: a reader must read such a manifest (v1 manifest
lists may leave the counts out).
"""

from __future__ import annotations

from spec_impl.rules import Rule, implements, register

register(
    Rule(
        "file-pruning.manifest-counts",
        "Scan Planning; Manifest Lists (504 added_files_count, 505 existing_files_count)",
        "A manifest may be skipped by its file counts only when added_files_count and existing_files_count are "
        "both 0; a null count is assumed to be non-zero, so it never lets a reader skip the manifest",
    ),
)


@implements("file-pruning.manifest-counts")
def may_hold_live_files(added_files_count: int | None, existing_files_count: int | None) -> bool:
    """False only when both counts are known to be 0 (the manifest tracks no live file)."""
    return any(c is None or c > 0 for c in (added_files_count, existing_files_count))
