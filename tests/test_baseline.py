"""Outcomes against a baseline (conformance.baseline) and the pull-request summary
(conformance.summary_md), on small reports built here."""

from __future__ import annotations

import json

import pytest

from conformance import baseline, report, summary_md


def _report(outcomes: dict[str, dict[str, str]]) -> dict:
    """A compliance report's `outcomes`, `cells`, `totals` and `verdicts` from {engine: {case: outcome}}
    (every case in the family `bucket`)."""
    doc: dict = {"outcomes": {}, "cells": {}, "totals": {}, "verdicts": {}, "engines": {}}
    for engine, cases in outcomes.items():
        by_outcome: dict[str, list[str]] = {}
        for case, outcome in cases.items():
            by_outcome.setdefault(outcome, []).append(case)
        doc["outcomes"][engine] = {"bucket": by_outcome}
        counts = {o: len(by_outcome.get(o, [])) for o in report.OUTCOMES}
        doc["cells"][engine] = {"bucket": counts}
        doc["totals"][engine] = counts
        doc["verdicts"][engine] = report.verdict_counts(counts)
    return doc


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        ("pass", "fail", "regressed"),
        ("divergence", "errored", "regressed"),
        ("skipped", "fail", "regressed"),
        ("fail", "pass", "fixed"),
        ("known", "allowed", "fixed"),
        ("known", "fail", "unchanged"),  # another wrong answer is still a violation, not a regression
        ("pass", "divergence", "unchanged"),
        ("fail", "unsupported", "unchanged"),  # declining a case it got wrong: not judged, not fixed
        (None, "fail", "new"),
        ("pass", None, "removed"),
    ],
)
def test_change_of_two_outcomes(before, after, change):
    assert baseline.change_of(before, after) == change


def test_compare_counts_every_case_and_fails_only_on_regressions():
    old = _report({"toy": {"a": "pass", "b": "fail", "c": "pass", "d": "known"}})
    new = _report({"toy": {"a": "fail", "b": "pass", "c": "pass", "d": "known", "e": "fail"}})
    comparison = baseline.compare(old, new)
    assert comparison.counts() == {"unchanged": 2, "regressed": 1, "fixed": 1, "new": 1, "removed": 0}
    assert [c.case for c in comparison.of("regressed")] == ["a"]
    assert comparison.failed()
    assert [c.case for c in comparison.new_violations()] == ["e"]


def test_new_cases_fail_only_when_strict():
    comparison = baseline.compare(_report({"toy": {"a": "pass"}}), _report({"toy": {"a": "pass", "b": "fail"}}))
    assert not comparison.failed()
    assert comparison.failed(strict_new=True)


def test_an_engine_not_run_now_removes_nothing():
    old = _report({"toy": {"a": "pass"}, "other": {"a": "fail"}})
    comparison = baseline.compare(old, _report({"toy": {"a": "pass"}}))
    assert comparison.counts() == {"unchanged": 1, "regressed": 0, "fixed": 0, "new": 0, "removed": 0}


def test_the_command_exits_1_on_a_regression_and_2_on_a_file_that_is_no_report(tmp_path, capsys):
    old, new, bad = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "bad.json"
    old.write_text(json.dumps(_report({"toy": {"a": "pass", "b": "pass"}})))
    new.write_text(json.dumps(_report({"toy": {"a": "fail", "b": "pass"}})))
    bad.write_text(json.dumps({"format": 4}))
    assert baseline.main([str(old), str(new)]) == 1
    assert "regressed toy a: pass -> fail" in capsys.readouterr().out
    assert baseline.main([str(old), str(old)]) == 0
    assert baseline.main([str(old), str(new), "--exact"]) == 1
    assert baseline.main([str(bad), str(new)]) == 2
    assert "no `outcomes` block" in capsys.readouterr().err


def test_the_summary_names_regressions_and_links_families():
    old = _report({"toy": {"a": "pass", "b": "fail"}})
    new = _report({"toy": {"a": "fail", "b": "pass"}})
    text = summary_md.summary(
        new, {"bucket": "https://iceberg.apache.org/spec/#bucket-transform-details"}, baseline.compare(old, new)
    )
    assert "❌ **1 unexpected violation** of a must" in text
    assert "Since the baseline: 1 regressed, 1 fixed, 0 new, 0 removed" in text
    assert "| [bucket](https://iceberg.apache.org/spec/#bucket-transform-details) | 1 | 1 | 0 | 0 | 2 |" in text
    assert "- `a`: pass → fail" in text
    assert len(text.splitlines()) < 60


def test_without_a_baseline_the_summary_counts_expected_violations_and_lists_fixed_ones():
    text = summary_md.summary(_report({"toy": {"a": "known", "b": "fixed", "c": "pass"}}), {})
    assert "✅ **0 unexpected violations** of a must · 1 expected (xfail) · 1 fixed" in text
    assert "**Fixed (the expectation entry can go)**" in text and "- `b`: known → fixed" in text


def test_family_links_take_the_section_most_cases_cite():
    rules = {"r1": {"sections": [{"url": "u1"}]}, "r2": {"sections": [{"url": "u2"}]}}
    families = {"f": [{"rule": "r1"}, {"rule": "r2"}, {"rule": "r2"}], "g": [{"rule": "unknown"}]}
    assert summary_md.family_links(families, rules) == {"f": "u2"}
