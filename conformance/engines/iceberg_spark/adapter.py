"""Iceberg Java 1.10 reading tables through Spark 3.5 as a conformance adapter (`read-table`).

Each golden table is written to local disk (`golden_tables`) and read by path:

    spark.read.format("iceberg").option("snapshot-id", sid).load("<table directory>")

Iceberg's Spark source loads a path with `HadoopTables`, which takes the highest
`metadata/vN.metadata.json` when there is no `version-hint.text`; no catalog is involved. The
frame has the columns of the snapshot's schema in schema order; for format-version 3 tables the
adapter also selects the metadata columns `_row_id` and `_last_updated_sequence_number`, which
Iceberg 1.10 computes from row lineage. Rows are collected (ints stay ints, floats floats) and
turned into the vectors' form by `spec_impl.ops.golden_tables.table_rows`. Deletes, projection and
lineage are all Iceberg's doing. A case that asks for metadata columns (`_file`, `_pos`,
`_deleted`, `_spec_id`, `_partition`) gets them selected by name instead of the lineage columns.

The session (`iceberg_java.spark.local_spark_session`) is started lazily by `run_batch` and
stopped when the batch ends: Spark allows one session per process, and other tests of the suite
start sessions on warehouses of their own. A failing case (a Java exception) is that case's error.
"""

from __future__ import annotations

from typing import Any

from conformance.engines import golden_tables
from conformance.engines.base import Engine, EngineAnswer, EngineUnavailable, installed_version

OP = "read-table"


class IcebergSparkEngine(Engine):
    """Iceberg Java 1.10's Spark source, reading golden tables at a snapshot."""

    case_errors = (Exception,)  # py4j's and Spark's errors for refused input

    name = "iceberg-spark"
    capabilities = frozenset({OP})
    metadata_columns = frozenset({"_file", "_pos", "_deleted", "_spec_id", "_partition"})

    def __init__(self) -> None:
        self._iceberg_version: str | None = None
        self._spark: Any = None  # the session, while a batch is answered

    def start(self) -> None:
        """Checks pyspark, Java and the Iceberg jars; the Spark session itself starts in `run_batch`."""
        from conformance.engines.iceberg_java.spark import missing_requirement

        if (why := missing_requirement()) is not None:
            raise EngineUnavailable(f"iceberg-spark: {why}")
        from conformance.engines.iceberg_java import build

        try:
            self._iceberg_version = build.locate_inputs().iceberg_version
        except build.BuildError as e:
            raise EngineUnavailable(f"iceberg-spark: {e}") from None

    @property
    def version(self) -> str:
        return f"Iceberg {self._iceberg_version or 'unknown'} on Spark {installed_version('pyspark')}"

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        from conformance.engines.iceberg_java import spark as spark_session

        try:
            spark = spark_session.local_spark_session(
                golden_tables.root() / "spark-warehouse", app_name="iceberg-conformance-read"
            )
        except Exception as e:  # BuildError, RuntimeError (another session is running), a JVM that does not start
            return [EngineAnswer(False, error=f"cannot start the Spark session: {type(e).__name__}: {e}")] * len(cases)
        self._spark = spark
        try:
            return super().run_batch(op, cases)
        finally:
            self._spark = None
            spark_session.stop_local_spark_session()

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        lineage = golden_tables.LINEAGE_COLUMNS if table.format_version >= 3 else ()
        return self._read(table, snapshot_id, lineage)

    def read_table_columns(self, table: golden_tables.GoldenTable, snapshot_id: int, columns: tuple[str, ...]) -> Any:
        """Spark's metadata columns, selected by name after the table's columns."""
        return self._read(table, snapshot_id, columns)

    def _read(self, table: golden_tables.GoldenTable, snapshot_id: int, extra: tuple[str, ...]) -> Any:
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        from spec_impl.ops.golden_tables import table_rows

        frame = self._spark.read.format("iceberg").option("snapshot-id", snapshot_id).load(str(table.directory))
        selected = frame.select(*frame.columns, *extra)
        # Spark's own Arrow conversion: structs, maps, decimals and timestamps keep their types
        batches = selected._collect_as_arrow()
        arrow = pa.Table.from_batches(batches) if batches else to_arrow_schema(selected.schema).empty_table()
        return table_rows(arrow)

    def rejection(self, error: BaseException) -> EngineAnswer:
        """Py4JJavaError, AnalysisException, ...: the exception and its Java causes, without the stack traces."""
        return EngineAnswer.rejection(_message(error))


def _message(e: BaseException) -> str:
    """The exception and its Java causes, without the stack traces."""
    lines = [line.strip() for line in str(e).splitlines()]
    kept = [line for line in lines if line and not line.startswith(("at ", "..."))]
    head = kept[:1] + [line for line in kept[1:] if line.startswith("Caused by")]
    return f"{type(e).__name__}: " + " | ".join(head)[:1500]
