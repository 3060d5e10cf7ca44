"""Partition transforms over Arrow arrays, for validating millions of rows at once.

The scalar functions of `spec_impl.transforms` are the oracle; this module computes the same
results column-wise (tests/test_bulk_transforms.py checks that with hypothesis). Arrow carries
the physical values: int32/int64, date32 (days), time64[us], timestamp[us|ns] (with or without
a zone), decimal128, string, binary, fixed_size_binary.

    >>> import pyarrow as pa
    >>> apply_transform_array("bucket[16]", "long", pa.array([34, None], pa.int64())).to_pylist()
    [3, None]
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from spec_impl import revisions
from spec_impl.bulk.bucket import bucket_array
from spec_impl.errors import InvalidInput
from spec_impl.temporal import MICROS_PER_DAY, MICROS_PER_HOUR, NANOS_PER_MICRO
from spec_impl.transforms import Transform, apply_transform, parse_transform, result_type
from spec_impl.types import DecimalType, IcebergType, parse_type
from spec_impl.values import INT_RANGE, LONG_RANGE
from spec_impl.rules import implements


def apply_transform_array(
    transform: str | Transform,
    source: IcebergType | str,
    values: pa.Array | pa.ChunkedArray,
    revision: str = revisions.DEFAULT,
) -> pa.Array:
    """Apply a transform to every value of an Arrow array of the source type; nulls stay null.

    Errors are those of the scalar rule (source type, overflow), raised for the first offending
    value.
    """
    revisions.check(revision)
    t = transform if isinstance(transform, Transform) else parse_transform(transform)
    source = parse_type(source)
    out_type = result_type(t, source, revision)  # also checks the source type
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if t.name == "identity":
        return values
    if t.name == "void":
        return pa.nulls(len(values), values.type)
    if t.name == "bucket":
        return bucket_array(values, t.param, revision=revision)
    if t.name == "truncate":
        return _truncate(t, source, values, revision)
    days_or_hours = _temporal(t.name, source, values)
    if t.name == "day" and out_type.name == "date":  # type: ignore[attr-defined]
        return days_or_hours.cast(pa.date32())
    return days_or_hours


@implements("transform.overflow")
def _truncate(t: Transform, source: IcebergType, values: pa.Array, revision: str) -> pa.Array:
    width = t.param
    name = source.name  # type: ignore[attr-defined]
    if name in ("int", "long"):
        ints = values.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        remainder = ints % width  # numpy's % floors like Python's: 0 <= remainder < width
        low = INT_RANGE[0] if name == "int" else LONG_RANGE[0]
        valid = ~np.asarray(values.is_null())
        bad = valid & (ints < low + remainder)  # v - remainder would fall below the type's minimum
        if np.any(bad):
            first = int(ints[np.argmax(bad)])
            raise InvalidInput(
                "transform.overflow", f"truncate[{width}] of {first} is outside the range of {name}", first
            )
        result = ints - remainder
        return pa.array(result, type=pa.int64(), mask=~valid).cast(values.type)
    if name == "string":
        return pc.utf8_slice_codeunits(values, 0, width)
    if name == "binary":
        return pc.binary_slice(values, 0, width)
    assert isinstance(source, DecimalType)
    return pa.array([apply_transform(t, source, v, revision) for v in values.to_pylist()], type=values.type)


@implements("transform.overflow")
def _temporal(name: str, source: IcebergType, values: pa.Array) -> pa.Array:
    """year/month/day/hour as int32 offsets from the epoch, flooring before it."""
    valid = ~np.asarray(values.is_null())
    if source.name == "date":  # type: ignore[attr-defined]
        days = values.cast(pa.int32()).fill_null(0).to_numpy().astype(np.int64)
        micros = None
    else:
        raw = values.cast(pa.int64()).fill_null(0).to_numpy()
        micros = raw // NANOS_PER_MICRO if source.name.endswith("_ns") else raw  # type: ignore[attr-defined]
        days = micros // MICROS_PER_DAY
    if name == "day":
        result = days
    elif name == "hour":
        result = micros // MICROS_PER_HOUR  # type: ignore[operator]
        bad = valid & ((result < INT_RANGE[0]) | (result > INT_RANGE[1]))
        if np.any(bad):
            raise InvalidInput("transform.overflow", "hour is outside the int result type", int(raw[np.argmax(bad)]))
    else:
        unit = "Y" if name == "year" else "M"
        result = days.astype("datetime64[D]").astype(f"datetime64[{unit}]").astype(np.int64)
    return pa.array(result.astype(np.int32), type=pa.int32(), mask=~valid)
