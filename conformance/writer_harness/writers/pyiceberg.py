"""Each step of a history as PyIceberg writes it: PyIceberg as a second writer of the harness
(the writer interface: `writers`).

PyIceberg keeps its tables in a SQL catalog (SQLite) of its own, `<warehouse>/pyiceberg/catalog.db`,
each table in `<warehouse>/pyiceberg/db/<name>/`, with metadata files named `NNNNN-<uuid>.metadata.json`.
What it writes, through its public API:

* insert, insert-many: `Table.append` of an Arrow table (into a branch with `branch=`);
* overwrite: `Table.overwrite` (the whole table, as INSERT OVERWRITE without a partition clause);
* delete: `Table.delete(filter)`, copy-on-write (PyIceberg writes no delete files; in
  merge-on-read mode it warns and falls back to copy-on-write). The history's predicate becomes a
  PyIceberg expression that holds exactly where the SQL predicate is true: comparisons are guarded
  by `NotNull` (SQL's unknown deletes nothing), NaN is spelled with `IsNaN` / `NotNaN` (Spark
  orders NaN above every value and equal to itself), `NOT` is pushed down to the leaves, and
  `id % m = r` becomes `In("id", ...)` over the ids this writer has written;
* add, drop, rename, move and widen columns: `update_schema()`;
* add, drop and replace partition fields: `update_spec()` (a replacement is one update that removes
  the old field and adds the new one);
* set-properties and the v1 -> v2 upgrade: `transaction().set_properties` /
  `transaction().upgrade_table_version`;
* branches and tags at main's head, rollback: `manage_snapshots()`;
* expire-snapshots: `maintenance.expire_snapshots().by_ids(...)` of every snapshot that is neither
  a tag's head nor among the last `retain-last` ancestors of a branch (PyIceberg has no
  `retain_last`; Iceberg Java's procedure keeps the same).

Not offered by PyIceberg 0.12, so skipped (the writer base refuses them: `writer_base.Writer`):
UPDATE, MERGE (its `upsert` is a different operation), equality deletes, `rewrite_data_files`,
`rewrite_manifests`, `rewrite_position_delete_files`, cherry-pick, and initial defaults (v3).

Check 1 reads the tables with Iceberg Java through Spark, by the path of the current metadata file:
Iceberg's Spark source loads a path that names a `.metadata.json` as a static table
(`HadoopTables`), so no catalog has to know the table.
"""

from __future__ import annotations

import os
import traceback
import warnings
from pathlib import Path
from typing import Any

from .. import predicates, values
from ..writer_base import MetadataByLocation, Unsupported

NAMESPACE = "db"
_catalogs: dict[Path, Any] = {}


def catalog(root: Path) -> Any:
    """The SQL catalog (SQLite) PyIceberg's tables of one warehouse live in."""
    from pyiceberg.catalog.sql import SqlCatalog

    root = Path(root).resolve()
    if root not in _catalogs or not (root / "catalog.db").exists():  # new, or its warehouse was removed since
        root.mkdir(parents=True, exist_ok=True)
        cat = SqlCatalog("writer_harness", uri=f"sqlite:///{root / 'catalog.db'}", warehouse=root.as_uri())
        cat.create_namespace_if_not_exists(NAMESPACE)
        _catalogs[root] = cat
    return _catalogs[root]


# --- types ---------------------------------------------------------------------------------------


class _Ids:
    def __init__(self, start: int = 1):
        self.next = start

    def __call__(self) -> int:
        self.next += 1
        return self.next - 1


def iceberg_type(t: str, ids: _Ids) -> Any:
    """The PyIceberg type of a harness type string (nested fields optional, as Spark makes them)."""
    from pyiceberg import types as T

    k = values.kind(t)
    simple = {
        "boolean": T.BooleanType,
        "int": T.IntegerType,
        "bigint": T.LongType,
        "float": T.FloatType,
        "double": T.DoubleType,
        "date": T.DateType,
        "timestamp": T.TimestamptzType,
        "timestamp_ntz": T.TimestampType,
        "string": T.StringType,
        "binary": T.BinaryType,
    }
    if k in simple:
        return simple[k]()
    if k == "decimal":
        return T.DecimalType(*values.decimal_of(t))
    if k == "struct":
        return T.StructType(
            *[T.NestedField(ids(), n, iceberg_type(ft, ids), required=False) for n, ft in values.struct_fields(t)]
        )
    if k == "array":
        return T.ListType(ids(), iceberg_type(values.element_type(t), ids), element_required=False)
    kt, vt = values.map_types(t)
    return T.MapType(ids(), iceberg_type(kt, ids), ids(), iceberg_type(vt, ids), value_required=False)


