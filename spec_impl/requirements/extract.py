"""The completeness check's extractor: the candidate normative sentences of a spec text (a
sentence or table row with a word such as MUST, must, should, required, optional, 必须, 应该,
可选), and the ones no statement's quote overlaps.

A text is split into lines, each line into sentences; the candidates' spans are positions in the
whitespace-normalised text (the text quotes are matched against), so a candidate is covered when
a statement's quote occurs at a position that overlaps it. `NON_NORMATIVE` lists the few matching
sentences that state no requirement, each with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from spec_impl.requirements.sources import normalize

_WORDS = re.compile(
    r"\b(?:must|should|shall|required|requires?|optional|may not|recommended)\b|必须|应该|应当|必需|可选|需要",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\[\u3000-\u9fff])|(?<=[。！？；])")
_MIN_OVERLAP = 12

# document -> (a substring of the candidate sentence, why it states no requirement).
_EXAMPLE = "a value in an example JSON document, not the field's definition (the type table above it is)"
NON_NORMATIVE: dict[str, tuple[tuple[str, str], ...]] = {
    "table-spec": (
        ("These stats are used to avoid reading manifests", "describes what manifest-list stats are for"),
        ("The conditions required by a write to successfully commit", "describes isolation levels, no rule"),
        ("Struct evolution requires the following rules", "introduces the list whose items are the statements"),
        ("Each object should contain", "introduces the list of name-mapping fields whose items are the statements"),
        ("A table could also be configured with a default sort order id", "describes the default sort order"),
        ("This is required because a manifest file", "the reason for the preceding single-spec rule"),
        ("Storing metrics for deleted rows ensures", "the reason for the preceding delete-metrics rule"),
        ("But this is harder to detect and requires finding the diff", "a note on garbage collection, no rule"),
        ('"required": true,', _EXAMPLE),
        ('"required": false,', _EXAMPLE),
        ('"element-required": true,', _EXAMPLE),
        ('"value-required": false,', _EXAMPLE),
        ("Old writers will fail because the field is missing.", "describes how older implementations behave"),
        ("old readers will default optional columns with null", "describes how older implementations behave"),
        ("Old readers will fail to read required fields", "describes how older implementations behave"),
    ),
}


# document -> the line where its normative part ends (the v4 proposal's file goes on with discarded
# approaches and an unrelated transcript).
NORMATIVE_END: dict[str, str] = {"v4-proposal": "Discarded Approaches"}


def normative_part(document: str, text: str) -> str:
    """The text up to the line that ends its normative part, if the document has one."""
    end = NORMATIVE_END.get(document)
    if end is None:
        return text
    lines = text.splitlines()
    return "\n".join(lines[: lines.index(end)] if end in lines else lines)


@dataclass(frozen=True)
class Candidate:
    start: int
    end: int
    text: str


def sentences(text: str) -> tuple[str, list[Candidate]]:
    """The normalised text, and its sentences with their spans in it (every line its own block)."""
    parts, candidates, offset = [], [], 0
    for line in text.splitlines():
        line = normalize(line)
        if not line:
            continue
        if parts:
            offset += 1
        parts.append(line)
        pos = 0
        for piece in _SENTENCE_END.split(line):
            if not piece:
                continue
            start = line.index(piece, pos)
            pos = start + len(piece)
            if piece.strip():
                candidates.append(Candidate(offset + start, offset + pos, piece.strip()))
        offset += len(line)
    return " ".join(parts), candidates


def candidates(text: str) -> tuple[str, list[Candidate]]:
    """The normalised text and its candidate normative sentences."""
    normalized, found = sentences(text)
    return normalized, [c for c in found if _WORDS.search(c.text)]


def _spans(normalized: str, quote: str) -> list[tuple[int, int]]:
    quote = normalize(quote)
    out, at = [], normalized.find(quote)
    while quote and at >= 0:
        out.append((at, at + len(quote)))
        at = normalized.find(quote, at + 1)
    return out


def uncovered(document: str, text: str, statements: list[dict[str, Any]]) -> list[str]:
    """The candidate sentences of `text` that no statement's quote overlaps (by at least a few
    characters, or wholly when shorter) and that `NON_NORMATIVE` does not excuse."""
    normalized, found = candidates(normative_part(document, text))
    spans = [span for s in statements for span in _spans(normalized, s["quote"])]
    excused = [needle for needle, _ in NON_NORMATIVE.get(document, ())]
    out = []
    for c in found:
        need = min(_MIN_OVERLAP, c.end - c.start)
        if any(min(c.end, e) - max(c.start, b) >= need for b, e in spans):
            continue
        if any(needle in c.text for needle in excused):
            continue
        out.append(c.text)
    return out
