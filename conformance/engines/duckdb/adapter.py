"""DuckDB with its Iceberg extension as a conformance adapter: its bucket and truncate functions.

The Iceberg and Avro extensions come from the PyPI packages `duckdb-extension-iceberg` and
`duckdb-extension-avro` (pinned to DuckDB's version). Each wheel holds a single signed extension
binary, `<package>/extensions/v<duckdb version>/<name>.duckdb_extension`. `start()` loads those
files by path with `LOAD '<file>'` on a connection whose extension auto-install and auto-load are
off, so nothing is downloaded at run time and `~/.duckdb` is neither read nor written. DuckDB
checks the signatures (unsigned extensions stay disallowed).

What the Iceberg extension offers for the value rules (its function list, `duckdb_functions()`):
the partition transforms DuckDB uses when it writes a partitioned table,

* `iceberg_bucket(n INTEGER, v)` for INTEGER, BIGINT, DECIMAL, DATE, TIME, TIMESTAMP,
  TIMESTAMP WITH TIME ZONE, TIMESTAMP_NS, VARCHAR, BLOB and UUID values;
* `iceberg_truncate(w INTEGER, v)` for INTEGER, BIGINT, DECIMAL, VARCHAR and BLOB values.

So the adapter answers the `transform` op for bucket[N] and truncate[W] only, and
`read-table-metadata` in part: `iceberg_snapshots(<metadata file>)` reads a metadata document's
snapshots (id, sequence number, timestamp, manifest list), and only those are compared
(`partial_view`); and `read-manifest-tree` in part (see `answer_read_manifest_tree`); the other
transforms (identity, void, year, month, day, hour), the hash itself (the bucket number loses the
sign bit), type parsing and single-value (de)serialization are reported as unsupported, as are
source types DuckDB cannot hold (`timestamptz_ns` and the other v3 types). DuckDB's own `hash()`
and date functions are not Iceberg's and are not used to stand in.

And `read-table`: a golden table written to local disk (`golden_tables`), read with
`SELECT * FROM iceberg_scan('<metadata file>', snapshot_from_id := <id>)`, plus the virtual columns
`_row_id` and `_last_updated_sequence_number` for format-version 3 tables (the extension computes
them from row lineage). DuckDB plans the deletes and projects the columns itself. The extension
can crash the process on some tables (a segmentation fault), so these reads run in a child
process (`child_reads.ChildProcessReads`); a crash is the error of the case being read, and the remaining cases
go to a new child.

Cases are batched: those sharing a source type and a transform become one query over a list
parameter; when it fails, its values are retried one by one. Iceberg types travel as their natural
DuckDB types (`fixed[L]` and `binary` as BLOB, `timestamptz` as TIMESTAMP WITH TIME ZONE in UTC).
"""

from __future__ import annotations

import json
import re
import tempfile
from datetime import UTC
from importlib import metadata
from pathlib import Path
from typing import Any

from spec_impl.types import DecimalType, FixedType, IcebergType, parse_type
from spec_impl.ops.encoding import decode

from conformance.engines import child_reads, golden_tables, tree_files
from conformance.engines.base import EngineAnswer, EngineUnavailable
from conformance.engines.columnar import ColumnEngine, transform_answer

DUCKDB_VERSION = "1.5.5"
# (distribution, import package, extension name); Iceberg needs Avro to read manifests.
EXTENSIONS = (
    ("duckdb-extension-avro", "duckdb_extension_avro", "avro"),
    ("duckdb-extension-iceberg", "duckdb_extension_iceberg", "iceberg"),
)
_FUNCTIONS = {"bucket": "iceberg_bucket", "truncate": "iceberg_truncate"}
_SNAPSHOT_KEYS = ("snapshot-id", "sequence-number", "timestamp-ms", "manifest-list")
_PARAMETERIZED = re.compile(r"(bucket|truncate)\[(\d+)\]")
# What `iceberg_metadata` reports of a tree, and the spec's names for its enum strings. A string
# that is none of these is passed through, so that a wrong label shows up as a failure.
_TREE_MANIFEST_KEYS = ("manifest_path", "content", "sequence_number")
_STATUS = {"EXISTING": 0, "ADDED": 1, "DELETED": 2}
# DuckDB 1.5.5's iceberg_metadata() names a data file's content 0 "EXISTING" (the name status 0 has):
# a label of its SQL function, which the spec does not define; the manifest field it reads is 0.
_FILE_CONTENT = {"DATA": 0, "EXISTING": 0, "POSITION_DELETES": 1, "EQUALITY_DELETES": 2}
_MANIFEST_CONTENT = {"DATA": 0, "DELETES": 1, "DELETE": 1}  # DuckDB spells the spec's "deletes" DELETE

