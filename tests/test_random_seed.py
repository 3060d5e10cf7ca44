"""The random and property tests run with a seed fixed per release of the suite (so the same engine
and suite give the same verdict twice), printed in the header and the report; `--random-seed`
varies it and `--hypothesis-seed` overrides both."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conformance.conftest import release_seed

ROOT = Path(__file__).resolve().parents[1]


def _header(*options: str) -> str:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "conformance/test_random_values.py",
        "--engine",
        "reference",
        "--collect-only",
        "-p",
        "no:cacheprovider",
        *options,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return next(line for line in done.stdout.splitlines() if line.startswith("random seed"))


def test_the_release_seed_is_the_default_and_options_vary_it():
    assert release_seed() == release_seed() and 0 <= release_seed() < 2**32
    assert _header() == f"random seed {release_seed()} (--random-seed N to vary it)"
    assert _header("--random-seed", "7").startswith("random seed 7 ")
    assert _header("--hypothesis-seed", "11").startswith("random seed 11 ")
