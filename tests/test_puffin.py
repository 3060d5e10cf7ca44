"""Puffin files (spec_impl.deletes.puffin): layout written out by hand from the Puffin spec, round
trips with several blobs, lz4 and zstd payloads, a compressed footer, and every reader check.

Rules: puffin.magic, puffin.footer, puffin.flags, puffin.blob-metadata, puffin.blob-range,
puffin.codec, puffin.frame.
"""

from __future__ import annotations

import json
import struct

import lz4.frame
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from spec_impl.deletes.puffin import Blob, compress, decompress, read_puffin, write_puffin
from spec_impl.errors import InvalidInput

MAGIC = b"PFA1"
NO_FLAGS = b"\x00\x00\x00\x00"


def puffin_bytes(footer: bytes | str | dict, body: bytes = b"", flags: bytes = NO_FLAGS) -> bytes:
    """A Puffin file assembled by hand: magic, blob bytes, then the footer around `footer`."""
    payload = (
        footer if isinstance(footer, bytes) else (footer if isinstance(footer, str) else json.dumps(footer)).encode()
    )
    return MAGIC + body + MAGIC + payload + struct.pack("<i", len(payload)) + flags + MAGIC


def blob_json(offset: int = 4, length: int = 3, **extra) -> dict:
    return {
        "type": "t",
        "fields": [1],
        "snapshot-id": 5,
        "sequence-number": 2,
        "offset": offset,
        "length": length,
        **extra,
    }


def rule_of(data: bytes) -> str:
    with pytest.raises(InvalidInput) as e:
        read_puffin(data)
    return e.value.rule


# --- layout ------------------------------------------------------------------------------


def test_layout_of_a_one_blob_file_written_out_by_hand():
    """Puffin spec "File structure" and "Footer structure", byte by byte."""
    data = write_puffin(
        [Blob("apache-datasketches-theta-v1", b"abc", (7,), 12, 3, properties={"ndv": "3"})], {"created-by": "me"}
    )
    footer = (
        b'{"blobs":[{"type":"apache-datasketches-theta-v1","fields":[7],"snapshot-id":12,"sequence-number":3,'
        b'"offset":4,"length":3,"properties":{"ndv":"3"}}],"properties":{"created-by":"me"}}'
    )
    expected = (
        b"PFA1"  # Magic
        + b"abc"  # Blob 1 at offset 4, length 3
        + b"PFA1"  # Footer: Magic
        + footer  # FooterPayload: FileMetadata JSON, UTF-8
        + len(footer).to_bytes(4, "little")  # FooterPayloadSize, 4-byte signed little-endian
        + b"\x00\x00\x00\x00"  # Flags: nothing set (uncompressed payload)
        + b"PFA1"  # Magic
    )
    assert data == expected
    f = read_puffin(data)
    assert f.footer_size == 4 + len(footer) + 12 and not f.footer_compressed
    assert f.properties == {"created-by": "me"}
    [b] = f.blobs
    assert (b.type, b.fields, b.snapshot_id, b.sequence_number, b.offset, b.length) == (
        "apache-datasketches-theta-v1",
        (7,),
        12,
        3,
        4,
        3,
    )
    assert b.compression_codec is None and b.properties == {"ndv": "3"} and f.read_blob(b) == b"abc"


def test_empty_file_has_no_blobs():
    data = write_puffin([])
    assert data == b'PFA1PFA1{"blobs":[]}\x0c\x00\x00\x00\x00\x00\x00\x00PFA1'
    f = read_puffin(data)
    assert f.blobs == () and f.properties == {}


