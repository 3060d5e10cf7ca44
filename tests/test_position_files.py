"""Rules position-deletes.sorted and position-deletes.in-range (spec_impl/deletes/position_files.py).

Expectations come from the spec text ("Position Delete Files": "sorted by file_path then pos";
pos "starting at 0"); the Arrow form is held equal to the row form on random inputs.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from spec_impl.deletes.position_files import check_position_arrays, check_position_rows, check_positions_in_range
from spec_impl.errors import InvalidInput

A, B = "a.parquet", "b.parquet"


def rules(found):
    return sorted({f.rule for f in found})


def test_sorted_rows_pass():
    assert check_position_rows([(A, 0), (A, 1), (B, 0)], {A: 2, B: 1}) == []


@pytest.mark.parametrize("rows", [[(A, 1), (A, 0)], [(B, 0), (A, 5)], [("\U0001f600", 0), ("\uff61", 0)]])
def test_out_of_order_is_reported_once_with_the_row(rows):
    found = check_position_rows(rows + rows[:1], lambda path: None)
    assert rules(found) == ["position-deletes.sorted"] and len(found) == 1
    assert found[0].value == list(rows[1]) and "row 1" in found[0].message


def test_positions_numeric_and_code_point_order():
    assert check_position_rows([(A, 9), (A, 10), ("\uff61", 0), ("\U0001f600", 0)], lambda path: None) == []


@pytest.mark.parametrize(
    ("low", "high", "rows", "bad"), [(0, 4, 5, None), (0, 5, 5, 5), (-1, 3, 5, -1), (0, 0, 0, 0), (7, 9, None, None)]
)
def test_in_range_boundaries(low, high, rows, bad):
    found = check_positions_in_range(A, low, high, rows)
    assert [f.value for f in found] == ([] if bad is None else [bad])
    assert all(f.rule == "position-deletes.in-range" and A in f.message for f in found)


def test_malformed_rows_name_the_rule():
    for rows in ([(A, "1")], [(None, 1)], [(A, True)]):
        with pytest.raises(InvalidInput) as e:
            check_position_rows(rows, {})
        assert e.value.rule == "deletes.position-rows"
    with pytest.raises(InvalidInput) as e:
        check_position_arrays(pa.array([A, None]), pa.array([0, 1]), {})
    assert e.value.rule == "deletes.position-rows"


paths = st.sampled_from([A, B, "\uff61", "\U0001f600", "a"])
row_lists = st.lists(st.tuples(paths, st.integers(-2, 12)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(row_lists, st.dictionaries(paths, st.integers(0, 12)), st.booleans())
def test_arrow_form_equals_row_form(rows, counts, chunked):
    path_column, pos_column = pa.array([p for p, _ in rows], pa.string()), pa.array([q for _, q in rows], pa.int64())
    if chunked:
        path_column, pos_column = (
            pa.chunked_array([path_column.slice(0, 1), path_column.slice(1)]),
            pa.chunked_array([pos_column.slice(0, 1), pos_column.slice(1)]),
        )
    assert check_position_arrays(path_column, pos_column, counts) == check_position_rows(rows, counts)


@settings(max_examples=200, deadline=None)
@given(row_lists)
def test_sorted_input_never_reported_unsorted(rows):
    assert "position-deletes.sorted" not in rules(check_position_rows(sorted(rows), {}))
    if rows != sorted(rows):
        assert "position-deletes.sorted" in rules(check_position_rows(rows, {}))
