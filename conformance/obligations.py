"""The judge follows each case's obligation (`spec_impl.obligations`): must, allowed or reading.

`judge.judge` first compares the answer with the reference's exactly; `follow` then turns that
exact verdict into the one the spec's words support:

- `must`: the exact verdict stands, except on *open rows* (a row whose truth the spec leaves open:
  a null, NaN or signed-zero operand): a difference there alone is a divergence;
- `allowed`: an answer inside the set the case states is `allowed` (a difference the spec
  permits); outside it the exact verdict stands, so a real violation is still a failure;
- `reading`: another answer, a rejection included, is a `divergence`: never a failure.

A crash, a hang or a broken protocol stays `errored` at every level, and so does an output that is
no answer of the op at all (`conformance.answer_shape`: another kind of value, a bucket outside
`[0, N)`): it is no reading of anything. A case without an obligation (the random tests build
some on the fly) is judged as `must`.
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import SpecError
from spec_impl.obligations import levels
from spec_impl.ops.registry import run

from conformance import readings
from conformance.answer_shape import not_an_answer
from conformance.comparison import answers_as, sorted_rows
from conformance.engines.base import EngineAnswer

DIVERGENCE, ALLOWED = "divergence", "allowed"
READ_COLUMN_ORDER = "read.column-order"


def obligation(case: dict[str, Any]) -> dict[str, Any]:
    return case.get("obligation") or {"level": levels.MUST}


def follow(
    case: dict[str, Any],
    answer: EngineAnswer,
    outcome: str,
    message: str,
    want: Any,
    credited: tuple[str, ...],
    revision: str = "v3-adopted",
    malformed: bool = False,
) -> tuple[str, str, str | None]:
    """(outcome, message, question of a divergence) once the case's obligation is applied to the
    exact verdict. `malformed`: the output did not read as the op's kind of value."""
    if answer.failed or answer.unsupported is not None or outcome in credited:
        return outcome, message, None
    o = obligation(case)
    if o["level"] == levels.READING and not answer.ok and o["question"] in readings.READ_REQUIRED:
        return outcome, f"{message} (the spec requires reading it; {o['question']} asks only how)", None
    if o["level"] == levels.READING and answer.ok:
        computed = readings.other_readings(o["question"], case, revision)
        if computed is not None:
            if any(
                answers_as(seen, {"output": out}, answer, revision) or readings.same_decimal(case, out, answer.output)
                for seen, out in computed
            ):
                return _diverges(o["question"], f"the reference reads {o['reference']!r}; {_said(answer, message)}")
            return outcome, f"{message} (none of the readings of {o['question']})", None
    if answer.ok and (malformed or (why := not_an_answer(case, want, answer.output))):  # want None: a rejection case
        return (
            outcome,
            f"{message} (no answer of the op, so no reading of anything{'' if malformed else ': ' + why})",
            None,
        )
    if o["level"] == levels.READING:
        return _diverges(o["question"], f"the reference reads {o['reference']!r}; {_said(answer, message)}")
    if case["op"] == "read-table" and answer.ok and _same_rows_other_order(want, answer.output):
        return _diverges(
            READ_COLUMN_ORDER, f"the columns are {answer.output['columns']}, the schema's order is {want['columns']}"
        )
    if o["level"] == levels.ALLOWED:
        return _allowed(case, o, answer, outcome, message, want)
    if o.get("open-rows") and answer.ok:
        return _open_rows_only(o, want, answer.output, outcome, message)
    return outcome, message, None


METRIC_KEYS = ("value_count", "null_value_count", "nan_value_count", "lower_bound", "upper_bound")


def metrics_wrong(case: dict[str, Any], got: Any) -> list[str] | None:
    """The rules a column-metrics answer breaks for the case's values (check-column-metrics over the
    metrics written, a null one absent); None when the answer is no metrics object at all."""
    if not isinstance(got, dict) or not set(got) <= set(METRIC_KEYS):
        return None
    claimed = {k: v for k, v in got.items() if v is not None}
    inp = case["input"]
    try:
        return run("check-column-metrics", {**inp, "metrics": claimed}, "v3-adopted")
    except SpecError:
        return None


def _diverges(question: str, detail: str, more: tuple[str, ...] = ()) -> tuple[str, str, str]:
    """A divergence on an open question (the first of several), with what the engine said."""
    named = ", ".join((question, *more))
    return DIVERGENCE, f"the spec leaves open {named}: {detail}", question


