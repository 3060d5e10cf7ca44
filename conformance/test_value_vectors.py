"""Every golden value vector against every engine: one test per (engine, case).

A correct answer or a correct rejection passes, and so do a divergence (the spec leaves the question
open) and an allowed difference (the spec permits the answer), reported apart; `unsupported` is a
skip with the engine's reason; a known violation that reproduces its pinned observation is an
xfail, and so is an expected violation of a project's expectations file (`--expectations`), which
passes, listed as fixed, once the engine answers right; anything else fails, the verdict (fail,
errored, fixed) in the message.
"""

from __future__ import annotations

import pytest

from conformance import gating, known
from conformance.conftest import RECORDER, RUNNER
from conformance.failures import failure_text, rerun_command
from conformance.judge import CREDITED, FIXED, KNOWN, UNSUPPORTED


def test_engine_started(started_engine: str, request: pytest.FixtureRequest) -> None:
    """An engine that was found but failed its handshake (no hello in time, a bad hello) fails here,
    once, with the reason; its cases are skipped and the rest of the run goes on."""
    slot = request.config.stash[RUNNER].slots[started_engine]
    assert slot.started, f"{started_engine}: {slot.broken}"


def test_value_case(value_case, request: pytest.FixtureRequest) -> None:
    engine, family, case, batch = value_case
    verdict = request.config.stash[RUNNER].verdict(engine, family, case, batch)
    request.node.user_properties.append(("verdict", verdict.outcome))
    request.node.user_properties.append(("rule", case["rule"]))
    request.node.user_properties.append(("section", case["section"]))
    request.node.user_properties.append(("obligation", (case.get("obligation") or {}).get("level", "must")))
    request.node.user_properties.append(("message", verdict.message))
    if verdict.question:
        request.node.user_properties.append(("question", verdict.question))
    if verdict.outcome == UNSUPPORTED:
        pytest.skip(verdict.message)
    if verdict.outcome == KNOWN:
        pytest.xfail(verdict.message)
    if verdict.outcome == FIXED and getattr(known.entry_for(engine, case), "is_expectation", False):
        return  # an expected violation the engine now passes: listed as fixed, the file can be trimmed
    if verdict.outcome not in CREDITED and gating.new_case(request.config, engine, case["id"]):
        pytest.xfail(
            f"new case (not in the baseline; --strict-new to gate on it): {verdict.outcome}: {verdict.message}"
        )
    if verdict.outcome not in CREDITED:
        runner = request.config.stash[RUNNER]
        answer = runner.answer(engine, family, case)
        seed = request.config.stash[RECORDER].random_seed
        rerun = rerun_command(request.config, runner.slots[engine].spec, f"{engine}:{case['id']}]", seed)
        observed = None if answer is None else answer.observed()
        pytest.fail(failure_text(case, verdict.outcome, verdict.message, observed, rerun), pytrace=False)
