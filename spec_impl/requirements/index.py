"""The generated requirement index: `vectors/requirements.json` (every statement of the source
files with the vector cases and files of its rules, and the coverage per document and section),
its schema `vectors/requirements.schema.json`, and `REQUIREMENTS.md` at the repository root.

The index reads the committed rule index (`vectors/rules.json`) for the rules' cases, so it is
written after it (`iceberg-vectors generate`) and checked with it (`iceberg-vectors check`). It
never reads the spec texts: the quotes are checked by `tests/test_requirements.py`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from spec_impl.requirements import coverage, sources
from spec_impl.requirements.report import markdown
from spec_impl.resources import vectors_dir
from spec_impl.ops.golden_tables import snapshot_case_id

FORMAT = 1
REPO_ROOT = Path(__file__).resolve().parents[2]
INDEX_FILE, SCHEMA_FILE, MARKDOWN_FILE = "requirements.json", "requirements.schema.json", "REQUIREMENTS.md"
RULES_FILE = "rules.json"


def case_files(root: Path) -> dict[str, str]:
    """vector case id -> the file that holds it, relative to the vectors directory."""
    out: dict[str, str] = {}
    for path in sorted(p for p in root.glob("*/*") if p.suffix == ".json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "cases" in doc:
            rel = path.relative_to(root).as_posix()
            out.update((case["id"], rel) for case in doc["cases"])
    for path in sorted(root.glob("tables/*/case.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(root).as_posix()
        out.update((snapshot_case_id(doc["id"], s["snapshot-id"]), rel) for s in doc["snapshots"])
    return out


def rule_cases(root: Path) -> dict[str, dict[str, Any]]:
    """The committed rule index's rules by id."""
    doc = json.loads((root / RULES_FILE).read_text(encoding="utf-8"))
    return {r["id"]: r for r in doc["rules"]}


def _entry(document: str, file: str, s: dict[str, Any], rules: dict, files: dict[str, str]) -> dict[str, Any]:
    cases = sorted({c for r in s.get("rules", []) if r in rules for c in rules[r]["vectors"]})
    entry = {
        "id": s["id"],
        "document": document,
        "file": file,
        "section": s["section"],
        "quote": s["quote"],
        "kind": s["kind"],
        "versions": s["versions"],
        "status": s["status"],
        "rules": s.get("rules", []),
    }
    if s.get("reason"):
        entry["reason"] = s["reason"]
    if s.get("superseded-by"):
        entry["superseded-by"] = s["superseded-by"]
    entry["cases"] = cases
    entry["files"] = sorted({files[c] for c in cases if c in files})
    return entry


def build(root: Path | None = None, statements_dir: Path = sources.STATEMENTS_DIR) -> dict[str, Any]:
    """The index document."""
    root = root or vectors_dir()
    rules, files = rule_cases(root), case_files(root)
    docs = sources.load(statements_dir)
    statements = [_entry(d["document"], d["file"], s, rules, files) for d in docs for s in d["statements"]]
    return {
        "$schema": SCHEMA_FILE,
        "format": FORMAT,
        "description": (
            "Every normative statement of the spec texts, with the rules, vector cases and vector files "
            "that check it, or why none does; generated from spec_impl/requirements/statements/ and "
            "rules.json by `python -m spec_impl.requirements --write`."
        ),
        "documents": [{"document": d["document"], "file": d["file"], "statements": len(d["statements"])} for d in docs],
        "coverage": coverage.by_document(statements),
        "statements": statements,
    }


_STRINGS = {"type": "array", "items": {"type": "string"}}
_COUNTS = {
    "type": "object",
    "required": ["statements", *sources.STATUSES, "testable", "checked-share"],
    "properties": {
        **{k: {"type": "integer", "minimum": 0} for k in ("statements", *sources.STATUSES, "testable")},
        "checked-share": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
    },
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Iceberg conformance requirement index",
    "type": "object",
    "required": ["format", "documents", "coverage", "statements"],
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": FORMAT},
        "description": {"type": "string"},
        "documents": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["document", "file", "statements"],
                "properties": {
                    "document": {"enum": list(sources.DOCUMENTS)},
                    "file": {"type": "string"},
                    "statements": {"type": "integer"},
                },
            },
        },
        "coverage": {
            "type": "object",
            "description": "counts by status per document (`total`) and per section (`sections`); "
            "testable = all but untestable and superseded; checked-share = checked / testable",
            "additionalProperties": {
                "type": "object",
                "required": ["total", "sections"],
                "properties": {"total": _COUNTS, "sections": {"type": "object", "additionalProperties": _COUNTS}},
            },
        },
        "statements": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "document", "file", "section", "quote", "kind", "versions", "status"],
                "properties": {
                    "id": {"type": "string"},
                    "document": {"enum": list(sources.DOCUMENTS)},
                    "file": {"type": "string"},
                    "section": {"type": "string"},
                    "quote": {"type": "string", "maxLength": sources.MAX_QUOTE},
                    "kind": {"enum": list(sources.KINDS)},
                    "versions": {"type": "array", "items": {"enum": [1, 2, 3, 4]}, "minItems": 1},
                    "status": {"enum": list(sources.STATUSES)},
                    "rules": _STRINGS,
                    "reason": {"type": "string"},
                    "superseded-by": {"type": "string"},
                    "cases": _STRINGS,
                    "files": _STRINGS,
                },
            },
        },
    },
}


def _dumps(doc: Any) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def render(root: Path | None = None) -> dict[Path, str]:
    """The files of the index by path; REQUIREMENTS.md only when `root` is the checkout's vectors."""
    root = root or vectors_dir()
    doc = build(root)
    files = {root / INDEX_FILE: _dumps(doc), root / SCHEMA_FILE: _dumps(SCHEMA)}
    if root.resolve() == (REPO_ROOT / "vectors").resolve():
        files[REPO_ROOT / MARKDOWN_FILE] = markdown(doc)
    return files


def stale(files: dict[Path, str]) -> list[Path]:
    return [p for p, text in files.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]


def write(root: Path | None = None) -> list[Path]:
    """Write the index files that changed; the paths written."""
    files = render(root)
    changed = stale(files)
    for path in changed:
        path.write_text(files[path], encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spec_impl.requirements", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {INDEX_FILE}, {SCHEMA_FILE} and {MARKDOWN_FILE}")
    mode.add_argument("--check", action="store_true", help="exit 1 when those files differ from what would be written")
    parser.add_argument("--root", type=Path, default=None, help="the vectors directory (default: the checkout's)")
    args = parser.parse_args(argv)
    if args.write:
        for path in write(args.root):
            print(f"wrote {path}")
        return 0
    differing = stale(render(args.root))
    for path in differing:
        print(f"stale: {path} (run python -m spec_impl.requirements --write)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
