"""Column metrics of a data file checked from its Arrow columns, by field id.

Spec: "Manifests" (data_file 109 value_counts, 110 null_value_counts, 137 nan_value_counts, 125
lower_bounds, 128 upper_bounds and notes 1-2). The rules are `spec_impl.metrics.column_metrics`;
this module is their Arrow form, as `partition_tuple_arrow` is that of `partition_tuple`: the
counts are taken with Arrow kernels (value count = the column's length, nulls and NaN included;
null count; NaN count for float and double, 0 claimed for other types), and the bounds are checked
by `check_column_metrics` itself, on the few values that decide them (the minimum and the maximum
of the non-null, non-NaN values, and both zeros of a float column when present), so that a file of
millions of rows is never turned into Python values.

Columns are the primitive fields reachable through structs (a struct child's nulls include its
parent's, as in the Parquet leaf column the writer measured); fields inside lists and maps are not
checked.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from collections.abc import Iterator, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from spec_impl.expressions.predicates import FLOATING
from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.schema import Schema
from spec_impl.metrics.column_metrics import ColumnMetrics, check_column_metrics
from spec_impl.scan.arrow_values import FIELD_ID_KEY, primitive_type, rows_from_arrow
from spec_impl.types import UUID, FixedType, IcebergType, NestedField

METRIC_KEYS = ("value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds")


def leaf_columns(
    table: pa.Table, table_types: Mapping[int, IcebergType]
) -> Iterator[tuple[int, IcebergType, pa.Array]]:
    """(field id, Iceberg type, array) of each primitive column outside lists and maps. The type is
    the file's (Appendix A, so a promoted column is checked in the type it was written in), except a
    fixed[16] column of a uuid field, which reads as uuid."""
    for i, field in enumerate(table.schema):
        yield from _leaves(field, table.column(i).combine_chunks(), table_types)


def _leaves(
    field: pa.Field, arr: pa.Array, table_types: Mapping[int, IcebergType]
) -> Iterator[tuple[int, IcebergType, pa.Array]]:
    raw = (field.metadata or {}).get(FIELD_ID_KEY)
    if raw is None:
        return
    fid = int(raw)
    if pa.types.is_struct(field.type):
        for child_field, child in zip(field.type, arr.flatten()):
            yield from _leaves(child_field, child, table_types)
        return
    if pa.types.is_list(field.type) or pa.types.is_large_list(field.type) or pa.types.is_map(field.type):
        return
    t = primitive_type(field.type)
    if t == FixedType(16) and table_types.get(fid) == UUID:
        t = UUID
    yield fid, t, arr


NONE_CLAIMED = ColumnMetrics()  # a column the data_file claims no metric for


def claimed_metrics_by_field(data_file: Mapping[str, Any]) -> dict[int, ColumnMetrics]:
    """The metrics a data_file claims, by field id (absent ones None; of a key given twice, the
    first value), gathered in one pass over its maps."""
    values: dict[int, list[Any]] = {}
    for i, key in enumerate(METRIC_KEYS):
        for pair in reversed(data_file.get(key) or ()):  # the first pair of a key written last
            values.setdefault(pair["key"], [None] * len(METRIC_KEYS))[i] = pair["value"]
    return {fid: ColumnMetrics(*got) for fid, got in values.items()}


def column_findings(t: IcebergType, arr: pa.Array, claimed: ColumnMetrics) -> list[Finding]:
    """What is wrong with the metrics claimed for a column holding `arr`."""
    found = []
    name = getattr(t, "name", None)
    nans = int(pc.sum(pc.is_nan(arr)).as_py() or 0) if name in FLOATING else 0
    actual = {
        "metrics.value-count": (len(arr), claimed.value_count),
        "metrics.null-value-count": (arr.null_count, claimed.null_value_count),
        "metrics.nan-value-count": (nans, claimed.nan_value_count),
    }
    for rule_id, (want, got) in actual.items():
        if got is not None and got != want:
            found.append(Finding(rule_id, f"{rule_id.split('.')[1].replace('-', '_')} is {want}", got))
    if claimed.lower_bound is not None or claimed.upper_bound is not None:
        bounds_only = ColumnMetrics(lower_bound=claimed.lower_bound, upper_bound=claimed.upper_bound)
        found += check_column_metrics(t, deciding_values(t, arr), bounds_only)
    return found


def deciding_values(t: IcebergType, arr: pa.Array) -> list:
    """The values of `arr` that decide its bounds, as physical values: the minimum and maximum of the
    non-null, non-NaN values (floats in totalOrder: -0.0 and +0.0 both kept when present)."""
    present = arr.drop_null()
    if getattr(t, "name", None) in FLOATING:
        values = present.to_numpy(zero_copy_only=False)
        values = values[~np.isnan(values)]
        if not len(values):
            return []
        zeros = values[values == 0]
        out = [float(values.min()), float(values.max())]
        out += [float(z) for z in {bool(s): z for z, s in zip(zeros, np.signbit(zeros))}.values()]
        return out
    if not len(present):
        return []
    if isinstance(present, pa.ExtensionArray):  # uuid read as arrow.uuid: its fixed[16] bytes, in the same order
        present = present.storage
    extremes = pc.min_max(present)
    picks = [extremes["min"]]
    if extremes["max"] != extremes["min"]:  # one value decides both bounds when all are equal
        picks.append(extremes["max"])
    chosen = pa.array(picks, type=present.type)
    return [r["v"] for r in rows_from_arrow(pa.table({"v": chosen}), by_id=False, schema=_one_column(t))]


@lru_cache(maxsize=256)
def _one_column(t: IcebergType) -> Schema:
    """The schema of one column "v" of type `t`, for reading its values in the value model."""
    return Schema.of(NestedField(1, "v", t, False))
