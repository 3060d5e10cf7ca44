"""Capture table metadata files written by real engines, as independent inputs for the metadata vectors.

    .venv/bin/python -m conformance.capture_metadata [--out vectors/sources/metadata]
                                                     [--engine spark|pyiceberg|duckdb ...]
    .venv/bin/python -m conformance.capture_metadata --check-only      # only compare the readers

Each engine writes small tables into a fresh temporary warehouse; every `*.metadata.json` it
leaves in a table's `metadata/` directory (`v1.metadata.json`, ..., or the uuid-named files) is
copied into `<out>/<engine>/<scenario>/`. The copy is byte for byte what the engine wrote, except
for one rewrite: the absolute path of the temporary warehouse directory is replaced by
`/warehouse`, keeping whatever comes before it (`file:/tmp/x/warehouse/db/t` becomes
`file:/warehouse/db/t`, `file:///tmp/x/warehouse` becomes `file:///warehouse`, a bare path becomes
`/warehouse/...`). Uuids, snapshot ids and timestamps are whatever the engine wrote, so a new
capture differs from the committed one in those values.

Engines and scenarios (see `SCENARIOS`):

* spark: Spark 3.5 with Iceberg Java 1.10 (`iceberg_java.spark.local_spark_session`), Hadoop
  catalog on local disk;
* pyiceberg: PyIceberg's `SqlCatalog` on a sqlite file in the temporary directory (it needs
  SQLAlchemy: `pip install 'pyiceberg[sql-sqlite]'`);
* duckdb: DuckDB's iceberg extension, loaded offline as in `engines/duckdb/adapter.py`. It has no
  catalog on local disk (ATTACH ... TYPE iceberg wants a REST endpoint), but `COPY ... TO
  '<dir>' (FORMAT iceberg)` writes a table directory.

`<out>/<engine>/capture.json` records the engine version, each scenario's steps and files, or the
error that stopped a scenario; `<out>/README.md` is regenerated from those records.

After capturing (or with `--check-only`), every captured file is read by the reference
(`spec_impl.metadata.table_metadata`), by Iceberg Java (`read-table-metadata` through the value
engine) and by PyIceberg (`engines/pyiceberg/adapter.py`), and every difference between the normalized
readings is printed. `--no-check` skips that.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path("vectors/sources/metadata")
ENGINES = ("spark", "pyiceberg", "duckdb")
WAREHOUSE_PLACEHOLDER = "/warehouse"

_started = time.monotonic()


def progress(message: str) -> None:
    print(f"[{time.monotonic() - _started:6.1f}s] {message}", flush=True)


# --- copying -----------------------------------------------------------------------------------


def copy_metadata_files(table_dir: Path, dest: Path, warehouse: Path) -> list[str]:
    """Copy every *.metadata.json of `table_dir/metadata` to `dest`, with the warehouse path replaced."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    prefix = str(warehouse).encode()
    names = []
    for path in sorted((table_dir / "metadata").glob("*.metadata.json"), key=lambda p: _sort_key(p.name)):
        data = path.read_bytes().replace(prefix, WAREHOUSE_PLACEHOLDER.encode())
        json.loads(data)  # still a JSON document
        (dest / path.name).write_bytes(data)
        names.append(path.name)
    if not names:
        raise RuntimeError(f"no *.metadata.json under {table_dir / 'metadata'}")
    return names


def _sort_key(name: str) -> tuple:
    """v1 < v2 < ... < v10; uuid-named files by name."""
    stem = name.split(".")[0]
    if stem.startswith("v") and stem[1:].isdigit():
        return (0, int(stem[1:]), name)
    head = stem.split("-")[0]
    return (1, int(head), name) if head.isdigit() else (2, 0, name)


# --- Spark (Iceberg Java) ----------------------------------------------------------------------

