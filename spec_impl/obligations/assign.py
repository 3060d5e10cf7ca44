"""Assigning each vector case its obligation, from the op's role, the rule and the spec's words.

In order, the first that applies:

1. an input form that puts the case under an open question, recognised from its input alone
   (`spec_impl.obligations.input_forms`: a decimal at another scale than its type's, a date beyond
   years 0000 to 9999, a NaN other than the canonical one, a pruning answer that hinges on the
   sign of a zero, ...), or under an allowance (a JSON time without seconds, which a reader may
   refuse), so that a random test's case of the same input is judged alike;
   then a decision recorded for the case (`decisions.json`: the triage of engine differences
   against the spec texts, each with its quote), which never covers a case an input form does;
2. the rule's level where the rule itself is a reading or an allowance (`RULE_LEVELS`);
3. a rejection case: a validator must reject; a reader may read what breaks a rule it has no duty
   to enforce (`reader.may-accept`) unless the spec tells readers to reject (`READERS_MUST_REJECT`);
   any other op given an input outside what the spec defines answers a `reading`
   (`input.undefined`);
4. a computed case: pruning and projection are checked for soundness (`allowed`, inclusive or
   strict), a type the spec does not hash may be refused, rows whose truth the spec leaves open
   (null, NaN or a signed zero under a comparison) are marked open; otherwise `must`, citing the
   rule's sentence.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from spec_impl.obligations.allowances import allowance
from spec_impl.obligations.levels import (
    ALLOWED,
    ANSWER_OR_REJECT,
    CORRECT_OR_REJECT,
    INCLUSIVE,
    MUST,
    ONE_OF,
    READING,
    STRICT,
)
from spec_impl.obligations.input_forms import allowance_of, question_of
from spec_impl.obligations.questions import question

READER, VALIDATOR, WRITER, COMPUTATION = "reader", "validator", "writer", "computation"
ROLES: dict[str, str] = {
    **dict.fromkeys(
        (
            "parse-type",
            "parse-transform",
            "from-json",
            "from-binary",
            "read-table-metadata",
            "read-view-metadata",
            "read-metadata-file",
            "parse-snapshot",
            "parse-partition-spec",
            "parse-sort-order",
            "parse-schema",
            "parse-name-mapping",
            "read-manifest-tree",
            "read-table",
            "read-parquet",
            "read-data-file",
            "read-deletion-vector",
            "read-puffin",
            "v4-read-manifest",
            "v4-replay",
            "inherit-manifest-entries",
            "project",
            "row-lineage",
            "manifest-avro-schema",
            "parse-content-file",
            "parse-file-scan-task",
        ),
        READER,
    ),
    **dict.fromkeys(
        (
            "validate-tree",
            "validate-history",
            "validate-statistics",
            "v4-validate",
            "check-column-metrics",
            "read-geo-bounds",
            "check-evolution",
            "check-file-counts",
            "check-partition-summaries",
            "check-partition-tuple",
            "check-position-deletes",
            "check-parquet-schema",
            "check-content-file",
            "partition-spec-findings",
            "view-findings",
        ),
        VALIDATOR,
    ),
    **dict.fromkeys(
        (
            "write-table-metadata",
            "assign-partition-field-ids",
            "assign-manifest-first-row-ids",
            "v4-upgrade",
            "parquet-round-trip",
            "column-metrics",
            "partition-summaries",
            "partition-tuple",
            "write-content-file",
        ),
        WRITER,
    ),
    **dict.fromkeys(
        (
            "hash",
            "transform",
            "to-binary",
            "to-json",
            "result-type",
            "promote",
            "min-format-version",
            "evaluate-predicate",
            "evaluate-metrics",
            "evaluate-manifest",
            "plan-manifest",
            "project-predicate",
            "plan-deletes",
            "apply-equality-deletes",
            "expire-snapshots",
            "sort-values",
            "partition-type",
            "partition-values-equal",
        ),
        COMPUTATION,
    ),
}

# Rules whose rejection the spec puts on every reader ("Implementations must throw an exception if a
# table's version is higher than the supported version"; the view spec says the same of views): a
# format-version number above the supported one. Other malformed versions are not said to throw.
READERS_MUST_REJECT = frozenset({"table.format-version", "view.format-version"})
# Rules whose rejection the spec puts on every writer ("If the write default for a required field is not
# set, the writer must fail").
WRITERS_MUST_REJECT = frozenset({"write.default.required"})


def _above_supported(case: dict[str, Any]) -> bool:
    doc = case["input"].get("document")
    version = doc.get("format-version") if isinstance(doc, dict) else None
    supported = 1 if case["rule"] == "view.format-version" else 3
    return isinstance(version, int) and not isinstance(version, bool) and version > supported


# The question an input outside what the spec defines asks of an op that is not a reader or a
# validator, by the rule the reference rejects it under (default: input.undefined). The reference's
# own limits (type.nesting-limit) and safety rule (tree.file-location) are not the spec's: the
# spec sets no nesting limit and tracks files anywhere.
REJECTION_QUESTIONS: dict[str, str] = {
    "transform.overflow": "transform.result-overflow",
    "transform.source-type": "transform.source-type",
    "value.decimal": "input.decimal-scale",
    "value.range": "input.out-of-range",
    "type.nesting-limit": "input.undefined",
    "tree.file-location": "input.undefined",
}

# Rules that are a reading or an allowance as a whole: rule id -> ("reading", question) | ("allowed", allowance).
RULE_LEVELS: dict[str, tuple[str, str]] = {
    "hash.floating": (ALLOWED, "hash.not-bucketable"),
    "hash.boolean": (ALLOWED, "hash.not-bucketable"),
    "hash.unknown": (ALLOWED, "hash.not-bucketable"),
    "file-pruning.manifest-summaries": (ALLOWED, "pruning.may-skip"),
    "file-pruning.manifest-counts": (ALLOWED, "pruning.may-skip"),
    "file-pruning.manifest-spec": (ALLOWED, "pruning.may-skip"),
    "history.deleted-were-live": (READING, "history.deleted-not-live"),
    "metadata-column.partition-unified": (READING, "metadata-column.partition-type"),
    "metadata-column.deleted": (READING, "metadata-column.deleted-rows"),
}

_PRUNING = {"inclusive": "pruning.inclusive-keeps-more", "strict": "pruning.strict-accepts-less"}


def role_of(op: str) -> str:
    """Who answers this op in a real engine: a reader, a validator, a writer, or a computation."""
    try:
        return ROLES[op]
    except KeyError:
        raise KeyError(f"op {op!r} has no role in spec_impl.obligations.assign.ROLES") from None


def obligation_for(case: dict[str, Any]) -> dict[str, Any]:
    """The obligation of a built case (`id`, `rule`, `op`, `input`, `expected`)."""
    form_question = question_of(case)
    if form_question is not None:
        return _reading(case, form_question)
    form_allowance = allowance_of(case)
    if form_allowance is not None:
        allowance_id, citation = form_allowance
        return _allowed(case, allowance_id, citation=citation)
    decided = decisions().get(case["id"])
    if decided is not None:
        return _decided(case, decided)
    level = RULE_LEVELS.get(case["rule"])
    rejects = "error" in case["expected"]
    if level is not None:
        return _reading(case, level[1]) if level[0] == READING else _allowed(case, level[1])
    if rejects:
        return _rejection(case)
    return _computed(case)


def _rejection(case: dict[str, Any]) -> dict[str, Any]:
    role, rule_id = role_of(case["op"]), case["rule"]
    if rule_id in ("type.nesting-limit", "tree.file-location"):
        return _reading(case, REJECTION_QUESTIONS[rule_id])
    if role == VALIDATOR or (rule_id in READERS_MUST_REJECT and _above_supported(case)):
        return _must(case, rejected_by=role)
    if role == WRITER and rule_id in WRITERS_MUST_REJECT:
        return _must(case, rejected_by=role)
    if role == READER:
        return {**_allowed(case, "reader.may-accept", check={"kind": ANSWER_OR_REJECT}), "rejected-by": VALIDATOR}
    return _reading(case, REJECTION_QUESTIONS.get(rule_id, "input.undefined"))


def _computed(case: dict[str, Any]) -> dict[str, Any]:
    op, inp = case["op"], case["input"]
    if op == "evaluate-metrics":
        return _allowed(
            case, _PRUNING[inp["mode"]], check={"kind": INCLUSIVE if inp["mode"] == "inclusive" else STRICT}
        )
    if op == "project-predicate":
        from spec_impl.obligations.rows import open_rows, row_truths

        check = {"kind": INCLUSIVE if inp["mode"] == "inclusive" else STRICT, "row-matches": row_truths(inp)}
        return _allowed(case, _PRUNING[inp["mode"]], check=check, open_rows=open_rows(inp))
    if op == "evaluate-predicate":
        from spec_impl.obligations.rows import open_rows

        return _must(case, open_rows=open_rows(case["input"]))
    return _must(case)


# --- building the objects -------------------------------------------------------------------------


NULL_INPUT = "All transforms must return null for a null input value."
# "Partition Transforms", the table's description of each transform: the words that decide a transform
# of a non-null value, where its rule cites the null-input sentence (which decides the null inputs only).
TRANSFORM_DESCRIPTIONS = {
    "transform.identity": "Source value, unmodified",
    "transform.year": "Extract a date or timestamp year, as years from 1970",
    "transform.month": "Extract a date or timestamp month, as months from 1970-01-01",
    "transform.day": "Extract a date or timestamp day, as days from 1970-01-01",
    "transform.hour": "Extract a timestamp hour, as hours from 1970-01-01 00:00:00",
    "transform.void": "Always produces null",
}


def case_citation(case: dict[str, Any]) -> dict[str, str]:
    """The sentence that decides a must case: its rule's, but for a transform of a non-null value
    whose rule cites the null-input sentence, the transform's description in the same table."""
    cited = rule_citation(case["rule"])
    described = TRANSFORM_DESCRIPTIONS.get(case["rule"])
    if described and cited["quote"] == NULL_INPUT and case["input"].get("value") is not None:
        return {**cited, "quote": described}
    return cited


