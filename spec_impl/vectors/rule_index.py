"""The rule index: for every rule id of the registry, where the spec states it, what implements
it, which vector cases test it, and which engines pass or fail them.

    python -m spec_impl.vectors.rule_index --write   # vectors/rules.json, vectors/rules.schema.json, RULES.md
    python -m spec_impl.vectors.rule_index --check   # exit 1 when those files are stale

For each rule (`spec_impl.rules.RULES`, complete once every module of `spec_impl` is imported):

- `sections`: the citations of `Rule.section`, each with its document, heading, the anchor of the
  published spec page, and a quote of the cited section: one whole sentence, never a fragment of
  a table (`spec_sections.fragment_reason`; the builder refuses any other). The spec texts live
  outside the repository: without them the quotes of the committed `rules.json` are kept (a
  quote is only ever chosen from the texts, see `spec_sections.quote`);
- `implemented-by`: the functions of `spec_impl` (`module:qualname`) marked with the decorator
  `@implements("rule.id", ...)` of `spec_impl.rules`, the single source of this mapping;
- `vector-files` and `vectors`: the files (paths under `vectors/`) and the case ids of
  `vectors/<set>/*.json` whose `rule` is the id or whose expected error is (the coverage
  `tests/test_vectors.py::test_every_rule_has_a_vector` requires), and
  the snapshots of the golden tables (`vectors/tables/*/case.json`) that list the rule;
- `engines`: `pass`, the engines that confirmed at least one of its cases (`confirmations.json`,
  see `provenance.py`; a confirmation counts while the expectation is unchanged), `confirmed`, how
  many of its cases each of them confirmed, and `fail`, the engines with entries in the ledger
  (`vectors/known/engines/<engine>.json`) for its cases, with their count. RULES.md shows the
  counts, so an engine that confirms some cases and violates others stands under both with numbers.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from spec_impl.resources import known_engine_files, vectors_dir
from spec_impl.vectors import spec_sections
from spec_impl.vectors.spec_rows import ROWS
from spec_impl.vectors.provenance import confirmations, expectation_digest
from spec_impl.ops.regeneration import recover
from spec_impl.ops.golden_tables import snapshot_case_id

FORMAT = 1
REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIR = REPO_ROOT / "spec_impl"
INDEX_FILE, SCHEMA_FILE, MARKDOWN_FILE = "rules.json", "rules.schema.json", "RULES.md"


def registry() -> dict[str, Any]:
    """The complete rule registry: every module of `spec_impl` imported (the vector generator's
    modules name rules, they register none)."""
    from spec_impl.rules import RULES

    import spec_impl

    for m in pkgutil.walk_packages(spec_impl.__path__, "spec_impl."):
        if not m.name.startswith("spec_impl.vectors") and not m.name.endswith("__main__"):
            importlib.import_module(m.name)
    return RULES


# --- implemented-by: the functions marked with @implements ------------------------------------------


def implementations(rules: dict) -> dict[str, list[str]]:
    """rule id -> the functions (`module:qualname`) marked `@implements(rule id)`
    (`spec_impl.rules.implements`); `registry()` has imported every module that marks one."""
    from spec_impl.rules import IMPLEMENTED_BY

    return {r: sorted(IMPLEMENTED_BY.get(r, ())) for r in rules}


def resolve(function: str) -> Any:
    """The object a `module:qualname` names."""
    module, _, qualname = function.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


# --- vectors and engines -------------------------------------------------------------------------


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def vector_cases(rules: dict, root: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """rule id -> its cases ({"id", "expected", "file"}, the file's path under `root`): family
    cases whose `rule` or expected error is the rule, and golden-table snapshots whose table lists
    it."""
    root = root or vectors_dir()
    recover(root)
    out: dict[str, list[dict[str, Any]]] = {r: [] for r in rules}
    for path in sorted(root.glob("*/*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not (isinstance(doc, dict) and "cases" in doc):
            continue
        for case in doc["cases"]:
            named = (
                {case["rule"], case["expected"].get("error")} if isinstance(case["expected"], dict) else {case["rule"]}
            )
            for r in sorted(n for n in named if n in out):
                out[r].append({"id": case["id"], "expected": case["expected"], "file": _relative(path, root)})
    for path in sorted(root.glob("tables/*/case.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for s in doc["snapshots"]:
            case = {
                "id": snapshot_case_id(doc["id"], s["snapshot-id"]),
                "expected": {"output": {"columns": s["columns"], "rows": s["rows"]}},
                "file": _relative(path, root),
            }  # as conformance.vectors.table_cases
            for r in doc["rules"]:
                if r in out:
                    out[r].append(case)
    return {r: sorted(cases, key=lambda c: c["id"]) for r, cases in out.items()}


def known_entries(files: list[Path] | None = None) -> list[dict[str, str]]:
    """The (engine, case) of every entry of the judge's ledger (`vectors/known/engines/`), as
    {"engine", "case"}: an engine file names its engine, each entry's `where` its case."""
    out = []
    for f in known_engine_files() if files is None else files:
        doc = json.loads(f.read_text(encoding="utf-8"))
        out += [{"engine": doc["engine"], "case": e["where"]["case"]} for e in doc["entries"]]
    return out


def engines(cases: dict[str, list[dict[str, Any]]], known_files: list[Path] | None = None) -> dict[str, dict[str, Any]]:
    """rule id -> {"pass": [engine, ...], "confirmed": {engine: cases confirmed}, "fail": {engine:
    number of known discrepancies}}."""
    recorded = confirmations()
    owner: dict[str, list[str]] = defaultdict(list)
    out: dict[str, dict[str, Any]] = {}
    for r, rule_cases in cases.items():
        confirmed: dict[str, int] = defaultdict(int)
        for c in rule_cases:
            owner[c["id"]].append(r)
            digest = expectation_digest(c["expected"])
            for engine in {who["engine"] for who, d in recorded.get(c["id"], {}).get("full", []) if d == digest}:
                confirmed[engine] += 1
        out[r] = {"pass": sorted(confirmed), "confirmed": dict(sorted(confirmed.items())), "fail": {}}
    for entry in known_entries(known_files):
        case = entry["case"]
        prefix = case.split("/", 1)[0]
        for r in owner.get(case) or ([prefix] if prefix in out else []):
            fail = out[r]["fail"]
            fail[entry["engine"]] = fail.get(entry["engine"], 0) + 1
    for r in out:
        out[r]["fail"] = dict(sorted(out[r]["fail"].items()))
    return out


# --- the index ----------------------------------------------------------------------------------------


def _previous_quotes(root: Path) -> dict[tuple[str, str, str], str]:
    path = root / INDEX_FILE
    if not path.is_file():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {(r["id"], s["cited"], s["source"]["section"]): s["quote"] for r in doc["rules"] for s in r["sections"]}


def build(root: Path | None = None, spec_dir: Path | None = None) -> dict[str, Any]:
    """The index document (`rules.json`). Quotes come from the spec texts in `spec_dir`, or, when
    they are not there, from the committed index."""
    root = root or vectors_dir()
    spec_dir = spec_dir or spec_sections.spec_dir()
    have_texts = spec_dir.is_dir()
    previous = {} if have_texts else _previous_quotes(root)
    rules = registry()
    impl = implementations(rules)
    cases = vector_cases(rules, root)
    verdicts = engines(cases)
    entries = []
    for rule_id in sorted(rules):
        rule = rules[rule_id]
        sections = []
        for c in spec_sections.parse_section(rule.section):
            key = (rule_id, c.cited, c.source_heading)
            if have_texts:
                quote = spec_sections.quote(rule_id, rule.summary, c, spec_dir)
            elif key in previous:
                quote = previous[key]
                if spec_sections.fragment_reason(quote) is not None:
                    raise ValueError(
                        f"{rule_id}: the committed quote of {c.cited!r} "
                        f"{spec_sections.fragment_reason(quote)}: {quote!r}"
                    )
            else:
                raise FileNotFoundError(
                    f"{rule_id}: no spec texts in {spec_dir} to quote {c.cited!r} from ({spec_sections.SPEC_DIR_ENV})"
                )
            sections.append(
                {
                    "cited": c.cited,
                    "document": c.document,
                    "heading": c.heading,
                    **({"url": c.url} if c.url else {}),
                    **({"detail": c.detail} if c.detail else {}),
                    "quote": quote,
                    **({"table-row": row} if (row := ROWS.get((rule_id, c.source_heading))) else {}),
                    "source": {"file": c.source_file, "section": c.source_heading},
                }
            )
        entries.append(
            {
                "id": rule_id,
                "summary": rule.summary,
                "strength": rule.strength,
                "versions": list(rule.versions),
                "revisions": list(rule.revisions),
                "section": rule.section,
                "sections": sections,
                "implemented-by": impl[rule_id],
                "vector-files": sorted({c["file"] for c in cases[rule_id]}),
                "vectors": [c["id"] for c in cases[rule_id]],
                "engines": verdicts[rule_id],
            }
        )
    documents = {
        k: {"title": v["title"], **({"url": v["url"]} if v["url"] else {})} for k, v in spec_sections.DOCUMENTS.items()
    }
    return {
        "$schema": f"./{SCHEMA_FILE}",
        "format": FORMAT,
        "description": "Every spec rule id: its spec sections (published anchors, a quote), the reference "
        "functions, its vector cases and the engines that pass or fail them. Generated by python -m "
        "spec_impl.vectors.rule_index.",
        "documents": documents,
        "rules": entries,
    }


_ENGINE_VERDICTS = {
    "type": "object",
    "required": ["pass", "fail"],
    "additionalProperties": False,
    "properties": {
        "pass": {
            "type": "array",
            "items": {"type": "string"},
            "description": "engines that confirmed at least one case",
        },
        "confirmed": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1},
            "description": "engine -> number of the rule's cases it confirmed",
        },
        "fail": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1},
            "description": "engine -> number of known discrepancies among the cases",
        },
    },
}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Iceberg conformance rule index (vectors/rules.json)",
    "type": "object",
    "required": ["format", "documents", "rules"],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": FORMAT},
        "description": {"type": "string"},
        "documents": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["title"],
                "additionalProperties": False,
                "properties": {"title": {"type": "string"}, "url": {"type": "string"}},
            },
        },
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "id",
                    "summary",
                    "strength",
                    "versions",
                    "revisions",
                    "section",
                    "sections",
                    "implemented-by",
                    "vector-files",
                    "vectors",
                    "engines",
                ],
                "properties": {
                    "id": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$"},
                    "summary": {"type": "string"},
                    "strength": {
                        "enum": ["must", "should"],
                        "description": "should: the rule's sentence is a recommendation; its findings are listed "
                        "apart from the violations and never fail a table",
                    },
                    "section": {"type": "string", "description": "the rule's section as registered"},
                    "versions": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                    "revisions": {"type": "array", "items": {"type": "string"}},
                    "sections": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["cited", "document", "heading", "quote", "source"],
                            "properties": {
                                "cited": {"type": "string"},
                                "document": {"enum": sorted(spec_sections.DOCUMENTS)},
                                "heading": {"type": "string"},
                                "url": {"type": "string", "format": "uri"},
                                "detail": {"type": "string"},
                                "quote": {"type": "string", "minLength": 1, "maxLength": spec_sections.MAX_QUOTE},
                                "table-row": {
                                    "type": "string",
                                    "minLength": 1,
                                    "description": "the row of the section's table that decides the rule, one line "
                                    "of the text verbatim, where the quote only introduces the table",
                                },
                                "source": {
                                    "type": "object",
                                    "required": ["file", "section"],
                                    "additionalProperties": False,
                                    "properties": {"file": {"type": "string"}, "section": {"type": "string"}},
                                    "description": "the spec text the quote is from and its heading "
                                    "(or digest section)",
                                },
                            },
                        },
                    },
                    "implemented-by": {
                        "type": "array",
                        "minItems": 1,
                        "items": {"type": "string", "pattern": r"^[\w.]+:[\w.]+$"},
                    },
                    "vector-files": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "the files under vectors/ that hold the rule's cases",
                    },
                    "vectors": {"type": "array", "items": {"type": "string"}},
                    "engines": _ENGINE_VERDICTS,
                },
            },
        },
    },
}


