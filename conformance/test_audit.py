"""`iceberg-audit` on tables written by Iceberg Java through Spark, clean and corrupted on purpose.

* every Spark-written golden table (`vectors/tables/spark-*`) and the tables written here by the
  session (many column types, NaN, ±0.0, nulls, long and multi-byte strings, merge-on-read
  position deletes, deletion vectors, a truncate of the minimum int) pass with no violation beyond
  the recorded findings (`vectors/known/audit.json`);
* each corruption, made with the project's own Avro and Parquet writers on a copy of a golden table,
  is found under its rule id.

    pytest conformance/test_audit.py          # or: pytest conformance/ -m spark
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.audit import report
from conformance.audit.cli import audit, main
from conformance.audit.columns import column_findings
from spec_impl.manifests.tree import LocalFiles, read_snapshot
from spec_impl.manifests.writer import edit_avro, fix_manifest_lengths
from spec_impl.metrics.column_metrics import ColumnMetrics, check_column_metrics, column_metrics
from spec_impl.serde.binary import from_binary, to_binary
from spec_impl.types import DOUBLE, LONG, STRING
from spec_impl.vectors.tables import captured_ids, materialize

SPARK_TABLES = [c for c in captured_ids() if c.startswith("spark-")]
CORRUPTED = "spark-v2-position-both-specs-equality-one"  # two specs, position and equality deletes
MOR = (
    "'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read'"
)
WRITTEN = {
    "types_v2": [
        "CREATE TABLE {t} (id bigint, s string, d double, f float, dec decimal(10, 2), dt date, ts "
        "timestamp, b binary, ok boolean, "
        "i int) USING iceberg PARTITIONED BY (days(ts), truncate(2, s), bucket(4, id)) TBLPROPERTIES "
        f"('format-version' = '2', {MOR})",
        "INSERT INTO {t} VALUES (1, 'abcdefghijklmnopqrstuvwxyz', double('NaN'), float(-0.0), -12.50, DATE "
        "'1969-12-31', "
        "TIMESTAMP '1969-12-31 23:59:59.999999', X'00FF', true, -2147483647), "
        "(2, "
        "'ab\u00e9\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600"
        "\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600\U0001f600', "
        ""
        "-0.0, float('NaN'), 3.10, DATE '1970-01-01', TIMESTAMP '1969-12-31 00:00:00', "
        "X'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', NULL, NULL), "
        "(3, NULL, 0.0, NULL, NULL, NULL, TIMESTAMP '1969-12-31 12:00:00', NULL, false, 7)",
        "INSERT INTO {t} SELECT id, concat('ab', cast(id AS string)), id * 1.5, -id, id, DATE '2024-02-29', "
        "TIMESTAMP '2024-02-29 10:00:00', X'01', id % 2 = 0, id FROM range(10, 60)",
        "DELETE FROM {t} WHERE id IN (10, 11, 12, 20, 30)",
        "UPDATE {t} SET d = -1.0 WHERE id = 40",
    ],
    "v3_deletion_vectors": [
        "CREATE TABLE {t} (id bigint, s string) USING iceberg PARTITIONED BY (identity(s)) TBLPROPERTIES "
        f"('format-version' = '3', {MOR})",
        "INSERT INTO {t} SELECT id, CASE WHEN id % 3 = 0 THEN NULL ELSE cast(id % 3 AS string) END FROM range(0, 40)",
        "DELETE FROM {t} WHERE id % 5 = 0",
        "DELETE FROM {t} WHERE id = 7",
    ],
    "truncate_min_int": [
        "CREATE TABLE {t} (i int) USING iceberg PARTITIONED BY (truncate(10, i)) TBLPROPERTIES "
        "('format-version' = '2')",
        "INSERT INTO {t} VALUES (-2147483648), (-2147483641)",
    ],
}


# --- the Arrow form of the metric counts agrees with the reference ------------------------------


@pytest.mark.parametrize(
    "t, values", [(STRING, ["b", None, "a"]), (DOUBLE, [float("nan"), -0.0, None, 0.0, 2.5]), (LONG, [None, None])]
)
def test_arrow_counts_agree_with_column_metrics(t, values):
    exact = column_metrics(t, values)
    arr = pa.array(values, {"string": pa.string(), "double": pa.float64(), "long": pa.int64()}[t.name])
    assert column_findings(t, arr, exact) == check_column_metrics(t, values, exact) == []
    wrong = ColumnMetrics(
        exact.value_count + 1,
        exact.null_value_count + 1,
        (exact.nan_value_count or 0) + 1,
        exact.upper_bound,
        exact.lower_bound,
    )
    assert {f.rule for f in column_findings(t, arr, wrong)} == {f.rule for f in check_column_metrics(t, values, wrong)}


# --- Spark -------------------------------------------------------------------------------------


def _latest(table_dir: Path) -> str:
    versions = {
        int(m[1]): p
        for p in (table_dir / "metadata").iterdir()
        if (m := re.fullmatch(r"v(\d+)\.metadata\.json", p.name))
    }
    return str(versions[max(versions)])


def _quiet(_: str) -> None:
    pass


pytestmark = pytest.mark.spark


@pytest.mark.parametrize("case_id", SPARK_TABLES)
def test_spark_golden_tables_have_no_violation(spark, tmp_path, case_id):
    location, _ = materialize(case_id, tmp_path)
    result = audit(location, spark=spark, report_progress=_quiet)
    assert result.files > 0
    assert (result.violations, result.errors) == ([], [])


@pytest.fixture(scope="module")
def written(spark):
    from conformance.engines.iceberg_java.spark import _warehouse

    for name, statements in WRITTEN.items():
        for sql in statements:
            spark.sql(sql.format(t=f"local.db.{name}"))
    return {name: _latest(Path(_warehouse) / "db" / name) for name in WRITTEN}


@pytest.mark.parametrize("name", sorted(WRITTEN))
def test_tables_spark_writes_have_no_violation_beyond_known_findings(spark, written, name):
    from spec_impl.metadata.table_metadata import read_metadata_file

    md = read_metadata_file(Path(written[name]).read_bytes())
    for snapshot in md.snapshots:
        result = audit(written[name], snapshot.snapshot_id, spark=spark, report_progress=_quiet)
        assert result.files > 0 and (result.violations, result.errors) == ([], []), report.text_lines(
            result, written[name]
        )
    if name == "truncate_min_int":
        assert {entry for _, entry in result.known} == {"truncate-overflow-wraps"}


# --- corruptions -------------------------------------------------------------------------------


class Table:
    """A materialized copy of a golden table whose files can be edited in place."""

    def __init__(self, directory: Path, case_id: str = CORRUPTED):
        self.location, _ = materialize(case_id, directory)
        self.tree = read_snapshot(LocalFiles(), self.location)
        self.manifest_list = self.tree.snapshot.manifest_list
        self.files: dict[str, bytes] = {}

    def load(self, *paths: str) -> None:
        for p in paths:
            self.files[p] = LocalFiles().read(p)

    def save(self) -> None:
        for path, data in self.files.items():
            Path(path.removeprefix("file:")).write_bytes(data)

    def edit_entry(self, content: int, change, where=lambda f: True) -> None:
        """Change the first live entry of a file of `content` (where `where` holds); fix manifest lengths."""
        m = next(
            m
            for m in self.tree.manifests
            if any(
                e["status"] != 2 and e["data_file"].get("content", 0) == content and where(e["data_file"])
                for e in m.entries
            )
        )
        target = next(
            e["data_file"]["file_path"]
            for e in m.entries
            if e["status"] != 2 and e["data_file"].get("content", 0) == content and where(e["data_file"])
        )
        self.load(m.path, self.manifest_list)

        def edit(records, _meta):
            change(next(r["data_file"] for r in records if r["data_file"]["file_path"] == target))

        edit_avro(self.files, m.path, edit)
        fix_manifest_lengths(self.files, [self.manifest_list], m.path)
        self.save()

    def audit(self, spark) -> set[str]:
        result = audit(self.location, spark=spark, report_progress=_quiet)
        assert result.errors == []
        return {v.rule for v in result.violations}


def _map_update(pairs: list[dict], key: int, value) -> None:
    next(p for p in pairs if p["key"] == key)["value"] = value


def test_finds_an_edited_partition_value(spark, tmp_path):
    t = Table(tmp_path)
    t.edit_entry(
        0,
        lambda f: f["partition"].update({k: "zz" for k in f["partition"]}),
        lambda f: None not in f["partition"].values(),
    )
    rules = t.audit(spark)
    assert "data-file.partition-tuple" in rules and rules <= {
        "data-file.partition-tuple",
        "partition-summary.upper-bound",
    }


def test_finds_a_lower_bound_above_a_row_value(spark, tmp_path):
    t = Table(tmp_path)
    t.edit_entry(
        0,
        lambda f: _map_update(
            f["lower_bounds"],
            1,
            to_binary(LONG, from_binary(LONG, dict((p["key"], p["value"]) for p in f["upper_bounds"])[1]) + 1),
        ),
    )
    assert t.audit(spark) == {"metrics.lower-bound"}


def test_finds_a_wrong_null_value_count(spark, tmp_path):
    t = Table(tmp_path)
    t.edit_entry(
        0,
        lambda f: _map_update(
            f["null_value_counts"], 2, next(p["value"] for p in f["null_value_counts"] if p["key"] == 2) + 1
        ),
    )
    assert t.audit(spark) == {"metrics.null-value-count"}


def test_finds_a_wrong_record_count(spark, tmp_path):
    t = Table(tmp_path)
    t.edit_entry(0, lambda f: f.update(record_count=f["record_count"] + 1))
    assert t.audit(spark) == {"file.record-count"}


def test_finds_an_unsorted_position_delete_file(spark, tmp_path):
    t = Table(tmp_path)
    two_rows = next(
        e["data_file"]
        for m in t.tree.manifests
        for e in m.entries
        if e["status"] != 2 and e["data_file"].get("content") == 1 and e["data_file"]["record_count"] >= 2
    )
    path = two_rows["file_path"]
    rows = pq.read_table(path.removeprefix("file:"))
    reversed_rows = rows.take(pa.array(range(rows.num_rows - 1, -1, -1)))
    assert reversed_rows.to_pylist() != rows.to_pylist()
    pq.write_table(reversed_rows, path.removeprefix("file:"))
    size = Path(path.removeprefix("file:")).stat().st_size
    t.edit_entry(1, lambda f: f.update(file_size_in_bytes=size), lambda f: f["file_path"] == path)
    assert t.audit(spark) == {"position-deletes.sorted"}


def test_finds_a_summary_that_misses_a_partition(spark, tmp_path):
    t = Table(tmp_path)
    t.load(t.manifest_list)
    manifest = next(
        m for m in t.tree.manifests if m.row["partitions"] and m.row["partitions"][0]["upper_bound"] is not None
    )

    def edit(rows, _meta):
        summary = next(r for r in rows if r["manifest_path"] == manifest.path)["partitions"][0]
        summary["lower_bound"] = summary["upper_bound"] + b"\x00"  # above every partition of the manifest

    edit_avro(t.files, t.manifest_list, edit)
    t.save()
    assert t.audit(spark) == {"partition-summary.lower-bound"}


def test_finds_a_deletion_vector_whose_record_count_is_not_its_cardinality(spark, tmp_path):
    t = Table(tmp_path, "spark-v3-position-both-specs-equality-one-dv-both")
    t.edit_entry(
        1, lambda f: f.update(record_count=f["record_count"] + 1), lambda f: f["file_format"].lower() == "puffin"
    )
    assert t.audit(spark) == {"dv.cardinality"}


# --- the command line --------------------------------------------------------------------------


def test_cli_exit_codes_and_reports(spark, tmp_path, capsys):
    t = Table(tmp_path / "table")
    t.edit_entry(0, lambda f: f.update(record_count=f["record_count"] + 1))
    json_path, html_path = tmp_path / "audit.json", tmp_path / "audit.html"
    assert main([t.location, "--json", str(json_path), "--html", str(html_path)]) == 1
    out = capsys.readouterr().out
    assert "file.record-count" in out
    assert '"file.record-count"' in json_path.read_text() and "file.record-count" in html_path.read_text()
    assert main([str(tmp_path / "missing.metadata.json")]) == 2
    assert "missing.metadata.json" in capsys.readouterr().err
    assert main([t.location, "--snapshot", "1"]) == 2
