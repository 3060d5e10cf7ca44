"""The line protocol: engines that speak it answer with messages valid against its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conformance.conftest import RUNNER
from conformance.engines.protocol import ProtocolEngine

SCHEMA = json.loads((Path(__file__).parent / "engines" / "protocol.schema.json").read_text())


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    _validator("start-request").validate({"cmd": "start", "protocol": 1})
    with pytest.raises(jsonschema.ValidationError):
        _validator("run-response").validate({"results": [{"id": "x", "ok": True}]})


def test_protocol_engines_speak_the_schema(request: pytest.FixtureRequest):
    engines = [s.engine for s in request.config.stash[RUNNER].slots.values() if isinstance(s.engine, ProtocolEngine)]
    if not engines:
        pytest.skip("no protocol engine selected or available")
    for engine in engines:
        process = engine._process
        _validator("start-response").validate(process.hello)
        cases = [{"id": "a", "op": "hash", "type": "long", "value": 34}, {"id": "b", "op": "hash", "type": "int", "value": "x"}]
        _validator("run-request").validate({"cmd": "run", "cases": cases})
        _validator("run-response").validate({"results": process.run(cases)})
