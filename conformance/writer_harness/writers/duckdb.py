"""Each step of a history as DuckDB writes it: DuckDB 1.5.5 with its iceberg extension as a writer
of the harness (the writer interface: `writer_base`, its SQL part `sql_writer`).

DuckDB writes Iceberg tables only through an attached Iceberg REST catalog. The harness serves one
on loopback (`rest_catalog`: PyIceberg's `SqlCatalog` in `<warehouse>/duckdb/catalog.db`, each
table in `<warehouse>/duckdb/db/<name>/`), and DuckDB attaches it with `ATTACH ... (TYPE iceberg,
ENDPOINT 'http://127.0.0.1:<port>', AUTHORIZATION_TYPE 'none')`. DuckDB writes the data files,
delete files, manifests and manifest lists, and sends its commit as REST requirements and updates;
the catalog applies them and writes the metadata JSON (named `NNNNN-<uuid>.metadata.json`), so the
metadata files are PyIceberg's rendering of DuckDB's updates. The extensions (httpfs for HTTP, avro,
iceberg) are loaded from their PyPI wheels by path, as `conformance.engines.duckdb.adapter` does, with
auto-install and auto-load off. DuckDB runs in a child process (`python -m
conformance.writer_harness.writers.duckdb <endpoint>`, time zone UTC), so that an abort inside DuckDB is
the writer's crash, not the harness's; the catalog server runs in the harness's process.

What the writer does, in SQL on that one DuckDB connection:

* create: `CREATE TABLE ice.db.<name> (...) PARTITIONED BY (...) WITH ('format-version' = 'N')`
  (DuckDB stages the table and creates it with an `assert-create` commit), the partition
  transforms as DuckDB spells them: the column for identity, `bucket(N, c)`, `truncate(W, c)`,
  `year(c)`, `month(c)`, `day(c)`, `hour(c)`; DuckDB names the fields itself (`bucket_4__c_2`);
* insert, insert-many: `INSERT INTO ... VALUES` of typed literals, `INSERT ... SELECT` over
  `range(start, start + count)`;
* delete, update, merge: `DELETE`, `UPDATE ... SET c = v`, `MERGE INTO ... USING (VALUES ...)
  ON t.id = s.id WHEN MATCHED THEN UPDATE SET ... WHEN NOT MATCHED THEN INSERT ...`, which DuckDB
  writes as position delete files and new data files (a merge that updates and inserts commits two
  snapshots). The history's predicate becomes a DuckDB expression true exactly where the SQL
  predicate is true (`predicates.exact`): DuckDB orders NaN above every value and equal to itself,
  as Spark does, but the guards keep its null and NaN handling from deciding which rows a step
  touches; an id-mod predicate that selects none of the ids written is `FALSE`;
* add (optional, primitive), drop, rename and widen columns: `ALTER TABLE ... ADD | DROP | RENAME
  COLUMN`, `ALTER COLUMN c TYPE t`;
* add, drop and replace partition fields: `ALTER TABLE ... SET PARTITIONED BY (...)` with the
  current spec's fields changed (`RESET PARTITIONED BY` when none is left): DuckDB replaces the
  whole spec;
* set-properties: `ALTER TABLE ... SET ('k' = 'v', ...)`; the v1 -> v2 upgrade:
  `SET ('format-version' = '2')`.

Columns: boolean BOOLEAN, int INTEGER, bigint BIGINT, float FLOAT, double DOUBLE, decimal(P,S)
DECIMAL(P,S), date DATE, timestamp TIMESTAMPTZ, timestamp_ntz TIMESTAMP, string VARCHAR, binary
BLOB, struct STRUCT, array LIST, map MAP; every column but `id` optional.

Not offered, so skipped (the writer base refuses them: `writer_base.Writer`): insert overwrite (DuckDB has no INSERT
OVERWRITE); a merge with a delete clause ("MERGE INTO with Iceberg only supports a single
UPDATE/DELETE action currently"); deletes, updates and merges of a v1 table ("Not implemented
Error: Delete from Iceberg V1 tables") or of a table whose write.delete.mode, write.update.mode or
write.merge.mode is copy-on-write ("DuckDB-Iceberg only supports merge-on-read for
updates/deletes"); moving a column (DuckDB's ALTER TABLE cannot); adding a struct, list or map
column ("ADD COLUMN for Nested Types not supported for Iceberg tables"), and so later steps on such
a column; equality deletes, branches, tags, rollback, cherry-pick, snapshot
expiry and the rewrite procedures (the extension has none); and format version 3: DuckDB asks for
v3 tables, but the catalog that applies its commits, PyIceberg 0.12's, writes no v3 metadata
("Writing V3 is not yet supported"), so v3 tables, the upgrade to v3 and initial defaults (v3:
"non-null DEFAULT values are not supported for <V3 tables") are not written through it.

Refusals DuckDB 1.5.5 makes of steps it offers (table and model unchanged): an ADD COLUMN after
a DROP COLUMN that went back to an earlier schema ("Attempted to add schema with id N, but this
already exists": DuckDB numbers the new schema current + 1); a DELETE of rows in files of two
partition specs that share a field, after a field was added ("duplicate name ... in struct":
DuckDB names fields by transform and column); an INSERT whose truncate partition value of a
decimal leaves the column's precision, or of a binary value is no UTF-8 ("Invalid unicode (byte
sequence mismatch) detected in value construction").

Check 1 reads the tables with Iceberg Java through Spark, by the path of the current metadata file
(the catalog's pointer), as for PyIceberg's and ClickHouse's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from .. import child_session, predicates, values
from ..child_session import ChildSession, Died
from ..sql_writer import SqlWriter
from ..writer_base import Unsupported

NAMESPACE = "db"
CATALOG = "ice"  # the name the catalog is attached under in DuckDB
EXTENSIONS = (
    ("duckdb-extension-httpfs", "duckdb_extension_httpfs", "httpfs"),
    ("duckdb-extension-avro", "duckdb_extension_avro", "avro"),
    ("duckdb-extension-iceberg", "duckdb_extension_iceberg", "iceberg"),
)
# DuckDB's error classes that are the harness's own fault (its SQL names what is not there), and
# those of a failure inside DuckDB (a crash, not a refusal).
_HARNESS_ERRORS = {"ParserException", "SyntaxException"}
_MISSING_TABLE = re.compile(r"CatalogException: Catalog Error: (Table|Schema) with name \S+ does not exist")
_CRASH_ERRORS = {"InternalException", "InternalError", "FatalException", "IOException", "SerializationException"}
_NATIVE = {
    "boolean": "BOOLEAN",
    "int": "INTEGER",
    "bigint": "BIGINT",
    "float": "FLOAT",
    "double": "DOUBLE",
    "date": "DATE",
    "timestamp": "TIMESTAMPTZ",
    "timestamp_ntz": "TIMESTAMP",
    "string": "VARCHAR",
    "binary": "BLOB",
}
_TRANSFORMS = {
    "identity": "{c}",
    "bucket": "bucket({param}, {c})",
    "truncate": "truncate({param}, {c})",
    "year": "year({c})",
    "month": "month({c})",
    "day": "day({c})",
    "hour": "hour({c})",
}


# --- the child process ---------------------------------------------------------------------------


class DuckDBError(Exception):
    """DuckDB's error for a statement: its class name (`BinderException`, ...) and message."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class Session:
    """A DuckDB connection in a child process (`child_session`), the REST catalog at `endpoint`
    attached as `ice`."""

    def __init__(self, endpoint: str):
        self.child = ChildSession("conformance.writer_harness.writers.duckdb", (endpoint,), label="DuckDB")
        self.endpoint = endpoint
        self.query("SELECT 1")  # the attach happened (or its error is raised here)

    def query(self, sql: str) -> None:
        """Run one statement; DuckDB's error is raised as `DuckDBError`."""
        reply = self.child.request(sql)
        if "error" in reply:
            raise DuckDBError(reply["type"], reply["error"])

    def alive(self) -> bool:
        return self.child.alive()

    def close(self) -> None:
        self.child.close()


