"""chDB (ClickHouse embedded in Python) as a conformance adapter: its Iceberg reader and functions.

chDB 4.4.0 embeds ClickHouse 26.9.2.1. What it offers for Iceberg, read from `system.functions`,
`system.table_functions`, `system.settings` and `system.tables`:

* `icebergHash(v)`, documented as Iceberg's 32-bit murmur3 hash: the adapter answers the `hash`
  op with it. It takes integers, Bool, Decimal, Float32/64, String, FixedString, UUID, Date/Date32
  and DateTime64 of scale 6 or 9 (nanoseconds hashed as microseconds, the adopted v3 rule); it
  rejects ClickHouse's Time/Time64 (although documented) and DateTime.
* `icebergBucket(N, v)` and `icebergTruncate(W, v)`: bucket[N] and truncate[W]. For year, month,
  day and hour, ClickHouse's Iceberg code (partition pruning, and the `PARTITION BY` expressions it
  writes as Iceberg transforms) uses `toYearNumSinceEpoch`, `toMonthNumSinceEpoch`,
  `toRelativeDayNum` and `toRelativeHourNum`; chDB 4.4 has no `icebergYear`-like function. Those
  four answer year/month/day/hour. (Their pre-1970 results are wrong. On a day-partitioned table,
  `WHERE d = '1969-12-31'` then returns no rows. With `use_iceberg_partition_pruning = 0`, it
  returns the row.) So `transform` is answered for bucket, truncate, year, month, day and hour.
  identity and void have no function (ClickHouse copies or skips the column); they and any other
  spelling are unsupported.
* Table functions `icebergLocal` (and `iceberg`, `icebergS3`, `icebergAzure`, `icebergHDFS`, their
  `*Cluster` forms); settings `iceberg_snapshot_id` and `iceberg_timestamp_ms` (time travel) and the
  storage setting `iceberg_metadata_file_path`. Metadata shows only for tables created with the
  `IcebergLocal` *engine*: `system.iceberg_history` (snapshot id, parent, operation, time) and
  `system.iceberg_files` (content, path, record count, sequence number, partition, equality ids,
  first_row_id). The adapter claims no metadata op.

Values travel as literals of the ClickHouse type that ClickHouse's Iceberg reader gives each Iceberg
type (`DESCRIBE icebergLocal(...)`): int Int32, long Int64, float Float32 and double Float64 (from
their IEEE 754 bits: NaN payloads and -0.0 survive), boolean Bool, decimal(P,S) Decimal(P,S) (CAST
from text, which drops digits beyond S and does not check P), date Date32, timestamp and timestamptz
DateTime64(6), timestamp_ns and timestamptz_ns DateTime64(9), string and binary String (one type for
both: truncate counts a binary's UTF-8 code points), fixed[L] FixedString(L), uuid UUID. A date or
timestamp outside the documented range of Date32/DateTime64 (1900-01-01 .. 2299-12-31) is
unsupported. So are time (no ClickHouse type: icebergHash rejects Time64, and the reader uses
Int64), unknown, variant, geometry, geography and nested types. Cases are batched: one `arrayMap`
query per source type and transform, retried value by value when it fails.

Tables (`read-table`): a golden table written to local disk (`golden_tables`) is read with `SELECT *
FROM icebergLocal('<dir>', SETTINGS iceberg_metadata_file_path = '<metadata file>') SETTINGS
iceberg_snapshot_id = <id>` as Arrow. For format-version 3 tables, the query also reads ClickHouse's
virtual columns `_row_id` and `_last_updated_sequence_number` (UInt64, which its reader derives from
row lineage), so nothing is left out (no `partial_view`). ClickHouse's Arrow types: long int64, int
int32, float/double float32/float64 (NaN as NaN), decimal decimal128(P,S), date date32, timestamptz
timestamp[us, UTC], timestamp/timestamp_ns a timestamp in the session zone (set to UTC), uuid the
`arrow.uuid` extension, fixed fixed_size_binary, string string, binary *string*, time int64 of whole
seconds from midnight (ClickHouse reads the Parquet TIME as DateTime64 and casts it to Int64
seconds: the microseconds are lost). Structs, lists and maps are never nullable (Tuple, Array, Map:
the reader does not use Nullable(Tuple), even with `enable_nullable_tuple_type` on). So a null
struct reads as a struct of nulls, and a null map or list as an empty one. Those are wrong values,
and the adapter leaves them as they are. Only representation differences are converted, by the
column's Iceberg type in the snapshot's schema (read from the metadata JSON: plumbing, no rule
applied): binary string -> binary, top-level time seconds -> time64[us] (a lost fraction still
shows), timestamp[_ns] with a zone -> without. chDB reads only files under its working directory. So
each child process that reads (`python -m conformance.engines.chdb.adapter`) runs in the tables'
common directory. A crash is the error of the case being read, and a new child takes the rest.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.types import DecimalType, FixedType, IcebergType, parse_type
from spec_impl.ops.encoding import decode, float_bits

from conformance.engines import child_reads, golden_tables
from conformance.engines.base import EngineAnswer, EngineUnavailable
from conformance.engines.columnar import ColumnEngine, transform_answer

CHDB_VERSION = "4.4.0"
_FUNCTIONS = ("icebergHash", "icebergBucket", "icebergTruncate", "toYearNumSinceEpoch", "toMonthNumSinceEpoch")
_PARAMETERIZED = re.compile(r"(bucket|truncate)\[(0|[1-9][0-9]*)\]")  # ClickHouse judges the parameter's range
_TEMPORAL = {
    "year": "toYearNumSinceEpoch(x)",
    "month": "toMonthNumSinceEpoch(x)",
    "day": "toRelativeDayNum(x)",
    "hour": "toRelativeHourNum(x)",
}
_UTC = " SETTINGS session_timezone = 'UTC'"

# The documented ranges of Date32 and DateTime64 (1900-01-01 .. 2299-12-31; 2262-04-11 at scale 9): days, micros, nanos.
_DAYS = (-25567, 120529)
_MICROS = (_DAYS[0] * 86_400_000_000, (_DAYS[1] + 1) * 86_400_000_000 - 1)
_NANOS = (_DAYS[0] * 86_400_000_000_000, 2**63 - 1)
_TS6, _TS9 = "DateTime64(6, 'UTC')", "DateTime64(9, 'UTC')"

# Iceberg type -> (ClickHouse type, SQL literal of a physical value `v`, the range the ClickHouse type holds or None).
_SIMPLE: dict[str, tuple[str, Any, tuple[int, int] | None]] = {
    "boolean": ("Bool", lambda v: "true" if v else "false", None),
    "int": ("Int32", lambda v: f"toInt32({int(v)})", None),
    "long": ("Int64", lambda v: f"toInt64({int(v)})", None),
    "float": ("Float32", lambda v: f"reinterpretAsFloat32(toUInt32({int(float_bits('float', v), 16)}))", None),
    "double": ("Float64", lambda v: f"reinterpretAsFloat64(toUInt64({int(float_bits('double', v), 16)}))", None),
    "date": ("Date32", lambda v: f"addDays(toDate32('1970-01-01'), {int(v)})", _DAYS),
    "timestamp": (_TS6, lambda v: f"fromUnixTimestamp64Micro(toInt64({int(v)}), 'UTC')", _MICROS),
    "timestamptz": (_TS6, lambda v: f"fromUnixTimestamp64Micro(toInt64({int(v)}), 'UTC')", _MICROS),
    "timestamp_ns": (_TS9, lambda v: f"fromUnixTimestamp64Nano(toInt64({int(v)}), 'UTC')", _NANOS),
    "timestamptz_ns": (_TS9, lambda v: f"fromUnixTimestamp64Nano(toInt64({int(v)}), 'UTC')", _NANOS),
    "string": ("String", lambda v: f"unhex('{v.encode('utf-8').hex()}')", None),
    "binary": ("String", lambda v: f"unhex('{bytes(v).hex()}')", None),
    "uuid": ("UUID", lambda v: f"toUUID('{v}')", None),
}


def _clickhouse_type(t: IcebergType) -> tuple[str, Any, tuple[int, int] | None]:
    if isinstance(t, DecimalType):
        ch_type = f"Decimal({t.precision}, {t.scale})"
        return ch_type, lambda v: f"CAST('{format(v, 'f')}' AS {ch_type})", None
    if isinstance(t, FixedType):
        return f"FixedString({t.length})", lambda v: f"toFixedString(unhex('{bytes(v).hex()}'), {t.length})", None
    name = getattr(t, "name", None)
    if name == "time":  # the reader's Int64 holds whole seconds; icebergHash rejects Time and Time64
        raise ValueError(
            "chDB has no type for Iceberg's time (its reader reads it as Int64 seconds; icebergHash rejects Time64)"
        )
    if name not in _SIMPLE:
        raise ValueError(f"chDB has no type for Iceberg's {t}")
    return _SIMPLE[name]


def _error(e: BaseException) -> str:
    """An exception's message without ClickHouse's stack trace."""
    text = " ".join(str(e).split(", Stack trace")[0].split())
    return f"{type(e).__name__}: {text}"


def _position_deletes_on_other_formats(inp: dict[str, Any]) -> str | None:
    """chDB reads Avro and ORC data files, but applies position deletes (files or DVs) to Parquet
    data files only; it declines a snapshot with position deletes and files of another format."""
    files = golden_tables.snapshot_files(inp["table"], inp["snapshot-id"])
    if files is not None and files.position_deletes and files.formats - {"parquet"}:
        return (
            "chDB applies position deletes to Parquet data files only ('Position deletes are only supported for "
            "data files of Parquet format in Iceberg, but got AVRO' (or ORC))"
        )
    return None


class ChdbEngine(child_reads.ChildProcessReads, ColumnEngine):
    """chDB's Iceberg functions (`hash`, `transform`) and its `icebergLocal` reader (`read-table`)."""

    case_errors = (Exception,)  # chDB raises its own error classes and Python's for refused input

    name = "chdb"
    crash_label = "chDB"
    distribution = "chdb"
    capabilities = frozenset({"hash", "transform", "read-table"})

    def __init__(self) -> None:
        self._chdb: Any = None
        self._clickhouse = ""

    def start(self) -> None:
        chdb = self.require("chdb", CHDB_VERSION, f"pip install chdb=={CHDB_VERSION}")
        names = ", ".join(f"'{n}'" for n in _FUNCTIONS)
        found = (
            chdb.query(f"SELECT name FROM system.functions WHERE name IN ({names})", "ArrowTable")
            .column("name")
            .to_pylist()
        )
        if missing := [n for n in _FUNCTIONS if n not in found]:
            raise EngineUnavailable(f"chdb {chdb.__version__}: no {', '.join(missing)}")
        self._clickhouse = chdb.query("SELECT version() AS v", "ArrowTable").column("v")[0].as_py()
        self._chdb = chdb

    @property
    def version(self) -> str:
        version = super().version
        if version == "unknown":
            return version
        return f"{version} (ClickHouse {self._clickhouse})" if self._clickhouse else version

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        why = super().unsupported(op, inp)
        if why is not None:
            return why
        if op == "read-table":
            return _position_deletes_on_other_formats(inp)
        text = inp.get("transform")
        if op == "transform" and not (_PARAMETERIZED.fullmatch(text) or text in _TEMPORAL):
            return (
                f"chDB has no Iceberg function for the transform {text!r} "
                "(only bucket, truncate, year, month, day, hour)"
            )
        try:
            source = parse_type(inp["type"])
            ch_type, _, held = _clickhouse_type(source)
            value = decode(source, inp["value"])
        except (SpecError, ValueError) as e:
            return None if isinstance(e, SpecError) else str(e)  # a value that does not decode is the case's own error
        if held is not None and value is not None and not held[0] <= value <= held[1]:
            return f"ClickHouse's {ch_type} does not hold {inp['value']} (outside its documented range)"
        return None

    # --- hash and transform ------------------------------------------------------------------

    def group_key(self, inp: dict[str, Any]) -> str:
        return json.dumps([inp["type"], inp.get("transform")], sort_keys=True)

    def prepare(self, inp: dict[str, Any]) -> tuple:
        source = parse_type(inp["type"])
        text = inp.get("transform")
        ch_type, literal, _ = _clickhouse_type(source)
        if text is None:
            function = "icebergHash(x)"
        elif text in _TEMPORAL:
            function = _TEMPORAL[text]
        else:
            m = _PARAMETERIZED.fullmatch(text)
            if not m:
                raise ValueError(f"chDB has no Iceberg function for the transform {text!r}")
            function = f"{'icebergBucket' if m.group(1) == 'bucket' else 'icebergTruncate'}({m.group(2)}, x)"
        as_hex = (
            text is not None and text.startswith("truncate") and ch_type.startswith(("String", "FixedString"))
        )  # bytes
        return text, source, ch_type, literal, f"hex({function})" if as_hex else function

    def value(self, prepared: tuple, inp: dict[str, Any]) -> Any:
        value = decode(prepared[1], inp["value"])
        return "NULL" if value is None else prepared[3](value)

    def call(self, prepared: tuple, values: list[Any]) -> list[Any]:
        """One query: the function over an array of the values, in order."""
        _, _, ch_type, _, function = prepared
        array = f"CAST([{', '.join(values)}] AS Array(Nullable({ch_type})))"
        query = f"SELECT arrayMap(x -> {function}, {array}) AS r{_UTC}"
        results = self._chdb.query(query, "ArrowTable").column("r")[0].as_py()
        if len(results) != len(values):
            raise RuntimeError(f"chDB answered {len(results)} values for {len(values)}")
        return results

    def to_answer(self, prepared: tuple, result: Any) -> EngineAnswer:
        text, source, _, _, function = prepared
        value = result
        if text is None:
            return EngineAnswer(True, value)
        if value is not None and function.startswith("hex("):
            value = bytes.fromhex(value)
            if getattr(source, "name", None) == "string":
                try:
                    value = value.decode("utf-8")
                except UnicodeDecodeError:
                    return EngineAnswer(True, value.hex())  # not a string: shown raw, judged wrong
        return transform_answer(text, source, self.revision, value)

    # --- read-table ----------------------------------------------------------------------------

    # read-table, in child processes (`child_reads`, `python -m conformance.engines.chdb.adapter`):
    # a crash is the error of the case being read, and a new child takes the rest.

    def table_request(self, table: golden_tables.GoldenTable, snapshot_id: int) -> dict[str, Any]:
        return {
            "directory": str(table.directory),
            "metadata": table.metadata_path,
            "snapshot-id": snapshot_id,
            "lineage": table.format_version >= 3,
        }

    def child_directory(self, requests: list[dict[str, Any]]) -> str:
        """chDB's table functions read only files under the working directory (user_files_path
        "."): a child runs in the tables' common directory."""
        return os.path.commonpath([r["directory"] for r in requests])

    def read_request(self, request: dict[str, Any]) -> EngineAnswer:
        """One snapshot's rows through `icebergLocal` at `iceberg_snapshot_id`."""
        from spec_impl.ops.golden_tables import table_rows

        directory = request["directory"]
        metadata_file = os.path.relpath(request["metadata"], directory)
        lineage = ", _row_id, _last_updated_sequence_number" if request["lineage"] else ""
        source = f"icebergLocal({_quote(directory)}, SETTINGS iceberg_metadata_file_path = {_quote(metadata_file)})"
        query = (
            f"SELECT *{lineage} FROM {source} "
            f"SETTINGS iceberg_snapshot_id = {int(request['snapshot-id'])}, session_timezone = 'UTC'"
        )
        try:
            table = self._chdb.query(query, "ArrowTable")
        except Exception as e:  # ClickHouse's errors arrive as RuntimeError
            return EngineAnswer(False, error=_error(e))
        try:
            return EngineAnswer(True, table_rows(_as_iceberg(table, request["metadata"], request["snapshot-id"])))
        except Exception as e:  # a value table_rows has no form for, a cast that does not apply
            return EngineAnswer(False, error=f"the adapter cannot convert chDB's answer: {type(e).__name__}: {e}")


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _as_iceberg(table: Any, metadata_path: str, snapshot_id: int) -> Any:
    """ClickHouse's Arrow table with the representation differences undone (see the module doc),
    by the Iceberg type of each column: the snapshot's schema first, then the current, then older."""
    import pyarrow as pa
    import pyarrow.compute as pc

    document = json.loads(Path(metadata_path).read_text(encoding="utf-8"))
    schemas = {s["schema-id"]: s for s in document.get("schemas", [])}
    snapshot = next((s for s in document.get("snapshots", []) if s["snapshot-id"] == snapshot_id), {})
    order = [snapshot.get("schema-id"), document.get("current-schema-id"), *sorted(schemas)]
    types: dict[str, Any] = {}
    for schema_id in order:
        for field in schemas.get(schema_id, {}).get("fields", []):
            types.setdefault(field["name"], field["type"])
    target = pa.schema([f.with_type(_target(f.type, types.get(f.name), pa)) for f in table.schema])
    table = table if target.equals(table.schema) else table.cast(target)
    for i, f in enumerate(
        table.schema
    ):  # a time column: whole seconds from midnight, as a time (a lost fraction stays lost)
        if types.get(f.name) == "time" and pa.types.is_integer(f.type):
            seconds = table.column(i).cast(pa.int64())
            table = table.set_column(i, f.name, pc.multiply(seconds, 1_000_000).cast(pa.time64("us")))
    return table


