"""A pull-request summary of a run, in Markdown: short enough for a CI comment.

The run's outcome, then per engine the headline (unexpected violations of a must, which fail the
run; expected and fixed ones, divergences and allowed differences beside them),
the changes since a baseline when one was given (`conformance.baseline`), a table of the families
with judged cases (passed, violations, divergences, allowed, changed), each family linked to the
spec section most of its cases cite, and the regressions by name.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from conformance.baseline import Change, Comparison

PASSED = ("pass", "rejected", "rejected-other-rule")
VIOLATED = ("fail", "errored", "known")
LISTED = 10  # regressions (and fixed cases) named per engine


def family_links(families: dict[str, list[dict[str, Any]]], rules: dict[str, dict[str, Any]]) -> dict[str, str]:
    """family -> the published spec section most of its cases' rules cite."""
    links: dict[str, str] = {}
    for family, cases in families.items():
        urls = Counter(
            section["url"]
            for case in cases
            for section in rules.get(case.get("rule", ""), {}).get("sections", [])[:1]
            if section.get("url")
        )
        if urls:
            links[family] = urls.most_common(1)[0][0]
    return links


def _family_of(doc: dict[str, Any], engine: str) -> dict[str, str]:
    return {
        case_id: family
        for family, by_outcome in doc.get("outcomes", {}).get(engine, {}).items()
        for case_ids in by_outcome.values()
        for case_id in case_ids
    }


def _headline(doc: dict[str, Any], engine: str) -> str:
    """The verdict as the run's exit code gives it: unexpected violations fail it (❌), expected
    ones (xfail) and fixed ones do not; the counts are the report's (`report.verdict_counts`)."""
    v = doc.get("verdicts", {}).get(engine, {})
    totals = doc.get("totals", {}).get(engine, {})
    passed = sum(totals.get(o, 0) for o in PASSED)
    unexpected = v.get("unexpected", 0)
    mark = "❌" if unexpected else "✅"
    return (
        f"{mark} **{unexpected} unexpected violation{'s' if unexpected != 1 else ''}** of a must · "
        f"{v.get('expected', 0)} expected (xfail) · {v.get('fixed', 0)} fixed · "
        f"{v.get('divergences', 0)} divergences · {v.get('allowed', 0)} allowed differences · {passed} passed"
    )


def engine_lines(
    doc: dict[str, Any], engine: str, links: dict[str, str], comparison: Comparison | None = None
) -> list[str]:
    """The summary of one engine."""
    info = doc.get("engines", {}).get(engine, {})
    version = f" {info['version']}" if info.get("version") else ""
    lines = [f"### {engine}{version}", "", _headline(doc, engine)]
    if found := doc.get("finding-counts", {}).get(engine):
        lines += [
            "",
            f"{found['findings']} finding{'s' if found['findings'] != 1 else ''} (one per cause): "
            f"{found['wrong answer']} wrong answers, {found['error']} errors, "
            f"{found['declined a required feature']} required features declined",
        ]
    changed: dict[str, int] = defaultdict(int)
    changes = [c for c in comparison.changes if c.engine == engine] if comparison is not None else []
    if comparison is not None:
        kinds = Counter(c.change for c in changes)
        lines.append(
            "Since the baseline: "
            + ", ".join(f"{kinds.get(k, 0)} {k}" for k in ("regressed", "fixed", "new", "removed"))
        )
        family_of = _family_of(doc, engine)
        for c in changes:
            changed[family_of.get(c.case, "?")] += 1
    lines += [
        "",
        "| family | passed | violations | divergences | allowed | changed |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for family, counts in sorted(doc.get("cells", {}).get(engine, {}).items()):
        judged = sum(counts.get(o, 0) for o in (*PASSED, *VIOLATED, "divergence", "allowed", "fixed"))
        if not judged and not changed.get(family):
            continue
        name = f"[{family}]({links[family]})" if family in links else family
        row = (
            sum(counts.get(o, 0) for o in PASSED),
            sum(counts.get(o, 0) for o in VIOLATED),
            counts.get("divergence", 0),
            counts.get("allowed", 0),
        )
        lines.append(f"| {name} | " + " | ".join(str(n) for n in row) + f" | {changed.get(family, '') or ''} |")
    if comparison is None:  # without a baseline, the expected violations the engine now passes
        outcomes = doc.get("outcomes", {}).get(engine, {}).values()
        fixed = sorted(case_id for by_outcome in outcomes for case_id in by_outcome.get("fixed", []))
        changes = [Change(engine, case_id, "fixed", "known", "fixed") for case_id in fixed]
    for kind, title in (("regressed", "Regressions"), ("fixed", "Fixed (the expectation entry can go)")):
        listed = [c for c in changes if c.change == kind]
        if listed:
            lines += ["", f"**{title}**", ""]
            lines += [f"- `{c.case}`: {c.before} → {c.after}" for c in listed[:LISTED]]
            if len(listed) > LISTED:
                lines.append(f"- … and {len(listed) - LISTED} more")
    return lines


def summary(doc: dict[str, Any], links: dict[str, str], comparison: Comparison | None = None) -> str:
    """The whole summary: a title, the run's seed, then each engine's part."""
    seed = doc.get("random-seed")
    lines = ["## Iceberg conformance", ""]
    outcome = (doc.get("run") or {}).get("outcome")
    if outcome is not None:
        lines += [f"{'✅' if outcome == 'passed' else '❌'} The run {outcome}.", ""]
    if seed is not None:
        lines += [f"Random and property tests seeded with {seed}.", ""]
    for engine in sorted(doc.get("outcomes", {})):
        lines += engine_lines(doc, engine, links, comparison) + [""]
    return "\n".join(lines).rstrip() + "\n"


def write(path: Path, doc: dict[str, Any], links: dict[str, str], comparison: Comparison | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(summary(doc, links, comparison), encoding="utf-8")
    return path
