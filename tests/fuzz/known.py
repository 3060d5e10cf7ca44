"""Escapes of families the reference's parsers do not own, recorded in VALUE_ESCAPES.md: a test
tolerates an escape of a "value" or "protocol" family only when its family and exception class
are listed there (one line each: `- family | input | exception`)."""

from __future__ import annotations

from pathlib import Path

from .families import FAMILIES
from .worker import Outcome

RECORD = Path(__file__).resolve().parent / "VALUE_ESCAPES.md"


def recorded() -> set[tuple[str, str]]:
    """(family, exception class) of every line of VALUE_ESCAPES.md."""
    out = set()
    for line in RECORD.read_text(encoding="utf-8").splitlines():
        if line.startswith("- ") and line.count("|") >= 2:
            family, _, exception = (part.strip() for part in line[2:].split("|", 2))
            out.add((family, exception.split()[0].strip("`")))
    return out


def tolerated(family: str, outcome: Outcome) -> bool:
    """Whether an outcome is fine for this family: no escape, or a recorded one outside the reference's parsers."""
    if not outcome.escape:
        return True
    if FAMILIES[family].owner == "reference":
        return False
    return (family, outcome.detail.split()[0] if outcome.detail else outcome.kind) in recorded()
