"""Questions the spec leaves open: each case at the `reading` level names one of them.

A question says what is asked, the defensible answers, the sentences of the spec nearest to it
(each quote occurs in its document; `tests/test_obligations.py` checks), which reading the
reference takes, and a proposed clarification a spec maintainer could adopt. The spec-gaps report
(`reports/spec-gaps.html`) groups the engines' answers under these questions.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_impl.obligations.levels import ADOPTED, SPEC


@dataclass(frozen=True)
class Question:
    id: str
    asks: str
    alternatives: tuple[str, ...]
    sentences: tuple[tuple[str, str], ...]  # (document, quote)
    reference: str  # the reading the reference takes
    clarification: str  # a proposed clarification of the spec

    def as_json(self) -> dict:
        return {"id": self.id, "asks": self.asks, "alternatives": list(self.alternatives),
                "sentences": [{"document": d, "quote": q} for d, q in self.sentences],
                "reference": self.reference, "clarification": self.clarification}  # fmt: skip


def _questions(*qs: Question) -> dict[str, Question]:
    table: dict[str, Question] = {}
    for q in qs:
        if q.id in table:
            raise ValueError(f"duplicate question id {q.id}")
        table[q.id] = q
    return table


_INCLUSIVE = "if a scan predicate matches a row, then the partition predicate must match that row’s partition"

QUESTIONS: dict[str, Question] = _questions(
    Question("predicate.null-operand",
             "Is an ordering, equality or set predicate (x < 5, x = 5, x IN (1, 2)) true for a row whose x is null?",
             ("false: null matches no such predicate (SQL's unknown, treated as not true)",
              "true where null sorts first (a comparator with nulls first, as in Iceberg Java's row Evaluator)"),
             ((SPEC, _INCLUSIVE),),
             "false: null matches no ordering, equality or set predicate",
             "State that scan predicates follow SQL three-valued logic: a comparison with a null operand is unknown, and "
             "a row (or partition) matches only when the predicate is true."),
    Question("predicate.not-of-null",
             "Is NOT (x < 5) true for a row whose x is null?",
             ("false: NOT of unknown is unknown (three-valued logic)",
              "true: NOT of false (two-valued logic, the leaf being false for null)"),
             ((SPEC, _INCLUSIVE),),
             "false: NOT is pushed to the leaves (NOT (x < 5) is x >= 5), which are false for null",
             "State that NOT over a predicate with a null operand is not true (three-valued logic), so that "
             "NOT (x < 5) and x >= 5 select the same rows."),
    Question("predicate.nan-operand",
             "Is an ordering or equality predicate true for a row whose float value is NaN (NaN > 0.0, NaN = NaN)?",
             ("false: NaN matches no ordering or equality predicate (IEEE 754 comparison)",
              "true where NaN sorts last (Java's Double.compare, the spec's sort order)"),
             ((SPEC, "Sorting floating-point numbers should produce the following behavior: -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN."),
              (SPEC, "NaNs are not permitted as lower or upper bounds.")),
             "false: NaN matches only is_nan and not_nan",
             "Say whether predicate comparisons use IEEE 754 comparison or the sort order given for floating-point "
             "numbers, and how NaN behaves in each."),
    Question("predicate.signed-zero",
             "Do -0.0 and +0.0 compare equal in predicates and bounds (does f <= -0.0 hold for f = +0.0)?",
             ("equal: IEEE 754 comparison, -0.0 = +0.0", "ordered: -0.0 < +0.0, as in the sort order"),
             ((SPEC, "Sorting floating-point numbers should produce the following behavior: -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN."),),
             "equal: -0.0 = +0.0 in predicates; bounds follow the signed-zero rule of partition summaries",
             "Say whether scan predicates compare floating-point values by IEEE 754 comparison (where -0.0 = 0.0) or by "
             "the sort order (where -0 < 0)."),
    Question("names.case-sensitivity",
             "Are type names and transform names case-sensitive (Long, BUCKET[16], Identity)?",
             ("case-sensitive: only the spelling in the spec is valid", "case-insensitive"),
             ((SPEC, "Partition field IDs must be reused if an existing partition spec contains an equivalent field."),),
             "case-sensitive: only the spec's spelling",
             "State that type strings and transform names are case-sensitive and written in lower case, as in the "
             "tables of the spec."),
    Question("transform.malformed-or-unknown",
             "Is a malformed transform string (bucket[x], truncate[0], bucket[-1]) an error, or an unknown transform a v3 reader must tolerate?",
             ("an error: the string names a known transform with bad parameters",
              "an unknown transform: any string that is not a valid transform is unknown and ignored"),
             ((SPEC, "All v3 readers are required to read tables with unknown transforms, ignoring them."),),
             "an error for a known transform name with bad parameters; unknown only for other names",
             "Define which strings are unknown transforms (for example: any name not in the transform table) and say "
             "that a known transform with invalid parameters is an invalid partition spec."),
    Question("read.column-order",
             "In which order does a whole-table read return the columns?",
             ("the current schema's field order", "any order: columns are identified by name or field id"),
             ((SPEC, "The table schema's column names and order may change after a data file is written, and projection must be done using field ids."),),
             "the current schema's field order",
             "Say whether a reader must return the columns of a full-table read in the table schema's order."),
    Question("input.decimal-scale",
             "What is the result of an operation on a decimal value given at a scale other than its type's (1.5 for decimal(9,2))?",
             ("an error: the value is not a value of the type", "the value rescaled to the type's scale",
              "the result computed on the value as given"),
             ((SPEC, "Decimal scale is fixed and cannot be changed by schema evolution."),),
             "rescaled when no rounding is needed, an error otherwise",
             "The spec defines operations on values of a type only; an input at another scale is a form this suite "
             "added, and the spec need not define it."),
    Question("input.undefined",
             "What should an operation answer for an input the spec does not define (a value outside its type's range, an overflowing transform, a type the operation does not apply to)?",
             ("an error", "any answer: the spec defines none"),
             ((SPEC, "Supported primitive types are defined in the table below."),),
             "an error naming the rule the input breaks",
             "Say, for each transform and serialization, what an implementation does with an input outside its "
             "domain (for example truncate of the long minimum, whose result does not fit a long)."),
    Question("reader.writer-rule-broken",
             "What should a reader do with a document or table that breaks a rule imposed on writers?",
             ("reject it", "read it as written", "read it after repairing the broken part"),
             ((SPEC, "Writers should not write using partition specs that use unknown transforms."),),
             "reject it, naming the rule (the reference is also the validator)",
             "For each writer requirement, say whether readers must reject a violation, may read it, or must read it "
             "in a stated way."),
)


def question(question_id: str) -> Question:
    try:
        return QUESTIONS[question_id]
    except KeyError:
        raise KeyError(f"unknown question {question_id!r}; known: {', '.join(sorted(QUESTIONS))}") from None
