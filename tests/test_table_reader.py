"""The reference reader (spec_impl.scan.reader) and the golden table corpus (spec_impl.vectors.tables).

Rules: scan.snapshot, scan.read-schema. Spark's rows for tables Iceberg Java wrote are compared
with the reader in conformance/test_spark_trees.py; engines read the corpus in conformance/.
"""

from __future__ import annotations

import json

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.manifests.tree import InMemoryFiles, LocalFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.rules import split_recommendations
from spec_impl.scan.reader import read_table
from spec_impl.scan.table_writer import TableBuilder
from spec_impl.vectors import cli, tables


def _ids(table) -> list:
    return sorted(table.column("id").to_pylist())


@pytest.mark.parametrize("case_id", [c.id for c in tables.CASES])
def test_every_golden_table_is_a_valid_tree(case_id):
    """No violation; a should not followed on purpose (position-delete-sort-order) is a recommendation."""
    _, t = tables.build(case_id)
    found = validate_table(InMemoryFiles(t.files), t.tree.metadata_location)
    assert split_recommendations(found)[0] == []


def test_materialized_table_reads_like_the_golden_one(tmp_path):
    metadata, doc = tables.materialize("equality-deletes", tmp_path)
    golden = json.loads((cli.DEFAULT_ROOT / "tables" / "equality-deletes" / "case.json").read_text())
    assert doc["snapshots"] == golden["snapshots"]
    last = golden["snapshots"][-1]
    assert tables.table_rows(read_table(LocalFiles(), metadata, last["snapshot-id"])) == {
        "columns": last["columns"],
        "rows": last["rows"],
    }


def test_refs_and_snapshot_ids():
    _, t = tables.build("position-deletes")
    files, location = InMemoryFiles(t.files), t.tree.metadata_location
    assert _ids(read_table(files, location, ref="main")) == _ids(read_table(files, location)) == [2, 3, 4, 6]
    assert _ids(read_table(files, location, 1)) == [1, 2, 3, 4, 5]
    for kwargs in ({"ref": "nope"}, {"snapshot_id": 1, "ref": "main"}):
        with pytest.raises(InvalidInput) as e:
            read_table(files, location, **kwargs)
        assert e.value.rule == "scan.snapshot"


def test_a_table_without_snapshots_reads_no_rows():
    t = TableBuilder("file:/t", 2, tables.SCHEMA)
    t.tree.write_metadata()
    table = read_table(InMemoryFiles(t.files), t.tree.metadata_location)
    assert table.num_rows == 0 and table.column_names == ["id", "data", "category"]


def test_older_snapshot_reads_with_its_own_schema():
    _, t = tables.build("promoted-columns")
    files, location = InMemoryFiles(t.files), t.tree.metadata_location
    assert read_table(files, location, 1).column_names == ["id", "amount"]
    assert read_table(files, location, 2).column_names == ["value", "key"]


def test_a_snapshot_named_by_id_reads_with_its_schema_even_when_current():
    """Rule scan.read-schema: after a column is dropped without a new commit, the current snapshot
    read by id keeps the column (as Iceberg Java, PyIceberg, DuckDB and Polars read it); a read of
    the table, or of the main branch, uses the current schema."""
    _, t = tables.build("column-dropped-after-commit")
    files, location = InMemoryFiles(t.files), t.tree.metadata_location
    assert read_table(files, location, 1).column_names == ["id", "data", "category"]
    assert read_table(files, location).column_names == ["id", "data"]
    assert read_table(files, location, ref="main").column_names == ["id", "data"]


def test_lineage_columns_only_on_request():
    _, t = tables.build("dv-replaced")
    files, location = InMemoryFiles(t.files), t.tree.metadata_location
    assert "_row_id" not in read_table(files, location).column_names
    lineage = read_table(files, location, with_lineage=True)
    assert sorted(lineage.column("_row_id").to_pylist()) == [0, 3, 4, 5, 6, 7, 8]


def test_table_cli_names_the_tables(tmp_path, capsys):
    assert cli.main(["table", "dv-replaced", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"file:{tmp_path.resolve()}/metadata/v3.metadata.json"
    with pytest.raises(SystemExit):
        cli.main(["table", "nope", str(tmp_path)])


def _with_name_mapping(case_id: str, text: str) -> tuple[InMemoryFiles, str]:
    """A golden table whose current metadata file has `text` as its name mapping property."""
    _, t = tables.build(case_id)
    files, location = dict(t.files), t.tree.metadata_location
    doc = json.loads(files[location])
    doc["properties"] = {**doc.get("properties", {}), "schema.name-mapping.default": text}
    files[location] = json.dumps(doc).encode()
    return InMemoryFiles(files), location


def test_a_malformed_name_mapping_is_a_spec_error_when_a_file_needs_it():
    files, location = _with_name_mapping("name-mapped", '[{"field-id": 1, "names": ["id"]')
    with pytest.raises(InvalidInput) as e:
        read_table(files, location)
    assert e.value.rule == "name-mapping.json"


def test_a_malformed_name_mapping_no_file_needs_is_not_read():
    """Name Mapping applies to files without field ids only; files that have them never parse it."""
    files, location = _with_name_mapping("position-deletes", "[{")
    assert read_table(files, location).num_rows > 0