def _target(arrow_type: Any, iceberg_type: Any, pa: Any) -> Any:
    """The Arrow type the row form expects for ClickHouse's `arrow_type` of an Iceberg type."""
    if isinstance(iceberg_type, str):
        if iceberg_type == "binary" and (pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)):
            return pa.binary()
        if iceberg_type in ("timestamp", "timestamp_ns") and pa.types.is_timestamp(arrow_type) and arrow_type.tz:
            return pa.timestamp(arrow_type.unit)
        return arrow_type
    kind = iceberg_type.get("type") if isinstance(iceberg_type, dict) else None
    if kind == "struct" and pa.types.is_struct(arrow_type):
        fields = {f["name"]: f["type"] for f in iceberg_type["fields"]}
        return pa.struct([f.with_type(_target(f.type, fields.get(f.name), pa)) for f in arrow_type])
    if kind == "list" and pa.types.is_list(arrow_type):
        return pa.list_(arrow_type.value_field.with_type(_target(arrow_type.value_type, iceberg_type["element"], pa)))
    if kind == "map" and pa.types.is_map(arrow_type):
        return pa.map_(
            arrow_type.key_field.with_type(_target(arrow_type.key_type, iceberg_type["key"], pa)),
            arrow_type.item_field.with_type(_target(arrow_type.item_type, iceberg_type["value"], pa)),
        )
    return arrow_type


if __name__ == "__main__":
    child_reads.serve(ChdbEngine)
