"""An engine project's expectation files (`conformance.expectations`): the ledger's engine-file
format, in JSON or TOML, read by the one loader; how an expectation decides a verdict; what
`--update-expectations` writes."""

from __future__ import annotations

import json

import pytest

from conformance import expectations, known, ledger
from conformance.engines.base import EngineAnswer
from conformance.judge import FAIL, FIXED, KNOWN, PASS, Verdict
from spec_impl.resources import known_engine_file, known_engine_files

CASE_A, CASE_B = "transform.bucket/int-appendix-b-bucket-16", "transform.bucket/long-appendix-b-bucket-16"
JSON_FILE = {
    "engine": "toy",
    "entries": [
        {"where": {"rule": "transform.truncate*"}, "level": "divergence", "reason": "reads truncate otherwise"},
        {"where": {"case": CASE_A}, "level": "violation", "reason": "hashes ints as longs", "upstream": "me/toy#1"},
    ],
}
TOML_FILE = f"""engine = "toy"

[[entries]]
where = {{ rule = "transform.truncate*" }}
level = "divergence"
reason = "reads truncate otherwise"

[[entries]]
where = {{ case = "{CASE_A}" }}
level = "violation"
reason = "hashes ints as longs"
upstream = "me/toy#1"
"""


@pytest.fixture
def project_files():
    yield known.use_files
    known.use_files([])


def test_a_json_and_a_toml_file_are_the_same_document(tmp_path):
    (tmp_path / "e.json").write_text(json.dumps(JSON_FILE))
    (tmp_path / "e.toml").write_text(TOML_FILE)
    assert ledger.parse(tmp_path / "e.json") == ledger.parse(tmp_path / "e.toml") == JSON_FILE
    assert expectations.file_errors(tmp_path / "e.json") == expectations.file_errors(tmp_path / "e.toml") == []


def test_a_file_that_breaks_the_schema_is_named_with_the_entry(tmp_path):
    bad = {"engine": "toy", "entries": [{"where": {"case": CASE_A}, "level": "wrong", "reason": "r"}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert any(e.startswith("entries/0") for e in expectations.file_errors(tmp_path / "bad.json"))
    (tmp_path / "nameless.json").write_text(json.dumps({"entries": []}))
    assert "names its engine" in expectations.file_errors(tmp_path / "nameless.json")[0]
    assert "not readable" in expectations.file_errors(tmp_path / "missing.toml")[0]


def test_the_built_in_files_load_as_a_project_file_does(project_files):
    built_in = known.load()
    project_files([known_engine_file("pyiceberg")])
    assert known.active_files()[-1] == known_engine_file("pyiceberg")
    assert len(known.active_files()) == len(known_engine_files())
    assert known.load() == built_in


def test_a_project_file_takes_the_place_of_its_engine_s_built_in_file(project_files, tmp_path):
    (tmp_path / "pyiceberg.json").write_text(json.dumps({**JSON_FILE, "engine": "pyiceberg"}))
    project_files([tmp_path / "pyiceberg.json"])
    assert not [k for k, d in known.load().items() if k[0] == "pyiceberg" and not d.is_expectation]
    truncate = {"id": "transform.truncate/x", "rule": "transform.truncate"}
    assert known.entry_for("pyiceberg", truncate).level == "divergence"
    assert known.entry_for("duckdb", truncate) is None


@pytest.mark.parametrize(
    ("level", "verdict", "decided"),
    [
        ("violation", FAIL, KNOWN),  # whatever wrong answer it gives
        ("violation", PASS, FIXED),  # listed, the run stays green
        ("violation", "divergence", FIXED),
        ("divergence", "divergence", "divergence"),
        ("divergence", PASS, PASS),
        ("divergence", FAIL, FAIL),  # an expected divergence excuses no violation
        ("allowed", "errored", "errored"),
    ],
)
def test_an_expectation_decides_by_the_level_of_the_verdict(level, verdict, decided):
    entry = known.from_entry({"where": {"engine": "toy", "case": CASE_A}, "level": level, "reason": "why"})
    got = known.decide(Verdict(verdict, "msg"), entry, {"id": CASE_A}, EngineAnswer(True, 1))
    assert got.outcome == decided
    assert decided == verdict or "why" in got.message


def _report(outcomes: dict[str, list[str]], messages: dict[str, str]) -> dict:
    return {
        "outcomes": {"toy": {"transform": outcomes}},
        "cases": [{"engine": "toy", "id": i, "message": m} for i, m in messages.items()],
    }


def test_an_update_keeps_reasons_drops_fixed_entries_and_adds_new_ones_in_order():
    rules = {CASE_A: "transform.bucket", CASE_B: "transform.bucket", "t/1": "transform.truncate"}
    base = {"$schema": "x", **JSON_FILE}
    doc = _report({"fixed": [CASE_A], "fail": [CASE_B], "divergence": ["t/1"]}, {CASE_B: "expected 3,\n got 4"})
    written, lines = expectations.updated(base, "toy", doc, rules)
    assert written == {
        "$schema": "x",
        "engine": "toy",
        "entries": [
            JSON_FILE["entries"][0],  # its case still diverges: kept, with its reason
            {"where": {"case": CASE_B}, "level": "violation", "reason": "fail: expected 3, got 4"},
        ],
    }
    assert f"  dropped   toy {CASE_A}: now fixed" in lines
    again, _ = expectations.updated(written, "toy", doc, rules)
    assert again == written  # nothing changed, nothing moves


def test_an_update_keeps_the_entries_of_cases_the_run_did_not_judge():
    doc = _report({"unsupported": [CASE_A]}, {})
    written, lines = expectations.updated(JSON_FILE, "toy", doc, {CASE_A: "transform.bucket"})
    assert written["entries"] == JSON_FILE["entries"] and lines == []


def test_a_random_test_gets_an_entry_only_for_rules_no_expected_case_covers():
    rules = {CASE_B: "transform.bucket"}

    def row(op: str, disagreeing: list[str]) -> dict:
        return {"engine": "toy", "op": op, "outcome": "fail", "message": "disagrees", "disagreeing-rules": disagreeing}

    doc = _report({"fail": [CASE_B]}, {CASE_B: "expected 3, got 4"})
    doc["random-values"] = [row("transform", ["transform.bucket"]), row("hash", ["hash.integer"])]
    written, lines = expectations.updated({"engine": "toy", "entries": []}, "toy", doc, rules)
    cases = [e["where"]["case"] for e in written["entries"]]
    assert cases == ["random/hash", CASE_B], cases  # transform's disagreements are all of transform.bucket
    assert "  added     toy random/hash: violation" in lines