SPARK_SCENARIOS: dict[str, list[str]] = {
    "v1-append": [
        (
            "CREATE TABLE local.db.v1_append (id bigint, data string) USING iceberg PARTITIONED BY (bucket(4, id)) "
            "TBLPROPERTIES ('format-version' = '1')"
        ),
        "INSERT INTO local.db.v1_append VALUES (1, 'a'), (2, 'b'), (3, 'c')",
        "INSERT INTO local.db.v1_append VALUES (4, 'd'), (5, 'e')",
    ],
    "v1-upgraded-to-v2": [
        "CREATE TABLE local.db.v1_upgraded (id bigint, data string) USING iceberg TBLPROPERTIES "
        "('format-version' = '1')",
        "INSERT INTO local.db.v1_upgraded VALUES (1, 'a'), (2, 'b')",
        "ALTER TABLE local.db.v1_upgraded SET TBLPROPERTIES ('format-version' = '2')",
        "INSERT INTO local.db.v1_upgraded VALUES (3, 'c')",
    ],
    "v2-row-level": [
        (
            "CREATE TABLE local.db.v2_row_level (id bigint, ts timestamp, data string) USING iceberg PARTITIONED "
            "BY (bucket(4, id)) TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read', "
            "'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read')"
        ),
        (
            "INSERT INTO local.db.v2_row_level VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'a'), "
            "(2, TIMESTAMP '2024-01-01 11:00:00', 'b'), (3, TIMESTAMP '2024-01-02 12:00:00', 'c'), "
            "(4, TIMESTAMP '2024-01-03 13:00:00', 'd')"
        ),
        "DELETE FROM local.db.v2_row_level WHERE id = 2",
        "UPDATE local.db.v2_row_level SET data = 'c2' WHERE id = 3",
        "ALTER TABLE local.db.v2_row_level CREATE BRANCH audit RETAIN 7 DAYS WITH SNAPSHOT RETENTION 2 SNAPSHOTS",
        "ALTER TABLE local.db.v2_row_level CREATE TAG release_1 RETAIN 30 DAYS",
        "INSERT INTO local.db.v2_row_level.branch_audit VALUES (5, TIMESTAMP '2024-01-04 14:00:00', 'e')",
        "ALTER TABLE local.db.v2_row_level ADD PARTITION FIELD days(ts)",
        "ALTER TABLE local.db.v2_row_level WRITE ORDERED BY id ASC NULLS FIRST, data DESC NULLS LAST",
        "INSERT INTO local.db.v2_row_level VALUES (6, TIMESTAMP '2024-01-05 15:00:00', 'f')",
    ],
    "v3-row-lineage": [
        (
            "CREATE TABLE local.db.v3_row_lineage (id bigint, ts timestamp, data string) USING iceberg "
            "PARTITIONED BY (bucket(4, id)) TBLPROPERTIES ('format-version' = '3', 'write.delete.mode' = "
            "'merge-on-read')"
        ),
        (
            "INSERT INTO local.db.v3_row_lineage VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'a'), "
            "(2, TIMESTAMP '2024-01-01 11:00:00', 'b'), (3, TIMESTAMP '2024-01-02 12:00:00', 'c')"
        ),
        "DELETE FROM local.db.v3_row_lineage WHERE id = 2",
    ],
}
SPARK_TABLES = {
    "v1-append": "v1_append",
    "v1-upgraded-to-v2": "v1_upgraded",
    "v2-row-level": "v2_row_level",
    "v3-row-lineage": "v3_row_lineage",
}
SPARK_NOTES = {
    "v1-upgraded-to-v2": "From v3.metadata.json on (format-version 2), the snapshot written while the table was "
    "v1 has no sequence-number: Iceberg Java writes that field only when it is above 0.",
    "v3-row-lineage": "Spark 3.5 has no timestamp_ns type, so the table holds no nanosecond column; "
    "the delete is merge-on-read, which in v3 writes a deletion vector.",
}


