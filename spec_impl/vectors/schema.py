"""The JSON Schema of value-vector files, shipped as `vectors/values/value-vectors.schema.json`."""

from __future__ import annotations

from spec_impl.obligations.levels import SCHEMA as OBLIGATION_SCHEMA
from spec_impl.revisions import ALL as REVISIONS
from spec_impl.ops.file_ops import INPUT_KEYS as FILE_INPUT_KEYS
from spec_impl.ops.metadata_ops import INPUT_KEYS as METADATA_INPUT_KEYS
from spec_impl.ops.registry import OPS
from spec_impl.vectors.provenance import ENGINE_VERSION_SCHEMA, SCHEMA as PROVENANCE_SCHEMA

FORMAT_VERSION = 1  # the case file format (`format` of every family file)

_INPUT_KEYS = {  # op -> required input keys
    "parse-type": ["type"],
    "min-format-version": ["type"],
    "promote": ["from", "to", "format-version"],
    "hash": ["type", "value"],
    "parse-transform": ["transform"],
    "result-type": ["transform", "type"],
    "transform": ["transform", "type", "value"],
    "to-binary": ["type", "value"],
    "from-binary": ["type", "hex"],
    "to-json": ["type", "value"],
    "from-json": ["type", "json"],
}
_INPUT_KEYS.update(METADATA_INPUT_KEYS)
_INPUT_KEYS.update(FILE_INPUT_KEYS)
assert set(_INPUT_KEYS) == set(OPS), "every op needs its input keys in the schema"

CASE_FILE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "value-vectors.schema.json",
    "title": "Iceberg conformance value vectors",
    "description": "One rule family of value cases. Values are Appendix D JSON single values; a float or double "
    'may be {"ieee754": "<hex bits>"}. Compare floats by bits.',
    "type": "object",
    "required": ["format", "family", "description", "cases"],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string"},
        "format": {"const": 1},
        "family": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"},
        "description": {"type": "string", "minLength": 1},
        "cases": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/case"}},
    },
    "$defs": {
        "case": {
            "type": "object",
            "required": [
                "id",
                "description",
                "rule",
                "section",
                "format-versions",
                "revisions",
                "op",
                "input",
                "expected",
                "provenance",
                "obligation",
            ],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": "^[a-z0-9.-]+/[a-z0-9.+-]+(@[a-z0-9-]+)?$"},
                "description": {"type": "string", "minLength": 1},
                "rule": {"type": "string", "pattern": "^[a-z0-9-]+(\\.[a-z0-9-]+)+$"},
                "section": {"type": "string", "minLength": 1},
                "format-versions": {
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": {"enum": [1, 2, 3, 4]},
                },
                "revisions": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"enum": list(REVISIONS)}},
                "op": {"enum": sorted(OPS)},
                "input": {"type": "object"},
                "expected": {
                    "oneOf": [
                        {
                            "type": "object",
                            "required": ["output"],
                            "additionalProperties": False,
                            "properties": {"output": {}},
                        },
                        {
                            "type": "object",
                            "required": ["error"],
                            "additionalProperties": False,
                            "properties": {"error": {"type": "string"}},
                        },
                    ]
                },
                "note": {"type": "string"},
                "provenance": {"$ref": "#/$defs/provenance"},
                "obligation": {"$ref": "#/$defs/obligation"},
            },
            "allOf": [
                {"if": {"properties": {"op": {"const": op}}}, "then": {"properties": {"input": {"required": keys}}}}
                for op, keys in sorted(_INPUT_KEYS.items())
            ],
        },
        "provenance": PROVENANCE_SCHEMA,
        "obligation": OBLIGATION_SCHEMA,
        "engine-version": ENGINE_VERSION_SCHEMA,
    },
}
