"""Benchmark of the Iceberg bucket[16] transform over Arrow arrays.

Engines, all measured in the same run on the same data:

* ``spec_impl.bulk``      -- our pure-numpy ``bucket_array`` (the reference the
                             ratios are taken against);
* ``pyiceberg-core``      -- iceberg-rust through ``pyiceberg_core.transform.bucket``;
* ``pyiceberg arrow``     -- PyIceberg's ``BucketTransform.pyarrow_transform``
                             (found by introspection to delegate to pyiceberg-core);
* ``pyiceberg scalar``    -- PyIceberg's ``BucketTransform(16).transform(type)``
                             called once per Python value, timed on a subset.

Datasets: ``--n`` int64 values (uniform over the whole long range) and ``--n``
strings of 0..32 characters, ~15% of them non-ASCII (2-, 3- and 4-byte UTF-8),
both from a fixed seed.

Before timing, every engine's output is compared with ours; a mismatch is
printed and makes the script exit with status 1.  Figures are printed as a
table and written to ``benchmarks/results/bench_bucket.json``.

Run:  python benchmarks/bench_bucket.py [--n 1000000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spec_impl.bulk.bucket import bucket_array  # noqa: E402

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "bench_bucket.json"
REFERENCE = "spec_impl.bulk"

# Characters for the string dataset: mostly ASCII letters/digits, plus some
# 2-byte (Latin-1 supplement, Cyrillic), 3-byte (CJK, euro sign) and 4-byte
# (emoji, other astral) UTF-8 characters.
_ASCII = [ord(c) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-"]
_NON_ASCII = [0xE9, 0xDF, 0xFC, 0x416, 0x44F, 0x4E2D, 0x6587, 0x20AC, 0x1F600, 0x1F9CA, 0x10348]


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------


def make_int64(n: int, seed: int) -> pa.Int64Array:
    rng = np.random.default_rng(seed)
    values = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=n, dtype=np.int64, endpoint=True)
    return pa.array(values, type=pa.int64())


def make_strings(n: int, seed: int, max_chars: int = 32) -> pa.StringArray:
    """n strings of 0..max_chars characters, built directly as Arrow buffers."""
    rng = np.random.default_rng(seed + 1)
    n_chars = rng.integers(0, max_chars + 1, size=n)
    total = int(n_chars.sum())
    non_ascii_string = rng.random(n) < 0.15  # ~15% of strings carry non-ASCII characters
    codepoints = np.array(_ASCII, dtype=np.uint32)[rng.integers(0, len(_ASCII), size=total)]
    # In a non-ASCII string, about a third of the characters are non-ASCII.
    owner = np.repeat(non_ascii_string, n_chars)
    swap = owner & (rng.random(total) < 0.35)
    codepoints[swap] = np.array(_NON_ASCII, dtype=np.uint32)[rng.integers(0, len(_NON_ASCII), int(swap.sum()))]
    utf8_len = 1 + (codepoints >= 0x80) + (codepoints >= 0x800) + (codepoints >= 0x10000)
    char_end = np.cumsum(n_chars)
    byte_end = np.concatenate([[0], np.cumsum(utf8_len)])
    offsets = np.concatenate([[0], byte_end[char_end]]).astype(np.int32)
    data = codepoints.astype("<u4").tobytes().decode("utf-32-le").encode("utf-8")
    assert len(data) == int(offsets[-1])
    arr = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    arr.validate(full=True)
    return arr


def make_dataset(name: str, n: int, seed: int) -> pa.Array:
    return make_int64(n, seed) if name == "int64" else make_strings(n, seed)


# ---------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------


class Engine:
    def __init__(self, name: str, run: Callable[[Any], Any], *, scalar: bool = False, note: str = "") -> None:
        self.name = name
        self.run = run
        self.scalar = scalar  # takes a Python list (subset) instead of an Arrow array
        self.note = note


def discover_engines(num_buckets: int, notes: dict[str, str]) -> list[Engine]:
    engines = [Engine(REFERENCE, lambda arr: bucket_array(arr, num_buckets), note="pure numpy")]

    try:
        from pyiceberg_core import transform as core_transform

        api = "pyiceberg_core.transform.bucket(array, num_buckets)"
        params = getattr(core_transform.bucket, "__text_signature__", None)
        notes["pyiceberg-core"] = f"{api}; introspected signature {params!r}"
        engines.append(
            Engine("pyiceberg-core", lambda arr: core_transform.bucket(arr, num_buckets), note="iceberg-rust")
        )
    except ImportError as exc:
        notes["pyiceberg-core"] = f"not available: {exc}"

    try:
        from pyiceberg.transforms import BucketTransform
        from pyiceberg.types import LongType, StringType

        transform = BucketTransform(num_buckets)
        iceberg_types = {"int64": LongType(), "string": StringType()}
        source = inspect.getsource(BucketTransform.pyarrow_transform)
        delegates = "pyiceberg_core" in source
        notes["pyiceberg arrow"] = (
            "BucketTransform.pyarrow_transform(type) "
            + ("delegates to pyiceberg_core.transform.bucket" if delegates else "does not mention pyiceberg_core")
            + " (PyIceberg's own Arrow path)"
        )
        arrow_funcs = {name: transform.pyarrow_transform(t) for name, t in iceberg_types.items()}
        engines.append(
            Engine(
                "pyiceberg arrow",
                lambda arr: arrow_funcs["string" if pa.types.is_string(arr.type) else "int64"](arr),
                note="pyarrow_transform",
            )
        )
        scalar_funcs = {name: transform.transform(t) for name, t in iceberg_types.items()}
        notes["pyiceberg scalar"] = "BucketTransform(N).transform(LongType()/StringType()) called per Python value"

        def run_scalar(payload: tuple[str, list[Any]]) -> list[Any]:
            kind, values = payload
            func = scalar_funcs[kind]
            return [func(v) for v in values]

        engines.append(Engine("pyiceberg scalar", run_scalar, scalar=True, note="per value, Python"))
    except ImportError as exc:
        notes["pyiceberg"] = f"not available: {exc}"
    return engines


# ---------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------


def time_median(func: Callable[[], Any], repeat: int) -> float:
    func()  # warm-up (imports, lazy init, page faults)
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _read_status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _release_free_heap() -> None:
    """Give freed malloc memory back to the OS (glibc only), so RSS growth is visible."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    try:
        pa.default_memory_pool().release_unused()
    except AttributeError:
        pass


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # Linux: reset VmHWM to the current RSS
        return True
    except OSError:
        return False