def capture_spark(out: Path, tmp: Path) -> dict:
    from conformance.engines.iceberg_java import spark as spark_session

    warehouse = tmp / "warehouse"
    progress("spark: starting a local Spark session with Iceberg")
    spark = spark_session.local_spark_session(warehouse, app_name="iceberg-capture-metadata")
    progress(f"spark: session up in {spark_session.startup_seconds:.1f}s")
    versions = {
        "spark": spark.version,
        "iceberg": spark._jvm.org.apache.iceberg.IcebergBuild.version(),
        "catalog": "Hadoop catalog (spark.sql.catalog.local.type=hadoop) on local disk",
    }
    scenarios = {}
    try:
        for name, statements in SPARK_SCENARIOS.items():
            progress(f"spark: {name}")
            record: dict[str, Any] = {"steps": statements}
            if name in SPARK_NOTES:
                record["note"] = SPARK_NOTES[name]
            try:
                for sql in statements:
                    spark.sql(sql)
                table_dir = warehouse / "db" / SPARK_TABLES[name]
                record["files"] = copy_metadata_files(table_dir, out / "spark" / name, warehouse)
            except Exception as e:  # noqa: BLE001 - the error is the record (e.g. v3 unsupported)
                record["error"] = _error_text(e)
                progress(f"spark: {name} failed: {record['error'][:300]}")
            scenarios[name] = record
    finally:
        spark_session.stop_local_spark_session()
    return {"versions": versions, "scenarios": scenarios}


# --- PyIceberg ---------------------------------------------------------------------------------

PYICEBERG_STEPS = [
    "SqlCatalog('capture', uri='sqlite:///<tmp>/catalog.db', warehouse='file://<warehouse>')",
    "create_namespace('db')",
    (
        "create_table('db.<table>', schema(1: id long required, 2: ts timestamp, 3: data string), "
        "partition_spec(1000: id_bucket = bucket[4](1), 1001: ts_day = day(2)), sort_order(id asc nulls-first), "
        "properties={'format-version': <v>})"
    ),
    "table.append(arrow batch of 3 rows)",
    "table.append(arrow batch of 2 rows)",
    "table.update_schema().add_column('score', double) commit",
]


def capture_pyiceberg(out: Path, tmp: Path) -> dict:
    import pyarrow as pa

    try:
        from pyiceberg.catalog.sql import SqlCatalog
    except ImportError as e:
        raise RuntimeError(
            f"PyIceberg's SqlCatalog needs SQLAlchemy ({e}): pip install 'pyiceberg[sql-sqlite]'"
        ) from None
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.table.sorting import NullOrder, SortDirection, SortField, SortOrder
    from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform
    from pyiceberg.types import DoubleType, LongType, NestedField, StringType, TimestampType

    warehouse = tmp / "warehouse"
    warehouse.mkdir(parents=True, exist_ok=True)
    catalog = SqlCatalog("capture", uri=f"sqlite:///{tmp / 'catalog.db'}", warehouse=warehouse.as_uri())
    catalog.create_namespace("db")
    versions = {
        "pyiceberg": importlib_metadata.version("pyiceberg"),
        "pyarrow": pa.__version__,
        "catalog": "SqlCatalog on a sqlite file, local warehouse",
    }
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "ts", TimestampType(), required=False),
        NestedField(3, "data", StringType(), required=False),
    )
    spec = PartitionSpec(
        PartitionField(source_id=1, field_id=1000, transform=BucketTransform(4), name="id_bucket"),
        PartitionField(source_id=2, field_id=1001, transform=DayTransform(), name="ts_day"),
    )
    order = SortOrder(
        SortField(
            source_id=1, transform=IdentityTransform(), direction=SortDirection.ASC, null_order=NullOrder.NULLS_FIRST
        )
    )
    arrow_schema = pa.schema(
        [pa.field("id", pa.int64(), nullable=False), pa.field("ts", pa.timestamp("us")), pa.field("data", pa.string())]
    )

    def batch(ids: list[int], days: list[int], data: list[str]) -> pa.Table:
        ts = [d * 86_400_000_000 + 36_000_000_000 for d in days]  # 10:00 on the day
        return pa.table({"id": ids, "ts": pa.array(ts, pa.timestamp("us")), "data": data}, schema=arrow_schema)

    scenarios = {}
    for name, fv in (("v1-append", "1"), ("v2-append", "2")):
        progress(f"pyiceberg: {name}")
        record: dict[str, Any] = {
            "steps": [s.replace("<v>", repr(fv)).replace("<table>", name.replace("-", "_")) for s in PYICEBERG_STEPS]
        }
        try:
            table = catalog.create_table(
                f"db.{name.replace('-', '_')}",
                schema=schema,
                partition_spec=spec,
                sort_order=order,
                properties={"format-version": fv},
            )
            table.append(batch([1, 2, 3], [19723, 19723, 19724], ["a", "b", "c"]))
            table.append(batch([4, 5], [19725, 19726], ["d", "e"]))
            with table.update_schema() as update:
                update.add_column("score", DoubleType())
            table_dir = Path(table.location().removeprefix("file://"))
            record["files"] = copy_metadata_files(table_dir, out / "pyiceberg" / name, warehouse)
        except Exception as e:  # noqa: BLE001
            record["error"] = _error_text(e)
            progress(f"pyiceberg: {name} failed: {record['error'][:300]}")
        scenarios[name] = record
    return {"versions": versions, "scenarios": scenarios}


