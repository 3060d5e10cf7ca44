"""Which writers a history can run on: each by name, as a `module:Class` path loaded on demand (the
interface they implement: `writer_base.Writer`).

    spark       Iceberg Java through PySpark (`writers.spark.SparkTable`), every step
    pyiceberg   PyIceberg's own writer (`writers.pyiceberg.PyIcebergTable`): appends, overwrites,
                copy-on-write deletes, schema and partition evolution, properties, the v1 -> v2
                upgrade, branches, tags, rollback and snapshot expiry
    chdb        ClickHouse's own C++ writer through chDB (`writers.chdb.ChdbTable`): appends, deletes
                and updates (position delete files), schema evolution; format version 2
    duckdb      DuckDB's iceberg extension (`writers.duckdb.DuckDBTable`), writing through a REST
                catalog the harness serves on loopback (`rest_catalog`)

Spark reads every writer's tables (check 1): the Spark writer's through its catalog, the others' by
the path of their metadata file.

Adding a writer: a module with a subclass of `writer_base.Writer` (or of `sql_writer.SqlWriter` for
one that takes SQL) that declares its `versions` and overrides the steps it offers, and one line in
`BUILTIN`. The generator then draws only those steps for it (`strategies`), and the runner refuses
the others with the writer's `refusals`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

BUILTIN: dict[str, str] = {
    "spark": "conformance.writer_harness.writers.spark:SparkTable",
    "pyiceberg": "conformance.writer_harness.writers.pyiceberg:PyIcebergTable",
    "chdb": "conformance.writer_harness.writers.chdb:ChdbTable",
    "duckdb": "conformance.writer_harness.writers.duckdb:DuckDBTable",
}
WRITERS = tuple(BUILTIN)


def load(kind: str) -> Any:
    """The writer class (a `writer_base.Writer`) of a writer's name."""
    if kind not in BUILTIN:
        raise ValueError(f"no writer {kind!r} (writers: {', '.join(WRITERS)})")
    module_name, _, class_name = BUILTIN[kind].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def describe(kind: str) -> str:
    """The writer as scenario files name it (`"writer"`)."""
    return load(kind).describe()


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
    return load(kind)(spark, warehouse, name)
