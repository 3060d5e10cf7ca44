"""Throughput of the writer harness: what checking every step costs, against Spark doing the steps alone.

The same generated histories (a fixed seed) run three ways in one process and one Spark session:

* ``steps only``      -- Iceberg Java executes the steps through Spark; no check (the peer);
* ``checks``          -- every step checked by Spark reads, the reference reader, the validator and
  the table audit of the new files (partition tuples, metrics, counts, sizes, summaries, deletes);
* ``checks+readers``  -- and PyIceberg, DuckDB and Polars read every new snapshot.

Reported: steps per minute for each, and the ratio of each time to the steps-only time measured in
the same run (these machines are noisy; a ratio within one run is what compares). Each way runs the
histories once, in turn, so that JIT warm-up is shared: a warm-up pass runs first and is not counted.

Run:  python benchmarks/bench_writer_harness.py [--examples 12] [--steps 8] [--seed 7]
Figures go to benchmarks/results/bench_writer_harness.json (`--out` to write elsewhere).
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=12)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "bench_writer_harness.json")
    args = parser.parse_args()

    from conformance.writer_harness.harness import Harness

    harness = Harness()
    try:
        histories = harness.generate(args.examples, args.steps, args.seed, min_steps=args.steps)
        for history in histories[:2]:  # warm-up: JIT, Spark's code generation, the readers' first loads
            harness.run(history)
        ways = {
            "steps only": dict(checking=False),
            "checks": dict(checking=True, readers=False),
            "checks+readers": dict(checking=True, readers=True),
        }
        engines = harness.readers.engines
        figures = {}
        for way, how in ways.items():
            harness.readers.engines = engines if how.get("readers") else {}
            started, steps = time.monotonic(), 0
            for history in histories:
                steps += harness.run(history, checking=how["checking"]).steps_run
            seconds = time.monotonic() - started
            figures[way] = {
                "seconds": round(seconds, 2),
                "steps": steps,
                "steps_per_minute": round(steps / seconds * 60, 1),
            }
            print(f"{way:16} {steps:4} steps in {seconds:7.1f} s: {steps / seconds * 60:6.1f} steps/min", flush=True)
        base = figures["steps only"]["seconds"] / max(figures["steps only"]["steps"], 1)
        for way, f in figures.items():
            f["time_per_step_vs_steps_only"] = round(f["seconds"] / max(f["steps"], 1) / base, 2)
            print(f"{way:16} {f['time_per_step_vs_steps_only']:5.2f}x the time per step of Spark doing the steps alone")
    finally:
        harness.close()
    from importlib import metadata

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "benchmark": "writer harness throughput",
                "date": datetime.date.today().isoformat(),
                "machine": platform.platform(),
                "cpus": __import__("os").cpu_count(),
                "pyspark": metadata.version("pyspark"),
                "examples": args.examples,
                "steps": args.steps,
                "seed": args.seed,
                "figures": figures,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