def test_several_blobs_with_lz4_and_zstd_payloads():
    contents = [b"plain" * 10, b"lz4 " * 100, b"zstd" * 100, b""]
    blobs = [
        Blob("a", contents[0]),
        Blob("b", contents[1], (1, 2), 10, 4, "lz4"),
        Blob("c", contents[2], compression_codec="zstd"),
        Blob("d", b""),
    ]
    data = write_puffin(blobs, {"created-by": "test"})
    f = read_puffin(data)
    assert [b.type for b in f.blobs] == ["a", "b", "c", "d"]
    assert [b.compression_codec for b in f.blobs] == [None, "lz4", "zstd", None]
    assert [f.read_blob(b) for b in f.blobs] == contents
    lz4_blob, zstd_blob = f.blobs[1], f.blobs[2]
    assert f.payload(lz4_blob)[:4] == b"\x04\x22\x4d\x18" and lz4_blob.length < len(
        contents[1]
    )  # length after compression
    assert f.payload(zstd_blob)[:4] == b"\x28\xb5\x2f\xfd" and zstd_blob.length < len(contents[2])
    assert [b.offset for b in f.blobs] == [
        4,
        4 + f.blobs[0].length,
        lz4_blob.offset + lz4_blob.length,
        zstd_blob.offset + zstd_blob.length,
    ]
    assert write_puffin(blobs, {"created-by": "test"}) == data  # deterministic


def test_payloads_written_by_the_libraries_directly_are_read():
    a = lz4.frame.compress(b"x" * 50, store_size=True, compression_level=9, block_checksum=True, content_checksum=True)
    z = zstandard.ZstdCompressor(level=19, write_checksum=True).compress(b"y" * 50)
    assert decompress("lz4", a) == b"x" * 50 and decompress("zstd", z) == b"y" * 50 and decompress(None, b"q") == b"q"


def test_compressed_footer():
    blobs = [Blob("t", b"123", properties={"k": "v" * 200})]
    data = write_puffin(blobs, {"created-by": "x"}, compress_footer=True)
    assert data[-8:-4] == b"\x01\x00\x00\x00"  # Flags byte 0, bit 0
    (size,) = struct.unpack_from("<i", data, len(data) - 12)
    payload = data[len(data) - 12 - size : len(data) - 12]
    assert payload[:4] == b"\x04\x22\x4d\x18"  # one LZ4 frame
    assert json.loads(lz4.frame.decompress(payload)) == json.loads(write_puffin(blobs, {"created-by": "x"})[11:-12])
    f = read_puffin(data)
    assert f.footer_compressed and f.footer_size == size + 16 and f.read_blob(f.blobs[0]) == b"123"
    assert f.blobs == read_puffin(write_puffin(blobs, {"created-by": "x"})).blobs


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.binary(max_size=300),
            st.sampled_from([None, "lz4", "zstd"]),
            st.dictionaries(st.text(max_size=5), st.text()),
        ),
        max_size=5,
    ),
    st.booleans(),
)
def test_round_trip(blobs, compress_footer):
    written = [
        Blob(f"type-{i}", c, (i,), i, -i, codec if (c or codec != "lz4") else None, props)
        for i, (c, codec, props) in enumerate(blobs)
    ]
    f = read_puffin(write_puffin(written, {"created-by": "hypothesis"}, compress_footer=compress_footer))
    assert [f.read_blob(b) for b in f.blobs] == [b.content for b in written]
    assert [
        (b.type, b.fields, b.snapshot_id, b.sequence_number, b.compression_codec, b.properties) for b in f.blobs
    ] == [(b.type, b.fields, b.snapshot_id, b.sequence_number, b.compression_codec, b.properties) for b in written]


# --- puffin.magic --------------------------------------------------------------------------


def test_magic():
    good = puffin_bytes({"blobs": []})
    assert read_puffin(good).blobs == ()
    assert rule_of(b"PFA2" + good[4:]) == "puffin.magic"  # header
    assert rule_of(good[:-1] + b"2") == "puffin.magic"  # end of footer
    assert rule_of(b"PFA") == "puffin.magic"
    broken_footer_start = bytearray(good)
    broken_footer_start[4] = ord("X")  # the footer starts right after the header magic
    with pytest.raises(InvalidInput, match="footer at offset 4") as e:
        read_puffin(bytes(broken_footer_start))
    assert e.value.rule == "puffin.magic" and e.value.value == b"XFA1"


