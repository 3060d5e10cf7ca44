"""Benchmark of delete scoping in scan planning: our index against Iceberg Java's and PyIceberg's, same input.

For each scenario and size, the planners get the same live files of one snapshot and answer,
for every data file, which delete files apply:

* ``spec_impl``  -- ``spec_impl.deletes.scoping.DeleteIndex`` built once, then ``plan_batch`` over
  all data files (one numpy search per partition run) and the number of deletes applying to each
  (``counts()``); each answer is the tail of sorted runs shared by a partition's files, a view
  made on demand (``applied(i)``). ``ours_per_file_s`` is the same index answering with
  ``for_data_file`` per data file (the reader's path);
* ``java``       -- Iceberg Java's ``DeleteFileIndex`` (``builderFor(deletes).build()``, then
  ``forDataFile`` per data file), run by ``benchmarks/java/DeletePlanningBench.java`` in its own JVM
  (default JIT, not the conformance engine's quick-start options) on the files built by the Java
  engine's ``plan-deletes`` code; converting the input is not timed. Its first repetition includes
  JIT warm-up; the figure is the best of ``--repeat``;
* ``pyiceberg``  -- PyIceberg 0.12's ``DeleteFileIndex`` (``add_delete_file`` per delete file, then
  ``for_data_file`` per data file, which returns a set). PyIceberg plans position deletes only, so
  it gets the position-delete part of the input.

Scenarios (data files spread round-robin over the partitions, sequence numbers mixed so that
about half of the deletes apply to a given data file):

* ``partitioned``  -- 1,000 partitions; partition-scoped position deletes;
* ``targeted``     -- 1,000 partitions; each position delete names one data file (equal
  ``file_path`` bounds, which both planners treat as a target);
* ``one-partition`` -- every file in one partition; partition-scoped position deletes: every
  data file is paired with about half of all deletes, so a planner that looks at each pair grows
  with n * k;
* ``mixed`` (ours only: PyIceberg has no equality deletes or DVs) -- 1,000 partitions; a third
  each of position deletes, equality deletes (some global) and DVs.

The planners' answers (the number of delete files per data file) are compared on every data file
(ours batch and per file too); a mismatch exits 1. ``spec_impl`` is timed as the best of ``--repeat`` too.
PyIceberg is skipped at a size where its previous size's time, scaled by the growth of n * k
(the pairs it inspects), would exceed ``--budget`` seconds; the skip is printed and recorded.

Run:  python benchmarks/bench_planning.py [--sizes 1000:100,10000:1000,100000:10000] [--budget 60]
          [--scenarios one-partition] [--no-java]
Figures go to benchmarks/results/bench_planning.json.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spec_impl.deletes.scoping import DATA, EQUALITY, POSITION, DeleteIndex, ScanFile  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "bench_planning.json"
PARTITIONS = 1000


def scenario(name: str, n: int, k: int) -> tuple[list[ScanFile], list[ScanFile]]:
    parts = 1 if name == "one-partition" else PARTITIONS
    data = [ScanFile(f"s3://b/t/data/d{i:07d}.parquet", DATA, 1, (i % parts,), 1 + i % 10) for i in range(n)]
    deletes = []
    for j in range(k):
        seq, part = 1 + (j * 7) % 10, (j % parts,)
        target = data[(j * 7919) % n]
        kind = ("pos", "eq", "dv")[j % 3] if name == "mixed" else "pos"
        if name == "targeted":
            deletes.append(
                ScanFile(
                    f"s3://b/t/data/p{j:06d}.parquet",
                    POSITION,
                    1,
                    target.partition,
                    seq,
                    file_path_lower=target.path,
                    file_path_upper=target.path,
                )
            )
        elif kind == "pos":
            deletes.append(ScanFile(f"s3://b/t/data/p{j:06d}.parquet", POSITION, 1, part, seq))
        elif kind == "eq":
            spec = 0 if j % 30 == 1 else 1
            deletes.append(ScanFile(f"s3://b/t/data/e{j:06d}.parquet", EQUALITY, spec, () if spec == 0 else part, seq))
        elif target.path not in {d.referenced_data_file for d in deletes[-3:]}:
            deletes.append(
                ScanFile(
                    f"s3://b/t/data/v{j:06d}.puffin",
                    POSITION,
                    1,
                    target.partition,
                    max(seq, target.sequence_number),
                    "puffin",
                    target.path,
                )
            )
    if name == "mixed":  # at most one DV per data file
        seen: set[str] = set()
        deletes = [
            d
            for d in deletes
            if not d.is_dv or not (d.referenced_data_file in seen or seen.add(d.referenced_data_file))
        ]
    return data, deletes


def plan_ours(data: list[ScanFile], deletes: list[ScanFile], repeat: int = 1) -> tuple[float, dict[str, int]]:
    """Best time of index + batch plan, and the number of deletes applying to each data file."""
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        counts = DeleteIndex(deletes, unpartitioned_specs={0}).plan_batch(data).counts()
        times.append(time.perf_counter() - started)
    return min(times), dict(zip((f.path for f in data), counts.tolist()))


def plan_ours_per_file(data: list[ScanFile], deletes: list[ScanFile], repeat: int = 1) -> tuple[float, dict[str, int]]:
    """The same with `for_data_file` per data file."""
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        index = DeleteIndex(deletes, unpartitioned_specs={0})
        counts = {f.path: len(index.for_data_file(f)) for f in data}
        times.append(time.perf_counter() - started)
    return min(times), counts


SPECS = [
    {"spec-id": 0, "fields": []},  # global equality deletes
    {"spec-id": 1, "fields": [{"name": "p", "transform": "identity", "source-id": 4, "field-id": 1000}]},
]


def java_input(f: ScanFile) -> dict[str, Any]:
    """A file in the plan-deletes op's form (see DeletePlanner.java)."""
    out = {
        "file_path": f.path,
        "content": f.content,
        "spec_id": f.spec_id,
        "partition": list(f.partition),
        "sequence_number": f.sequence_number,
        "file_format": f.file_format,
    }
    for key in ("referenced_data_file", "file_path_lower", "file_path_upper"):
        if getattr(f, key) is not None:
            out[key] = getattr(f, key)
    return out


