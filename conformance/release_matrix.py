"""The release matrix: one engine judged at every release of its matrix, and the release view of
its findings (for each cause, the releases that show it: where a bug appeared, where it was fixed).

    python -m conformance.release_matrix                       # Iceberg Java, every release
    python -m conformance.release_matrix --releases 1.9.2 1.12.0 --out reports/matrix

Each release is judged by the three judging files (`test_value_vectors.py`, `test_random_values.py`,
`test_random_planning.py`) in a pytest run of its own, with the release chosen by the engine's
version variable (`ICEBERG_JAVA_VERSION`): the vectors and the judge are the same for every
release, only the engine changes. A release's violations are expected (the ledger records the
newest release only), so a run that fails is no error here; a run that cannot judge (a usage
error, an artifact Maven cannot fetch) is, and stops the matrix with its message.

A violation's cause is the ledger entry of its case when there is one (the explanation the newest
release's finding carries), else its rule and kind (`conformance.findings.kind_of`).
Writes `<out>/<release>/compliance.json` per release and `<out>/releases.json`, `releases.md`
and `releases.html`.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from conformance import known
from conformance.findings import VIOLATIONS, kind_of

JUDGING = (
    "conformance/test_value_vectors.py",
    "conformance/test_random_values.py",
    "conformance/test_random_planning.py",
)
ROOT = Path(__file__).resolve().parents[1]


def java_releases() -> tuple[str, ...]:
    from conformance.engines.iceberg_java.build import RELEASES

    return RELEASES


MATRICES = {"iceberg-java": ("ICEBERG_JAVA_VERSION", java_releases)}


def judge_release(engine: str, release: str, out: Path, progress=print) -> Path:
    """One pytest run of the judging files against the engine at `release`; its report's path."""
    variable = MATRICES[engine][0]
    report = out / release
    argv = [sys.executable, "-m", "pytest", *JUDGING, "--engine", engine, "--compliance-report", str(report)]
    argv += ["-q", "-p", "no:cacheprovider", "--no-header"]
    started = time.monotonic()
    progress(f"{engine} {release}: judging ({variable}={release})")
    done = subprocess.run(argv, cwd=ROOT, env={**os.environ, variable: release}, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not (report / "compliance.json").is_file():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise RuntimeError(f"{engine} {release}: the run could not judge (exit {done.returncode}):\n{tail}")
    summary = next((line for line in reversed(done.stdout.splitlines()) if " in " in line and "=" not in line), "")
    progress(f"{engine} {release}: {summary or 'done'} ({time.monotonic() - started:.0f} s)")
    return report / "compliance.json"


def cause_of(engine: str, case: dict[str, Any], ledger: dict[tuple[str, str], known.Discrepancy]) -> str:
    """The cause a violation belongs to across releases: its case's ledger entry, else rule and kind."""
    entry = ledger.get((engine, case["id"]))
    if entry is not None:
        return entry.decided_by
    return f"{case.get('rule') or case['id'].split('/')[0]} · {kind_of(case)} (not recorded at the newest release)"


def release_view(engine: str, reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """For each cause, the releases that show it and its cases there; the releases' versions."""
    causes: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    versions = {}
    ledger = known.builtin()
    for release, doc in reports.items():
        versions[release] = doc.get("engines", {}).get(engine, {}).get("version")
        for case in doc["cases"]:
            if case["engine"] == engine and case["outcome"] in VIOLATIONS:
                causes[cause_of(engine, case, ledger)][release].append(case["id"])
    releases = list(reports)
    rows = [
        {
            "cause": cause,
            "releases": {r: sorted(by_release.get(r, [])) for r in releases},
            "shown-by": [r for r in releases if by_release.get(r)],
        }
        for cause, by_release in causes.items()
    ]
    rows.sort(key=lambda row: ([r not in row["shown-by"] for r in releases], row["cause"]))
    return {"format": 1, "engine": engine, "releases": releases, "versions": versions, "causes": rows}


def markdown(view: dict[str, Any]) -> str:
    releases = view["releases"]
    lines = [
        f"# {view['engine']}: findings by release",
        "",
        "Each row is a cause; a cell is the number of its cases that release violates (blank: none).",
        "",
        "| cause | " + " | ".join(releases) + " |",
        "|---|" + "---:|" * len(releases),
    ]
    for row in view["causes"]:
        cells = [str(len(row["releases"][r])) if row["releases"][r] else "" for r in releases]
        lines.append(f"| {row['cause'][:160]} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def page(view: dict[str, Any]) -> str:
    releases = view["releases"]
    head = "".join(f"<th>{html.escape(r)}</th>" for r in releases)
    body = []
    for row in view["causes"]:
        cells = "".join(
            f'<td class="{"on" if row["releases"][r] else "off"}" title="{html.escape(", ".join(row["releases"][r]))}">'
            f"{len(row['releases'][r]) or ''}</td>"
            for r in releases
        )
        body.append(f"<tr><td>{html.escape(row['cause'])}</td>{cells}</tr>")
    return f"""<!doctype html><meta charset="utf-8"><title>{html.escape(view["engine"])}: findings by release</title>
<style>body{{font:14px system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;vertical-align:top}}td.on{{background:#f8d0d0;text-align:center}}
td.off{{background:#e6f4e6}}td:first-child{{max-width:60em}}</style>
<h1>{html.escape(view["engine"])}: findings by release</h1>
<p>Each row is a cause; a red cell counts the cases that release violates (hover for their ids), a green one none.
The vectors and the judge are the same for every release.</p>
<table><tr><th>cause</th>{head}</tr>{"".join(body)}</table>
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.release_matrix", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="iceberg-java", choices=sorted(MATRICES))
    parser.add_argument("--releases", nargs="+", help="the releases to judge (default: the engine's matrix)")
    parser.add_argument("--out", type=Path, default=Path("reports/matrix"), help="where the reports go")
    args = parser.parse_args(argv)
    releases = args.releases or list(MATRICES[args.engine][1]())
    reports = {}
    try:
        for release in releases:
            path = judge_release(args.engine, release, args.out.resolve())
            reports[release] = json.loads(path.read_text(encoding="utf-8"))
    except RuntimeError as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return 2
    view = release_view(args.engine, reports)
    (args.out / "releases.json").write_text(json.dumps(view, indent=1) + "\n", encoding="utf-8")
    (args.out / "releases.md").write_text(markdown(view), encoding="utf-8")
    (args.out / "releases.html").write_text(page(view), encoding="utf-8")
    print(f"release view: {args.out / 'releases.html'} ({len(view['causes'])} causes over {len(releases)} releases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
