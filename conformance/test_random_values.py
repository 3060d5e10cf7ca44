"""Differential property tests: engines against the reference on random values no vector holds.

For each engine and op, hypothesis draws batches of cases (one engine round trip per batch):
random types, transforms and values over the whole range of each type. The reference computes
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

import warnings

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spec_impl import strategies as ist
from spec_impl.errors import SpecError
from spec_impl.serde import binary, json_value
from spec_impl.transforms import accepts
from spec_impl.vectors.encoding import encode
from spec_impl.vectors.ops import run
from spec_impl.vectors.random_cases import VALUE_OPS, random_case

from conformance import known, random_findings
from conformance.conftest import RUNNER
from conformance.random_findings import adopt_hint, finding
from conformance.judge import ALLOWED, DIVERGENCE, PASS, UNSUPPORTED, judge

BATCH = 150


class KnownDisagreement(UserWarning):
    """Random inputs on which an engine disagrees inside a recorded scope (shown in the warnings summary)."""


class PermittedDifference(UserWarning):
    """Random inputs answered otherwise than the reference where the spec permits it or leaves it open."""


OPS = VALUE_OPS
HASHED = st.one_of(ist.primitive_types(bucketable=True), st.sampled_from(["float", "double"]).map(ist.T.SimpleType))


def _inputs(op: str) -> st.SearchStrategy[dict]:
    """Case inputs of one op, in vector form."""
    if op == "hash":
        return ist.typed_values(HASHED).map(lambda tv: {"type": tv[0].to_json(), "value": encode(*tv)})
    if op == "transform":
        return (
            st.tuples(ist.typed_values(ist.primitive_types()), ist.transform_strings(max_param=10_000))
            .filter(lambda p: accepts(p[1], p[0][0]))
            .map(lambda p: {"type": p[0][0].to_json(), "transform": p[1], "value": encode(*p[0])})
        )
    if op == "to-binary":
        return ist.typed_values(ist.primitive_types()).map(lambda tv: {"type": tv[0].to_json(), "value": encode(*tv)})
    if op == "from-binary":
        return ist.typed_values(ist.primitive_types()).map(
            lambda tv: {"type": tv[0].to_json(), "hex": binary.to_binary(*tv).hex()}
        )
    values = ist.typed_values(ist.primitive_types(), allow_nan=False)
    if op == "to-json":
        return values.map(lambda tv: {"type": tv[0].to_json(), "value": encode(*tv)})
    return values.map(lambda tv: {"type": tv[0].to_json(), "json": json_value.to_json(*tv)})


@pytest.mark.random_values
@pytest.mark.parametrize("op", OPS)
def test_engine_agrees_with_reference(random_engine: str, op: str, request: pytest.FixtureRequest) -> None:
    """`random_engine`: every selected engine but the reference (conftest.pytest_generate_tests)."""
    engine_name = random_engine
    runner = request.config.stash[RUNNER]
    slot = runner.slots[engine_name]
    if slot.engine is None or not slot.started:
        pytest.skip(f"engine unavailable: {slot.unavailable or slot.broken}")
    engine = slot.engine
    if op not in engine.capabilities:
        pytest.skip(f"{engine_name} lacks the capability {op!r}")

    # No shrinking: the failure lists the disagreeing cases of the batch, and shrinking a batch
    # would mean hundreds of engine round trips.
    @settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), phases=(Phase.generate,))
    @given(st.lists(_inputs(op), min_size=BATCH, max_size=BATCH))
    def check(inputs: list[dict]) -> None:
        cases = []
        for i, inp in enumerate(inputs):
            if engine.unsupported(op, inp) is not None:
                continue
            try:
                expected = {"output": run(op, inp, engine.revision)}
            except SpecError:
                continue  # a rejected input: the golden vectors cover its rule
            cases.append(random_case(i, op, inp, expected, engine.revision))
        answers = runner.ask(engine_name, op, cases)
        disagreements, found = [], []
        for c, a in zip(cases, answers):
            verdict = judge(c, a, engine.revision, engine.partial_view)
            if verdict.outcome in (PASS, UNSUPPORTED):
                continue
            if verdict.outcome in (DIVERGENCE, ALLOWED):
                permitted.append(verdict.outcome)
                continue
            scope = known.scope_for(engine_name, op, c["input"])
            if scope is not None:
                known_disagreements.append(c["input"])
            else:
                disagreements.append((c, verdict))
            found.append(
                finding(engine, op, c["input"], a, verdict.outcome, verdict.message, scope and scope.decided_by)
            )
        saved = random_findings.save(request, found)
        shown = "\n".join(f"  {c['input']}: {v.outcome}: {v.message}" for c, v in disagreements[:8])
        assert not disagreements, (
            f"{engine_name} disagrees with the reference on {len(disagreements)} of {len(cases)} {op} cases:\n{shown}"
            + adopt_hint(saved)
        )

    known_disagreements: list[dict] = []
    permitted: list[str] = []
    check()
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
        scopes = {known.scope_for(engine_name, op, i).decided_by for i in known_disagreements}  # type: ignore[union-attr]
        warnings.warn(
            f"{engine_name} {op}: {len(known_disagreements)} random inputs disagree inside recorded scopes: "
            + " | ".join(sorted(scopes))
            + adopt_hint(random_findings.path(request)),
            KnownDisagreement,
            stacklevel=1,
        )
