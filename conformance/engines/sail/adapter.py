"""Sail (the Rust engine behind a Spark Connect server) as a conformance adapter: table reads.

What Sail (0.7.2, PyPI package `pysail`) offers for Iceberg, read from its package and its guide
(`docs/guide/sources/iceberg/`):

* A Spark Connect server, `pysail.spark.SparkConnectServer(ip, port)`, with `start(background=True)`,
  `listening_address` and `stop()`. Any Spark Connect client speaks to it; the adapter uses
  PySpark 3.5's (with the packages of its `connect` extra: grpcio, grpcio-status,
  googleapis-common-protos, pandas, pyarrow; pinned one by one in the engines extra, as the extra
  itself would hold numpy below 2). No JVM is involved.
* Its own Iceberg reader and writer in Rust, as the data source `iceberg`:
  `spark.read.format("iceberg").option("snapshotId", id).load(<table directory>)`. A path is a
  table directory, never a metadata file (a `.metadata.json` path fails with "Failed to list
  metadata directory"): Sail lists `<directory>/metadata/` and takes the version named by
  `version-hint.text`, else the highest `vN.metadata.json`. Time travel takes `snapshotId` (also
  spelled `snapshot-id`), `timestampAsOf`, `branch` or `tag`; an unknown snapshot id is an
  `AnalysisException` ("Snapshot with id N not found"), not a read of the current snapshot.
  The guide lists format versions 1 to 3, position and equality delete files, Puffin deletion
  vectors, name mapping and initial defaults; no Avro or ORC data files.
* No row lineage columns: `_row_id` and `_last_updated_sequence_number` (like `_file`, `_pos` and
  `_metadata`) are "missing from the schema" in the DataFrame API and in SQL, although Sail
  assigns row ids when it writes v3 tables.
* No single-value Iceberg functions (hash, transforms, serializers) exposed to a client: the
  adapter claims only `read-table`.

Tables (`read-table`): the adapter starts one Sail server on 127.0.0.1 with a port the system
chooses, and opens one Spark Connect session on it with `spark.sql.session.timeZone` = UTC; both
are closed by `stop`. A golden table written to local disk (`golden_tables`) is read by its
directory at the case's `snapshotId`. As Sail picks the metadata file itself, a table whose
metadata file is not the highest-numbered one of its directory is refused by the adapter (the
golden tables always are). The rows come back as Arrow record batches over Spark Connect (the
client's `_execute_and_fetch`, so no pandas conversion is involved); Sail's Arrow types for the
golden tables' Iceberg types: long int64, int int32, float/double float32/float64 (NaN and
infinities kept), decimal(P,S) decimal128(P,S), date date32, timestamptz timestamp[us, UTC],
string string, binary large_binary, structs as structs. They go to
`spec_impl.ops.golden_tables.table_rows` unchanged. `_row_id` and `_last_updated_sequence_number`
are left out of v3 expectations (`partial_view`). A read that raises is that case's error; a
server that is gone (or a broken gRPC channel) is an `EngineFailure`, so that the runner starts a
new server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conformance.engines import golden_tables
from conformance.engines.base import Engine, EngineAnswer, EngineFailure, EngineUnavailable

SAIL_VERSION = "0.7.2"
PYSPARK_SERIES = "3.5."
OP = "read-table"
_INSTALL = "install the engines extra: pip install 'iceberg-conformance[engines]'"
_VERSIONED = re.compile(r"v(\d+)\.metadata\.json")


class SailEngine(Engine):
    """Sail's native Iceberg reader, through a Spark Connect session on a local Sail server."""

    case_errors = (Exception,)  # Spark Connect's errors and Python's for refused input

    name = "sail"
    distribution = "pysail"
    # Sail 0.7.2 exposes no `_row_id` or `_last_updated_sequence_number` column (nor any other
    # metadata column) to a reader: read-table compares the other columns
    reads_row_lineage = False
    capabilities = frozenset({OP})
    data_file_formats = frozenset({"parquet"})
    format_limit = (
        "Sail 0.7.2 reads every data file as Parquet whatever its file_format ('Parquet error: Failed to fetch "
        "metadata') and raises 'Unsupported Iceberg position delete file' for an Avro one"
    )

    def __init__(self) -> None:
        self._server: Any = None
        self._spark: Any = None

    def start(self) -> None:
        self.require("pysail", SAIL_VERSION, _INSTALL)
        try:
            import pyspark
            from pysail.spark import SparkConnectServer
            from pyspark.sql.connect.session import SparkSession
        except ImportError as e:
            raise EngineUnavailable(f"sail: cannot import PySpark's Spark Connect client ({e}); {_INSTALL}") from None
        if not pyspark.__version__.startswith(PYSPARK_SERIES):
            raise EngineUnavailable(
                f"sail: PySpark {pyspark.__version__} is installed, the adapter uses the "
                f"Spark Connect client of PySpark 3.5; {_INSTALL}"
            )
        try:
            server = SparkConnectServer("127.0.0.1", 0)
            server.start(background=True)
            address = server.listening_address
        except Exception as e:  # the native server's errors (a port that cannot be bound, ...)
            why = f"the Spark Connect server does not start on 127.0.0.1: {type(e).__name__}: {e}"
            raise EngineUnavailable(f"sail: {why}") from None
        if address is None:
            server.stop()
            raise EngineUnavailable("sail: the Spark Connect server started but listens on no address")
        host, port = address
        try:
            spark = SparkSession(connection=f"sc://{host}:{port}")
            spark.conf.set("spark.sql.session.timeZone", "UTC")
        except Exception as e:  # grpc errors, a server that does not answer
            server.stop()
            why = f"no Spark Connect session on sc://{host}:{port}: {type(e).__name__}: {e}"
            raise EngineUnavailable(f"sail: {why}") from None
        self._server, self._spark = server, spark

    def stop(self) -> None:
        spark, server = self._spark, self._server
        self._spark = self._server = None
        try:
            if spark is not None:
                spark.stop()
        finally:
            if server is not None:
                server.stop()

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        """One snapshot's rows as Sail's Iceberg source returns them."""
        from spec_impl.ops.golden_tables import table_rows

        if self._spark is None:
            raise EngineFailure("the Sail server is not running")
        if (why := _not_latest(table.metadata_path)) is not None:
            return EngineAnswer.declined(why)
        try:
            reader = self._spark.read.format("iceberg").option("snapshotId", str(snapshot_id))
            arrow = self._arrow(reader.load(str(table.directory)))
        except Exception as e:  # AnalysisException, SparkConnectGrpcException, ...
            if not (self._server is not None and self._server.running) or _channel_broken(e):
                raise EngineFailure(f"the Sail server failed: {type(e).__name__}: {e}") from None
            return EngineAnswer.rejection(f"{type(e).__name__}: {' '.join(str(e).split())[:1000]}")
        try:
            return table_rows(arrow)
        except Exception as e:  # a value table_rows has no form for
            return EngineAnswer.rejection(f"the adapter cannot convert Sail's answer: {type(e).__name__}: {e}")

    def _arrow(self, frame: Any) -> Any:
        """The frame's result as one Arrow table, as Sail sent its record batches (PySpark 3.5's
        Connect client has no public `toArrow`); a result without batches is an empty table of
        the schema the server reported."""
        from pyspark.sql.pandas.types import to_arrow_schema

        client = self._spark.client
        request = client._execute_plan_request_with_metadata()
        request.plan.CopyFrom(frame._plan.to_proto(client))
        arrow, schema, *_ = client._execute_and_fetch(request)
        if arrow is None:
            arrow = to_arrow_schema(schema if schema is not None else frame.schema).empty_table()
        return arrow


def _not_latest(metadata_path: str) -> str | None:
    """Why Sail would not read `metadata_path` (it takes the highest `vN.metadata.json` of the
    directory, or the version in `version-hint.text`), or None when it would."""
    path = Path(metadata_path)
    versions = {int(m.group(1)): p.name for p in path.parent.iterdir() if (m := _VERSIONED.fullmatch(p.name))}
    hint = path.parent / "version-hint.text"
    if hint.exists():
        text = hint.read_text(encoding="utf-8").strip()
        if versions.get(int(text) if text.isdigit() else -1) != path.name:
            return f"Sail reads the metadata version in {hint.name} ({text!r}), the case names {path.name}"
        return None
    if not versions or versions[max(versions)] != path.name:
        return f"Sail reads the highest-numbered metadata file of the directory, the case names {path.name}"
    return None


def _channel_broken(e: Exception) -> bool:
    """Whether a client error says the gRPC channel to the server is gone (not a query error)."""
    text = str(e)
    signs = ("StatusCode.UNAVAILABLE", "failed to connect to all addresses", "Connection refused")
    return any(s in text for s in signs)
