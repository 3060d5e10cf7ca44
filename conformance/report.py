"""The compliance report: engines × rule families, in the terminal, as JSON and as one HTML file.

Cases that expect an output (*computed* cases) and cases that expect a rejection (*rejection* cases)
are counted apart, so that an engine refusing everything earns nothing on computed cases. Outcomes
(see `conformance.judge`): pass, rejected, rejected-other-rule, divergence (the spec leaves the
question open and the engine reads it otherwise than the reference), allowed (a difference the spec
permits), fail, errored, known (a recorded violation reproducing its pinned observation), fixed (a
recorded discrepancy that now passes: remove it), unsupported (the engine declined the case),
skipped (an op the engine lacks, or the engine is unavailable). The report also counts the
provenance of every case's expectation per family, every case's outcome (so that each cell of the
matrix lists its cases) and the reasons for skipped cases. The JSON follows `report.schema.json`
(format 5); the HTML page (`report_html.py`) has no external resources.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spec_impl.vectors.provenance import CONFIRMATIONS_FORMAT, KINDS, expectation_digest

from conformance import findings
from conformance.judge import CREDITED, expects_rejection

OUTCOMES = (
    "pass",
    "rejected",
    "rejected-other-rule",
    "divergence",
    "allowed",
    "fail",
    "errored",
    "known",
    "fixed",
    "unsupported",
    "skipped",
)
VIOLATIONS = ("fail", "errored", "known")  # a must of the spec broken (or the run broken): the headline
UNEXPECTED = ("fail", "errored")  # violations no ledger entry or expectation names: they fail the run
BESIDE = ("divergence", "allowed")  # counted beside the violations, never in them
KINDS_OF_CASE = ("computed", "rejection")
NOT_JUDGED = ("unsupported", "skipped")
REPORT_FORMAT = 5
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
    skipped: dict = field(default_factory=lambda: defaultdict(Counter))
    outcomes: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(list))))
    observations: list[dict] = field(default_factory=list)
    confirmed: dict = field(default_factory=lambda: defaultdict(lambda: {"confirmed": {}, "partially-confirmed": {}}))
    random_seed: int | str | None = None  # the seed of the random and property tests (conftest._fix_random_seed)

    def record_case(
        self,
        engine: str,
        family: str,
        case: dict,
        outcome: str,
        observed: Any = None,
        message: str = "",
        pinned: Any = None,
        has_entry: bool = False,
        partial: bool = False,
        answered: bool = False,
        decided_by: str | None = None,
        upstream: str | None = None,
        question: str | None = None,
        quote: str | None = None,
    ) -> None:
        """One judged case. `answered`: `observed` is an answer of the engine (which may be null);
        `partial`: the engine reports only part of the expectation (`Engine.partial_view`);
        `decided_by` and `upstream`: the known discrepancy's spec text and upstream issue."""
        kind = "rejection" if expects_rejection(case) else "computed"
        if outcome in ("pass", "rejected"):
            self.confirmed[engine]["partially-confirmed" if partial else "confirmed"][case["id"]] = expectation_digest(
                case["expected"]
            )
        cell = self.cells[engine][family]
        cell[outcome] += 1
        cell[kind][outcome] += 1
        self.outcomes[engine][family][outcome].append(case["id"])
        if outcome == "unsupported":
            self.unsupported[engine][message] += 1
        if outcome == "skipped":
            self.skipped[engine][message.removeprefix("Skipped: ") or "skipped"] += 1
        if answered and (has_entry or outcome not in CREDITED + NOT_JUDGED):
            self.observations.append({"engine": engine, "case": case["id"], "outcome": outcome, "answer": observed})
        if outcome in ("pass", "rejected") + NOT_JUDGED:
            return
        self.cases.append(
            {
                "engine": engine,
                "family": family,
                "id": case["id"],
                "rule": case["rule"],
                "section": case["section"],
                "description": case["description"],
                "kind": kind,
                "outcome": outcome,
                "op": case["op"],
                "input": case["input"],
                "expected": case["expected"],
                "observed": observed,
                "pinned": pinned,
                "message": message,
                "rule-summary": _rule_summary(case["rule"]),
                "decided-by": decided_by,
                "upstream": upstream_url(upstream),
                "obligation": case.get("obligation"),
                "question": question,
                "quote": quote,
            }
        )

    def record_random(
        self,
        engine: str,
        op: str,
        outcome: str,
        known_disagreements: int,
        message: str = "",
        judged: int = 0,
        rules: list[str] | None = None,
    ) -> None:
        """One random test: its outcome, how many cases it judged and the rules of the disagreements
        no recorded finding covers."""
        self.random_values.append(
            {
                "engine": engine,
                "op": op,
                "outcome": outcome,
                "known-disagreements": known_disagreements,
                "message": message,
                "judged": judged,
                "disagreeing-rules": rules or [],
            }
        )

    def build(self, runner, provenance: dict[str, dict[str, int]] | None = None) -> dict:
        engines = {}
        for slot in runner.slots.values():
            live = slot.engine if slot.started else None
            engines[slot.name] = {
                "spec": getattr(slot, "spec", slot.name),
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
                "skipped": dict(sorted(self.skipped.get(slot.name, {}).items())),
                "self-check": slot.name.startswith("reference"),
            }
        families = sorted({f for fams in self.cells.values() for f in fams})
        cells = {e: {f: json.loads(json.dumps(c)) for f, c in self.cells.get(e, {}).items()} for e in engines}
        totals = {}
        for e in engines:
            totals[e] = empty_counts()
            for c in cells[e].values():
                _add(totals[e], c)
        verdicts = {e: verdict_counts(totals[e]) for e in engines}
        doc = {
            "format": REPORT_FORMAT,
            "engines": engines,
            "families": families,
            "cells": cells,
            "totals": totals,
            "verdicts": verdicts,
            "random-seed": self.random_seed,
            "provenance": provenance if provenance is not None else provenance_counts(),
            "cases": sorted(self.cases, key=lambda c: (c["engine"], c["family"], c["id"])),
            "outcomes": {
                e: {
                    f: {o: sorted(ids) for o, ids in sorted(by_outcome.items())}
                    for f, by_outcome in sorted(fams.items())
                }
                for e, fams in self.outcomes.items()
                if e in engines
            },
            "random-values": self.random_values,
            "vectors": {"version": _vectors_version()},
            "spec-coverage": spec_coverage(),
        }
        doc["findings"] = findings.findings(doc)
        doc["finding-counts"] = findings.counts(doc["findings"])
        return doc


