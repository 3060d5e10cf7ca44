"""The compliance report: engines × rule families, in the terminal, as JSON and as one HTML file.

Cases that expect an output (*computed* cases) and cases that expect a rejection (*rejection*
cases) are counted apart, so that an engine refusing everything earns nothing on computed cases.
Outcomes (see `conformance.judge`): pass, rejected, rejected-other-rule, fail, errored, known (a
recorded discrepancy reproducing its pinned observation), fixed (a recorded discrepancy that now
passes: remove it), unsupported (the engine declined the case), skipped (an op the engine lacks,
or the engine is unavailable). The report also counts the provenance of every case's expectation
per family. The JSON follows `report.schema.json` (format 2); the HTML file has no external
resources.
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spec_impl.vectors.provenance import CONFIRMATIONS_FORMAT, KINDS, expectation_digest

from conformance.judge import CREDITED, expects_rejection

OUTCOMES = ("pass", "rejected", "rejected-other-rule", "fail", "errored", "known", "fixed", "unsupported", "skipped")
KINDS_OF_CASE = ("computed", "rejection")
NOT_JUDGED = ("unsupported", "skipped")
REPORT_FORMAT = 2
OBSERVATIONS_FORMAT = 1
SCHEMA_FILE = Path(__file__).resolve().parent / "report.schema.json"


def classify(rep, verdict: str | None) -> str:
    """One outcome from the judge's verdict, or, for tests without one, from the pytest report."""
    if verdict in OUTCOMES:
        return verdict
    if rep.skipped:
        return "skipped"
    if rep.passed:
        return "pass"
    return "errored" if verdict == "errored" else "fail"


def empty_counts() -> dict[str, Any]:
    """Outcome counts over all cases, and the same split into computed and rejection cases."""
    counts: dict[str, Any] = dict.fromkeys(OUTCOMES, 0)
    for kind in KINDS_OF_CASE:
        counts[kind] = dict.fromkeys(OUTCOMES, 0)
    return counts


def _add(counts: dict[str, Any], other: dict[str, Any]) -> None:
    for o in OUTCOMES:
        counts[o] += other[o]
        for kind in KINDS_OF_CASE:
            counts[kind][o] += other[kind][o]


@dataclass
class Recorder:
    """Collects outcomes during the run; `build` turns them into the report document."""

    cells: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(empty_counts)))
    cases: list[dict] = field(default_factory=list)
    random_values: list[dict] = field(default_factory=list)
    unsupported: dict = field(default_factory=lambda: defaultdict(Counter))
    observations: list[dict] = field(default_factory=list)
    confirmed: dict = field(default_factory=lambda: defaultdict(lambda: {"confirmed": {}, "partially-confirmed": {}}))

    def record_case(self, engine: str, family: str, case: dict, outcome: str, observed: Any = None, message: str = "",
                    pinned: Any = None, has_entry: bool = False, partial: bool = False, answered: bool = False) -> None:  # fmt: skip
        """One judged case. `answered`: `observed` is an answer of the engine (which may be null);
        `partial`: the engine reports only part of the expectation (`Engine.partial_view`)."""
        kind = "rejection" if expects_rejection(case) else "computed"
        if outcome in ("pass", "rejected"):
            self.confirmed[engine]["partially-confirmed" if partial else "confirmed"][case["id"]] = expectation_digest(case["expected"])
        cell = self.cells[engine][family]
        cell[outcome] += 1
        cell[kind][outcome] += 1
        if outcome == "unsupported":
            self.unsupported[engine][message] += 1
        if answered and (has_entry or outcome not in CREDITED + NOT_JUDGED):
            self.observations.append({"engine": engine, "case": case["id"], "outcome": outcome, "answer": observed})
        if outcome in ("pass", "rejected") + NOT_JUDGED:
            return
        self.cases.append({
            "engine": engine, "family": family, "id": case["id"], "rule": case["rule"], "section": case["section"],
            "description": case["description"], "kind": kind, "outcome": outcome, "op": case["op"], "input": case["input"],
            "expected": case["expected"], "observed": observed, "pinned": pinned, "message": message,
        })  # fmt: skip

    def record_random(self, engine: str, op: str, outcome: str, known_disagreements: int, message: str = "") -> None:
        self.random_values.append({"engine": engine, "op": op, "outcome": outcome,
                                   "known-disagreements": known_disagreements, "message": message})  # fmt: skip

    def build(self, runner, provenance: dict[str, dict[str, int]] | None = None) -> dict:
        engines = {}
        for slot in runner.slots.values():
            live = slot.engine if slot.started else None
            engines[slot.name] = {
                "available": live is not None,
                "unavailable-reason": slot.unavailable or (slot.broken if live is None else None),
                "broken": slot.broken,
                "version": live.version if live else None,
                "revision": live.revision if live else None,
                "protocol": getattr(live, "protocol", None) if live else None,
                "capabilities": sorted(live.capabilities) if live else [],
                "seconds": round(slot.seconds, 2),
                "restarts": slot.restarts,
                "unsupported": dict(sorted(self.unsupported.get(slot.name, {}).items())),
            }
        families = sorted({f for fams in self.cells.values() for f in fams})
        cells = {e: {f: json.loads(json.dumps(c)) for f, c in self.cells.get(e, {}).items()} for e in engines}
        totals = {}
        for e in engines:
            totals[e] = empty_counts()
            for c in cells[e].values():
                _add(totals[e], c)
        return {"format": REPORT_FORMAT, "engines": engines, "families": families, "cells": cells, "totals": totals,
                "provenance": provenance if provenance is not None else provenance_counts(),
                "cases": sorted(self.cases, key=lambda c: (c["engine"], c["family"], c["id"])),
                "random-values": self.random_values}  # fmt: skip


