"""Known writer findings: what the audit reports as known (recorded with the spec text that
decides them in the ledger file `vectors/known/audit.json`, `conformance.ledger`) instead of
failing the run, each at one of the suite's three levels (violation, divergence, allowed) and
counted by level.

An entry's `where` scopes it by the violation's `rule` id and a regular expression of its `message`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import ledger

from .model import Violation


@dataclass(frozen=True, eq=False)
class KnownFinding:
    id: str
    where: dict[str, Any] = field(repr=False)  # the scope: rule, message (conformance.ledger.applies)
    reason: str
    spec: str
    level: str  # violation, divergence or allowed (the suite's three levels: README)
    document: str  # the spec text quoted
    quote: str  # the sentence that decides it (a must for a violation; the nearest sentence for a divergence)
    question: str | None = None  # a divergence's open question (spec_impl.obligations.questions)
    upstream: str | None = None
    section: str | None = None

    def matches(self, v: Violation) -> bool:
        return ledger.applies(self.where, {"rule": v.rule, "message": v.message})


_FIELDS = ("id", "where", "reason", "spec", "level", "document", "quote", "question", "upstream", "section")


def known_findings(path: Path | None = None) -> list[KnownFinding]:
    return [KnownFinding(**ledger.fields(entry, _FIELDS)) for entry in ledger.audit_entries(path)]


def split(
    violations: list[Violation], known: list[KnownFinding]
) -> tuple[list[Violation], list[tuple[Violation, KnownFinding]]]:
    """(new violations, known ones with their entry)."""
    new, old = [], []
    for v in violations:
        entry = next((k for k in known if k.matches(v)), None)
        (new.append(v) if entry is None else old.append((v, entry)))
    return new, old
