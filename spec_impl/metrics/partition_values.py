"""A data file's partition tuple from its rows, and the check that every row belongs to it.

Spec: "Manifests" (data_file field 102 `partition`: "Partition data tuple, schema based on the
partition spec"), "Partitioning" ("Partition specs capture the transform from table data to
partition values") and "Partition Transforms". Every row of a file has the same partition: the
transform of each row's source value equals the file's value of that partition field (rule
data-file.partition-tuple); a file whose rows have different tuples has none (rule
data-file.partition-tuple.single). Partition values compare as in "Scan Planning" note 3 (floats by
their bits, NaN canonical: `metadata.partitioning.partition_values_equal`).

`partition_tuple` works on rows of Python values (`spec_impl.transforms`); `partition_tuple_arrow`
on an Arrow table, with the bulk transforms of `spec_impl.bulk` (same rules, one pass per field).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from spec_impl import revisions
from spec_impl.bulk import apply_transform_array
from spec_impl.errors import InvalidInput
from spec_impl.expressions.projection import PartitionField
from spec_impl.metadata.partitioning import Finding, partition_values_equal
from spec_impl.rules import Rule, register, implements
from spec_impl.scan.arrow_values import rows_from_arrow
from spec_impl.transforms import apply_transform, result_type
from spec_impl.types import IcebergType, NestedField, StructType

_PT = "Manifests: data_file fields (partition); Partition Transforms"
register(
    Rule(
        "data-file.partition-tuple",
        _PT,
        "A data file's partition tuple equals, for every row, the transform of the row's source value for each "
        "partition field",
    ),
    Rule(
        "data-file.partition-tuple.single",
        _PT,
        "All rows of a data file have one partition tuple (a file with rows of two partitions, or with no rows, "
        "has none to derive)",
    ),
)


def partition_struct(
    fields: Sequence[PartitionField], types: Mapping[str, IcebergType], revision: str = revisions.DEFAULT
) -> StructType:
    """The partition tuple's type: one field per partition field, of the transform's result type."""
    return StructType(
        tuple(
            NestedField(1000 + i, f.name, result_type(f.transform, types[f.source], revision), False)
            for i, f in enumerate(fields)
        )
    )


def row_partition(
    fields: Sequence[PartitionField],
    types: Mapping[str, IcebergType],
    row: Mapping[str, Any],
    revision: str = revisions.DEFAULT,
) -> list:
    """The partition tuple of one row {column name: value}."""
    return [apply_transform(f.transform, types[f.source], row.get(f.source), revision) for f in fields]


@implements("data-file.partition-tuple", "data-file.partition-tuple.single")
def partition_tuple(
    fields: Sequence[PartitionField],
    types: Mapping[str, IcebergType],
    rows: Sequence[Mapping[str, Any]],
    revision: str = revisions.DEFAULT,
) -> list:
    """The partition tuple of a file from its rows (rule data-file.partition-tuple); InvalidInput
    (data-file.partition-tuple.single) when the rows disagree or there are none."""
    if not rows:
        raise InvalidInput(
            "data-file.partition-tuple.single", "a file without rows has no partition tuple to derive", []
        )
    struct = partition_struct(fields, types, revision)
    first = row_partition(fields, types, rows[0], revision)
    for n, row in enumerate(rows[1:], 1):
        other = row_partition(fields, types, row, revision)
        if not partition_values_equal(first, other, struct):
            raise InvalidInput(
                "data-file.partition-tuple.single", f"row 0 has the partition {first!r}, row {n} {other!r}", n
            )
    return first


@implements("data-file.partition-tuple")
def check_partition_tuple(
    fields: Sequence[PartitionField],
    types: Mapping[str, IcebergType],
    rows: Sequence[Mapping[str, Any]],
    claimed: Sequence[Any],
    revision: str = revisions.DEFAULT,
) -> list[Finding]:
    """The rows whose partition differs from the file's claimed tuple (rule data-file.partition-tuple)."""
    struct = partition_struct(fields, types, revision)
    if len(claimed) != len(fields):
        return [Finding("data-file.partition-tuple", f"the tuple must have {len(fields)} values", list(claimed))]
    found = []
    for n, row in enumerate(rows):
        actual = row_partition(fields, types, row, revision)
        if not partition_values_equal(actual, claimed, struct):
            found.append(
                Finding("data-file.partition-tuple", f"row {n} belongs to the partition {actual!r}", list(claimed))
            )
    return found


@implements("data-file.partition-tuple.single")
def partition_tuple_arrow(
    fields: Sequence[PartitionField],
    types: Mapping[str, IcebergType],
    table: pa.Table,
    revision: str = revisions.DEFAULT,
) -> list:
    """`partition_tuple` over an Arrow table whose columns are named as the source columns."""
    if table.num_rows == 0:
        raise InvalidInput(
            "data-file.partition-tuple.single", "a file without rows has no partition tuple to derive", []
        )
    out = []
    for f in fields:
        values = apply_transform_array(f.transform, types[f.source], table.column(f.source), revision)
        if _distinct(values) > 1:
            raise InvalidInput(
                "data-file.partition-tuple.single",
                f"the rows have several values of the partition field {f.name}",
                f.name,
            )
        out.append(rows_from_arrow(pa.table({"v": values.slice(0, 1)}), by_id=False)[0]["v"])
    return out


def _distinct(values: pa.Array) -> int:
    """The number of distinct partition values, null counted as one; floats by bits, NaN canonical."""
    if not pa.types.is_floating(values.type):
        return pc.count_distinct(values, mode="all").as_py()
    present = values.drop_null().to_numpy(zero_copy_only=False)
    bits = present.view(np.uint32 if present.dtype == np.float32 else np.uint64)
    canonical = np.uint32(0x7FC00000) if present.dtype == np.float32 else np.uint64(0x7FF8000000000000)
    bits = np.where(np.isnan(present), canonical, bits)
    return len(np.unique(bits)) + (values.null_count > 0)
