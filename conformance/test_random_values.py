"""Differential property tests: engines against the reference on random values no vector holds.

For each engine and op, hypothesis draws batches of cases (one engine round trip per batch):
random types, transforms and values over the whole range of each type, from the kinds of input the
engine declares it answers (`supported_inputs`). Each test records how many cases it judged; one
that judged none is a skip with the reason, never a pass. The reference computes
the expectation; inputs it rejects are dropped (their rules are covered by the golden vectors and
the known discrepancies recorded there), so every remaining disagreement is a finding. Inputs in a
recorded scope (`random-value-scopes` of vectors/known/engines/*.json) are still judged; their
disagreements are reported as warnings rather than failures. Each random case carries the
obligation a vector case of its rule would (`spec_impl.obligations`), and the judge follows it as
for the vectors: an answer the spec permits (a float hash refused: `hash.not-bucketable`) or a
reading of an open question is noted, never a finding. Every selected engine but the built-in
reference takes part, third-party ones (`package.module:Class`, `cmd:...`) too; cases an engine
answers `unsupported` are left out of the comparison. The disagreeing inputs, known ones too, are
written to `random-findings.json` for adoption as vectors (`conformance.random_findings`).
"""

from __future__ import annotations

import functools
import json
import re
import warnings

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spec_impl import strategies as ist
from spec_impl.errors import SpecError
from spec_impl.serde import binary, json_value
from spec_impl.transforms import accepts
from spec_impl.ops.encoding import encode
from spec_impl.ops.registry import run
from spec_impl.vectors.random_cases import VALUE_OPS, random_case

from conformance import known, random_findings
from conformance.conftest import RECORDER, RUNNER
from conformance.vectors import load_families
from conformance.failures import rerun_command
from conformance.random_findings import adopt_hint, finding
from conformance.judge import ALLOWED, DIVERGENCE, FIXED, KNOWN, PASS, UNSUPPORTED, judge

BATCH = 150
SHOWN = 5  # disagreeing inputs a failure shows


class KnownDisagreement(UserWarning):
    """Random inputs on which an engine disagrees inside a recorded scope (shown in the warnings summary)."""


class PermittedDifference(UserWarning):
    """Random inputs answered otherwise than the reference where the spec permits it or leaves it open."""


OPS = VALUE_OPS
# One transform of each kind, to ask an engine which kinds it answers before drawing from them.
TRANSFORM_KINDS = ("identity", "year", "month", "day", "hour", "void", "bucket[16]", "truncate[4]")
NO_NAN = ("to-json", "from-json")  # JSON single values have no NaN form


def _kinds(op: str) -> list[tuple[ist.T.PrimitiveType, str | None]]:
    """The kinds of an op's random inputs: (a type of each kind, a transform of each kind)."""
    if op == "transform":
        return [(t, k) for t in ist.type_kinds() for k in TRANSFORM_KINDS if accepts(k, t)]
    if op == "hash":
        return [(t, None) for t in ist.type_kinds(bucketable=True) + [ist.T.SimpleType(n) for n in ("float", "double")]]
    return [(t, None) for t in ist.type_kinds()]


def _as_input(op: str, t: ist.T.PrimitiveType, value, transform: str | None = None) -> dict:
    """One case input of the op, in vector form."""
    if op == "from-binary":
        return {"type": t.to_json(), "hex": binary.to_binary(t, value).hex()}
    if op == "from-json":
        return {"type": t.to_json(), "json": json_value.to_json(t, value)}
    inp = {"type": t.to_json(), "value": encode(t, value)}
    return inp if transform is None else {**inp, "transform": transform}


def _inputs_of_kind(op: str, t: ist.T.PrimitiveType, kind: str | None) -> st.SearchStrategy[dict]:
    """Random inputs of one kind: every type of `t`'s kind over its whole range, and for a
    parameterized transform every parameter up to 10,000."""
    typed = ist.typed_values(ist.types_like(t, bucketable=op == "hash"), allow_nan=op not in NO_NAN)
    if kind is None:
        return typed.map(lambda tv: _as_input(op, *tv))
    name = kind.partition("[")[0]
    transforms = st.integers(1, 10_000).map(f"{name}[{{}}]".format) if "[" in kind else st.just(kind)
    return (
        st.tuples(typed, transforms)
        .filter(lambda p: accepts(p[1], p[0][0]))
        .map(lambda p: _as_input(op, p[0][0], p[0][1], p[1]))
    )


