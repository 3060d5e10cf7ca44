"""A minimal Iceberg REST catalog on loopback, for writers that commit only through one (DuckDB's
iceberg extension: `writers.duckdb`).

The server speaks the Iceberg REST Catalog API (the OpenAPI document `rest-catalog-open-api.yaml`
of the Apache Iceberg project; the table spec texts this suite cites do not include it, so each
handler below names its endpoint and the response schema it returns). It is backed by PyIceberg's
`SqlCatalog` (SQLite) in a warehouse directory: the catalog's table rows hold the current metadata
location, PyIceberg writes the metadata JSON files, and a commit's requirements and updates are
parsed into PyIceberg's own request models (`CommitTableRequest`) and applied by
`SqlCatalog.commit_table`, which checks the requirements against the current metadata and refuses a
stale commit with `CommitFailedException`. So the metadata files of a table written through this
server are PyIceberg's rendering of the client's updates; the manifests, manifest lists and data
files are the client's own.

Endpoints (all under `/v1/`, no prefix; namespaces one level, parts joined by %1F as the spec says):

    GET    config                                   CatalogConfig
    GET    namespaces                               ListNamespacesResponse
    POST   namespaces                               CreateNamespaceResponse
    GET    namespaces/{ns}                          GetNamespaceResponse
    HEAD   namespaces/{ns}                          204 / 404
    GET    namespaces/{ns}/tables                   ListTablesResponse
    POST   namespaces/{ns}/tables                   LoadTableResult (CreateTableRequest; stage-create too)
    GET    namespaces/{ns}/tables/{t}               LoadTableResult
    HEAD   namespaces/{ns}/tables/{t}               204 / 404
    POST   namespaces/{ns}/tables/{t}               CommitTableResponse (CommitTableRequest)
    DELETE namespaces/{ns}/tables/{t}               204
    POST   transactions/commit                      204 (CommitTransactionRequest; tables one by one)

Errors are the spec's `IcebergErrorResponse`, `{"error": {"message", "type", "code"}}`: 400
BadRequestException (a body the models refuse), 404 NoSuchNamespaceException / NoSuchTableException,
406 UnsupportedOperationException (what PyIceberg does not write: v3 metadata), 409
AlreadyExistsException / CommitFailedException (a requirement not met), 500 for anything else.
Every other path is 404; GET, HEAD, POST or DELETE where the path has no such method is 405.
There is no authentication (the client attaches with none); the server binds 127.0.0.1 on a port
the OS chooses, and serves until `stop()`.

DuckDB 1.5.5 calls config, GET of a namespace and of a table, a staged create followed by an
`assert-create` commit, and single-table commits; the rest round off the same resources. A
multi-table transaction is applied table by table, each commit atomic on its own; the harness's
writers change one table at a time, so it is not atomic across tables (a real catalog's would be).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

NAMESPACE_SEPARATOR = "\x1f"  # the spec's separator of namespace parts in a path (%1F)


class RestError(Exception):
    """An error the server answers with the spec's error JSON."""

    def __init__(self, code: int, kind: str, message: str):
        super().__init__(message)
        self.code, self.kind = code, kind


