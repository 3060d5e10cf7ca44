"""Polars as a conformance adapter: Iceberg's 32-bit murmur3 hash, `Expr._mm3_hash()`, and table reads.

What Polars (2.1) offers for the value rules, read from its package:

* `Expr._mm3_hash()`, native code documented as "the 32-bit MurmurHash3 of the values, as
  specified by Iceberg", which Polars' Iceberg sink uses for the `bucket` transform. It hashes
  integers, Date, Time, Datetime (any time unit, as microseconds), Decimal, String and Binary; it
  rejects Boolean, Float32 and Float64. The adapter answers the `hash` op with it.
* Partition transforms, only as private helpers of the sink (`polars.io.iceberg._sink`: the
  partition-key expressions for identity, year, month, day, hour, truncate of int, long, string
  and binary, and bucket). There is no void transform and no decimal truncate, and the identity
  keys are an internal representation, so the adapter does not claim the `transform` op.
* No single-value binary or JSON (de)serializer, no type parser: `scan_iceberg`, `sink_iceberg`
  and `write_iceberg` go through PyIceberg for metadata, manifests and bounds.

Tables (`read-table`): a golden table written to local disk (`golden_tables`) is read with
`pl.scan_iceberg(<metadata file>, snapshot_id=...).collect()`. Polars plans the scan through
PyIceberg (its `polars_iceberg` planner plugin is not installed; the warning saying so is
silenced) and reads the Parquet files and deletes with its own reader. Polars 2.1 has no row
lineage columns, so `_row_id` and `_last_updated_sequence_number` are left out of v3
expectations (`partial_view`). A read that raises is that case's error.

Each Iceberg type is handed to Polars as the dtype Polars' Iceberg code gives it, with the casts
the sink applies before hashing (int and long as Int64, `fixed`, `binary` and `uuid` as Binary,
`timestamptz` as a UTC Datetime, `unknown` as Null, as PyIceberg's Arrow schema gives it);
boolean, float and double go in as Boolean, Float32 and Float64,
which `_mm3_hash` rejects. Cases are batched: one Series per type, or one call per value when the
batch fails.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

from spec_impl.types import DecimalType, FixedType, IcebergType, parse_type
from spec_impl.ops.encoding import decode

from conformance.engines import golden_tables
from conformance.engines.base import EngineAnswer, EngineUnavailable
from conformance.engines.columnar import ColumnEngine

POLARS_VERSION = "2.1.0"


class PolarsEngine(ColumnEngine):
    """Polars' Iceberg murmur3 hash (`Expr._mm3_hash`) and its Iceberg scan (`scan_iceberg`)."""

    case_errors = (Exception,)  # Polars raises its own error classes and Python's for refused input

    name = "polars"
    data_file_formats = frozenset({"orc", "parquet"})
    format_limit = (
        "Polars plans through PyIceberg 0.12, which reads Parquet and ORC files; it raises 'Unsupported file "
        "format: FileFormat.AVRO' ('Delete file format not supported' for an Avro delete file)"
    )
    distribution = "polars"
    # Polars 2.1's Iceberg scan has no `_row_id` or `_last_updated_sequence_number` column (nor any
    # other way to read row lineage): read-table compares the other columns
    reads_row_lineage = False
    capabilities = frozenset({"hash", "read-table"})

    def __init__(self) -> None:
        self._pl: Any = None

    def start(self) -> None:
        polars = self.require("polars", POLARS_VERSION, f"pip install polars=={POLARS_VERSION}")
        missing = [
            n for n in ("scan_iceberg", "sink_iceberg") if not hasattr(polars, n) and not hasattr(polars.LazyFrame, n)
        ]
        if missing or not hasattr(polars.Expr, "_mm3_hash"):
            raise EngineUnavailable(f"polars {polars.__version__}: no {', '.join(missing or ['Expr._mm3_hash'])}")
        self._pl = polars

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        """One snapshot's rows as `scan_iceberg` returns them (what it raises, PyIceberg's
        ValueError for equality deletes, Polars' ComputeError, ..., is the case's error)."""
        from spec_impl.ops.golden_tables import table_rows

        with warnings.catch_warnings():
            warnings.filterwarnings(
                "ignore", message=".*polars_iceberg", category=self._pl.exceptions.PerformanceWarning
            )
            frame = self._pl.scan_iceberg(table.metadata_location, snapshot_id=snapshot_id).collect()
        return table_rows(frame.to_arrow())

    def group_key(self, inp: dict[str, Any]) -> str:
        return json.dumps(inp["type"], sort_keys=True)

    def prepare(self, inp: dict[str, Any]) -> tuple:
        source = parse_type(inp["type"])
        return source, self._dtype(source)

    def value(self, prepared: tuple, inp: dict[str, Any]) -> Any:
        return self._physical(prepared[0], decode(prepared[0], inp["value"]))

    def call(self, prepared: tuple, values: list[Any]) -> list[Any]:
        frame = self._series(prepared[1], values).alias("v").to_frame()
        return frame.select(self._pl.col("v")._mm3_hash()).to_series().to_list()

    def to_answer(self, prepared: tuple, result: Any) -> EngineAnswer:
        return EngineAnswer(True, result)

    def _dtype(self, t: IcebergType) -> Any:
        """The Polars dtype of an Iceberg type, as Polars' Iceberg sink hashes it."""
        pl = self._pl
        if isinstance(t, DecimalType):
            return pl.Decimal(t.precision, t.scale)
        if isinstance(t, FixedType):
            return pl.Binary()
        simple = {
            "boolean": pl.Boolean(),
            "int": pl.Int64(),
            "long": pl.Int64(),
            "float": pl.Float32(),
            "double": pl.Float64(),
            "date": pl.Date(),
            "time": pl.Time(),
            "timestamp": pl.Datetime("us"),
            "timestamptz": pl.Datetime("us", "UTC"),
            "timestamp_ns": pl.Datetime("ns"),
            "timestamptz_ns": pl.Datetime("ns", "UTC"),
            "string": pl.String(),
            "binary": pl.Binary(),
            "uuid": pl.Binary(),
            "unknown": pl.Null(),
        }
        name = getattr(t, "name", None)
        if name not in simple:
            raise ValueError(f"polars has no dtype for Iceberg's {t}")
        return simple[name]

    def _physical(self, t: IcebergType, value: Any) -> Any:
        """A value as Polars' physical representation of the dtype (temporal values as integer counts)."""
        if value is None:
            return None
        name = getattr(t, "name", None)
        if name == "uuid":
            return value.bytes
        if name == "time":
            return value * 1000  # Polars' Time counts nanoseconds
        return value

    def _series(self, dtype: Any, values: list[Any]) -> Any:
        pl = self._pl
        if dtype == pl.Date:
            return pl.Series(values, dtype=pl.Int32).cast(dtype)
        if dtype in (pl.Time, pl.Datetime):
            return pl.Series(values, dtype=pl.Int64).cast(dtype)
        return pl.Series(values, dtype=dtype)