def java_bench(name: str, work: Path) -> tuple[list[str], str]:
    """`benchmarks/java/<name>.java` compiled into `work` against the Iceberg Java engine's classpath:
    the command that runs it (its arguments to add) and the Iceberg jar's name."""
    from conformance.engines.iceberg_java.build import _java_tool, ensure_built

    build = ensure_built(log=lambda message: None)
    source = ROOT / "benchmarks" / "java" / f"{name}.java"
    javac = [_java_tool("javac"), "--release", "11", "-nowarn", "-cp", build.classpath, "-d", str(work), str(source)]
    subprocess.run(javac, check=True)
    classpath = os.pathsep.join([build.classpath, str(work)])
    return [build.java, "-Xmx8g", "-cp", classpath, f"org.apache.iceberg.{name}"], build.inputs.iceberg_jar.name


class JavaPlanner:
    """Iceberg Java's DeleteFileIndex through benchmarks/java/DeletePlanningBench.java."""

    def __init__(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix="bench-planning-java-"))
        self.command, self.version = java_bench("DeletePlanningBench", self.work)

    def plan(self, data: list[ScanFile], deletes: list[ScanFile], repeat: int) -> tuple[float, dict[str, int]]:
        path = self.work / "input.json"
        path.write_text(
            json.dumps(
                {
                    "specs": SPECS,
                    "data-files": [java_input(f) for f in data],
                    "delete-files": [java_input(f) for f in deletes],
                }
            )
        )
        done = subprocess.run([*self.command, str(path), str(repeat)], check=True, capture_output=True, text=True)
        answer = json.loads(done.stdout)
        return min(answer["seconds"]), dict(zip((f.path for f in data), answer["counts"]))

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)


def mismatch(ours: dict[str, int], theirs: dict[str, int]) -> str | None:
    """The first data file whose count differs, as a message (None: the answers agree)."""
    bad = next((p for p in ours if ours[p] != theirs.get(p)), None)
    return None if bad is None else f"{bad}: ours {ours[bad]}, theirs {theirs.get(bad)}"


