"""Spec revisions (`spec_impl.revisions`): each builds on a base, and a case holds where its edits do."""

from __future__ import annotations

import pytest

from spec_impl import revisions
from spec_impl.ops.registry import run
from spec_impl.resources import vectors_dir
from spec_impl.vectors.families.type_strings import specs
from spec_impl.vectors.cases import build_all


def test_every_revision_descends_from_the_seed():
    for r in revisions.ALL:
        assert revisions.lineage(r)[-1] == revisions.SEED_2024
        assert revisions.lineage(r)[0] == r


def test_later_revisions_hold_the_edits_of_their_bases():
    assert revisions.has(revisions.JAVA_HEAD_2026_08, revisions.V3_ADOPTED)
    assert revisions.has(revisions.V4_PR_2026_09, revisions.UPSTREAM_2026_08)
    assert not revisions.has(revisions.V4_PROPOSAL, revisions.UPSTREAM_2026_08)
    assert not revisions.has(revisions.SEED_2024, revisions.V3_ADOPTED)
    assert revisions.before(revisions.V3_ADOPTED) == (revisions.SEED_2024,)
    assert set(revisions.ADOPTED) | set(revisions.before(revisions.V3_ADOPTED)) == set(revisions.ALL)


def test_an_unknown_revision_is_named():
    with pytest.raises(ValueError, match="unknown spec revision 'v9'.*upstream-2026-08"):
        revisions.has("v9", revisions.V3_ADOPTED)


@pytest.mark.parametrize(
    "revision, expected",
    [("2024-seed", "decimal(9,2)"), ("v3-adopted", "decimal(9,2)"), ("upstream-2026-08", "decimal(9, 2)")],
)
def test_a_decimal_type_string_reads_back_in_its_revisions_canonical_form(revision, expected):
    """Appendix C: "decimal(<P>,<S>)"; upstream digest 1.3: the strings are canonical, Java writes `decimal(9, 2)`."""
    assert run("parse-type", {"type": "decimal( 9 , 2 )"}, revision) == expected


def test_java_head_writes_the_default_geo_parameters_out():
    """Digest 1.3b: Java HEAD always writes `geometry(OGC:CRS84)` and `geography(OGC:CRS84, spherical)`."""
    assert run("parse-type", {"type": "geography"}, revisions.JAVA_HEAD_2026_08) == "geography(OGC:CRS84, spherical)"
    assert run("parse-type", {"type": "geography"}, revisions.UPSTREAM_2026_08) == "geography"


def test_revisions_that_disagree_get_cases_of_their_own_and_old_ids_stay():
    cases = {c["id"]: c for c in build_all(specs())}
    released = cases["type.decimal/decimal-38-38"]
    assert released["expected"] == {"output": "decimal(38,38)"}
    assert revisions.UPSTREAM_2026_08 not in released["revisions"]
    later = cases["type.decimal/decimal-38-38@upstream-2026-08"]
    assert later["expected"] == {"output": "decimal(38, 38)"}
    assert later["revisions"] == ["upstream-2026-08", "v4-pr-2026-09", "java-head-2026-08"]


def test_the_vector_schema_knows_every_revision():
    import json

    schema = json.loads((vectors_dir() / "values" / "value-vectors.schema.json").read_text())
    assert set(json.dumps(schema).split('"')) >= set(revisions.ALL)
