"""Appendix A (Parquet): the physical schema of data files, rules parquet.field-ids,
parquet.list-3-level, parquet.decimal-fixed-size and parquet.type-mapping (a should), read with
pyarrow; the validator's and the audit's pass over a table's files; every golden table passes."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.audit.job import run_local
from conformance.audit.plan import plan
from spec_impl.datafiles.known_fields import missing_known_fields
from spec_impl.datafiles.parquet_rules import appendix_a_type, check_parquet_schema, min_decimal_bytes
from spec_impl.datafiles.parquet_schema import BARE_REPEATED, THREE_LEVEL, TWO_LEVEL, read_schema, walk
from spec_impl.datafiles.table_files import validate_data_files
from spec_impl.validate.cli import main as validate_main
from spec_impl.manifests.locations import ContainedFiles
from spec_impl.manifests.tree import LocalFiles, read_snapshot
from spec_impl.metadata.schema import parse_schema
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.types import parse_type
from spec_impl.vectors.families import parquet_schemas
from spec_impl.vectors.tables import materialize

SOURCES = parquet_schemas.SOURCES
TABLES = sorted(p.name for p in (Path(__file__).resolve().parents[1] / "vectors" / "tables").iterdir() if p.is_dir())


def _levels(data: bytes) -> dict[str, int | None]:
    return {n.path: n.levels for n in walk(read_schema(data)) if n.kind == "list"}


def test_list_levels_are_read_from_the_leaf_paths():
    nested = base64.b64decode(parquet_schemas._reference(parquet_schemas.NESTED, [{1: 1}]))
    assert _levels(nested) == {"tags": THREE_LEVEL}
    assert _levels((SOURCES / "legacy-names-three-level-list.parquet").read_bytes()) == {"tags": THREE_LEVEL}
    assert _levels((SOURCES / "two-level-list.parquet").read_bytes()) == {"tags": TWO_LEVEL}
    assert _levels((SOURCES / "bare-repeated-list.parquet").read_bytes()) == {"tags": BARE_REPEATED}


def test_a_list_of_lists_of_structs_is_three_level_at_both_depths():
    schema = {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {
                "id": 1,
                "name": "a.b",
                "required": False,
                "type": {
                    "type": "list",
                    "element-id": 2,
                    "element-required": False,
                    "element": {
                        "type": "list",
                        "element-id": 3,
                        "element-required": False,
                        "element": {
                            "type": "struct",
                            "fields": [{"id": 4, "name": "x", "required": False, "type": "int"}],
                        },
                    },
                },
            }
        ],
    }
    data = write_parquet([{1: [[{4: 1}]]}], parse_schema(schema, 2))
    assert _levels(data) == {"a.b": THREE_LEVEL, "a.b.element": THREE_LEVEL}
    assert check_parquet_schema(read_schema(data), {1: (), 2: (), 3: (), 4: (parse_type("int"),)}, 2) == []


@pytest.mark.parametrize(
    "precision, size", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 4), (10, 5), (18, 8), (19, 9), (38, 16)]
)
def test_minimum_bytes_of_a_decimal(precision, size):
    assert min_decimal_bytes(precision) == size


def test_every_primitive_the_reference_writes_follows_the_table():
    data = base64.b64decode(parquet_schemas._reference(parquet_schemas.ALL_TYPES))
    schema = parse_schema(parquet_schemas.ALL_TYPES, 3)
    by_id = {f.id: f.type for f in schema.fields}
    assert {n.field_id: appendix_a_type(n.leaf) for n in read_schema(data)} == by_id


def test_rules_by_case():
    """Each rule's cases: the findings name the rule and the column (the vectors hold them all)."""
    found = {c.slug: _findings(c) for c in parquet_schemas.specs()}
    assert found["no-ids"] == [("parquet.field-ids", None)]
    assert found["no-ids-name-mapped"] == []
    assert found["two-level-list"] == [("parquet.list-3-level", "tags")]
    assert found["fixed-16-for-precision-5"] == [
        ("parquet.decimal-fixed-size", "price"),
        ("parquet.type-mapping", "price"),
    ]
    assert found["timestamptz-not-utc-adjusted"] == [("parquet.type-mapping", "ts")]
    assert found["uuid-as-string"] == [("parquet.type-mapping", "u")]
    assert found["int-column-of-a-promoted-long"] == []


