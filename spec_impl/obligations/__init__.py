"""What the spec obliges an engine to answer, case by case: `must`, `allowed` or `reading`.

A vector case says what the reference computes; its *obligation* says how much of that the spec's
words require of an engine:

- `must`: the spec states the outcome. The case cites the sentence (document, section, quote).
- `allowed`: the spec permits a set of outcomes; the case states the set, or a check over
  answers (inclusive pruning that keeps more, a type the spec does not hash refused, a reader
  that reads a document breaking a writer rule). An answer in the set is never a finding.
- `reading`: the spec is silent or ambiguous; the case names the question and the alternatives,
  and the reference's answer is one reading among them. Another answer is a *divergence*, never a
  finding (`reports/spec-gaps.html` shows how engines answer each question).

`obligation_for(case)` assigns the obligation of a built case (`assign.py`); the questions and
allowances are registries (`questions.py`, `allowances.py`) that vectors name by id.
"""

from spec_impl.obligations.allowances import ALLOWANCES, Allowance
from spec_impl.obligations.assign import ROLES, obligation_for, role_of
from spec_impl.obligations.levels import ALLOWED, LEVELS, MUST, READING
from spec_impl.obligations.questions import QUESTIONS, Question

__all__ = [
    "ALLOWANCES",
    "ALLOWED",
    "Allowance",
    "LEVELS",
    "MUST",
    "QUESTIONS",
    "Question",
    "READING",
    "ROLES",
    "obligation_for",
    "role_of",
]
