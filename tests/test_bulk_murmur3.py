"""The vectorized murmur3 kernels and the Arrow bucket transform (Iceberg spec, Appendix B).

Every expected value is computed independently, one scalar at a time, with
``mmh3.hash(..., 0, signed=True)`` over bytes built by ``struct`` or
``int.to_bytes`` -- never with the code under test.
"""

from __future__ import annotations

import datetime
import decimal
import struct
import uuid

import mmh3
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec_impl.bulk import murmur3
from spec_impl.bulk.bucket import bucket_array, hash_array

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


# ---------------------------------------------------------------------------
# Independent scalar references
# ---------------------------------------------------------------------------


def ref_bytes(b: bytes) -> int:
    return mmh3.hash(b, 0, signed=True)


def ref_long(v: int) -> int:
    return ref_bytes(struct.pack("<q", v))


def ref_decimal_bytes(unscaled: int) -> bytes:
    """Minimum-length two's-complement big-endian bytes, by trying lengths 1, 2, ..."""
    n = 1
    while not -(1 << (8 * n - 1)) <= unscaled < (1 << (8 * n - 1)):
        n += 1
    return unscaled.to_bytes(n, "big", signed=True)


def ref_bucket(h: int | None, n: int) -> int | None:
    return None if h is None else (h & 0x7FFFFFFF) % n


def offsets_of(values: list[bytes], start: int = 0) -> np.ndarray:
    off = [start]
    for v in values:
        off.append(off[-1] + len(v))
    return np.array(off, dtype=np.int64)


int64s = st.integers(min_value=INT64_MIN, max_value=INT64_MAX)
int64_lists = st.lists(
    st.one_of(int64s, st.sampled_from([0, 1, -1, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1])),
    max_size=200,
)
texts = st.text(
    alphabet=st.characters(codec="utf-8"),  # includes non-BMP code points
    max_size=40,
)
blobs = st.binary(max_size=40)


# ---------------------------------------------------------------------------
# Appendix B test values
# ---------------------------------------------------------------------------

APPENDIX_B_UUID = uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7")


def test_appendix_b_values_kernels():
    assert murmur3.hash_int64(np.array([34])).tolist() == [2017239379]
    assert murmur3.hash_int64(np.array([17486], dtype=np.int32)).tolist() == [-653330422]
    assert murmur3.hash_int64(np.array([1510871468000000])).tolist() == [-2047944441]
    data = np.frombuffer(b"iceberg", dtype=np.uint8)
    assert murmur3.hash_binary(data, np.array([0, 7])).tolist() == [1210000089]
    data = np.frombuffer(bytes([0, 1, 2, 3]), dtype=np.uint8)
    assert murmur3.hash_binary(data, np.array([0, 4])).tolist() == [-188683207]
    assert murmur3.hash_fixed(data, 4).tolist() == [-188683207]
    assert murmur3.hash_decimal_unscaled([1420]).tolist() == [-500754589]
    uuid_bytes = np.frombuffer(APPENDIX_B_UUID.bytes, dtype=np.uint8)
    assert murmur3.hash_fixed(uuid_bytes, 16).tolist() == [1488055340]


