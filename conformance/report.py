"""The compliance report: engines × rule families, in the terminal, as JSON and as one HTML file.

Outcomes of a judged case: pass, fail (a wrong answer), errored (the engine raised), known (a
recorded discrepancy that still reproduces), fixed (a recorded discrepancy that now passes: remove
it), skipped (an op the engine lacks, or the engine is unavailable). The JSON follows
`report.schema.json` (format 1); the HTML file has no external resources.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUTCOMES = ("pass", "fail", "errored", "known", "fixed", "skipped")
REPORT_FORMAT = 1
SCHEMA_FILE = Path(__file__).resolve().parent / "report.schema.json"


def classify(rep, verdict: str | None) -> str:
    """Map a pytest report (and the judge's verdict) to one outcome."""
    if hasattr(rep, "wasxfail"):
        return "known" if rep.skipped else "fixed"
    if rep.skipped:
        return "skipped"
    if rep.passed:
        return "pass"
    return "errored" if verdict == "errored" else "fail"


@dataclass
class Recorder:
    """Collects outcomes during the run; `build` turns them into the report document."""

    cells: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))))
    cases: list[dict] = field(default_factory=list)
    random_values: list[dict] = field(default_factory=list)

    def record_case(self, engine: str, family: str, case: dict, outcome: str, observed: Any = None, message: str = "") -> None:
        self.cells[engine][family][outcome] += 1
        if outcome in ("pass", "skipped"):
            return
        self.cases.append({
            "engine": engine, "family": family, "id": case["id"], "rule": case["rule"], "section": case["section"],
            "description": case["description"], "outcome": outcome, "op": case["op"], "input": case["input"],
            "expected": case["expected"], "observed": observed, "message": message,
        })  # fmt: skip

    def record_random(self, engine: str, op: str, outcome: str, known_disagreements: int, message: str = "") -> None:
        self.random_values.append({"engine": engine, "op": op, "outcome": outcome,
                                   "known-disagreements": known_disagreements, "message": message})  # fmt: skip

    def build(self, runner) -> dict:
        engines = {}
        for slot in runner.slots.values():
            engines[slot.name] = {
                "available": slot.engine is not None,
                "unavailable-reason": slot.unavailable,
                "version": slot.engine.version if slot.engine else None,
                "revision": slot.engine.revision if slot.engine else None,
                "capabilities": sorted(slot.engine.capabilities) if slot.engine else [],
                "seconds": round(slot.seconds, 2),
            }
        families = sorted({f for fams in self.cells.values() for f in fams})
        cells = {e: {f: dict(c) for f, c in self.cells.get(e, {}).items()} for e in engines}
        totals = {e: {o: sum(c[o] for c in cells[e].values()) for o in OUTCOMES} for e in engines}
        return {"format": REPORT_FORMAT, "engines": engines, "families": families, "cells": cells, "totals": totals,
                "cases": sorted(self.cases, key=lambda c: (c["engine"], c["family"], c["id"])),
                "random-values": self.random_values}  # fmt: skip


# --- rendering ---------------------------------------------------------------------------------


def cell_text(c: dict[str, int] | None) -> str:
    """`passed/judged` plus letters for the rest: 12/14 1F 1K."""
    if not c:
        return "-"
    judged = sum(c[o] for o in OUTCOMES if o != "skipped")
    if judged == 0:
        return "skip"
    extra = [f"{c[o]}{o[0].upper() if o != 'fixed' else 'X'}" for o in ("fail", "errored", "known", "fixed") if c[o]]
    return f"{c['pass']}/{judged}" + (" " + " ".join(extra) if extra else "")


LEGEND = ("cells: passed/judged; F fail (wrong answer), E errored (engine raised), K known discrepancy, "
          "X fixed discrepancy (remove it from conformance/known_discrepancies.json); skipped cases are not judged")  # fmt: skip


def text_lines(doc: dict) -> list[str]:
    families = doc["families"]
    header = ["engine"] + families + ["total", "seconds"]
    rows, notes = [], []
    for name, info in doc["engines"].items():
        if not info["available"]:
            notes.append(f"{name}: UNAVAILABLE, {info['unavailable-reason']}")
            continue
        fams = doc["cells"][name]
        rows.append([name] + [cell_text(fams.get(f)) for f in families] + [cell_text(doc["totals"][name]), f"{info['seconds']:.1f}"])
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [header] + rows]
    return lines + notes + [LEGEND]


