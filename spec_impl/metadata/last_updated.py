"""`last-updated-ms` against the logs of the same metadata file.

Spec: "Table Metadata Fields": last-updated-ms is the "Timestamp in milliseconds from the unix epoch
when the table was last updated. Each table metadata file should update this field just before
writing." A snapshot-log entry is added "with the last-updated-ms and the new current-snapshot-id"
of the update that changed the current snapshot, and a metadata-log entry records an earlier
metadata file with its timestamp, and every snapshot was created (timestamp-ms) before the file
that adds it was written: all were written before this file, so its last-updated-ms is not before
the last entry of either log nor the newest snapshot. As for the order of the snapshot log
(rule snapshot-log.order), Iceberg Java's one-minute clock-skew tolerance applies.
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, implements, register

CLOCK_SKEW_MS = 60_000  # Iceberg Java's tolerance (TableMetadata: ONE_MINUTE), as in snapshot-log.order

register(
    Rule(
        "table.last-updated-ms",
        "Table Metadata Fields (last-updated-ms, snapshot-log, metadata-log)",
        "last-updated-ms is not before the timestamp of the last snapshot-log entry, of the last metadata-log "
        "entry nor of the newest snapshot (the file is written after all of them), beyond Iceberg Java's "
        "one-minute clock-skew tolerance",
    ),
)


@implements("table.last-updated-ms")
def check_last_updated(last_updated_ms: int, snapshot_log: Any, metadata_log: Any, snapshots: Any = ()) -> None:
    """Raise InvalidInput when last-updated-ms is more than a minute before the last entry of the
    snapshot-log (SnapshotLogEntry items), of the metadata-log (JSON objects) or the newest of the
    `snapshots` (Snapshot items)."""
    latest = (
        ("the last snapshot-log entry", [e.timestamp_ms for e in snapshot_log][-1:]),
        ("the last metadata-log entry", [e["timestamp-ms"] for e in metadata_log][-1:]),
        ("the newest snapshot", [max(s.timestamp_ms for s in snapshots)] if snapshots else []),
    )
    for what, stamps in latest:
        if stamps and last_updated_ms < stamps[0] - CLOCK_SKEW_MS:
            raise InvalidInput(
                "table.last-updated-ms",
                f"last-updated-ms is before {what}, at {stamps[0]}: the file was written after it",
                last_updated_ms,
            )
