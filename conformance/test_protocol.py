"""The line protocol: its schema, and engines that speak it answering with schema-valid messages."""

from __future__ import annotations

import os
import sys

import pytest

from conformance.conftest import RUNNER
from conformance.engines import golden_tables
from conformance.engines.protocol import ProtocolEngine, ProtocolError, command_engine
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
    slots = [
        s for s in request.config.stash[RUNNER].slots.values() if isinstance(s.engine, ProtocolEngine) and s.started
    ]
    if not slots:
        pytest.skip("no protocol engine selected or available")
    for slot in slots:
        process = slot.engine._process
        if process is None:
            continue  # taken out of service during the run: test_value_case reports why
        validate("start-reply", process.hello)
        cases = [
            {"id": "a", "op": "hash", "type": "long", "value": 34},
            {"id": "b", "op": "hash", "type": "int", "value": "x"},
        ]
        validate("run-request", {"cmd": "run", "cases": cases})
        validate(f"run-reply-v{process.protocol}", {"results": process.run(cases)})


ECHO_ENGINE = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        hello = {"engine": "echo", "version": "1", "protocol": 2, "capabilities": ["read-table", "hash"]}
        print(json.dumps(hello), flush=True)
    elif msg["cmd"] == "run":
        print(json.dumps({"results": [{"id": c["id"], "status": "ok", "output": c} for c in msg["cases"]]}), flush=True)
    else:
        break
"""


def test_read_table_cases_carry_the_table_on_disk(tmp_path):
    """A read-table case names a golden table; a protocol engine gets it written to disk, with the
    path of its latest metadata file and its directory. Cases of other ops are sent as they are."""
    script = tmp_path / "echo_engine.py"
    script.write_text(ECHO_ENGINE, encoding="utf-8")
    engine = command_engine(f"cmd:echo={sys.executable} {script}")()
    engine.start()
    try:
        case = {"id": "table.position-deletes/snapshot-1", "input": {"table": "position-deletes", "snapshot-id": 1}}
        [answer] = engine.run_batch("read-table", [case])
        [plain] = engine.run_batch("hash", [{"id": "h", "input": {"type": "int", "value": 34}}])
    finally:
        engine.stop()
    table = golden_tables.table("position-deletes")
    sent = answer.output
    assert answer.ok and sent == {
        "id": case["id"],
        "op": "read-table",
        "table": "position-deletes",
        "snapshot-id": 1,
        "metadata-location": table.metadata_path,
        "table-location": str(table.directory),
    }
    assert os.path.isfile(sent["metadata-location"]) and not sent["metadata-location"].startswith("file:")
    assert os.path.dirname(os.path.dirname(sent["metadata-location"])) == sent["table-location"]
    assert plain.output == {"id": "h", "op": "hash", "type": "int", "value": 34}


@pytest.mark.parametrize(
    "omits, accepted",
    [
        (["_row_id", "_last_updated_sequence_number"], True),
        (["_row_id"], True),
        (["id"], False),  # a data column: the engine would dodge the comparison of its values
        ("_row_id", False),
    ],
)
def test_a_hello_may_omit_only_the_row_lineage_columns(omits, accepted):
    from conformance.engines.protocol import check_hello

    hello = {"engine": "e", "version": "1", "protocol": 2, "capabilities": ["read-table"], "omits-columns": omits}
    if accepted:
        assert check_hello(hello) is hello
    else:
        with pytest.raises(ProtocolError, match="omits-columns"):
            check_hello(hello)