def test_appendix_b_values_arrow():
    cases = [
        (pa.array([34], pa.int32()), 2017239379),
        (pa.array([34], pa.int64()), 2017239379),
        (pa.array([decimal.Decimal("14.20")], pa.decimal128(9, 2)), -500754589),
        (pa.array([datetime.date(2017, 11, 16)], pa.date32()), -653330422),
        (pa.array([datetime.time(22, 31, 8)], pa.time64("us")), -662762989),
        (pa.array([1510871468000000], pa.timestamp("us")), -2047944441),
        (pa.array([1510871468000000], pa.timestamp("us", tz="UTC")), -2047944441),
        (pa.array(["iceberg"], pa.string()), 1210000089),
        (pa.array(["iceberg"], pa.large_string()), 1210000089),
        (pa.array([bytes([0, 1, 2, 3])], pa.binary()), -188683207),
        (pa.array([bytes([0, 1, 2, 3])], pa.large_binary()), -188683207),
        (pa.array([bytes([0, 1, 2, 3])], pa.binary(4)), -188683207),
        (pa.array([APPENDIX_B_UUID.bytes], pa.binary(16)), 1488055340),
    ]
    if hasattr(pa, "uuid"):
        storage = pa.array([APPENDIX_B_UUID.bytes], pa.binary(16))
        cases.append((pa.ExtensionArray.from_storage(pa.uuid(), storage), 1488055340))
    for arr, expected in cases:
        assert hash_array(arr).to_pylist() == [expected], arr.type
        assert bucket_array(arr, 16).to_pylist() == [ref_bucket(expected, 16)], arr.type


def test_appendix_b_timestamp_ns_revisions():
    nanos = 1510871468000000001
    arr = pa.array([nanos], pa.timestamp("ns"))
    # v3 as adopted: floor to micros, same as the timestamp[us] hash.
    assert hash_array(arr).to_pylist() == [-2047944441]
    assert hash_array(arr, revision="v3-adopted").to_pylist() == [-2047944441]
    # 2024 text: the nanos are hashed as a long.
    assert hash_array(arr, revision="2024-seed").to_pylist() == [ref_long(nanos)]
    assert ref_long(nanos) == -160215926


# ---------------------------------------------------------------------------
# hash_int64
# ---------------------------------------------------------------------------


@given(int64_lists)
def test_hash_int64_matches_mmh3(values):
    got = murmur3.hash_int64(np.array(values, dtype=np.int64))
    assert got.dtype == np.int32
    assert got.tolist() == [ref_long(v) for v in values]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32])
def test_hash_int64_widens(dtype):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.max, 0, 1, info.max // 3], dtype=dtype)
    assert murmur3.hash_int64(values).tolist() == [ref_long(int(v)) for v in values]


def test_hash_int64_chunk_boundaries_and_strides():
    rng = np.random.default_rng(7)
    n = murmur3._CHUNK * 2 + 5
    values = rng.integers(INT64_MIN, INT64_MAX, size=n, dtype=np.int64, endpoint=True)
    expected = [ref_long(v) for v in values.tolist()]
    assert murmur3.hash_int64(values).tolist() == expected
    # A non-contiguous view is accepted too.
    assert murmur3.hash_int64(values[::3]).tolist() == expected[::3]


def test_hash_int64_rejects():
    assert murmur3.hash_int64(np.array([], dtype=np.int64)).tolist() == []
    with pytest.raises(TypeError):
        murmur3.hash_int64(np.array([1.5]))
    with pytest.raises(ValueError):
        murmur3.hash_int64(np.array([1 << 63], dtype=np.uint64))
    assert murmur3.hash_int64(np.array([INT64_MAX], dtype=np.uint64)).tolist() == [ref_long(INT64_MAX)]


# ---------------------------------------------------------------------------
# hash_binary
# ---------------------------------------------------------------------------


@given(st.lists(blobs, max_size=100), st.integers(min_value=0, max_value=7))
def test_hash_binary_matches_mmh3(values, pad):
    # Values start at a non-zero offset inside the buffer, with junk around.
    data = np.frombuffer(b"\xaa" * pad + b"".join(values) + b"\x55" * 3, dtype=np.uint8)
    got = murmur3.hash_binary(data, offsets_of(values, start=pad))
    assert got.dtype == np.int32
    assert got.tolist() == [ref_bytes(v) for v in values]


@given(st.lists(texts, max_size=100))
def test_hash_binary_utf8_strings(values):
    encoded = [v.encode("utf-8") for v in values]
    data = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    got = murmur3.hash_binary(data, offsets_of(encoded).astype(np.int32))
    assert got.tolist() == [ref_bytes(e) for e in encoded]


