"""Each step of a history as ClickHouse writes it, through chDB: a third writer of the harness (the
writer interface: `writer_base`, its SQL part `sql_writer`), with its own C++ Iceberg writer.

ClickHouse (chDB 4.4, ClickHouse 26.9) writes Iceberg tables with the `IcebergLocal` table engine
once `allow_experimental_insert_into_iceberg` is set. The tables live in `<warehouse>/chdb/<name>/`,
their metadata files named `vN.metadata.json`; the newest is the table's current metadata. What
the writer does, in SQL on one chDB session (time zone UTC) in a child process whose working
directory is `<warehouse>/chdb` (ClickHouse reads and writes files only under its working
directory; and an abort inside chDB is then the writer's crash, not the harness's):

* create: `CREATE TABLE ... ENGINE = IcebergLocal(dir, 'Parquet') PARTITION BY (...)`, with the
  partition transforms as ClickHouse spells them: `icebergBucket(N, c)`, `icebergTruncate(W, c)`,
  `toYearNumSinceEpoch(c)`, `toMonthNumSinceEpoch(c)`, `toRelativeDayNum(c)`,
  `toRelativeHourNum(c)`, and the column itself for identity. It writes format version 2 only;
  table properties are not passed (ClickHouse has its own settings, not Iceberg's write modes);
* insert, insert-many: `INSERT INTO ... VALUES` of typed literals, `INSERT ... SELECT` over
  `numbers(count)`;
* delete and update: `ALTER TABLE ... DELETE WHERE` / `UPDATE c = v WHERE`, which ClickHouse
  writes as position delete files (and, for an update, the changed rows as new data files). The
  history's predicate becomes a ClickHouse expression true exactly where the SQL predicate is true
  (`predicates.exact`): ClickHouse compares NaN as unequal to everything, Spark as the largest value;
* add (nullable), drop, rename, move and widen columns: `ALTER TABLE ... ADD | DROP | RENAME |
  MODIFY COLUMN`.

Columns: int Int32, bigint Int64, float Float32, double Float64, decimal(P,S) Decimal(P,S), date
Date32, timestamp DateTime64(6, 'UTC'), timestamp_ntz DateTime64(6), string String; every column
but `id` Nullable. Not written by ClickHouse, so not drawn for it (`strategies`): boolean
("Unsupported type for iceberg Bool"), binary (ClickHouse has no type apart from String), and
struct, list and map columns, which ClickHouse cannot make Nullable (the harness's nested columns
are optional).

Not offered, so skipped (the writer base refuses them: `writer_base.Writer`): insert overwrite, merge, equality deletes,
partition evolution, properties, format upgrades, snapshot expiry, branches, tags, rollback,
cherry-pick, the rewrite procedures and initial defaults (v3).

Check 1 reads the tables with Iceberg Java through Spark, by the path of the current metadata file,
as for PyIceberg's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import child_session, predicates, values
from ..child_session import ChildSession, Died
from ..sql_writer import SqlWriter
from ..writer_base import Unsupported

_CODE = re.compile(r"\(([A-Z_]+)\)\s*$")
# ClickHouse error codes that are the harness's own fault (its SQL), and those of a failure inside
# ClickHouse (a crash, not a refusal). A column ClickHouse cannot find is a crash: the harness names
# only the table's current columns, and ClickHouse's own partition expressions keep old names. An
# Avro error is ClickHouse failing to write its own manifest.
_HARNESS_CODES = {"SYNTAX_ERROR", "UNKNOWN_TABLE", "UNKNOWN_FUNCTION", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH"}
_CRASH_CODES = {
    "LOGICAL_ERROR",
    "STD_EXCEPTION",
    "UNKNOWN_EXCEPTION",
    "CANNOT_READ_ALL_DATA",
    "INCORRECT_DATA",
    "CORRUPTED_DATA",
    "UNKNOWN_IDENTIFIER",
    "AVRO_EXCEPTION",
}
_NATIVE = {
    "int": "Int32",
    "bigint": "Int64",
    "float": "Float32",
    "double": "Float64",
    "date": "Date32",
    "timestamp": "DateTime64(6, 'UTC')",
    "timestamp_ntz": "DateTime64(6)",
    "string": "String",
}
_TRANSFORMS = {
    "bucket": "icebergBucket({param}, {c})",
    "truncate": "icebergTruncate({param}, {c})",
    "year": "toYearNumSinceEpoch({c})",
    "month": "toMonthNumSinceEpoch({c})",
    "day": "toRelativeDayNum({c})",
    "hour": "toRelativeHourNum({c})",
    "identity": "{c}",
}


class ChdbError(Exception):
    """ClickHouse's error for a statement ("Code: N. DB::Exception: ... (NAME)")."""