def supported_inputs(engine, op: str, ask) -> tuple[st.SearchStrategy[dict] | None, int]:
    """Random inputs drawn from the kinds the engine answers, so that an engine of a few types
    gets as many cases as any: one input of each kind is asked about (`Engine.unsupported`), and
    those left are sent to the engine once (`ask`), so that a kind it declines when answering
    (`EngineAnswer.declined`) is left out too. None when it answers no kind; also how many kinds
    were asked about."""
    kinds = _kinds(op)
    probes = [(t, k, _as_input(op, t, ist.sample_value(t), k)) for t, k in kinds]
    probes = [p for p in probes if engine.unsupported(op, p[2]) is None]
    answers = ask([{"id": f"probe-{i}", "op": op, "input": p[2]} for i, p in enumerate(probes)]) if probes else []
    answered = [(t, k) for (t, k, _), a in zip(probes, answers) if a.unsupported is None]
    if not answered:
        return None, len(kinds)
    return st.sampled_from(answered).flatmap(lambda tk: _inputs_of_kind(op, *tk)), len(kinds)


@pytest.mark.random_values
@pytest.mark.parametrize("op", OPS)
def test_engine_agrees_with_reference(random_engine: str, op: str, request: pytest.FixtureRequest) -> None:
    """`random_engine`: every selected engine but the reference (conftest.pytest_generate_tests)."""
    engine_name, runner = random_engine, request.config.stash[RUNNER]
    slot = runner.slots[engine_name]
    if slot.engine is None or not slot.started:
        pytest.skip(f"engine unavailable: {slot.unavailable or slot.broken}")
    engine = slot.engine
    if op not in engine.capabilities:
        pytest.skip(f"{engine_name} lacks the capability {op!r}")
    inputs, asked = supported_inputs(engine, op, lambda cases: runner.ask(engine_name, op, cases))
    if inputs is None:
        pytest.skip(f"{engine_name} declines every kind of random {op} input ({asked} kinds asked): none judged")

    # No shrinking: the failure lists the disagreeing cases of the batch, and shrinking a batch
    # would mean hundreds of engine round trips.
    @settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), phases=(Phase.generate,))
    @given(st.lists(inputs, min_size=BATCH, max_size=BATCH))
    def check(inputs: list[dict]) -> None:
        cases = _cases(engine, op, inputs)
        answers = runner.ask(engine_name, op, cases)
        judged.append(sum(a.unsupported is None for a in answers))
        disagreements, found = [], []
        for c, a in zip(cases, answers):
            verdict = judge(c, a, engine.revision, engine.partial_view)
            if verdict.outcome in (PASS, UNSUPPORTED):
                continue
            if verdict.outcome in (DIVERGENCE, ALLOWED):
                permitted.append(verdict.outcome)
                continue
            reason = _recorded(engine_name, op, c)
            if reason is not None:
                known_disagreements.append(reason)
            else:
                disagreements.append((c, verdict))
            found.append(finding(engine, op, c["input"], a, verdict.outcome, verdict.message, reason))
        saved.append(random_findings.save(request, found))
        disagreeing.extend(disagreements)

    known_disagreements: list[str] = []  # the recorded finding each known disagreement falls under
    permitted: list[str] = []
    judged: list[int] = []  # the cases of each batch the engine was judged on
    disagreeing: list[tuple[dict, object]] = []
    saved: list = []
    try:
        check()
    finally:
        request.node.user_properties.append(("judged", sum(judged)))
    if not sum(judged):
        pytest.skip(f"{engine_name} {op}: no random input was judged (every one declined or rejected by the reference)")
    _conclude(request, engine_name, op, disagreeing, sum(judged), saved)
    request.node.user_properties.append(("known_disagreements", len(known_disagreements)))
    if permitted:
        warnings.warn(
            f"{engine_name} {op}: {len(permitted)} random inputs answered otherwise than the reference where the "
            f"spec permits it ({permitted.count(ALLOWED)} allowed) or leaves it open "
            f"({permitted.count(DIVERGENCE)} divergences)",
            PermittedDifference,
            stacklevel=1,
        )
    if known_disagreements:
        warnings.warn(
            f"{engine_name} {op}: {len(known_disagreements)} random inputs disagree inside recorded findings: "
            + " | ".join(sorted(set(known_disagreements)))
            + adopt_hint(random_findings.path(request)),
            KnownDisagreement,
            stacklevel=1,
        )