def _dumps(doc: Any) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# --- RULES.md ---------------------------------------------------------------------------------------


def _order(doc: dict[str, Any]) -> list[tuple[tuple, str, str, str | None]]:
    """The first cited section of each rule as (spec-order key, document, heading, url)."""
    documents = list(spec_sections.DOCUMENTS)
    out = []
    for r in doc["rules"]:
        s = r["sections"][0]
        headings = list(spec_sections.anchors(s["document"]))
        out.append(
            ((documents.index(s["document"]), headings.index(s["heading"])), s["document"], s["heading"], s.get("url"))
        )
    return out


def markdown(doc: dict[str, Any]) -> str:
    lines = [
        "# Spec rules",
        "",
        "Generated by `python -m spec_impl.vectors.rule_index --write` from the rule registry, the vectors and the",
        "engine records; never edit by hand (`--check` fails when it is stale). The same data, machine-readable:",
        "`vectors/rules.json`.",
        "",
        "Rules are grouped by the first section they cite, in the order of the spec. Quotes are whole sentences",
        "(never a fragment of a table) of the spec texts the project implements (the 2024 table spec text, the",
        "view spec draft, the v4 proposal, and a digest of v3 as adopted, which cites the published table and",
        "Puffin specs).",
        "",
    ]
    keyed = sorted(zip(_order(doc), doc["rules"]), key=lambda x: (x[0][0], x[1]["id"]))
    total = len(doc["rules"])
    lines.append(
        f"{total} rules; {sum(1 for r in doc['rules'] if r['vectors'])} with vector cases; "
        f"{sum(1 for r in doc['rules'] if r['engines']['fail'])} with known engine discrepancies."
    )
    current = None
    for (_key, document, heading, url), r in keyed:
        if (document, heading) != current:
            current = (document, heading)
            title = spec_sections.DOCUMENTS[document]["title"]
            lines += ["", f"## {title}: {heading}", ""] + ([f"<{url}>", ""] if url else [])
        versions = ", ".join(f"v{v}" for v in r["versions"])
        lines += [
            f"### `{r['id']}`",
            "",
            r["summary"],
            "",
            f"- format versions {versions}; revisions {', '.join(r['revisions'])}"
            + (
                "; a recommendation (should): findings listed apart, never a violation"
                if r["strength"] == "should"
                else ""
            ),
        ]
        for s in r["sections"]:
            where = (
                f"[{s['heading']}]({s['url']})"
                if s.get("url")
                else f'{spec_sections.DOCUMENTS[s["document"]]["title"]}, "{s["heading"]}"'
            )
            detail = f" ({s['detail']})" if s.get("detail") else ""
            source = f"{s['source']['file']}" + (
                f" {s['source']['section']}" if s["source"]["section"].startswith("§") else ""
            )
            lines.append(f"- {where}{detail}: “{s['quote']}” ({source})")
            if s.get("table-row"):
                lines.append(f"  - the row that decides it: “{s['table-row']}”")
        lines.append("- implemented by " + ", ".join(f"`{f}`" for f in r["implemented-by"]))
        cases = len(r["vectors"])
        confirmed = ", ".join(f"{e} ({n} of {cases})" for e, n in r["engines"].get("confirmed", {}).items())
        fail = ", ".join(f"{e} ({n} case{'s' if n != 1 else ''})" for e, n in r["engines"]["fail"].items())
        lines.append("- vector files " + ", ".join(f"`vectors/{f}`" for f in r["vector-files"]))
        lines.append(
            f"- {cases} vector case{'s' if cases != 1 else ''}; "
            f"confirmed by: {confirmed or 'no engine recorded'}; violates: {fail or 'none known'}"
        )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# --- writing and checking ---------------------------------------------------------------------------


