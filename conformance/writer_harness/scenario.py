"""Scenario files: a history (table and steps) as JSON, validated by `scenario.schema.json`, plus
what running it found. `iceberg-writer-harness replay FILE` runs one again.

    {"format": "iceberg-writer-harness/1", "table": {...}, "steps": [...],
     "findings": [{"check", "step", "target", "message"}], "writer": "Iceberg 1.10.2 / Spark 3.5.9"}

`"writer"` says who writes the table (`writers.kind_of`): "pyiceberg" (or a description starting
with PyIceberg) runs the history on PyIceberg; "spark", any other description, or none, on Iceberg
Java through Spark.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import jsonschema

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
FORMAT = "iceberg-writer-harness/1"


class ScenarioError(ValueError):
    """A scenario file that is not JSON or breaks the schema; the message names the place."""


def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def validate(doc: dict, source: str = "the scenario") -> dict:
    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise ScenarioError(f"{source}: at {where}: {e.message}")
    return doc


def load(path: Path) -> dict:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ScenarioError(f"{path}: cannot read a scenario: {e}") from None
    return validate(doc, str(path))


def save(path: Path, history: dict, findings: list[dict], **extra: object) -> Path:
    """Write a scenario atomically (a temporary file renamed into place)."""
    doc = validate({**history, "findings": findings, **extra}, str(path))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".scenario-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(doc, out, indent=1, ensure_ascii=False)
        out.write("\n")
    os.replace(tmp, path)
    return path
