"""The line protocol: its schema, and engines that speak it answering with schema-valid messages."""

from __future__ import annotations

import pytest

from conformance.conftest import RUNNER
from conformance.engines.protocol import ProtocolEngine, ProtocolError
from conformance.engines.protocol_schema import schema, validate, validator


def test_schema_is_valid():
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema())
    validate("start-request", {"cmd": "start", "protocol": 2})
    validate("run-reply-v2", {"results": [{"id": "x", "status": "unsupported", "reason": "no geometry"}]})
    with pytest.raises(ProtocolError, match="run-reply-v1"):
        validate("run-reply-v1", {"results": [{"id": "x", "ok": True}]})
    with pytest.raises(ProtocolError, match="results/0"):
        validate("run-reply-v2", {"results": [{"id": "x", "ok": True, "output": 1}]})
    assert validator("start-reply")


def test_protocol_engines_speak_the_schema(request: pytest.FixtureRequest):
    slots = [s for s in request.config.stash[RUNNER].slots.values() if isinstance(s.engine, ProtocolEngine) and s.started]
    if not slots:
        pytest.skip("no protocol engine selected or available")
    for slot in slots:
        process = slot.engine._process
        if process is None:
            continue  # taken out of service during the run: test_value_case reports why
        validate("start-reply", process.hello)
        cases = [{"id": "a", "op": "hash", "type": "long", "value": 34}, {"id": "b", "op": "hash", "type": "int", "value": "x"}]
        validate("run-request", {"cmd": "run", "cases": cases})
        validate(f"run-reply-v{process.protocol}", {"results": process.run(cases)})