# --- DuckDB ------------------------------------------------------------------------------------

DUCKDB_COPY = (
    "COPY (SELECT * FROM (VALUES (1::BIGINT, TIMESTAMP '2024-01-01 10:00:00', 'a', 1.50::DECIMAL(9, 2), DATE "
    "'2024-01-01'), (2::BIGINT, TIMESTAMP '2024-01-02 11:00:00', 'b', 2.25::DECIMAL(9, 2), DATE '2024-01-02')) "
    "AS v(id, ts, data, amount, day)) TO '<warehouse>/copy_to' (FORMAT iceberg)"
)
DUCKDB_NOTE = (
    "DuckDB's iceberg extension has no local-disk catalog (ATTACH ... (TYPE iceberg) asks for a REST "
    "endpoint and credentials), so its only way to write a table on local disk is COPY ... TO '<dir>' "
    "(FORMAT iceberg). That writes one format-version 2 table with one append snapshot. Options such as "
    "PARTITION_BY, FORMAT_VERSION or an unknown option are accepted and ignored, and a second COPY to the "
    "same directory writes a new table (a new table-uuid, the old data no longer current) rather than an append. "
    "The file it writes has no last-sequence-number (required in v2), a snapshot with sequence-number 0, an empty "
    "sort-orders list beside default-sort-order-id 0, and last-partition-id 0 for an unpartitioned table."
)


def capture_duckdb(out: Path, tmp: Path) -> dict:
    from conformance.engines.duckdb.adapter import DuckDBEngine

    warehouse = tmp / "warehouse"
    warehouse.mkdir(parents=True, exist_ok=True)
    engine = DuckDBEngine()
    engine.start()
    try:
        versions = {"duckdb": engine.version, "catalog": "none (COPY ... TO a directory)"}
        progress("duckdb: copy-to")
        sql = DUCKDB_COPY.replace("<warehouse>", str(warehouse))
        record: dict[str, Any] = {"steps": [DUCKDB_COPY]}
        try:
            engine._con.execute(sql).fetchall()
            record["files"] = copy_metadata_files(warehouse / "copy_to", out / "duckdb" / "copy-to", warehouse)
        except Exception as e:  # noqa: BLE001
            record["error"] = _error_text(e)
            progress(f"duckdb: copy-to failed: {record['error'][:300]}")
    finally:
        engine.stop()
    return {"versions": versions, "note": DUCKDB_NOTE, "scenarios": {"copy-to": record}}


CAPTURERS: dict[str, Callable[[Path, Path], dict]] = {
    "spark": capture_spark,
    "pyiceberg": capture_pyiceberg,
    "duckdb": capture_duckdb,
}


def _error_text(e: BaseException) -> str:
    lines = [line for line in str(e).strip().splitlines() if line.strip()]
    head = lines[0] if lines else ""
    return f"{type(e).__name__}: {head}"


# --- README ------------------------------------------------------------------------------------

