"""The writer harness's REST catalog (`conformance.writer_harness.rest_catalog`): the endpoints the
Iceberg REST Catalog API defines and DuckDB uses, their JSON shapes and error codes, served on
loopback; and DuckDB attaching it, writing a table, the rows read back by PyIceberg."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conformance.writer_harness.rest_catalog import RestCatalogServer

SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "type": "long", "required": True},
        {"id": 2, "name": "s", "type": "string", "required": False},
    ],
}


@pytest.fixture
def server(tmp_path: Path):
    s = RestCatalogServer(tmp_path / "warehouse")
    yield s
    s.stop()


def call(server: RestCatalogServer, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.uri + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, json.loads(raw) if raw else None


def create(server: RestCatalogServer, name: str = "t", stage: bool = False) -> tuple[int, dict | None]:
    call(server, "POST", "/v1/namespaces", {"namespace": ["db"]})
    return call(
        server,
        "POST",
        "/v1/namespaces/db/tables",
        {"name": name, "schema": SCHEMA, "stage-create": stage, "properties": {"format-version": "2"}},
    )


def test_binds_loopback_on_a_chosen_port(server):
    assert server.httpd.server_address[0] == "127.0.0.1"
    assert server.port > 0 and server.uri == f"http://127.0.0.1:{server.port}"


def test_config(server):
    status, body = call(server, "GET", "/v1/config?warehouse=w")
    assert status == 200
    assert body["defaults"] == {} and body["overrides"] == {}
    assert "POST /v1/namespaces/{namespace}/tables/{table}" in body["endpoints"]


def test_unknown_path_and_method_are_errors(server):
    status, body = call(server, "GET", "/v1/nothing")
    assert status == 404 and body["error"]["code"] == 404 and body["error"]["type"] == "NoSuchEndpointException"
    status, body = call(server, "DELETE", "/v1/config")
    assert status in (404, 405) and body["error"]["code"] == status


def test_namespaces(server):
    assert call(server, "HEAD", "/v1/namespaces/db")[0] == 404
    status, body = call(server, "POST", "/v1/namespaces", {"namespace": ["db"], "properties": {"k": "v"}})
    assert status == 200 and body == {"namespace": ["db"], "properties": {"k": "v"}}
    assert call(server, "POST", "/v1/namespaces", {"namespace": ["db"]})[0] == 409
    assert call(server, "HEAD", "/v1/namespaces/db")[0] == 204
    assert call(server, "GET", "/v1/namespaces")[1] == {"namespaces": [["db"]]}
    status, body = call(server, "GET", "/v1/namespaces/nope")
    assert status == 404 and body["error"]["type"] == "NoSuchNamespaceException"


def test_create_load_list_drop_table(server):
    status, body = create(server)
    assert status == 200
    location = body["metadata-location"]
    assert Path(location.removeprefix("file://")).is_file()
    assert body["metadata"]["format-version"] == 2 and body["metadata"]["current-schema-id"] == 0
    assert [f["name"] for f in body["metadata"]["schemas"][0]["fields"]] == ["id", "s"]
    assert create(server)[0] == 409  # exists already
    status, loaded = call(server, "GET", "/v1/namespaces/db/tables/t")
    assert status == 200 and loaded["metadata-location"] == location and loaded["config"] == {}
    assert call(server, "HEAD", "/v1/namespaces/db/tables/t")[0] == 204
    assert call(server, "GET", "/v1/namespaces/db/tables")[1] == {"identifiers": [{"namespace": ["db"], "name": "t"}]}
    assert call(server, "DELETE", "/v1/namespaces/db/tables/t")[0] == 204
    status, body = call(server, "GET", "/v1/namespaces/db/tables/t")
    assert status == 404 and body["error"]["type"] == "NoSuchTableException"
    assert call(server, "HEAD", "/v1/namespaces/db/tables/t")[0] == 404


def test_staged_create_commits_nothing_until_assert_create(server):
    status, body = create(server, stage=True)
    assert status == 200 and "metadata-location" not in body
    assert call(server, "HEAD", "/v1/namespaces/db/tables/t")[0] == 404
    metadata = body["metadata"]
    updates = [
        {"action": "assign-uuid", "uuid": metadata["table-uuid"]},
        {"action": "upgrade-format-version", "format-version": 2},
        {"action": "add-schema", "schema": SCHEMA, "last-column-id": 2},
        {"action": "set-current-schema", "schema-id": -1},
        {"action": "add-spec", "spec": {"spec-id": 0, "fields": []}},
        {"action": "set-default-spec", "spec-id": -1},
        {"action": "add-sort-order", "sort-order": {"order-id": 0, "fields": []}},
        {"action": "set-default-sort-order", "sort-order-id": -1},
        {"action": "set-location", "location": metadata["location"]},
    ]
    status, body = call(
        server, "POST", "/v1/namespaces/db/tables/t", {"requirements": [{"type": "assert-create"}], "updates": updates}
    )
    assert status == 200, body
    assert body["metadata"]["table-uuid"] == metadata["table-uuid"]
    assert call(server, "HEAD", "/v1/namespaces/db/tables/t")[0] == 204


def test_commit_applies_updates_and_refuses_a_stale_requirement(server):
    _, created = create(server)
    uuid = created["metadata"]["table-uuid"]
    change = {
        "requirements": [
            {"type": "assert-table-uuid", "uuid": uuid},
            {"type": "assert-current-schema-id", "current-schema-id": 0},
        ],
        "updates": [{"action": "set-properties", "updates": {"k": "v"}}],
    }
    status, body = call(server, "POST", "/v1/namespaces/db/tables/t", change)
    assert status == 200
    assert body["metadata"]["properties"]["k"] == "v" and body["metadata-location"] != created["metadata-location"]
    stale = {**change, "requirements": [{"type": "assert-current-schema-id", "current-schema-id": 7}]}
    status, body = call(server, "POST", "/v1/namespaces/db/tables/t", stale)
    assert status == 409 and body["error"]["type"] == "CommitFailedException"
    assert call(server, "GET", "/v1/namespaces/db/tables/t")[1]["metadata"]["properties"] == {
        "k": "v"
    }  # unchanged by the refusal
    assert call(server, "POST", "/v1/namespaces/db/tables/nope", change)[0] == 404
    status, body = call(server, "POST", "/v1/namespaces/db/tables/t", {"updates": [{"action": "no-such-update"}]})
    assert status == 400 and body["error"]["type"] == "BadRequestException"


def test_duckdb_writes_through_the_catalog(server):
    pytest.importorskip("duckdb")
    from conformance.engines.base import EngineUnavailable
    from conformance.writer_harness.writers import duckdb as duckdb_writer

    server.catalog.create_namespace("db")
    try:
        con = duckdb_writer.connect(server.uri)
    except EngineUnavailable as e:
        pytest.skip(str(e))
    try:
        con.execute("CREATE TABLE ice.db.t (id BIGINT NOT NULL, s VARCHAR)")
        con.execute("INSERT INTO ice.db.t VALUES (1, 'a'), (2, NULL), (3, 'c')")
        con.execute("DELETE FROM ice.db.t WHERE id = 3")
    finally:
        con.close()
    assert ("POST", "/v1/namespaces/db/tables/t") in server.requests  # DuckDB committed through the server
    table = server.catalog.load_table("db.t")
    assert table.metadata.format_version == 2
    assert [s.summary.operation.value for s in table.metadata.snapshots] == ["append", "delete"]
    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert rows == [{"id": 1, "s": "a"}, {"id": 2, "s": None}]
