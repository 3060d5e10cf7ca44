"""The release view of `conformance/release_matrix.py`: each cause with the releases that show it,
a recorded case under its ledger entry's cause in every release, an unrecorded one under its rule
and kind."""

from __future__ import annotations

from conformance import known
from conformance import release_matrix as matrix

RECORDED = "binary.promoted-bound/from-timestamp-4e440000@v3-adopted"


def _report(*cases: dict) -> dict:
    return {"engines": {"iceberg-java": {"version": "x"}}, "cases": list(cases)}


def _case(case_id: str, outcome: str, observed=None, rule: str = "json.timestamp") -> dict:
    return {"engine": "iceberg-java", "id": case_id, "outcome": outcome, "observed": observed, "rule": rule}


def test_a_recorded_case_keeps_its_cause_in_every_release_and_a_fixed_one_leaves_it():
    entry = known.builtin()[("iceberg-java", RECORDED)]
    refused = {"error": "java.lang.UnsupportedOperationException: Type: timestamp_ns is not supported"}
    reports = {
        "1.9.2": _report(_case(RECORDED, "fail", "1970-01-01"), _case("json.timestamp/a", "errored", refused)),
        "1.12.0": _report(_case(RECORDED, "known"), _case("json.timestamp/a", "pass")),
    }
    view = matrix.release_view("iceberg-java", reports)
    by_cause = {row["cause"]: row for row in view["causes"]}
    assert by_cause[entry.decided_by]["shown-by"] == ["1.9.2", "1.12.0"]
    gap = by_cause["json.timestamp · declined a required feature (not recorded at the newest release)"]
    assert gap["shown-by"] == ["1.9.2"] and gap["releases"] == {"1.9.2": ["json.timestamp/a"], "1.12.0": []}
    assert view["versions"] == {"1.9.2": "x", "1.12.0": "x"}


def test_a_pass_or_a_divergence_is_no_finding_of_any_release():
    view = matrix.release_view("iceberg-java", {"1.12.0": _report(_case("a/b", "pass"), _case("a/c", "divergence"))})
    assert view["causes"] == []


def test_the_view_reads_at_a_glance():
    reports = {"1.9.2": _report(_case("json.timestamp/a", "fail", "x")), "1.12.0": _report()}
    view = matrix.release_view("iceberg-java", reports)
    md, page = matrix.markdown(view), matrix.page(view)
    assert "| cause | 1.9.2 | 1.12.0 |" in md and "| 1 |  |" in md
    assert 'class="on" title="json.timestamp/a">1</td><td class="off"' in page