class RestCatalogServer:
    """The REST catalog of one warehouse directory (`<root>/catalog.db`, tables under `<root>/<ns>/<t>`).

    `uri` is the endpoint to give a client (`http://127.0.0.1:<port>`); `requests` logs every
    request as (method, path) for tests and debugging; `catalog` is the PyIceberg `SqlCatalog`."""

    def __init__(self, root: Path, name: str = "rest"):
        from pyiceberg.catalog.sql import SqlCatalog

        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.catalog = SqlCatalog(name, uri=f"sqlite:///{self.root / 'catalog.db'}", warehouse=self.root.as_uri())
        self.lock = threading.Lock()  # one catalog operation at a time: commits are read-check-write
        self.requests: list[tuple[str, str]] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name=f"rest-catalog-{self.port}", daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def metadata_location(self, ident: tuple[str, ...]) -> str:
        """The current metadata location of a table (NoSuchTableError when there is none)."""
        with self.lock:
            return self.catalog.load_table(ident).metadata_location

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    # --- dispatch ---------------------------------------------------------------------------------
    def handle(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """(status, JSON body or None) of one request; raises `RestError` for the spec's errors."""
        parts = [unquote(p) for p in path.strip("/").split("/")]
        if parts[:1] != ["v1"]:
            raise RestError(404, "NoSuchEndpointException", f"no endpoint {path}")
        route = parts[1:]
        with self.lock:
            if route == ["config"] and method == "GET":
                return 200, self.config()
            if route == ["transactions", "commit"] and method == "POST":
                return self.commit_transaction(body)
            if route[:1] != ["namespaces"]:
                raise RestError(404, "NoSuchEndpointException", f"no endpoint {path}")
            if len(route) == 1:
                return {
                    "GET": lambda: (200, self.list_namespaces(query)),
                    "POST": lambda: (200, self.create_namespace(body)),
                }.get(method, _not_allowed(method, path))()
            ns = tuple(route[1].split(NAMESPACE_SEPARATOR))
            if len(route) == 2:
                return {
                    "GET": lambda: (200, self.load_namespace(ns)),
                    "HEAD": lambda: (self.load_namespace(ns) and 204, None),
                }.get(method, _not_allowed(method, path))()
            if route[2] != "tables":
                raise RestError(404, "NoSuchEndpointException", f"no endpoint {path}")
            if len(route) == 3:
                return {
                    "GET": lambda: (200, self.list_tables(ns)),
                    "POST": lambda: (200, self.create_table(ns, body)),
                }.get(method, _not_allowed(method, path))()
            if len(route) == 4:
                ident = (*ns, route[3])
                return {
                    "GET": lambda: (200, self.load_table(ident)),
                    "HEAD": lambda: (self.load_table(ident) and 204, None),
                    "POST": lambda: (200, self.commit_table(ident, body)),
                    "DELETE": lambda: (self.drop_table(ident), None),
                }.get(method, _not_allowed(method, path))()
        raise RestError(404, "NoSuchEndpointException", f"no endpoint {path}")

    # --- GET /v1/config: CatalogConfig ---------------------------------------------------------------
    def config(self) -> dict:
        """No defaults or overrides (no prefix); `endpoints` lists what this server implements, so a
        client does not call others (the spec: a client uses only the endpoints the server lists)."""
        endpoints = [
            "GET /v1/namespaces",
            "POST /v1/namespaces",
            "GET /v1/namespaces/{namespace}",
            "HEAD /v1/namespaces/{namespace}",
            "GET /v1/namespaces/{namespace}/tables",
            "POST /v1/namespaces/{namespace}/tables",
            "GET /v1/namespaces/{namespace}/tables/{table}",
            "HEAD /v1/namespaces/{namespace}/tables/{table}",
            "POST /v1/namespaces/{namespace}/tables/{table}",
            "DELETE /v1/namespaces/{namespace}/tables/{table}",
            "POST /v1/transactions/commit",
        ]
        return {"defaults": {}, "overrides": {}, "endpoints": endpoints}

    # --- namespaces -----------------------------------------------------------------------------------
    def list_namespaces(self, query: dict[str, list[str]]) -> dict:
        """GET /v1/namespaces (`parent` as a query parameter): ListNamespacesResponse."""
        parent = tuple(query["parent"][0].split(NAMESPACE_SEPARATOR)) if query.get("parent") else ()
        if parent:
            self.load_namespace(parent)
        return {"namespaces": [list(n) for n in self.catalog.list_namespaces(parent)]}

    def create_namespace(self, body: Any) -> dict:
        """POST /v1/namespaces (CreateNamespaceRequest): CreateNamespaceResponse; 409 if it exists."""
        from pyiceberg.exceptions import NamespaceAlreadyExistsError

        if not isinstance(body, dict) or not isinstance(body.get("namespace"), list) or not body["namespace"]:
            raise RestError(400, "BadRequestException", "CreateNamespaceRequest needs a non-empty list `namespace`")
        ns, properties = tuple(body["namespace"]), body.get("properties") or {}
        try:
            self.catalog.create_namespace(ns, properties)
        except NamespaceAlreadyExistsError as e:
            raise RestError(409, "AlreadyExistsException", str(e)) from None
        return {"namespace": list(ns), "properties": properties}

    def load_namespace(self, ns: tuple[str, ...]) -> dict:
        """GET /v1/namespaces/{namespace}: GetNamespaceResponse; 404 NoSuchNamespaceException."""
        from pyiceberg.exceptions import NoSuchNamespaceError

        try:
            properties = self.catalog.load_namespace_properties(ns)
        except NoSuchNamespaceError as e:
            raise RestError(404, "NoSuchNamespaceException", str(e)) from None
        return {"namespace": list(ns), "properties": properties}

    # --- tables ---------------------------------------------------------------------------------------
    def list_tables(self, ns: tuple[str, ...]) -> dict:
        """GET /v1/namespaces/{namespace}/tables: ListTablesResponse."""
        self.load_namespace(ns)
        return {"identifiers": [{"namespace": list(i[:-1]), "name": i[-1]} for i in self.catalog.list_tables(ns)]}

    def create_table(self, ns: tuple[str, ...], body: Any) -> dict:
        """POST /v1/namespaces/{namespace}/tables (CreateTableRequest): LoadTableResult. With
        `stage-create` the table's first metadata is returned without a metadata location and nothing
        is committed: the client creates the table by a commit with `assert-create`."""
        from pyiceberg.catalog.rest import CreateTableRequest
        from pyiceberg.exceptions import TableAlreadyExistsError
        from pyiceberg.table.metadata import new_table_metadata
        from pyiceberg.table.sorting import UNSORTED_SORT_ORDER
        from pyiceberg.partitioning import UNPARTITIONED_PARTITION_SPEC

        self.load_namespace(ns)
        if isinstance(body, dict):  # optional in the spec; PyIceberg's model wants them present (None)
            body = {"location": None, "partition-spec": None, "write-order": None, **body}
        request = _parse(CreateTableRequest, body)
        ident = (*ns, request.name)
        if self.catalog.table_exists(ident):
            raise RestError(409, "AlreadyExistsException", f"table {'.'.join(ident)} already exists")
        spec = request.partition_spec or UNPARTITIONED_PARTITION_SPEC
        order = request.write_order or UNSORTED_SORT_ORDER
        location = (request.location or f"{self.root.as_uri()}/{'/'.join(ident)}").rstrip("/")
        if request.stage_create:
            metadata = new_table_metadata(request.table_schema, spec, order, location, request.properties)
            return {"metadata": json.loads(metadata.model_dump_json()), "config": {}}
        try:
            table = self.catalog.create_table(ident, request.table_schema, location, spec, order, request.properties)
        except TableAlreadyExistsError as e:
            raise RestError(409, "AlreadyExistsException", str(e)) from None
        except NotImplementedError as e:  # what PyIceberg does not write (v3 metadata)
            raise RestError(406, "UnsupportedOperationException", str(e)) from None
        return _load_result(table.metadata_location, table.metadata)

    def load_table(self, ident: tuple[str, ...]) -> dict:
        """GET /v1/namespaces/{namespace}/tables/{table}: LoadTableResult; 404 NoSuchTableException."""
        table = self._table(ident)
        return _load_result(table.metadata_location, table.metadata)

    def commit_table(self, ident: tuple[str, ...], body: Any) -> dict:
        """POST /v1/namespaces/{namespace}/tables/{table} (CommitTableRequest): CommitTableResponse.
        404 when the table does not exist (unless the commit creates it: `assert-create`), 409
        CommitFailedException when a requirement does not hold."""
        from pyiceberg.table import CommitTableRequest

        if (
            isinstance(body, dict) and "identifier" not in body
        ):  # optional in the single-table endpoint: the path names the table
            body = {**body, "identifier": {"namespace": list(ident[:-1]), "name": ident[-1]}}
        request = _parse(CommitTableRequest, body)
        return self._commit(ident, request)

    def commit_transaction(self, body: Any) -> tuple[int, None]:
        """POST /v1/transactions/commit (CommitTransactionRequest, `table-changes`): 204. Each
        table's changes are committed in turn (see the module doc)."""
        from pyiceberg.table import CommitTableRequest

        if not isinstance(body, dict) or not isinstance(body.get("table-changes"), list):
            raise RestError(400, "BadRequestException", "CommitTransactionRequest needs a list `table-changes`")
        requests = [_parse(CommitTableRequest, change) for change in body["table-changes"]]
        for request in requests:
            self._commit((*request.identifier.namespace.root, request.identifier.name), request)
        return 204, None

    def _commit(self, ident: tuple[str, ...], request: Any) -> dict:
        from pyiceberg.exceptions import CommitFailedException, NoSuchTableError, TableAlreadyExistsError
        from pyiceberg.table.update import AssertCreate

        creating = any(isinstance(r, AssertCreate) for r in request.requirements)
        if not creating:
            self._table(ident)  # 404 before anything is written
        try:
            response = self.catalog.commit_table(_Named(ident), request.requirements, request.updates)
        except CommitFailedException as e:
            raise RestError(409, "CommitFailedException", str(e)) from None
        except TableAlreadyExistsError as e:
            raise RestError(409, "CommitFailedException", str(e)) from None
        except NoSuchTableError as e:
            raise RestError(404, "NoSuchTableException", str(e)) from None
        except ValueError as e:  # an update PyIceberg cannot apply to this metadata (its validation)
            raise RestError(400, "BadRequestException", f"{type(e).__name__}: {e}") from None
        except NotImplementedError as e:  # what PyIceberg does not write (v3 metadata)
            raise RestError(406, "UnsupportedOperationException", str(e)) from None
        return {
            "metadata-location": response.metadata_location,
            "metadata": json.loads(response.metadata.model_dump_json()),
        }

    def drop_table(self, ident: tuple[str, ...]) -> int:
        """DELETE /v1/namespaces/{namespace}/tables/{table}: 204 (the files stay: no purge)."""
        from pyiceberg.exceptions import NoSuchTableError

        try:
            self.catalog.drop_table(ident)
        except NoSuchTableError as e:
            raise RestError(404, "NoSuchTableException", str(e)) from None
        return 204

    def _table(self, ident: tuple[str, ...]) -> Any:
        from pyiceberg.exceptions import NoSuchNamespaceError, NoSuchTableError

        try:
            return self.catalog.load_table(ident)
        except (NoSuchTableError, NoSuchNamespaceError) as e:
            raise RestError(404, "NoSuchTableException", str(e)) from None


class _Named:
    """What `SqlCatalog.commit_table` asks of the table it commits to: its identifier."""

    def __init__(self, ident: tuple[str, ...]):
        self.ident = ident

    def name(self) -> tuple[str, ...]:
        return self.ident


def _load_result(metadata_location: str, metadata: Any) -> dict:
    """The spec's LoadTableResult (no storage credentials or config: files are local)."""
    return {"metadata-location": metadata_location, "metadata": json.loads(metadata.model_dump_json()), "config": {}}


def _parse(model: Any, body: Any) -> Any:
    """A request body as PyIceberg's pydantic model of it; 400 when the model refuses it."""
    import pydantic

    try:
        return model.model_validate(body)
    except (pydantic.ValidationError, ValueError, TypeError) as e:
        raise RestError(400, "BadRequestException", f"{model.__name__}: {e}") from None


def _not_allowed(method: str, path: str) -> Any:
    def refuse() -> tuple[int, Any]:
        raise RestError(405, "MethodNotAllowedException", f"{method} is not allowed on {path}")

    return refuse


def _handler(server: RestCatalogServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self, method: str) -> None:
            url = urlsplit(self.path)
            server.requests.append((method, url.path))
            try:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError as e:
                    raise RestError(400, "BadRequestException", f"the body is no JSON: {e}") from None
                status, answer = server.handle(method, url.path, parse_qs(url.query), body)
            except RestError as e:
                status, answer = e.code, {"error": {"message": str(e), "type": e.kind, "code": e.code}}
            except Exception as e:  # the server's own failure: the spec's 500 with the error's text
                status, answer = (
                    500,
                    {"error": {"message": f"{type(e).__name__}: {e}", "type": "ServerErrorException", "code": 500}},
                )
            data = b"" if answer is None else json.dumps(answer).encode()
            self.send_response(status)
            if data:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if data and method != "HEAD":
                self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def do_HEAD(self) -> None:
            self._serve("HEAD")

        def do_DELETE(self) -> None:
            self._serve("DELETE")

        def log_message(self, format: str, *args: Any) -> None:  # quiet: `requests` keeps the log
            pass

    return Handler