# --- puffin.footer -------------------------------------------------------------------------


def test_footer_payload_size():
    good = puffin_bytes(b'{"blobs":[]}')
    assert (
        rule_of(b"PFA1" + NO_FLAGS * 2 + b"\x00" * 3 + b"PFA1") == "puffin.footer"
    )  # 19 bytes: below magic + empty footer
    for size in (-1, len(good), 2**31 - 1):
        bad = good[:-12] + struct.pack("<i", size) + good[-8:]
        with pytest.raises(InvalidInput) as e:
            read_puffin(bad)
        assert (e.value.rule, e.value.value) == ("puffin.footer", size)
    # one byte too many: the footer would start inside the header magic
    assert rule_of(good[:-12] + struct.pack("<i", len(b'{"blobs":[]}') + 1) + good[-8:]) == "puffin.footer"
    # one byte too few: the footer magic is looked for one byte late
    assert rule_of(good[:-12] + struct.pack("<i", len(b'{"blobs":[]}') - 1) + good[-8:]) == "puffin.magic"


@pytest.mark.parametrize(
    "payload, match",
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"blobs": [', "not JSON"),
        (b"[]", "not a JSON object"),
        (b"{}", "needs a 'blobs' list"),
        (b'{"blobs": {}}', "needs a 'blobs' list"),
        (b'{"blobs": [], "properties": {"created-by": 1}}', "string values"),
        (b'{"blobs": [], "properties": []}', "string values"),
    ],
)
def test_footer_json_shape(payload, match):
    with pytest.raises(InvalidInput, match=match) as e:
        read_puffin(puffin_bytes(payload))
    assert e.value.rule == "puffin.footer"


def test_footer_properties_and_unknown_keys():
    f = read_puffin(puffin_bytes({"blobs": [], "properties": {"created-by": "x"}, "future-key": 1}))
    assert f.properties == {"created-by": "x"}


# --- puffin.flags --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags", [b"\x02\x00\x00\x00", b"\x80\x00\x00\x00", b"\x00\x01\x00\x00", b"\x00\x00\x00\x80", b"\x03\x00\x00\x00"]
)
def test_reserved_flags_are_rejected(flags):
    with pytest.raises(InvalidInput, match="reserved footer flag") as e:
        read_puffin(puffin_bytes({"blobs": []}, flags=flags))
    assert e.value.rule == "puffin.flags" and e.value.value == flags.hex(" ")


# --- puffin.blob-metadata ------------------------------------------------------------------


@pytest.mark.parametrize(
    "blob, match",
    [
        ("not an object", "not a JSON object"),
        ({k: v for k, v in blob_json().items() if k != "type"}, "'type' must be a string"),
        (blob_json(type=3), "'type' must be a string"),
        (blob_json(fields=None), "'fields' must be a list of int"),
        (blob_json(fields=[1, "2"]), "'fields' must be a list of int"),
        (blob_json(fields=[True]), "'fields' must be a list of int"),
        (blob_json(fields=[2**31]), "'fields' must be a list of int"),
        ({k: v for k, v in blob_json().items() if k != "snapshot-id"}, "'snapshot-id' must be a long"),
        (blob_json(**{"snapshot-id": "5"}), "'snapshot-id' must be a long"),
        (blob_json(**{"sequence-number": 2**63}), "'sequence-number' must be a long"),
        (blob_json(**{"sequence-number": 1.0}), "'sequence-number' must be a long"),
        (blob_json(offset=-4), "'offset' must be a non-negative long"),
        (blob_json(length=False), "'length' must be a non-negative long"),
        (blob_json(length=-1), "'length' must be a non-negative long"),
        (blob_json(**{"compression-codec": 1}), "'compression-codec' must be a string"),
        (blob_json(properties={"ndv": 3}), "string values"),
    ],
)
def test_blob_metadata_fields(blob, match):
    with pytest.raises(InvalidInput, match=match) as e:
        read_puffin(puffin_bytes({"blobs": [blob]}, b"abc"))
    assert e.value.rule == "puffin.blob-metadata"