def arrow_type(t: str) -> Any:
    """The Arrow type the harness hands PyIceberg a column's values in."""
    import pyarrow as pa

    k = values.kind(t)
    simple = {
        "boolean": pa.bool_(),
        "int": pa.int32(),
        "bigint": pa.int64(),
        "float": pa.float32(),
        "double": pa.float64(),
        "date": pa.date32(),
        "timestamp": pa.timestamp("us", tz="UTC"),
        "timestamp_ntz": pa.timestamp("us"),
        "string": pa.string(),
        "binary": pa.binary(),
    }
    if k in simple:
        return simple[k]
    if k == "decimal":
        return pa.decimal128(*values.decimal_of(t))
    if k == "struct":
        return pa.struct([(n, arrow_type(ft)) for n, ft in values.struct_fields(t)])
    if k == "array":
        return pa.list_(arrow_type(values.element_type(t)))
    kt, vt = values.map_types(t)
    return pa.map_(arrow_type(kt), arrow_type(vt))


def arrow_value(t: str, v: Any) -> Any:
    """A model value as Arrow's `from_pylist` takes it (days and microseconds pass as integers)."""
    if v is None:
        return None
    k = values.kind(t)
    if k == "struct":
        return {n: arrow_value(ft, v.get(n)) for n, ft in values.struct_fields(t)}
    if k == "array":
        return [arrow_value(values.element_type(t), x) for x in v]
    if k == "map":
        kt, vt = values.map_types(t)
        return [(arrow_value(kt, a), arrow_value(vt, b)) for a, b in v.items()]
    return v


def transform(f: dict) -> Any:
    from pyiceberg import transforms as X

    return {
        "identity": lambda: X.IdentityTransform(),
        "bucket": lambda: X.BucketTransform(f["param"]),
        "truncate": lambda: X.TruncateTransform(f["param"]),
        "year": lambda: X.YearTransform(),
        "month": lambda: X.MonthTransform(),
        "day": lambda: X.DayTransform(),
        "hour": lambda: X.HourTransform(),
    }[f["transform"]]()


# --- predicates ------------------------------------------------------------------------------------


def expression(pred: dict, types: dict[str, str], ids: set[int]) -> Any:
    """A PyIceberg expression true exactly where the SQL predicate is true (`predicates.exact`): never
    unknown, so PyIceberg's handling of nulls in row filters does not decide which rows go."""
    return predicates.exact(pred, types, ids, _Expressions())


class _Expressions:
    """PyIceberg's expressions, as `predicates.exact` builds them."""

    def __init__(self) -> None:
        from pyiceberg import expressions as E

        self.E = E

    def false(self) -> Any:
        return self.E.AlwaysFalse()

    def all(self, parts: list) -> Any:
        return self.E.And(*parts)

    def any(self, parts: list) -> Any:
        return self.E.Or(*parts)

    def is_in(self, column: str, ids: list[int]) -> Any:
        return self.E.In(column, ids)

    def is_null(self, column: str) -> Any:
        return self.E.IsNull(column)

    def not_null(self, column: str) -> Any:
        return self.E.NotNull(column)

    def is_nan(self, column: str) -> Any:
        return self.E.IsNaN(column)

    def not_nan(self, column: str) -> Any:
        return self.E.NotNaN(column)

    def compare(self, column: str, t: str, op: str, v: Any) -> Any:
        from pyiceberg.expressions.literals import literal

        return {"=": self.E.EqualTo, "<>": self.E.NotEqualTo, "<": self.E.LessThan, ">=": self.E.GreaterThanOrEqual}[
            op
        ](column, literal(v))


# --- the table -----------------------------------------------------------------------------------------


