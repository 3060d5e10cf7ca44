"""Deletion vectors (spec_impl.deletes.deletion_vectors): the `deletion-vector-v1` blob byte for
byte, round trips, every check on corrupted input, the DV's manifest entry against its Puffin
blob, and a DV written by Iceberg Java (vectors/sources/puffin/).

Rules: dv.layout, dv.magic, dv.crc, dv.key-order, dv.position, dv.cardinality, dv.blob-metadata,
dv.blob-reference, dv.entry.
"""

from __future__ import annotations

import dataclasses
import json
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyroaring import BitMap, BitMap64

from spec_impl.deletes import deletion_vectors as dvs
from spec_impl.deletes.deletion_vectors import MAGIC, deleted_positions, deserialize_dv, serialize_dv
from spec_impl.deletes.puffin import Blob, read_puffin, write_puffin
from spec_impl.errors import InvalidInput

FIXTURES = Path(__file__).resolve().parents[1] / "vectors" / "sources" / "puffin"
DATA_FILE = "s3://bucket/t/data/a.parquet"


def blob_of(vector: bytes, magic: bytes = MAGIC) -> bytes:
    """A DV blob around `vector` with a correct length and CRC (to reach the later checks)."""
    body = magic + vector
    return struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))


def vector_of(*bitmaps: tuple[int, bytes]) -> bytes:
    """The portable 64-bit Roaring vector of (key, serialized 32-bit bitmap) pairs, in the given order."""
    return struct.pack("<Q", len(bitmaps)) + b"".join(struct.pack("<I", k) + b for k, b in bitmaps)


def roaring(*values: int) -> bytes:
    return BitMap(values).serialize()


def rule_of(call) -> InvalidInput:
    with pytest.raises(InvalidInput) as e:
        call()
    return e.value


# --- the byte layout -----------------------------------------------------------------------


def test_single_position_example_of_the_digest():
    """The worked example of the adopted digest §1.6: a DV for position 3 is 42 bytes."""
    expected = bytes.fromhex(
        "00000022"  # length of magic + vector = 34, 4 bytes big-endian
        "D1D33964"  # magic
        "0100000000000000"  # one 32-bit bitmap, count as 8 bytes little-endian
        "00000000"  # its key: high 32 bits of the positions = 0, 4 bytes little-endian
        "3A300000"
        "01000000"  # Roaring: cookie 12346 (no run containers), 1 container
        "0000"
        "0000"  # descriptive header: container key 0, cardinality - 1 = 0
        "10000000"  # offset header: the container starts at byte 16 of the bitmap
        "0300"  # array container: the low 16 bits of the value, 3
        "DC8BE776"  # CRC-32 of magic + vector, big-endian
    )
    assert serialize_dv([3]) == expected
    assert list(deserialize_dv(expected).positions()) == [3]


def test_two_keys_and_a_run_container_written_out_by_hand():
    """Positions 10..19 and 2^32 + 7, from the Puffin spec's deletion-vector-v1 section and the
    RoaringFormatSpec. The CRC is the one value not derived by hand; `zlib.crc32` (the same
    CRC-32 as java.util.zip.CRC32) is asserted to agree with it."""
    vector = bytes.fromhex(
        "0200000000000000"  # two 32-bit bitmaps (keys 0 and 1), 8 bytes little-endian
        "00000000"  # key 0: positions 10..19
        "3B300000"  # cookie 12347 (run containers present) | (containers - 1 = 0) << 16
        "01"  # run bitset: container 0 is a run container
        "0000"
        "0900"  # descriptive header: key 0, cardinality - 1 = 9; no offset header below 4 containers
        "0100"
        "0A00"
        "0900"  # one run: start 10, length - 1 = 9
        "01000000"  # key 1: position 2^32 + 7
        "3A300000"
        "01000000"
        "0000"
        "0000"
        "10000000"
        "0700"  # as in the digest's example, value 7
    )
    expected = bytes.fromhex("00000035") + MAGIC + vector + bytes.fromhex("CABE0F27")  # length 53 = 4 + 49
    assert zlib.crc32(MAGIC + vector) == 0xCABE0F27
    assert serialize_dv([2**32 + 7, *range(10, 20)]) == expected
    dv = deserialize_dv(expected, 11)
    assert list(dv.positions()) == [*range(10, 20), 2**32 + 7]
    assert [k for k, _ in dv.bitmaps] == [0, 1] and 2**32 + 7 in dv and 7 not in dv and 2**33 + 7 not in dv


def test_empty_vector():
    expected = bytes.fromhex("0000000CD1D339640000000000000000") + struct.pack(">I", zlib.crc32(MAGIC + bytes(8)))
    assert serialize_dv([]) == expected
    assert deserialize_dv(expected, 0).cardinality == 0