def test_hash_binary_every_tail_length_and_alignment():
    rng = np.random.default_rng(3)
    values = []
    for length in range(41):  # tail lengths 0..3 with 0..10 whole blocks
        for _ in range(5):
            values.append(bytes(rng.integers(0, 256, length, dtype=np.uint8)))
    rng.shuffle(values)
    for start in range(4):  # every start alignment
        data = np.frombuffer(b"x" * start + b"".join(values), dtype=np.uint8)
        got = murmur3.hash_binary(data, offsets_of(values, start=start))
        assert got.tolist() == [ref_bytes(v) for v in values]


def test_hash_binary_empty_inputs():
    assert murmur3.hash_binary(np.zeros(0, np.uint8), np.array([0])).tolist() == []
    assert murmur3.hash_binary(np.zeros(0, np.uint8), np.array([0, 0, 0])).tolist() == [0, 0]
    one = np.frombuffer(b"a", dtype=np.uint8)
    assert murmur3.hash_binary(one, np.array([0, 1])).tolist() == [ref_bytes(b"a")]
    assert murmur3.hash_binary(one, np.array([1, 1])).tolist() == [ref_bytes(b"")]


def test_hash_binary_long_values_and_chunks():
    rng = np.random.default_rng(11)
    values = [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(0, 41, 40_000)]
    # A few long values among short ones (the per-value finishing path), and
    # one value longer than a whole chunk's byte budget (a chunk of its own).
    values[5] = bytes(rng.integers(0, 256, 1001, dtype=np.uint8))
    values[17] = bytes(rng.integers(0, 256, 4099, dtype=np.uint8))
    values[20_000] = bytes(rng.integers(0, 256, murmur3._VAR_CHUNK_BYTES + 7, dtype=np.uint8))
    values[-1] = bytes(rng.integers(0, 256, 3333, dtype=np.uint8))
    data = np.frombuffer(b"".join(values), dtype=np.uint8)
    got = murmur3.hash_binary(data, offsets_of(values))
    assert got.tolist() == [ref_bytes(v) for v in values]


def test_hash_binary_rejects_bad_offsets():
    data = np.frombuffer(b"abcdef", dtype=np.uint8)
    with pytest.raises(ValueError):
        murmur3.hash_binary(data, np.array([0, 4, 2]))
    with pytest.raises(ValueError):
        murmur3.hash_binary(data, np.array([0, 7]))
    with pytest.raises(ValueError):
        murmur3.hash_binary(data, np.array([], dtype=np.int64))


# ---------------------------------------------------------------------------
# hash_fixed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 17, 33])
def test_hash_fixed_matches_mmh3(width):
    rng = np.random.default_rng(width)
    n = 300
    raw = rng.integers(0, 256, n * width, dtype=np.uint8)
    expected = [ref_bytes(raw[i * width : (i + 1) * width].tobytes()) for i in range(n)]
    assert murmur3.hash_fixed(raw, width).tolist() == expected
    assert murmur3.hash_fixed(raw.reshape(n, width), width).tolist() == expected


@given(st.lists(st.uuids(), max_size=50))
def test_hash_fixed_uuids(values):
    raw = np.frombuffer(b"".join(u.bytes for u in values), dtype=np.uint8)
    assert murmur3.hash_fixed(raw, 16).tolist() == [ref_bytes(u.bytes) for u in values]


# ---------------------------------------------------------------------------
# Decimals
# ---------------------------------------------------------------------------


def _byte_boundaries() -> list[int]:
    out = []
    for k in range(1, 17):
        edge = 1 << (8 * k - 1)
        out += [edge - 1, edge, edge + 1, -edge, -edge - 1, -edge + 1]
    return [v for v in out if -(1 << 127) <= v < (1 << 127)]


def test_decimal_min_bytes_examples():
    examples = {0: "00", 127: "7f", 128: "0080", -128: "80", -129: "ff7f", 1420: "058c", -1: "ff", 255: "00ff"}
    for v, hexed in examples.items():
        assert ref_decimal_bytes(v).hex() == hexed
        assert murmur3.decimal_min_bytes(v).hex() == hexed