def test_blob_metadata_optional_fields():
    [b] = read_puffin(puffin_bytes({"blobs": [blob_json(**{"compression-codec": None})]}, b"abc")).blobs
    assert b.compression_codec is None and b.properties == {} and b.fields == (1,)


# --- puffin.blob-range ---------------------------------------------------------------------


@pytest.mark.parametrize("offset, length", [(0, 3), (3, 3), (4, 4), (5, 3), (7, 1), (2**62, 1)])
def test_blob_must_lie_between_magic_and_footer(offset, length):
    with pytest.raises(InvalidInput, match="is not between the header magic and the footer at offset 7") as e:
        read_puffin(puffin_bytes({"blobs": [blob_json(offset, length)]}, b"abc"))
    assert e.value.rule == "puffin.blob-range" and e.value.value == (offset, length)


def test_blob_ranges_at_the_edges():
    f = read_puffin(puffin_bytes({"blobs": [blob_json(4, 3), blob_json(7, 0), blob_json(4, 0)]}, b"abc"))
    assert [f.read_blob(b) for b in f.blobs] == [b"abc", b"", b""]


# --- puffin.codec and puffin.frame ----------------------------------------------------------


def test_unknown_codec():
    with pytest.raises(InvalidInput, match="lz4 or zstd") as e:
        read_puffin(puffin_bytes({"blobs": [blob_json(**{"compression-codec": "gzip"})]}, b"abc"))
    assert (e.value.rule, e.value.value) == ("puffin.codec", "gzip")
    for call in (lambda: compress("snappy", b"x"), lambda: decompress("LZ4", b"x")):
        with pytest.raises(InvalidInput) as e:
            call()
        assert e.value.rule == "puffin.codec"


def test_lz4_frames():
    good = lz4.frame.compress(b"hello" * 9)
    no_size = lz4.frame.compress(b"hello" * 9, store_size=False)
    for data, match in [
        (b"nope" * 4, "not an LZ4 frame"),
        (no_size, "no content size"),
        (good + good, "bytes follow the single LZ4 frame"),
        (good[:-6], "does not decode"),
        (good[:7] + b"\xff" * 20, "does not decode"),
    ]:
        with pytest.raises(InvalidInput, match=match) as e:
            decompress("lz4", data, "blob")
        assert e.value.rule == "puffin.frame"


def test_zstd_frames():
    good = zstandard.ZstdCompressor().compress(b"hello" * 9)
    for data, match in [
        (b"nope" * 4, "not a single Zstandard frame"),
        (zstandard.ZstdCompressor(write_content_size=False).compress(b"hello" * 9), "no content size"),
        (good + good, "not a single Zstandard frame"),
        (good[:-3], "not a single Zstandard frame"),
    ]:
        with pytest.raises(InvalidInput, match=match) as e:
            decompress("zstd", data, "blob")
        assert e.value.rule == "puffin.frame"


def test_frame_errors_through_the_file():
    body = lz4.frame.compress(b"abc" * 10, store_size=False)
    f = read_puffin(puffin_bytes({"blobs": [blob_json(4, len(body), **{"compression-codec": "lz4"})]}, body))
    with pytest.raises(InvalidInput, match="blob at offset 4: the LZ4 frame has no content size") as e:
        f.read_blob(f.blobs[0])
    assert e.value.rule == "puffin.frame"
    # the footer flag says LZ4, the payload is plain JSON
    assert rule_of(puffin_bytes({"blobs": []}, flags=b"\x01\x00\x00\x00")) == "puffin.frame"


def test_empty_lz4_payload_cannot_be_written():
    with pytest.raises(InvalidInput) as e:
        write_puffin([Blob("t", b"", compression_codec="lz4")])
    assert e.value.rule == "puffin.frame"
