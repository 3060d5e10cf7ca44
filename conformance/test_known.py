"""The judge's ledger files (vectors/known/engines/<engine>.json) are well-formed: real cases, a
reason for each, and the observation each entry pins (any engine may be named, built-in or
third-party). A project's `--expectations` file is not one of them: it is checked against the
expectations format when the run starts (`conformance.expectations`)."""

from __future__ import annotations

import re

from conformance import known
from conformance.vectors import load_families
from spec_impl.resources import known_engine_files


def test_every_entry_names_a_case_and_a_reason_and_pins_an_observation():
    ids = {c["id"] for cases in load_families().values() for c in cases}
    for (engine, case), d in known.builtin().items():
        assert engine.strip(), case
        assert case in ids, f"{engine}: {case} is no longer a vector case"
        assert d.decided_by.strip() and d.observed.strip() and d.expected.strip()
        assert d.is_pinned, (
            f"{engine} {case}: pin what the engine answers (returned or raised): "
            "pytest --record-observations, then python -m conformance.known_pin"
        )
        if d.raised is not None:
            re.compile(d.raised)


def test_every_entry_has_a_registered_rule():
    """A ledger entry leads to its rule (its case's, unless written): a grep by rule finds it."""
    from spec_impl.rules import rule

    for (engine, case), d in known.builtin().items():
        assert d.rule and rule(d.rule).id == d.rule, (engine, case, d.rule)
    table = next(d for (_, case), d in known.builtin().items() if case.startswith("table."))
    assert not table.rule.startswith("table."), table.rule  # a table snapshot's rule, not its id


def test_scopes_name_engines_and_ops():
    for scope in (s for path in known_engine_files() for s in known.scopes(path)):
        assert scope.engine.strip() and scope.ops and scope.types and scope.decided_by


def test_every_entry_is_a_violation_the_spec_words_support():
    """An entry stays only while it cites the sentence its engine contradicts, and its pinned answer
    breaks a `must` of the case (or falls outside an `allowed` set): judged again under the case's
    obligation, it is a failure, never a divergence or an allowed difference."""
    from conformance.engines.golden_tables import without_columns
    from conformance.judge import DIVERGENCE, ALLOWED, judge

    cases = {c["id"]: c for cases in load_families().values() for c in cases}
    credited = []
    for (engine, case_id), d in known.builtin().items():
        assert d.document and d.quote and len(d.quote) >= 10, (
            f"{engine} {case_id}: cite the document and the sentence (quote)"
        )
        case, answer = cases[case_id], d.answer()
        lineage = not (
            answer.ok and isinstance(answer.output, dict) and "_row_id" not in answer.output.get("columns", ["_row_id"])
        )
        view = (
            (lambda op, out: out) if lineage else (lambda op, out: without_columns(out) if op == "read-table" else out)
        )
        revision = "2024-seed" if case_id.endswith("@2024-seed") else "v3-adopted"
        verdict = judge(case, answer, revision, view)
        if verdict.outcome in (DIVERGENCE, ALLOWED):
            credited.append(f"{engine} {case_id}: {verdict.outcome}: {verdict.message}")
    assert not credited, "entries the spec does not support as findings (remove them):\n" + "\n".join(credited[:20])


def _metrics_input(mode: str, counts: dict, literal, type_name: str = "float") -> dict:
    return {
        "fields": [{"name": "x", "type": type_name}],
        "predicate": {"type": "lt", "term": "x", "value": literal},
        "mode": mode,
        "metrics": {"x": counts},
    }


def test_planning_conditions_read_the_predicate_and_metrics():
    strict = _metrics_input("strict", {"value_count": 3}, 1.0)
    assert known.CONDITIONS["strict-without-null-count"](strict)
    assert not known.CONDITIONS["strict-without-null-count"]({**strict, "mode": "inclusive"})
    assert not known.CONDITIONS["strict-without-null-count"](
        _metrics_input("strict", {"value_count": 3, "null_value_count": 0}, 1.0)
    )
    assert known.CONDITIONS["infinite-literal"](_metrics_input("inclusive", {}, {"ieee754": "7f800000"}))
    assert not known.CONDITIONS["infinite-literal"](_metrics_input("inclusive", {}, 1.5))

    def starts_with(literal: str) -> dict:
        predicate = {"type": "starts-with", "term": "x", "value": literal}
        return {"fields": [{"name": "x", "type": "string"}], "predicate": predicate}

    assert known.CONDITIONS["starts-with-beyond-bmp"](starts_with("a😀"))
    assert not known.CONDITIONS["starts-with-beyond-bmp"](starts_with("aé"))


def test_a_planning_scope_covers_by_its_inputs_column_type_or_any():
    scope = known.Scope("e", ("evaluate-metrics",), ("*",), "why", "strict-without-null-count")
    assert scope.covers("e", "evaluate-metrics", _metrics_input("strict", {}, 1, "int"))
    assert not scope.covers("e", "evaluate-manifest", _metrics_input("strict", {}, 1, "int"))
    typed = known.Scope("e", ("evaluate-metrics",), ("float",), "why", "infinite-literal")
    assert typed.covers("e", "evaluate-metrics", _metrics_input("strict", {}, {"ieee754": "ff800000"}))
    assert not typed.covers("e", "evaluate-metrics", _metrics_input("strict", {}, 2, "int"))