README_HEAD = """\
# Table metadata files written by real engines

Generated by `.venv/bin/python -m conformance.capture_metadata` (do not edit by hand: rerun it).
Each `<engine>/<scenario>/` directory holds every `*.metadata.json` file the engine left in the
table's `metadata/` directory after the scenario's steps, in the order the engine wrote them
(`vN.metadata.json` for the Hadoop catalog, `NNNNN-<uuid>.metadata.json` for PyIceberg, a bare
`<uuid>.metadata.json` for DuckDB). `<engine>/capture.json` is the machine-readable record.

These are inputs for the metadata vectors, independent of the reference implementation: nothing
in them was produced or checked by `spec_impl` when they were written.

## What was rewritten

One thing only. The tables were written into a temporary directory, whose absolute path appears in
`location`, `manifest-list`, `metadata-log` and the like. That path (the temporary warehouse
directory) is replaced, as bytes, by `/warehouse`; whatever the engine wrote before it is kept, so
`file:/tmp/iceberg-capture-x/warehouse/db/t` reads `file:/warehouse/db/t` and
`file:///tmp/iceberg-capture-x/warehouse/db/t` reads `file:///warehouse/db/t`. Nothing else is
changed: the JSON layout, key order, uuids, snapshot ids, timestamps and summaries (Spark's
`app-id` included) are whatever the engine wrote, so a new capture differs from this one in those
values. The files point to manifest lists and data files that were not kept.
"""


def write_readme(out: Path) -> None:
    parts = [README_HEAD]
    for engine in ENGINES:
        record_path = out / engine / "capture.json"
        if not record_path.is_file():
            parts.append(f"\n## {engine}\n\nNot captured.\n")
            continue
        record = json.loads(record_path.read_text())
        versions = ", ".join(f"{k} {v}" for k, v in record["versions"].items())
        parts.append(f"\n## {engine}\n\nWritten by: {versions}.\n")
        if record.get("note"):
            parts.append(f"\n{record['note']}\n")
        for name, sc in record["scenarios"].items():
            parts.append(f"\n### `{engine}/{name}`\n\nSteps:\n\n")
            parts.extend(f"1. `{step}`\n" for step in sc["steps"])
            if sc.get("note"):
                parts.append(f"\n{sc['note']}\n")
            if "error" in sc:
                parts.append(f"\n**Not captured**: the engine failed with\n\n    {sc['error']}\n")
            else:
                parts.append(f"\nFiles ({len(sc['files'])}): " + ", ".join(f"`{f}`" for f in sc["files"]) + "\n")
    (out / "README.md").write_text("".join(parts))


# --- checking the captured files -----------------------------------------------------------------


def captured_files(out: Path) -> list[Path]:
    files = []
    for engine in ENGINES:
        for scenario in sorted(p for p in (out / engine).glob("*") if p.is_dir()):
            files.extend(sorted(scenario.glob("*.metadata.json"), key=lambda p: _sort_key(p.name)))
    return files


