"""Hypothesis strategies for table histories: a table (schema, partition spec, properties, Spark's
parallelism) and a list of steps, each drawn against the shape the earlier steps left.

    from conformance.writer_harness.strategies import histories
    @given(histories(max_steps=8))
    def test(history): ...

A history is plain JSON (`scenario.SCHEMA`), replayable without hypothesis. Shrinking goes towards
fewer steps, fewer columns, fewer rows, format version 1 and unpartitioned tables.

What is drawn:
* columns of every type Spark writes to Iceberg (`values.PRIMITIVES`, decimal(P,S) for 1 ≤ P ≤ 38,
  and `values.NESTED`), values with nulls, NaN, ±0.0, ±infinity, decimals at two's-complement byte
  boundaries, dates of years 1 and 9999, timestamps before 1970, strings empty, long and outside the
  BMP, binary empty and long;
* partition specs of up to three fields from identity, bucket, truncate, year, month, day and hour
  on the source types each accepts (void comes from dropping a field in v1);
* properties: format version 1-3, copy-on-write or merge-on-read, metrics modes, small target file
  sizes and distribution modes; Spark's shuffle partitions and the number of write tasks;
* steps: insert (also many rows at once, and into branches), insert overwrite, delete, update and
  merge with generated predicates; equality deletes (Iceberg Java's generic writer, v2 and v3
  tables whose partition fields are all identity: the model's limit) on one or two columns that
  are neither float nor double; add, drop, rename, move and widen columns, v3 columns with an
  initial default; add, drop and replace partition fields; rewrite_data_files,
  rewrite_manifests, rewrite_position_delete_files, expire_snapshots; branches and tags;
  rollback_to_snapshot, cherrypick_snapshot; format upgrades; property changes.

Each step's arguments are drawn by its entry of the step table (`steps`), and only the steps the
writer offers (`writer_base.Writer.steps`, in the format versions it declares) are drawn:
`histories(writer="pyiceberg")` draws only what PyIceberg writes (`writers.pyiceberg`): format
versions 1 and 2, and no update, merge, rewrite procedure or cherry-pick; upgrades go to v2.
`histories(writer="chdb")` draws what ClickHouse writes (`writers.chdb`): format version 2, columns
of the types it writes (no boolean, binary or nested), no table properties, and inserts, deletes,
updates and column changes. `histories(writer="duckdb")` draws what DuckDB writes through the
harness's REST catalog (`writers.duckdb`): format versions 1 and 2 (upgrades to 2), no table
properties at creation, inserts, deletes, updates, merges, column and partition changes, property
changes; no nested column added later.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from . import writers
from .drawing import METRICS, Shape, column_types, partition_field, records, write_modes
from .steps import BY_OP, TABLE


@st.composite
def tables(draw: Any, writer: str = "spark") -> dict:
    """The table a history starts from (in a format version the writer writes)."""
    cls = writers.load(writer)
    format_version = draw(st.sampled_from(cls.versions))
    types = draw(st.lists(column_types(cls), min_size=1, max_size=5))
    columns = [("id", "bigint")] + [(f"c{i}", t) for i, t in enumerate(types, 1)]
    partition: list[dict] = []
    for _ in range(draw(st.integers(0, 3))):
        f = partition_field(draw, columns, partition, None, cls)
        if f is not None and f["name"] not in {p["name"] for p in partition}:
            partition.append(f)
    mode = draw(write_modes(format_version))
    properties = {
        "format-version": str(format_version),
        "write.delete.mode": mode,
        "write.update.mode": mode,
        "write.merge.mode": mode,
        "write.metadata.metrics.default": draw(st.sampled_from(METRICS)),
    }
    if draw(st.booleans()):
        column = draw(st.sampled_from([n for n, _ in columns]))
        properties[f"write.metadata.metrics.column.{column}"] = draw(st.sampled_from(METRICS))
    if draw(st.booleans()):
        properties["write.target-file-size-bytes"] = str(draw(st.sampled_from([1, 1024, 65536])))
    if draw(st.booleans()):
        properties["write.distribution-mode"] = draw(st.sampled_from(["none", "hash", "range"]))
    if not cls.takes_table_properties:
        properties = {"format-version": str(format_version)}
    spark = {
        "shuffle-partitions": draw(st.sampled_from([1, 2, 4, 16])),
        "write-tasks": draw(st.sampled_from([1, 2, 3, 8])),
    }
    return {
        "format-version": format_version,
        "columns": [{"name": n, "type": t} for n, t in columns],
        "partition": partition,
        "properties": properties,
        "spark": spark,
    }


# --- steps -----------------------------------------------------------------------------------------


def ops_of(shape: Shape, writer: str = "spark") -> list[str]:
    """The steps the writer can take next on a table of this shape (a step's weight repeats it)."""
    cls = writers.load(writer)
    return [s.op for s in TABLE if s.op in cls.steps and s.when(shape, cls) for _ in range(s.weight)]


def step_of(draw: Any, shape: Shape, op: str, writer: str) -> dict:
    """The step `op` drawn against the shape (which it updates); an insert when `op` does not apply to it."""
    step = BY_OP[op].draw(draw, shape, writers.load(writer)) if op in BY_OP else None
    return step if step is not None else {"op": "insert", "rows": records(draw, shape), "branch": None}


def _step(draw: Any, shape: Shape, writer: str = "spark") -> dict:
    return step_of(draw, shape, draw(st.sampled_from(ops_of(shape, writer))), writer)


@st.composite
def histories(draw: Any, min_steps: int = 1, max_steps: int = 8, writer: str = "spark") -> dict:
    """A table and its steps; the first step always inserts rows. For another writer than Spark
    (`writers`), only the steps it offers, and the history names its writer (`"writer"`)."""
    table = draw(tables(writer))
    shape = Shape(
        table["format-version"],
        [(c["name"], c["type"]) for c in table["columns"]],
        [dict(f) for f in table["partition"]],
    )
    steps = [{"op": "insert", "rows": records(draw, shape), "branch": None}]
    for _ in range(draw(st.integers(min_steps, max_steps)) - 1):
        steps.append(_step(draw, shape, writer))
    history = {"format": "iceberg-writer-harness/1", "table": table, "steps": steps}
    return history if writer == "spark" else {**history, "writer": writer}
