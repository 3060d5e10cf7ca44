"""Differential property tests of projection and pruning: engines on random predicates and files.

The spec forces some answers, whatever an engine's projection or evaluator looks like ("Scan
Planning"), and these tests check exactly those on random inputs (batches, one engine round trip
each):

- project-predicate: inclusive, every row that matches the predicate has its partition matched;
  strict, no row that fails the predicate has its partition matched;
- evaluate-metrics: inclusive, a file holding a matching row is never skipped; strict, `true` only
  when every row matches; the metrics are true, truncated or partly missing;
- evaluate-manifest: a manifest holding a matching partition tuple is never skipped.

Row truth is the reference's (`spec_impl.expressions.predicates`), except for a row the spec leaves
open (a null or NaN operand, or NOT over one: `spec_impl.obligations.rows`), whose truth no
property is held against. An input the reference rejects
(the long minimum under `truncate[3]` overflows: `transform.overflow`) is one the spec defines no
answer for, so no property is held against it, as for the vectors' rejection cases: an engine that
rejects it is credited, one that rejects it under another rule or accepts it and answers is noted
(`UndefinedInputNote`), never failed; only a crash, hang or protocol failure on it is a problem.
An engine answering exactly as the reference keeps every property. The inputs leave out what the
golden vectors already settle and the known discrepancies record: rows of null, NaN or -0.0 in
projection cases (engines differ on their truth: predicates.json, predicate-projection.json), -0.0
anywhere (PyIceberg compares IEEE zeros), timestamp_ns columns (PyIceberg 0.12 binds no literal of
them). Inputs in `KNOWN` (a recorded finding reproduced on random inputs) are judged and reported
as warnings, like the value tests' recorded scopes. The inputs that break a property, known ones
too, are written to `random-findings.json` for adoption as vectors (`conformance.random_findings`).
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spec_impl.obligations.rows import open_question
from spec_impl.expressions import strategies as pst
from spec_impl.expressions.predicates import TRUE, Expr, evaluate, leaves
from spec_impl.metrics.column_metrics import column_metrics
from spec_impl.metrics.summaries import partition_summaries
from spec_impl.types import parse_type
from spec_impl.values import is_nan
from spec_impl.ops.encoding import encode
from spec_impl.ops.planning_ops import predicate_json
from spec_impl.vectors.random_cases import PLANNING_OPS, reference_rule

from conformance.conftest import RUNNER
from conformance.engines.base import EngineAnswer
from conformance import known as known_entries
from conformance.vectors import load_families
from conformance import random_findings
from conformance.random_findings import adopt_hint, finding
from conformance.judge import ERRORED, FAIL, KNOWN, REJECTED, REJECTED_OTHER_RULE, UNSUPPORTED, judge

BATCH = 100
OPS = PLANNING_OPS
TRANSFORMS = {
    "identity": ["long", "string", "decimal(9,2)", "date", "binary"],
    "bucket[8]": ["int", "long", "string", "date", "timestamp", "uuid", "binary"],
    "truncate[3]": ["int", "long", "decimal(9,2)", "string", "binary"],
    "truncate[1]": ["string"],
    "year": ["date", "timestamp", "timestamptz"],
    "month": ["date", "timestamp"],
    "day": ["date", "timestamp", "timestamptz"],
    "hour": ["timestamp", "timestamptz"],
    "void": ["long"],
}
COLUMN_TYPES = ["long", "double", "float", "string", "binary", "decimal(9,2)", "date", "timestamp"]
POLICIES = ("exact", "truncated", "no-bounds", "no-counts", "no-nan-count", "no-lower")


class KnownPlanningDisagreement(UserWarning):
    """Random planning inputs on which an engine breaks a property inside a recorded finding."""


class UndefinedInputNote(UserWarning):
    """Random planning inputs the spec defines no answer for (the reference rejects them under a
    rule) that an engine answered, or rejected under another rule: noted, never a finding."""


def _no_negative_zero(v):
    return 0.0 if isinstance(v, float) and v == 0.0 else v


_YEAR_1 = -719_162  # 0001-01-01 in days from the epoch


def _in_years_1_to_9999(t, v) -> bool:
    """Temporal values before year 1 are left out: PyIceberg's transforms cannot take them (recorded
    for the transform vectors: random-value scope year-outside-1-9999)."""
    name = getattr(t, "name", "")
    if v is None or name not in ("date", "timestamp", "timestamptz"):
        return True
    return v >= (_YEAR_1 if name == "date" else _YEAR_1 * 86_400_000_000)


def _schema(t: str) -> dict:
    return {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": t}]}


@st.composite
def _projection_inputs(draw) -> tuple[dict, list[bool], Expr]:
    transform = draw(st.sampled_from(sorted(TRANSFORMS)))
    name = draw(st.sampled_from(TRANSFORMS[transform]))
    t = parse_type(name)
    family = draw(st.sampled_from([f for f in pst.FAMILIES if pst.supports(t, f) and f != "nan"]))
    expr, values = draw(pst.cases(t, family))
    values = [v for v in values if v is not None and not is_nan(v) and _in_years_1_to_9999(t, v)]
    if not values or not all(_in_years_1_to_9999(t, v) for p in leaves(expr) for v in p.literals):
        values = [v for v in [draw(pst.literals(t))] if _in_years_1_to_9999(t, v)] or [0]
        expr = TRUE
    truth = [evaluate(expr, {"x": v}, {"x": t}) for v in values]
    inp = {
        "schema": _schema(name),
        "spec": [{"name": "p", "source": "x", "transform": transform}],
        "predicate": predicate_json(expr, {"x": t}),
        "mode": draw(st.sampled_from(["inclusive", "strict"])),
        "rows": [{"x": encode(t, v)} for v in values],
    }
    return inp, truth, expr


def _column_case(draw) -> tuple[str, Any, Expr, list]:
    """A column type, a predicate on it and values near its literals, with no -0.0 (shared by the
    metrics and manifest inputs)."""
    name = draw(st.sampled_from(COLUMN_TYPES))
    t = parse_type(name)
    family = draw(st.sampled_from([f for f in pst.FAMILIES if pst.supports(t, f)]))
    expr, values = draw(pst.cases(t, family, size=8))
    return name, t, _without_negative_zero(expr), [_no_negative_zero(v) for v in values]


@st.composite
def _metrics_inputs(draw) -> tuple[dict, list[bool], Expr]:
    name, t, expr, values = _column_case(draw)
    policy = draw(st.sampled_from(POLICIES))
    m = column_metrics(t, values, draw(st.integers(1, 4)) if policy == "truncated" else None)
    drop = {
        "no-bounds": ("lower_bound", "upper_bound"),
        "no-counts": ("value_count", "null_value_count", "nan_value_count"),
        "no-nan-count": ("nan_value_count",),
        "no-lower": ("lower_bound",),
    }.get(policy, ())
    m = dataclasses.replace(m, **{k: None for k in drop})
    metrics = {k: (v.hex() if isinstance(v, bytes) else v) for k, v in dataclasses.asdict(m).items() if v is not None}
    truth = _truths(expr, values, t)
    inp = {
        "schema": _schema(name),
        "predicate": predicate_json(expr, {"x": t}),
        "mode": draw(st.sampled_from(["inclusive", "strict"])),
        "record-count": len(values),
        "metrics": {"x": metrics},
    }
    return inp, truth, expr


@st.composite
def _manifest_inputs(draw) -> tuple[dict, list[bool], Expr]:
    name, t, expr, values = _column_case(draw)
    s = partition_summaries([t], [[v] for v in values])[0]
    summary = {
        "contains_null": s.contains_null,
        "contains_nan": s.contains_nan if draw(st.booleans()) else None,
        "lower_bound": None if s.lower_bound is None else s.lower_bound.hex(),
        "upper_bound": None if s.upper_bound is None else s.upper_bound.hex(),
    }
    truth = _truths(expr, values, t)
    inp = {"fields": [{"name": "x", "type": name}], "predicate": predicate_json(expr, {"x": t}), "summaries": [summary]}
    return inp, truth, expr


def _truths(expr: Expr, values: list, t) -> list[bool | None]:
    """Whether each row matches; None for a row the spec leaves open (a null or NaN operand, NOT
    over one: `spec_impl.obligations.rows`), which no property is held against."""
    return [None if open_question(expr, {"x": v}) else evaluate(expr, {"x": v}, {"x": t}) for v in values]


def _without_negative_zero(e: Expr) -> Expr:
    from spec_impl.expressions.predicates import And, Not, Or, Pred

    if isinstance(e, Pred):
        return Pred(e.op, e.term, tuple(_no_negative_zero(v) for v in e.literals))
    if isinstance(e, (And, Or)):
        return type(e)(_without_negative_zero(e.left), _without_negative_zero(e.right))
    return Not(_without_negative_zero(e.child)) if isinstance(e, Not) else e


INPUTS = {
    "project-predicate": _projection_inputs(),
    "evaluate-metrics": _metrics_inputs(),
    "evaluate-manifest": _manifest_inputs(),
}


def broken(op: str, inp: dict, truth: list[bool | None], answer) -> bool:
    """Whether the answer breaks the property the spec forces."""
    if op == "project-predicate":
        pairs = list(zip(truth, answer))
        if inp["mode"] == "inclusive":
            return any(t and not a for t, a in pairs)
        return any(a and not t for t, a in pairs)
    if op == "evaluate-metrics" and inp["mode"] == "strict":  # every row must match; an open row refutes nothing
        return answer is True and any(t is False for t in truth)
    return any(t is True for t in truth) and answer is False


def known(engine: str, op: str, inp: dict) -> str | None:
    """The recorded finding a broken property reproduces, if any: a ledger scope covering the input
    (`random-value-scopes` of vectors/known/engines/), or a recorded projection vector case."""
    scope = known_entries.scope_for(engine, op, inp)
    if scope is not None:
        return scope.decided_by
    if op == "project-predicate":
        return _recorded_projection(engine, inp)
    return None


def _transform_kind(transform: str) -> str:
    return transform.split("[", 1)[0]


def _recorded_projection(engine: str, inp: dict) -> str | None:
    """A recorded violation of a projection vector case of the same transform and source type,
    inclusive or strict (the engine's ledger or a project's expectations): the random input
    reproduces it."""
    kinds = frozenset(_transform_kind(f["transform"]) for f in inp["spec"])
    return _recorded_projections(engine).get((kinds, _column_type(inp)))


@functools.cache
def _recorded_projections(engine: str) -> dict[tuple[frozenset[str], str], str]:
    """(transform kinds, source type) -> the violation recorded for a projection vector case."""
    out: dict[tuple[frozenset[str], str], str] = {}
    for family in load_families().values():
        for c in family:
            if c["op"] != "project-predicate":
                continue
            entry = known_entries.entry_for(engine, c)
            if entry is not None and entry.level == "violation":
                kinds = frozenset(_transform_kind(f["transform"]) for f in c["input"]["spec"])
                key = (kinds, _column_type(c["input"]))
                out.setdefault(key, f"the violation recorded for {c['id']}: {entry.reason or entry.observed}")
    return out


def _column_type(inp: dict) -> str:
    return (inp.get("schema") or {"fields": inp.get("fields")})["fields"][0]["type"]


@dataclasses.dataclass
class BatchJudgement:
    """What one batch of answers says about the properties."""

    problems: list[str] = dataclasses.field(default_factory=list)  # broken properties, errors and failures: findings
    known: list[str] = dataclasses.field(default_factory=list)  # broken properties inside a recorded finding
    # inputs the spec defines no answer for, by what the engine did: rejected, rejected-other-rule, answered
    undefined: dict[str, int] = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)  # those answered or rejected under another rule
    # the problems and known ones as (input, answer, outcome, message, recorded finding): conformance.random_findings
    found: list[tuple] = dataclasses.field(default_factory=list)
    judged: int = 0  # the answers judged (not declined as unsupported)


def judge_batch(
    engine: str, op: str, drawn: list[tuple[dict, list[bool], Expr]], answers: list[EngineAnswer], revision: str
) -> BatchJudgement:
    """Each answer against the property its input forces. An input the reference rejects under a
    rule is judged as a rejection case of that rule: a rejection is credited, another rule's
    rejection or an answer is noted (the spec defines no answer to hold against it), and only a
    failure (crash, hang, protocol) is a problem, as it is on any vector case."""
    out = BatchJudgement()
    for i, ((inp, truth, _), a) in enumerate(zip(drawn, answers)):
        if getattr(a, "unsupported", None):
            continue
        rule = reference_rule(op, inp, revision)
        if rule is not None:
            verdict = judge({"id": f"random-{i}", "op": op, "input": inp, "expected": {"error": rule}}, a, revision)
            if verdict.outcome == UNSUPPORTED:
                continue
        out.judged += 1
        if rule is not None:
            kind = "answered" if verdict.outcome == FAIL else verdict.outcome
            out.undefined[kind] = out.undefined.get(kind, 0) + 1
            if verdict.outcome in (REJECTED_OTHER_RULE, FAIL):
                out.notes.append(f"{rule}: {('answered ' + repr(a.output)) if a.ok else a.error}"[:300])
            elif verdict.outcome != REJECTED:  # a failure (crash, hang, protocol) is never a rejection
                message = f"{verdict.outcome} where the reference rejects under {rule}: {verdict.message}"
                out.problems.append(f"  {inp}: {message}")
                out.found.append((inp, a, verdict.outcome, message, None))
        elif not a.ok:  # an error where the spec defines an answer: known where a vector case records it
            reason = known(engine, op, inp)
            if reason:
                out.known.append(reason)
            else:
                out.problems.append(f"  {inp}: raised {a.error}")
            out.found.append((inp, a, ERRORED, f"raised {a.error}", reason))
        elif broken(op, inp, truth, a.output):
            reason = known(engine, op, inp)
            message = f"answered {a.output}, rows match: {truth}"
            if reason:
                out.known.append(reason)
            else:
                out.problems.append(f"  {inp}: {message}")
            out.found.append((inp, a, FAIL, message, reason))
    return out


@pytest.mark.random_values
@pytest.mark.parametrize("op", OPS)
def test_engine_keeps_the_planning_properties(random_engine: str, op: str, request: pytest.FixtureRequest) -> None:
    runner = request.config.stash[RUNNER]
    slot = runner.slots[random_engine]
    if slot.engine is None or not slot.started:
        pytest.skip(f"engine unavailable: {slot.unavailable or slot.broken}")
    if op not in slot.engine.capabilities:
        pytest.skip(f"{random_engine} lacks the capability {op!r}")
    revision = slot.engine.revision
    found_known: list[str] = []
    undefined: dict[str, int] = {}
    notes: list[str] = []
    judged: list[int] = []
    problems: list[str] = []
    saved: list = []

    @settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), phases=(Phase.generate,))
    @given(st.lists(INPUTS[op], min_size=BATCH, max_size=BATCH))
    def check(drawn: list) -> None:
        cases = [
            {"id": f"random-{i}", "op": op, "input": inp, "expected": {"output": None}}
            for i, (inp, _, _) in enumerate(drawn)
        ]
        answers = runner.ask(random_engine, op, cases)
        batch = judge_batch(random_engine, op, drawn, answers, revision)
        judged.append(batch.judged)
        found_known.extend(batch.known)
        for outcome, n in batch.undefined.items():
            undefined[outcome] = undefined.get(outcome, 0) + n
        notes.extend(batch.notes)
        saved.append(random_findings.save(request, [finding(slot.engine, op, *f) for f in batch.found]))
        problems.extend(batch.problems)

    try:
        check()
    finally:
        request.node.user_properties.append(("judged", sum(judged)))
    if not sum(judged):
        pytest.skip(f"{random_engine} {op}: every random input was declined (unsupported): none judged")
    outcome, entry = known_entries.random_verdict(random_engine, op, len(problems))
    request.node.user_properties.append(("verdict", outcome))
    if problems:
        head = f"{random_engine} breaks the {op} property on {len(problems)} of {sum(judged)} random inputs"
        request.node.user_properties.append(("message", head))
        if outcome == KNOWN:
            pytest.xfail(f"{entry.known_message()} ({head})")  # type: ignore[union-attr]
        pytest.fail(
            f"{head}:\n" + "\n".join(problems[:6]) + adopt_hint(next((p for p in reversed(saved) if p), None)),
            pytrace=False,
        )
    request.node.user_properties.append(("known_disagreements", len(found_known)))
    request.node.user_properties.append(("undefined_inputs", dict(undefined)))
    if found_known:
        warnings.warn(
            f"{random_engine} {op}: {len(found_known)} random inputs reproduce recorded findings: "
            f"{' | '.join(sorted(set(found_known)))}" + adopt_hint(random_findings.path(request)),
            KnownPlanningDisagreement,
            stacklevel=1,
        )
    if notes:
        warnings.warn(
            f"{random_engine} {op}: {len(notes)} random inputs the spec defines no answer for (the reference "
            f"rejects them) were answered or rejected under another rule, e.g. {notes[0]}",
            UndefinedInputNote,
            stacklevel=1,
        )
