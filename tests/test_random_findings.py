"""Random inputs that expose a finding become vectors (issue 29, item 4): the random tests write
them to `random-findings.json` and name the command, `iceberg-vectors adopt-random` adds them to
`vectors/sources/random/findings.json` (deduplicated by content, with where they were found), and
the generator makes them ordinary cases that the reference passes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.engines.reference.adapter import ReferenceEngine
from conformance.judge import CREDITED, judge
from spec_impl.obligations import READING
from spec_impl.vectors import random_findings as rf
from spec_impl.vectors.cases import build_all
from spec_impl.vectors.families import SETS
from spec_impl.vectors.random_cases import PLANNING_OPS, VALUE_OPS
from spec_impl.resources import vectors_dir

ROOT = Path(__file__).resolve().parents[1]
LONG_MIN = -(2**63)
TS_NS = {"type": "timestamp_ns", "value": "1970-01-01T00:00:00.000000086"}
OVERFLOW = {  # the long minimum under truncate[3]: the reference rejects it (transform.overflow)
    "schema": {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": "long"}]},
    "spec": [{"name": "p", "source": "x", "transform": "truncate[3]"}],
    "predicate": {"type": "not-eq", "term": "x", "value": 5},
    "mode": "inclusive",
    "rows": [{"x": LONG_MIN}, {"x": 3}],
}
OPEN_JSON = {"type": "date", "value": "+10000-01-01"}  # value.calendar-range


def _finding(op: str, inp: dict, engine: str = "toy", verdict: str = "fail") -> dict:
    return {"engine": engine, "engine-version": "1.0", "revision": "v3-adopted", "op": op, "input": inp,
            "answer": 1, "verdict": verdict, "message": "", "known": None}  # fmt: skip


def _file(*findings: dict, seed: int = 7) -> dict:
    return {"format": 1, "seed": seed, "date": "2026-11-26", "findings": list(findings)}


def _cases(source: Path, ops: tuple[str, ...]) -> list[dict]:
    return build_all(rf.specs(ops, source))


def test_adopted_inputs_become_cases_the_reference_passes(tmp_path):
    source = tmp_path / "random-findings.json"
    done = rf.adopt(_file(_finding("to-json", TS_NS), _finding("project-predicate", OVERFLOW)), source)
    assert len(done.added) == 2 and not done.skipped
    reference = ReferenceEngine()
    for ops in (VALUE_OPS, PLANNING_OPS):
        for case in _cases(source, ops):
            (answer,) = reference.run_batch(case["op"], [case])
            assert judge(case, answer, reference.revision).outcome in CREDITED, case["id"]
    (value,) = _cases(source, VALUE_OPS)
    assert value["id"] == f"json.timestamp/random-{rf.content_id('to-json', TS_NS)}"
    assert value["expected"] == {"output": "1970-01-01T00:00:00.000000086"}
    assert value["obligation"]["level"] == "must"


def test_an_input_the_reference_rejects_is_a_rejection_case_as_the_random_test_treats_it(tmp_path):
    """The property test credits a rejection and notes any other answer (the spec defines none):
    the case expects the rejection, and its obligation is the reading of an undefined input."""
    source = tmp_path / "random-findings.json"
    rf.adopt(_file(_finding("project-predicate", OVERFLOW, verdict="errored")), source)
    (case,) = _cases(source, PLANNING_OPS)
    assert case["expected"] == {"error": "transform.overflow"} and case["rule"] == "transform.overflow"
    assert case["obligation"]["level"] == READING


def test_an_input_the_spec_leaves_open_is_skipped_with_its_reason(tmp_path):
    source = tmp_path / "random-findings.json"
    done = rf.adopt(_file(_finding("to-json", OPEN_JSON, engine="pyiceberg")), source)
    assert not done.added and len(done.skipped) == 1
    assert "value.calendar-range" in done.skipped[0][1]
    assert rf.read_source(source)["inputs"] == []


def test_adoption_deduplicates_by_content_and_keeps_every_origin(tmp_path):
    source = tmp_path / "random-findings.json"
    rf.adopt(_file(_finding("to-json", TS_NS), _finding("to-json", dict(reversed(TS_NS.items())))), source)
    again = rf.adopt(_file(_finding("to-json", TS_NS)), source)
    other = rf.adopt(_file(_finding("to-json", TS_NS, engine="other"), seed=8), source)
    assert not again.added and again.seen and not other.added
    (entry,) = rf.read_source(source)["inputs"]
    assert [(o["engine"], o["seed"]) for o in entry["found-by"]] == [("toy", 7), ("other", 8)]


def test_ids_are_stable_hashes_of_the_op_and_the_input():
    assert rf.content_id("to-json", TS_NS) == rf.content_id("to-json", dict(reversed(TS_NS.items())))
    assert rf.content_id("to-json", TS_NS) != rf.content_id("from-json", TS_NS)
    assert len(rf.content_id("to-json", TS_NS)) == 16


def test_only_the_ops_asked_for_are_adopted(tmp_path):
    source = tmp_path / "random-findings.json"
    done = rf.adopt(_file(_finding("to-json", TS_NS), _finding("project-predicate", OVERFLOW)), source, ["to-json"])
    assert len(done.added) == 1 and [e["op"] for e in rf.read_source(source)["inputs"]] == ["to-json"]


@pytest.mark.parametrize("set_name", ["values", "planning"])
def test_the_committed_families_are_what_the_committed_source_generates(set_name):
    """`iceberg-vectors check` for the two families: their files are the source's cases."""
    (family,) = [f for f in SETS[set_name] if f.NAME.startswith("random-")]
    committed = json.loads((vectors_dir() / set_name / f"{family.NAME}.json").read_text(encoding="utf-8"))
    assert committed["cases"] == build_all(family.specs())
    assert committed["cases"], "the source is seeded with the findings of the release's seed"