def pyiceberg_inputs(data: list[ScanFile], deletes: list[ScanFile]):
    from pyiceberg.manifest import DataFile, DataFileContent, FileFormat, ManifestEntry, ManifestEntryStatus
    from pyiceberg.typedef import Record

    path_field = 2147483546

    def data_file(f: ScanFile) -> DataFile:
        bounds = {}
        if f.file_path_lower is not None:
            bounds = {path_field: f.file_path_lower.encode()}
        df = DataFile.from_args(
            content=DataFileContent(f.content),
            file_path=f.path,
            file_format=FileFormat.PARQUET,
            partition=Record(*f.partition),
            record_count=10,
            file_size_in_bytes=100,
            lower_bounds=bounds or None,
            upper_bounds=bounds or None,
        )
        df.spec_id = f.spec_id  # as PyIceberg's manifest reader sets it
        return df

    def entry(f: ScanFile) -> ManifestEntry:
        return ManifestEntry.from_args(
            status=ManifestEntryStatus.ADDED,
            snapshot_id=1,
            sequence_number=f.sequence_number,
            file_sequence_number=f.sequence_number,
            data_file=data_file(f),
        )

    return [entry(f) for f in data], [entry(f) for f in deletes if f.content == POSITION and not f.is_dv]


def plan_pyiceberg(data_entries, delete_entries) -> tuple[float, dict[str, int]]:
    from pyiceberg.table.delete_file_index import DeleteFileIndex

    started = time.perf_counter()
    index = DeleteFileIndex()
    for e in delete_entries:
        index.add_delete_file(e, partition_key=e.data_file.partition)
    counts = {
        e.data_file.file_path: len(
            index.for_data_file(e.sequence_number, e.data_file, partition_key=e.data_file.partition)
        )
        for e in data_entries
    }
    return time.perf_counter() - started, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="1000:100,10000:1000,100000:10000", help="data:delete file counts, comma separated"
    )
    parser.add_argument(
        "--budget", type=float, default=60.0, help="skip PyIceberg where its predicted time exceeds this (s)"
    )
    parser.add_argument(
        "--scenarios", default="partitioned,targeted,one-partition,mixed", help="comma separated (default: all)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="repetitions of spec_impl and Java at each size (best is kept)"
    )
    parser.add_argument("--no-java", action="store_true", help="leave Iceberg Java out")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args()
    java = None if args.no_java else JavaPlanner()
    sizes = [tuple(int(x) for x in s.split(":")) for s in args.sizes.split(",")]
    rows: list[dict[str, Any]] = []
    failed = False
    for name in args.scenarios.split(","):
        previous: tuple[float, int] | None = None  # PyIceberg's seconds and n*k at the last size it ran
        for n, k in sizes:
            data, deletes = scenario(name, n, k)
            ours, our_counts = plan_ours(data, deletes, args.repeat)
            per_file, per_file_counts = plan_ours_per_file(data, deletes, args.repeat)
            row: dict[str, Any] = {
                "scenario": name,
                "data_files": n,
                "delete_files": len(deletes),
                "ours_s": round(ours, 4),
                "ours_us_per_data_file": round(ours / n * 1e6, 2),
                "ours_per_file_s": round(per_file, 4),
                "pairs": sum(our_counts.values()),
            }
            if (bad := mismatch(our_counts, per_file_counts)) is not None:
                failed, row["per_file_mismatch"] = True, bad
            if java is not None:
                theirs, their_counts = java.plan(data, deletes, args.repeat)
                row.update({"java_s": round(theirs, 4), "ratio_java_over_ours": round(theirs / ours, 2)})
                if (bad := mismatch(our_counts, their_counts)) is not None:
                    failed, row["java_mismatch"] = True, bad
            if name != "mixed":
                predicted = previous[0] * (n * k) / previous[1] if previous and name != "targeted" else 0.0
                if predicted > args.budget:
                    row["pyiceberg"] = f"skipped: predicted {predicted:.0f} s from the previous size (grows with n*k)"
                else:
                    data_entries, delete_entries = pyiceberg_inputs(data, deletes)
                    gc.collect()
                    theirs, their_counts = plan_pyiceberg(data_entries, delete_entries)
                    previous = (theirs, n * k)
                    row.update({"pyiceberg_s": round(theirs, 4), "ratio_pyiceberg_over_ours": round(theirs / ours, 1)})
                    if (bad := mismatch(our_counts, their_counts)) is not None:
                        failed, row["pyiceberg_mismatch"] = True, bad
            rows.append(row)
            print(json.dumps(row), flush=True)
    result = {
        "benchmark": "delete scoping: plan every data file of a snapshot",
        "date": datetime.date.today().isoformat(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "pyiceberg": importlib.metadata.version("pyiceberg"),
        "iceberg_java": java and java.version,
        "repeat": args.repeat,
        "rows": rows,
    }
    if java is not None:
        java.close()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
