"""A vector release for implementations in any language: one versioned, reproducible tarball.

    iceberg-conformance-vectors-<version>/
        README.md              how to consume the release (vectors/CONSUMING.md)
        FORMAT.md              the vectors' forms (vectors/README.md)
        CHANGELOG.md           what changed between releases (vectors/CHANGELOG.md)
        MANIFEST.json          version, case format, and the SHA-256 of every file
        vectors/<set>/...      the golden sets as generated (cases, golden tables, SHA256SUMS)
        schemas/*.schema.json  one JSON Schema per kind of file (cases, table cases, table and view
                               metadata, the ledger, rule index, engine protocol messages)
        known/engines/<engine>.json  real engines' recorded violations, each with the sentence it
                               breaks (the ledger, vectors/known/), one file per engine
        known/audit.json, known/writers.json  the known findings of the table audit and of the
                               writer harness (same ledger)
        questions.json         the open questions and the allowances that `reading` and `allowed`
                               cases name (spec_impl.obligations), each with its sentences
        spec-gaps.json, .html  how engines answer the open questions, from a conformance run's
                               report (`export DIR --spec-gaps REPORT_DIR`), when given
        json-safe/...          the case files (family files, tables' case.json) holding integers beyond
                               ±(2^53 - 1), with those written as {"$int": "<decimal digits>"}, for
                               JSON parsers that read numbers as doubles (a table's own files stay as
                               Iceberg writes them)

The tarball is byte-for-byte reproducible: sorted entries, fixed times and owners, no compression
timestamp. The version is the project's; the case format is `schema.FORMAT_VERSION` (the files'
`format` field).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import io
import json
import tarfile
from pathlib import Path
from typing import Any

from spec_impl.vectors.versions import vectors_version
from spec_impl.resources import known_dir, schema_file, vectors_dir
from spec_impl.vectors.release_schemas import SCHEMAS

SAFE_INT = 2**53 - 1
# the capture inputs of golden tables (their output is vectors/tables), and the ledger and schemas,
# which the release ships at its top (known/, schemas/)
_SKIP_DIRS = {"sources", "known", "schemas"}
_EPOCH = 946684800  # 2000-01-01: the fixed mtime of every entry


def version() -> str:
    try:
        return importlib.metadata.version("iceberg-conformance")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def json_safe(value: Any) -> tuple[Any, bool]:
    """The value with every integer beyond ±(2^53 - 1) as {"$int": "<digits>"}; whether any was."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value, False
    if isinstance(value, int):
        return ({"$int": str(value)}, True) if abs(value) > SAFE_INT else (value, False)
    if isinstance(value, list):
        items = [json_safe(v) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    if isinstance(value, dict):
        items = {k: json_safe(v) for k, v in value.items()}
        return {k: v for k, (v, _) in items.items()}, any(c for _, c in items.values())
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def restore_ints(value: Any) -> Any:
    """The inverse of `json_safe` (what a consumer does after parsing a json-safe file)."""
    if isinstance(value, dict):
        if set(value) == {"$int"}:
            return int(value["$int"])
        return {k: restore_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [restore_ints(v) for v in value]
    return value


def release_files(
    root: Path | None = None,
    spec_gaps: Path | None = None,
) -> dict[str, bytes]:
    """Every file of the release, by its path inside the release directory (`spec_gaps`: the
    directory of a conformance run's report, whose spec-gaps.json and .html join the release)."""
    from spec_impl.obligations import ALLOWANCES, QUESTIONS
    from spec_impl.vectors.metadata_schemas import SCHEMA_FILES
    from spec_impl.vectors.schema import CASE_FILE_SCHEMA

    root = root or vectors_dir()
    files: dict[str, bytes] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if rel.parts[0] in _SKIP_DIRS or len(rel.parts) == 1:
            continue
        data = path.read_bytes()
        files[f"vectors/{rel.as_posix()}"] = data
        if _is_case_file(rel):
            safe, changed = json_safe(json.loads(data))
            if changed:
                files[f"json-safe/{rel.as_posix()}"] = _dumps(safe)
    schemas = {
        "value-vectors.schema.json": CASE_FILE_SCHEMA,
        **SCHEMA_FILES,
        **SCHEMAS,
        **{n: json.loads(schema_file(n).read_text()) for n in ("protocol.schema.json", "spec-gaps.schema.json")},
        "ledger.schema.json": json.loads((known_dir() / "ledger.schema.json").read_text()),
    }
    for index_schema in ("rules.schema.json", "requirements.schema.json"):
        if (root / index_schema).is_file():
            schemas[index_schema] = json.loads((root / index_schema).read_text())
    files.update({f"schemas/{name}": _dumps(schema) for name, schema in sorted(schemas.items())})
    ledger = known_dir()
    files.update({f"known/{p.relative_to(ledger).as_posix()}": p.read_bytes() for p in sorted(ledger.rglob("*.json"))})
    del files["known/ledger.schema.json"]  # shipped with the other schemas
    files["questions.json"] = _dumps(
        {
            "questions": [q.as_json() for q in QUESTIONS.values()],
            "allowances": [a.as_json() for a in ALLOWANCES.values()],
        }
    )
    if spec_gaps is not None:
        for name in ("spec-gaps.json", "spec-gaps.html"):
            if not (spec_gaps / name).is_file():
                raise FileNotFoundError(
                    f"{spec_gaps / name} is missing: run `pytest conformance/ --compliance-report {spec_gaps}` first"
                )
            files[name] = (spec_gaps / name).read_bytes()
    for name, target in (("CONSUMING.md", "README.md"), ("README.md", "FORMAT.md"), ("CHANGELOG.md", "CHANGELOG.md")):
        files[target] = (root / name).read_bytes()
    for index_file in ("rules.json", "requirements.json"):
        if (root / index_file).is_file():
            files[index_file] = (root / index_file).read_bytes()
    files["MANIFEST.json"] = _dumps(
        {
            "name": "iceberg-conformance-vectors",
            "version": vectors_version(root),
            "suite-version": version(),
            "case-format": _case_format(),
            "files": {n: hashlib.sha256(d).hexdigest() for n, d in sorted(files.items())},
        }
    )
    return files


def _is_case_file(rel: Path) -> bool:
    """A family file (`<set>/<family>.json`) or a golden table's `case.json`; not a table's own files."""
    if rel.suffix != ".json" or rel.name.endswith(".schema.json"):
        return False
    return (
        len(rel.parts) == 2
        and rel.parts[0] != "tables"
        or (rel.parts[0] == "tables" and rel.name == "case.json" and len(rel.parts) == 3)
    )


def export(destination: Path, root: Path | None = None, spec_gaps: Path | None = None) -> Path:
    """Write the release tarball into `destination` (a directory); its path."""
    files = release_files(root, spec_gaps=spec_gaps)
    name = f"iceberg-conformance-vectors-{vectors_version(root)}"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(files):
            info = tarfile.TarInfo(f"{name}/{path}")
            info.size, info.mtime, info.mode, info.uid, info.gid, info.uname, info.gname = (
                len(files[path]),
                _EPOCH,
                0o644,
                0,
                0,
                "",
                "",
            )
            tar.addfile(info, io.BytesIO(files[path]))
    destination.mkdir(parents=True, exist_ok=True)
    target = destination / f"{name}.tar.gz"
    partial = target.with_name(target.name + ".partial")
    with open(partial, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(raw.getvalue())
    partial.replace(target)  # a reader never sees half a tarball
    return target


def _case_format() -> int:
    from spec_impl.vectors.schema import FORMAT_VERSION

    return FORMAT_VERSION


def _dumps(value: Any) -> bytes:
    return (json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()
