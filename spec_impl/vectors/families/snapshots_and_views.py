"""Snapshots, snapshot references, the snapshot log, snapshot expiration and view metadata.

Snapshot JSON cases start from Appendix C's snapshot example (with the comma the printed example
lacks after "manifest-list"); table-level cases (refs, current-snapshot-id, snapshot-log, parent
chains, sequence numbers, row-id ranges) modify copies of the table-metadata family's documents;
expiration cases walk the five steps of "Snapshot Retention Policy" on a small history; view
cases start from the adopted view spec's Appendix A example and from the early draft's example,
corrected into valid JSON."""

from __future__ import annotations

from spec_impl.vectors.families import _snapshot_json, _snapshot_retention, _snapshot_tables, _view_history, _views

NAME = "snapshots-and-views"
DESCRIPTION = (
    "Snapshots, Snapshot Reference, Snapshot Retention Policy, snapshot-log (Table Metadata Fields), "
    "Appendix C; the view spec (adopted and early draft)"
)


def specs():
    yield from _snapshot_json.specs()
    yield from _snapshot_tables.specs()
    yield from _snapshot_retention.specs()
    yield from _views.specs()
    yield from _view_history.specs()
