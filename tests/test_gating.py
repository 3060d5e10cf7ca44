"""Gating a CI run against a baseline (`--baseline`, `--strict-new`, `--summary-md`): the suite run
as another project runs it, on a toy engine that answers a chosen set of cases wrong."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = '''
import os
from conformance.engines.base import EngineAnswer
from conformance.engines.reference.adapter import ReferenceEngine

WRONG = set(filter(None, os.environ.get("TOY_WRONG", "").split(",")))


class ToyEngine(ReferenceEngine):
    """The reference, but the cases named in TOY_WRONG answered 12345."""

    name = "toy"

    def run_batch(self, op, cases):
        answers = super().run_batch(op, cases)
        return [EngineAnswer(True, 12345) if c["id"] in WRONG else a for c, a in zip(cases, answers)]
'''
A, B, C = (f"transform.bucket/{t}-appendix-b-bucket-16" for t in ("int", "long", "string"))


@pytest.fixture
def run(tmp_path):
    (tmp_path / "toy_engine.py").write_text(TOY)

    def run(wrong: list[str], *options: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "TOY_WRONG": ",".join(wrong)}
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            str(ROOT / "conformance" / "test_value_vectors.py"),
            "--engine",
            "toy_engine:ToyEngine",
            "-q",
            "-k",
            "bucket",
            *options,
        ]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)

    return run


def _without(report: Path, case_id: str, out: Path) -> Path:
    """The report as if the vectors had not had `case_id` yet."""
    doc = json.loads(report.read_text())
    for by_outcome in doc["outcomes"]["toy"].values():
        for ids in by_outcome.values():
            if case_id in ids:
                ids.remove(case_id)
    out.write_text(json.dumps(doc))
    return out


def test_new_cases_do_not_gate_regressions_do(run, tmp_path):
    first = run([A], "--compliance-report", "base")
    assert first.returncode == 1 and "1 failed" in first.stdout  # no expectation recorded for A
    base = tmp_path / "base" / "compliance.json"
    older = _without(base, B, tmp_path / "older.json")

    new = run([A, B], "--baseline", str(older), "--summary-md", "summary.md")
    assert "1 new" in new.stdout and f"new       toy {B}: - -> fail" in new.stdout
    assert "1 failed" in new.stdout and "1 xfailed" in new.stdout, new.stdout[-2000:]  # A still fails; B is new
    summary = (tmp_path / "summary.md").read_text()
    assert "Since the baseline: 0 regressed, 0 fixed, 1 new, 0 removed" in summary
    assert len(summary.splitlines()) < 60

    strict = run([A, B], "--baseline", str(older), "--strict-new")
    assert strict.returncode == 1 and "2 failed" in strict.stdout

    regressed = run([A, C], "--baseline", str(base))
    assert regressed.returncode == 1
    assert f"regressed toy {C}: pass -> fail" in regressed.stdout

    fixed = run([], "--baseline", str(base))
    assert fixed.returncode == 0, fixed.stdout[-2000:]
    assert f"fixed     toy {A}: fail -> pass" in fixed.stdout


def test_a_baseline_that_is_no_report_is_a_usage_error(run, tmp_path):
    (tmp_path / "bad.json").write_text("{}")
    done = run([], "--baseline", str(tmp_path / "bad.json"))
    assert done.returncode == 4 and "--baseline" in done.stderr and "no `outcomes` block" in done.stderr
