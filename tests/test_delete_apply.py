"""Applying deletes to one data file's rows (spec_impl.deletes.apply), with the spec's own example.

Rules: deletes.position-rows, deletes.dv-rows, deletes.equality-rows, deletes.equality-columns.
"""

from __future__ import annotations

import pytest

from spec_impl.deletes.apply import FILE_PATH_ID, POS_ID, equality_delete, position_deletes, surviving_positions
from spec_impl.errors import InvalidInput
from spec_impl.types import parse_type

# "Equality Delete Files": 1: id | 2: category | 3: name
SPEC_TABLE = [
    {1: 1, 2: "marsupial", 3: "Koala"},
    {1: 2, 2: "toy", 3: "Teddy"},
    {1: 3, 2: None, 3: "Grizzly"},
    {1: 4, 2: None, 3: "Polar"},
]
TYPES = {1: parse_type("long"), 2: parse_type("string"), 3: parse_type("string")}


def test_the_spec_example_delete_id_3_either_form():
    only_id = equality_delete("e1", [1], [{1: 3}], TYPES)
    whole_row = equality_delete("e2", [1], [{1: 3, 2: None, 3: "Grizzly"}], TYPES)
    for e in (only_id, whole_row):
        assert surviving_positions(SPEC_TABLE, set(), [e]) == [0, 1, 3]


def test_the_spec_example_id_4_and_category_is_null():
    e = equality_delete("e", [1, 2], [{1: 4, 2: None, 3: "Polar"}], TYPES)
    assert surviving_positions(SPEC_TABLE, set(), [e]) == [0, 1, 2]
    # the AND: id 3 has a null category too, but not id 4; id 4 with category "toy" matches nothing
    assert surviving_positions(SPEC_TABLE, set(), [equality_delete("e", [1, 2], [{1: 4, 2: "toy"}], TYPES)]) == [
        0,
        1,
        2,
        3,
    ]


def test_null_delete_value_matches_only_null():
    e = equality_delete("e", [2], [{2: None}], TYPES)
    assert surviving_positions(SPEC_TABLE, set(), [e]) == [0, 1]


def test_missing_delete_column_reads_its_default():
    rows = [{1: 1}, {1: 2}]  # an older file without column 5
    e = equality_delete("e", [1, 5], [{1: 2, 5: 7}], {**TYPES, 5: parse_type("int")})
    assert surviving_positions(rows, set(), [e], missing=lambda field_id: 7 if field_id == 5 else None) == [0]
    assert surviving_positions(rows, set(), [e]) == [0, 1]  # default null: no match


def test_position_deletes_name_the_file_and_positions():
    entries = [{FILE_PATH_ID: "a", POS_ID: 0}, {FILE_PATH_ID: "b", POS_ID: 1}, {FILE_PATH_ID: "a", POS_ID: 3}]
    assert position_deletes(entries, "a") == {0, 3}
    assert surviving_positions(SPEC_TABLE, position_deletes(entries, "a"), []) == [1, 2]
    with pytest.raises(InvalidInput) as e:
        position_deletes([{FILE_PATH_ID: "a", POS_ID: -1}], "a", "d.parquet")
    assert e.value.rule == "deletes.position-rows" and "d.parquet" in str(e.value)


def test_dv_positions_and_equality_together():
    e = equality_delete("e", [1], [{1: 1}], TYPES)
    assert surviving_positions(SPEC_TABLE, {3}, [e]) == [1, 2]


@pytest.mark.parametrize("bad,ids", [("double", [1]), ("float", [1])])
def test_float_columns_cannot_be_delete_columns(bad, ids):
    with pytest.raises(InvalidInput) as e:
        equality_delete("e", ids, [{1: 1.0}], {1: parse_type(bad)})
    assert e.value.rule == "deletes.equality-columns"


def test_delete_columns_must_be_in_the_file():
    with pytest.raises(InvalidInput) as e:
        equality_delete("e", [9], [{1: 1}], TYPES)
    assert e.value.rule == "deletes.equality-columns"
    with pytest.raises(InvalidInput):
        equality_delete("e", [], [{1: 1}], TYPES)