def provenance_counts() -> dict[str, dict[str, int]]:
    """family -> provenance kind -> number of cases, over every case in vectors/."""
    from conformance.vectors import load_families

    out = {}
    for family, cases in sorted(load_families().items()):
        kinds = Counter(c.get("provenance", {}).get("kind", "missing") for c in cases)
        out[family] = {k: kinds.get(k, 0) for k in KINDS} | ({"missing": kinds["missing"]} if kinds.get("missing") else {})
    return out


def write_confirmations(recorder: Recorder, runner, path: Path, engines: set[str]) -> Path:
    """Which of `engines` answered or rejected which cases correctly, with the digest of each
    expectation (the input of `python -m spec_impl.vectors.provenance record`)."""
    doc = {"format": CONFIRMATIONS_FORMAT, "engines": {}}
    for slot in runner.slots.values():
        if slot.name in engines and slot.engine is not None and slot.started:
            doc["engines"][slot.name] = {"version": slot.engine.version, **recorder.confirmed.get(slot.name, {"confirmed": {}, "partially-confirmed": {}})}
    path = Path(path)
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def write_observations(recorder: Recorder, runner, path: Path) -> int:
    """Save the observations of the run (the input of `python -m conformance.known_pin`)."""
    versions = {s.name: s.engine.version for s in runner.slots.values() if s.engine is not None and s.started}
    rows = [{**o, "version": versions.get(o["engine"])} for o in recorder.observations]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": OBSERVATIONS_FORMAT, "engines": versions, "observations": rows},
                               indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")  # fmt: skip
    return len(rows)


# --- rendering ---------------------------------------------------------------------------------

_LETTERS = {"rejected-other-rule": "R", "fail": "F", "errored": "E", "known": "K", "fixed": "X", "unsupported": "U"}


def cell_text(counts: dict[str, Any] | None, kind: str) -> str:
    """`correct/judged` plus letters for the rest, for one kind of case: 12/14 1F 1K 3U."""
    if not counts:
        return "-"
    c = counts[kind]
    judged = sum(c[o] for o in OUTCOMES if o not in NOT_JUDGED)
    correct = c["pass"] if kind == "computed" else c["rejected"]
    extra = [f"{c[o]}{letter}" for o, letter in _LETTERS.items() if c[o]]
    if judged == 0:
        return "skip" + (" " + " ".join(extra) if extra else "") if sum(c.values()) else "-"
    return f"{correct}/{judged}" + (" " + " ".join(extra) if extra else "")


