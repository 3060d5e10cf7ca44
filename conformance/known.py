"""Known discrepancies: engine behaviour that differs from the spec, recorded as data.

Each entry of `known_discrepancies.json` names the engine, the case id, what the spec expects and
what the engine does, the spec text that decides it, and an upstream issue when one exists. The
suite reports such cases as known failures (xfail); when the engine is fixed the case passes
unexpectedly and the run fails until the entry is removed.
"""

from __future__ import annotations

import json
import re
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
def _document(path: Path = KNOWN_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@lru_cache(maxsize=None)
def load(path: Path = KNOWN_FILE) -> dict[tuple[str, str], Discrepancy]:
    entries = {"discrepancies": [], **_document(path)}
    table = {}
    for e in entries["discrepancies"]:
        d = Discrepancy(e["engine"], e["case"], e["expected"], e["observed"], e["decided-by"], e.get("version"), e.get("upstream"))
        if (d.engine, d.case) in table:
            raise ValueError(f"{path}: duplicate entry for {d.engine} {d.case}")
        table[(d.engine, d.case)] = d
    return table


# --- scopes of the random-value tests ----------------------------------------------------------
# A scope names a class of inputs (engine, ops, types, and optionally a named condition) on which
# an engine's disagreement is already recorded by golden cases. Random inputs in a scope are still
# sent and judged; their disagreements are reported as known instead of failing the test.

_YEAR = re.compile(r"([+-]?\d+)-")


def _year_outside_1_9999(inp: dict) -> bool:
    text = inp.get("value", inp.get("json"))
    m = _YEAR.match(text) if isinstance(text, str) else None
    return m is not None and (m[1][0] in "+-" or not 1 <= int(m[1]) <= 9999)


CONDITIONS = {"year-outside-1-9999": _year_outside_1_9999}


@dataclass(frozen=True)
class Scope:
    engine: str
    ops: tuple[str, ...]
    types: tuple[str, ...]
    decided_by: str
    when: str | None = None

    def covers(self, engine: str, op: str, inp: dict) -> bool:
        type_name = inp.get("type") if isinstance(inp.get("type"), str) else None
        return (engine == self.engine and op in self.ops and type_name in self.types
                and (self.when is None or CONDITIONS[self.when](inp)))  # fmt: skip


@lru_cache(maxsize=None)
def scopes(path: Path = KNOWN_FILE) -> tuple[Scope, ...]:
    out = []
    for e in _document(path).get("random-value-scopes", []):
        if e.get("when") is not None and e["when"] not in CONDITIONS:
            raise ValueError(f"{path}: unknown condition {e['when']!r} (known: {', '.join(CONDITIONS)})")
        out.append(Scope(e["engine"], tuple(e["ops"]), tuple(e["types"]), e["decided-by"], e.get("when")))
    return tuple(out)


def scope_for(engine: str, op: str, inp: dict) -> Scope | None:
    """The recorded scope that covers this random input, if any."""
    return next((s for s in scopes() if s.covers(engine, op, inp)), None)
