"""The Sail adapter (conformance/engines/sail/adapter.py): its server's life cycle, snapshot choice
and answers on golden tables. Skipped, with the reason, where pysail or PySpark's Spark Connect
client is not installed; the whole corpus is judged by `pytest conformance/ --engine ...SailEngine`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.engines.base import EngineFailure
from conformance.engines.sail.adapter import SailEngine, _not_latest

TABLES = Path(__file__).resolve().parents[1] / "vectors" / "tables"


def _expected(table_id: str, snapshot_id: int) -> dict:
    case = json.loads((TABLES / table_id / "case.json").read_text(encoding="utf-8"))
    snapshot = next(s for s in case["snapshots"] if s["snapshot-id"] == snapshot_id)
    return {"columns": snapshot["columns"], "rows": snapshot["rows"]}


@pytest.fixture(scope="module")
def engine():
    install = 'pip install pysail==0.7.2 "pyspark[connect]==3.5.9"'
    pytest.importorskip("pysail", reason=f"pysail is not installed ({install})")
    pytest.importorskip("grpc", reason=f"PySpark's Spark Connect client needs grpcio ({install})")
    e = SailEngine()
    e.start()
    yield e
    e.stop()


def _rows(output: dict) -> list:
    return sorted(json.dumps(r, sort_keys=True) for r in output["rows"])  # in any order, as the judge compares them


def _read(engine: SailEngine, table_id: str, snapshot_id: int):
    [answer] = engine.run_batch("read-table", [{"id": "t", "input": {"table": table_id, "snapshot-id": snapshot_id}}])
    return answer


def test_server_listens_on_loopback_only(engine):
    host, port = engine._server.listening_address
    assert host == "127.0.0.1" and port > 0


@pytest.mark.parametrize("snapshot_id", [1, 2, 3, 4])
def test_each_snapshot_of_an_evolved_table_reads_its_own_rows(engine, snapshot_id):
    """evolved-schema: a rename, an added column with a default, equality deletes; each snapshot
    id must select that snapshot (and its schema), not the current one."""
    answer = _read(engine, "evolved-schema", snapshot_id)
    assert answer.ok, answer.error
    expected = engine.partial_view("read-table", _expected("evolved-schema", snapshot_id))
    assert answer.output["columns"] == expected["columns"]
    assert _rows(answer.output) == _rows(expected)


def test_an_unknown_snapshot_is_an_error_not_the_current_snapshot(engine):
    answer = _read(engine, "evolved-schema", 999)
    assert not answer.ok and not answer.failed
    assert "999" in answer.error


def test_identity_partition_columns_come_last(engine):
    """Sail 0.7.2 moves the source columns of an identity-only default spec to the end (a known
    discrepancy): the rows are right, the column order is not the schema's."""
    snapshot_id = 7242457092305313181
    answer = _read(engine, "spark-v2-position-both-specs-equality-one", snapshot_id)
    expected = _expected("spark-v2-position-both-specs-equality-one", snapshot_id)
    assert answer.ok, answer.error
    assert answer.output["columns"][-1] == "region" != expected["columns"][-1]
    assert sorted(answer.output["columns"]) == sorted(expected["columns"])
    assert _rows(answer.output) == _rows(expected)


def test_partial_view_leaves_out_only_the_lineage_columns():
    output = {
        "columns": ["id", "_row_id", "_last_updated_sequence_number"],
        "rows": [{"id": 1, "_row_id": 0, "_last_updated_sequence_number": 1}],
    }
    assert SailEngine().partial_view("read-table", output) == {"columns": ["id"], "rows": [{"id": 1}]}
    assert SailEngine().partial_view("transform", output) is output


def test_a_metadata_file_sail_would_not_pick_is_declined(tmp_path):
    metadata = tmp_path / "metadata"
    metadata.mkdir()
    for n in (1, 2):
        (metadata / f"v{n}.metadata.json").write_text("{}")
    assert _not_latest(str(metadata / "v2.metadata.json")) is None
    assert "highest-numbered" in _not_latest(str(metadata / "v1.metadata.json"))
    (metadata / "version-hint.text").write_text("1")
    assert _not_latest(str(metadata / "v1.metadata.json")) is None
    assert "version-hint.text" in _not_latest(str(metadata / "v2.metadata.json"))


def test_stop_shuts_the_server_down():
    pytest.importorskip("pysail", reason="pysail is not installed")
    pytest.importorskip("grpc", reason="PySpark's Spark Connect client needs grpcio")
    e = SailEngine()
    e.start()
    server = e._server
    assert server.running
    e.stop()
    assert not server.running and e._server is None
    e.stop()  # twice is harmless
    with pytest.raises(EngineFailure):
        e.run_batch("read-table", [{"id": "t", "input": {"table": "evolved-schema", "snapshot-id": 1}}])