def _recorded(engine: str, op: str, case: dict) -> str | None:
    """The recorded finding a random disagreement falls under, if any: a ledger scope covering the
    input, or a recorded or expected violation of a vector case of the same rule and source type
    (the engine's ledger file, or a project's expectations file)."""
    scope = known.scope_for(engine, op, case["input"])
    if scope is not None:
        return scope.decided_by
    found = _recorded_violations(engine).get((case["rule"], _type_kind(case["input"].get("type"))))
    if found is None:
        return None
    case_id, entry = found
    return f"the violation of {case['rule']} recorded for {case_id}: {entry.reason or entry.observed}"


def _type_kind(t) -> str:
    """A type string without its parameters (decimal(9, 2) is a decimal, fixed[4] a fixed)."""
    return re.sub(r"[\[(].*", "", t) if isinstance(t, str) else json.dumps(t, sort_keys=True)


@functools.cache
def _recorded_violations(engine: str) -> dict[tuple[str, str], tuple[str, known.Discrepancy]]:
    """(rule id, source type kind) -> a vector case of the engine recorded (or expected) as a
    violation, and its entry."""
    out = {}
    for family in load_families().values():
        for c in family:
            entry = known.entry_for(engine, c)
            if entry is not None and entry.level == "violation":
                out.setdefault((c["rule"], _type_kind(c["input"].get("type"))), (c["id"], entry))
    return out


def _cases(engine, op: str, inputs: list[dict]) -> list[dict]:
    """The drawn inputs the engine answers, as cases with the reference's answer; an input the
    reference rejects is dropped (the golden vectors cover its rule)."""
    cases = []
    for i, inp in enumerate(inputs):
        if engine.unsupported(op, inp) is not None:
            continue
        try:
            expected = {"output": run(op, inp, engine.revision)}
        except SpecError:
            continue
        cases.append(random_case(i, op, inp, expected, engine.revision))
    return cases


def _conclude(request: pytest.FixtureRequest, engine_name: str, op: str, disagreeing: list, judged: int, saved: list):
    """The test's verdict on its disagreements: a failure in a few lines, an xfail when the
    engine's expectations name the test (`random/<op>`), fixed when they do and it now agrees."""
    outcome, entry = known.random_verdict(engine_name, op, len(disagreeing))
    request.node.user_properties.append(("verdict", outcome))
    request.node.user_properties.append(("rules", sorted({c["rule"] for c, _ in disagreeing})))
    if disagreeing:
        shown = "\n".join(f"  {c['input']}: {v.outcome}: {v.message}" for c, v in disagreeing[:SHOWN])
        more = f"\n  ... and {len(disagreeing) - SHOWN} more" if len(disagreeing) > SHOWN else ""
        config = request.config
        rerun = rerun_command(
            config,
            config.stash[RUNNER].slots[engine_name].spec,
            f"test_engine_agrees_with_reference[{engine_name}-{op}]",
            config.stash[RECORDER].random_seed,
        )
        head = (
            f"{engine_name} disagrees with the reference on {len(disagreeing)} of {judged} random {op} cases "
            f"(seed {request.config.stash[RECORDER].random_seed})"
        )
        request.node.user_properties.append(("message", head))
        if outcome == KNOWN:
            pytest.xfail(f"{entry.known_message()} ({head})")  # type: ignore[union-attr]
        found = next((path for path in reversed(saved) if path is not None), None)
        pytest.fail(f"{head}:\n{shown}{more}\n  rerun: {rerun}" + adopt_hint(found), pytrace=False)
    if outcome == FIXED:
        why = f"expected a violation ({entry.reason}), but the test now agrees: trim the expectation"  # type: ignore[union-attr]
        request.node.user_properties.append(("message", why))
