"""Throughput of `iceberg-audit`, against plain pyarrow reading of the same files, on 1 and 2 cores.

A table of realistic size is written once by Iceberg Java through Spark (default: 3,000,000 rows,
6 columns of long, string, double, timestamp, decimal and a low-cardinality string, partitioned by
bucket(16, id) and days(ts) over 20 days, so about 320 data files, plus one merge-on-read DELETE
that adds position delete files) under $TMPDIR/iceberg-audit-bench/ (kept between runs; `--fresh`
rewrites it). Then, in the same run:

* ``pyarrow``   -- plain `pyarrow.parquet.read_table` of every live data and delete file, one
  after another in this process (pyarrow's own threads on): the cost of reading the data;
* ``checks, no Spark`` -- the audit's own planning and per-file checks (`conformance.audit.plan`,
  `file_checks`) run in this process, one file after another: the cost of the checks themselves;
* ``audit local[1]`` and ``audit local[2]`` -- `iceberg-audit --master local[N]`, each in a
  process of its own (one Spark session per process), timed by the audit itself (the job: manifests
  read, every file read and checked; the session start is not counted and is reported apart);
* ``audit local[N] warm`` -- the same job run a second time in the same session (Python workers
  started, the reference imported): what each audit costs a long-lived session or a cluster.

Reported: rows/s and files/s of each, and the audit's time as a multiple of the plain scan's.
Runs in about 3-5 minutes on 2 cores (the first run writes the table: a minute or two more).

Run:  python benchmarks/bench_audit.py [--rows 3000000] [--fresh]
Figures go to benchmarks/results/bench_audit.json (`--out` to write elsewhere).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TABLE = "local.db.audit_bench"

WRITE = """
import sys
from pathlib import Path
from conformance.engines.iceberg_java.spark import local_spark_session
rows = int(sys.argv[2])
spark = local_spark_session(Path(sys.argv[1]), app_name="bench-audit-writer", master="local[2]")
spark.sql("CREATE TABLE {t} (id bigint, s string, d double, ts timestamp, amount decimal(12, 2), cat string) "
          "USING iceberg PARTITIONED BY (bucket(16, id), days(ts)) "
          "TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')")
spark.sql(f"INSERT INTO {t} SELECT id, concat('row-', cast(id AS string), '-', repeat('x', cast(id % 20 AS int))), "
          f"CASE WHEN id % 1000 = 0 THEN double('NaN') ELSE id * 0.25 END, "
          f"timestamp_seconds(1700000000 + (id % 20) * 86400 + id % 86400), cast(id % 100000 AS decimal(12, 2)) / 100, "
          f"CASE WHEN id % 7 = 0 THEN NULL ELSE concat('c', cast(id % 5 AS string)) END FROM range({rows})")
spark.sql("DELETE FROM {t} WHERE id % 997 = 0 AND id < 200000")
""".replace("{t}", TABLE)


def latest_metadata(warehouse: Path) -> Path:
    meta = warehouse / "db" / "audit_bench" / "metadata"
    return max(meta.glob("v*.metadata.json"), key=lambda p: int(p.name[1:].split(".")[0]))


def write_table(warehouse: Path, rows: int) -> float:
    started = time.monotonic()
    env = {
        **os.environ,
        "PYSPARK_SUBMIT_ARGS": "--driver-memory 4g pyspark-shell",
    }  # the default 1g runs out while writing
    subprocess.run([sys.executable, "-c", WRITE, str(warehouse), str(rows)], check=True, cwd=ROOT, env=env)
    return time.monotonic() - started


def plain_scan(metadata: Path, by_file: bool = False) -> dict:
    """Every live file of the current snapshot read with pyarrow, in turn: `pq.read_table(path)`, or
    with `by_file` `pq.ParquetFile(path).read()`, which skips the dataset layer `read_table` goes
    through (about 0.3 ms less per file: the stricter peer on tables of small files)."""
    import pyarrow.parquet as pq

    from spec_impl.manifests.tree import LocalFiles, read_snapshot
    from spec_impl.scan.reader import live_files

    tree = read_snapshot(LocalFiles(), str(metadata))
    data, deletes = live_files(tree)
    paths = [f.scan.path.removeprefix("file:") for f in data + deletes]
    started = time.monotonic()
    read = (lambda p: pq.ParquetFile(p).read()) if by_file else pq.read_table
    rows = sum(read(p).num_rows for p in paths)
    seconds = time.monotonic() - started
    return {"files": len(paths), "rows": rows, "seconds": round(seconds, 3)}


def checks_in_process(metadata: Path) -> dict:
    """The audit's checks without Spark: plan, every manifest, every file, in turn."""
    from conformance.audit.file_checks import check_file
    from conformance.audit.plan import manifest_items, plan
    from spec_impl.manifests.tree import LocalFiles

    started = time.monotonic()
    planned = plan(LocalFiles(), str(metadata))
    tasks, violations = [], []
    for row in planned.manifest_rows:
        found_tasks, found = manifest_items(planned.context, LocalFiles(), row)
        tasks, violations = tasks + found_tasks, violations + found
    rows = 0
    for task in tasks:
        found, n = check_file(planned.context, LocalFiles(), task)
        violations, rows = violations + found, rows + n
    return {
        "files": len(tasks),
        "rows": rows,
        "seconds": round(time.monotonic() - started, 3),
        "violations": len(violations),
    }