LEGEND = ("cells: correct/judged, computed cases (an output expected) and rejection cases (the spec forbids the input) "
          "apart; R rejected under another rule than the case's, F fail (wrong answer, or a forbidden input accepted), "
          "E errored (the engine raised where the spec defines a result, or crashed, hung or broke the protocol), "
          "K known discrepancy reproducing its pinned observation, X fixed discrepancy (remove it from "
          "conformance/known_discrepancies.json), U unsupported (declined by the engine, not judged); "
          "skipped cases are not judged")  # fmt: skip


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [header] + rows]


def text_lines(doc: dict) -> list[str]:
    lines, notes = [], []
    for kind, title in (("computed", "computed cases: correct answers / judged"),
                        ("rejection", "rejection cases: correct rejections / judged")):  # fmt: skip
        families = [f for f in doc["families"] if any(sum(doc["cells"][e].get(f, empty_counts())[kind].values()) for e in doc["cells"])]
        header = ["engine"] + families + ["total"] + (["seconds"] if kind == "computed" else [])
        rows = []
        for name, info in doc["engines"].items():
            if not info["available"]:
                if kind == "computed":
                    notes.append(f"{name}: {'BROKEN' if info['broken'] else 'UNAVAILABLE'}, {info['unavailable-reason']}")
                continue
            fams = doc["cells"][name]
            row = [name] + [cell_text(fams.get(f), kind) for f in families] + [cell_text(doc["totals"][name], kind)]
            rows.append(row + ([f"{info['seconds']:.1f}"] if kind == "computed" else []))
        lines += [title] + _table(header, rows) + [""]
    kinds = [k for k in KINDS if any(p.get(k) for p in doc["provenance"].values())] or list(KINDS)
    prov_rows = [[f] + [str(p.get(k, 0)) for k in kinds] + [str(sum(p.values()))] for f, p in doc["provenance"].items()]
    prov_rows.append(["total"] + [str(sum(p.get(k, 0) for p in doc["provenance"].values())) for k in kinds]
                     + [str(sum(sum(p.values()) for p in doc["provenance"].values()))])  # fmt: skip
    lines += ["provenance of the expectations (cases per family)"] + _table(["family"] + kinds + ["total"], prov_rows) + [""]
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
td.num{text-align:right}td.refonly{background:#fde7d0}
details{margin:.3em 0}summary{cursor:pointer}pre{background:#f7f7f7;padding:6px;white-space:pre-wrap;word-break:break-all;margin:.2em 0}
.fail,.errored,.fixed{color:#a00}.known,.rejected-other-rule{color:#8a6d00}small{color:#666}
"""


def _css_class(counts: dict[str, Any] | None, kind: str) -> str:
    if not counts:
        return "skip"
    c = counts[kind]
    if sum(c[o] for o in OUTCOMES if o not in NOT_JUDGED) == 0:
        return "skip"
    if c["fail"] or c["errored"] or c["fixed"]:
        return "bad"
    return "known" if c["known"] or c["rejected-other-rule"] else "ok"


def _json(value: Any) -> str:
    return html.escape(json.dumps(value, ensure_ascii=False, indent=1))


def _matrix_html(doc: dict, kind: str, title: str) -> list[str]:
    e = html.escape
    families = doc["families"]
    out = [f"<h2>{e(title)}</h2><table><tr><th>engine</th>" + "".join(f"<th>{e(f)}</th>" for f in families) + "<th>total</th></tr>"]
    with_cases = {c["engine"] for c in doc["cases"]}
    for name, info in doc["engines"].items():
        if not info["available"]:
            what = "broken" if info["broken"] else "unavailable"
            out.append(f"<tr><td>{e(name)}</td><td colspan='{len(families) + 1}' class='skip'>{what}: {e(info['unavailable-reason'] or '')}</td></tr>")
            continue
        cells = doc["cells"][name]
        row = "".join(f"<td class='{_css_class(cells.get(f), kind)}'>{e(cell_text(cells.get(f), kind))}</td>" for f in families)
        total = doc["totals"][name]
        label = f"<a href='#{e(name)}'>{e(name)}</a>" if name in with_cases else e(name)
        out.append(f"<tr><td>{label}</td>{row}<td class='{_css_class(total, kind)}'>{e(cell_text(total, kind))}</td></tr>")
    out.append("</table>")
    return out


def _provenance_html(doc: dict) -> list[str]:
    e = html.escape
    out = ["<h2>Provenance of the expectations</h2><p>How each family's expected results were obtained: the spec's own "
           "examples, values hand-typed from a cited source, tables a real engine wrote, results that real engines "
           "confirm (see <code>spec_impl/vectors/provenance.py</code>), or the reference implementation alone.</p>",
           "<table><tr><th>family</th>" + "".join(f"<th>{e(k)}</th>" for k in KINDS) + "<th>total</th></tr>"]  # fmt: skip
    for family, p in doc["provenance"].items():
        cells = "".join(f"<td class='num{' refonly' if k == 'reference-only' and p.get(k) else ''}'>{p.get(k, 0)}</td>" for k in KINDS)
        out.append(f"<tr><td>{e(family)}</td>{cells}<td class='num'>{sum(p.values())}</td></tr>")
    totals = "".join(f"<td class='num'>{sum(p.get(k, 0) for p in doc['provenance'].values())}</td>" for k in KINDS)
    out.append(f"<tr><th>total</th>{totals}<td class='num'>{sum(sum(p.values()) for p in doc['provenance'].values())}</td></tr></table>")
    return out


def to_html(doc: dict) -> str:
    e = html.escape
    out = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Iceberg compliance report</title>",
           f"<style>{_CSS}</style></head><body><h1>Iceberg compliance report</h1><p>{e(LEGEND)}</p>"]  # fmt: skip
    out += _matrix_html(doc, "computed", "Computed cases: correct answers / judged")
    out += _matrix_html(doc, "rejection", "Rejection cases: correct rejections / judged")
    out += _provenance_html(doc)
    out.append("<h2>Engines</h2><table><tr><th>engine</th><th>version</th><th>revision</th><th>protocol</th><th>wall time (s)</th>"
               "<th>restarts</th><th>ops</th><th>unsupported (engine's reasons)</th></tr>")  # fmt: skip
    for name, info in doc["engines"].items():
        reasons = "<br>".join(f"{n}× {e(r)}" for r, n in info["unsupported"].items()) or "-"
        out.append(f"<tr><td>{e(name)}</td><td>{e(info['version'] or '-')}</td><td>{e(info['revision'] or '-')}</td>"
                   f"<td>{info['protocol'] or '-'}</td><td>{info['seconds']}</td><td>{info['restarts']}</td>"
                   f"<td><small>{e(', '.join(info['capabilities']) or '-')}</small></td><td><small>{reasons}</small></td></tr>")  # fmt: skip
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
        out.append(f"<h2 id='{e(name)}'>{e(name)}: {len(cases)} cases neither answered nor rejected correctly</h2>")
        for c in cases:
            pinned = f"<b>pinned by the known discrepancy</b><pre>{_json(c['pinned'])}</pre>" if c["pinned"] is not None else ""
            out.append(f"<details><summary><span class='{e(c['outcome'])}'>{e(c['outcome'].upper())}</span> "
                       f"<code>{e(c['id'])}</code> <small>({e(c['kind'])})</small> {e(c['description'])}</summary>"
                       f"<p><small>rule <code>{e(c['rule'])}</code>, spec: {e(c['section'])}</small></p>"
                       f"<b>input</b> <small>({e(c['op'])})</small><pre>{_json(c['input'])}</pre>"
                       f"<b>expected</b><pre>{_json(c['expected'])}</pre><b>observed</b><pre>{_json(c['observed'])}</pre>{pinned}"
                       + (f"<p>{e(c['message'])}</p>" if c["message"] else "") + "</details>")  # fmt: skip
    out.append("</body></html>\n")
    return "\n".join(out)
