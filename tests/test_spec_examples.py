"""The expectations typed from the spec text (spec_impl/vectors/spec_examples.py) agree with the
reference, and each names a case the generator still emits, with the provenance it declares."""

from __future__ import annotations

import json
from functools import cache

import pytest

from spec_impl.errors import SpecError
from spec_impl.vectors.cases import build_all
from spec_impl.vectors.families import SETS
from spec_impl.ops.registry import run
from spec_impl.vectors.spec_examples import TYPED


@cache
def by_family() -> dict[str, list[dict]]:
    return {family.NAME: build_all(family.specs()) for families in SETS.values() for family in families}


@cache
def generated() -> dict[str, dict]:
    return {c["id"]: c for cases in by_family().values() for c in cases}


def test_there_are_typed_expectations_in_the_families_of_the_spec_examples():
    families = {c["id"].split("/")[0] for c in generated().values() if c["id"] in TYPED}
    assert len(TYPED) >= 80 and families
    typed_families = {name for name, cases in by_family().items() if any(c["id"] in TYPED for c in cases)}
    assert {"schemas", "partitioning", "snapshots-and-views", "v4-root-manifests"} <= typed_families, typed_families


@pytest.mark.parametrize("case_id", sorted(TYPED))
def test_typed_expectation_agrees_with_the_reference(case_id):
    case = generated().get(case_id)
    assert case is not None, f"{case_id} is no longer generated: update spec_examples.TYPED"
    expected, provenance = TYPED[case_id]
    assert case["expected"] == expected and case["provenance"]["kind"] == provenance["kind"]
    revision = "v3-adopted" if "v3-adopted" in case["revisions"] else case["revisions"][0]
    try:
        got = {"output": run(case["op"], case["input"], revision)}
    except SpecError as e:
        got = {"error": e.rule}
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True), (
        f"{case_id}: the reference gives {got}, the spec text {expected} ({provenance['source']})"
    )