def write(doc: dict, directory: Path) -> list[Path]:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    json_path, html_path = directory / "compliance.json", directory / "compliance.html"
    json_path.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    html_path.write_text(to_html(doc), encoding="utf-8")
    return [json_path, html_path]


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}
th{background:#f3f3f3}td.ok{background:#d9f2d9}td.known{background:#fff1c2}td.bad{background:#f8d0d0}td.skip{color:#888}
details{margin:.3em 0}summary{cursor:pointer}pre{background:#f7f7f7;padding:6px;white-space:pre-wrap;word-break:break-all;margin:.2em 0}
.fail,.errored,.fixed{color:#a00}.known{color:#8a6d00}small{color:#666}
"""


def _css_class(c: dict[str, int] | None) -> str:
    if not c or sum(c[o] for o in OUTCOMES if o != "skipped") == 0:
        return "skip"
    if c["fail"] or c["errored"] or c["fixed"]:
        return "bad"
    return "known" if c["known"] else "ok"


def _json(value: Any) -> str:
    return html.escape(json.dumps(value, ensure_ascii=False, indent=1))


def to_html(doc: dict) -> str:
    e = html.escape
    families = doc["families"]
    out = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Iceberg compliance report</title>",
           f"<style>{_CSS}</style></head><body><h1>Iceberg compliance report</h1>",
           f"<p>{e(LEGEND)}</p><table><tr><th>engine</th>" + "".join(f"<th>{e(f)}</th>" for f in families) + "<th>total</th></tr>"]  # fmt: skip
    with_cases = {c["engine"] for c in doc["cases"]}
    for name, info in doc["engines"].items():
        if not info["available"]:
            out.append(f"<tr><td>{e(name)}</td><td colspan='{len(families) + 1}' class='skip'>unavailable: {e(info['unavailable-reason'] or '')}</td></tr>")
            continue
        cells = doc["cells"][name]
        row = "".join(f"<td class='{_css_class(cells.get(f))}'>{e(cell_text(cells.get(f)))}</td>" for f in families)
        total = doc["totals"][name]
        label = f"<a href='#{e(name)}'>{e(name)}</a>" if name in with_cases else e(name)
        out.append(f"<tr><td>{label}</td>{row}<td class='{_css_class(total)}'>{e(cell_text(total))}</td></tr>")
    out.append("</table><h2>Engines</h2><table><tr><th>engine</th><th>version</th><th>revision</th><th>wall time (s)</th><th>ops</th></tr>")
    for name, info in doc["engines"].items():
        out.append(f"<tr><td>{e(name)}</td><td>{e(info['version'] or '-')}</td><td>{e(info['revision'] or '-')}</td>"
                   f"<td>{info['seconds']}</td><td><small>{e(', '.join(info['capabilities']) or '-')}</small></td></tr>")  # fmt: skip
    out.append("</table>")
    if doc["random-values"]:
        out.append("<h2>Random values</h2><table><tr><th>engine</th><th>op</th><th>outcome</th><th>known disagreements</th></tr>")
        for r in doc["random-values"]:
            out.append(f"<tr><td>{e(r['engine'])}</td><td>{e(r['op'])}</td><td class='{e(r['outcome'])}'>{e(r['outcome'])}</td>"
                       f"<td>{r['known-disagreements']}</td></tr>")  # fmt: skip
        out.append("</table>")
    by_engine: dict[str, list[dict]] = defaultdict(list)
    for c in doc["cases"]:
        by_engine[c["engine"]].append(c)
    for name, cases in by_engine.items():
        out.append(f"<h2 id='{e(name)}'>{e(name)}: {len(cases)} cases not passed</h2>")
        for c in cases:
            out.append(f"<details><summary><span class='{e(c['outcome'])}'>{e(c['outcome'].upper())}</span> "
                       f"<code>{e(c['id'])}</code> {e(c['description'])}</summary>"
                       f"<p><small>rule <code>{e(c['rule'])}</code>, spec: {e(c['section'])}</small></p>"
                       f"<b>input</b> <small>({e(c['op'])})</small><pre>{_json(c['input'])}</pre>"
                       f"<b>expected</b><pre>{_json(c['expected'])}</pre><b>observed</b><pre>{_json(c['observed'])}</pre>"
                       + (f"<p>{e(c['message'])}</p>" if c["message"] else "") + "</details>")  # fmt: skip
    out.append("</body></html>\n")
    return "\n".join(out)
