"""Known writer findings: what the audit reports as known (recorded with the spec text that
decides them in the ledger file `vectors/known/audit.json`) instead of failing the run, each at one of the suite's
three levels (violation, divergence, allowed) and counted by level.

An entry matches a violation by rule id and a regular expression searched in its message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from spec_impl.resources import audit_ledger_file

from .model import Violation

KNOWN_PATH = audit_ledger_file()


@dataclass(frozen=True)
class KnownFinding:
    id: str
    rule: str
    match: str
    reason: str
    spec: str
    level: str  # violation, divergence or allowed (the suite's three levels: README)
    document: str  # the spec text quoted
    quote: str  # the sentence that decides it (a must for a violation; the nearest sentence for a divergence)
    question: str | None = None  # a divergence's open question (spec_impl.obligations.questions)
    upstream: str | None = None

    def matches(self, v: Violation) -> bool:
        return v.rule == self.rule and re.search(self.match, v.message) is not None


def known_findings(path: Path = KNOWN_PATH) -> list[KnownFinding]:
    return [KnownFinding(**entry) for entry in json.loads(path.read_text())["findings"]]


def split(
    violations: list[Violation], known: list[KnownFinding]
) -> tuple[list[Violation], list[tuple[Violation, KnownFinding]]]:
    """(new violations, known ones with their entry)."""
    new, old = [], []
    for v in violations:
        entry = next((k for k in known if k.matches(v)), None)
        (new.append(v) if entry is None else old.append((v, entry)))
    return new, old
