"""The spec-gaps report: where the spec is silent or ambiguous, and how engines answer.

Built from a run's compliance document and the vectors: every question of
`spec_impl.obligations.questions` that a case asks (a `reading` case, or an open row of a
predicate case), with the sentences involved, the reference's reading, a proposed clarification,
and each engine's answers: how many cases it answers as the reference reads them and how many
otherwise, with examples. A question is *contested* when at least two engines of the run (the
reference counted as one) answer one of its cases differently. Written as `spec-gaps.json`
(schema `spec-gaps.schema.json`) and `spec-gaps.html` beside the compliance report.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from spec_impl.obligations import QUESTIONS
from spec_impl.resources import schema_file

FORMAT = 1
SCHEMA_FILE = schema_file("spec-gaps.schema.json")
EXAMPLES = 4  # example cases shown per engine and question
e = html.escape


def questions_of(case: dict[str, Any]) -> list[str]:
    """The open questions a case asks: its reading's, its open rows', and for a table read the column order."""
    o = case.get("obligation") or {}
    found = [o["question"]] if o.get("level") == "reading" else []
    found += sorted({r["question"] for r in o.get("open-rows", [])} - set(found))
    if case["op"] == "read-table":
        found.append("read.column-order")
    return found


def build(doc: dict[str, Any], families: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The report document from a compliance document and the vectors (family -> cases)."""
    listed = {(c["engine"], c["id"]): c for c in doc["cases"]}
    engines = [n for n, info in doc["engines"].items() if info["available"]]
    by_question: dict[str, dict[str, Any]] = {}
    for family, cases in families.items():
        for case in cases:
            for q in questions_of(case):
                entry = by_question.setdefault(
                    q, {"cases": 0, "answers": defaultdict(lambda: {"as-reference": 0, "otherwise": 0, "examples": []})}
                )
                entry["cases"] += 1
                _answers(entry, doc, family, case, q, engines, listed)
    out = []
    for qid, entry in sorted(by_question.items()):
        q = QUESTIONS[qid]
        answers = {n: {k: v for k, v in a.items()} for n, a in sorted(entry["answers"].items())}
        differing = sorted(n for n, a in answers.items() if a["otherwise"])
        out.append(
            {
                **q.as_json(),
                "cases": entry["cases"],
                "answers": answers,
                "engines-otherwise": differing,
                "contested": bool(differing)
                and any(a["as-reference"] for a in answers.values())
                or len(differing) >= 2,
            }
        )
    contested = [q for q in out if q["contested"]]
    return {
        "format": FORMAT,
        "engines": engines,
        "questions": sorted(out, key=lambda q: (not q["contested"], q["id"])),
        "contested": len(contested),
    }


def _answers(entry: dict, doc: dict, family: str, case: dict, q: str, engines: list[str], listed: dict) -> None:
    for engine in engines:
        outcomes = doc["outcomes"].get(engine, {}).get(family, {})
        if case["id"] in outcomes.get("pass", []) or case["id"] in outcomes.get("rejected", []):
            entry["answers"][engine]["as-reference"] += 1
            continue
        judged = listed.get((engine, case["id"]))
        if judged is None or judged["outcome"] != "divergence" or judged.get("question") != q:
            continue
        a = entry["answers"][engine]
        a["otherwise"] += 1
        if len(a["examples"]) < EXAMPLES:
            a["examples"].append(
                {
                    "case": case["id"],
                    "input": case["input"],
                    "reference": case["expected"],
                    "engine": judged["observed"],
                    "message": judged["message"],
                }
            )


# --- the page -----------------------------------------------------------------------------------

CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#222}
header{padding:.8em 1.5em;background:#3b2f5f;color:#fff}header h1{margin:0;font-size:20px}header p{margin:.2em 0 0;\
color:#e2dcf0}
main{padding:0 1.5em 2em;max-width:80em}section.q{border:1px solid #ddd;border-left:4px solid #6a4fb3;\
border-radius:3px;margin:1em 0;padding:.5em .9em}
section.q.quiet{border-left-color:#bbb}h2{font-size:16px;margin:.2em 0}code{background:#f3f3f3;padding:0 .2em}
blockquote{margin:.3em 0;padding:.2em .7em;border-left:3px solid #bbb;background:#fafafa}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;\
vertical-align:top}
th{background:#f1eef8}td.num{text-align:right}td.other{background:#efe6ff}.prop{background:#f6fbf2;border:1px solid \
#cfe5c0;padding:.3em .6em}
pre{background:#f7f7f7;padding:5px;white-space:pre-wrap;word-break:break-all;margin:.2em 0;max-height:14em;\
overflow:auto;font-size:12px}
small{color:#666}ul{margin:.2em 0}
"""


def to_html(report: dict[str, Any]) -> str:
    n = len(report["questions"])
    out = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Iceberg spec "
        f"gaps</title><style>{CSS}</style></head><body>",
        "<header><h1>Where the Iceberg spec is silent or ambiguous</h1>",
        f"<p>{n} open questions asked by the vectors; {report['contested']} on which engines answer differently. "
        f"Engines: {e(', '.join(report['engines']))}.</p></header><main>",
        "<p>Each question quotes the sentences nearest to it, says which reading the reference takes and "
        "proposes a clarification. An engine answering otherwise is a <b>divergence</b>: never a failure of the "
        "conformance run.</p>",
    ]
    rows = "".join(
        f"<tr><td><a href='#{e(q['id'])}'><code>{e(q['id'])}</code></a></td><td>{e(q['asks'])}</td>"
        f"<td class='num'>{q['cases']}</td><td>{e(', '.join(q['engines-otherwise'])) or '–'}</td></tr>"
        for q in report["questions"]
    )
    out.append(
        "<table><tr><th>question</th><th>asks</th><th>cases</th><th>engines answering otherwise than the "
        f"reference</th></tr>{rows}</table>"
    )
    for q in report["questions"]:
        out.append(_question(q))
    out.append("</main></body></html>")
    return "\n".join(out)


def _question(q: dict[str, Any]) -> str:
    parts = [
        f"<section class='q{'' if q['contested'] else ' quiet'}' id='{e(q['id'])}'><h2>{e(q['asks'])}</h2>",
        f"<small><code>{e(q['id'])}</code> · {q['cases']} cases · "
        + (
            f"engines answering otherwise: {e(', '.join(q['engines-otherwise']))}"
            if q["engines-otherwise"]
            else "no engine of this run answers otherwise"
        )
        + "</small>",
        "<p><b>Readings:</b></p><ul>" + "".join(f"<li>{e(a)}</li>" for a in q["alternatives"]) + "</ul>",
        "<p><b>The spec's words:</b></p>"
        + "".join(
            f"<blockquote>“{e(s['quote'])}” <small>({e(s['document'])})</small></blockquote>" for s in q["sentences"]
        ),
        f"<p><b>The reference reads:</b> {e(q['reference'])}</p>",
        f"<p class='prop'><b>Proposed clarification:</b> {e(q['clarification'])}</p>",
    ]
    if q["answers"]:
        rows = "".join(
            f"<tr><td>{e(name)}</td><td class='num'>{a['as-reference']}</td><td "
            f"class='num{' other' if a['otherwise'] else ''}'>{a['otherwise']}</td></tr>"
            for name, a in q["answers"].items()
        )
        parts.append(f"<table><tr><th>engine</th><th>as the reference</th><th>otherwise</th></tr>{rows}</table>")
    for name, a in q["answers"].items():
        for x in a["examples"]:
            parts.append(
                f"<details><summary>{e(name)}: <code>{e(x['case'])}</code></summary>"
                f"<pre>input: {e(_short(x['input']))}</pre><pre>reference: {e(_short(x['reference']))}</pre>"
                f"<pre>{e(name)}: {e(_short(x['engine']))}</pre></details>"
            )
    return "".join(parts) + "</section>"


def _short(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def write(doc: dict[str, Any], families: dict[str, list[dict[str, Any]]], directory: Path) -> list[Path]:
    from conformance.report_files import write_pair

    report = build(doc, families)
    return write_pair(directory, "spec-gaps", report, to_html(report))
