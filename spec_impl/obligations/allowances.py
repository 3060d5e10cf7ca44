"""What the spec permits: each case at the `allowed` level names one of these.

An allowance quotes the sentence that permits more than one answer and names the check over
answers that the judge applies (`levels.CHECKS`). Quotes occur in their documents
(`tests/test_obligations.py` checks).
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_impl.rules import by_id
from spec_impl.obligations.levels import (
    ADOPTED,
    ANSWER_OR_REJECT,
    CORRECT_OR_REJECT,
    INCLUSIVE,
    ONE_OF,
    SPEC,
    STRICT,
    VALID_METRICS,
)


@dataclass(frozen=True)
class Allowance:
    id: str
    permits: str
    document: str
    section: str
    quote: str
    check: str  # the default check kind of cases naming this allowance

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "permits": self.permits,
            "document": self.document,
            "section": self.section,
            "quote": self.quote,
            "check": self.check,
        }


def _allowances(*items: Allowance) -> dict[str, Allowance]:
    return by_id(items, "allowance")


ALLOWANCES: dict[str, Allowance] = _allowances(
    Allowance(
        "pruning.inclusive-keeps-more",
        "Inclusive evaluation or projection may keep a file, manifest or partition that the metrics or the "
        "partition values rule out; it must never rule out one that may hold a matching row.",
        SPEC,
        "Scan Planning",
        "This is called inclusive [1] because rows that do not match the scan predicate may be included in the "
        "scan by the partition predicate.",
        INCLUSIVE,
    ),
    Allowance(
        "pruning.may-skip",
        "A file or manifest that holds no match may be skipped: skipping is permitted, never required.",
        SPEC,
        "Scan Planning",
        "Manifests that contain no matching files, determined using either file counts or partition summaries, "
        "may be skipped.",
        INCLUSIVE,
    ),
    Allowance(
        "pruning.strict-accepts-less",
        "Strict evaluation or projection may decline a file or partition whose rows all match; it must never "
        "accept one holding a row that does not match.",
        SPEC,
        "Scan Planning",
        "An alternative, strict projection, creates a partition predicate that will match a file if all of the "
        "rows in the file must match the scan predicate.",
        STRICT,
    ),
    Allowance(
        "hash.not-bucketable",
        "An engine may refuse to hash a type the spec does not hash (not valid for bucketing); a hash it does "
        "return must be the one the spec's table gives.",
        SPEC,
        "Appendix B: 32-bit Hash Requirements",
        "The types below are not currently valid for bucketing, and so are not hashed.",
        CORRECT_OR_REJECT,
    ),
    Allowance(
        "reader.may-accept",
        "A reader may read a document or value that breaks a rule (the spec gives readers no duty to reject "
        "it) or refuse it; a validator must reject it.",
        SPEC,
        "Partitioning",
        "Writers should not write using partition specs that use unknown transforms.",
        ANSWER_OR_REJECT,
    ),
    Allowance(
        "reader.may-reject",
        "A reader may refuse a document that the field tables of its format version call invalid (a required "
        "field missing) even where the reference repairs it; if it reads it, the answer must be right.",
        SPEC,
        "Table Metadata Fields",
        "Table metadata consists of the following fields:",
        CORRECT_OR_REJECT,
    ),
    Allowance(
        "metrics.written-are-right",
        "A writer may leave any of a file's optional metrics out and store a bound that is not the tightest; "
        "a count it writes must be exact and a bound it writes must bound every non-null, non-NaN value "
        "(the claimed metrics pass check-column-metrics).",
        SPEC,
        "Manifests: data_file",
        "Each value must be less than or equal to all non-null, non-NaN values in the column for the file [2]",
        VALID_METRICS,
    ),
    Allowance(
        "deletes.position-beside-dv",
        "A reader may still apply an older position-delete file to a data file that a deletion vector covers: "
        "such files may be ignored, and a correct writer has merged their deletes into the vector.",
        ADOPTED,
        "1.5 Deletion vectors",
        "At most one DV per data file, maintained synchronously; position-delete files may be ignored when a DV "
        "exists.",
        ONE_OF,
    ),
)


def allowance(allowance_id: str) -> Allowance:
    try:
        return ALLOWANCES[allowance_id]
    except KeyError:
        raise KeyError(f"unknown allowance {allowance_id!r}; known: {', '.join(sorted(ALLOWANCES))}") from None