def _allowed(
    case: dict, o: dict, answer: EngineAnswer, outcome: str, message: str, want: Any
) -> tuple[str, str, str | None]:
    check, why = o["check"], f"allowed ({o['allowance']}: “{o['quote']}”)"
    kind = check["kind"]
    if kind == levels.ANSWER_OR_REJECT:
        return ALLOWED, f"{why}: {_said(answer, message)}", None
    if kind == levels.CORRECT_OR_REJECT:
        return (
            (ALLOWED, f"{why}: the engine refused: {answer.error}", None) if not answer.ok else (outcome, message, None)
        )
    if kind == levels.VALID_METRICS:
        wrong = metrics_wrong(case, answer.output) if answer.ok else None
        if wrong == []:
            return ALLOWED, f"{why}: {_said(answer, message)}", None
        return outcome, message if not wrong else f"{message} (wrong: {', '.join(wrong)})", None
    if kind == levels.ONE_OF:
        if any(answers_as(case, a, answer) for a in check.get("answers", [])[1:]):
            return ALLOWED, f"{why}: {_said(answer, message)}", None
        return outcome, message, None
    if not answer.ok:
        if kind == levels.STRICT:  # the spec requires no strict answer: declining one accepts nothing, which is sound
            return (
                ALLOWED,
                f"{why}: the engine declined to evaluate strictly ({answer.error}), which accepts nothing",
                None,
            )
        return outcome, message, None
    got = answer.output
    if isinstance(want, bool) and isinstance(got, bool):  # one file or manifest
        keeps_more = kind == levels.INCLUSIVE and want is False and got is True
        accepts_less = kind == levels.STRICT and want is True and got is False
        if keeps_more or accepts_less:
            return ALLOWED, f"{why}: answered {got}, the tightest answer is {want}", None
        return outcome, message, None
    if (
        isinstance(want, list)
        and isinstance(got, list)
        and len(got) == len(want)
        and all(isinstance(g, bool) for g in got)
    ):
        return _rows(kind, check.get("row-matches") or [None] * len(want), o.get("open-rows", []), want, got, why)
    return outcome, message, None


def _rows(
    kind: str, matches: list, open_rows: list[dict], want: list, got: list, why: str
) -> tuple[str, str, str | None]:
    """Per row of a projection: a violation where soundness breaks, else divergence on open rows,
    else an allowed loss of precision."""
    questions = {o["row"]: o["question"] for o in open_rows}
    violations, diverged, imprecise = [], [], []
    for i, (w, g, m) in enumerate(zip(want, got, matches)):
        if w == g:
            continue
        if i in questions or m is None:
            diverged.append(i)
        elif (kind == levels.INCLUSIVE and m is True and g is False) or (
            kind == levels.STRICT and m is False and g is True
        ):
            violations.append(i)
        else:
            imprecise.append(i)
    if violations:
        rule = (
            "matches the predicate but its partition is not matched"
            if kind == levels.INCLUSIVE
            else "does not match the predicate but its partition is matched"
        )
        return "fail", f"row {violations[0]} {rule} (expected {want}, got {got})", None
    if diverged:
        first, *more = sorted({questions.get(i, "predicate.null-operand") for i in diverged})
        return _diverges(first, f"rows {diverged} differ (reference {want}, engine {got})", tuple(more))
    return ALLOWED, f"{why}: rows {imprecise} less tight than the reference (reference {want}, engine {got})", None


def _open_rows_only(o: dict, want: Any, got: Any, outcome: str, message: str) -> tuple[str, str, str | None]:
    if not (isinstance(want, list) and isinstance(got, list) and len(want) == len(got)):
        return outcome, message, None
    questions = {r["row"]: r["question"] for r in o["open-rows"]}
    differing = [i for i, (w, g) in enumerate(zip(want, got)) if w != g]
    if differing and all(i in questions for i in differing):
        first, *more = sorted({questions[i] for i in differing})
        return _diverges(first, f"rows {differing} differ (reference {want}, engine {got})", tuple(more))
    return outcome, message, None


def _same_rows_other_order(want: Any, got: Any) -> bool:
    """Whether a table read returned the expected rows with the columns in another order (any
    shape of answer: garbage is simply not the same rows)."""

    if not (
        isinstance(want, dict)
        and isinstance(got, dict)
        and isinstance(got.get("columns"), list)
        and isinstance(got.get("rows"), list)
        and all(isinstance(r, dict) for r in got["rows"])
    ):
        return False
    try:
        return (
            got["columns"] != want["columns"]
            and sorted(map(str, got["columns"])) == sorted(want["columns"])
            and sorted_rows(want["rows"]) == sorted_rows(got["rows"])
        )
    except (TypeError, ValueError):  # rows whose values JSON cannot write
        return False


def _said(answer: EngineAnswer, message: str) -> str:
    return f"the engine refused: {answer.error}" if not answer.ok else message or "the engine answered otherwise"
