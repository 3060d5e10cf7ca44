"""The reference engine, named by its module path as a third-party engine would be, passes every
random-value and planning-property test of the conformance suite (project issue 25).

An engine answering exactly as the reference must pass them, and an input the spec defines no
answer for (the reference rejects it under a rule, like the long minimum under `truncate[3]`:
`transform.overflow`) is never held against an engine, whether it rejects it or answers it.

The first test runs the reference adapter, loaded from `conformance.engines.reference.adapter:ReferenceEngine`,
through the suite's own test functions in process, with a fixed hypothesis seed; the batch tests
pin the judgement of undefined inputs; the last one runs the command a user types (`pytest
conformance/... --engine package.module:Class`) on the projection property, with a seed whose draws
hold the long minimum under `truncate[3]`.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import hypothesis.core
import pytest

from conformance.conftest import RUNNER, SUITE_MARKERS
from conformance.engines import registry
from conformance.engines.base import EngineAnswer
from conformance.engines.reference.adapter import ReferenceEngine
from conformance.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
MODULE_PATH = "conformance.engines.reference.adapter:ReferenceEngine"
SEED = 3  # when written, its project-predicate draws held the long minimum under truncate[3]
REVISION = ReferenceEngine.revision


@pytest.fixture(scope="module")
def suite(request) -> SimpleNamespace:
    """The suite's random test modules, imported once their marker is known (the suite registers it
    in conformance/conftest.py, which a run of tests/ does not load; markers are strict)."""
    config = request.config
    if "random_values" not in "\n".join(config.getini("markers")):
        config.addinivalue_line("markers", f"random_values: {SUITE_MARKERS['random_values']}")
    return SimpleNamespace(
        values=importlib.import_module("conformance.test_random_values"),
        planning=importlib.import_module("conformance.test_random_planning"),
    )


@pytest.fixture(scope="module")
def reference_runner():
    runner = Runner({MODULE_PATH: registry.load(MODULE_PATH)})
    yield runner
    runner.stop()


def _request(runner: Runner) -> SimpleNamespace:
    """What the test functions read of pytest's `request`: the session's runner and the node's properties."""
    return SimpleNamespace(config=SimpleNamespace(stash={RUNNER: runner}), node=SimpleNamespace(user_properties=[]))


@pytest.mark.parametrize(
    "module, test",
    [("values", "test_engine_agrees_with_reference"), ("planning", "test_engine_keeps_the_planning_properties")],
)
def test_the_reference_named_by_its_module_path_passes(suite, reference_runner, module, test, monkeypatch):
    """Every op of the module's test, as the suite runs it for a third-party engine."""
    monkeypatch.setattr(hypothesis.core, "global_force_seed", SEED)  # what --hypothesis-seed sets
    (name,) = reference_runner.slots
    slot = reference_runner.slots[name]
    assert slot.started and slot.spec == MODULE_PATH, slot.unavailable or slot.broken
    mod = getattr(suite, module)
    for op in mod.OPS:
        request = _request(reference_runner)
        getattr(mod, test)(name, op, request)  # raises on any disagreement or broken property
        assert dict(request.node.user_properties).get("known_disagreements", 0) == 0, (
            op
        )  # nothing recorded against the reference


# --- an input the spec defines no answer for ----------------------------------------------------

LONG_MIN = -(2**63)
SCHEMA = {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": "long"}]}


def _projection(rows: list[int], mode: str = "inclusive") -> tuple[dict, list[bool], object]:
    from spec_impl.expressions.predicates import Pred

    expr = Pred("not-eq", "x", (5,))
    inp = {
        "schema": SCHEMA,
        "spec": [{"name": "p", "source": "x", "transform": "truncate[3]"}],
        "predicate": {"type": "not-eq", "term": "x", "value": 5},
        "mode": mode,
        "rows": [{"x": v} for v in rows],
    }
    return inp, [v != 5 for v in rows], expr


UNDEFINED = _projection([213767668448, LONG_MIN, 3])
DEFINED = _projection([213767668448, 5, 3])


def test_the_reference_rejects_the_long_minimum_under_truncate_3(suite):
    planning = suite.planning
    assert planning.reference_rule("project-predicate", UNDEFINED[0], REVISION) == "transform.overflow"
    assert planning.reference_rule("project-predicate", DEFINED[0], REVISION) is None


@pytest.fixture
def judge_one(suite):
    """judge_batch on one input (the undefined one unless told) and one answer."""
    return lambda answer, drawn=UNDEFINED: suite.planning.judge_batch(
        "some-engine", "project-predicate", [drawn], [answer], REVISION
    )


def test_the_reference_answer_to_an_undefined_input_is_credited(judge_one):
    (answer,) = ReferenceEngine().run_batch("project-predicate", [{"id": "random-0", "input": UNDEFINED[0]}])
    assert not answer.ok and "transform.overflow" in answer.error
    out = judge_one(answer)
    assert (out.problems, out.notes, out.undefined) == ([], [], {"rejected": 1})


def test_a_rejection_under_the_same_rule_is_credited(judge_one):
    out = judge_one(EngineAnswer.rejection("overflow", rule="transform.overflow"))
    assert (out.problems, out.notes, out.undefined) == ([], [], {"rejected": 1})


def test_an_answer_or_another_rule_on_an_undefined_input_is_noted_never_failed(judge_one):
    answered = judge_one(
        EngineAnswer(True, [False, False, False])
    )  # would break the inclusive property, were it defined
    assert answered.problems == [] and answered.undefined == {"answered": 1} and answered.notes
    other = judge_one(EngineAnswer.rejection("no", rule="transform.source-type"))
    assert other.problems == [] and other.undefined == {"rejected-other-rule": 1} and other.notes


def test_a_failure_on_an_undefined_input_is_still_a_problem(judge_one):
    assert judge_one(EngineAnswer.failure("crashed")).problems


def test_defined_inputs_are_stilljudge_oned(judge_one):
    assert judge_one(
        EngineAnswer.rejection("no", rule="transform.overflow"), DEFINED
    ).problems  # raised where an answer is defined
    assert judge_one(EngineAnswer(True, [True, False, True]), DEFINED).problems == []
    assert judge_one(EngineAnswer(True, [True, False, False]), DEFINED).problems  # a matching row's partition skipped


# --- the command a user types ------------------------------------------------------------------


def test_an_engine_answering_as_the_reference_passes_through_the_plugin():
    """`pytest conformance/test_random_planning.py --engine conformance.engines.reference.adapter:ReferenceEngine
    --hypothesis-seed 3`, the reference named by its module path as a third-party engine is: before
    issue 25 these draws failed the projection property with `transform.overflow`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "conformance/test_random_planning.py",
        "-k",
        "project-predicate",
        "-p",
        "no:cacheprovider",
        "--engine",
        "conformance.engines.reference.adapter:ReferenceEngine",
        f"--hypothesis-seed={SEED}",
        "-q",
        "-rA",
    ]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\b1 passed\b", done.stdout) and "[reference-project-predicate]" in done.stdout, done.stdout[
        -2000:
    ]
    assert "UndefinedInputNote" not in done.stdout  # the reference rejects every input it does not define
