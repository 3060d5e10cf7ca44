"""The Iceberg bucket transform over whole Arrow arrays.

``bucket_N(v) = (murmur3_x86_32(bytes(v), seed=0) & 0x7FFFFFFF) % N`` where
``bytes(v)`` is the per-type encoding of Iceberg spec, Appendix B (see
:mod:`spec_impl.bulk.murmur3` for the kernels).  Arrow types map to Iceberg
source types as follows:

===============================================  =============================
Arrow type                                       hashed as
===============================================  =============================
int8 / int16 / int32 / int64                     hashLong(value)
date32                                           hashLong(days since epoch)
time64[us]                                       hashLong(micros from midnight)
timestamp[us] (with or without tz)               hashLong(micros since epoch)
timestamp[ns] (with or without tz)               revision "v3-adopted":
                                                 hashLong(floor(nanos / 1000));
                                                 revision "2024-seed":
                                                 hashLong(nanos)
decimal128(p, s) (decimal32/64 widened)          min-length two's-complement
                                                 big-endian unscaled value
string / large_string / string_view              UTF-8 bytes
binary / large_binary / binary_view              bytes
fixed_size_binary(w)                             bytes (a 16-byte uuid is
                                                 already big-endian)
arrow.uuid extension                             its 16 storage bytes
dictionary<..., value type above>                bucket of the dictionary value
===============================================  =============================

Nulls map to null.  Anything else (floats, booleans, unsigned ints, other time
units, nested types, ...) raises TypeError.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa

from spec_impl import revisions
from spec_impl.bulk import murmur3

__all__ = ["bucket_array", "hash_array"]

_INT_DTYPES = {
    pa.int8(): np.dtype("i1"),
    pa.int16(): np.dtype("<i2"),
    pa.int32(): np.dtype("<i4"),
    pa.int64(): np.dtype("<i8"),
}


def _check_num_buckets(num_buckets: object) -> int:
    if isinstance(num_buckets, (bool, np.bool_)) or not isinstance(num_buckets, (int, np.integer)):
        raise ValueError(f"num_buckets must be a positive int, got {num_buckets!r}")
    n = int(num_buckets)
    if n <= 0:
        raise ValueError(f"num_buckets must be a positive int, got {num_buckets!r}")
    if n > 0x7FFFFFFF:
        raise ValueError(f"num_buckets must be at most 2147483647, got {num_buckets!r}")
    return n


def _buffer_view(buf: pa.Buffer | None, dtype: np.dtype) -> np.ndarray:
    if buf is None:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(buf, dtype=np.uint8)[: buf.size - buf.size % dtype.itemsize].view(dtype)


def _fixed_values(arr: pa.Array, dtype: np.dtype) -> np.ndarray:
    """The (offset-adjusted) values of a fixed-width primitive array, zero-copy."""
    data = _buffer_view(arr.buffers()[1], dtype)
    return data[arr.offset : arr.offset + len(arr)]


def _hash_plain(arr: pa.Array, revision: str) -> np.ndarray:
    """Signed murmur3 hashes (int32) of every slot of a non-dictionary array.

    Null slots get an arbitrary hash; the caller masks them.
    """
    t = arr.type
    n = len(arr)

    if pa.types.is_integer(t):
        dtype = _INT_DTYPES.get(t)
        if dtype is None:
            raise TypeError(f"bucket transform: unsupported Arrow type {t} (Iceberg has no unsigned ints)")
        return murmur3.hash_int64(_fixed_values(arr, dtype))

    if pa.types.is_date32(t):
        return murmur3.hash_int64(_fixed_values(arr, np.dtype("<i4")))

    if pa.types.is_time64(t) and t.unit == "us":
        return murmur3.hash_int64(_fixed_values(arr, np.dtype("<i8")))

    if pa.types.is_timestamp(t) and t.unit in ("us", "ns"):
        values = _fixed_values(arr, np.dtype("<i8"))
        if t.unit == "ns" and revisions.has(revision, revisions.V3_ADOPTED):
            # v3 as adopted: hash the microsecond value, floor(nanos / 1000),
            # so that a ns timestamp lands in the same bucket as the us one.
            values = np.floor_divide(values, 1000)
        return murmur3.hash_int64(values)

    if pa.types.is_decimal(t):
        if not isinstance(t, pa.Decimal128Type):
            if t.precision > 38:
                raise TypeError(f"bucket transform: unsupported Arrow type {t} (precision above 38)")
            arr = arr.cast(pa.decimal128(t.precision, t.scale))
        raw = _buffer_view(arr.buffers()[1], np.dtype(np.uint8))
        return murmur3.hash_decimal128(raw[arr.offset * 16 : (arr.offset + n) * 16])

    if pa.types.is_string(t) or pa.types.is_binary(t):
        return _hash_var_width(arr, np.dtype("<i4"))
    if pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        return _hash_var_width(arr, np.dtype("<i8"))
    if _is_view_type(t):
        large = pa.large_string() if pa.types.is_string_view(t) else pa.large_binary()
        return _hash_var_width(arr.cast(large), np.dtype("<i8"))

    if pa.types.is_fixed_size_binary(t):
        width = t.byte_width
        if width == 0:
            return np.zeros(n, dtype=np.int32)  # murmur3 of no bytes is 0
        raw = _buffer_view(arr.buffers()[1], np.dtype(np.uint8))
        return murmur3.hash_fixed(raw[arr.offset * width : (arr.offset + n) * width], width)

    raise TypeError(f"bucket transform: unsupported Arrow type {t}")


def _is_view_type(t: pa.DataType) -> bool:
    is_sv = getattr(pa.types, "is_string_view", None)
    is_bv = getattr(pa.types, "is_binary_view", None)
    return bool((is_sv is not None and is_sv(t)) or (is_bv is not None and is_bv(t)))


def _hash_var_width(arr: pa.Array, offset_dtype: np.dtype) -> np.ndarray:
    bufs = arr.buffers()
    offsets = _buffer_view(bufs[1], offset_dtype)[arr.offset : arr.offset + len(arr) + 1]
    data = _buffer_view(bufs[2], np.dtype(np.uint8))
    return murmur3.hash_binary(data, offsets)


def _storage(arr: pa.Array) -> pa.Array:
    """Unwrap the uuid extension type; reject other extension types."""
    if isinstance(arr, pa.ExtensionArray):
        uuid_type = getattr(pa, "UuidType", None)
        if uuid_type is not None and isinstance(arr.type, uuid_type):
            return arr.storage
        raise TypeError(f"bucket transform: unsupported Arrow type {arr.type}")
    return arr


def _as_int32_array(values: np.ndarray, arr: pa.Array) -> pa.Int32Array:
    """Wrap int32 results, carrying over the validity bitmap of ``arr``."""
    if arr.null_count == 0:
        return pa.Array.from_buffers(pa.int32(), len(arr), [None, pa.py_buffer(values)])
    # Reuse the validity bitmap as-is: shift the data buffer by the same offset.
    padded = np.empty(arr.offset + len(arr), dtype=np.int32)
    padded[arr.offset :] = values
    return pa.Array.from_buffers(
        pa.int32(),
        len(arr),
        [arr.buffers()[0], pa.py_buffer(padded)],
        null_count=arr.null_count,
        offset=arr.offset,
    )


def _transform_one(arr: pa.Array, revision: str, post: Callable[[np.ndarray], None]) -> pa.Int32Array:
    """Hash one (non-chunked) array, apply ``post`` in place, keep the nulls."""
    if isinstance(arr, pa.DictionaryArray):
        # Hash each distinct value once, then gather (null indices stay null).
        per_value = _transform_one(arr.dictionary, revision, post)
        return per_value.take(arr.indices)
    if arr.type == pa.null():
        raise TypeError(f"bucket transform: unsupported Arrow type {arr.type}")
    storage = _storage(arr)
    if len(storage) == 0:
        # Still reject unsupported types: dispatch a one-slot null dummy.
        _hash_plain(pa.nulls(1, type=storage.type), revision)
        return pa.array([], type=pa.int32())
    hashed = _hash_plain(storage, revision)
    post(hashed)
    return _as_int32_array(hashed, storage)


def _transform(values: pa.Array | pa.ChunkedArray, revision: str, post: Callable[[np.ndarray], None]) -> pa.Int32Array:
    revisions.check(revision)
    if isinstance(values, pa.ChunkedArray):
        if values.num_chunks == 0:
            return _transform_one(pa.array([], type=values.type), revision, post)
        parts = [_transform_one(chunk, revision, post) for chunk in values.chunks]
        return parts[0] if len(parts) == 1 else pa.concat_arrays(parts)
    if not isinstance(values, pa.Array):
        raise TypeError(f"expected a pyarrow Array or ChunkedArray, got {type(values).__name__}")
    return _transform_one(values, revision, post)


def _no_post(hashed: np.ndarray) -> None:
    return None


def hash_array(values: pa.Array | pa.ChunkedArray, *, revision: str = revisions.DEFAULT) -> pa.Int32Array:
    """Signed 32-bit murmur3 hashes (Iceberg spec, Appendix B) of an Arrow array.

    Same type dispatch as :func:`bucket_array`; nulls map to null.
    """
    return _transform(values, revision, _no_post)


def bucket_array(
    values: pa.Array | pa.ChunkedArray,
    num_buckets: int,
    *,
    revision: str = revisions.DEFAULT,
) -> pa.Int32Array:
    """Apply the Iceberg ``bucket[num_buckets]`` transform to every value of an Arrow array.

    ``bucket_N(v) = (murmur3_x86_32(v) & 0x7FFFFFFF) % N`` with the byte
    encodings of Iceberg spec, Appendix B (type mapping in the module
    docstring).  Nulls map to null; sliced arrays (non-zero offset) and
    chunked arrays are accepted; a chunked array yields one Int32Array.

    Parameters
    ----------
    values:
        A ``pyarrow.Array`` or ``pyarrow.ChunkedArray``.
    num_buckets:
        Positive int ``N`` (ValueError otherwise).
    revision:
        ``"v3-adopted"`` (default) or ``"2024-seed"``; only changes
        timestamp[ns]: the adopted v3 text hashes ``floor(nanos / 1000)``,
        the 2024 text hashed the nanoseconds as a long.

    Raises
    ------
    ValueError
        ``num_buckets`` is not a positive int, or ``revision`` is unknown.
    TypeError
        The Arrow type has no Iceberg bucket transform.
    """
    n = _check_num_buckets(num_buckets)

    def to_bucket(hashed: np.ndarray) -> None:
        # (hash & 0x7FFFFFFF) % N, in place on the unsigned view.
        u = hashed.view(np.uint32)
        np.bitwise_and(u, 0x7FFFFFFF, out=u)
        np.remainder(u, n, out=u)

    return _transform(values, revision, to_bucket)