# Iceberg type -> (DuckDB type of the list parameter, SQL turning one element `x` into the value).
# Temporal values travel as their integer counts since the epoch.
_SIMPLE = {
    "boolean": ("BOOLEAN", "x"),
    "int": ("BIGINT", "CAST(x AS INTEGER)"),
    "long": ("BIGINT", "x"),
    "float": ("DOUBLE", "CAST(x AS FLOAT)"),
    "double": ("DOUBLE", "x"),
    "date": ("BIGINT", "CAST(DATE '1970-01-01' + CAST(x AS INTEGER) AS DATE)"),
    "time": ("BIGINT", "CAST(TIME '00:00:00' + to_microseconds(x) AS TIME)"),
    "timestamp": ("BIGINT", "make_timestamp(x)"),
    "timestamptz": ("BIGINT", "CAST(make_timestamp(x) AS TIMESTAMPTZ)"),
    "timestamp_ns": ("BIGINT", "make_timestamp_ns(x)"),
    "string": ("VARCHAR", "x"),
    "uuid": ("VARCHAR", "CAST(x AS UUID)"),
    "binary": ("BLOB", "x"),
}


def _place_tree(inp: dict[str, Any], root: Path) -> str:
    """Write a tree's files where DuckDB's `allow_moved_paths` looks for them; the metadata file's name.

    With `allow_moved_paths`, DuckDB takes the table directory and the metadata file's name, and
    replaces the metadata's `location` prefix in every path with that directory. So each file goes
    to `<root>/<path after the location>`. The location is read from the metadata JSON with the
    `json` module: plumbing, not a reading. Files outside the location are left out (DuckDB could
    not reach them; it reports any it misses).
    """
    files = tree_files.decode_files(inp)
    location = tree_files.metadata_document(files, inp["metadata-location"])["location"].rstrip("/")
    directory, _, name = inp["metadata-location"].rpartition("/")
    if directory != location + "/metadata":
        raise ValueError(
            f"DuckDB needs the metadata file under <location>/metadata/; it is {inp['metadata-location']!r}"
        )
    for path, data in files.items():
        target = (root / path[len(location) :].lstrip("/")).resolve()
        if path.startswith(location + "/") and target.is_relative_to(root):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return name


def pip_command(*, with_duckdb: bool = False) -> str:
    dists = (["duckdb"] if with_duckdb else []) + [dist for dist, _, _ in EXTENSIONS]
    return "pip install " + " ".join(f"{dist}=={DUCKDB_VERSION}" for dist in dists)


def extension_file(dist: str, package: str, name: str) -> Path:
    """The extension binary a `duckdb-extension-*` wheel installed (EngineUnavailable if absent)."""
    try:
        files = metadata.distribution(dist).files or []
    except metadata.PackageNotFoundError:
        raise EngineUnavailable(
            f"duckdb: the package {dist!r} (DuckDB's {name} extension) is not installed; "
            f"install it with: {pip_command()}"
        ) from None
    wanted = f"{package}/extensions/v{DUCKDB_VERSION}/{name}.duckdb_extension"
    for f in files:
        if str(f).replace("\\", "/") == wanted:
            path = Path(f.locate()).resolve()
            if path.is_file():
                return path
    raise EngineUnavailable(
        f"duckdb: {dist} does not hold {wanted} (is it version {DUCKDB_VERSION}?); reinstall it with: {pip_command()}"
    )