def connect(endpoint: str) -> Any:
    """A DuckDB connection with httpfs, avro and iceberg loaded from their wheels (no downloads), the
    time zone UTC, and the REST catalog at `endpoint` attached as `ice`, without authorization."""
    import duckdb

    from conformance.engines.duckdb.adapter import extension_file

    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for dist, package, name in EXTENSIONS:
        con.execute("LOAD '" + str(extension_file(dist, package, name)).replace("'", "''") + "'")
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"ATTACH 'warehouse' AS {CATALOG} (TYPE iceberg, ENDPOINT '{endpoint}', AUTHORIZATION_TYPE 'none')")
    return con


def serve(endpoint: str) -> None:
    """The child: a DuckDB connection attached to the catalog; the reply to a statement is `{}` or
    `{"type", "error"}` (a failed setup is the reply to every statement, so the parent sees why)."""
    try:
        con = connect(endpoint)
        setup_error = None
    except Exception as e:
        con, setup_error = None, {"type": type(e).__name__, "error": f"setting up DuckDB: {e}"}

    def run(sql: str) -> dict[str, str]:
        if setup_error:
            return setup_error
        try:
            con.execute(sql)
            return {}
        except Exception as e:  # DuckDB's error, handed to the parent to classify
            return {"type": type(e).__name__, "error": str(e)}

    child_session.serve(run)


