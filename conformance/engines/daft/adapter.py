"""Daft as a conformance adapter: its native Iceberg partition transforms, and table reads.

What Daft (0.7.26) offers for the value rules, read from its package:

* The partition transforms of its Iceberg writer (`daft.io.iceberg.iceberg_write`), as native
  expression methods: `partition_iceberg_bucket(n)`, `partition_iceberg_truncate(w)`,
  `partition_years()`, `partition_months()`, `partition_days()` (a Date column) and
  `partition_hours()`. The adapter answers the `transform` op with them. There is no void
  transform (the writer warns "not implemented" for it) and no identity function (the writer
  uses the column itself, so an answer would only echo the input); there is no transform parser,
  so a transform string other than `bucket[N]`, `truncate[W]`, `year`, `month`, `day` and `hour`
  is declined, as are the Iceberg types Daft has no dtype for (variant, geometry, geography, the
  nested types). Where the spec accepts a source type but Daft's planner refuses its dtype
  (bucket of Time, FixedSizeBinary and UUID, i.e. `time`, `fixed[L]` and `uuid`), the case is
  declined with Daft's own message; where the spec rejects it too, Daft's refusal is its answer.
* `Expression.hash(seed=0, hash_function="murmurhash3")` is a generic 32-bit murmur3 (x86) of each
  value's native bytes, as an unsigned 64-bit column. It agrees with Appendix B for long, string,
  binary, fixed, uuid, time and the microsecond timestamps, but not for int and date (hashed as 4
  bytes: int 34 gives -1928742653, not 2017239379), decimal (14.20 gives -1660625346, not
  -500754589), the nanosecond timestamps (hashed as nanoseconds: the seed text's values, not the
  adopted spec's), boolean, float (4 bytes), -0.0 (not canonicalized) and null (0, not null).
  Without `seed` the seed is not 0, though its docstring says so. It is not Iceberg's hash, so the
  adapter does not claim the `hash` op (handing it Iceberg's byte forms would be the adapter
  computing the hash). The bucket transform hashes each type on its own.
* No single-value binary or JSON (de)serializer and no type parser of its own.

Values are handed to Daft as the Arrow arrays its Iceberg writer receives (PyIceberg's Arrow
schema): int Int32, long Int64, date Date32, time Time64(us), timestamp[tz] Timestamp(us[, UTC]),
timestamp[tz]_ns Timestamp(ns[, UTC]), string, binary, fixed[L] FixedSizeBinary(L), uuid the
Arrow UUID extension, unknown Null, boolean, float, double. Decimals go through Daft's own
conversion (`Series.from_pylist(..., dtype=decimal128(P, S))`), so that a value of another scale
is Daft's to accept, round or reject. Cases are batched: one Daft DataFrame per (source type,
transform); when it fails, its values are retried one by one. Results are encoded as the
transform's result type (`day` as a date, per the adopted spec). A Rust panic inside Daft (it
panics on timestamps outside its calendar range) is the case's error, without the task number
that changes from run to run.

Tables (`read-table`): a golden table written to local disk (`golden_tables`) is read with
`daft.read_iceberg(StaticTable.from_metadata(<metadata file>), snapshot_id=...).to_arrow()`. Daft
plans the scan through PyIceberg (file listing, the delete files of each task) but reads the
Parquet files and applies the deletes with its own native reader (it passes every delete file of
a task to the reader as a position-delete file). Daft 0.7.26 has no row lineage columns, so
`_row_id` and `_last_updated_sequence_number` are left out of v3 expectations (`partial_view`).
A read that raises is that case's error.
"""

from __future__ import annotations

import re
from typing import Any

from spec_impl import transforms
from spec_impl.errors import SpecError
from spec_impl.types import DecimalType, IcebergType, parse_type
from spec_impl.ops.encoding import decode

from conformance.engines import golden_tables
from conformance.engines.base import EngineAnswer, EngineUnavailable
from conformance.engines.columnar import ColumnEngine, arrow_type, transform_answer

DAFT_VERSION = "0.7.26"
_PARAMETERIZED = re.compile(r"(bucket|truncate)\[(0|[1-9][0-9]*)\]")
_TASK_NUMBER = re.compile(r"\btask \d+ panicked")
_TEMPORAL = {"year": "partition_years", "month": "partition_months", "day": "partition_days", "hour": "partition_hours"}
_PARAMETER_METHODS = {"bucket": "partition_iceberg_bucket", "truncate": "partition_iceberg_truncate"}
_LACKS = {
    "identity": "Daft has no identity transform function (its Iceberg writer partitions by the column itself)",
    "void": "Daft has no void transform (its Iceberg writer warns that it is not implemented)",
}