class DuckDBEngine(child_reads.ChildProcessReads, ColumnEngine):
    """DuckDB with its Iceberg and Avro extensions loaded; no value op claimed (see the module doc)."""

    case_errors = (Exception,)  # DuckDB raises its own error classes and Python's for refused input

    name = "duckdb"
    crash_label = "DuckDB"
    # what `iceberg_metadata` reports of a tree (see `answer_read_manifest_tree`)
    tree_keys = ((), _TREE_MANIFEST_KEYS, tree_files.ENTRY_KEYS_OWN)
    data_file_formats = frozenset({"parquet"})
    format_limit = "DuckDB's iceberg extension raises 'File format ... not supported, only supports parquet currently'"
    distribution = "duckdb"
    capabilities = frozenset({"transform", "read-table-metadata", tree_files.OP, "read-table"})

    def __init__(self) -> None:
        self._con: Any = None
        self._versions: dict[str, str] = {}

    def start(self) -> None:
        why = " (the extension packages are built for one DuckDB version)"
        duckdb = self.require("duckdb", DUCKDB_VERSION, pip_command(with_duckdb=True), why)
        files = [(name, extension_file(dist, package, name)) for dist, package, name in EXTENSIONS]
        con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
        try:
            for name, path in files:
                try:
                    con.execute("LOAD '" + str(path).replace("'", "''") + "'")
                except duckdb.Error as e:
                    raise EngineUnavailable(f"duckdb: cannot load the {name} extension from {path}: {e}") from None
            con.execute("SET TimeZone = 'UTC'")
            rows = con.execute(
                "SELECT extension_name, extension_version FROM duckdb_extensions() "
                "WHERE loaded AND extension_name IN ('iceberg', 'avro')"
            ).fetchall()
        except BaseException:
            con.close()
            raise
        self._versions = {"duckdb": duckdb.__version__, **{n: v for n, v in rows}}
        self._con = con

    def stop(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    @property
    def version(self) -> str:
        if not self._versions:
            return super().version
        extensions = ", ".join(f"{n} extension {v}" for n, v in sorted(self._versions.items()) if n != "duckdb")
        return f"{self._versions['duckdb']} ({extensions})"

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        why = super().unsupported(op, inp)
        if why is not None or op in ("read-table-metadata", tree_files.OP, "read-table"):
            return why
        if not _PARAMETERIZED.fullmatch(inp["transform"]):
            return (
                f"DuckDB's iceberg extension has no {inp['transform']!r} transform function "
                "(only iceberg_bucket and iceberg_truncate)"
            )
        t = inp["type"]
        if not (isinstance(t, str) and (t in _SIMPLE or t.startswith(("decimal", "fixed")))):
            return f"DuckDB has no type for Iceberg's {t}"
        return None

    def validates(self, op: str) -> bool:
        return op not in ("read-table-metadata", tree_files.OP)

    def partial_view(self, op: str, output: Any) -> Any:
        """DuckDB reads only the snapshots of a metadata file (`iceberg_snapshots`): compare those."""
        if op != "read-table-metadata":
            return super().partial_view(op, output)
        return {
            "snapshots": sorted(
                ({k: s[k] for k in _SNAPSHOT_KEYS} for s in output["snapshots"]), key=lambda s: s["snapshot-id"]
            )
        }

    def answer_read_table_metadata(self, inp: dict[str, Any]) -> EngineAnswer:
        return self._read_snapshots(inp["document"])

    # read-table, in child processes (`child_reads`, `python -m conformance.engines.duckdb.adapter`):
    # a crash is the error of the case being read, and a new child takes the rest.

    def table_request(self, table: golden_tables.GoldenTable, snapshot_id: int) -> dict[str, Any]:
        return {"metadata": table.metadata_location, "snapshot-id": snapshot_id, "lineage": table.format_version >= 3}

    def restart_after(self, answer: EngineAnswer) -> bool:
        """After an internal or fatal error DuckDB refuses every later query of its database: a new
        child takes the rest."""
        return not answer.ok and (answer.error or "").startswith(("FatalException", "InternalException"))

    def read_request(self, request: dict[str, Any]) -> EngineAnswer:
        """One snapshot's rows through `iceberg_scan`, on a cursor of its own (a failed query
        leaves its transaction aborted)."""
        from spec_impl.ops.golden_tables import table_rows

        lineage = ", _row_id, _last_updated_sequence_number" if request["lineage"] else ""
        cursor = self._con.cursor()
        try:
            query = f"SELECT *{lineage} FROM iceberg_scan(?, snapshot_from_id := ?)"
            return EngineAnswer(
                True, table_rows(cursor.execute(query, [request["metadata"], request["snapshot-id"]]).to_arrow_table())
            )
        except Exception as e:  # duckdb.Error, or a value table_rows has no form for
            return EngineAnswer(False, error=f"{type(e).__name__}: {e}")
        finally:
            cursor.close()

    def answer_read_manifest_tree(self, inp: dict[str, Any]) -> EngineAnswer:
        """`iceberg_metadata` over the case's files, written under a temporary table directory.

        `iceberg_metadata` has eight columns: the manifest path, sequence number and content, and
        each entry's status, content, file path, format and record count. So the snapshot id and
        sequence number, the manifests' spec id, min sequence number, added snapshot id and
        first_row_id, and the entries' snapshot id, sequence numbers and first_row_id are not
        compared, and rejections are not judged (`validates`): DuckDB shows no entry sequence
        number, so it cannot be asked to reject a missing one. Manifests are known only through
        their entries (a manifest without entries would not show), in the order of DuckDB's rows.
        """
        with tempfile.TemporaryDirectory() as tmp:
            try:
                name = _place_tree(inp, Path(tmp).resolve())
            except Exception as e:  # a file missing, JSON that does not parse, a path outside the location
                return EngineAnswer(
                    False, error=f"the adapter cannot place the tree for DuckDB: {type(e).__name__}: {e}"
                )
            args = [tmp, name]
            snapshot = ""
            if inp.get("snapshot-id") is not None:
                snapshot, args = ", snapshot_from_id := ?", args + [inp["snapshot-id"]]
            try:
                rows = self._con.execute(
                    "SELECT manifest_path, manifest_sequence_number, manifest_content, status, content, file_path, "
                    "record_count FROM iceberg_metadata(?, allow_moved_paths := true, version := ?, "
                    f"version_name_format := '%s%s'{snapshot})",
                    args,
                ).fetchall()
            except Exception as e:  # duckdb.Error
                return EngineAnswer(False, error=f"{type(e).__name__}: {e}")
        manifests: list[dict[str, Any]] = []
        entries = []
        for manifest_path, sequence_number, manifest_content, status, content, file_path, record_count in rows:
            if not manifests or manifests[-1]["manifest_path"] != manifest_path:
                manifests.append(
                    {
                        "manifest_path": manifest_path,
                        "content": _MANIFEST_CONTENT.get(manifest_content, manifest_content),
                        "sequence_number": sequence_number,
                    }
                )
            entries.append(
                {
                    "manifest_path": manifest_path,
                    "status": _STATUS.get(status, status),
                    "content": _FILE_CONTENT.get(content, content),
                    "file_path": file_path,
                    "record_count": record_count,
                }
            )
        return EngineAnswer(True, {"manifests": manifests, "entries": entries})

    def _read_snapshots(self, document: Any) -> EngineAnswer:
        """`iceberg_snapshots` over the document written to a temporary metadata file."""
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "v1.metadata.json"
            path.write_text(json.dumps(document))
            try:
                rows = self._con.execute(
                    "SELECT sequence_number, snapshot_id, timestamp_ms, manifest_list FROM iceberg_snapshots(?)",
                    [str(path)],
                ).fetchall()
            except Exception as e:  # duckdb.Error
                return EngineAnswer(False, error=f"{type(e).__name__}: {e}")
        snapshots = [
            {
                "snapshot-id": sid,
                "sequence-number": seq,
                "manifest-list": ml,
                "timestamp-ms": round(ts.replace(tzinfo=UTC).timestamp() * 1000),
            }
            for seq, sid, ts, ml in rows
        ]
        return EngineAnswer(True, {"snapshots": sorted(snapshots, key=lambda s: s["snapshot-id"])})

    def prepare(self, inp: dict[str, Any]) -> tuple:
        source = parse_type(inp["type"])
        return inp["transform"], source, self._query(inp["transform"], source)

    def value(self, prepared: tuple, inp: dict[str, Any]) -> Any:
        return self._transport(prepared[1], decode(prepared[1], inp["value"]))

    def call(self, prepared: tuple, values: list[Any]) -> list[Any]:
        return [row[0] for row in self._con.execute(prepared[2], [values]).fetchall()]

    def _query(self, text: str, source: IcebergType) -> str:
        """The query applying a transform to every element of the list parameter, in order."""
        m = _PARAMETERIZED.fullmatch(text)
        if not m:
            raise ValueError(
                f"DuckDB's iceberg extension has no {text!r} transform (it has iceberg_bucket and iceberg_truncate)"
            )
        param = int(m.group(2))
        if param > 2**31 - 1:
            raise ValueError(f"{text}: the parameter does not fit {_FUNCTIONS[m.group(1)]}'s INTEGER argument")
        list_type, value_sql = self._duckdb_type(source)
        return (
            f"SELECT {_FUNCTIONS[m.group(1)]}(CAST({param} AS INTEGER), {value_sql}) "
            f"FROM (SELECT unnest(CAST($1 AS {list_type}[])) AS x, "
            f"generate_subscripts(CAST($1 AS {list_type}[]), 1) AS i) "
            f"ORDER BY i"
        )

    def _duckdb_type(self, t: IcebergType) -> tuple[str, str]:
        if isinstance(t, DecimalType):
            return "VARCHAR", f"CAST(x AS DECIMAL({t.precision}, {t.scale}))"
        if isinstance(t, FixedType):
            return "BLOB", "x"
        name = getattr(t, "name", None)
        if name not in _SIMPLE:
            raise ValueError(f"DuckDB has no type for Iceberg's {t}")
        return _SIMPLE[name]

    @staticmethod
    def _transport(t: IcebergType, value: Any) -> Any:
        """A physical value as an element of the query's list parameter."""
        if value is None:
            return None
        if isinstance(t, DecimalType):
            return format(value, "f")
        if getattr(t, "name", None) == "uuid":
            return str(value)
        return value

    def to_answer(self, prepared: tuple, result: Any) -> EngineAnswer:
        text, source, _ = prepared
        return transform_answer(text, source, self.revision, result)


if __name__ == "__main__":
    child_reads.serve(DuckDBEngine)