class _Warehouse:
    """The catalog server of one warehouse and the DuckDB session attached to it."""

    def __init__(self, root: Path):
        from ..rest_catalog import RestCatalogServer

        self.root = root
        self.server = RestCatalogServer(root, name="duckdb")
        self.server.catalog.create_namespace_if_not_exists(NAMESPACE)
        self._session: Session | None = None

    def session(self) -> Session:
        """The DuckDB session (a new one when the last one died)."""
        if self._session is None or not self._session.alive():
            self._session = Session(self.server.uri)
        return self._session

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
        self.server.stop()


_warehouses: dict[Path, _Warehouse] = {}


def warehouse(root: Path) -> _Warehouse:
    """The catalog and DuckDB session of `root` (new ones when its warehouse was removed since)."""
    root = Path(root).resolve()
    if root in _warehouses and not (root / "catalog.db").exists():
        _warehouses.pop(root).close()
    if root not in _warehouses:
        _warehouses[root] = _Warehouse(root)
    return _warehouses[root]


# --- types and literals ----------------------------------------------------------------------------


def native_type(t: str) -> str:
    """The DuckDB type of a harness column type."""
    k = values.kind(t)
    if k == "decimal":
        return "DECIMAL({}, {})".format(*values.decimal_of(t))
    if k == "struct":
        return "STRUCT(" + ", ".join(f"{quote(n)} {native_type(ft)}" for n, ft in values.struct_fields(t)) + ")"
    if k == "array":
        return native_type(values.element_type(t)) + "[]"
    if k == "map":
        return "MAP({}, {})".format(*map(native_type, values.map_types(t)))
    return _NATIVE[k]


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def literal(t: str, v: Any) -> str:
    """A DuckDB expression of type `native_type(t)` holding the model value `v` (NULL for None)."""
    native = native_type(t)
    if v is None:
        return f"CAST(NULL AS {native})"
    k = values.kind(t)
    if k == "boolean":
        return "TRUE" if v else "FALSE"
    if k in ("int", "bigint"):
        return f"CAST({v} AS {native})"
    if k in ("float", "double"):
        return f"CAST('{values.float_text(v)}' AS {native})"
    if k == "decimal":
        return f"CAST('{format(v, 'f')}' AS {native})"
    if k == "date":
        return f"CAST(DATE '1970-01-01' + CAST({v} AS INTEGER) AS DATE)"
    if k == "timestamp_ntz":
        return f"make_timestamp(CAST({v} AS BIGINT))"
    if k == "timestamp":
        return f"CAST(make_timestamp(CAST({v} AS BIGINT)) AS TIMESTAMPTZ)"  # the session time zone is UTC
    if k == "string":
        return _string(v)
    if k == "binary":
        return f"from_hex('{v.hex()}')"
    if k == "struct":
        fields = ", ".join(f"{quote(n)} := {literal(ft, v.get(n))}" for n, ft in values.struct_fields(t))
        return f"CAST(struct_pack({fields}) AS {native})"
    if k == "array":
        return f"CAST([{', '.join(literal(values.element_type(t), x) for x in v)}] AS {native})"
    kt, vt = values.map_types(t)
    return f"CAST(MAP {{{', '.join(f'{literal(kt, a)}: {literal(vt, b)}' for a, b in v.items())}}} AS {native})"


class _Conditions(predicates.SqlConditions):
    """DuckDB's spellings of `predicates.SqlConditions` (the standard ones)."""

    quote, literal = staticmethod(quote), staticmethod(literal)


def _transform_key(f: dict) -> str:
    """The Iceberg transform string of a harness partition field (`bucket[4]`)."""
    return f"{f['transform']}[{f['param']}]" if f["transform"] in ("bucket", "truncate") else f["transform"]


def _transform_sql(transform: str, column: str) -> str:
    """DuckDB's PARTITIONED BY term of an Iceberg transform string on a column."""
    name, _, param = transform.partition("[")
    if name not in _TRANSFORMS:
        raise Unsupported(f"DuckDB partitions by no {transform!r} transform")
    return _TRANSFORMS[name].format(param=param.rstrip("]"), c=quote(column))