def _must(case: dict[str, Any], rejected_by: str | None = None, open_rows: list | None = None) -> dict[str, Any]:
    out = {"level": MUST, **case_citation(case)}
    if rejected_by is not None:
        out["rejected-by"] = rejected_by
    if open_rows:
        out["open-rows"] = open_rows
    return out


def _allowed(
    case: dict[str, Any],
    allowance_id: str,
    check: dict | None = None,
    open_rows: list | None = None,
    citation: dict | None = None,
) -> dict[str, Any]:
    a = allowance(allowance_id)
    if check is None:
        check = {"kind": a.check, "answers": [case["expected"]]} if a.check == ONE_OF else {"kind": a.check}
    cited = citation or {"document": a.document, "section": a.section, "quote": a.quote}
    if allowance_id == "reader.may-accept":  # the rule broken is the sentence to cite
        cited = rule_citation(case["rule"])
    out = {"level": ALLOWED, "allowance": allowance_id, **cited, "check": check}
    if open_rows:
        out["open-rows"] = open_rows
    return out


def _reading(case: dict[str, Any], question_id: str) -> dict[str, Any]:
    q = question(question_id)
    return {
        "level": READING,
        "question": q.id,
        "asks": q.asks,
        "alternatives": list(q.alternatives),
        "reference": q.reference,
    }


