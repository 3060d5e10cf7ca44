"""Known discrepancies: engine behaviour that differs from the spec, recorded as data.

Each entry of `known_discrepancies.json` names the engine, the case id, what the spec expects and
what the engine does, the spec text that decides it, and an upstream issue when one exists. The
suite reports such cases as known failures (xfail); when the engine is fixed the case passes
unexpectedly and the run fails until the entry is removed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

KNOWN_FILE = Path(__file__).resolve().parent / "known_discrepancies.json"


@dataclass(frozen=True)
class Discrepancy:
    engine: str
    case: str
    expected: str
    observed: str
    decided_by: str
    version: str | None = None
    upstream: str | None = None

    def reason(self) -> str:
        up = f" upstream: {self.upstream}." if self.upstream else ""
        return f"known discrepancy: {self.observed} (spec: {self.decided_by}).{up}"


@lru_cache(maxsize=None)
def load(path: Path = KNOWN_FILE) -> dict[tuple[str, str], Discrepancy]:
    entries = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"discrepancies": []}
    table = {}
    for e in entries["discrepancies"]:
        d = Discrepancy(e["engine"], e["case"], e["expected"], e["observed"], e["decided-by"], e.get("version"), e.get("upstream"))
        if (d.engine, d.case) in table:
            raise ValueError(f"{path}: duplicate entry for {d.engine} {d.case}")
        table[(d.engine, d.case)] = d
    return table
