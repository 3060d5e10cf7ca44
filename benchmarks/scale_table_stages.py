"""The stages of the scale benchmark measured on a whole table (`scale_table.write_table`): each is
run in a child process of `bench_scale.py` and times itself or is timed around.

* ``validate``       -- `iceberg-validate-table --json` (its `main`): every manifest list and
  manifest, the history, statistics, and the Appendix A schema of every live Parquet file;
* ``plan``           -- the reference reader's planning of the current snapshot: the tree read with
  inheritance (`read_snapshot`), the live files (`live_files`), the delete index built and asked
  for every data file (`DeleteIndex.for_data_file`);
* ``java-plan``      -- Iceberg Java's `newScan().planFiles()` of the current snapshot, every task's
  deletes counted (`benchmarks/java/TablePlanningBench.java` in a JVM of its own, the metadata files
  loaded into memory first; best of 3 repetitions in the JVM, so the JIT is warm; the peak is the JVM's);
* ``pyiceberg-plan`` -- PyIceberg's `StaticTable.from_metadata(...).scan(snapshot_id=2).plan_files()`
  (PyIceberg 0.12 plans no equality deletes: snapshot 2 holds the data and position deletes only);
* ``pyarrow-scan``   -- `bench_audit.plain_scan`: every live file read by pyarrow (`pq.read_table`), one
  after another;
* ``pyarrow-file-scan`` -- the same through `pq.ParquetFile(path).read()`, without the dataset layer of
  `read_table`: the stricter peer, since the audit opens each file that way;
* ``checks``         -- `bench_audit.checks_in_process`: the audit's planning and per-file checks in
  one process, file after file (no Spark);
* ``audit-local[N]`` -- `iceberg-audit`'s `audit()` in a Spark session at `local[N]`; the session
  and its Python workers are started by a first run that is not counted (at least 2 runs).
"""

from __future__ import annotations

import contextlib
import io
from functools import partial
from pathlib import Path

import scale_table
from bench_audit import checks_in_process, plain_scan


def validate(path: Path) -> None:
    from spec_impl.validate.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([str(path), "--json"])
    assert status == 0, out.getvalue()[:2000]


def plan(path: Path) -> None:
    from spec_impl.deletes.scoping import DeleteIndex
    from spec_impl.manifests.tree import LocalFiles, read_snapshot
    from spec_impl.scan.reader import _unpartitioned, live_files

    tree = read_snapshot(LocalFiles(), f"file:{path}")
    data, deletes = live_files(tree)
    index = DeleteIndex([d.scan for d in deletes], _unpartitioned(tree.metadata))
    applied = sum(len(index.for_data_file(f.scan).equality) for f in data)
    assert applied == len(data), (applied, len(data))  # one equality delete file per data file


