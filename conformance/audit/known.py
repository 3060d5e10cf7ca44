"""Known writer findings: violations the audit reports as known (recorded with the spec text that
decides them in `known_findings.json`) instead of failing the run.

An entry matches a violation by rule id and a regular expression searched in its message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .model import Violation

KNOWN_PATH = Path(__file__).with_name("known_findings.json")


@dataclass(frozen=True)
class KnownFinding:
    id: str
    rule: str
    match: str
    reason: str
    spec: str
    upstream: str | None = None

    def matches(self, v: Violation) -> bool:
        return v.rule == self.rule and re.search(self.match, v.message) is not None


def known_findings(path: Path = KNOWN_PATH) -> list[KnownFinding]:
    return [KnownFinding(**entry) for entry in json.loads(path.read_text())["findings"]]


def split(violations: list[Violation], known: list[KnownFinding]) -> tuple[list[Violation], list[tuple[Violation, KnownFinding]]]:
    """(new violations, known ones with their entry)."""
    new, old = [], []
    for v in violations:
        entry = next((k for k in known if k.matches(v)), None)
        (new.append(v) if entry is None else old.append((v, entry)))
    return new, old