def verdict_counts(totals: dict[str, Any]) -> dict[str, int]:
    """An engine's verdicts, the one count the terminal, the page and the summary show: violations
    (unexpected and expected), fixed beside them, then divergences and allowed differences."""
    return {
        "violations": sum(totals[o] for o in VIOLATIONS),
        "unexpected": sum(totals[o] for o in UNEXPECTED),
        "expected": totals["known"],
        "fixed": totals["fixed"],
        "divergences": totals["divergence"],
        "allowed": totals["allowed"],
    }


def close(doc: dict[str, Any], failed: bool, comparison=None, baseline_path: Path | None = None) -> dict[str, Any]:
    """The report of a finished run: its outcome and, with a baseline, the comparison."""
    doc["run"] = {"outcome": "failed" if failed else "passed"}
    if comparison is not None:
        doc["baseline"] = {
            "path": str(baseline_path),
            "counts": comparison.counts(),
            "changes": [c.as_json() for c in comparison.changes],
        }
    return doc


def _vectors_version() -> str | None:
    from spec_impl.vectors.versions import vectors_version

    try:
        return vectors_version()
    except FileNotFoundError:
        return None


def spec_coverage() -> dict[str, Any]:
    """The requirement index's coverage (`vectors/requirements.json`): per spec text and section,
    the normative statements by status and the share of testable ones the vectors check."""
    from spec_impl.resources import vectors_dir

    path = vectors_dir() / "requirements.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["coverage"]


def _rule_summary(rule_id: str) -> str | None:
    from spec_impl.rules import RULES

    found = RULES.get(rule_id)
    return found.summary if found is not None else None


def upstream_url(reference: str | None) -> str | None:
    """An upstream issue as a link: `owner/repo#N` becomes its GitHub address; URLs stay."""
    if not reference:
        return None
    if "://" in reference:
        return reference
    repo, _, number = reference.partition("#")
    return f"https://github.com/{repo}/issues/{number}" if number.isdigit() and repo.count("/") == 1 else reference


def provenance_counts() -> dict[str, dict[str, int]]:
    """family -> provenance kind -> number of cases, over every case in vectors/."""
    from conformance.vectors import load_families

    out = {}
    for family, cases in sorted(load_families().items()):
        kinds = Counter(c.get("provenance", {}).get("kind", "missing") for c in cases)
        out[family] = {k: kinds.get(k, 0) for k in KINDS} | (
            {"missing": kinds["missing"]} if kinds.get("missing") else {}
        )
    return out


def write_confirmations(recorder: Recorder, runner, path: Path, engines: set[str]) -> Path:
    """Which of `engines` answered or rejected which cases correctly, with the digest of each
    expectation (the input of `python -m spec_impl.vectors.provenance record`)."""
    doc = {"format": CONFIRMATIONS_FORMAT, "engines": {}}
    for slot in runner.slots.values():
        if slot.name in engines and slot.engine is not None and slot.started:
            doc["engines"][slot.name] = {
                "version": slot.engine.version,
                **recorder.confirmed.get(slot.name, {"confirmed": {}, "partially-confirmed": {}}),
            }
    path = Path(path)
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def write_observations(recorder: Recorder, runner, path: Path) -> int:
    """Save the observations of the run (the input of `python -m conformance.known_pin`)."""
    versions = {s.name: s.engine.version for s in runner.slots.values() if s.engine is not None and s.started}
    rows = [{**o, "version": versions.get(o["engine"])} for o in recorder.observations]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {"format": OBSERVATIONS_FORMAT, "engines": versions, "observations": rows},
            indent=1,
            sort_keys=True,
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    return len(rows)