def _decided(case: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    """A recorded decision: its level, question or allowance, and its own quote."""
    citation = {"document": d["document"], "section": d["section"], "quote": d["quote"]}
    if d["level"] == READING:
        reading = _reading(case, d["question"])
        if d.get("reference"):  # the reference's reading of this very case, where the question's is general
            reading["reference"] = d["reference"]
        return {**reading, **citation}
    if d["level"] == ALLOWED:
        check = d.get("check")
        if check is None:
            if allowance(d["allowance"]).check in (ANSWER_OR_REJECT, CORRECT_OR_REJECT):
                check = {"kind": allowance(d["allowance"]).check}
            else:
                check = {"kind": ONE_OF, "answers": [case["expected"], *d.get("answers", [])]}
        return _allowed(case, d["allowance"], check=check, citation=citation)
    return {"level": MUST, **citation}


@cache
def decisions() -> dict[str, dict[str, Any]]:
    """case id -> a decision recorded by reading the spec (`decisions.json` beside this module)."""
    path = Path(__file__).with_name("decisions.json")
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


@cache
def rule_citation(rule_id: str) -> dict[str, str]:
    """The sentence a rule cites (document, section, quote), from the rule index."""
    for r in _rule_index():
        if r["id"] == rule_id and r["sections"]:
            s = r["sections"][0]
            cited = {"document": s["source"]["file"], "section": s["source"]["section"], "quote": s["quote"]}
            return {**cited, "table-row": s["table-row"]} if s.get("table-row") else cited
    raise KeyError(f"rule {rule_id!r} has no cited sentence in vectors/rules.json (run the rule index)")


def forget_rule_index() -> None:
    """Read `rules.json` again on the next citation (after the generator rewrote it)."""
    rule_citation.cache_clear()
    _rule_index.cache_clear()


@cache
def _rule_index() -> tuple[dict, ...]:
    from spec_impl.resources import vectors_dir

    return tuple(json.loads((vectors_dir() / "rules.json").read_text(encoding="utf-8"))["rules"])