class DaftEngine(ColumnEngine):
    """Daft's native Iceberg partition transforms and its Iceberg reader (`read_iceberg`)."""

    case_errors = (Exception,)  # Daft raises its own error classes and Python's for refused input

    name = "daft"
    data_file_formats = frozenset({"parquet"})
    format_limit = "Daft raises 'FileFormat.AVRO for iceberg not implemented!' (and the same for ORC)"
    distribution = "daft"
    # Daft's `read_iceberg` has no `_row_id` or `_last_updated_sequence_number` column (nor any other
    # way to read row lineage): read-table compares the other columns
    reads_row_lineage = False
    capabilities = frozenset({"transform", "read-table"})

    def __init__(self) -> None:
        self._daft: Any = None
        self._pa: Any = None
        self._static_table: Any = None
        self._refusals: dict[tuple[str, str], str | None] = {}

    def start(self) -> None:
        daft = self.require("daft", DAFT_VERSION, f"pip install daft=={DAFT_VERSION}")
        try:
            import pyarrow
            from pyiceberg.table import StaticTable
        except ImportError as e:
            raise EngineUnavailable(
                f"daft: cannot import its dependencies ({e}); install pyarrow and pyiceberg"
            ) from None
        missing = [m for m in (*_TEMPORAL.values(), *_PARAMETER_METHODS.values()) if not hasattr(daft.Expression, m)]
        if missing or not hasattr(daft, "read_iceberg"):
            raise EngineUnavailable(f"daft {daft.__version__}: no {', '.join(missing or ['read_iceberg'])}")
        self._daft, self._pa, self._static_table = daft, pyarrow, StaticTable

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        why = super().unsupported(op, inp)
        if why is not None or op != "transform":
            return why
        text = inp["transform"]
        if text in _LACKS:
            return _LACKS[text]
        if not (_PARAMETERIZED.fullmatch(text) or text in _TEMPORAL):
            return (
                f"Daft has no transform parser and no function for {text!r} (it has partition_iceberg_bucket, "
                "partition_iceberg_truncate, partition_years/months/days/hours)"
            )
        try:
            source = parse_type(inp["type"])
            self._arrow_type(source)
        except (SpecError, ValueError) as e:
            return str(e)
        try:
            if not transforms.accepts(text, source, self.revision):
                return None  # the spec rejects the source type: Daft's answer (a refusal, or not) is judged
        except SpecError:
            return None  # the spec rejects the parameter (bucket[0]): likewise
        refusal = self._refusal(text, source)
        return f"Daft's planner refuses the input for {text} of {source}: {refusal}" if refusal else None

    def _refusal(self, text: str, source: IcebergType) -> str | None:
        """Daft's plan-time type error for the transform over the source type's dtype, or None."""
        if self._daft is None:
            return None  # not started: the cases are skipped as unavailable anyway
        key = (text, str(source))
        if key not in self._refusals:
            try:  # one null value: Daft panics on an empty UUID column
                frame = self._daft.from_arrow(self._pa.table({"v": self._pa.array([None], self._arrow_type(source))}))
                frame.select(self._expression(text, self._daft.col("v")))
                self._refusals[key] = None
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # DaftCoreException with the planner's TypeError; a panic is a BaseException
                message = " ".join(str(e).split())
                at = message.find("DaftError::TypeError")
                self._refusals[key] = message[at:] if at >= 0 else message
        return self._refusals[key]

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        """One snapshot's rows as `daft.read_iceberg` returns them."""
        from spec_impl.ops.golden_tables import table_rows

        frame = self._daft.read_iceberg(
            self._static_table.from_metadata(table.metadata_location), snapshot_id=snapshot_id
        )
        return table_rows(frame.to_arrow())

    def rejection(self, error: BaseException) -> EngineAnswer:
        """PyIceberg's planning errors, Daft's reader errors, a value table_rows has no form for: on
        one line, without what changes between runs."""
        return EngineAnswer.rejection(_stable(f"{type(error).__name__}: {' '.join(str(error).split())[:1000]}"))

    # The transform op, through ColumnEngine: prepare / value / call / to_answer.

    def prepare(self, inp: dict[str, Any]) -> tuple:
        source = parse_type(inp["type"])
        return inp["transform"], source, self._arrow_type(source)

    def value(self, prepared: tuple, inp: dict[str, Any]) -> Any:
        value = decode(prepared[1], inp["value"])
        return value.bytes if value is not None and getattr(prepared[1], "name", None) == "uuid" else value

    def call(self, prepared: tuple, values: list[Any]) -> list[Any]:
        text, source, arrow_type = prepared
        daft, pa = self._daft, self._pa
        try:
            if isinstance(source, DecimalType):  # Daft's own conversion of Python Decimals to its dtype
                dtype = daft.DataType.decimal128(source.precision, source.scale)
                series = daft.Series.from_pylist(values, name="v", dtype=dtype)
            else:
                series = daft.Series.from_arrow(pa.array(values, arrow_type), name="v")
            frame = daft.from_pydict({"v": series}).select(self._expression(text, daft.col("v")).alias("r"))
            column = frame.to_arrow().column("r")
        except (Exception, KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # a Rust panic may arrive as pyo3's PanicException, a BaseException
            raise RuntimeError(f"{type(e).__name__}: {e}") from None
        if pa.types.is_date(column.type):  # partition_days: a Date column, read as days from the epoch
            column = column.cast(pa.int32())
        return column.to_pylist()

    def _answer(self, prepared: Any, result: Any) -> EngineAnswer:
        """As ColumnEngine's, with the number of a panicking task (a counter of the session) left
        out of the error, so that the same panic gives the same message in every run."""
        if isinstance(result, Exception):
            return EngineAnswer(False, error=_stable(f"{type(result).__name__}: {result}"))
        return super()._answer(prepared, result)

    def _expression(self, text: str, column: Any) -> Any:
        m = _PARAMETERIZED.fullmatch(text)
        if m:
            return getattr(column, _PARAMETER_METHODS[m.group(1)])(int(m.group(2)))
        return getattr(column, _TEMPORAL[text])()

    def to_answer(self, prepared: tuple, result: Any) -> EngineAnswer:
        text, source, _ = prepared
        return transform_answer(text, source, self.revision, result)

    def _arrow_type(self, t: IcebergType) -> Any:
        """The Arrow type Daft receives for an Iceberg type (as Daft's writer casts to it); unknown as null."""
        return self._pa.null() if getattr(t, "name", None) == "unknown" else arrow_type(t)


def _stable(message: str) -> str:
    """An error message without the number of a panicking task (a counter of the session)."""
    return _TASK_NUMBER.sub("task panicked", message)
