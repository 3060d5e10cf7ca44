"""Judging an engine's answer to a vector case, with a readable reason.

Outcomes, kept apart:

- `pass`: a correct answer to a case that expects an output;
- `rejected`: a correct rejection of an input the spec forbids (the case names the rule); an
  engine's rejection is credited only when it rejects, never when it fails;
- `rejected-other-rule`: the engine rejected the input, but says it did so under another rule
  than the case's (a visible outcome of its own, not a failure);
- `fail`: a wrong answer, or an input the spec forbids accepted;
- `errored`: the engine raised where the spec defines a result, or it failed (crashed, hung,
  broke the protocol) on any case;
- `unsupported`: the engine declined the case, with its reason (reported as a skip).

Outputs compare by meaning where the spec allows several spellings: types by their parsed model
(`decimal(9, 2)` equals `decimal(9,2)`), JSON single values by the value they decode to (Java's
`22:31:08` equals `22:31:08.000000`, upper-case hex equals lower-case), floats by their bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from spec_impl.errors import SpecError

from conformance import obligations
from conformance.comparison import answers_as as answers_as  # re-exported: the judge's public helpers
from conformance.comparison import equal_by_meaning, show
from conformance.comparison import same_output as same_output
from conformance.comparison import sorted_rows as sorted_rows
from conformance.engines.base import EngineAnswer

PASS, REJECTED, REJECTED_OTHER_RULE = "pass", "rejected", "rejected-other-rule"
FAIL, ERRORED, UNSUPPORTED = "fail", "errored", "unsupported"
KNOWN, FIXED = "known", "fixed"  # decided against a recorded discrepancy (conformance.known)
DIVERGENCE, ALLOWED = obligations.DIVERGENCE, obligations.ALLOWED  # the spec leaves it open / permits it
EXACT = (PASS, REJECTED, REJECTED_OTHER_RULE)  # the reference's answer (or its rejection)
CREDITED = EXACT + (DIVERGENCE, ALLOWED)  # outcomes that do not fail a run


@dataclass(frozen=True)
class Verdict:
    outcome: str
    message: str = ""
    question: str | None = None  # the open question a divergence answers otherwise (spec_impl.obligations.questions)
    malformed: bool = False  # the output does not read as the op's kind of value: no reading of anything


def expects_rejection(case: dict[str, Any]) -> bool:
    """Whether the case expects the engine to reject its input (`{"error": RULE}`)."""
    return "error" in case["expected"]


def judge(
    case: dict[str, Any],
    answer: EngineAnswer,
    revision: str,
    view: Callable[[str, Any], Any] = lambda op, output: output,
) -> Verdict:
    """The verdict the spec's words support: the exact comparison with the reference, then the
    case's obligation (`conformance.obligations`: allowed answers, divergences on open questions).
    `view(op, expected_output)` narrows the expectation to the part an engine reports
    (`Engine.partial_view`); it is the identity for engines that answer in full."""
    exact = judge_exactly(case, answer, revision, view)
    want = None if expects_rejection(case) else view(case["op"], case["expected"]["output"])
    outcome, message, question = obligations.follow(
        case, answer, exact.outcome, exact.message, want, EXACT, revision, exact.malformed
    )
    return exact if (outcome, message) == (exact.outcome, exact.message) else Verdict(outcome, message, question)


def judge_exactly(
    case: dict[str, Any],
    answer: EngineAnswer,
    revision: str,
    view: Callable[[str, Any], Any] = lambda op, output: output,
) -> Verdict:
    """The answer against the reference's, exactly (outputs compared by meaning)."""
    if answer.unsupported is not None:
        return Verdict(UNSUPPORTED, f"the engine does not support this case: {answer.unsupported}")
    if answer.failed:
        return Verdict(ERRORED, f"the engine failed: {answer.error}")
    expected = case["expected"]
    if expects_rejection(case):
        rule = expected["error"]
        if answer.ok:
            return Verdict(FAIL, f"accepted an input the spec rejects (rule {rule}): returned {show(answer.output)}")
        if answer.rule is not None and answer.rule != rule:
            return Verdict(
                REJECTED_OTHER_RULE, f"rejected under rule {answer.rule}, the case's rule is {rule}: {answer.error}"
            )
        return Verdict(REJECTED)
    want = view(case["op"], expected["output"])
    if not answer.ok:
        return Verdict(ERRORED, f"raised: {answer.error}; expected {show(want)}")
    try:
        equal = equal_by_meaning(case, want, answer.output, revision)
    except (SpecError, KeyError, TypeError, ValueError) as e:
        return Verdict(
            FAIL,
            f"returned {show(answer.output)}, which does not read as the expected kind of value "
            f"or is not in the form the spec prescribes ({e}); "
            f"expected {show(want)}",
            malformed=True,
        )
    if equal:
        return Verdict(PASS)
    return Verdict(FAIL, f"expected {show(want)}, got {show(answer.output)}")