TOY = '''
from conformance.engines.reference.adapter import ReferenceEngine


class WrongBinary(ReferenceEngine):
    """The reference, but every int's binary form is four zero bytes."""

    name = "wrong-binary"

    def answer(self, op, inp):
        out = super().answer(op, inp)
        return "00000000" if op == "to-binary" and inp["type"] == "int" and out != "00000000" else out
'''


def test_a_failing_random_test_writes_the_inputs_and_names_the_adopting_command(tmp_path):
    (tmp_path / "toy_engine.py").write_text(TOY)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-k", "to-binary",
               str(ROOT / "conformance" / "test_random_values.py"), "--engine", "toy_engine:WrongBinary",
               "--compliance-report", str(tmp_path / "report")]  # fmt: skip
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout[-3000:]
    written = tmp_path / "report" / "random-findings.json"
    assert f"iceberg-vectors adopt-random {written}" in done.stdout
    doc = json.loads(written.read_text(encoding="utf-8"))
    assert doc["seed"] is not None and doc["findings"]
    assert {(f["engine"], f["op"], f["input"]["type"], f["known"]) for f in doc["findings"]} == {
        ("wrong-binary", "to-binary", "int", None)
    }
    source = tmp_path / "source.json"
    assert rf.adopt(doc, source).added
    for case in _cases(source, VALUE_OPS):
        assert case["rule"] == "binary.fixed-width" and case["obligation"]["level"] == "must"


def test_the_command_adopts_a_findings_file_and_says_what_it_did(tmp_path, capsys):
    from spec_impl.vectors.cli import main

    findings = tmp_path / "random-findings.json"
    findings.write_text(json.dumps(_file(_finding("to-json", TS_NS), _finding("to-json", OPEN_JSON))), encoding="utf-8")
    root = tmp_path / "vectors"
    assert main(["--root", str(root), "adopt-random", str(findings), "--op", "to-json", "--op", "hash"]) == 0
    out = capsys.readouterr().out
    assert "1 inputs added, 0 already there, 1 skipped" in out and "value.calendar-range" in out
    assert [e["op"] for e in rf.read_source(root.joinpath(*rf.SOURCE_PATH))["inputs"]] == ["to-json"]
    assert main(["--root", str(root), "adopt-random", str(tmp_path / "missing.json")]) == 2
