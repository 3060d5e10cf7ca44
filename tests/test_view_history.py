"""What one view metadata file shows of the view's history (`spec_impl.metadata.view_history`):
view.version-id-first, view.version-id-increasing (draft only), view.version-history and
view.version-log-current (both revisions; a should)."""

from __future__ import annotations

import pytest

from spec_impl.metadata.view_history import view_findings
from spec_impl.rules import is_recommendation
from spec_impl.metadata.view_metadata import parse_view_metadata
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.vectors.families._views import adopted_view, adopted_view_first, draft_view, draft_view_first


def _rules(doc: dict, revision: str) -> list[str]:
    return sorted({f.rule for f in view_findings(parse_view_metadata(doc, revision))})


@pytest.mark.parametrize(
    "doc, revision",
    [
        (draft_view_first(), SEED_2024),
        (draft_view(), SEED_2024),
        (adopted_view_first(), V3_ADOPTED),
        (adopted_view(), V3_ADOPTED),
    ],
)
def test_the_appendix_examples_have_no_findings(doc, revision):
    assert _rules(doc, revision) == []


def test_view_version_id_first_the_create_version_is_1_in_the_draft_only():
    doc = draft_view_first()
    doc["versions"][0]["version-id"] = doc["current-version-id"] = doc["version-log"][0]["version-id"] = 4
    assert _rules(doc, SEED_2024) == ["view.version-id-first"]
    adopted = adopted_view_first()
    adopted["versions"][0]["version-id"] = adopted["current-version-id"] = adopted["version-log"][0]["version-id"] = 4
    assert _rules(adopted, V3_ADOPTED) == []  # the adopted spec says only "ID for the version"


def test_view_version_id_increasing_follows_timestamps():
    doc = draft_view()
    doc["versions"][1]["timestamp-ms"] = doc["versions"][0]["timestamp-ms"] - 1
    assert _rules(doc, SEED_2024) == ["view.version-id-increasing"]
    doc["versions"][1]["timestamp-ms"] = doc["versions"][0]["timestamp-ms"]
    assert _rules(doc, SEED_2024) == []


@pytest.mark.parametrize("limit, expected", [("1", ["view.version-history"]), ("2", []), ("0", []), ("ten", [])])
def test_view_version_history_counts_versions_against_a_positive_limit(limit, expected):
    doc = adopted_view()
    doc["properties"]["version.history.num-entries"] = limit
    assert _rules(doc, V3_ADOPTED) == expected


def test_view_version_log_current_is_a_recommendation():
    doc = draft_view()
    doc["current-version-id"] = 1
    assert _rules(doc, SEED_2024) == ["view.version-log-current"]
    assert is_recommendation("view.version-log-current")
    doc["version-log"].append({"timestamp-ms": 1573519000000, "version-id": 1})
    assert _rules(doc, SEED_2024) == []
