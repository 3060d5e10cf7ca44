"""Findings: the run's violations grouped by cause, each with a report an upstream maintainer can
act on.

A recorded violation (a ledger entry, `vectors/known/engines/<engine>.json`) belongs to the finding
of its entry's explanation (`spec`): the entries of one cause share it, as they share its sentence.
An unrecorded violation, or one a project's expectations file expects, belongs to the finding of
its engine, rule and kind. Kinds:

- `wrong answer`: an output the spec's sentence contradicts, or a forbidden input accepted;
- `declined a required feature`: a refusal ("not supported", "not implemented") of what the spec
  requires;
- `error`: any other raise where the spec defines a result, a crash or a hang.

Each finding names its cases, the deciding sentence, the smallest case (the shortest input) and
the upstream issue when one is recorded; `write_reports` writes one Markdown report per finding
(`findings/<engine>/<id>.md`), to be pasted into the engine's tracker as it is.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from conformance.failures import plugin_command

WRONG, DECLINED, ERROR = "wrong answer", "declined a required feature", "error"
KINDS = (WRONG, ERROR, DECLINED)
VIOLATIONS = ("fail", "errored", "known")
REFUSAL = re.compile(
    r"not (yet )?(supported|implemented)|unsupported|notimplemented|does not (yet )?support|supported only|"
    r"only supported|is not supported|not available",
    re.I,
)


def kind_of(case: dict[str, Any]) -> str:
    """The kind of one violation (see the module docstring)."""
    error = _error_text(case)
    if error is None:
        return WRONG
    return DECLINED if REFUSAL.search(error) else ERROR


def _error_text(case: dict[str, Any]) -> str | None:
    """The engine's error for a violation that is a raise (pinned or observed), else None."""
    for answer in (case.get("pinned"), case.get("observed")):
        if isinstance(answer, dict) and "error" in answer and set(answer) <= {"error", "rule", "failed"}:
            return str(answer["error"])
    return None


def _key(case: dict[str, Any]) -> tuple[str, ...]:
    """The cause of a violation: a recorded finding's explanation (an entry that quotes its
    sentence), else its engine, rule and kind (an unrecorded one, or a project's expectation)."""
    if case.get("decided-by") and case.get("quote"):
        return (case["engine"], "recorded", case["decided-by"])
    return (case["engine"], "unrecorded", case["rule"], kind_of(case))


def _size(case: dict[str, Any]) -> tuple[int, str]:
    return len(json.dumps(case["input"], sort_keys=True)), case["id"]


def findings(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's violations grouped into findings, by engine then by descending number of cases."""
    groups: dict[tuple[str, ...], list[dict]] = defaultdict(list)
    for c in doc.get("cases", []):
        if c["outcome"] in VIOLATIONS:
            groups[_key(c)].append(c)
    out = []
    for key, cases in groups.items():
        smallest = min(cases, key=_size)
        rules = sorted({c["rule"] for c in cases})
        kinds = sorted({kind_of(c) for c in cases}, key=KINDS.index)
        digest = hashlib.sha1("\0".join(key).encode()).hexdigest()[:8]
        obligation = smallest.get("obligation") or {}
        out.append(
            {
                "id": f"{re.sub(r'[^a-z0-9]+', '-', rules[0].lower()).strip('-')}-{digest}",
                "engine": smallest["engine"],
                "kind": kinds[0],
                "rules": rules,
                "cases": sorted(c["id"] for c in cases),
                "outcomes": {
                    o: sum(c["outcome"] == o for c in cases)
                    for o in VIOLATIONS
                    if any(c["outcome"] == o for c in cases)
                },
                "smallest": smallest["id"],
                "section": smallest["section"],
                "quote": smallest.get("quote") or obligation.get("quote"),
                "explanation": smallest.get("decided-by"),
                "upstream": next((c["upstream"] for c in cases if c.get("upstream")), None),
            }
        )
    return sorted(out, key=lambda f: (f["engine"], -len(f["cases"]), f["id"]))


def counts(found: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """engine -> findings by kind, with `findings` and `cases` totals."""
    out: dict[str, dict[str, int]] = {}
    for f in found:
        row = out.setdefault(f["engine"], {"findings": 0, "cases": 0, **dict.fromkeys(KINDS, 0)})
        row["findings"] += 1
        row["cases"] += len(f["cases"])
        row[f["kind"]] += 1
    return out


def report_markdown(finding: dict[str, Any], doc: dict[str, Any]) -> str:
    """The upstream report of one finding: title, versions, the smallest input, expected and
    actual, the sentence with its section, how to run the one case, every case."""
    case = next(c for c in doc["cases"] if c["engine"] == finding["engine"] and c["id"] == finding["smallest"])
    info = doc["engines"].get(finding["engine"], {})
    expected = case["expected"].get("output", case["expected"])
    command = plugin_command(info.get("spec") or finding["engine"], f"{finding['engine']}:{case['id']}]")
    table = case["input"].get("table") if case["op"] == "read-table" else None
    lines = [
        f"# {finding['engine']}: {finding['kind']} under {', '.join(finding['rules'])} ({len(finding['cases'])} cases)",
        "",
        f"- **Engine**: {finding['engine']} {info.get('version') or ''}".rstrip(),
        f"- **Spec**: {finding['section']}" + (f': "{finding["quote"]}"' if finding["quote"] else ""),
        *_table_row(case, finding),
        f"- **Vectors**: release {doc.get('vectors', {}).get('version') or '-'} of the Iceberg conformance vectors",
    ]
    if finding["upstream"]:
        lines.append(f"- **Upstream**: {finding['upstream']}")
    if finding["explanation"]:
        lines += ["", finding["explanation"]]
    lines += [
        "",
        f"## The smallest case: `{case['id']}`",
        "",
        case["description"],
        "",
        f"Input (op `{case['op']}`):",
        "",
        "```json",
        json.dumps(case["input"], indent=2, sort_keys=True, ensure_ascii=False),
        "```",
        *(
            [
                "",
                f"The table is `tables/{table}` of the vector release; `iceberg-vectors table {table} DIR` writes it.",
            ]
            if table
            else []
        ),
        "",
        "Expected:",
        "",
        "```json",
        json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False),
        "```",
        "",
        "Actual:",
        "",
        "```json",
        json.dumps(case["observed"], indent=2, sort_keys=True, ensure_ascii=False),
        "```",
        "",
        "## How to run it",
        "",
        "```sh",
        "pip install iceberg-conformance",
        command,
        "```",
        "",
        f"## Every case of this finding ({len(finding['cases'])})",
        "",
        *[f"- `{c}`" for c in finding["cases"]],
    ]
    return "\n".join(lines) + "\n"


def write_reports(doc: dict[str, Any], target: Path) -> list[Path]:
    """One Markdown report per finding, as `target/findings/<engine>/<id>.md`."""
    paths = []
    for f in doc.get("findings", []):
        path = Path(target) / "findings" / f["engine"] / f"{f['id']}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report_markdown(f, doc), encoding="utf-8")
        paths.append(path)
    return paths


def _table_row(case: dict[str, Any], finding: dict[str, Any]) -> list[str]:
    """The table row that decides the case, where the finding quotes the sentence introducing its table."""
    obligation = case.get("obligation") or {}
    if obligation.get("table-row") and finding["quote"] == obligation.get("quote"):
        return [f"- **Row**: `{obligation['table-row']}`"]
    return []
