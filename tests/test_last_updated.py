"""Rule table.last-updated-ms: a metadata file's last-updated-ms is not before the last entry of its
snapshot-log or metadata-log, beyond a minute of clock skew (spec_impl.metadata.last_updated)."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.metadata.last_updated import check_last_updated
from spec_impl.metadata.snapshots import SnapshotLogEntry

LOG = (SnapshotLogEntry(1_000_000, 1), SnapshotLogEntry(2_000_000, 2))
FILES = [{"metadata-file": "v1.metadata.json", "timestamp-ms": 1_500_000}]


@pytest.mark.parametrize("last_updated", [2_000_000, 2_500_000, 2_000_000 - 60_000])
def test_at_or_after_the_last_entries_within_a_minute_is_accepted(last_updated):
    check_last_updated(last_updated, LOG, FILES)


def test_before_the_last_snapshot_log_entry_is_rejected():
    with pytest.raises(InvalidInput, match="snapshot-log") as e:
        check_last_updated(2_000_000 - 60_001, LOG, FILES)
    assert e.value.rule == "table.last-updated-ms"


def test_before_the_last_metadata_log_entry_is_rejected_and_empty_logs_bound_nothing():
    with pytest.raises(InvalidInput, match="metadata-log"):
        check_last_updated(1_500_000 - 60_001, (), FILES)
    check_last_updated(0, (), [])


def test_before_the_newest_snapshot_is_rejected():
    from types import SimpleNamespace

    snapshots = [SimpleNamespace(timestamp_ms=t) for t in (3_000_000, 1_000_000)]
    with pytest.raises(InvalidInput, match="newest snapshot"):
        check_last_updated(3_000_000 - 60_001, (), [], snapshots)
    check_last_updated(3_000_000 - 60_000, (), [], snapshots)