def java_plan(path: Path) -> tuple[float, float]:
    """(best seconds, the JVM's peak MiB) of Iceberg Java planning the current snapshot."""
    import json
    import subprocess
    import tempfile

    from bench_planning import java_bench

    with tempfile.TemporaryDirectory(prefix="bench-scale-java-") as work:
        command, _ = java_bench("TablePlanningBench", Path(work))
        done = subprocess.run([*command, f"file:{path}", "3"], check=True, capture_output=True, text=True)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    data = path.parents[1] / "data"
    files = sum(not p.name.startswith(("pos-", "eq-")) for p in data.rglob("*.parquet"))  # data files written
    assert answer["tasks"] == files, answer  # every data file planned
    assert answer["deletes"] == files + -(-files // scale_table.POSITION_EVERY), answer  # equality + position
    return min(answer["seconds"]), answer["peak_mib"]


def pyiceberg_plan(path: Path) -> None:
    from pyiceberg.table import StaticTable

    table = StaticTable.from_metadata(f"file://{path}")
    tasks = list(table.scan(snapshot_id=scale_table.POSITION_SNAPSHOT).plan_files())
    assert sum(len(t.delete_files) for t in tasks) == -(-len(tasks) // scale_table.POSITION_EVERY)


def pyarrow_scan(path: Path) -> float:
    return plain_scan(path)["seconds"]


def pyarrow_file_scan(path: Path) -> float:
    return plain_scan(path, by_file=True)["seconds"]


def checks(path: Path) -> float:
    figures = checks_in_process(path)
    assert figures["violations"] == 0, figures
    return figures["seconds"]


_sessions: dict[str, object] = {}


def audit(master: str, path: Path) -> float:
    """The audit in a session kept for the process; infinity (not counted) on the run that starts it."""
    import time

    from conformance.audit.cli import audit as run_audit, spark_session

    first = master not in _sessions
    spark = _sessions.setdefault(master, spark_session(master))
    started = time.perf_counter()
    result = run_audit(str(path), spark=spark, report_progress=lambda message: None)
    seconds = time.perf_counter() - started
    assert not result.violations and not result.errors, (result.violations[:3], result.errors[:3])
    return float("inf") if first else seconds


AUDIT_MASTERS = ("local[1]", "local[2]")
TABLE_STAGES = {
    "validate": validate,
    "plan": plan,
    "java-plan": java_plan,
    "pyiceberg-plan": pyiceberg_plan,
    "pyarrow-scan": pyarrow_scan,
    "pyarrow-file-scan": pyarrow_file_scan,
    "checks": checks,
    **{f"audit-{m}": partial(audit, m) for m in AUDIT_MASTERS},
}
# What each stage imports, imported before the clock starts.
TABLE_MODULES = {
    "validate": ["spec_impl.validate.cli"],
    "plan": ["spec_impl.scan.reader", "spec_impl.deletes.scoping"],
    "java-plan": ["bench_planning"],
    "pyiceberg-plan": ["pyiceberg.table", "pyiceberg.io.pyarrow"],
    "pyarrow-scan": ["pyarrow.parquet", "spec_impl.scan.reader"],
    "pyarrow-file-scan": ["pyarrow.parquet", "spec_impl.scan.reader"],
    "checks": ["conformance.audit.file_checks", "conformance.audit.plan"],
    **{f"audit-{m}": ["conformance.audit.cli", "pyspark.sql"] for m in AUDIT_MASTERS},
}

TABLE_READERS = ("validate", "plan", "java-plan", "pyiceberg-plan")
AUDIT_READERS = ("pyarrow-scan", "pyarrow-file-scan", "checks", *(f"audit-{m}" for m in AUDIT_MASTERS))


def table_series(sizes: list[int], audit_size: int | None, repeat: int, measure, directory: Path) -> dict:
    """Each table written once; the planning stages measured at every size, the audit's at
    `audit_size` (one of `sizes`, or None for none). `measure(stage, metadata, repeat)` runs a child."""
    rows, audit_row = [], None
    for n in sizes:
        print(f"table: writing {n:,} data files with deletes", flush=True)
        metadata = scale_table.write_table(directory / f"table-{n}", n)
        row = {"size": n, **_table_size(metadata)}
        for stage in TABLE_READERS:
            row[stage] = measure(stage, metadata, repeat)
        for peer in ("java", "pyiceberg"):
            if row["plan"] and row[f"{peer}-plan"]:
                row[f"plan_vs_{peer}"] = round(row["plan"]["seconds"] / row[f"{peer}-plan"]["seconds"], 2)
        print(table_line(row), flush=True)
        rows.append(row)
        if n == audit_size:
            audit_row = {"size": n, "files": row["files"]}
            for stage in AUDIT_READERS:
                print(f"table: {stage} on {n:,} data files", flush=True)
                audit_row[stage] = measure(stage, metadata, max(repeat, 2) if "audit" in stage else repeat)
            audit_row.update(audit_ratios(audit_row))
            print(audit_line(audit_row), flush=True)
    for before, after in zip(rows, rows[1:]):
        for stage in TABLE_READERS:
            if before[stage] and after[stage]:
                after[stage]["growth"] = round(after[stage]["seconds"] / before[stage]["seconds"], 1)
    return {"tables": rows, "audit": audit_row}


def _table_size(metadata: Path) -> dict:
    files = [p for p in (metadata.parent.parent / "data").rglob("*.parquet")]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}


def audit_ratios(row: dict) -> dict:
    """The speed-up from local[1] to local[2], and the audit's speed per core (2 cores at local[2])
    against the plain scan's (one process, file after file: one core)."""
    one, two, scan = (row.get(k) for k in ("audit-local[1]", "audit-local[2]", "pyarrow-scan"))
    out = {}
    if one and two:
        out["speedup_1_to_2"] = round(one["seconds"] / two["seconds"], 2)
    if two and scan:
        out["audit_per_core_vs_pyarrow"] = round(scan["seconds"] / (2 * two["seconds"]), 3)
    if two and row.get("pyarrow-file-scan"):
        out["audit_per_core_vs_file_scan"] = round(row["pyarrow-file-scan"]["seconds"] / (2 * two["seconds"]), 3)
    if row.get("checks") and scan:
        out["checks_vs_pyarrow"] = round(row["checks"]["seconds"] / scan["seconds"], 2)
    return out


def _figure(m: dict | None) -> str:
    return "failed" if not m else f"{m['seconds']:7.3f} s, {m['peak_mib']:5.0f} MiB"


def table_line(row: dict) -> str:
    stages = " | ".join(f"{stage} {_figure(row[stage])}" for stage in TABLE_READERS)
    return f"{row['size']:>7} data files ({row['files']:,} files): {stages}"


def audit_line(row: dict) -> str:
    stages = " | ".join(f"{stage} {_figure(row[stage])}" for stage in AUDIT_READERS)
    ratios = ", ".join(f"{k} {v}" for k, v in audit_ratios(row).items())
    return f"{row['size']:>7} data files: {stages}; {ratios}"
