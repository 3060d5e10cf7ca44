"""The compliance report page: every link resolves, and in headless Chromium (Debian's `chromium`
package) the page fits 1,280 px, its headers stick, and its pages (a cell's cases, an engine's
findings, one finding) open from their links.

The report is built by the real `Recorder` from outcomes of nine engines over every family of the
vectors, so the matrix is as wide as a full run's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from conformance.report import OUTCOMES, SCHEMA_FILE, Recorder, text_lines, upstream_url
from conformance.report_html import anchor, page_id, to_html
from conformance.vectors import load_families

ENGINES = [
    "iceberg-java",
    "pyiceberg",
    "pyiceberg-core",
    "duckdb",
    "polars",
    "iceberg-spark",
    "chdb",
    "daft",
    "reference",
    "reference-seed",
]
KNOWN = {"decided_by": "Appendix B: 'a quote of the spec'", "upstream": "apache/iceberg#6568"}


def _slot(name: str) -> SimpleNamespace:
    engine = SimpleNamespace(version="1.0", revision="v3-adopted", protocol=2, capabilities={"hash"})
    return SimpleNamespace(
        name=name, engine=engine, started=True, unavailable=None, broken=None, seconds=1.0, restarts=0
    )


@pytest.fixture(scope="module")
def report_doc() -> dict:
    recorder = Recorder()
    families = load_families()
    cycle = [o for o in OUTCOMES]
    for e, engine in enumerate(ENGINES):
        for f, (family, cases) in enumerate(sorted(families.items())):
            for n, case in enumerate(cases[:6]):
                outcome = "pass" if engine.startswith("reference") else cycle[(e + f + n) % len(cycle)]
                known = KNOWN if outcome == "known" else {}
                message = "Skipped: engine lacks the capability 'x'" if outcome == "skipped" else ""
                question = "predicate.null-operand" if outcome == "divergence" else None
                recorder.record_case(
                    engine,
                    family,
                    case,
                    outcome,
                    {"rows": list(range(40))} if outcome == "fail" else 1,
                    message,
                    answered=outcome not in ("skipped", "unsupported"),
                    question=question,
                    **known,
                )
    runner = SimpleNamespace(slots={name: _slot(name) for name in ENGINES})
    return recorder.build(runner, provenance={"bucket": {"reference-only": 1}})


@pytest.fixture(scope="module")
def page(report_doc, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "compliance.html"
    path.write_text(to_html(report_doc), encoding="utf-8")
    return path


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])


def test_every_link_resolves(report_doc, page):
    links = _Links()
    links.feed(page.read_text(encoding="utf-8"))
    data = json.loads(re.search(r"id='report-data'>(.*?)</script>", page.read_text(encoding="utf-8"), re.S).group(1))
    internal = [h[1:] for h in links.hrefs if h.startswith("#")]
    cells = [h for h in internal if h.startswith("cell/")]
    assert len(cells) == sum(len(report_doc["families"]) for n, i in report_doc["engines"].items() if i["available"])
    for h in cells:
        _, engine, family = h.split("/")
        assert family in report_doc["families"] and engine in data["outcomes"], h
    missing = [h for h in internal if not h.startswith("cell/") and h not in links.ids]
    assert missing == []
    for engine, anchors in data["anchors"].items():  # the cell lists link to these
        assert set(anchors.values()) <= links.ids, engine
    external = [h for h in links.hrefs if not h.startswith("#") and not h.startswith("spec-gaps.html")]
    assert external and all(h == "https://github.com/apache/iceberg/issues/6568" for h in external)
    beside = {h for h in links.hrefs if h.startswith("spec-gaps.html")}  # the spec-gaps page written beside this one
    assert beside == {"spec-gaps.html", "spec-gaps.html#predicate.null-operand"}


def test_report_follows_its_schema(report_doc):
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text())).validate(json.loads(json.dumps(report_doc)))


def test_findings_carry_the_spec_text_and_outcomes_list_every_case(report_doc):
    found = [c for c in report_doc["cases"] if c["outcome"] == "known"]
    assert found and all(c["decided-by"] == KNOWN["decided_by"] and c["upstream"].startswith("https://") for c in found)
    assert all(c["rule-summary"] for c in report_doc["cases"])
    listed = sum(
        len(ids) for fams in report_doc["outcomes"].values() for outcomes in fams.values() for ids in outcomes.values()
    )
    assert listed == sum(t[o] for t in report_doc["totals"].values() for o in OUTCOMES)
    assert report_doc["engines"]["chdb"]["skipped"] == {
        "engine lacks the capability 'x'": sum(
            len(f.get("skipped", [])) for f in report_doc["outcomes"]["chdb"].values()
        )
    }


def test_terminal_verdicts_come_first_violations_apart(report_doc):
    lines = text_lines(report_doc)
    columns = ["violations", "unexpected", "expected", "fixed", "divergences", "allowed"]
    assert lines[0].startswith("verdicts: violations of a must") and lines[1].split() == ["engine", *columns]
    for line in lines[2 : 2 + len(ENGINES)]:
        name, *counts = line.split()
        assert [int(n) for n in counts] == [report_doc["verdicts"][name][k] for k in columns]
        assert report_doc["verdicts"][name]["violations"] == sum(report_doc["verdicts"][name][k] for k in columns[1:3])


def test_terminal_matrix_has_families_as_rows(report_doc):
    lines = text_lines(report_doc)
    lines = lines[lines.index("computed cases: correct answers / judged") :]
    header = lines[1].split()
    assert header[0] == "family" and header[1:] == list(report_doc["engines"])
    rows = lines[2 : 2 + len(report_doc["families"])]
    assert [r.split()[0] for r in rows] == report_doc["families"] and lines[2 + len(rows)].startswith("total")


def test_upstream_references_become_links():
    assert upstream_url("apache/iceberg#13494") == "https://github.com/apache/iceberg/issues/13494"
    assert (
        upstream_url("https://github.com/duckdb/duckdb-iceberg/issues/1325")
        == "https://github.com/duckdb/duckdb-iceberg/issues/1325"
    )
    assert upstream_url(None) is None and upstream_url("see the mailing list") == "see the mailing list"


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs Debian's chromium package")
        pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")
    return found


def _layout(page: Path, fragment: str, tmp_path: Path) -> dict:
    command = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,900",
        "--virtual-time-budget=3000",
        "--dump-dom",
        f"{page.as_uri()}?selftest#{fragment}",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r'data-selftest="([^"]*)"', done.stdout)
    assert found, f"no layout from chromium (exit {done.returncode}): {done.stderr[-1500:]}"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_page_fits_1280_px_with_sticky_headers(page, tmp_path):
    layout = _layout(page, "matrix", tmp_path)
    assert layout["viewport"] == 1280 and layout["page"] <= 1280, layout
    assert layout["matrix"] <= layout["matrixBox"], layout  # ten engines' columns without scrolling sideways
    assert layout["sticky"] == "sticky" and layout["shown"] == ["main"]


def test_cell_and_findings_pages_open_from_their_links(report_doc, page, tmp_path):
    family = report_doc["families"][0]
    cases = sum(len(ids) for ids in report_doc["outcomes"]["pyiceberg"][family].values())
    cell = _layout(page, f"cell/pyiceberg/{family}", tmp_path)
    assert cell["shown"] == ["cell"] and cell["cellItems"] == cases > 0
    findings = _layout(page, f"findings-{page_id('duckdb')}", tmp_path)
    assert findings["shown"] == [f"findings-{page_id('duckdb')}"]
    case = next(c for c in report_doc["cases"] if c["engine"] == "polars")
    one = _layout(page, anchor("polars", case["id"]), tmp_path)
    assert one["shown"] == [f"findings-{page_id('polars')}"] and one["open"] == [anchor("polars", case["id"])]


def test_the_report_names_its_vectors_and_shows_the_spec_coverage(report_doc, page):
    """The document carries the vector version and the requirement index's coverage per spec text
    and section; the page shows them (issue: every normative sentence traced to a check)."""
    from spec_impl.vectors.versions import vectors_version

    assert report_doc["vectors"] == {"version": vectors_version()}
    coverage = report_doc["spec-coverage"]
    assert {"table-spec", "view-spec", "v3-adopted"} <= set(coverage)
    table = coverage["table-spec"]
    assert table["total"]["statements"] == sum(s["statements"] for s in table["sections"].values())
    html = page.read_text()
    assert "id='spec-coverage'" in html and f"<td class='num'>{table['total']['statements']}</td>" in html
