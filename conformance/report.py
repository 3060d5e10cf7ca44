"""The compliance matrix: engines × rule families, readable at a glance, and as JSON/Markdown.

Cells count outcomes: pass, fail (a wrong answer), errored (the engine raised), known (a recorded
discrepancy that still reproduces), fixed (a recorded discrepancy that now passes: remove it),
skipped (a capability the engine lacks, or the engine is unavailable).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

OUTCOMES = ("pass", "fail", "errored", "known", "fixed", "skipped")


def classify(rep, verdict: str | None) -> str:
    """Map a pytest report (and the judge's verdict) to one outcome of the matrix."""
    if hasattr(rep, "wasxfail"):
        return "known" if rep.skipped else "fixed"
    if rep.skipped:
        return "skipped"
    if rep.passed:
        return "pass"
    return "errored" if verdict == "errored" else "fail"


@dataclass
class Matrix:
    engines: dict[str, dict]  # name -> {"version", "revision", "unavailable"}
    cells: dict[str, dict[str, dict[str, int]]]  # engine -> family -> outcome -> count

    @classmethod
    def build(cls, runner, outcomes: dict) -> "Matrix":
        engines = {}
        for slot in runner.slots.values():
            engines[slot.name] = {
                "version": slot.engine.version if slot.engine else None,
                "revision": slot.engine.revision if slot.engine else None,
                "unavailable": slot.unavailable,
                "seconds": round(slot.seconds, 2),
            }
        cells: dict[str, dict[str, dict[str, int]]] = {name: {} for name in engines}
        for (engine, family), counts in sorted(outcomes.items()):
            cells[engine][family] = {o: counts.get(o, 0) for o in OUTCOMES}
        return cls(engines, cells)

    def families(self) -> list[str]:
        return sorted({f for fams in self.cells.values() for f in fams})

    @staticmethod
    def _cell(c: dict[str, int] | None) -> str:
        if not c:
            return "-"
        judged = c["pass"] + c["fail"] + c["errored"] + c["known"] + c["fixed"]
        if judged == 0:
            return "skip"
        text = f"{c['pass']}/{judged}"
        extra = [f"{c[o]}{o[0].upper()}" for o in ("fail", "errored", "known", "fixed") if c[o]]
        return text + (" " + " ".join(extra) if extra else "")

    def text_lines(self) -> list[str]:
        families = self.families()
        header = ["engine"] + families + ["total"]
        rows = []
        for engine, info in self.engines.items():
            if info["unavailable"]:
                rows.append([engine, f"UNAVAILABLE: {info['unavailable']}"])
                continue
            fams = self.cells[engine]
            total = {o: sum(c[o] for c in fams.values()) for o in OUTCOMES}
            rows.append([engine] + [self._cell(fams.get(f)) for f in families] + [self._cell(total)])
        widths = [max(len(r[i]) for r in [header] + rows if i < len(r) and len(r) > 2) for i in range(len(header))]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
        for r in rows:
            lines.append(r[0].ljust(widths[0]) + "  " + r[1] if len(r) == 2 else "  ".join(c.ljust(w) for c, w in zip(r, widths)))
        lines.append("cells: passed/judged; F fail (wrong answer), E errored (engine raised), K known discrepancy, "
                     "X fixed discrepancy (remove it from conformance/known_discrepancies.json); skips are not judged")  # fmt: skip
        return lines

    def write(self, directory: Path) -> list[Path]:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        json_path, md_path = directory / "compliance.json", directory / "compliance.md"
        json_path.write_text(json.dumps({"engines": self.engines, "cells": self.cells}, indent=2, sort_keys=True) + "\n")
        families = self.families()
        md = ["# Iceberg compliance matrix (value vectors)", "",
              "| engine | version | " + " | ".join(families) + " |", "|---|---|" + "---|" * len(families)]  # fmt: skip
        for engine, info in self.engines.items():
            cells = [info["unavailable"] and "unavailable" or self._cell(self.cells[engine].get(f)) for f in families]
            md.append(f"| {engine} | {info['version'] or '-'} | " + " | ".join(cells) + " |")
        md_path.write_text("\n".join(md) + "\n")
        return [json_path, md_path]
