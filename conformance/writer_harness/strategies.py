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

`histories(writer="pyiceberg")` draws only what PyIceberg writes (`pyiceberg_steps`): format
versions 1 and 2, and no update, merge, rewrite procedure or cherry-pick; upgrades go to v2.
`histories(writer="chdb")` draws what ClickHouse writes (`chdb_steps`): format version 2, columns
of the types it writes (no boolean, binary or nested), no table properties, and inserts, deletes,
updates and column changes. `histories(writer="duckdb")` draws what DuckDB writes through the
harness's REST catalog (`duckdb_steps`): format versions 1 and 2 (upgrades to 2), no table
properties at creation, inserts, deletes, updates, merges, column and partition changes, property
changes; no nested column added later.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from . import values

TRANSFORMS: dict[str, tuple[str, ...]] = {  # transform -> the source kinds it accepts (spec "Partition Transforms")
    "identity": ("boolean", "int", "bigint", "decimal", "date", "timestamp", "timestamp_ntz", "string", "binary"),
    "bucket": ("int", "bigint", "decimal", "date", "timestamp", "timestamp_ntz", "string", "binary"),
    "truncate": ("int", "bigint", "decimal", "string", "binary"),
    "year": ("date", "timestamp", "timestamp_ntz"),
    "month": ("date", "timestamp", "timestamp_ntz"),
    "day": ("date", "timestamp", "timestamp_ntz"),
    "hour": ("timestamp", "timestamp_ntz"),
}
METRICS = ("none", "counts", "truncate(4)", "truncate(16)", "full")
TEXT = "ab-xyzé中😀 "


# --- values --------------------------------------------------------------------------------------


