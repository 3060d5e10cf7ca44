"""Rules file.record-count and file.size-in-bytes (spec_impl/metrics/file_counts.py).

Expectations from the spec text: data_file 103 record_count "Number of records in this file" and
104 file_size_in_bytes "Total file size in bytes", both required longs (v1 to v3).
"""

from __future__ import annotations

import pytest

from spec_impl.metrics.file_counts import check_file_size, check_record_count


@pytest.mark.parametrize(
    ("claimed", "ok"),
    [(3, True), (2, False), (4, False), (-3, False), (None, False), (3.0, False), (True, False), ("3", False)],
)
def test_record_count(claimed, ok):
    found = check_record_count(claimed, 3)
    assert (found == []) is ok
    assert all(f.rule == "file.record-count" and f.value == claimed and "3 rows" in f.message for f in found)


def test_record_count_of_an_empty_file_and_a_long_count():
    assert check_record_count(0, 0) == [] and check_record_count(2**40, 2**40) == []
    assert check_record_count(1, 0)[0].rule == "file.record-count"


@pytest.mark.parametrize(("claimed", "ok"), [(1024, True), (1023, False), (1025, False), (None, False), (0, False)])
def test_file_size(claimed, ok):
    found = check_file_size(claimed, 1024)
    assert (found == []) is ok
    assert all(f.rule == "file.size-in-bytes" and "1024 bytes" in f.message for f in found)