def render(root: Path | None = None, spec_dir: Path | None = None) -> dict[Path, str]:
    """The files of the index, by path: rules.json and rules.schema.json in the vectors directory
    `root`, and RULES.md at the repository root when `root` is the checkout's vectors directory."""
    root = root or vectors_dir()
    doc = build(root, spec_dir)
    files = {root / INDEX_FILE: _dumps(doc), root / SCHEMA_FILE: _dumps(SCHEMA)}
    if root.resolve() == (REPO_ROOT / "vectors").resolve():
        files[REPO_ROOT / MARKDOWN_FILE] = markdown(doc)
    return files


def stale(files: dict[Path, str]) -> list[Path]:
    return [p for p, text in files.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]


def write(root: Path | None = None, spec_dir: Path | None = None) -> list[Path]:
    """Write the index files that changed; the paths written."""
    files = render(root, spec_dir)
    changed = stale(files)
    for path in changed:
        path.write_text(files[path], encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m spec_impl.vectors.rule_index", description=__doc__.split("\n\n")[0]
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--write", action="store_true", help="write vectors/rules.json, vectors/rules.schema.json and RULES.md"
    )
    mode.add_argument("--check", action="store_true", help="exit 1 when those files differ from what would be written")
    parser.add_argument("--root", type=Path, default=None, help="the vectors directory (default: the checkout's)")
    parser.add_argument(
        "--spec-dir",
        type=Path,
        default=None,
        help=f"the spec texts (default: ${spec_sections.SPEC_DIR_ENV} or ../shared/spec)",
    )
    args = parser.parse_args(argv)
    if args.write:
        for path in write(args.root, args.spec_dir):
            print(f"wrote {path}")
        return 0
    differing = stale(render(args.root, args.spec_dir))
    for path in differing:
        print(f"stale: {path} (run python -m spec_impl.vectors.rule_index --write)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
