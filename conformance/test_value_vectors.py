"""Every golden value vector against every engine: one test per (engine, case)."""

from __future__ import annotations

import pytest

from conformance.conftest import RUNNER
from conformance.judge import PASS


def test_value_case(value_case, request: pytest.FixtureRequest) -> None:
    engine, family, case, batch = value_case
    verdict = request.config.stash[RUNNER].verdict(engine, family, case, batch)
    request.node.user_properties.append(("verdict", verdict.outcome))
    request.node.user_properties.append(("rule", case["rule"]))
    request.node.user_properties.append(("message", verdict.message))
    assert verdict.outcome == PASS, f"{verdict.outcome.upper()} [{case['rule']}] {case['description']}: {verdict.message}"