positions = st.one_of(
    st.integers(0, 2**16),
    st.integers(2**32 - 8, 2**32 + 8),
    st.integers(0, 2**63 - 1),
    st.integers(2**63 - 2**33, 2**63 - 1),
)


@st.composite
def position_sets(draw) -> set[int]:
    out = draw(st.sets(positions, max_size=60))
    for start, length in draw(
        st.lists(st.tuples(st.sampled_from([0, 5000, 2**32 - 100, 2**40]), st.integers(1, 9000)), max_size=2)
    ):
        out.update(range(start, start + length))  # runs, and bitmap containers above 4096 values
    return out


@settings(max_examples=150, deadline=None)
@given(position_sets())
def test_round_trip(ps):
    blob = serialize_dv(ps)
    dv = deserialize_dv(blob, len(ps))
    assert list(dv.positions()) == sorted(ps) and dv.cardinality == len(ps)
    assert all(p in dv for p in list(ps)[:20])
    # an independent writer of the same portable 64-bit format: CRoaring's roaring64, via pyroaring
    assert list(BitMap64.deserialize(blob[8:-4])) == sorted(ps)
    assert list(deserialize_dv(blob_of(BitMap64(ps).serialize())).positions()) == sorted(ps)


def test_empty_bitmaps_for_absent_keys_are_read():
    """Iceberg Java writes a bitmap for every key up to the highest, empty ones included."""
    blob = blob_of(vector_of((0, roaring()), (1, roaring()), (2, roaring(5))))
    assert list(deserialize_dv(blob, 1).positions()) == [2 * 2**32 + 5]


def test_writer_positions_are_non_negative_longs():
    for bad in (-1, 2**63, True, 1.0, "1"):
        assert rule_of(lambda bad=bad: serialize_dv([1, bad])).rule == "dv.position"
    assert list(deserialize_dv(serialize_dv([2**63 - 1])).positions()) == [2**63 - 1]


# --- checks on corrupted blobs -----------------------------------------------------------


def test_length_field():
    good = serialize_dv([1, 2])
    for bad in (good[:-1], good + b"\x00", struct.pack(">I", len(good) - 7) + good[4:]):
        e = rule_of(lambda bad=bad: deserialize_dv(bad))
        assert e.rule == "dv.layout" and "length field" in str(e)
    assert rule_of(lambda: deserialize_dv(good[:19])).rule == "dv.layout"


def test_magic():
    e = rule_of(lambda: deserialize_dv(blob_of(vector_of(), magic=b"\xd1\xd3\x39\x65")))
    assert (e.rule, e.value) == ("dv.magic", "D1 D3 39 65")


def test_crc():
    good = bytearray(serialize_dv([1, 2]))
    good[-1] ^= 1
    assert rule_of(lambda: deserialize_dv(bytes(good))).rule == "dv.crc"
    flipped = bytearray(serialize_dv([1, 2]))
    flipped[-6] ^= 0x01  # a bit of the bitmap: 2 becomes 3
    e = rule_of(lambda: deserialize_dv(bytes(flipped)))
    assert e.rule == "dv.crc" and "CRC-32 of magic + vector" in str(e)


@pytest.mark.parametrize(
    "vector, match",
    [
        (struct.pack("<Q", 1), "cannot hold the bitmap count"),
        (struct.pack("<Q", 2**63) + bytes(12), "cannot hold the bitmap count"),
        (vector_of((0, roaring(1))) + b"\x00", "1 bytes follow the last bitmap"),
        (vector_of((0, b"\x3c\x30\x00\x00\x00\x00\x00\x00")), "cookie"),
        (vector_of((0, roaring(1, 2)[:-1])), "truncated"),
        (vector_of((0, roaring(*range(0, 10000, 2))[:-100])), "truncated"),  # a bitmap container
        (vector_of((0, BitMap(range(10)).serialize()[:-2])), "truncated"),  # a run container
        (vector_of((0, BitMap(range(10)).serialize()[:-2] + b"\x00\x00")), "holds 1 values, its header says"),
        (
            vector_of((0, bytes.fromhex("3A30000001000000000001001000000002000100"))),
            "not a valid 32-bit Roaring bitmap",
        ),
        (vector_of((0, bytes.fromhex("3A300000FFFF0100"))), "at most 65536 containers"),
    ],
)
def test_layout(vector, match):
    e = rule_of(lambda: deserialize_dv(blob_of(vector)))
    assert e.rule == "dv.layout" and match in str(e)