# --- rendering ---------------------------------------------------------------------------------

_LETTERS = {
    "rejected-other-rule": "R",
    "divergence": "D",
    "allowed": "A",
    "fail": "F",
    "errored": "E",
    "known": "K",
    "fixed": "X",
    "unsupported": "U",
}


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


LEGEND = (
    "cells: correct/judged, computed cases (an output expected) and rejection cases (the spec forbids the input) "
    "apart; R rejected under another rule than the case's, D divergence (the spec is silent or ambiguous and the "
    "engine reads it otherwise than the reference: not a failure), A allowed (a difference the spec permits), "
    "F fail (a must of the spec broken: wrong answer, or a forbidden input accepted), "
    "E errored (the engine raised where the spec defines a result, or crashed, hung or broke the protocol), "
    "K known violation reproducing its pinned observation, X fixed discrepancy (remove it from "
    "the engine's ledger file, vectors/known/engines/<engine>.json, or from your expectations file: "
    "--expectations FILE, trimmed by --update-expectations FILE), "
    "U unsupported (declined by the engine, not judged); "
    "skipped cases are not judged"
)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [header] + rows]


def text_lines(doc: dict) -> list[str]:
    """The matrix for a terminal: families as rows, engines as columns (the self-check apart)."""
    lines, notes = [], []
    live = [n for n, info in doc["engines"].items() if info["available"]]
    for name, info in doc["engines"].items():
        if not info["available"]:
            notes.append(f"{name}: {'BROKEN' if info['broken'] else 'UNAVAILABLE'}, {info['unavailable-reason']}")
        elif skipped := sum(info.get("skipped", {}).values()):
            notes.append(
                f"{name}: {skipped} cases not judged, for {len(info['skipped'])} reasons (compliance.html, Engines)"
            )
    if doc.get("verdicts"):
        columns = ("violations", "unexpected", "expected", "fixed", "divergences", "allowed")
        rows = [[n] + [str(doc["verdicts"][n][c]) for c in columns] for n in live if n in doc["verdicts"]]
        lines += (
            [
                "verdicts: violations of a must (F + E + K), of which unexpected (F + E: they fail the run) and "
                "expected (K: xfail); fixed (X) beside them; divergences (D) and allowed differences (A) beside "
                "them, never in them"
            ]
            + _table(["engine", *columns], rows)
            + [""]
        )
    if found := doc.get("finding-counts"):
        columns = ("findings", *findings.KINDS, "cases")
        rows = [[n] + [str(found[n][c]) for c in columns] for n in live if n in found]
        lines += ["findings: the violations grouped by cause (compliance.html, findings/<engine>/<id>.md)"]
        lines += _table(["engine", "findings", "wrong answers", "errors", "declined", "cases"], rows) + [""]
    judged = judged_families(doc, live)
    for kind, title in (
        ("computed", "computed cases: correct answers / judged"),
        ("rejection", "rejection cases: correct rejections / judged"),
    ):
        families = [f for f in judged if any(_judged(doc["cells"][e].get(f), kind) for e in live)]
        rows = [[f] + [cell_text(doc["cells"][n].get(f), kind) for n in live] for f in families]
        rows.append(["total"] + [cell_text(doc["totals"][n], kind) for n in live])
        if kind == "computed":
            rows.append(["seconds"] + [f"{doc['engines'][n]['seconds']:.1f}" for n in live])
        lines += [title] + _table(["family"] + live, rows) + [""]
    if unjudged := [f for f in doc["families"] if f not in judged]:
        lines += [f"not judged ({len(unjudged)} families: no case the engines offer): {', '.join(unjudged)}", ""]
    provenance = {f: p for f, p in doc["provenance"].items() if f in judged}
    kinds = [k for k in KINDS if any(p.get(k) for p in provenance.values())] or list(KINDS)
    prov_rows = [[f] + [str(p.get(k, 0)) for k in kinds] + [str(sum(p.values()))] for f, p in provenance.items()]
    prov_rows.append(
        ["total"]
        + [str(sum(p.get(k, 0) for p in provenance.values())) for k in kinds]
        + [str(sum(sum(p.values()) for p in provenance.values()))]
    )
    lines += (
        ["provenance of the expectations (cases per judged family)"]
        + _table(["family"] + kinds + ["total"], prov_rows)
        + [""]
    )
    return lines + notes + [LEGEND]


def _judged(counts: dict[str, Any] | None, kind: str | None = None) -> int:
    """How many cases of a cell (of one kind, or both) were judged."""
    if not counts:
        return 0
    c = counts if kind is None else counts[kind]
    return sum(c[o] for o in OUTCOMES if o not in NOT_JUDGED)


def judged_families(doc: dict, engines: list[str]) -> list[str]:
    """The families on which at least one of the engines was judged (the others are one line)."""
    return [f for f in doc["families"] if any(_judged(doc["cells"][e].get(f)) for e in engines)]
