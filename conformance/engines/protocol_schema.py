"""Checking protocol messages against `protocol.schema.json` (pytest `--validate-protocol`, and the
smoke command): a message that does not follow the schema is a protocol error naming the path."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema

from conformance.engines.protocol_errors import ProtocolError
from spec_impl.resources import schema_file

SCHEMA_FILE = schema_file("protocol.schema.json")


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@cache
def validator(definition: str) -> jsonschema.Draft202012Validator:
    """A validator of one message kind (a `$defs` name of the schema)."""
    defs = schema()["$defs"]
    if definition not in defs:
        raise KeyError(f"protocol.schema.json has no definition {definition!r} (it has: {', '.join(defs)})")
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": defs})


def validate(definition: str, message: Any) -> None:
    """Raise ProtocolError when `message` is not a valid `definition`."""
    error = jsonschema.exceptions.best_match(validator(definition).iter_errors(message))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
        raise ProtocolError(
            f"schema violation in a {definition} message at {where}: {error.message[:300]}", restart=False
        )