def test_run_container_sizes_are_parsed():
    runs = BitMap([*range(3, 9), *range(100, 200), 70000, *range(2**20, 2**20 + 70000)])
    runs.run_optimize()
    serialized = runs.serialize()
    assert serialized[:2] == b"\x3b\x30"  # cookie 12347
    blob = blob_of(vector_of((0, serialized), (1, roaring(9))))
    assert list(deserialize_dv(blob).positions()) == [*runs, 2**32 + 9]
    assert rule_of(lambda: deserialize_dv(blob_of(vector_of((0, serialized[:-2]))))).rule == "dv.layout"


def test_key_order():
    for keys in ((1, 0), (0, 0), (3, 2**31 - 1, 5)):
        vector = vector_of(*((k, roaring(1)) for k in keys))
        e = rule_of(lambda vector=vector: deserialize_dv(blob_of(vector)))
        assert e.rule == "dv.key-order" and "strictly ascending" in str(e)


def test_keys_with_the_sign_bit():
    e = rule_of(lambda: deserialize_dv(blob_of(vector_of((0, roaring(1)), (2**31, roaring(1))))))
    assert (e.rule, e.value) == ("dv.position", 2**31)
    assert list(deserialize_dv(blob_of(vector_of((2**31 - 1, roaring(0)))), 1).positions()) == [(2**31 - 1) << 32]


def test_cardinality_against_record_count():
    blob = serialize_dv([1, 5, 2**32])
    assert deserialize_dv(blob, 3).cardinality == 3
    e = rule_of(lambda: deserialize_dv(blob, 4))
    assert (e.rule, e.value) == ("dv.cardinality", 4)


# --- a DV through its manifest entry -----------------------------------------------------


def puffin_with_dvs() -> tuple[bytes, list[dict], list[list[int]]]:
    """A Puffin file with a theta sketch and three DVs; the DVs' data_file fields and positions."""
    sets = [[0, 7, 9], [2**32 + 1, 3, *range(100, 120)], []]
    blobs = [Blob("apache-datasketches-theta-v1", b"sketch", (1,), 1, 1, "zstd", {"ndv": "3"})]
    blobs += [dvs.dv_blob(s, f"s3://bucket/t/data/{i}.parquet") for i, s in enumerate(sets)]
    data = write_puffin(blobs, {"created-by": "test"})
    entries = [
        dict(dvs.manifest_fields(b), file_path="s3://bucket/t/data/dv.puffin", file_size_in_bytes=len(data))
        for b in read_puffin(data).blobs[1:]
    ]
    return data, entries, [sorted(s) for s in sets]


def test_deleted_positions_of_each_dv_in_a_file():
    data, entries, sets = puffin_with_dvs()
    assert [deleted_positions(data, e) for e in entries] == sets
    assert deleted_positions(data, {"status": 1, "data_file": entries[1]}) == sets[1]
    f = read_puffin(data)
    b = f.blobs[1]
    assert (b.type, b.fields, b.snapshot_id, b.sequence_number, b.compression_codec) == (
        dvs.BLOB_TYPE,
        (dvs.POS_FIELD_ID,),
        -1,
        -1,
        None,
    )
    assert b.properties == {"referenced-data-file": "s3://bucket/t/data/0.parquet", "cardinality": "3"}
    assert entries[0] == {
        "content": 1,
        "file_format": "puffin",
        "record_count": 3,
        "referenced_data_file": "s3://bucket/t/data/0.parquet",
        "content_offset": b.offset,
        "content_size_in_bytes": b.length,
        "file_path": "s3://bucket/t/data/dv.puffin",
        "file_size_in_bytes": len(data),
    }


@pytest.mark.parametrize(
    "change, rule, match",
    [
        ({"content_offset": None}, "dv.entry", "needs content_offset"),
        ({"referenced_data_file": None}, "dv.entry", "needs referenced_data_file"),
        ({"content_size_in_bytes": None}, "dv.entry", "needs content_size_in_bytes"),
        ({"content": 2}, "dv.entry", "content 1 and file_format puffin"),
        ({"file_format": "PARQUET"}, "dv.entry", "content 1 and file_format puffin"),
        ({"content_offset": 5}, "dv.blob-reference", "name no blob"),
        ({"content_size_in_bytes": 41}, "dv.blob-reference", "name no blob"),
        ({"content_offset": 4, "content_size_in_bytes": None}, "dv.entry", "needs content_size_in_bytes"),
        (
            {"referenced_data_file": "s3://bucket/t/data/1.parquet"},
            "dv.blob-reference",
            "referenced-data-file is 's3://bucket/t/data/0.parquet'",
        ),
        ({"record_count": 4}, "dv.cardinality", "record_count"),
    ],
)
def test_entry_checks(change, rule, match):
    data, entries, _ = puffin_with_dvs()
    e = rule_of(lambda: deleted_positions(data, {**entries[0], **change}))
    assert e.rule == rule and match in str(e)