def memory_probe(args: argparse.Namespace) -> int:
    """Child-process mode: peak memory of one engine on one dataset, as JSON on stdout.

    A fresh process per (engine, dataset) keeps allocator caches of earlier
    runs from hiding memory.  Two untimed calls after a small warm-up:
    the first measures peak RSS growth (Linux VmHWM after resetting it; sees
    every allocator, Rust and Arrow included), the second the tracemalloc peak
    (Python and numpy allocations only).
    """
    engine_name, dataset = args.memory_probe.split(":", 1)
    engines = {e.name: e for e in discover_engines(args.num_buckets, {})}
    engine = engines[engine_name]
    arr = make_dataset(dataset, args.n, args.seed)
    payload: Any = (dataset, arr.slice(0, min(args.scalar_n, args.n)).to_pylist()) if engine.scalar else arr
    warm: Any = (dataset, payload[1][:1000]) if engine.scalar else arr.slice(0, 1000)
    engine.run(warm)
    gc.collect()
    _release_free_heap()
    rss_growth = None
    before = _read_status_kib("VmRSS")
    if before is not None and _reset_peak_rss():
        result = engine.run(payload)
        hwm = _read_status_kib("VmHWM")
        del result
        if hwm is not None:
            rss_growth = max(0, hwm - before) / 1024
    gc.collect()
    tracemalloc.start()
    try:
        result = engine.run(payload)
        _, traced_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    print(json.dumps({"peak_traced_mib": traced_peak / 2**20, "peak_rss_growth_mib": rss_growth}))
    return 0


