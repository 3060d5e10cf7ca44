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

_EXAMPLE = "a value in an example JSON document, not the field's definition (the type table above it is)"
_JAVA = "describes what the Java implementation does, not what the spec requires"
_DRAFT = "describes an early draft of the view spec that the adopted spec replaced"
_MOTIVATION = "the proposal's motivation: describes the current format's commit cost"
_GOAL = "a goal of the proposal, not a rule of its format"
_RATIONALE = "design rationale of the proposal"
_OPEN = "an open question of the proposal, not a decided rule"
_UP_OPEN = "an open question of the digest naming a conflict between texts; the statements on either side are indexed"
_UP_NOTES = "a correction of a colleague's notes (§8); the rule it restates is indexed in its own section"
_UP_TABLE = (
    "a row of the digest's table of disagreements (§9); its upstream side is indexed in its own section, "
    "the older side in the older texts, and the Java side is Java's"
)
# document -> (a substring of the candidate sentence, why it states no requirement).
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
    "view-spec": (
        ("Required/Optional", "the header row of a field table; its rows are the statements"),
        ('"required" : false,', _EXAMPLE),
    ),
    "table-spec-zh-0.11": (
        ("这些统计信息用于避免读取操作不需要的清单", "describes what manifest-list stats are for"),
        ("可以使用默认排序顺序id配置表", "describes the default sort order; the next sentence is the statement"),
        ("但这更难检测，因为需要找到多个快照的差异", "a note on garbage collection, no rule"),
        ("summary中的operation中可选为", "introduces the list of operations whose items are the statements"),
        (
            "每个清单使用单个分区规范，查询不需要更改",
            "a benefit of several manifests per snapshot (queries need not change); the single-spec rule is "
            "table-spec-zh-0.11.manifests.single-spec",
        ),
        ("写入者需要执行以下步骤", "introduces the file-system commit steps whose items are the statements"),
    ),
    "v3-adopted": (
        ("It adds relative paths, an optional `location`", "describes the unadopted v4 the digest leaves out"),
        ("both read and write only `source-id`, and require it", _JAVA),
        ("Java requires `first-row-id` ≥ `next-row-id`", _JAVA),
        ("**Java reading:** accepts sparse keys", _JAVA),
        ("| BlobMetadata field | Required | Note |", "the header row of a field table; its rows are the statements"),
        ("**Java** requires `view-uuid`, `schema-id` and `default-namespace`", _JAVA),
        ("`schemas` and `current-schema-id` were optional top-level fields", _DRAFT),
        ("The summary required `operation` (`create` or `replace`)", _DRAFT),
    ),
    "upstream-2026": (
        ("MUST / MUST NOT / SHOULD / MAY give the strength", "describes the digest's own conventions"),
        (
            "**Null-safe rules (MUST).**",
            "the heading of a table; its rows are upstream-2026.expressions.null-safe-table",
        ),
        ("**(E7)** A bare-string EXPR is a literal", _UP_OPEN + " (expressions.grammar-literal, grammar-deprecated)"),
        (
            "**(S5)** Java's null count on required fields",
            _UP_OPEN + " (content-stats.null-value-count, java-null-count)",
        ),
        ("**(T4)** Whether Parquet manifests are a MUST", _UP_OPEN + " (v4-tree.parquet-manifests)"),
        ("**(T6)** The PR requires `dv_cardinality`", _UP_OPEN + " (manifest-dv.dv-cardinality)"),
        ('**(B2)** "Must ignore dense low bits"', _UP_OPEN + " (mumbling.dense-low-bits)"),
        ("**`day` (#16446):** no writer SHOULD", _UP_NOTES),
        ("**v4 required fields:** the list omits", _UP_NOTES),
        ("**Deprecated REST expression forms:**", _UP_NOTES),
        ('**"May be Parquet (#15634)":**', _UP_NOTES),
        ('**"sort_order_id and split_offsets null on 3 and 4":**', _UP_NOTES),
        ('**"Column files must not coexist with equality deletes":**', _UP_NOTES),
        ("| Decimal type string |", _UP_TABLE),
        ("| CRS forms |", _UP_TABLE),
        ("| `day` result type |", _UP_TABLE),
        ("| v4 relative paths on write |", _UP_TABLE),
        ("| v4 `location` |", _UP_TABLE),
        ("| Manifest format in v4 |", _UP_TABLE),
        ("| v4 content types |", _UP_TABLE),
        ("| `format_version` (157) |", _UP_TABLE),
        ("| `null_value_count` in content stats |", _UP_TABLE),
        ("| Stats for fields inside list/map |", _UP_TABLE),
        ("| Mumbling dense descriptor low bits |", _UP_TABLE),
        ("| Expression JSON |", _UP_TABLE),
    ),
    "v4-proposal": (
        ("Currently, an Iceberg commit requires writing at least 3 files", _MOTIVATION),
        ("the current method for deleting a file requires locating the file", _MOTIVATION),
        ("Smaller operations only require writing a single new metadata file", _GOAL),
        ("the number of manifests written should ideally be proportional", _GOAL),
        ("the number of manifests read to build the new snapshot's metadata should", _GOAL),
        (
            "the new top level manifest should have aggregate metrics",
            _GOAL + "; stated as a rule by v4-proposal.root-manifests.all-stats-present",
        ),
        (
            "The changes from any operation should be expressed in only the changes",
            _GOAL + "; stated as a rule by v4-proposal.proposal.new-root-per-commit",
        ),
        ("the depth of the tree can be scaled up in the future", _RATIONALE + " (why a two-level tree)"),
        ("With clear recursive implementations, we should be always able", _RATIONALE + " (why a two-level tree)"),
        ("Optional Affinity between Data and Delete Manifests", "a section heading"),
        ("Flushing the data files or DVs from the root to leaf manifests", _RATIONALE + " (why unaffiliated deletes)"),
        ("Required or Optional", "the header row of a field table; its rows are the statements"),
        ("Optional Manifest Affinity?", _OPEN),
        ("In the current proposal, an optional affinity between data and delete", _OPEN),
        ("An optional affinity allows for writers to write unaffiliated", _OPEN),
        ("Another open question here is whether this DV", _OPEN),
        ("Should we remove the partition tuple from file entries", _OPEN),
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