def diff(a: Any, b: Any, path: str = "") -> list[str]:
    """Every place where two JSON values differ, as `path: a != b` lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a:
                out.append(f"{path}/{k}: absent != {json.dumps(b[k])}")
            elif k not in b:
                out.append(f"{path}/{k}: {json.dumps(a[k])} != absent")
            else:
                out.extend(diff(a[k], b[k], f"{path}/{k}"))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [line for i, (x, y) in enumerate(zip(a, b)) for line in diff(x, y, f"{path}/{i}")]
    if a == b and type(a) is type(b):
        return []
    return [f"{path or '/'}: {json.dumps(a)} != {json.dumps(b)}"]


def check(out: Path) -> int:
    """Read every captured file with the reference, Iceberg Java and PyIceberg; print rejections and differences."""
    from conformance.engines.base import EngineUnavailable
    from conformance.engines.iceberg_java.engine import IcebergJavaEngine
    from conformance.engines.pyiceberg.adapter import PyIcebergEngine
    from spec_impl.errors import SpecError
    from spec_impl.metadata.table_metadata import normalized, parse_table_metadata

    files = captured_files(out)
    if not files:
        progress(f"check: no captured files under {out}")
        return 1
    progress(f"check: {len(files)} files")
    docs = {str(p.relative_to(out)): json.loads(p.read_bytes()) for p in files}
    readings: dict[str, dict[str, Any]] = {"reference": {}}
    for name, doc in docs.items():
        try:
            readings["reference"][name] = ("ok", normalized(parse_table_metadata(doc)))
        except SpecError as e:
            readings["reference"][name] = ("rejected", f"{type(e).__name__}: {e}")
    cases = [{"id": name, "input": {"document": doc}} for name, doc in docs.items()]
    for label, engine in (("iceberg-java", IcebergJavaEngine()), ("pyiceberg", PyIcebergEngine())):
        try:
            engine.start()
        except EngineUnavailable as e:
            progress(f"check: {label} unavailable: {e}")
            continue
        try:
            answers = engine.run_batch("read-table-metadata", cases)
            progress(f"check: {label} {engine.version} answered")
        finally:
            engine.stop()
        readings[label] = {c["id"]: ("ok", a.output) if a.ok else ("rejected", a.error) for c, a in zip(cases, answers)}

    problems = 0
    for name in docs:
        ref_status, ref_value = readings["reference"][name]
        lines = []
        if ref_status != "ok":
            lines.append(f"reference REJECTS: {_short(ref_value)}")
        for label in readings:
            if label == "reference":
                continue
            status, value = readings[label][name]
            if status != "ok":
                lines.append(f"{label} REJECTS: {_short(value)}")
            elif ref_status == "ok":
                lines.extend(f"reference vs {label}: {d}" for d in diff(ref_value, value))
        # Without a reference reading, the engines are compared with each other.
        engine_labels = [label for label in readings if label != "reference"]
        if ref_status != "ok" and len(engine_labels) == 2:
            (a_status, a_value), (b_status, b_value) = (readings[label][name] for label in engine_labels)
            if a_status == b_status == "ok":
                lines.extend(f"{engine_labels[0]} vs {engine_labels[1]}: {d}" for d in diff(a_value, b_value))
        if not lines:
            print(f"  ok    {name}")
        else:
            problems += 1
            print(f"  DIFF  {name}")
            for line in lines:
                print(f"          {line}")
    progress(f"check: {problems} of {len(docs)} files with a rejection or a difference")
    return 1 if problems else 0


def _short(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."


# --- main --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.capture_metadata",
        description="Write small Iceberg tables with real engines into a temporary warehouse and copy their "
        "*.metadata.json files into <out>/<engine>/<scenario>/ (the temporary warehouse path replaced by "
        "/warehouse); then read every captured file with the reference, Iceberg Java and PyIceberg and "
        "print the differences.",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default: {DEFAULT_OUT})")
    parser.add_argument(
        "--engine", action="append", choices=ENGINES, help="engine to capture with; repeat for several (default: all)"
    )
    parser.add_argument("--keep-temp", action="store_true", help="keep the temporary warehouse and print its path")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--no-check", action="store_true", help="capture only, do not compare the readers")
    mode.add_argument(
        "--check-only", action="store_true", help="do not capture; compare the readers on the files in --out"
    )
    args = parser.parse_args(argv)
    out: Path = args.out

    if not args.check_only:
        engines = list(dict.fromkeys(args.engine or ENGINES))
        out.mkdir(parents=True, exist_ok=True)
        for engine in engines:
            tmp = Path(tempfile.mkdtemp(prefix=f"iceberg-capture-{engine}-")).resolve()
            progress(f"{engine}: temporary directory {tmp}")
            started = time.monotonic()
            try:
                record = CAPTURERS[engine](out, tmp)
            except Exception as e:  # noqa: BLE001 - the engine could not run at all
                traceback.print_exc()
                progress(f"{engine}: could not run: {_error_text(e)}")
                continue
            finally:
                if args.keep_temp:
                    progress(f"{engine}: kept {tmp}")
                else:
                    shutil.rmtree(tmp, ignore_errors=True)
            # Drop scenario directories of an earlier capture that this one no longer has.
            for stale in (out / engine).glob("*"):
                if stale.is_dir() and (
                    stale.name not in record["scenarios"] or "error" in record["scenarios"][stale.name]
                ):
                    shutil.rmtree(stale)
            (out / engine / "capture.json").write_text(json.dumps(record, indent=2) + "\n")
            count = sum(len(s.get("files", [])) for s in record["scenarios"].values())
            progress(
                f"{engine}: {count} files in {len(record['scenarios'])} scenarios, {time.monotonic() - started:.1f}s"
            )
        write_readme(out)
        progress(f"wrote {out / 'README.md'}")
    if args.no_check:
        return 0
    return check(out)


if __name__ == "__main__":
    sys.exit(main())