def peak_memory(engine: str, dataset: str, args: argparse.Namespace) -> tuple[float | None, float | None]:
    """Run :func:`memory_probe` in a child process; (traced MiB, RSS growth MiB)."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--memory-probe",
        f"{engine}:{dataset}",
        "--n",
        str(args.n),
        "--scalar-n",
        str(args.scalar_n),
        "--seed",
        str(args.seed),
        "--num-buckets",
        str(args.num_buckets),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        print(f"  (memory probe for {engine}/{dataset} failed: {proc.stderr.strip()[-200:]})")
        return None, None
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    return figures["peak_traced_mib"], figures["peak_rss_growth_mib"]


def describe_mismatch(name: str, dataset: str, expected: list[Any], got: list[Any], inputs: list[Any]) -> str:
    if len(expected) != len(got):
        return f"MISMATCH {name} on {dataset}: {len(got)} results, expected {len(expected)}"
    bad = [i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    i = bad[0]
    return (
        f"MISMATCH {name} on {dataset}: {len(bad)} of {len(expected)} values differ; "
        f"first at index {i}: input {inputs[i]!r} -> {got[i]!r}, {REFERENCE} says {expected[i]!r}"
    )


def _ratio(x: float) -> str:
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.4f}x"


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("numpy", "pyarrow", "mmh3", "pyiceberg", "pyiceberg-core"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Benchmark Iceberg bucket[N] over Arrow int64 and string arrays: our numpy "
        "bucket_array vs pyiceberg-core (iceberg-rust) vs PyIceberg's transforms.",
    )
    parser.add_argument("--n", type=int, default=1_000_000, help="values per dataset (default 1000000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repeats per engine; the median is reported")
    parser.add_argument(
        "--scalar-n", type=int, default=100_000, help="subset size for PyIceberg's per-value path (default 100000)"
    )
    parser.add_argument("--num-buckets", type=int, default=16, help="N in bucket[N] (default 16)")
    parser.add_argument("--seed", type=int, default=20240601, help="random seed of the datasets")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help=f"output file (default {DEFAULT_JSON})")
    parser.add_argument("--no-json", action="store_true", help="do not write the JSON file")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the peak-memory runs (one child process per engine/dataset)"
    )
    parser.add_argument("--memory-probe", metavar="ENGINE:DATASET", help=argparse.SUPPRESS)
    return parser


def check_agreement(engines: list, datasets: dict, num_buckets: int, scalar_n: int) -> tuple[dict, list[str]]:
    """Each engine's buckets against the reference's, before any timing: (agreement, mismatch lines)."""
    mismatches: list[str] = []
    agreement: dict[str, dict[str, bool]] = {}
    for dataset, arr in datasets.items():
        ours = bucket_array(arr, num_buckets).to_pylist()
        inputs = arr.to_pylist()
        for engine in engines[1:]:
            if engine.scalar:
                got = engine.run((dataset, inputs[:scalar_n]))
                expected, shown = ours[:scalar_n], inputs[:scalar_n]
            else:
                result = engine.run(arr)
                if isinstance(result, pa.ChunkedArray):
                    result = result.combine_chunks()
                got, expected, shown = result.to_pylist(), ours, inputs
            ok = got == expected
            agreement.setdefault(engine.name, {})[dataset] = ok
            if not ok:
                mismatches.append(describe_mismatch(engine.name, dataset, expected, got, shown))
    return agreement, mismatches


def time_engines(engines: list, datasets: dict, args: argparse.Namespace, scalar_n: int, agreement: dict) -> list[dict]:
    """One row per engine and dataset: the median time, the rate, the peak memory and the ratio to the reference."""
    rows = []
    for dataset, arr in datasets.items():
        subset = (dataset, arr.slice(0, scalar_n).to_pylist())
        for engine in engines:
            payload: Any = subset if engine.scalar else arr
            count = scalar_n if engine.scalar else args.n
            seconds = time_median(lambda e=engine, p=payload: e.run(p), args.repeat)
            traced = rss = None
            if not args.no_memory:
                traced, rss = peak_memory(engine.name, dataset, args)
            rows.append(
                {
                    "engine": engine.name,
                    "dataset": dataset,
                    "values": count,
                    "median_seconds": seconds,
                    "values_per_second": count / seconds,
                    "peak_traced_mib": traced,
                    "peak_rss_growth_mib": rss,
                    "agrees_with_reference": agreement.get(engine.name, {}).get(dataset, True),
                    "note": engine.note,
                }
            )
    reference_rate = {r["dataset"]: r["values_per_second"] for r in rows if r["engine"] == REFERENCE}
    for r in rows:
        r["ratio_to_reference"] = r["values_per_second"] / reference_rate[r["dataset"]]
    return rows


def print_table(rows: list[dict]) -> None:
    """The rows as a table, with the legend of its columns."""
    header = (
        f"{'engine':<18} {'dataset':<7} {'values':>9} {'M values/s':>11} {'vs ours':>8} "
        f"{'traced MiB':>11} {'RSS+ MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        traced = "-" if r["peak_traced_mib"] is None else f"{r['peak_traced_mib']:.1f}"
        rss = "-" if r["peak_rss_growth_mib"] is None else f"{r['peak_rss_growth_mib']:.1f}"
        flag = "" if r["agrees_with_reference"] else "  MISMATCH"
        print(
            f"{r['engine']:<18} {r['dataset']:<7} {r['values']:>9,} {r['values_per_second'] / 1e6:>11.2f} "
            f"{_ratio(r['ratio_to_reference']):>8} {traced:>11} {rss:>9}{flag}"
        )
    print(
        "\n'vs ours' = values/s of the engine / values/s of spec_impl.bulk in this run (>1: faster than ours)."
        "\n'traced MiB' = tracemalloc peak (Python/numpy heap only); 'RSS+ MiB' = peak RSS growth during one call"
        "\n(all allocators incl. Rust/Arrow; page-granular), each measured in a fresh child process."
    )


def write_json(
    args: argparse.Namespace, scalar_n: int, notes: dict, agreement: dict, mismatches: list, rows: list
) -> None:
    """The figures and the run's settings, versions and agreement to `--json`."""
    out = {
        "benchmark": "bucket_transform",
        "measured_on": datetime.date.today().isoformat(),
        "num_buckets": args.num_buckets,
        "n": args.n,
        "scalar_n": scalar_n,
        "repeat": args.repeat,
        "seed": args.seed,
        "reference_engine": REFERENCE,
        "machine": {"platform": platform.platform(), "machine": platform.machine(), "cpu_count": os.cpu_count()},
        "versions": versions(),
        "notes": notes,
        "agreement": agreement,
        "mismatches": mismatches,
        "results": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n")
    print(f"\nwrote {args.json.relative_to(ROOT) if args.json.is_relative_to(ROOT) else args.json}")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.n <= 0 or args.repeat <= 0 or args.scalar_n <= 0:
        parser.error("--n, --repeat and --scalar-n must be positive")
    if args.memory_probe:
        return memory_probe(args)

    notes: dict[str, str] = {}
    engines = discover_engines(args.num_buckets, notes)
    datasets = {name: make_dataset(name, args.n, args.seed) for name in ("int64", "string")}
    scalar_n = min(args.scalar_n, args.n)

    print(f"bucket[{args.num_buckets}] over {args.n:,} values per dataset, median of {args.repeat} repeats")
    for key, value in versions().items():
        print(f"  {key} {value}")
    for key, value in notes.items():
        print(f"  {key}: {value}")
    print()

    agreement, mismatches = check_agreement(engines, datasets, args.num_buckets, scalar_n)
    if mismatches:
        for line in mismatches:
            print(line)
        print()
    else:
        print(f"All engines agree with {REFERENCE} on both datasets (scalar path on the first {scalar_n:,}).\n")

    rows = time_engines(engines, datasets, args, scalar_n, agreement)
    print_table(rows)
    if not args.no_json:
        write_json(args, scalar_n, notes, agreement, mismatches, rows)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
