"""The golden tables as the case contract reads them (`spec_impl.ops.golden_tables`): from the
directory `vectors/tables/<id>/`, the rows the reference reads are the rows its `case.json` states
for every snapshot, and a table that is not there is named in the error."""

from __future__ import annotations

import json

import pytest

from spec_impl.ops import golden_tables
from spec_impl.resources import vectors_dir

TABLES = sorted(p.parent.name for p in (vectors_dir() / "tables").glob("*/case.json"))


def test_there_are_golden_tables():
    assert len(TABLES) >= 20


@pytest.mark.parametrize("table_id", TABLES)
def test_the_directory_reads_as_its_case_states(table_id):
    doc = json.loads((vectors_dir() / "tables" / table_id / "case.json").read_text(encoding="utf-8"))
    for snapshot in doc["snapshots"]:
        got = golden_tables.read_rows(table_id, snapshot["snapshot-id"])
        assert got == {"columns": snapshot["columns"], "rows": snapshot["rows"]}, snapshot["snapshot-id"]


def test_while_building_the_builder_is_asked():
    asked = []

    def source(table_id):
        asked.append(table_id)
        return golden_tables._from_directory(table_id)

    with golden_tables.built_by(source):
        golden_tables.table_files(TABLES[0])
    golden_tables.table_files(TABLES[0])
    assert asked == [TABLES[0]]


def test_an_unknown_table_is_named():
    with pytest.raises(KeyError, match="no golden table 'no-such-table'"):
        golden_tables.table_files("no-such-table")
