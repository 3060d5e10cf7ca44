"""The source files of the requirement index (`statements/<document>.json`): loading and
validating them. The format is described in `REQUIREMENTS.md`'s header and checked here:

- each statement has an id `<document>.<section-slug>.<slug>`, unique across all files;
- `kind` and `status` from the fixed sets; `checked` and `partial` name rules, `partial`,
  `uncovered` and `untestable` give a reason;
- every rule exists in the rule index and has vector cases;
- the quote (at most 300 characters) occurs in its text, whitespace-normalised (only when the spec
  texts are present: `spec_impl.vectors.spec_sections.spec_dir`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

STATEMENTS_DIR = Path(__file__).resolve().parent / "statements"

# document key -> the spec text it holds the statements of, in the order of the index.
DOCUMENTS: dict[str, str] = {
    "table-spec": "000_60deb644de29d3e6.txt",
    "view-spec": "001_7d950bd0efa94146.txt",
    "table-spec-zh-0.11": "002_4da97bde686d0947.txt",
    "delete-notes": "003_72304df93c5833ab.txt",
    "v4-proposal": "004_535f3eae0ad26c61.txt",
    "v3-adopted": "v3-adopted-digest.md",
    "upstream-2026": "upstream-2026-digest.md",
}
KINDS = (
    "must",
    "must-not",
    "should",
    "should-not",
    "may",
    "required-field",
    "optional-field",
    "defined-result",
)
STATUSES = ("checked", "partial", "uncovered", "untestable", "superseded")
NEEDS_RULES = ("checked", "partial")
NEEDS_REASON = ("partial", "uncovered", "untestable", "superseded")
# Not counted as testable: no table state can break it, or a later text replaced it.
NOT_TESTABLE = ("untestable", "superseded")
MAX_QUOTE = 300
_KEYS = {"id", "section", "quote", "kind", "versions", "status", "rules", "reason", "superseded-by"}
_ID = re.compile(r"[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*){2,}")


def normalize(text: str) -> str:
    """Whitespace runs to one space, stripped: how quotes are matched against the texts."""
    return re.sub(r"\s+", " ", text).strip()


def load(directory: Path = STATEMENTS_DIR) -> list[dict[str, Any]]:
    """The source files present, in the order of `DOCUMENTS` (a text without a file is skipped)."""
    docs = []
    for document in DOCUMENTS:
        # the name is built without a literal "<name>.json" pattern, which the rule index would read as
        # naming every rule id ending in ".json" (spec_impl/vectors/rule_index.py, implemented-by)
        path = directory / (document + ".json")
        if path.is_file():
            docs.append(json.loads(path.read_text(encoding="utf-8")))
    return docs


def statement_problems(document: str, s: dict[str, Any], rules: dict[str, dict[str, Any]]) -> list[str]:
    """What is wrong with one statement, without looking at the text."""
    sid = s.get("id", "?")
    out = [f"{sid}: unknown key {k!r}" for k in sorted(set(s) - _KEYS)]
    missing = {"id", "section", "quote", "kind", "versions", "status"} - set(s)
    if missing:
        return out + [f"{sid}: missing {', '.join(sorted(missing))}"]
    if not _ID.fullmatch(sid) or not sid.startswith(f"{document}."):
        out.append(f"{sid}: the id is not <{document}>.<section-slug>.<slug>")
    if s["kind"] not in KINDS:
        out.append(f"{sid}: kind {s['kind']!r} is not one of {', '.join(KINDS)}")
    if s["status"] not in STATUSES:
        out.append(f"{sid}: no mapping (status {s['status']!r} is not one of {', '.join(STATUSES)})")
    if not s["versions"] or any(v not in (1, 2, 3, 4) for v in s["versions"]):
        out.append(f"{sid}: versions {s['versions']!r} must be a non-empty subset of 1-4")
    if len(normalize(s["quote"])) > MAX_QUOTE or not s["quote"].strip():
        out.append(f"{sid}: the quote is empty or longer than {MAX_QUOTE} characters")
    listed = s.get("rules", [])
    if s["status"] in NEEDS_RULES and not listed:
        out.append(f"{sid}: status {s['status']} names no rule")
    if s["status"] not in NEEDS_RULES and listed:
        out.append(f"{sid}: status {s['status']} names rules (use partial or checked)")
    if s["status"] in NEEDS_REASON and not s.get("reason", "").strip():
        out.append(f"{sid}: status {s['status']} gives no reason")
    if (s["status"] == "superseded") != ("superseded-by" in s):
        out.append(f"{sid}: a superseded statement, and only one, names the statement that replaced it (superseded-by)")
    for r in listed:
        if r not in rules:
            out.append(f"{sid}: rule {r!r} does not exist")
        elif not rules[r]["vectors"]:
            out.append(f"{sid}: rule {r!r} has no vectors")
    return out


def problems(docs: list[dict[str, Any]], rules: dict[str, dict[str, Any]]) -> list[str]:
    """Every problem of the source files that does not need the spec texts."""
    out = []
    for doc in docs:
        document = doc.get("document")
        if document not in DOCUMENTS or doc.get("file") != DOCUMENTS.get(document):
            out.append(f"{document}: unknown document or wrong file {doc.get('file')!r}")
            continue
        for s in doc["statements"]:
            out += statement_problems(document, s, rules)
    by_id = {s.get("id"): s for doc in docs for s in doc["statements"]}
    for s in by_id.values():
        later = by_id.get(s.get("superseded-by"))
        if "superseded-by" in s and (later is None or later["status"] in NOT_TESTABLE):
            out.append(f"{s['id']}: superseded-by {s['superseded-by']!r} names no testable statement")
    counts = Counter(s.get("id") for doc in docs for s in doc["statements"])
    out += [f"{sid}: duplicate id ({n} statements)" for sid, n in sorted(counts.items()) if n > 1]
    return out


def missing_quotes(docs: list[dict[str, Any]], spec_dir: Path) -> list[str]:
    """The statements whose quote does not occur in their text (whitespace-normalised)."""
    out = []
    for doc in docs:
        text = normalize((spec_dir / doc["file"]).read_text(encoding="utf-8"))
        out += [
            f"{s['id']}: quote not in {doc['file']}: {s['quote']!r}"
            for s in doc["statements"]
            if normalize(s["quote"]) not in text
        ]
    return out
