"""The scale benchmark's synthetic table (benchmarks/scale_table.py) is valid, and the script's quick
mode runs end to end (benchmarks/bench_scale.py; the full run is `make bench`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import scale_table  # noqa: E402

from spec_impl.validate.cli import main as validate_table  # noqa: E402


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    return scale_table.write_table(tmp_path_factory.mktemp("scale"), 250, entries_per_manifest=100)


def test_table_validates_clean(table, capsys):
    assert validate_table([str(table), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_table_has_deletes_in_several_manifests(table):
    data = list((table.parent.parent / "data").rglob("*.parquet"))
    names = [p.name for p in data]
    assert sum(n[0].isdigit() for n in names) == 250
    assert sum(n.startswith("pos-") for n in names) == 25
    assert sum(n.startswith("eq-") for n in names) == 3  # one per partition of 100 data files
    assert len(list(table.parent.glob("data-*.avro"))) == 3


def test_planning_stages_agree_on_the_table(table):
    from scale_table_stages import plan, pyiceberg_plan

    plan(table)  # each asserts the deletes it finds
    pyiceberg_plan(table)


@pytest.mark.skipif(shutil.which("java") is None, reason="Iceberg Java's planning needs a JDK (java) on PATH")
def test_iceberg_java_plans_every_data_file_with_its_deletes(table):
    from scale_table_stages import java_plan

    seconds, peak = java_plan(table)  # asserts every data file planned, with its equality and position deletes
    assert seconds > 0 and peak > 0


def test_quick_mode_runs(tmp_path):
    out = tmp_path / "bench_scale.json"
    args = ["--quick", "--sizes", "100", "--manifest-sizes", "100", "--table-sizes", "100", "--json", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BENCHMARKS.parent), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_scale.py"), *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(out.read_text())
    (row,) = doc["table"]["tables"]
    assert row["files"] == 111 and all(row[stage]["seconds"] > 0 for stage in ("validate", "plan", "pyiceberg-plan"))
    assert doc["table"]["audit"] is None