def _findings(case) -> list[tuple[str, str | None]]:
    from spec_impl.ops.registry import run

    return [(f["rule"], f["column"]) for f in run(case.op, case.input, "v3-adopted")]


@pytest.mark.parametrize("case_id", TABLES)
def test_every_golden_table_follows_appendix_a(tmp_path, case_id):
    location, _ = materialize(case_id, tmp_path)
    assert validate_data_files(LocalFiles(), location) == ([], [])


def _corrupt(tmp_path: Path, table: pa.Table) -> tuple[str, str]:
    """The golden table position-deletes with its first data file replaced by `table`."""
    location, _ = materialize("position-deletes", tmp_path)
    tree = read_snapshot(LocalFiles(), location)
    path = next(e["data_file"]["file_path"] for m in tree.manifests for e in m.entries if m.row["content"] == 0)
    buf = io.BytesIO()
    pq.write_table(table, buf, store_schema=False)
    Path(path.removeprefix("file:")).write_bytes(buf.getvalue())
    return location, path


def _ids(name: str, fid: int, t: pa.DataType) -> pa.Field:
    return pa.field(name, t, metadata={b"PARQUET:field_id": str(fid).encode()})


def test_validator_reports_a_file_without_field_ids(tmp_path, capsys):
    location, path = _corrupt(tmp_path, pa.table({"id": [1], "data": ["a"], "category": ["x"]}))
    assert validate_main([location]) == 1
    out = capsys.readouterr().out
    assert "[parquet.field-ids]" in out and path in out
    assert validate_main([location, "--no-data-files"]) == 0


def test_validator_lists_a_should_apart_and_exits_clean(tmp_path, capsys):
    schema = pa.schema([_ids("id", 1, pa.int64()), _ids("data", 2, pa.binary()), _ids("category", 3, pa.string())])
    table = pa.table({"id": [1], "data": [b"a"], "category": ["x"]}, schema=schema)
    location, _ = _corrupt(tmp_path, table)
    assert validate_main([location]) == 0
    out = capsys.readouterr().out
    assert "not a violation" in out and "[parquet.type-mapping]" in out and "column data (id 2)" in out


def test_audit_reports_the_musts_and_lists_the_should_apart(tmp_path):
    schema = pa.schema([pa.field("id", pa.int64()), _ids("data", 2, pa.binary()), _ids("category", 3, pa.string())])
    table = pa.table({"id": [1], "data": [b"a"], "category": ["x"]}, schema=schema)
    location, path = _corrupt(tmp_path, table)
    result = run_local(plan(ContainedFiles.for_table(LocalFiles(), location), location))
    assert ("parquet.field-ids", path) in {(v.rule, v.path) for v in result.violations}
    assert "parquet.type-mapping" not in {v.rule for v in result.violations}
    assert [v.rule for v in result.recommendations] == ["parquet.type-mapping"]


def test_a_file_missing_a_field_of_its_written_schema_is_reported():
    """content-file.known-fields: "Omitting a known field when writing a data file is never allowed."
    A file that holds field 1 only, written with a schema of fields 1 and 2, is reported for field 2;
    the same file against a schema whose field 2 is `unknown` (never stored) is not."""
    table = pa.table({"id": [1]}, schema=pa.schema([_ids("id", 1, pa.int64())]))
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    nodes = read_schema(buffer.getvalue())

    def written(second: str):
        fields = [{"id": 1, "name": "id", "required": True, "type": "long"}]
        fields.append({"id": 2, "name": "data", "required": False, "type": second})
        return parse_schema({"type": "struct", "schema-id": 0, "fields": fields}, 3).struct

    assert [(f.rule, f.value) for f in missing_known_fields(nodes, written("string"))] == [
        ("content-file.known-fields", 2)
    ]
    assert missing_known_fields(nodes, written("unknown")) == []
