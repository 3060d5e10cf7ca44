"""The audit's report: a terminal summary, a JSON document and a self-contained HTML page.

Each violation names its rule id; the summary counts them per rule with the rule's spec section
(`spec_impl.rules`).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from typing import Any

from spec_impl.rules import RULES

from .job import AuditResult
from .known import known_findings

FIRST = 10


def to_json(result: AuditResult, metadata_location: str) -> dict[str, Any]:
    counts = Counter(v.rule for v in result.violations)
    return {
        "metadata-location": metadata_location,
        "snapshot-id": result.snapshot_id,
        "checked": {
            "manifests": result.manifests,
            "files": result.files,
            "rows": result.rows,
            "bytes": result.bytes,
            "seconds": round(result.seconds, 3),
        },
        "rules": {rule: {"violations": n, "section": _section(rule)} for rule, n in sorted(counts.items())},
        "violations": [v.to_json() for v in result.violations],
        "errors": [v.to_json() for v in result.errors],
        "known": [{**v.to_json(), "known-finding": entry} for v, entry in result.known],
        "recommendations": [v.to_json() for v in result.recommendations],
    }


def _by_level(known: list) -> str:
    """`2 violations, 1 divergence` for the known findings' entries, by their level."""
    levels = {k.id: k.level for k in known_findings()}
    counts = Counter(levels.get(entry, "violation") for _, entry in known)
    return ", ".join(f"{n} {level}{'s' if n > 1 and level != 'allowed' else ''}" for level, n in sorted(counts.items()))


def _section(rule: str) -> str:
    r = RULES.get(rule)
    return r.section if r else ""


def text_lines(result: AuditResult, metadata_location: str) -> list[str]:
    """The terminal summary: what was checked, the count per rule, the first violations."""
    per_second = result.rows / result.seconds if result.seconds else 0.0
    lines = [
        f"iceberg-audit {metadata_location} snapshot {result.snapshot_id}",
        f"checked {result.manifests} manifests, {result.files} files, {result.rows} rows in {result.seconds:.1f} s "
        f"({per_second:,.0f} rows/s)",
    ]
    if result.known:
        lines.append(
            f"{len(result.known)} known writer findings (known/audit.json), apart: "
            + _by_level(result.known)
            + ": "
            + ", ".join(sorted({entry for _, entry in result.known}))
        )
    if result.recommendations:
        lines.append(
            f"{len(result.recommendations)} recommendations of the spec not followed (a should, not a violation): "
            + ", ".join(sorted({v.rule for v in result.recommendations}))
        )
    if not result.violations and not result.errors:
        return lines + ["no violations"]
    counts = Counter(v.rule for v in result.violations)
    width = max(map(len, counts), default=4)
    lines.append(f"{len(result.violations)} violations of {len(counts)} rules:")
    lines += [f"  {rule:<{width}}  {n:>6}  {_section(rule)}" for rule, n in sorted(counts.items())]
    for v in result.violations[:FIRST]:
        lines.append(f"  [{v.rule}] {v.path}: {v.message}")
    if len(result.violations) > FIRST:
        lines.append(f"  ... and {len(result.violations) - FIRST} more (--json FILE lists them all)")
    if result.errors:
        lines.append(f"{len(result.errors)} files could not be checked:")
        lines += [f"  {v.path}: {v.message}" for v in result.errors[:FIRST]]
    return lines


def to_html(doc: dict[str, Any]) -> str:
    """A standalone page: the counts per rule and every violation."""
    e = html.escape
    c = doc["checked"]
    out = [
        "<!doctype html><html><head><meta charset='utf-8'><title>iceberg-audit</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid "
        "#ccc;padding:.2em .5em;"
        "text-align:left;vertical-align:top}code{font-size:90%}.ok{color:#070}.bad{color:#b00}</style></head><body>",
        "<section id='iceberg-audit'><h2>Table audit</h2>",
        f"<p><code>{e(doc['metadata-location'])}</code>, snapshot {e(str(doc['snapshot-id']))}: {c['manifests']} "
        f"manifests, "
        f"{c['files']} files, {c['rows']} rows checked in {c['seconds']} s.</p>",
    ]
    if doc["known"]:
        levels = {k.id: k.level for k in known_findings()}
        out.append(
            f"<p>{len(doc['known'])} known writer findings, apart: "
            + ", ".join(
                sorted(
                    {f"{e(k['known-finding'])} ({levels.get(k['known-finding'], 'violation')})" for k in doc["known"]}
                )
            )
            + "</p>"
        )
    if doc["recommendations"]:
        out.append(
            f"<p>{len(doc['recommendations'])} recommendations of the spec not followed (a should, not a "
            "violation): " + ", ".join(sorted({e(r["rule"]) for r in doc["recommendations"]})) + "</p>"
        )
    if not doc["violations"] and not doc["errors"]:
        out.append("<p class='ok'>No violations.</p>")
    else:
        out.append("<table><tr><th>rule</th><th>violations</th><th>spec section</th></tr>")
        out += [
            f"<tr><td><code>{e(r)}</code></td><td class='bad'>{v['violations']}</td><td>{e(v['section'])}</td></tr>"
            for r, v in doc["rules"].items()
        ]
        out.append("</table><h3>Violations</h3><table><tr><th>rule</th><th>file</th><th>message</th></tr>")
        out += [
            f"<tr><td><code>{e(v['rule'])}</code></td><td><code>{e(v['path'])}</code></td><td>{e(v['message'])}</td></tr>"
            for v in doc["violations"] + doc["errors"]
        ]
        out.append("</table>")
    out.append("</section></body></html>")
    return "\n".join(out) + "\n"


def dump_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"
