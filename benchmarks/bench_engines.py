"""The time to judge each engine, the protocol's overhead per case, and the native engines' build
from a warm cache, measured in one run.

    python benchmarks/bench_engines.py [--engines iceberg-go iceberg-rust ...] [--json OUT]

- **judging**: one pytest run of the three judging files (`test_value_vectors.py`,
  `test_random_values.py`, `test_random_planning.py`) per engine, after a first run that builds
  and starts it (not timed); the figure is the run's wall time, with the cases it judged.
- **protocol overhead**: the reference judged in-process and through the protocol
  (`conformance.engines.serve`: the same engine behind stdin/stdout), on the same cases; the
  difference per case judged is the protocol's cost, as a ratio of the in-process time too.
- **warm build**: each native engine's build with its toolchain's caches warm (Go's module and
  build caches, Cargo's target directory) but its binary removed from the suite's cache.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conformance.engines import native_programs  # noqa: E402
from conformance.release_matrix import JUDGING  # noqa: E402

SERVED = f"cmd:reference-served={sys.executable} -m conformance.engines.serve reference"
DEFAULT = ["reference", SERVED, "iceberg-java", "iceberg-go", "iceberg-rust", "pyiceberg", "pyiceberg-core"]


def judge(engine: str) -> dict:
    """Seconds of one pytest run judging `engine`, and how many cases it judged."""
    with tempfile.TemporaryDirectory() as out:
        argv = [sys.executable, "-m", "pytest", *JUDGING, "--engine", engine, "-q", "-p", "no:cacheprovider"]
        argv += ["--compliance-report", out]
        started = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        report = json.loads((Path(out) / "compliance.json").read_text(encoding="utf-8"))
    totals = next(iter(report["totals"].values()), {})
    judged = sum(v for k, v in totals.items() if isinstance(v, int) and k not in ("skipped", "unsupported"))
    return {"seconds": round(seconds, 2), "judged": judged}


def warm_build(name: str) -> float:
    recipe = native_programs.RECIPES[name]
    binary = native_programs.build(recipe, progress=lambda line: None)
    shutil.rmtree(binary.parent)  # the suite's cache entry only: the toolchain's caches stay warm
    started = time.perf_counter()
    native_programs.build(recipe, progress=lambda line: None)
    return round(time.perf_counter() - started, 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", nargs="+", default=DEFAULT)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks/results/bench_engines.json")
    args = parser.parse_args(argv)
    builds = {name: warm_build(name) for name in native_programs.RECIPES}
    for name, seconds in builds.items():
        print(f"warm build {name}: {seconds:.1f} s")
    figures = {}
    for engine in args.engines:
        judge(engine)  # builds and starts it, warms the caches
        figures[engine] = judge(engine)
        print(f"{engine.split('=')[0]}: {figures[engine]['seconds']:.1f} s for {figures[engine]['judged']} cases")
    out = {"judging": {k.split("=")[0]: v for k, v in figures.items()}, "warm-build-seconds": builds}
    if "reference" in figures and SERVED in figures:
        local, served = figures["reference"], figures[SERVED]
        per_case = (served["seconds"] - local["seconds"]) / max(served["judged"], 1)
        out["protocol-overhead"] = {
            "per-case-ms": round(per_case * 1000, 3),
            "served-over-in-process": round(served["seconds"] / local["seconds"], 2),
        }
        ratio = out["protocol-overhead"]["served-over-in-process"]
        print(f"protocol overhead: {per_case * 1000:.2f} ms per case ({ratio}x the in-process run)")
    args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
