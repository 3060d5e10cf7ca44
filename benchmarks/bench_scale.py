"""Scale benchmark: how the reference's time and memory grow with the size of a table's metadata,
measured beside PyIceberg on the same documents in the same run.

1. Metadata files with 1,000 / 10,000 / 100,000 snapshots (a v2 table: one main branch through every
snapshot, a snapshot log and a metadata log of the same length) are generated once, then read:

* ``spec_impl`` -- ``spec_impl.metadata.table_metadata.read_metadata_file``: parse and validate
  every table-level rule (ids, parent chains, sequence numbers, refs, the logs);
* ``pyiceberg`` -- PyIceberg's ``TableMetadataUtil.parse_raw``: parse into its model (pydantic), the
  peer's whole read of the same bytes.

2. Manifests of 10,000 / 100,000 / 1,000,000 entries (a v2 table, one snapshot, one manifest of
   ADDED data files with bounds on two columns), read from local disk:

* ``spec_impl`` -- ``spec_impl.manifests.validate.validate_table``: read the manifest list and the
  manifest, apply inheritance, and check every tree rule on every entry;
* ``pyiceberg`` -- PyIceberg's ``StaticTable.from_metadata`` then ``fetch_manifest_entry`` on every
  manifest of the current snapshot: read and decode the entries (no validation).

3. Tables of 1,000 / 10,000 / 100,000 data files with position and equality deletes
   (`scale_table.write_table`): `iceberg-validate-table`, the reference reader's planning and
   PyIceberg's `plan_files`; at `--audit-size` data files, the audit at local[1] and local[2] beside
   a plain pyarrow scan of the same files (`scale_table_stages`).

Each measurement runs in a child process of its own (the best of ``--repeat`` runs inside it), so
its peak resident memory is its own. The figures are the time, the ratio to PyIceberg, the growth
per decade (a linear stage grows about 10 times; a quadratic one 100 times) and the peak memory.

Run:  python benchmarks/bench_scale.py [--sizes 1000,10000,100000] [--manifest-sizes 10000,100000,1000000]
          [--table-sizes 1000,10000,100000] [--audit-size N] [--repeat 3] [--table-repeat 2]
          [--quick] [--json FILE] [--png FILE]
Figures go to benchmarks/results/bench_scale.json (and .png with matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scale_table_stages import TABLE_MODULES, TABLE_READERS, TABLE_STAGES, table_series

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
READERS = ("spec_impl", "pyiceberg")


def metadata_document(snapshots: int) -> dict:
    """A v2 table metadata document with `snapshots` snapshots in one chain, and logs to match."""
    base = 1_700_000_000_000
    snaps = []
    for i in range(1, snapshots + 1):
        s = {
            "snapshot-id": i,
            "sequence-number": i,
            "timestamp-ms": base + i,
            "manifest-list": f"s3://bucket/t/metadata/snap-{i}.avro",
            "summary": {"operation": "append", "added-data-files": "1", "added-records": "10"},
            "schema-id": 0,
        }
        if i > 1:
            s["parent-snapshot-id"] = i - 1
        snaps.append(s)
    return {
        "format-version": 2,
        "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
        "location": "s3://bucket/t",
        "last-sequence-number": snapshots,
        "last-updated-ms": base + snapshots,
        "last-column-id": 2,
        "schemas": [
            {
                "type": "struct",
                "schema-id": 0,
                "fields": [
                    {"id": 1, "name": "id", "required": True, "type": "long"},
                    {"id": 2, "name": "data", "required": False, "type": "string"},
                ],
            }
        ],
        "current-schema-id": 0,
        "partition-specs": [{"spec-id": 0, "fields": []}],
        "default-spec-id": 0,
        "last-partition-id": 999,
        "sort-orders": [{"order-id": 0, "fields": []}],
        "default-sort-order-id": 0,
        "properties": {},
        "current-snapshot-id": snapshots,
        "refs": {"main": {"snapshot-id": snapshots, "type": "branch"}},
        "snapshots": snaps,
        "snapshot-log": [{"snapshot-id": s["snapshot-id"], "timestamp-ms": s["timestamp-ms"]} for s in snaps],
        "metadata-log": [
            {"metadata-file": f"s3://bucket/t/metadata/{i:05d}.metadata.json", "timestamp-ms": base + i}
            for i in range(1, snapshots)
        ],
    }


def manifest_table(entries: int, directory: Path) -> Path:
    """A v2 table on disk under `directory` whose one snapshot has one manifest of `entries` data
    files; the path of its metadata file."""
    from spec_impl.manifests.inheritance import ADDED
    from spec_impl.manifests.writer import TreeWriter, data_file, entry

    schema = metadata_document(1)["schemas"][0]
    w = TreeWriter(f"file:{directory}/t", 2, schema)
    files = [
        entry(
            ADDED,
            data_file(
                f"file:{directory}/t/data/{i:07d}.parquet",
                100,
                lower_bounds={1: (i * 100).to_bytes(8, "little", signed=True), 2: b"a"},
                upper_bounds={1: (i * 100 + 99).to_bytes(8, "little", signed=True), 2: b"z"},
            ),
            1,
        )
        for i in range(entries)
    ]
    w.commit(1, "append", [w.write_manifest("m1.avro", files)])
    for location, data in w.files.items():
        local = Path(location.removeprefix("file:"))
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
    return Path(w.metadata_location.removeprefix("file:"))


def _read_once(reader: str, path: Path) -> float | tuple[float, float] | None:
    if reader == "spec_impl":
        from spec_impl.metadata.table_metadata import read_metadata_file

        read_metadata_file(path.read_bytes())
    elif reader == "pyiceberg":
        from pyiceberg.table.metadata import TableMetadataUtil

        TableMetadataUtil.parse_raw(path.read_bytes())
    elif reader == "spec_impl-manifests":
        from spec_impl.manifests.tree import LocalFiles
        from spec_impl.manifests.validate import validate_table

        violations = validate_table(LocalFiles(), f"file:{path}")
        assert not violations, violations[:3]
    elif reader == "pyiceberg-manifests":
        from pyiceberg.table import StaticTable

        table = StaticTable.from_metadata(f"file://{path}")
        for manifest in table.current_snapshot().manifests(table.io):
            list(manifest.fetch_manifest_entry(table.io, discard_deleted=False))
    else:
        return TABLE_STAGES[reader](path)
    return None


# What each reader imports, imported before the clock starts.
READER_MODULES = {
    "spec_impl": ["spec_impl.metadata.table_metadata"],
    "pyiceberg": ["pyiceberg.table.metadata"],
    "spec_impl-manifests": ["spec_impl.manifests.tree", "spec_impl.manifests.validate"],
    "pyiceberg-manifests": ["pyiceberg.table", "pyiceberg.io.pyarrow"],
    **TABLE_MODULES,
}


def measure_child(reader: str, path: str, repeat: int) -> None:
    """In the child: read the file `repeat` times, print the best time and the peak memory as JSON.
    A stage that times itself returns its seconds (infinity for a warm-up run that does not count),
    or its seconds and peak when it ran in a process of its own (Iceberg Java's JVM)."""
    import importlib

    for module in READER_MODULES[reader]:
        importlib.import_module(module)
    best, other_peak = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        timed = _read_once(reader, Path(path))
        if isinstance(timed, tuple):  # a stage run in another process: its own time and peak
            timed, other_peak = timed
        best = min(best, time.perf_counter() - started if timed is None else timed)
    print(json.dumps({"seconds": best, "peak_mib": other_peak if other_peak is not None else peak_mib()}))


def peak_mib() -> float:
    """This process's peak resident memory since it started its program. Linux carries ru_maxrss
    over an exec (the forked copy of the parent counts), so VmHWM of /proc/self/status comes first."""
    try:
        line = next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(reader: str, path: Path, repeat: int) -> dict | None:
    """One measurement in a child process; None when the reader is not installed (named on stderr)."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", reader, str(path), "--repeat", str(repeat)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        print(f"{reader} failed on {path.name}: {done.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def _series(kind: str, sizes: list[int], repeat: int, make) -> list[dict]:
    """One row per size: the input made by `make(size, directory)`, then each reader measured."""
    rows = []
    readers = {"metadata": ("spec_impl", "pyiceberg"), "manifests": ("spec_impl-manifests", "pyiceberg-manifests")}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            print(f"{kind}: writing the input of size {n:,}", flush=True)
            path = make(n, Path(tmp) / str(n))
            row = {"size": n, "bytes": _input_bytes(path, kind)}
            for reader, name in zip(readers[kind], READERS):
                row[name] = measure(reader, path, repeat)
            print(_line(kind, row), flush=True)
            rows.append(row)
    for before, after in zip(rows, rows[1:]):
        for reader in READERS:
            if before[reader] and after[reader]:
                after[reader]["growth"] = after[reader]["seconds"] / before[reader]["seconds"]
    return rows


def _input_bytes(path: Path, kind: str) -> int:
    return path.stat().st_size if kind == "metadata" else sum(p.stat().st_size for p in path.parent.glob("*.avro"))


def _metadata_file(n: int, directory: Path) -> Path:
    directory.mkdir(parents=True)
    path = directory / "v1.metadata.json"
    path.write_text(json.dumps(metadata_document(n)))
    return path


def run(sizes: list[int], manifest_sizes: list[int], repeat: int, table: dict) -> dict:
    """Every series; `table`: the table sizes, the size the audit runs at and the repeat there."""
    doc = {
        "benchmark": "table metadata (snapshots), manifests (entries) and tables (data files with deletes): "
        "validate, plan and audit against size",
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "repeat": repeat,
        "metadata": _series("metadata", sizes, repeat, _metadata_file),
        "manifests": _series("manifests", manifest_sizes, repeat, manifest_table),
    }
    with tempfile.TemporaryDirectory() as tmp:
        doc["table"] = table_series(table["sizes"], table["audit_size"], table["repeat"], measure, Path(tmp))
    doc["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    return doc


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _line(kind: str, row: dict) -> str:
    ours, peer = row["spec_impl"], row["pyiceberg"]
    unit = "snapshots" if kind == "metadata" else "entries"
    text = f"{row['size']:>9} {unit} ({row['bytes'] / 2**20:6.1f} MiB):"
    if ours:
        text += f" spec_impl {ours['seconds']:7.3f} s, {ours['peak_mib']:6.0f} MiB"
    if peer:
        text += f" | pyiceberg {peer['seconds']:7.3f} s, {peer['peak_mib']:6.0f} MiB"
    if ours and peer:
        text += f" | ratio {ours['seconds'] / peer['seconds']:.2f}"
    return text


def plot(doc: dict, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    panels = {
        "metadata": ("snapshots in the metadata file", "read (and validate)", doc["metadata"], READERS),
        "manifests": ("entries in the manifest", "read (and validate)", doc["manifests"], READERS),
        "table": ("data files in the table (with deletes)", "validate and plan", doc["table"]["tables"], TABLE_READERS),
    }
    for ax, (kind, (label, what, rows, readers)) in zip(axes, panels.items()):
        for reader in readers:
            points = [(r["size"], r[reader]["seconds"]) for r in rows if r[reader]]
            if points:
                ax.plot(*zip(*points), marker="o", label=reader)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("seconds (best of runs)")
        ax.set_title(f"{kind}: {what} against size")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)


QUICK = {
    "sizes": "100,1000",
    "manifest_sizes": "100,1000",
    "table_sizes": "100,1000",
    "audit_size": 0,
    "repeat": 1,
    "table_repeat": 1,
}


def _ints(text: str) -> list[int]:
    return [int(s) for s in text.split(",") if s]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="snapshot counts, comma-separated")
    parser.add_argument("--manifest-sizes", default="10000,100000,1000000", help="manifest entry counts")
    parser.add_argument("--table-sizes", default="1000,10000,100000", help="data files in the tables with deletes")
    parser.add_argument(
        "--audit-size",
        type=int,
        default=None,
        help="the table size the audit and the pyarrow scans run at (0: none; default: the largest table size)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    parser.add_argument("--table-repeat", type=int, default=2, help="runs per measurement on the tables")
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, one run each, no audit: checks that the script works"
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "bench_scale.json", help="where the figures go")
    parser.add_argument("--png", type=Path, default=None, help="a plot of time against size (needs matplotlib)")
    parser.add_argument("--child", nargs=2, metavar=("READER", "FILE"), help=argparse.SUPPRESS)
    if parser.parse_known_args(argv)[0].quick:  # small defaults; the sizes given still count
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    if args.child:
        measure_child(args.child[0], args.child[1], args.repeat)
        return 0
    sizes = _ints(args.table_sizes)
    audit_size = max(sizes, default=None) if args.audit_size is None else args.audit_size or None
    table = {"sizes": sizes, "audit_size": audit_size, "repeat": args.table_repeat}
    doc = run(_ints(args.sizes), _ints(args.manifest_sizes), args.repeat, table)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"figures: {args.json}")
    if args.png is not None:
        plot(doc, args.png)
        print(f"plot: {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
