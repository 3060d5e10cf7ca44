"""The writers a history can run on, and what `runner.HistoryRun` asks of one.

    spark       Iceberg Java through PySpark (`spark_steps.SparkTable`), every step
    pyiceberg   PyIceberg's own writer (`pyiceberg_steps.PyIcebergTable`): appends, overwrites,
                copy-on-write deletes, schema and partition evolution, properties, the v1 -> v2
                upgrade, branches, tags, rollback and snapshot expiry
    chdb        ClickHouse's own C++ writer through chDB (`chdb_steps.ChdbTable`): appends, deletes
                and updates (position delete files), schema evolution; format version 2
    duckdb      DuckDB's iceberg extension (`duckdb_steps.DuckDBTable`), writing through a REST
                catalog the harness serves on loopback (`rest_catalog`)

A writer is a table of one history, with:

* `kind` ("spark", "pyiceberg", "chdb", "duckdb"), `crash_check` (the finding a crash of the writer is: `spark-crash`,
  `writer-crash`), `name`, `directory`, `metadata_path`, `metadata_location`, `metadata()`;
* the steps: `create(table)`, `insert`, `insert_many`, `delete`, `update`, `merge`, `equality_delete`,
  `add_column`, `drop_column`, `rename_column`, `move_column`, `widen_column`,
  `add_partition_field`, `drop_partition_field`, `replace_partition_field`, `rewrite_data_files`,
  `rewrite_manifests`, `rewrite_position_deletes`, `expire_snapshots`, `create_branch`,
  `create_tag`, `rollback`, `cherrypick`, `upgrade`, `set_properties`; a step the writer does not
  offer raises `Unsupported` before it changes anything, and the runner records it as skipped;
* `copy_on_write(op, properties)`: whether a delete, update or merge rewrites the data files it
  touches (the model's bookkeeping of where rows live);
* `classify(exception)`: ("refused" | "crash" | "harness", text): a refusal leaves table and model
  unchanged, a crash is a finding (`crash_check`), "harness" is the harness's own fault;
* `read(snapshot_id=, branch=, tag=, lineage=)`: Spark's columns and rows (wire form, check 1).
  Spark reads every writer's tables: the Spark writer's through its catalog, the others' by the
  path of their metadata file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

WRITERS = ("spark", "pyiceberg", "chdb", "duckdb")


class MetadataByLocation:
    """`metadata_path`, `metadata()` and `read` (check 1: Iceberg Java through Spark, by the path of
    the current metadata file) of a writer other than Spark, whose `metadata_location` is a file: URI."""

    metadata_location: str
    spark: Any

    def read(
        self, snapshot_id: int | None = None, branch: str | None = None, tag: str | None = None, lineage: bool = False
    ) -> tuple[list[str], list[dict[str, Any]]]:
        from .spark_steps import read_rows

        return read_rows(self.spark, self.metadata_location, snapshot_id, branch, tag, lineage)

    @property
    def metadata_path(self) -> Path:
        location = self.metadata_location
        return Path(location[len("file://") :] if location.startswith("file://") else location.removeprefix("file:"))

    def metadata(self) -> dict:
        import json

        return json.loads(self.metadata_path.read_text())


class Unsupported(Exception):
    """A step the writer does not offer (the message says why): skipped, table and model unchanged."""


def describe(kind: str) -> str:
    """The writer as scenario files name it (`"writer"`)."""
    from importlib import metadata

    if kind == "pyiceberg":
        return f"PyIceberg {metadata.version('pyiceberg')} (pyiceberg)"
    if kind == "chdb":
        return f"chDB {metadata.version('chdb')} (chdb)"
    if kind == "duckdb":
        return f"DuckDB {metadata.version('duckdb')} (duckdb)"
    return f"Iceberg Java 1.10.2 through Spark {metadata.version('pyspark')}"


def kind_of(text: str | None) -> str | None:
    """Which writer a scenario's `"writer"` names: "pyiceberg", "chdb" or "duckdb" for the id or a
    description that starts with it, "spark" for the id or any other description (Iceberg Java through Spark),
    None when it names none."""
    if not text:
        return None
    first = text.strip().lower()
    return next((k for k in WRITERS if k != "spark" and first.startswith(k)), "spark")


def open_table(kind: str, spark: Any, warehouse: Path, name: str) -> Any:
    """The table `name` of one history, written by the writer `kind`."""
    if kind == "spark":
        from .spark_steps import SparkTable

        return SparkTable(spark, warehouse, name)
    if kind == "pyiceberg":
        from .pyiceberg_steps import PyIcebergTable

        return PyIcebergTable(spark, warehouse, name)
    if kind == "chdb":
        from .chdb_steps import ChdbTable

        return ChdbTable(spark, warehouse, name)
    if kind == "duckdb":
        from .duckdb_steps import DuckDBTable

        return DuckDBTable(spark, warehouse, name)
    raise ValueError(f"no writer {kind!r} (writers: {', '.join(WRITERS)})")
