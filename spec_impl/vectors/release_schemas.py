"""JSON Schemas of the files a vector release carries beyond the case files (whose schema is
`schema.py`'s value-vectors schema): a golden table's `case.json`. (The ledger of known deviations
has its schema beside it, `vectors/known/ledger.schema.json`.)

The document is written by this project (`tables.py`); the schemas state its form for consumers
in other languages, and `tests/test_export.py` checks every shipped file against them.
"""

from __future__ import annotations

from typing import Any

from spec_impl.obligations.levels import SCHEMA as OBLIGATION_SCHEMA

_ENGINE = {
    "type": "object",
    "required": ["engine", "version"],
    "additionalProperties": False,
    "properties": {"engine": {"type": "string"}, "version": {"type": ["string", "null"]}},
}
_PROVENANCE = {
    "type": "object",
    "required": ["kind"],
    "description": "where the expectation comes from (spec_impl/vectors/provenance.py): engine-written, "
    "engine-confirmed, partially-confirmed, spec-example, hand-typed or reference-only",
    "properties": {
        "kind": {"type": "string"},
        "source": {"type": "string"},
        "engines": {"type": "array", "items": _ENGINE},
        "confirmed-by": {"type": "array", "items": _ENGINE},
        "partially-confirmed-by": {"type": "array", "items": _ENGINE},
    },
}

TABLE_CASE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "table-case.schema.json",
    "title": "A golden table: tables/<id>/case.json",
    "description": "The table's files sit beside this file under metadata/ and data/, with absolute paths under "
    "`location` (rewrite them to where the table lands: vectors/README.md lists every path to rewrite). "
    "Each snapshot lists the rows a correct reader returns: column names in schema order, rows as objects in "
    "the vectors' value form, in any order (compare as multisets).",
    "type": "object",
    "required": ["id", "description", "format-version", "location", "metadata-location", "rules", "snapshots"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
        "description": {"type": "string"},
        "format-version": {"enum": [1, 2, 3]},
        "location": {"type": "string"},
        "metadata-location": {"type": "string"},
        "rules": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "writer": {"type": "string", "description": "the engine that wrote the table, when not the reference"},
        "history": {
            "type": "object",
            "description": "the writer harness history that made the table (iceberg-writer-harness/1)",
        },
        "expected-rows": {"type": "string", "description": "where the snapshots' expected rows come from"},
        "known-findings": {
            "type": "array",
            "items": {"type": "string"},
            "description": "writer findings the table shows (ids)",
        },
        "snapshots": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["snapshot-id", "operation", "columns", "rows", "provenance", "obligation"],
                "additionalProperties": False,
                "properties": {
                    "snapshot-id": {"type": "integer"},
                    "operation": {"type": "string"},
                    "columns": {"type": "array", "items": {"type": "string"}},
                    "rows": {"type": "array", "items": {"type": "object"}},
                    "provenance": _PROVENANCE,
                    "obligation": OBLIGATION_SCHEMA,
                },
            },
        },
    },
}

SCHEMAS = {"table-case.schema.json": TABLE_CASE}
