"""Every vector case carries an obligation (`spec_impl.obligations`) the spec's words support:
a `must` cites a sentence found in the spec texts, an `allowed` case names a registered allowance
and states its set, a `reading` names a registered question with its alternatives."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spec_impl.obligations import ALLOWANCES, LEVELS, QUESTIONS, obligation_for, role_of
from spec_impl.obligations.assign import decisions
from spec_impl.obligations.levels import CHECKS, INCLUSIVE, STRICT
from spec_impl.resources import vectors_dir
from spec_impl.ops.registry import OPS
from spec_impl.vectors.spec_sections import normalize

SPEC_DIR = Path(__file__).parents[2] / "shared" / "spec"


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    if not SPEC_DIR.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the spec texts are missing: {SPEC_DIR} (CI must provide them to verify the quotes)")
        pytest.skip(f"the spec texts are not here ({SPEC_DIR}): quotes cannot be verified")
    return {p.name: normalize(p.read_text(encoding="utf-8")) for p in SPEC_DIR.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    """Every case of vectors/: the family files' cases and the golden tables' snapshots."""
    out = []
    for path in sorted(vectors_dir().glob("*/*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "cases" in doc:
            out += doc["cases"]
    for path in sorted(vectors_dir().glob("tables/*/case.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        out += [{**s, "id": f"table.{doc['id']}/snapshot-{s['snapshot-id']}"} for s in doc["snapshots"]]
    assert len(out) > 3000
    return out


def test_every_case_carries_an_obligation(cases):
    missing = [c["id"] for c in cases if c.get("obligation", {}).get("level") not in LEVELS]
    assert not missing, f"{len(missing)} cases without an obligation, e.g. {missing[:5]}"


def test_every_must_and_allowed_case_cites_a_sentence_of_the_spec(cases, texts):
    absent = sorted(
        {
            (c["obligation"]["document"], c["obligation"]["quote"])
            for c in cases
            if c["obligation"]["level"] != "reading" or "quote" in c["obligation"]
            if normalize(c["obligation"]["quote"]) not in texts.get(c["obligation"]["document"], "")
        }
    )
    assert not absent, f"quotes not found in their spec text: {absent[:5]}"


def test_every_reading_names_a_registered_question_and_its_alternatives(cases):
    for c in cases:
        o = c["obligation"]
        for row in o.get("open-rows", []):
            assert row["question"] in QUESTIONS, c["id"]
        if o["level"] == "reading":
            q = QUESTIONS[o["question"]]
            assert o["asks"] == q.asks and o["alternatives"] == list(q.alternatives) and len(q.alternatives) >= 2, c[
                "id"
            ]


def test_every_allowed_case_names_a_registered_allowance_and_states_its_set(cases):
    for c in cases:
        o = c["obligation"]
        if o["level"] == "allowed":
            assert o["allowance"] in ALLOWANCES, c["id"]
            assert o["check"]["kind"] in CHECKS, c["id"]
            if o["check"]["kind"] == "one-of":
                assert o["check"]["answers"][0] == c["expected"], f"{c['id']}: the reference's answer comes first"


def test_questions_and_allowances_quote_the_spec(texts):
    for q in QUESTIONS.values():
        assert q.asks.strip() and q.reference.strip() and q.clarification.strip(), q.id
        for document, quote in q.sentences:
            assert normalize(quote) in texts[document], (q.id, quote)
    for a in ALLOWANCES.values():
        assert normalize(a.quote) in texts[a.document], (a.id, a.quote)


def test_every_decision_names_a_case_of_the_vectors(cases):
    ids = {c["id"] for c in cases}
    unknown = sorted(set(decisions()) - ids)
    assert not unknown, f"decisions.json names cases that are not in the vectors: {unknown[:5]}"


def test_every_op_has_a_role():
    for op in OPS:
        assert role_of(op) in ("reader", "validator", "writer", "computation")
    with pytest.raises(KeyError, match="no role"):
        role_of("no-such-op")


def _case(case_id: str, cases: list[dict]) -> dict:
    return next(c for c in cases if c["id"] == case_id)


def test_the_levels_follow_the_spec_words(cases):
    """Spot checks, each with the sentence that decides it."""
    # "Implementations must throw an exception if a table's version is higher than the supported version."
    assert _case("table.format-version/format-version-99", cases)["obligation"] | {"quote": ""} == {
        "level": "must",
        "rejected-by": "reader",
        "quote": "",
        "document": "000_60deb644de29d3e6.txt",
        "section": _case("table.format-version/format-version-99", cases)["obligation"]["section"],
    }
    # "The types below are not currently valid for bucketing, and so are not hashed."
    assert _case("hash.floating/appendix-b-float-1.0", cases)["obligation"]["allowance"] == "hash.not-bucketable"
    # "may be skipped": a file kept that the metrics rule out is no error.
    pruning = [c for c in cases if c.get("op") == "evaluate-metrics"]
    assert {c["obligation"]["check"]["kind"] for c in pruning if c["obligation"]["level"] == "allowed"} == {
        INCLUSIVE,
        STRICT,
    }
    # the others hinge on the sign of a zero (an input form) or were decided reading the spec
    from spec_impl.obligations.input_forms import question_of

    assert all(
        c["id"] in decisions() or question_of(c) in ("predicate.signed-zero", "uuid.order")
        for c in pruning
        if c["obligation"]["level"] != "allowed"
    )
    # A reader has no duty to reject a document that breaks a writer rule; a validator must.
    required = [c for c in cases if c.get("rule") == "table.required-field" and "error" in c["expected"]]
    assert required and all(
        c["obligation"]["level"] == "allowed" and c["obligation"]["rejected-by"] == "validator"
        for c in required
        if c["id"] not in decisions()
    )


def test_open_rows_are_the_rows_with_a_null_nan_or_signed_zero_operand():
    case = {
        "id": "x/y",
        "rule": "expression.evaluate",
        "op": "evaluate-predicate",
        "expected": {"output": [False, False, False]},
        "input": {
            "schema": {"type": "struct", "fields": [{"id": 1, "name": "f", "required": False, "type": "double"}]},
            "predicate": {"type": "lt-eq", "term": "f", "value": 0.0},
            "rows": [
                {"f": 1.0},
                {"f": None},
                {"f": {"ieee754": "7ff8000000000000"}},
                {"f": {"ieee754": "8000000000000000"}},
            ],
        },
    }
    assert obligation_for(case)["open-rows"] == [
        {"row": 1, "question": "predicate.null-operand"},
        {"row": 2, "question": "predicate.nan-operand"},
        {"row": 3, "question": "predicate.signed-zero"},
    ]


def test_the_audits_known_findings_have_a_level_and_quote_the_spec(texts):
    from conformance.audit.known import known_findings

    for k in known_findings():
        assert k.level in ("violation", "divergence", "allowed"), k.id
        assert normalize(k.quote) in texts[k.document], (k.id, k.quote)
        if k.level == "divergence":
            assert k.question in QUESTIONS, k.id


def test_every_known_violation_quotes_the_sentence_it_breaks(texts):
    """vectors/known/engines/*.json: each entry's quote occurs in its spec text (that the
    entry is a violation under its case's obligation is conformance/test_known.py's check)."""
    from conformance import known

    absent = [
        (engine, case, d.quote)
        for (engine, case), d in known.load().items()
        if not d.quote or normalize(d.quote) not in texts.get(d.document or "", "")
    ]
    assert not absent, f"{len(absent)} entries whose quote is not in their spec text, e.g. {absent[:3]}"


def test_the_writer_harness_known_findings_quote_the_spec(texts):
    """A writer finding judged against a rule of the spec quotes it verbatim from the file it names
    (the others are judged against the meaning of the writer's operation)."""
    from conformance.writer_harness.harness import KNOWN_PATH

    quoted = 0
    for entry in json.loads(KNOWN_PATH.read_text(encoding="utf-8"))["entries"]:
        rule = entry["rule"]
        if rule["kind"] == "spec":
            assert normalize(rule["quote"]) in texts[rule["file"]], (entry["id"], rule["quote"])
            quoted += 1
    assert quoted >= 30


def test_a_must_transform_case_quotes_what_decides_its_kind_of_input():
    """The null-input sentence decides null inputs only: a transform of a non-null value quotes
    what decides it (the transform's description, or its rule's own sentence), never that one."""
    from conformance.vectors import load_families
    from spec_impl.obligations.assign import NULL_INPUT

    by_kind: dict[bool, set] = {True: set(), False: set()}
    for cases in load_families().values():
        for c in cases:
            o = c.get("obligation") or {}
            if c["op"] == "transform" and o.get("level") == "must" and "output" in c["expected"]:
                by_kind[c["input"].get("value") is None].add(o["quote"])
    assert by_kind[True] and by_kind[False]
    assert NULL_INPUT not in by_kind[False], "a non-null transform case quotes the null-input sentence"
    assert not by_kind[True] & by_kind[False] - {None}, by_kind[True] & by_kind[False]


def test_a_random_tests_case_of_a_vectors_input_carries_the_vectors_obligation(cases):
    """Issue: the random tests and the vectors followed different obligations for the same input
    (a decision recorded for a case id never reached a random case). Every answered input of a
    value or planning op, fed through the random tests' case builder, gets the vector case's
    level and question."""
    from spec_impl.vectors.random_cases import PLANNING_OPS, VALUE_OPS, random_case

    judged, differ = 0, []
    for c in cases:
        if c.get("op") not in VALUE_OPS + PLANNING_OPS or "output" not in c["expected"]:
            continue
        judged += 1
        random = random_case(0, c["op"], c["input"], c["expected"], c["revisions"][0])["obligation"]
        if (random["level"], random.get("question")) != (c["obligation"]["level"], c["obligation"].get("question")):
            differ.append((c["id"], c["obligation"]["level"], random["level"]))
    assert judged > 2000 and differ == [], differ[:10]


def test_no_decision_is_recorded_for_a_case_an_input_form_decides(cases):
    """A case-by-case decision would be invisible to a random test of the same input: the
    question of an input form is decided for the form (`spec_impl.obligations.input_forms`)."""
    from spec_impl.obligations.input_forms import question_of

    by_id = {c["id"]: c for c in cases if "op" in c}
    shadowed = [i for i in decisions() if i in by_id and question_of(by_id[i]) is not None]
    assert shadowed == []


def test_the_signed_zero_reading_changes_only_float_and_double_bounds():
    """-0.0's bytes are a long's minimum too: "-0.0 = +0.0" rewrites the bounds of the double column
    and leaves the long's, also when both stand in one input."""
    from spec_impl.obligations.input_forms import zeros_as_positive

    neg = "0000000000000080"
    inp = {
        "schema": {"fields": [{"id": 1, "name": "x", "type": "long"}, {"id": 2, "name": "f", "type": "double"}]},
        "metrics": {"x": {"lower_bound": neg}, "f": {"lower_bound": neg}},
        "predicate": {"term": "f", "type": "lt", "value": {"ieee754": "8000000000000000"}},
    }
    seen = zeros_as_positive(inp)
    assert seen["metrics"] == {"x": {"lower_bound": neg}, "f": {"lower_bound": "0000000000000000"}}
    assert seen["predicate"]["value"] == 0.0