def audit(metadata: Path, master: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "audit.json"
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "conformance.audit.cli", str(metadata), "--master", master, "--json", str(report)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall = time.monotonic() - started
        if done.returncode not in (0, 1):
            raise SystemExit(f"iceberg-audit failed ({done.returncode}): {done.stderr[-2000:]}")
        doc = json.loads(report.read_text())
    checked = doc["checked"]
    return {
        "files": checked["files"],
        "rows": checked["rows"],
        "seconds": checked["seconds"],
        "process_seconds": round(wall, 1),
        "violations": len(doc["violations"]),
        "rules": sorted(doc["rules"]),
    }


TWICE = """
import json, sys
from conformance.audit.cli import audit, spark_session
spark = spark_session(sys.argv[2])
runs = []
for _ in range(2):
    r = audit(sys.argv[1], spark=spark, report_progress=lambda message: None)
    runs.append({"files": r.files, "rows": r.rows, "seconds": round(r.seconds, 3), "violations": len(r.violations)})
print(json.dumps(runs))
"""


def audit_warm(metadata: Path, master: str) -> dict:
    """The same job run twice in one Spark session: the second run's figures (Python workers already
    started and the reference imported, the JVM's code compiled), what a long-lived session or a
    cluster pays per audit."""
    done = subprocess.run(
        [sys.executable, "-c", TWICE, str(metadata), master], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"audit in one session failed: {done.stderr[-2000:]}")
    cold, warm = json.loads(done.stdout.strip().splitlines()[-1])
    return {**warm, "first_run_seconds": cold["seconds"]}


def rates(figures: dict) -> dict:
    s = figures["seconds"]
    return {**figures, "rows_per_s": round(figures["rows"] / s), "files_per_s": round(figures["files"] / s, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=3_000_000)
    parser.add_argument("--fresh", action="store_true", help="write the table again")
    parser.add_argument("--warehouse", type=Path, default=Path(tempfile.gettempdir()) / "iceberg-audit-bench")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "bench_audit.json")
    args = parser.parse_args()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    write_seconds = None
    done = args.warehouse / "written"  # the table is complete (a failed write leaves none)
    if args.fresh or not done.exists():
        shutil.rmtree(args.warehouse, ignore_errors=True)
        print(f"writing {args.rows:,} rows with Spark ...", file=sys.stderr)
        write_seconds = round(write_table(args.warehouse, args.rows), 1)
        done.write_text(f"{args.rows}\n")
    metadata = latest_metadata(args.warehouse)

    plain_scan(metadata)  # warm-up: the page cache holds the files for every way alike
    ways = {"pyarrow": rates(plain_scan(metadata)), "checks, no Spark": rates(checks_in_process(metadata))}
    for cores in (1, 2):
        print(f"audit local[{cores}] ...", file=sys.stderr)
        ways[f"audit local[{cores}]"] = rates(audit(metadata, f"local[{cores}]"))
    for cores in (1, 2):
        print(f"audit local[{cores}], warm ...", file=sys.stderr)
        ways[f"audit local[{cores}] warm"] = rates(audit_warm(metadata, f"local[{cores}]"))
    plain = ways["pyarrow"]["seconds"]
    for way in ways.values():
        way["x_plain_scan"] = round(way["seconds"] / plain, 1)
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average_at_end": [round(x, 1) for x in os.getloadavg()],
        "table": {"rows_written": args.rows, "metadata": metadata.name, "write_seconds": write_seconds},
        "ways": ways,
        "speedup_1_to_2_cores": round(ways["audit local[1]"]["seconds"] / ways["audit local[2]"]["seconds"], 2),
        "speedup_1_to_2_cores_warm": round(
            ways["audit local[1] warm"]["seconds"] / ways["audit local[2] warm"]["seconds"], 2
        ),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{'way':<22} {'files':>6} {'rows':>10} {'seconds':>8} {'rows/s':>10} {'files/s':>8} {'x pyarrow':>9}")
    for name, w in ways.items():
        print(
            f"{name:<22} {w['files']:>6} {w['rows']:>10,} {w['seconds']:>8.2f} {w['rows_per_s']:>10,} "
            f"{w['files_per_s']:>8} {w['x_plain_scan']:>9}"
        )
    print(
        f"audit 1 -> 2 cores: {result['speedup_1_to_2_cores']}x faster (warm: {result['speedup_1_to_2_cores_warm']}x); "
        f"load average {result['load_average_at_end']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
