"""The suite catches real historical bugs: each example engine must fail at least one golden case.

Each run is the command a user types (`pytest conformance/ --engine module:Class`), in a subprocess.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.engines.reference.adapter import ReferenceEngine
from conformance.examples import historical_bugs

ROOT = Path(__file__).resolve().parents[1]
BUGS = sorted(
    name
    for name, cls in inspect.getmembers(historical_bugs, inspect.isclass)
    if issubclass(cls, ReferenceEngine) and not name.startswith("_") and cls.__module__ == historical_bugs.__name__
)


def test_there_are_examples():
    assert len(BUGS) >= 6


@pytest.mark.parametrize("name", BUGS)
def test_suite_fails_the_historical_bug(name, tmp_path):
    spec = f"conformance.examples.historical_bugs:{name}"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "conformance/test_value_vectors.py",
            "--engine",
            spec,
            "-q",
            "-p",
            "no:cacheprovider",
            "--compliance-report",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    report = json.loads((tmp_path / "compliance.json").read_text())
    engine = getattr(historical_bugs, name).name
    failed = [c for c in report["cases"] if c["engine"] == engine and c["outcome"] in ("fail", "errored")]
    assert failed, "the suite did not catch the bug"
    assert report["totals"][engine]["pass"] > 0  # everything else still passes: the bug is isolated