def decimal_types() -> st.SearchStrategy[str]:
    return st.integers(1, 38).flatmap(
        lambda p: st.sampled_from(sorted({0, p // 2, p})).map(lambda s: f"decimal({p},{s})")
    )


def _decimals(p: int, s: int) -> st.SearchStrategy[Decimal]:
    top = 10**p - 1
    edges = [
        u
        for k in range(1, 17)
        for u in (2 ** (8 * k - 1) - 1, 2 ** (8 * k - 1), -(2 ** (8 * k - 1)), -(2 ** (8 * k - 1)) - 1)
        if abs(u) <= top
    ]
    unscaled = st.one_of(st.sampled_from([0, 1, -1, top, -top, *edges]), st.integers(-top, top))
    return unscaled.map(lambda u: Decimal(u).scaleb(-s, values.DECIMALS))


def column_values(t: str) -> st.SearchStrategy[Any]:
    """Values of a column type, in the model form, with nulls."""
    k = values.kind(t)
    special = {
        "float": [float("nan"), float("inf"), float("-inf"), 0.0, -0.0],
        "double": [float("nan"), float("inf"), float("-inf"), 0.0, -0.0],
    }
    if k == "boolean":
        base: st.SearchStrategy = st.booleans()
    elif k == "int":
        base = st.one_of(st.sampled_from([0, -1, 2**31 - 1, -(2**31)]), st.integers(-(2**31), 2**31 - 1))
    elif k == "bigint":
        base = st.one_of(st.sampled_from([0, -1, 2**63 - 1, -(2**63)]), st.integers(-(2**63), 2**63 - 1))
    elif k == "float":
        base = st.one_of(st.sampled_from(special["float"]), st.floats(width=32))
    elif k == "double":
        base = st.one_of(st.sampled_from(special["double"]), st.floats())
    elif k == "decimal":
        base = _decimals(*values.decimal_of(t))
    elif k == "date":
        base = st.one_of(
            st.sampled_from([values.MIN_DAY, values.MAX_DAY, -1, 0]), st.integers(values.MIN_DAY, values.MAX_DAY)
        )
    elif k in ("timestamp", "timestamp_ntz"):
        base = st.one_of(
            st.sampled_from([values.MIN_MICROS, values.MAX_MICROS, -1, 0, -86_400_000_001]),
            st.integers(values.MIN_MICROS, values.MAX_MICROS),
        )
    elif k == "string":
        base = st.one_of(st.just(""), st.text(TEXT, max_size=24))
    elif k == "binary":
        base = st.one_of(st.just(b""), st.binary(max_size=24))
    elif k == "struct":
        base = st.fixed_dictionaries({name: column_values(ft) for name, ft in values.struct_fields(t)})
    elif k == "array":
        base = st.lists(column_values(values.element_type(t)), max_size=3)
    else:
        kt, vt = values.map_types(t)
        base = st.dictionaries(st.text(TEXT, max_size=4), column_values(vt), max_size=3)
    return st.one_of(st.none(), base)


def column_types(writer: str = "spark", added: bool = False) -> st.SearchStrategy[str]:
    """The types of a table's columns (`added`: of a column added later) that `writer` writes."""
    if writer == "chdb":  # the types ClickHouse writes to an optional Iceberg column (chdb_steps)
        return st.one_of(
            st.sampled_from([t for t in values.PRIMITIVES if t not in ("boolean", "binary")]), decimal_types()
        )
    if writer == "duckdb" and added:  # DuckDB adds no nested column to an Iceberg table (duckdb_steps)
        return st.one_of(st.sampled_from(values.PRIMITIVES), decimal_types())
    return st.one_of(st.sampled_from(values.PRIMITIVES), decimal_types(), st.sampled_from(values.NESTED))


def _write_modes(format_version: int) -> st.SearchStrategy[str]:
    """Merge-on-read writes delete files, which v1 does not have."""
    return st.sampled_from(["copy-on-write", "merge-on-read"] if format_version >= 2 else ["copy-on-write"])


# --- the shape a history has reached ----------------------------------------------------------------


class Shape:
    """What the generator knows of the table after the steps drawn so far."""

    def __init__(self, format_version: int, columns: list[tuple[str, str]], partition: list[dict]):
        self.format_version = format_version
        self.columns = list(columns)  # (name, type), id first
        self.partition = list(partition)
        self.voids: list[dict] = []  # fields dropped in v1, kept as void transforms of their source
        self.branches: list[str] = []
        self.tags: list[str] = []
        self.next_id = 0
        self.names = 0  # counter for new column, field and ref names
        self.snapshots = 0

    def new_name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def types(self) -> dict[str, str]:
        return dict(self.columns)


def _partition_field(
    draw: Any, shape_columns: list[tuple[str, str]], taken: list[dict], name: str | None, writer: str = "spark"
) -> dict | None:
    """A new partition field. PyIceberg 0.12 accepts a spec with two fields of one source column but
    then refuses every write to it ("Cannot have redundant partitions"), so its histories partition
    each column once."""
    once = writer == "pyiceberg"
    options = [
        (n, t, tr)
        for n, t in shape_columns
        if n != "id"
        for tr, kinds in TRANSFORMS.items()
        if values.kind(t) in kinds
        and not any(f["column"] == n and (once or _family(f["transform"]) == _family(tr)) for f in taken)
    ]
    if not options:
        return None
    column, _, transform = draw(st.sampled_from(options))
    f = {"transform": transform, "column": column, "name": name or default_field_name(transform, column)}
    if transform == "bucket":
        f["param"] = draw(st.sampled_from([1, 2, 4, 16, 1000]))
    elif transform == "truncate":
        f["param"] = draw(st.sampled_from([1, 2, 3, 5, 10]))
    return f


def _voids(shape: Shape, writer: str) -> list[dict]:
    """The void fields that still hold a source column, for a writer that partitions a column once."""
    return shape.voids if writer == "pyiceberg" else []


def _family(transform: str) -> str:
    """Iceberg refuses two time transforms of one column in a spec ("redundant partition")."""
    return "time" if transform in ("year", "month", "day", "hour") else transform


def default_field_name(transform: str, column: str) -> str:
    """The name Iceberg's Spark DDL gives a partition field created in PARTITIONED BY."""
    return column if transform == "identity" else f"{column}_{ {'truncate': 'trunc'}.get(transform, transform) }"


PYICEBERG_OPS = (
    "insert",
    "insert",
    "insert",
    "delete",
    "overwrite",
    "insert-many",
    "add-column",
    "drop-column",
    "rename-column",
    "move-column",
    "widen-column",
    "add-partition-field",
    "drop-partition-field",
    "replace-partition-field",
    "expire-snapshots",
    "create-branch",
    "create-tag",
    "rollback",
    "set-properties",
)
CHDB_OPS = (
    "insert",
    "insert",
    "insert",
    "delete",
    "update",
    "insert-many",
    "add-column",
    "drop-column",
    "rename-column",
    "move-column",
    "widen-column",
)
DUCKDB_OPS = (
    "insert",
    "insert",
    "insert",
    "delete",
    "update",
    "merge",
    "insert-many",
    "add-column",
    "drop-column",
    "rename-column",
    "widen-column",
    "add-partition-field",
    "drop-partition-field",
    "replace-partition-field",
    "set-properties",
)
VERSIONS = {
    "spark": (1, 2, 3),
    "pyiceberg": (1, 2),
    "chdb": (2,),
    "duckdb": (1, 2),
}  # the format versions each writer writes
MAX_VERSION = {writer: max(v) for writer, v in VERSIONS.items()}


@st.composite
def tables(draw: Any, writer: str = "spark") -> dict:
    """The table a history starts from (in a format version the writer writes)."""
    format_version = draw(st.sampled_from(VERSIONS[writer]))
    types = draw(st.lists(column_types(writer), min_size=1, max_size=5))
    columns = [("id", "bigint")] + [(f"c{i}", t) for i, t in enumerate(types, 1)]
    partition: list[dict] = []
    for _ in range(draw(st.integers(0, 3))):
        f = _partition_field(draw, columns, partition, None, writer)
        if f is not None and f["name"] not in {p["name"] for p in partition}:
            partition.append(f)
    mode = draw(_write_modes(format_version))
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
    if writer in (
        "chdb",
        "duckdb",
    ):  # ClickHouse takes no Iceberg table properties; DuckDB (duckdb_steps) none the harness sets
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


def _record(draw: Any, shape: Shape, row_id: int) -> dict:
    return {n: (row_id if n == "id" else values.to_json(t, draw(column_values(t)))) for n, t in shape.columns}


def _records(draw: Any, shape: Shape, max_size: int = 6, reuse: bool = False) -> list[dict]:
    n = draw(st.integers(1, max_size))
    ids = []
    for _ in range(n):
        if reuse and shape.next_id and draw(st.booleans()):
            i = draw(st.integers(0, shape.next_id - 1))
            if i in ids:
                continue
        else:
            i, shape.next_id = shape.next_id, shape.next_id + 1
        ids.append(i)
    return [_record(draw, shape, i) for i in ids]


def _predicate(draw: Any, shape: Shape, depth: int = 0) -> dict:
    choices = ["id-mod", "compare", "null"] + (["and", "or", "not"] if depth < 2 else [])
    kind = draw(st.sampled_from(choices))
    if kind == "id-mod":
        m = draw(st.integers(1, 5))
        return {"op": "id-mod", "mod": m, "rest": draw(st.integers(0, m - 1))}
    if kind in ("and", "or"):
        return {"op": kind, "args": [_predicate(draw, shape, depth + 1) for _ in range(2)]}
    if kind == "not":
        return {"op": "not", "arg": _predicate(draw, shape, depth + 1)}
    comparable = [(n, t) for n, t in shape.columns if values.kind(t) not in ("struct", "array", "map", "binary")]
    name, t = draw(st.sampled_from(comparable if kind == "compare" else shape.columns))
    if kind == "null":
        return {"op": draw(st.sampled_from(["is-null", "not-null"])), "column": name}
    value = draw(column_values(t).filter(lambda v: v is not None))
    return {"op": draw(st.sampled_from(["=", "<", ">="])), "column": name, "value": values.to_json(t, value)}


def _branch(draw: Any, shape: Shape) -> str | None:
    return draw(st.sampled_from([None, *shape.branches])) if shape.branches else None


WIDENINGS = {"int": "bigint", "float": "double"}


def _step(draw: Any, shape: Shape, writer: str = "spark") -> dict:
    return _step_of(draw, shape, draw(st.sampled_from(ops_of(shape, writer))), writer)


def ops_of(shape: Shape, writer: str = "spark") -> list[str]:
    """The steps the writer can take next on a table of this shape (repeats weigh a step)."""
    if writer in ("pyiceberg", "chdb", "duckdb"):
        ops = list({"pyiceberg": PYICEBERG_OPS, "chdb": CHDB_OPS, "duckdb": DUCKDB_OPS}[writer])
        return ops + (["upgrade"] if shape.format_version < MAX_VERSION[writer] else [])
    ops = [
        "insert",
        "insert",
        "insert",
        "delete",
        "update",
        "merge",
        "overwrite",
        "insert-many",
        "add-column",
        "drop-column",
        "rename-column",
        "move-column",
        "widen-column",
        "add-partition-field",
        "drop-partition-field",
        "replace-partition-field",
        "rewrite-data-files",
        "rewrite-manifests",
        "expire-snapshots",
        "create-branch",
        "create-tag",
        "rollback",
        "set-properties",
    ]
    if shape.format_version < 3:
        ops.append("upgrade")
    if shape.format_version >= 2:
        ops.append("rewrite-position-deletes")
    if shape.branches:
        ops.append("cherrypick")
    if shape.format_version >= 2 and all(f["transform"] == "identity" for f in shape.partition):
        ops.append("equality-delete")  # the model scopes equality deletes by identity partitions only
    return ops


def _delete_columns(shape: Shape) -> list[str]:
    """Columns an equality delete can use: primitive ones, but no float or double ("Equality Delete
    Files": "Float and double columns cannot be used as delete columns")."""
    return [n for n, t in shape.columns if values.kind(t) not in ("float", "double", "struct", "array", "map")]


def _step_of(draw: Any, shape: Shape, op: str, writer: str) -> dict:
    others = [(n, t) for n, t in shape.columns if n != "id"]
    sources = {f["column"] for f in shape.partition}
    if op == "insert":
        return {"op": op, "rows": _records(draw, shape), "branch": _branch(draw, shape)}
    if op == "insert-many":
        start, count = shape.next_id, draw(st.sampled_from([1000, 2500]))
        shape.next_id += count
        return {"op": op, "start": start, "count": count, "branch": _branch(draw, shape)}
    if op == "overwrite":
        return {"op": op, "rows": _records(draw, shape)}
    if op == "delete":
        return {"op": op, "where": _predicate(draw, shape), "branch": _branch(draw, shape)}
    if op == "update" and others:
        name, t = draw(st.sampled_from(others))
        return {
            "op": op,
            "column": name,
            "value": values.to_json(t, draw(column_values(t))),
            "where": _predicate(draw, shape),
            "branch": _branch(draw, shape),
        }
    if op == "merge":
        delete_where = _predicate(draw, shape) if draw(st.booleans()) else None
        return {
            "op": op,
            "rows": _records(draw, shape, reuse=True),
            "delete-where": delete_where,
            "branch": _branch(draw, shape),
        }
    if op == "equality-delete":
        columns = draw(st.lists(st.sampled_from(_delete_columns(shape)), min_size=1, max_size=2, unique=True))
        return {"op": op, "columns": columns, "where": _predicate(draw, shape)}
    if op == "add-column":
        t = draw(column_types(writer, added=True))
        name = shape.new_name("a")
        step = {"op": op, "name": name, "type": t, "default": None}
        if shape.format_version >= 3 and values.kind(t) not in ("struct", "array", "map") and draw(st.booleans()):
            # a default is JSON in the metadata (Appendix D), which has no NaN or infinity
            finite = column_values(t).filter(
                lambda v: (
                    v is not None and not (isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))))
                )
            )
            step["default"] = values.to_json(t, draw(finite))
        shape.columns.append((name, t))
        return step
    if op == "drop-column":
        droppable = [n for n, _ in others if n not in sources]
        if droppable:
            name = draw(st.sampled_from(droppable))
            shape.columns = [(n, t) for n, t in shape.columns if n != name]
            return {"op": op, "name": name}
    if op == "rename-column" and others:
        name, to = draw(st.sampled_from([n for n, _ in others])), shape.new_name("r")
        shape.columns = [(to if n == name else n, t) for n, t in shape.columns]
        for f in shape.partition + shape.voids:
            f["column"] = to if f["column"] == name else f["column"]
        return {"op": op, "name": name, "to": to}
    if op == "move-column" and len(shape.columns) > 2:
        name = draw(st.sampled_from([n for n, _ in others]))
        after = draw(st.sampled_from([None, *[n for n, _ in shape.columns if n != name]]))
        moving = next(c for c in shape.columns if c[0] == name)
        rest = [c for c in shape.columns if c[0] != name]
        at = 0 if after is None else next(i for i, c in enumerate(rest) if c[0] == after) + 1
        shape.columns = rest[:at] + [moving] + rest[at:]
        return {"op": op, "name": name, "after": after}
    if op == "widen-column":
        widenable = [
            (n, t) for n, t in others if t in WIDENINGS or (values.decimal_of(t) and values.decimal_of(t)[0] < 38)
        ]
        if widenable:
            name, t = draw(st.sampled_from(widenable))
            if values.decimal_of(t):
                p, s = values.decimal_of(t)
                new = f"decimal({draw(st.integers(p + 1, 38))},{s})"
            else:
                new = WIDENINGS[t]
            shape.columns = [(n, new if n == name else ct) for n, ct in shape.columns]
            return {"op": op, "name": name, "type": new}
    if op == "add-partition-field" and len(shape.partition) < 3:
        f = _partition_field(draw, shape.columns, shape.partition + _voids(shape, writer), shape.new_name("p"), writer)
        if f is not None:
            shape.partition.append(f)
            return {"op": op, "field": dict(f)}  # a copy: a later rename changes the shape's field, not this step
    if op == "drop-partition-field" and shape.partition:
        f = draw(st.sampled_from(shape.partition))
        shape.partition = [p for p in shape.partition if p is not f]
        if shape.format_version == 1:
            shape.voids.append(f)
        return {"op": op, "name": f["name"]}
    if op == "replace-partition-field" and shape.partition:
        old = draw(st.sampled_from(shape.partition))
        rest = [p for p in shape.partition if p is not old]
        f = _partition_field(
            draw,
            shape.columns,
            rest + _voids(shape, writer) + ([old] if shape.format_version == 1 and writer != "spark" else []),
            shape.new_name("p"),
            writer,
        )
        if f is not None:
            shape.partition = rest + [f]
            if shape.format_version == 1:
                shape.voids.append(old)
            return {"op": op, "name": old["name"], "field": dict(f)}
    if op == "rewrite-data-files":
        options = {"min-input-files": "1"}
        if draw(st.booleans()):
            options["delete-file-threshold"] = "1"
        if draw(st.booleans()):
            options["rewrite-all"] = "true"
        return {"op": op, "options": options}
    if op in ("rewrite-manifests", "rewrite-position-deletes"):
        return {"op": op}
    if op == "expire-snapshots":
        return {"op": op, "retain-last": draw(st.integers(1, 3))}
    if op in ("create-branch", "create-tag"):
        name = shape.new_name("b" if op == "create-branch" else "t")
        (shape.branches if op == "create-branch" else shape.tags).append(name)
        return {"op": op, "name": name}
    if op == "rollback":
        return {"op": op, "ancestor": draw(st.integers(1, 3))}
    if op == "cherrypick":
        return {"op": op, "branch": draw(st.sampled_from(shape.branches))}
    if op == "upgrade":
        shape.format_version = draw(st.integers(shape.format_version + 1, MAX_VERSION[writer]))
        return {"op": op, "format-version": shape.format_version}
    if op == "set-properties":
        mode = draw(_write_modes(shape.format_version))
        return {
            "op": op,
            "properties": {
                "write.delete.mode": mode,
                "write.update.mode": mode,
                "write.merge.mode": mode,
                "write.metadata.metrics.default": draw(st.sampled_from(METRICS)),
            },
        }
    return {"op": "insert", "rows": _records(draw, shape), "branch": None}


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
    steps = [{"op": "insert", "rows": _records(draw, shape), "branch": None}]
    for _ in range(draw(st.integers(min_steps, max_steps)) - 1):
        steps.append(_step(draw, shape, writer))
    history = {"format": "iceberg-writer-harness/1", "table": table, "steps": steps}
    return history if writer == "spark" else {**history, "writer": writer}