class Session:
    """A chDB session in a child process (`child_session`) working in `directory`."""

    def __init__(self, directory: Path):
        directory.mkdir(parents=True, exist_ok=True)
        self.child = ChildSession("conformance.writer_harness.writers.chdb", cwd=directory, label="chDB")

    def query(self, sql: str) -> str:
        """Run one statement; its result as CSV text. A ClickHouse error is raised as `ChdbError`
        with ClickHouse's message."""
        reply = self.child.request(sql)
        if "error" in reply:
            raise ChdbError(reply["error"])
        return reply["result"]

    def alive(self) -> bool:
        return self.child.alive()


_sessions: dict[Path, Session] = {}


def session(directory: Path) -> Session:
    """The chDB session working in `directory` (a new one when the last one died)."""
    if directory not in _sessions or not _sessions[directory].alive():
        _sessions[directory] = Session(directory)
    return _sessions[directory]


def serve() -> None:
    """The child: a chDB session set up for Iceberg writes; the reply to a statement is
    `{"result": CSV text}` or `{"error": ClickHouse's message}`."""
    from chdb import session as chdb_session

    s = chdb_session.Session()
    s.query("SET allow_experimental_insert_into_iceberg = 1")
    s.query("SET session_timezone = 'UTC'")

    def run(sql: str) -> dict[str, str]:
        try:
            return {"result": str(s.query(sql, "CSV"))}
        except Exception as e:  # ClickHouse's error, handed to the parent to classify
            return {"error": str(e)}

    child_session.serve(run)


def native_type(t: str) -> str:
    """The ClickHouse type of a harness column type (raises `Unsupported` for one ClickHouse does
    not write to Iceberg)."""
    k = values.kind(t)
    if k == "decimal":
        return "Decimal({}, {})".format(*values.decimal_of(t))
    if k not in _NATIVE:
        raise Unsupported(f"ClickHouse writes no Iceberg column of type {t} as the harness has it (optional)")
    return _NATIVE[k]


def column_sql(name: str, t: str, nullable: bool = True) -> str:
    native = native_type(t)
    return f"{quote(name)} {f'Nullable({native})' if nullable else native}"


def quote(name: str) -> str:
    return f"`{name}`"


def literal(t: str, v: Any) -> str:
    """A ClickHouse literal of the model value `v` of type `t` (NULL for None)."""
    if v is None:
        return "NULL"
    k = values.kind(t)
    if k in ("int", "bigint"):
        return f"to{_NATIVE[k]}({v})"
    if k in ("float", "double"):
        return f"to{_NATIVE[k]}('{values.float_text(v)}')"
    if k == "decimal":
        return f"CAST('{format(v, 'f')}' AS {native_type(t)})"
    if k == "date":
        return f"toDate32({v})"
    if k == "timestamp":
        return f"fromUnixTimestamp64Micro(toInt64({v}), 'UTC')"
    if k == "timestamp_ntz":
        return f"CAST(fromUnixTimestamp64Micro(toInt64({v}), 'UTC') AS DateTime64(6))"
    if k == "string":
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    raise Unsupported(f"ClickHouse writes no Iceberg value of type {t} as the harness has it")


class _Conditions(predicates.SqlConditions):
    """ClickHouse's spellings of `predicates.SqlConditions`."""

    FALSE, NOT_EQUAL = "0", "!="
    IS_NULL, NOT_NULL, IS_NAN = "isNull({c})", "isNotNull({c})", "isNaN({c})"
    quote, literal = staticmethod(quote), staticmethod(literal)