def test_entry_pointing_at_another_blob_type():
    data, entries, _ = puffin_with_dvs()
    sketch = read_puffin(data).blobs[0]
    e = rule_of(
        lambda: deleted_positions(
            data, {**entries[0], "content_offset": sketch.offset, "content_size_in_bytes": sketch.length}
        )
    )
    assert e.rule == "dv.blob-reference" and "'apache-datasketches-theta-v1' blob" in str(e)


def one_dv_file(**blob_changes) -> tuple[bytes, dict]:
    """A Puffin file with one DV for positions {1, 2} whose blob metadata is changed as given."""
    good = dvs.dv_blob([1, 2], DATA_FILE)
    data = write_puffin([dataclasses.replace(good, **blob_changes)])
    blob = read_puffin(data).blobs[0]
    return data, {
        "content": 1,
        "file_format": "puffin",
        "record_count": 2,
        "referenced_data_file": DATA_FILE,
        "content_offset": blob.offset,
        "content_size_in_bytes": blob.length,
    }


@pytest.mark.parametrize(
    "changes, match",
    [
        ({"properties": {"cardinality": "2"}}, "'referenced-data-file'"),
        ({"properties": {"referenced-data-file": DATA_FILE}}, "'cardinality'"),
        ({"properties": {"referenced-data-file": DATA_FILE, "cardinality": "two"}}, "decimal integer"),
        ({"properties": {"referenced-data-file": DATA_FILE, "cardinality": "-2"}}, "decimal integer"),
        ({"compression_codec": "zstd"}, "not compressed"),
        ({"snapshot_id": 12}, "-1"),
        ({"sequence_number": 0}, "-1"),
    ],
)
def test_blob_metadata(changes, match):
    data, entry = one_dv_file(**changes)
    e = rule_of(lambda: deleted_positions(data, entry))
    assert e.rule == "dv.blob-metadata" and match in str(e)


def test_blob_cardinality_property():
    data, entry = one_dv_file(properties={"referenced-data-file": DATA_FILE, "cardinality": "3"})
    e = rule_of(lambda: deleted_positions(data, entry))
    assert (e.rule, e.value) == ("dv.cardinality", "3") and "cardinality property" in str(e)
    f = read_puffin(data)
    assert dvs.dv_blob_metadata(f, entry) == f.blobs[0]
    assert rule_of(lambda: dvs.read_dv(f, {**entry, "record_count": 3})).rule == "dv.cardinality"


def test_corrupted_blob_through_the_entry():
    data, entry = one_dv_file()
    broken = bytearray(data)
    broken[entry["content_offset"] + 4] ^= 0xFF  # the DV magic
    assert rule_of(lambda: deleted_positions(bytes(broken), entry)).rule == "dv.magic"


# --- written by Iceberg Java ---------------------------------------------------------------


def test_deletion_vector_written_by_iceberg_java():
    """An independent check against Iceberg Java: `spark-iceberg-1.10.2-dv.puffin` was written
    by Iceberg Java 1.10.2 (iceberg-spark-runtime-3.5_2.12) driven by PySpark 3.5.9, in a v3
    table with 'write.delete.mode'='merge-on-read': one data file of 20 rows (ids in the order
    of `data_file_ids`), then `DELETE ... WHERE id IN (2, 3)` and `DELETE ... WHERE id BETWEEN 8
    AND 15`; the second DV merges the first. The JSON sidecar holds the DV's data_file fields as
    the reference read them from Java's manifest (`spec_impl.manifests.tree.read_snapshot`) and
    the positions of the deleted ids in the data file, found by reading it with pyarrow.
    """
    side = json.loads((FIXTURES / "spark-iceberg-1.10.2-dv.json").read_text())
    data = (FIXTURES / side["puffin_file"]).read_bytes()
    entry = side["data_file"]
    expected = [i for i, v in enumerate(side["data_file_ids"]) if v in side["deleted_ids"]]
    assert expected == side["expected_positions"] == [1, 2, *range(8, 16)]
    assert len(data) == entry["file_size_in_bytes"] and entry["file_format"] == "PUFFIN"
    assert deleted_positions(data, entry) == expected
    f = read_puffin(data)
    [blob] = f.blobs
    assert f.properties["created-by"].startswith("Apache Iceberg 1.10.2")
    assert f.payload(blob)[20:22] == b"\x3b\x30"  # Java run-length encodes: cookie 12347
    # the reference writer gives Java's bytes: the DV blob and the whole Puffin file
    assert serialize_dv(expected) == f.payload(blob)
    assert write_puffin([dvs.dv_blob(expected, entry["referenced_data_file"])], f.properties) == data
    assert {k: v for k, v in dvs.manifest_fields(blob).items() if k != "file_format"} == {
        k: entry[k]
        for k in ("content", "record_count", "referenced_data_file", "content_offset", "content_size_in_bytes")
    }
