"""Writing a report to disk: a document as `NAME.json` beside its page `NAME.html`.

Apart from `report` (the document) and `report_html` (its page), which it joins, so that neither of
those imports the other's reader.
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance import findings
from conformance.report_html import to_html


def write_pair(directory: Path, stem: str, doc: dict, page: str) -> list[Path]:
    """`stem.json` (the document) and `stem.html` (its page) in `directory`, created if needed."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    json_path, html_path = directory / f"{stem}.json", directory / f"{stem}.html"
    json_path.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    html_path.write_text(page, encoding="utf-8")
    return [json_path, html_path]


def write_compliance(doc: dict, directory: Path) -> list[Path]:
    """The compliance report (`compliance.json` and `compliance.html`), and beside them an upstream
    report per finding (`findings/<engine>/<id>.md`, `conformance.findings`)."""
    paths = write_pair(directory, "compliance", doc, to_html(doc))
    reports = findings.write_reports(doc, Path(directory))
    return paths + ([Path(directory) / "findings"] if reports else [])
