"""Findings (`conformance.findings`): the violations of a run grouped by cause, each with an
upstream report."""

from __future__ import annotations

from conformance import findings


def _case(case_id: str, outcome: str, observed, **extra) -> dict:
    return {
        "engine": "e",
        "family": "f",
        "id": case_id,
        "rule": extra.pop("rule", "transform.bucket"),
        "section": "Bucket Transform Details",
        "description": f"the case {case_id}",
        "kind": "computed",
        "outcome": outcome,
        "op": "transform",
        "input": extra.pop("input", {"transform": "bucket[16]", "type": "int", "value": 34}),
        "expected": {"output": 3},
        "observed": observed,
        "pinned": extra.pop("pinned", None),
        "decided-by": extra.pop("decided_by", None),
        "quote": extra.pop("quote", None),
        "upstream": extra.pop("upstream", None),
        "obligation": {"level": "must", "quote": "Hash of value, mod N"},
        **extra,
    }


CAUSE = "Appendix B: ints hash as longs. The engine hashes 4 bytes."
DOC = {
    "engines": {"e": {"version": "1.0", "spec": "pkg.mod:E"}},
    "vectors": {"version": "0.2.0"},
    "cases": [
        _case(
            "b/long-input",
            "known",
            9,
            decided_by=CAUSE,
            quote="ints hash as longs",
            pinned=9,
            input={"transform": "bucket[16]", "type": "int", "value": 2147483647},
        ),
        _case("b/short", "known", 4, decided_by=CAUSE, quote="ints hash as longs", pinned=4, upstream="o/r#1"),
        _case(
            "t/refused",
            "errored",
            {"error": "NotImplementedError: truncate is not supported"},
            rule="transform.truncate",
        ),
        _case("t/crash", "errored", {"error": "KeyError: 'x'", "failed": True}, rule="transform.truncate"),
        _case("t/wrong", "fail", 7, rule="transform.truncate"),
        _case("ok", "divergence", 5),
    ],
}


def test_every_violation_belongs_to_exactly_one_finding_of_its_cause():
    found = findings.findings(DOC)
    violations = [c["id"] for c in DOC["cases"] if c["outcome"] in findings.VIOLATIONS]
    assert sorted(c for f in found for c in f["cases"]) == sorted(violations)
    by_cases = {tuple(f["cases"]): f for f in found}
    recorded = by_cases[("b/long-input", "b/short")]
    assert recorded["kind"] == findings.WRONG and recorded["upstream"] == "o/r#1"
    assert recorded["smallest"] == "b/short" and recorded["quote"] == "ints hash as longs"
    assert recorded["explanation"] == CAUSE
    assert by_cases[("t/refused",)]["kind"] == findings.DECLINED
    assert by_cases[("t/crash",)]["kind"] == findings.ERROR and by_cases[("t/wrong",)]["kind"] == findings.WRONG
    assert findings.counts(found)["e"] == {
        "findings": 4,
        "cases": 5,
        "wrong answer": 2,
        "error": 1,
        "declined a required feature": 1,
    }


def test_a_finding_s_report_has_what_a_maintainer_needs(tmp_path):
    doc = {**DOC, "findings": findings.findings(DOC)}
    (path,) = [p for p in findings.write_reports(doc, tmp_path) if "bucket" in p.name]
    text = path.read_text()
    assert path.parent == tmp_path / "findings" / "e"
    for part in (
        "# e: wrong answer under transform.bucket (2 cases)",
        "e 1.0",
        '"ints hash as longs"',
        CAUSE,
        "## The smallest case: `b/short`",
        "Expected:",
        "Actual:",
        "--engine pkg.mod:E",
        "-k 'e:b/short]'",
        "- `b/long-input`",
        "o/r#1",
    ):
        assert part in text, part
