"""A fixed-seed fuzzing budget of every parser family, run by `make test` (about a minute on two
cores): each generated input must be accepted or rejected with a SpecError. A failure prints the
reproducer's file (saved, minimized, under corpus/) and how to replay it."""

from __future__ import annotations

import pytest

from . import campaign
from .families import FAMILIES
from .known import tolerated

pytestmark = pytest.mark.fuzz

SEED = 20240601
DEFAULT_BUDGET = 400
BUDGET = {
    "scan": 150,
    "tree-walk": 250,
    "validate": 250,
    "manifest": 250,
    "manifest-list": 250,
    "v4-replay": 250,
    "v4-validate": 250,
    "parquet": 300,
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_fixed_seed_budget(family, fuzz_pool):
    stats = campaign.run([family], BUDGET.get(family, DEFAULT_BUDGET), SEED, fuzz_pool, save=True, minimize_budget=100)[
        family
    ]
    assert stats.inputs == BUDGET.get(family, DEFAULT_BUDGET)
    assert stats.kinds["accepted"] + stats.kinds["spec"] > 0
    bad = {sig: ex for sig, ex in stats.escapes.items() if not tolerated(family, ex["outcome"])}
    assert not bad, "\n".join(
        f"{family} input {ex['index']} (seed {SEED}): {k} {d} {ex['outcome'].message}\n"
        f"  reproducer: {ex.get('path')}  (python -m tests.fuzz --replay {ex.get('path')})"
        for (k, d), ex in bad.items()
    )
