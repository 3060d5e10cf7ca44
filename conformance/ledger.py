"""The ledger of known deviations: one format for the judge, the table audit and the writer harness.

The data lives beside the vectors (`vectors/known/`, found through `spec_impl.resources`):
`engines/<engine>.json` (the judge's entries of one engine, named as the engine registry spells
it), `audit.json` and `writers.json`, all of the form of `ledger.schema.json`:

    {"engine": "<engine>",            # engine files only: the engine every entry is about
     "entries": [{"where": {...}, "level": "violation" | "divergence" | "allowed",
                  "spec": "...", "document": "...", "quote": "...", "section": "...",
                  "upstream": "...", ...}]}

An entry's `where` scopes it: each key is matched against the same key of the observation (the
engine, the case, the rule, the check, the writer, the format version, the step op...). A list is
any of its values, a string ending in ":" is a prefix, a string holding "*" a glob; `message` is
a regular expression searched in the observation's message; any other value must be equal. An
engine file's entries are scoped to its engine (`where.engine`, filled from the file).

The files are strict JSON (RFC 8259: no NaN tokens); a float JSON cannot carry is written
`{"$float": "nan" | "inf" | "-inf"}` and read back as that float. An engine file may also be TOML
(`.toml`, the same document; `conformance.expectations` reads a project's own files this way).
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from spec_impl.resources import audit_ledger_file, known_engine_files, ledger_schema_file, writers_ledger_file

LEVELS = ("violation", "divergence", "allowed")
_ABSENT = object()

__all__ = ["LEVELS", "applies", "audit_entries", "engine_documents", "parse", "read", "schema_errors", "writer_entries"]


def applies(where: Mapping[str, Any], observation: Mapping[str, Any]) -> bool:
    """Whether an entry scoped by `where` covers the observation (every key matches)."""
    return all(_matches(key, want, observation.get(key, _ABSENT)) for key, want in where.items())


def _matches(key: str, want: Any, got: Any) -> bool:
    if got is _ABSENT:
        return False
    if key == "message":
        return isinstance(got, str) and re.search(want, got) is not None
    if isinstance(want, list):
        return any(_matches(key, w, got) for w in want)
    if isinstance(want, str) and isinstance(got, str):
        if want.endswith(":"):
            return got.startswith(want)
        if "*" in want:
            return fnmatch.fnmatchcase(got, want)
    return type(want) is type(got) and want == got


@cache
def read(path: Path) -> dict[str, Any]:
    """A ledger file as a document, its entries checked for a scope and a level (an engine file's
    entries scoped to its engine)."""
    doc = parse(path)
    for entry in doc.get("entries", []):
        if not isinstance(entry.get("where"), dict) or entry.get("level") not in LEVELS:
            raise ValueError(f"{path}: an entry needs a `where` object and a level, one of {LEVELS}: {entry}")
        if "engine" in doc:
            if entry["where"].get("engine", doc["engine"]) != doc["engine"]:
                raise ValueError(f"{path}: an entry of {doc['engine']}'s file is scoped to another engine")
            entry["where"] = {"engine": doc["engine"], **entry["where"]}
    return doc


def parse(path: Path) -> Any:
    """A ledger file as written (JSON, or TOML for a `.toml` file), its `$float` objects as floats."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return _floats_of(tomllib.loads(text))
    return json.loads(text, object_hook=_non_finite, parse_constant=_no_constant)


def _floats_of(value: Any) -> Any:
    """A TOML document with its `{"$float": ...}` objects read as floats, as in JSON."""
    if isinstance(value, dict):
        return _non_finite({k: _floats_of(v) for k, v in value.items()})
    return [_floats_of(v) for v in value] if isinstance(value, list) else value


def schema_errors(doc: Any) -> list[str]:
    """Where a document breaks `ledger.schema.json` (empty when it follows it). An engine file is
    checked as one, and an entry with a `reason` as an expectation, so that the errors name the
    part that is wrong rather than the alternatives it is not."""
    import jsonschema

    schema = json.loads(ledger_schema_file().read_text(encoding="utf-8"))
    if isinstance(doc, dict) and "engine" in doc:
        schema = {"$ref": "#/$defs/engine-file", "$defs": schema["$defs"]}
    found = []
    for error in jsonschema.Draft202012Validator(schema).iter_errors(doc):
        if error.context:
            entry = error.instance
            branch = 1 if isinstance(entry, dict) and "reason" in entry else 0
            meant = [e for e in error.context if e.schema_path[0] == branch] or error.context
            error = jsonschema.exceptions.best_match(meant)
        found.append(f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}")
    return found


def _non_finite(obj: dict[str, Any]) -> Any:
    return float(obj["$float"]) if set(obj) == {"$float"} and obj["$float"] in ("nan", "inf", "-inf") else obj


def _no_constant(token: str) -> Any:
    spelled = token.lower().replace("infinity", "inf")
    raise ValueError(f'a ledger file holds {token}, which is not JSON; write {{"$float": "{spelled}"}}')


def engine_documents(paths: list[Path] | None = None) -> list[dict[str, Any]]:
    """The judge's ledger: one document per engine file."""
    return [read(p) for p in (known_engine_files() if paths is None else paths)]


def audit_entries(path: Path | None = None) -> list[dict[str, Any]]:
    """The table audit's known findings."""
    return read(path or audit_ledger_file())["entries"]


def writer_entries(path: Path | None = None) -> list[dict[str, Any]]:
    """The writer harness's known findings."""
    return read(path or writers_ledger_file())["entries"]


def fields(entry: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The entry's fields of these names (spelled with '-' in the file) as keyword arguments."""
    return {n: entry[n.replace("_", "-")] for n in names if n.replace("_", "-") in entry}
