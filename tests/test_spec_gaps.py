"""The spec-gaps report (`conformance/spec_gaps.py`): every open question the vectors ask, how each
engine of a run answers it, in JSON that follows its schema and a page Chromium renders."""

from __future__ import annotations

import json
import re
import subprocess
from types import SimpleNamespace

import jsonschema
import pytest

from spec_impl.obligations import QUESTIONS

from conformance import spec_gaps
from conformance.report import Recorder
from conformance.vectors import load_families

from tests.test_report_page import _chromium


def _slot(name: str) -> SimpleNamespace:
    engine = SimpleNamespace(version="1.0", revision="v3-adopted", protocol=2, capabilities={"evaluate-predicate"})
    return SimpleNamespace(
        name=name, engine=engine, started=True, unavailable=None, broken=None, seconds=1.0, restarts=0
    )


@pytest.fixture(scope="module")
def run() -> tuple[dict, dict]:
    """A run of three engines over the predicates family: `a` answers every case as the reference,
    `b` reads every open question otherwise, `c` answers nothing (cases asking one question at most)."""
    families = {"predicates": [c for c in load_families()["predicates"] if len(spec_gaps.questions_of(c)) <= 1]}
    recorder = Recorder()
    for case in families["predicates"]:
        questions = spec_gaps.questions_of(case)
        recorder.record_case("a", "predicates", case, "pass" if "output" in case["expected"] else "rejected")
        if questions:
            recorder.record_case(
                "b", "predicates", case, "divergence", [True], "otherwise", answered=True, question=questions[0]
            )
        else:
            recorder.record_case("b", "predicates", case, "pass" if "output" in case["expected"] else "rejected")
    runner = SimpleNamespace(slots={n: _slot(n) for n in ("a", "b", "c")})
    doc = recorder.build(runner, provenance={})
    return doc, families


def test_each_question_a_case_asks_is_listed_with_each_engines_answers(run):
    doc, families = run
    report = spec_gaps.build(doc, families)
    jsonschema.Draft202012Validator(json.loads(spec_gaps.SCHEMA_FILE.read_text())).validate(report)
    asked = {q for c in families["predicates"] for q in spec_gaps.questions_of(c)}
    assert asked and {q["id"] for q in report["questions"]} == asked
    for q in report["questions"]:
        assert q["asks"] == QUESTIONS[q["id"]].asks and q["clarification"] and q["sentences"]
        assert q["answers"]["b"]["otherwise"] > 0 and q["answers"]["a"]["otherwise"] == 0 and "c" not in q["answers"]
        assert q["engines-otherwise"] == ["b"] and q["contested"]
    assert report["contested"] == len(asked)


def test_a_question_no_engine_reads_otherwise_is_not_contested(run):
    doc, families = run
    quiet = {**doc, "cases": [c for c in doc["cases"] if c["engine"] != "b"]}
    report = spec_gaps.build(quiet, families)
    assert report["contested"] == 0 and all(not q["engines-otherwise"] for q in report["questions"])


def test_the_page_renders_every_question(run, tmp_path):
    doc, families = run
    paths = spec_gaps.write(doc, families, tmp_path)
    page = next(p for p in paths if p.suffix == ".html")
    command = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,900",
        "--dump-dom",
        page.as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120).stdout
    report = json.loads((tmp_path / "spec-gaps.json").read_text())
    sections = re.findall(r"<section class=\"q[^\"]*\" id=\"([^\"]+)\"", dom)
    assert sections == [q["id"] for q in report["questions"]]
    assert "Proposed clarification" in dom
