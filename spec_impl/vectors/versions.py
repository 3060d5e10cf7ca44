"""Versions of the vectors, and the changelog between two of them.

The version is `vectors/VERSION`. Each release records what it held, one digest per case, in
`vectors/releases/<version>/digests.json`, so the next one's changelog is computed, never typed: cases
added, changed (the same id, another content: input, expected answer or obligation), extended (the
same question and answer, now also held under revisions added since the first release) and removed.
A family case's digest is its JSON's; a golden table's covers its `case.json` and every file of its
tree, so a rewritten data file changes the table.

    iceberg-vectors changelog            # what changed since the last recorded release
    iceberg-vectors changelog --record   # record the current cases as release VERSION
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from spec_impl import revisions
from spec_impl.resources import vectors_dir

VERSION_FILE, RELEASES_DIR, DIGESTS_FILE = "VERSION", "releases", "digests.json"
_SKIP_SETS = {"sources", RELEASES_DIR}
# What a case says about the spec without changing its question or its answer.
ANNOTATIONS = frozenset({"description", "note", "obligation", "provenance", "section", "known-findings"})
# The revisions of vectors 0.1.0: a case that gains a later revision keeps its id and is `extended`.
FIRST_RELEASE = (revisions.SEED_2024, revisions.V3_ADOPTED)


def vectors_version(root: Path | None = None) -> str:
    """The version of the vectors (`vectors/VERSION`)."""
    path = (root or vectors_dir()) / VERSION_FILE
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        raise FileNotFoundError(f"{path} is missing: the vectors carry their version there") from None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _without_annotations(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_annotations(v) for k, v in value.items() if k not in ANNOTATIONS}
    if isinstance(value, list):
        return [_without_annotations(v) for v in value]
    return value


def _case_digest(case: dict, extra: bytes = b"") -> dict[str, str]:
    """`answer`: the digest of the question and its answer; `case`: of everything; `first-release`:
    of the question and answer with the revisions narrowed to `FIRST_RELEASE` (where that differs)."""
    digests = {
        "answer": _digest(_canonical(_without_annotations(case)) + extra),
        "case": _digest(_canonical(case) + extra),
    }
    held = case.get("revisions")
    if isinstance(held, list) and any(r not in FIRST_RELEASE for r in held):
        narrowed = {**case, "revisions": [r for r in held if r in FIRST_RELEASE]}
        digests["first-release"] = _digest(_canonical(_without_annotations(narrowed)) + extra)
    return digests


def _tree_bytes(table: Path) -> bytes:
    """Every file of a golden table's tree but its case.json, with its path."""
    files = sorted(p for p in table.rglob("*") if p.is_file() and p.name != "case.json")
    return b"".join(p.relative_to(table).as_posix().encode() + b"\0" + p.read_bytes() + b"\0" for p in files)


def case_digests(root: Path | None = None) -> dict[str, dict[str, str]]:
    """case id -> its digests (`answer`, `case`), for every case of the vectors: the family files'
    cases and the golden tables (`tables/<name>`)."""
    root = root or vectors_dir()
    digests: dict[str, dict[str, str]] = {}
    for path in sorted(root.glob("*/*.json")):
        if path.parent.name in _SKIP_SETS or path.parent.name == "tables" or path.name.endswith(".schema.json"):
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        for case in doc.get("cases", []) if isinstance(doc, dict) else []:
            digests[case["id"]] = _case_digest(case)
    for case_file in sorted((root / "tables").glob("*/case.json")):
        case = json.loads(case_file.read_text(encoding="utf-8"))
        digests[f"tables/{case_file.parent.name}"] = _case_digest(case, _tree_bytes(case_file.parent))
    return digests


@dataclass(frozen=True)
class Changelog:
    since: str
    added: tuple[str, ...]
    changed: tuple[str, ...]
    annotated: tuple[str, ...]
    removed: tuple[str, ...]
    extended: tuple[str, ...] = ()

    def as_json(self) -> dict:
        kinds = ("added", "changed", "extended", "annotated", "removed")
        return {"since": self.since, **{k: list(getattr(self, k)) for k in kinds}}

    def markdown(self, version: str, limit: int = 50) -> str:
        """A changelog section: the counts, then the case ids by kind (up to `limit` each)."""
        lines = [
            f"## {version}",
            "",
            f"Since {self.since}: {len(self.added)} cases added, {len(self.changed)} changed (question or answer), "
            f"{len(self.extended)} extended to later revisions only, "
            f"{len(self.annotated)} annotated only (description, obligation, provenance), {len(self.removed)} removed.",
        ]
        listed = (("Added", self.added), ("Changed", self.changed), ("Removed", self.removed))
        for title, ids in listed:
            if ids:
                lines += ["", f"{title}:", ""] + [f"- `{i}`" for i in ids[:limit]]
                if len(ids) > limit:
                    lines.append(f"- … and {len(ids) - limit} more")
        return "\n".join(lines) + "\n"


def compare(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]], since: str) -> Changelog:
    both = sorted(set(before) & set(after))
    differ = [k for k in both if before[k]["answer"] != after[k]["answer"]]
    extended = tuple(k for k in differ if after[k].get("first-release") == before[k]["answer"])
    changed = tuple(k for k in differ if k not in set(extended))
    annotated = tuple(
        k for k in both if before[k]["answer"] == after[k]["answer"] and before[k]["case"] != after[k]["case"]
    )
    added, removed = tuple(sorted(set(after) - set(before))), tuple(sorted(set(before) - set(after)))
    return Changelog(since, added, changed, annotated, removed, extended)


def recorded_releases(root: Path | None = None) -> dict[str, Path]:
    """version -> its recorded case digests, in release order (by version number)."""
    folder = (root or vectors_dir()) / RELEASES_DIR
    files = sorted(
        folder.glob(f"*/{DIGESTS_FILE}"),
        key=lambda p: tuple(int(x) if x.isdigit() else 0 for x in p.parent.name.split(".")),
    )
    return {p.parent.name: p for p in files}


def changelog(root: Path | None = None) -> Changelog:
    """The changes since the newest recorded release other than the current version."""
    root = root or vectors_dir()
    current = vectors_version(root)
    earlier = {v: p for v, p in recorded_releases(root).items() if v != current}
    if not earlier:
        return compare({}, case_digests(root), "nothing (the first release)")
    since, path = list(earlier.items())[-1]
    return compare(json.loads(path.read_text(encoding="utf-8"))["digests"], case_digests(root), since)


def record(root: Path | None = None, version: str | None = None, into: Path | None = None) -> Path:
    """Record the cases of `root` as release `version` (default: VERSION) in
    `into/<version>/digests.json` (default: the vectors' releases folder), one case per line."""
    root = root or vectors_dir()
    version = version or vectors_version(root)
    path = (into or vectors_dir() / RELEASES_DIR) / version / DIGESTS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(case_digests(root).items())]
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(
        f'{{"version": {json.dumps(version)}, "digests": {{\n' + ",\n".join(lines) + "\n}}\n", encoding="utf-8"
    )
    tmp.replace(path)
    return path