class ChdbTable(SqlWriter):
    """One table of a history, written by ClickHouse through chDB."""

    kind, label, product, distribution = "chdb", "ClickHouse", "chDB", "chdb"
    versions = (2,)
    # the types ClickHouse writes to an optional Iceberg column; it takes no Iceberg table properties
    unwritten_types, nested_columns, takes_table_properties = ("boolean", "binary"), False, False
    refusals = {
        "overwrite": "ClickHouse has no INSERT OVERWRITE of an Iceberg table",
        "merge": "ClickHouse has no MERGE",
        "add-partition-field": "ClickHouse has no partition evolution of an Iceberg table",
        "drop-partition-field": "ClickHouse has no partition evolution of an Iceberg table",
        "replace-partition-field": "ClickHouse has no partition evolution of an Iceberg table",
        "set-properties": "ClickHouse sets no Iceberg table properties",
        "upgrade": "ClickHouse writes format version 2 only",
        "expire-snapshots": "snapshot expiry is not among the steps the harness runs on ClickHouse",
    }
    conditions = _Conditions()
    DELETE = "ALTER TABLE {table} DELETE WHERE {where}"
    UPDATE = "ALTER TABLE {table} UPDATE {column} = {value} WHERE {where}"
    ID_RANGE = "SELECT toInt64(number + {start}) FROM numbers({count})"

    def __init__(self, spark: Any, warehouse: Path, name: str):
        super().__init__(spark, name, (Path(warehouse) / "chdb" / name).resolve())
        self.ident = quote(name)

    def sql(self, text: str) -> None:
        session(self.directory.parent).query(text)

    # --- metadata ---------------------------------------------------------------------------
    @property
    def metadata_path(self) -> Path:
        """The newest `vN.metadata.json`: ClickHouse numbers its metadata files."""
        files = list((self.directory / "metadata").glob("v*.metadata.json"))
        return max(files, key=lambda p: int(p.name[1:].split(".", 1)[0]))

    @property
    def metadata_location(self) -> str:
        return self.metadata_path.as_uri()

    # --- refusals and crashes -------------------------------------------------------------------
    def classify(self, e: BaseException) -> tuple[str, str]:
        """ClickHouse's errors ("Code: N. DB::Exception: ... (NAME)") are refusals, except the codes
        of an internal failure (LOGICAL_ERROR, a C++ exception, corrupt data), which are crashes,
        and those of a malformed query, which are the harness's. The chDB process ending is a crash."""
        text = f"{type(e).__name__}: {e}".strip()
        if isinstance(e, Died):
            return "crash", text
        if not isinstance(e, ChdbError):
            return "harness", text
        code = _CODE.search(text)
        name = code.group(1) if code else ""
        if name in _HARNESS_CODES:
            return "harness", text
        if name in _CRASH_CODES or not code:
            return "crash", text
        return "refused", text

    # --- writing (ClickHouse deletes by position delete files: not copy-on-write) ------------------------
    def create(self, table: dict) -> None:
        if table["format-version"] != 2:
            raise Unsupported(f"ClickHouse writes format version 2 only, not {table['format-version']}")
        columns = ", ".join(column_sql(c["name"], c["type"], c["name"] != "id") for c in table["columns"])
        parts = [
            _TRANSFORMS[f["transform"]].format(param=f.get("param"), c=quote(f["column"])) for f in table["partition"]
        ]
        partition = f" PARTITION BY ({', '.join(parts)})" if parts else ""
        self.sql(f"DROP TABLE IF EXISTS {self.ident}")
        self.sql(
            f"CREATE TABLE {self.ident} ({columns}) ENGINE = IcebergLocal('{self.directory}', 'Parquet'){partition}"
        )

    # --- schema -------------------------------------------------------------------------------
    def add_column(self, name: str, t: str, default: Any) -> None:
        if default is not None:
            raise Unsupported("initial defaults are v3, which ClickHouse does not write")
        self.alter(f"ADD COLUMN {column_sql(name, t)}")

    def move_column(self, name: str, after: str | None) -> None:
        t = next(f["type"] for f in self.schema_fields() if f["name"] == name)
        self.alter(
            f"MODIFY COLUMN {quote(name)} {_nullable(t)} {'FIRST' if after is None else f'AFTER {quote(after)}'}"
        )

    def widen_column(self, name: str, t: str) -> None:
        self.alter(f"MODIFY COLUMN {column_sql(name, t)}")


def _nullable(iceberg: Any) -> str:
    """The Nullable ClickHouse type of a primitive Iceberg type string of the table's schema."""
    names = {
        "int": "Int32",
        "long": "Int64",
        "float": "Float32",
        "double": "Float64",
        "date": "Date32",
        "string": "String",
        "timestamp": "DateTime64(6)",
        "timestamptz": "DateTime64(6, 'UTC')",
    }
    if isinstance(iceberg, str) and iceberg.startswith("decimal("):
        return "Nullable(Decimal" + iceberg[len("decimal") :] + ")"
    if iceberg not in names:
        raise Unsupported(f"the harness moves no ClickHouse column of Iceberg type {iceberg!r}")
    return f"Nullable({names[iceberg]})"


if __name__ == "__main__":
    serve()