def test_decimal_byte_gaining_boundaries():
    values = _byte_boundaries() + [0, 1, -1, 1420, -1420]
    expected = [ref_bytes(ref_decimal_bytes(v)) for v in values]
    assert murmur3.hash_decimal_unscaled(values).tolist() == expected
    lengths = murmur3.decimal_min_byte_lengths(
        np.array([v & ((1 << 64) - 1) for v in values], dtype=np.uint64),
        np.array([v >> 64 for v in values], dtype=np.int64),
    )
    assert lengths.tolist() == [len(ref_decimal_bytes(v)) for v in values]


@given(st.lists(st.integers(min_value=-(1 << 127), max_value=(1 << 127) - 1), max_size=100))
def test_hash_decimal_unscaled_matches_mmh3(values):
    expected = [ref_bytes(ref_decimal_bytes(v)) for v in values]
    assert murmur3.hash_decimal_unscaled(values).tolist() == expected


@given(st.lists(st.integers(min_value=-(1 << 127), max_value=(1 << 127) - 1), max_size=60))
def test_hash_decimal128_buffer_layout(values):
    raw = b"".join(v.to_bytes(16, "little", signed=True) for v in values)
    got = murmur3.hash_decimal128(np.frombuffer(raw, dtype=np.uint8))
    assert got.tolist() == [ref_bytes(ref_decimal_bytes(v)) for v in values]


def test_hash_decimal_unscaled_rejects_out_of_range():
    with pytest.raises(ValueError):
        murmur3.hash_decimal_unscaled([1 << 127])


# ---------------------------------------------------------------------------
# bucket_array: type dispatch, nulls, slices
# ---------------------------------------------------------------------------

NUM_BUCKETS = st.sampled_from([1, 2, 7, 16, 1000, 2**31 - 1])


def _expected_buckets(values, ref, n):
    return [None if v is None else ref_bucket(ref(v), n) for v in values]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(st.none(), int64s), max_size=80),
    NUM_BUCKETS,
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=0, max_value=10),
)
def test_bucket_int64_with_nulls_and_slices(values, n, lo, cut):
    arr = pa.array(values, pa.int64())
    sliced = arr.slice(min(lo, len(values)), max(0, len(values) - lo - cut))
    expected = _expected_buckets(sliced.to_pylist(), ref_long, n)
    got = bucket_array(sliced, n)
    assert got.type == pa.int32()
    assert got.to_pylist() == expected


@pytest.mark.parametrize("arrow_type", [pa.int8(), pa.int16(), pa.int32()])
def test_bucket_narrow_ints(arrow_type):
    bits = arrow_type.bit_width
    values = [-(1 << (bits - 1)), (1 << (bits - 1)) - 1, 0, None, 34, -34]
    arr = pa.array(values, arrow_type)
    assert bucket_array(arr, 16).to_pylist() == _expected_buckets(values, ref_long, 16)
    assert bucket_array(arr.slice(1), 16).to_pylist() == _expected_buckets(values[1:], ref_long, 16)


def test_bucket_temporal_types():
    days = [17486, 0, -1, None, -719162, 2932896]
    assert bucket_array(pa.array(days, pa.date32()), 16).to_pylist() == _expected_buckets(days, ref_long, 16)
    micros = [0, 81068000000, 86399999999, None]
    got = bucket_array(pa.array(micros, pa.time64("us")), 16).to_pylist()
    assert got == _expected_buckets(micros, ref_long, 16)
    ts = [1510871468000000, -1, 0, None, INT64_MIN, INT64_MAX]
    for tz in (None, "UTC", "Europe/Paris"):
        arr = pa.array(ts, pa.timestamp("us", tz=tz))
        assert bucket_array(arr, 16).to_pylist() == _expected_buckets(ts, ref_long, 16)