class PyIcebergTable(MetadataByLocation):
    """One table of a history, written by PyIceberg."""

    kind, label, product, distribution = "pyiceberg", "PyIceberg 0.12", "PyIceberg", "pyiceberg"
    versions = (1, 2)
    # PyIceberg 0.12 accepts a spec with two fields of one source column but then refuses every
    # write to it ("Cannot have redundant partitions")
    one_field_per_column = True
    refusals = {
        "update": "PyIceberg 0.12 has no UPDATE",
        "merge": "PyIceberg 0.12 has no MERGE (its upsert matches on keys but has no conditional delete, "
        "and is a different operation)",
        "equality-delete": "PyIceberg 0.12 writes no equality delete files",
        "rewrite-data-files": "PyIceberg 0.12 has no rewrite_data_files (compaction)",
        "rewrite-manifests": "PyIceberg 0.12 has no rewrite_manifests",
        "rewrite-position-deletes": "PyIceberg 0.12 has no rewrite_position_delete_files",
        "cherrypick": "PyIceberg 0.12 has no cherry-pick",
    }

    def __init__(self, spark: Any, warehouse: Path, name: str):
        self.spark, self.name = spark, name
        self.root = Path(warehouse) / "pyiceberg"
        self.directory = self.root / NAMESPACE / name
        self.table: Any = None
        self.ids: set[int] = set()  # every id this writer has written (the universe of id-mod predicates)

    # --- metadata ---------------------------------------------------------------------------
    @property
    def metadata_location(self) -> str:
        return self.table.metadata_location

    # --- refusals and crashes -------------------------------------------------------------------
    def classify(self, e: BaseException) -> tuple[str, str]:
        """PyIceberg refuses with a `ValueError` or `NotImplementedError` it raises itself, its
        `ValidationError`, `ResolveError` or `CommitFailedException`; any other exception raised
        inside PyIceberg (or in a library it called) is a crash. An exception whose traceback never
        entered PyIceberg is the harness's own."""
        import pyiceberg
        from pyiceberg import exceptions as X

        root = os.path.dirname(pyiceberg.__file__) + os.sep
        frames = traceback.extract_tb(e.__traceback__)
        inside = [f for f in frames if f.filename.startswith(root)]
        text = f"{type(e).__name__}: {e}"
        if not inside:
            return "harness", text
        raised_by_pyiceberg = frames[-1].filename.startswith(root)
        refusal = (
            X.ValidationError,
            X.ValidationException,
            X.ResolveError,
            X.CommitFailedException,
            X.TableAlreadyExistsError,
            X.NoSuchPropertyException,
        )
        if isinstance(e, refusal) or (type(e) in (ValueError, NotImplementedError) and raised_by_pyiceberg):
            return "refused", text
        where = frames[-1]
        return "crash", f"{text} (raised in {os.path.basename(where.filename)}:{where.lineno} {where.name})"

    def copy_on_write(self, op: str, properties: dict[str, str]) -> bool:
        return True  # PyIceberg writes no delete files

    # --- writing ------------------------------------------------------------------------------
    def create(self, table: dict) -> None:
        from pyiceberg.partitioning import PartitionField, PartitionSpec
        from pyiceberg.schema import Schema
        from pyiceberg.types import NestedField

        ids = _Ids()
        fields = []
        for c in table["columns"]:
            field_id = ids()
            fields.append(NestedField(field_id, c["name"], iceberg_type(c["type"], ids), required=c["name"] == "id"))
        schema = Schema(*fields)
        source = {f.name: f.field_id for f in fields}
        spec = PartitionSpec(
            *[
                PartitionField(source[f["column"]], 1000 + k, transform(f), f["name"])
                for k, f in enumerate(table["partition"])
            ]
        )
        self.table = catalog(self.root).create_table(
            f"{NAMESPACE}.{self.name}",
            schema,
            partition_spec=spec,
            location=self.directory.as_uri(),
            properties=dict(table["properties"]),
        )

    def _arrow(self, columns: list[tuple[str, str]], rows: list[dict]) -> Any:
        import pyarrow as pa

        schema = pa.schema([pa.field(n, arrow_type(t), nullable=n != "id") for n, t in columns])
        return pa.Table.from_pylist([{n: arrow_value(t, r.get(n)) for n, t in columns} for r in rows], schema=schema)

    def _insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None, overwrite: bool) -> None:
        frame = self._arrow(columns, rows)
        self.ids.update(r["id"] for r in rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if overwrite:
                self.table.overwrite(frame, branch=branch or "main")
            else:
                self.table.append(frame, branch=branch or "main")

    def insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        self._insert(columns, rows, branch, False)

    def overwrite(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        self._insert(columns, rows, branch, True)

    def insert_many(self, columns: list[tuple[str, str]], start: int, count: int, branch: str | None) -> None:
        import pyarrow as pa

        arrays = [
            pa.array(range(start, start + count), pa.int64()) if n == "id" else pa.nulls(count, arrow_type(t))
            for n, t in columns
        ]
        schema = pa.schema([pa.field(n, arrow_type(t), nullable=n != "id") for n, t in columns])
        self.ids.update(range(start, start + count))
        self.table.append(pa.Table.from_arrays(arrays, schema=schema), branch=branch or "main")

    def delete(self, where: dict, types: dict[str, str], branch: str | None) -> None:
        condition = expression(where, types, self.ids)
        with (
            warnings.catch_warnings()
        ):  # "Delete operation did not match any records", "Merge on read is not yet supported"
            warnings.simplefilter("ignore")
            self.table.delete(condition, branch=branch or "main")

    def add_column(self, name: str, t: str, default: Any) -> None:
        if default is not None:
            raise Unsupported("initial defaults are v3, which the PyIceberg writer does not write")
        with self.table.update_schema() as update:
            update.add_column(name, iceberg_type(t, _Ids()))  # PyIceberg assigns the nested ids

    def drop_column(self, name: str) -> None:
        with self.table.update_schema() as update:
            update.delete_column(name)

    def rename_column(self, name: str, to: str) -> None:
        with self.table.update_schema() as update:
            update.rename_column(name, to)

    def move_column(self, name: str, after: str | None) -> None:
        with self.table.update_schema() as update:
            update.move_first(name) if after is None else update.move_after(name, after)

    def widen_column(self, name: str, t: str) -> None:
        with self.table.update_schema() as update:
            update.update_column(name, field_type=iceberg_type(t, _Ids()))

    def add_partition_field(self, field: dict) -> None:
        with self.table.update_spec() as update:
            update.add_field(field["column"], transform(field), field["name"])

    def drop_partition_field(self, name: str) -> None:
        with self.table.update_spec() as update:
            update.remove_field(name)

    def replace_partition_field(self, name: str, field: dict) -> None:
        with self.table.update_spec() as update:
            update.remove_field(name)
            update.add_field(field["column"], transform(field), field["name"])

    def set_properties(self, props: dict[str, str]) -> None:
        with self.table.transaction() as tx:
            tx.set_properties(props)

    def upgrade(self, format_version: int) -> None:
        with self.table.transaction() as tx:
            tx.upgrade_table_version(format_version)

    # --- maintenance and refs ---------------------------------------------------------------------
    def expire_snapshots(self, retain_last: int) -> None:
        """Every snapshot that is neither a tag's head nor among the last `retain_last` ancestors of
        a branch, by id (what Iceberg Java's expire_snapshots(older_than => far future,
        retain_last => n) removes)."""
        md = self.metadata()
        parents = {s["snapshot-id"]: s.get("parent-snapshot-id") for s in md.get("snapshots", [])}
        keep: set[int] = set()
        for ref in (md.get("refs") or {}).values():
            sid, n = ref["snapshot-id"], (retain_last if ref["type"] == "branch" else 1)
            while sid is not None and sid in parents and n > 0:
                keep.add(sid)
                sid, n = parents[sid], n - 1
        expired = sorted(set(parents) - keep)
        if expired:
            self.table.maintenance.expire_snapshots().by_ids(expired).commit()

    def create_branch(self, name: str) -> None:
        head = self.table.current_snapshot()
        if head is None:
            raise Unsupported("PyIceberg creates a branch at a snapshot, and main has none")
        self.table.manage_snapshots().create_branch(head.snapshot_id, name).commit()

    def create_tag(self, name: str) -> None:
        self.table.manage_snapshots().create_tag(self.table.current_snapshot().snapshot_id, name).commit()

    def rollback(self, snapshot_id: int) -> None:
        self.table.manage_snapshots().rollback_to_snapshot(snapshot_id).commit()