# --- the table -----------------------------------------------------------------------------------------


class DuckDBTable(SqlWriter):
    """One table of a history, written by DuckDB through the harness's REST catalog."""

    kind, label, product, distribution = "duckdb", "DuckDB", "DuckDB", "duckdb"
    versions = (1, 2)
    adds_nested_columns = False  # "ADD COLUMN for Nested Types not supported for Iceberg tables"
    takes_table_properties = False  # none the harness sets
    refusals = {
        "overwrite": "DuckDB has no INSERT OVERWRITE",
        "move-column": "DuckDB's ALTER TABLE cannot move a column",
        "expire-snapshots": "DuckDB's iceberg extension expires no snapshots",
    }
    conditions = _Conditions()
    DELETE = "DELETE FROM {table} WHERE {where}"
    UPDATE = "UPDATE {table} SET {column} = {value} WHERE {where}"
    ID_RANGE = "SELECT range FROM range({start}, {end})"

    def __init__(self, spark: Any, warehouse: Path, name: str):
        self.root = (Path(warehouse) / "duckdb").resolve()
        super().__init__(spark, name, self.root / NAMESPACE / name)
        self.ident = f"{CATALOG}.{NAMESPACE}.{quote(name)}"
        self.fields: dict[str, tuple[int, str]] = {}  # harness partition field name -> (source field id, transform)

    def sql(self, text: str) -> None:
        session = warehouse(self.root).session()
        try:
            session.query(text)
        except DuckDBError as e:
            if e.kind in _CRASH_ERRORS:  # DuckDB invalidates its database after an internal or fatal error
                session.close()
            raise

    # --- metadata ---------------------------------------------------------------------------
    @property
    def metadata_location(self) -> str:
        """The catalog's current metadata location (a file: URI)."""
        return warehouse(self.root).server.metadata_location((NAMESPACE, self.name))

    # --- refusals and crashes -------------------------------------------------------------------
    def classify(self, e: BaseException) -> tuple[str, str]:
        """DuckDB's errors are refusals (not implemented, invalid input, a binder or conversion
        error, a commit the catalog refused), except an internal or fatal error or a failed file
        read or write, which are crashes (and end the session: DuckDB invalidates its database),
        and a parser error, a table the harness's SQL names that is not there, or the catalog
        server's own failure (HTTP 500), which are the harness's. The DuckDB process ending is a
        crash."""
        text = f"{type(e).__name__}: {e}".strip()
        if isinstance(e, Died):
            return "crash", text
        if not isinstance(e, DuckDBError):
            return "harness", text
        if e.kind in _HARNESS_ERRORS or "ServerErrorException" in text or _MISSING_TABLE.search(text):
            return "harness", text
        if e.kind in _CRASH_ERRORS:
            return "crash", text
        return "refused", text

    # --- writing ------------------------------------------------------------------------------
    def create(self, table: dict) -> None:
        version = table["format-version"]
        if version not in (1, 2):
            raise Unsupported(
                f"format version {version}: the harness's REST catalog (PyIceberg 0.12) writes no v3 metadata"
            )
        columns = ", ".join(
            f"{quote(c['name'])} {native_type(c['type'])}" + (" NOT NULL" if c["name"] == "id" else "")
            for c in table["columns"]
        )
        parts = [_transform_sql(_transform_key(f), f["column"]) for f in table["partition"]]
        partition = f" PARTITIONED BY ({', '.join(parts)})" if parts else ""
        props = ", ".join(
            f"{_string(k)} = {_string(v)}" for k, v in {**table["properties"], "format-version": str(version)}.items()
        )
        server = warehouse(self.root).server
        with server.lock:
            if server.catalog.table_exists((NAMESPACE, self.name)):  # a table of an earlier run of the same name
                server.catalog.drop_table((NAMESPACE, self.name))
        self.sql(f"CREATE TABLE {self.ident} ({columns}){partition} WITH ({props})")
        ids = {f["name"]: f["id"] for f in self.schema_fields()}
        self.fields = {f["name"]: (ids[f["column"]], _transform_key(f)) for f in table["partition"]}

    def row_level(self, op: str) -> None:
        """DuckDB deletes, updates and merges v2 tables, by position deletes only (merge-on-read)."""
        what, mode = {"delete": "delete from", "merge": "merge into"}.get(op, op), op
        md = self.metadata()
        if md["format-version"] < 2:
            raise Unsupported(f"DuckDB 1.5.5 does not {what} Iceberg v1 tables")
        if md.get("properties", {}).get(f"write.{mode}.mode", "merge-on-read") != "merge-on-read":
            raise Unsupported(
                f"DuckDB 1.5.5 writes {mode}s merge-on-read only, and the table's write.{mode}.mode is copy-on-write"
            )

    def merge(
        self,
        columns: list[tuple[str, str]],
        rows: list[dict],
        delete_where: dict | None,
        types: dict[str, str],
        branch: str | None,
    ) -> None:
        self.main_only(branch)
        self.row_level("merge")
        if delete_where is not None:
            raise Unsupported(
                "DuckDB 1.5.5: MERGE INTO with Iceberg only supports a single UPDATE/DELETE action currently"
            )
        names = [quote(n) for n, _ in columns]
        tuples = self.tuples(columns, rows)
        updates = ", ".join(f"{n} = s.{n}" for n in names if n != '"id"')
        updating = f"WHEN MATCHED THEN UPDATE SET {updates} " if updates else ""
        self.sql(
            f'MERGE INTO {self.ident} AS t USING (VALUES {tuples}) AS s({", ".join(names)}) ON t."id" = s."id" '
            f"{updating}WHEN NOT MATCHED THEN INSERT ({', '.join(names)}) VALUES ({', '.join(f's.{n}' for n in names)})"
        )
        self.ids.update(r["id"] for r in rows)

    # --- schema -------------------------------------------------------------------------------
    def add_column(self, name: str, t: str, default: Any) -> None:
        if default is not None:
            raise Unsupported("initial defaults are v3, which the harness's catalog does not write")
        if values.kind(t) in ("struct", "array", "map"):
            raise Unsupported("DuckDB 1.5.5: ADD COLUMN for Nested Types not supported for Iceberg tables")
        self.alter(f"ADD COLUMN {quote(name)} {native_type(t)}")

    def _existing(self, name: str) -> None:
        """A column the history added with a step that was skipped (a nested type) is in neither
        the table nor the model: a later step on it is skipped too."""
        if name not in {f["name"] for f in self.schema_fields()}:
            raise Unsupported(f"the table has no column {name!r} (the step that added it was skipped)")

    def drop_column(self, name: str) -> None:
        self._existing(name)
        super().drop_column(name)

    def rename_column(self, name: str, to: str) -> None:
        self._existing(name)
        super().rename_column(name, to)

    def widen_column(self, name: str, t: str) -> None:
        self._existing(name)
        self.alter(f"ALTER COLUMN {quote(name)} TYPE {native_type(t)}")

    # --- partitioning ---------------------------------------------------------------------------
    def _set_partitioning(self, drop: str | None, add: dict | None) -> None:
        """SET PARTITIONED BY the current spec's fields without the harness's field `drop` and with
        `add` (DuckDB replaces the whole spec)."""
        md = self.metadata()
        spec = next(s for s in md["partition-specs"] if s["spec-id"] == md["default-spec-id"])
        names = {f["id"]: f["name"] for f in self.schema_fields()}
        current = [(f["source-id"], f["transform"]) for f in spec["fields"] if f["transform"] != "void"]
        if drop is not None:
            current.remove(self.fields[drop])
        new = dict(self.fields)
        new.pop(drop, None)
        if add is not None:
            ids = {v: k for k, v in names.items()}
            new[add["name"]] = (ids[add["column"]], _transform_key(add))
            current.append(new[add["name"]])
        terms = [_transform_sql(transform, names[source]) for source, transform in current]
        self.alter(f"SET PARTITIONED BY ({', '.join(terms)})" if terms else "RESET PARTITIONED BY")
        self.fields = new

    def add_partition_field(self, field: dict) -> None:
        self._set_partitioning(None, field)

    def drop_partition_field(self, name: str) -> None:
        self._set_partitioning(name, None)

    def replace_partition_field(self, name: str, field: dict) -> None:
        self._set_partitioning(name, field)

    # --- properties and format version ------------------------------------------------------------
    def set_properties(self, props: dict[str, str]) -> None:
        self.alter("SET (" + ", ".join(f"{_string(k)} = {_string(v)}" for k, v in props.items()) + ")")

    def upgrade(self, format_version: int) -> None:
        if format_version != 2:
            raise Unsupported(
                f"format version {format_version}: the harness's REST catalog (PyIceberg 0.12) writes no v3 metadata"
            )
        self.alter("SET ('format-version' = '2')")


if __name__ == "__main__":
    serve(sys.argv[1])