@given(st.lists(st.one_of(st.none(), int64s), max_size=60), st.sampled_from([None, "UTC"]))
def test_bucket_timestamp_ns_revisions(values, tz):
    arr = pa.array(values, pa.timestamp("ns", tz=tz))
    # v3 as adopted: floor division to micros (also for negative nanos).
    v3 = [None if v is None else ref_bucket(ref_long(v // 1000), 16) for v in values]
    assert bucket_array(arr, 16).to_pylist() == v3
    assert bucket_array(arr, 16, revision="v3-adopted").to_pylist() == v3
    seed = _expected_buckets(values, ref_long, 16)
    assert bucket_array(arr, 16, revision="2024-seed").to_pylist() == seed


def test_bucket_timestamp_ns_negative_floor():
    arr = pa.array([-1, -999, -1000, -1001, 999, 1000], pa.timestamp("ns"))
    micros = [-1, -1, -1, -2, 0, 1]
    assert hash_array(arr).to_pylist() == [ref_long(m) for m in micros]


@given(
    st.lists(st.one_of(st.none(), texts), max_size=60),
    st.integers(min_value=0, max_value=5),
    st.sampled_from([pa.string(), pa.large_string()]),
)
def test_bucket_strings(values, lo, arrow_type):
    arr = pa.array(values, arrow_type).slice(min(lo, len(values)))
    expected = _expected_buckets(arr.to_pylist(), lambda s: ref_bytes(s.encode("utf-8")), 16)
    assert bucket_array(arr, 16).to_pylist() == expected


@given(
    st.lists(st.one_of(st.none(), blobs), max_size=60),
    st.integers(min_value=0, max_value=5),
    st.sampled_from([pa.binary(), pa.large_binary()]),
)
def test_bucket_binaries(values, lo, arrow_type):
    arr = pa.array(values, arrow_type).slice(min(lo, len(values)))
    expected = _expected_buckets(arr.to_pylist(), ref_bytes, 7)
    assert bucket_array(arr, 7).to_pylist() == expected


def test_bucket_view_types():
    values = ["", "a", None, "iceberg", "non-bmp \U0001f600"]
    for arrow_type, conv in ((pa.string_view(), str.encode), (pa.binary_view(), str.encode)):
        data = values if arrow_type == pa.string_view() else [None if v is None else v.encode() for v in values]
        arr = pa.array(data, arrow_type)
        expected = [None if v is None else ref_bucket(ref_bytes(conv(v)), 16) for v in values]
        assert bucket_array(arr, 16).to_pylist() == expected


@given(st.lists(st.one_of(st.none(), st.binary(min_size=5, max_size=5)), max_size=40), st.integers(0, 4))
def test_bucket_fixed_size_binary(values, lo):
    arr = pa.array(values, pa.binary(5)).slice(min(lo, len(values)))
    assert bucket_array(arr, 16).to_pylist() == _expected_buckets(arr.to_pylist(), ref_bytes, 16)


@given(st.lists(st.one_of(st.none(), st.uuids()), max_size=40), st.integers(0, 4))
def test_bucket_uuids(values, lo):
    raw = [None if u is None else u.bytes for u in values]
    storage = pa.array(raw, pa.binary(16)).slice(min(lo, len(values)))
    expected = _expected_buckets(storage.to_pylist(), ref_bytes, 16)
    assert bucket_array(storage, 16).to_pylist() == expected
    if hasattr(pa, "uuid"):
        ext = pa.ExtensionArray.from_storage(pa.uuid(), storage)
        assert bucket_array(ext, 16).to_pylist() == expected


def _decimal_of(unscaled: int, scale: int) -> decimal.Decimal:
    return decimal.Decimal(unscaled).scaleb(-scale, context=decimal.Context(prec=60))


@given(
    st.lists(st.one_of(st.none(), st.integers(min_value=-(10**38) + 1, max_value=10**38 - 1)), max_size=50),
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=0, max_value=4),
)
def test_bucket_decimal128(unscaled, scale, lo):
    values = [None if u is None else _decimal_of(u, scale) for u in unscaled]
    arr = pa.array(values, pa.decimal128(38, scale)).slice(min(lo, len(values)))
    expected = _expected_buckets(unscaled[min(lo, len(values)) :], lambda u: ref_bytes(ref_decimal_bytes(u)), 16)
    assert bucket_array(arr, 16).to_pylist() == expected


def test_bucket_decimal_boundaries():
    unscaled = [v for v in _byte_boundaries() if abs(v) < 10**38]
    arr = pa.array([_decimal_of(u, 2) for u in unscaled], pa.decimal128(38, 2))
    expected = [ref_bucket(ref_bytes(ref_decimal_bytes(u)), 1000) for u in unscaled]
    assert bucket_array(arr, 1000).to_pylist() == expected


def test_bucket_narrow_decimals_are_widened():
    for make in ("decimal32", "decimal64"):
        if not hasattr(pa, make):
            continue
        arr = pa.array([decimal.Decimal("14.20"), None, decimal.Decimal("-1.28")], getattr(pa, make)(9, 2))
        assert hash_array(arr).to_pylist() == [-500754589, None, ref_bytes(ref_decimal_bytes(-128))]


def test_bucket_chunked_and_dictionary():
    chunked = pa.chunked_array([pa.array([34, None], pa.int64()), pa.array([], pa.int64()), pa.array([1, 2])])
    got = bucket_array(chunked, 16)
    assert isinstance(got, pa.Int32Array)
    assert got.to_pylist() == _expected_buckets([34, None, 1, 2], ref_long, 16)
    empty = bucket_array(pa.chunked_array([], type=pa.string()), 16)
    assert isinstance(empty, pa.Int32Array) and len(empty) == 0
    dictionary = pa.array(["a", "bb", None, "a", "iceberg"]).dictionary_encode()
    expected = _expected_buckets(["a", "bb", None, "a", "iceberg"], lambda s: ref_bytes(s.encode()), 16)
    assert bucket_array(dictionary, 16).to_pylist() == expected


def test_bucket_all_null_and_empty():
    assert bucket_array(pa.array([None, None], pa.int64()), 16).to_pylist() == [None, None]
    assert bucket_array(pa.array([None, None], pa.string()), 16).to_pylist() == [None, None]
    assert bucket_array(pa.array([], pa.int64()), 16).to_pylist() == []


def test_bucket_result_does_not_alias_input():
    arr = pa.array([1, 2, 3], pa.int32())
    bucket_array(arr, 2)
    assert arr.to_pylist() == [1, 2, 3]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "16", None, 2**31])
def test_bucket_rejects_bad_num_buckets(bad):
    with pytest.raises(ValueError, match="num_buckets"):
        bucket_array(pa.array([1]), bad)


def test_bucket_accepts_numpy_int_num_buckets():
    assert bucket_array(pa.array([34]), np.int64(16)).to_pylist() == [ref_bucket(2017239379, 16)]


@pytest.mark.parametrize(
    "arr",
    [
        pa.array([1.0]),
        pa.array([1.0], pa.float32()),
        pa.array([True]),
        pa.array([1], pa.uint8()),
        pa.array([1], pa.uint64()),
        pa.array([1], pa.timestamp("ms")),
        pa.array([1], pa.time64("ns")),
        pa.array([1], pa.time32("ms")),
        pa.array([None], pa.null()),
        pa.array([[1]]),
        pa.array([], pa.float64()),
    ],
    ids=lambda a: str(a.type),
)
def test_bucket_rejects_unsupported_types(arr):
    with pytest.raises(TypeError, match=str(arr.type).split("<")[0].split("[")[0]):
        bucket_array(arr, 16)


def test_bucket_rejects_unknown_revision():
    with pytest.raises(ValueError):
        bucket_array(pa.array([1]), 16, revision="v4")
