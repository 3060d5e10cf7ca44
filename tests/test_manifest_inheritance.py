"""Manifest entry inheritance and v3 row ids: the rules a reader applies to decoded manifests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec_impl.errors import InvalidInput
from spec_impl.manifests.inheritance import (
    assign_manifest_first_row_ids,
    file_first_row_ids,
    inherit_entries,
    min_sequence_number,
    read_manifest_file,
    row_lineage,
)

ROW = {"manifest_path": "m.avro", "sequence_number": 5, "added_snapshot_id": 8}


def _e(status, **kw):
    return {"status": status, "data_file": {"file_path": "f", "record_count": kw.pop("records", 1)}, **kw}


def test_added_entries_inherit_and_others_must_carry():
    """manifest.inherit.sequence-number and manifest.inherit.snapshot-id."""
    [added] = inherit_entries(ROW, [_e(1)], 2)
    assert (added["sequence_number"], added["file_sequence_number"], added["snapshot_id"]) == (5, 5, 8)
    for status in (0, 2):
        with pytest.raises(InvalidInput, match="manifest.inherit.sequence-number"):
            inherit_entries(ROW, [_e(status, snapshot_id=1)], 2)
    [kept] = inherit_entries(ROW, [_e(0, snapshot_id=1, sequence_number=2, file_sequence_number=3)], 2)
    assert (kept["sequence_number"], kept["file_sequence_number"], kept["snapshot_id"]) == (2, 3, 1)
    with pytest.raises(InvalidInput, match="manifest.status"):
        inherit_entries(ROW, [_e(5)], 2)


def test_v1_defaults():
    """manifest.v1-defaults: v1 rows and entries read sequence numbers 0 and content 0."""
    assert read_manifest_file({"manifest_path": "m"}) == {
        "manifest_path": "m",
        "content": 0,
        "sequence_number": 0,
        "min_sequence_number": 0,
    }
    entries = inherit_entries({"manifest_path": "m", "added_snapshot_id": 1}, [_e(0, snapshot_id=1)], 1)
    assert entries[0]["sequence_number"] == 0 and entries[0]["data_file"]["content"] == 0


def test_min_sequence_number_counts_live_entries_only():
    """manifest.min-sequence-number: 0 is a legitimate minimum; DELETED entries do not count."""
    entries = inherit_entries(
        ROW,
        [
            _e(0, snapshot_id=1, sequence_number=0, file_sequence_number=0),
            _e(2, snapshot_id=1, sequence_number=9, file_sequence_number=9),
        ],
        2,
    )
    assert min_sequence_number(entries) == 0
    assert min_sequence_number(entries[1:]) is None


@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 50), st.integers(0, 50)), max_size=8), st.integers(0, 10**6)
)
def test_manifest_first_row_ids_never_overlap(rows, start):
    """lineage.manifest-first-row-id: assigned ranges are consecutive and disjoint; delete manifests get null."""
    manifests = [{"content": c, "added_rows_count": a, "existing_rows_count": e} for c, a, e in rows]
    out, next_id = assign_manifest_first_row_ids(manifests, start)
    expected = start
    for m in out:
        if m["content"] == 1:
            assert m["first_row_id"] is None
        else:
            assert m["first_row_id"] == expected
            expected += m["added_rows_count"] + m["existing_rows_count"]
    assert next_id == expected


def test_file_first_row_ids():
    """lineage.file-first-row-id: explicit kept, DELETED skipped, nulls follow the record counts."""
    entries = [_e(1, records=10), _e(0, records=4, snapshot_id=1), _e(2, records=5), _e(1, records=1)]
    entries[1]["data_file"]["first_row_id"] = 77
    assert file_first_row_ids(100, entries) == [100, 77, None, 110]
    assert file_first_row_ids(None, entries) == [None, 77, None, None]


def test_row_values():
    """lineage.row-values"""
    assert row_lineage(10, 4, [{}, {"_row_id": 3}]) == [
        {"_row_id": 10, "_last_updated_sequence_number": 4},
        {"_row_id": 3, "_last_updated_sequence_number": 4},
    ]
    assert row_lineage(None, 4, [{}]) == [{"_row_id": None, "_last_updated_sequence_number": None}]
