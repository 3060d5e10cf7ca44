"""Puffin files and deletion-vector-v1 blobs: reading them, and every check a reader must make.

Valid inputs include a DV written by Iceberg Java through Spark (vectors/sources/puffin/); the
others are written by the reference and corrupted one field at a time.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Iterator

import lz4.frame

from spec_impl.deletes.deletion_vectors import dv_blob, manifest_fields, roaring_size
from spec_impl.deletes.puffin import Blob, read_puffin, write_puffin
from spec_impl.resources import vectors_dir
from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import CaseSpec, case

NAME = "puffin-and-dv"
DESCRIPTION = (
    "Puffin spec and adopted v3 §1.5-1.6: Puffin files, deletion-vector-v1 blobs and the manifest entries "
    "that point at them"
)

SOURCES = vectors_dir() / "sources" / "puffin"
DATA_FILE = "s3://b/t/data/a.parquet"
V3 = ADOPTED


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _dv_file(positions, target: str = DATA_FILE, **blob_changes) -> tuple[bytes, dict]:
    """A Puffin file holding one DV, and the data_file fields of its manifest entry."""
    blob = dv_blob(positions, target)
    if blob_changes:
        blob = Blob(**{**blob.__dict__, **blob_changes})
    data = write_puffin([blob])
    return data, manifest_fields(read_puffin(data).blobs[0])


def _read_dv(rule: str, slug: str, description: str, puffin: bytes, data_file: dict) -> CaseSpec:
    return case(
        rule, slug, description, "read-deletion-vector", revisions=V3, puffin_base64=_b64(puffin), data_file=data_file
    )


def _patch_blob(puffin: bytes, data_file: dict, change) -> bytes:
    """The Puffin file with its DV blob's bytes changed by `change(blob) -> blob` (same length)."""
    start, size = data_file["content_offset"], data_file["content_size_in_bytes"]
    blob = change(bytearray(puffin[start : start + size]))
    assert len(blob) == size
    return puffin[:start] + bytes(blob) + puffin[start + size :]


def _with_crc(blob: bytearray) -> bytearray:
    blob[-4:] = struct.pack(">I", zlib.crc32(bytes(blob[4:-4])))
    return blob


def dv_specs() -> Iterator[CaseSpec]:
    side = json.loads((SOURCES / "spark-iceberg-1.10.2-dv.json").read_text())
    spark = (SOURCES / side["puffin_file"]).read_bytes()
    yield _read_dv(
        "dv.layout",
        "written-by-iceberg-java",
        f"a DV Iceberg Java 1.10.2 wrote through Spark (run-length encoded, merged "
        f"from two deletes): positions {side['expected_positions']}, found from the deleted ids",
        spark,
        side["data_file"],
    )
    example, fields = _dv_file([3])
    yield _read_dv(
        "dv.layout", "digest-example", "the 42-byte DV of position {3} (adopted digest §1.6)", example, fields
    )
    wide, wide_fields = _dv_file([*range(10, 20), 2**32 + 7, 2**40])
    yield _read_dv(
        "dv.layout",
        "several-keys",
        "positions 10..19, 2^32 + 7 and 2^40: three 32-bit bitmaps, keys 0, 1 and 256",
        wide,
        wide_fields,
    )
    empty, empty_fields = _dv_file([])
    yield _read_dv(
        "dv.cardinality", "empty", "a DV with no position: an empty vector, cardinality 0", empty, empty_fields
    )

    def bad(rule, slug, description, change=None, fields_change=None, puffin=example, fields=fields):
        data = _patch_blob(puffin, fields, change) if change else puffin
        return _read_dv(rule, slug, description, data, {**fields, **(fields_change or {})})

    yield bad("dv.magic", "wrong-magic", "the magic is D1 D3 39 65", lambda b: _with_crc(b[:7] + b"\x65" + b[8:]))
    yield bad("dv.crc", "wrong-crc", "the CRC is off by one", lambda b: b[:-1] + bytes([b[-1] ^ 1]))
    # CRCs right in all but what they cover or how they are written: a reader must check these bytes
    for slug, what, crc in (
        ("crc-over-the-vector-only", "over the vector alone, without the magic", lambda b: zlib.crc32(bytes(b[8:-4]))),
        ("crc-over-the-length-too", "over length, magic and vector", lambda b: zlib.crc32(bytes(b[:-4]))),
    ):
        yield bad("dv.crc", slug, f"the CRC is computed {what}", lambda b, crc=crc: b[:-4] + struct.pack(">I", crc(b)))
    yield bad(
        "dv.crc",
        "crc-little-endian",
        "the CRC of magic + vector written little-endian",
        lambda b: b[:-4] + struct.pack("<I", zlib.crc32(bytes(b[4:-4]))),
    )
    yield bad(
        "dv.layout",
        "wrong-length",
        "the length field says one byte more than magic + vector",
        lambda b: struct.pack(">I", len(b) - 7) + b[4:],
    )
    yield bad(
        "dv.cardinality",
        "record-count-disagrees",
        "the entry's record_count is 2, the vector holds 1 position",
        fields_change={"record_count": 2},
    )
    yield bad(
        "dv.key-order",
        "keys-descending",
        "the bitmaps of keys 0 and 1 swapped: keys must ascend",
        lambda b: _with_crc(_swap_first_two(b)),
        puffin=wide,
        fields=wide_fields,
    )
    yield bad(
        "dv.position",
        "key-too-large",
        "a key of 2^31 (positions from 2^63): the most significant bit of a position is 0",
        lambda b: _with_crc(b[:16] + struct.pack("<I", 2**31) + b[20:]),
    )
    yield bad(
        "dv.blob-reference",
        "offset-names-no-blob",
        "content_offset points one byte past the blob",
        fields_change={"content_offset": fields["content_offset"] + 1},
    )
    yield bad(
        "dv.blob-reference",
        "other-data-file",
        "the entry's referenced_data_file differs from the blob's referenced-data-file",
        fields_change={"referenced_data_file": "s3://b/t/data/other.parquet"},
    )
    yield bad("dv.entry", "equality-content", "a Puffin DV entry with content 2", fields_change={"content": 2})
    wrong_ids, wrong_fields = _dv_file([3], snapshot_id=7)
    yield _read_dv(
        "dv.blob-metadata",
        "snapshot-id-set",
        "a deletion-vector-v1 blob with snapshot-id 7 instead of -1",
        wrong_ids,
        manifest_fields(read_puffin(wrong_ids).blobs[0]),
    )
    no_card = write_puffin(
        [Blob(**{**dv_blob([3], DATA_FILE).__dict__, "properties": {"referenced-data-file": DATA_FILE}})]
    )
    yield _read_dv(
        "dv.blob-metadata",
        "no-cardinality",
        "a deletion-vector-v1 blob without the cardinality property",
        no_card,
        {**fields, "content_offset": 4, "content_size_in_bytes": fields["content_size_in_bytes"]},
    )
    no_ref = write_puffin([Blob(**{**dv_blob([3], DATA_FILE).__dict__, "properties": {"cardinality": "1"}})])
    yield _read_dv(
        "dv.blob-metadata",
        "no-referenced-data-file",
        "a deletion-vector-v1 blob without the referenced-data-file property",
        no_ref,
        {**fields, "content_offset": 4, "content_size_in_bytes": fields["content_size_in_bytes"]},
    )
    zstd, zstd_fields = _dv_file([3], compression_codec="zstd")
    yield _read_dv(
        "dv.blob-metadata",
        "compression-codec-set",
        "a deletion-vector-v1 blob compressed with zstd: a DV blob has no compression-codec",
        zstd,
        zstd_fields,
    )


def _swap_first_two(b: bytearray) -> bytearray:
    """The keys of the first two bitmaps swapped (bytes 16.. are key, bitmap, key, bitmap, ...)."""
    first_key = 16
    second = first_key + 4 + roaring_size(bytes(b), first_key + 4)
    b[first_key : first_key + 4], b[second : second + 4] = b[second : second + 4], b[first_key : first_key + 4]
    return b


def _read_puffin(rule: str, slug: str, description: str, data: bytes) -> CaseSpec:
    return case(rule, slug, description, "read-puffin", file_base64=_b64(data))


def puffin_specs() -> Iterator[CaseSpec]:
    blobs = [
        Blob("apache-datasketches-theta-v1", b"sketch bytes", (1,), 5, 2, None, {"ndv": "3"}),
        Blob("example-zstd", b"zstd " * 20, (1, 2), 5, 2, "zstd"),
        Blob("example-lz4", b"lz4 " * 20, (3,), 5, 2, "lz4"),
    ]
    good = write_puffin(blobs, {"created-by": "iceberg-conformance"})
    yield _read_puffin(
        "puffin.blob-metadata", "three-blobs", "three blobs (stored, zstd, lz4) and file properties", good
    )
    yield _read_puffin(
        "puffin.flags",
        "compressed-footer",
        "the same blobs with an lz4-compressed footer (flag bit 0)",
        write_puffin(blobs, {"created-by": "iceberg-conformance"}, compress_footer=True),
    )
    footer = json.dumps({"blobs": [], "properties": {"created-by": "iceberg-conformance"}}).encode()
    for slug, description, payload in (
        (
            "footer-lz4-without-content-size",
            "the footer payload is one LZ4 frame without the content size",
            lz4.frame.compress(footer, store_size=False),
        ),
        (
            "footer-two-lz4-frames",
            "the footer payload is two LZ4 frames, not a single frame",
            lz4.frame.compress(footer[:10], store_size=True) + lz4.frame.compress(footer[10:], store_size=True),
        ),
    ):
        yield _read_puffin("puffin.frame", slug, description, _with_footer_payload(payload))
    yield _read_puffin("puffin.footer", "no-blobs", "a file with no blob: magic and an empty footer", write_puffin([]))
    yield _read_puffin("puffin.magic", "header-magic", "the file starts with PFA2", b"PFA2" + good[4:])
    yield _read_puffin("puffin.magic", "footer-end-magic", "the footer ends with PFA0", good[:-1] + b"0")
    size_at = len(good) - 12
    yield _read_puffin(
        "puffin.footer",
        "payload-size-too-large",
        "FooterPayloadSize larger than the file",
        good[:size_at] + struct.pack("<i", len(good)) + good[size_at + 4 :],
    )
    yield _read_puffin(
        "puffin.flags", "reserved-flag", "a reserved flag bit (byte 0 bit 1) is set", good[:-8] + b"\x02" + good[-7:]
    )
    one = write_puffin([Blob("t", b"abc", (1,))])
    yield _read_puffin(
        "puffin.blob-range",
        "blob-beyond-footer",
        "a blob whose length reaches into the footer",
        _edit_footer(one, lambda f: f["blobs"][0].update(length=400)),
    )
    yield _read_puffin(
        "puffin.codec",
        "unknown-codec",
        "compression-codec snappy",
        _edit_footer(one, lambda f: f["blobs"][0].update({"compression-codec": "snappy"})),
    )
    yield _read_puffin(
        "puffin.frame",
        "not-a-zstd-frame",
        "compression-codec zstd on bytes that are not a Zstandard frame",
        _edit_footer(one, lambda f: f["blobs"][0].update({"compression-codec": "zstd"})),
    )
    yield _read_puffin(
        "puffin.blob-metadata",
        "no-type",
        "a BlobMetadata without type",
        _edit_footer(one, lambda f: f["blobs"][0].pop("type")),
    )


def _with_footer_payload(payload: bytes) -> bytes:
    """A file without blobs whose footer payload is `payload`, flagged as compressed (byte 0 bit 0)."""
    return b"PFA1" + b"PFA1" + payload + struct.pack("<i", len(payload)) + b"\x01\x00\x00\x00" + b"PFA1"


def _edit_footer(data: bytes, change) -> bytes:
    """The file with its (uncompressed) footer JSON changed."""
    p = read_puffin(data)
    start = len(data) - p.footer_size
    footer = json.loads(data[start + 4 : len(data) - 12])
    change(footer)
    payload = json.dumps(footer, separators=(",", ":")).encode()
    return data[:start] + b"PFA1" + payload + struct.pack("<i", len(payload)) + data[-8:]


def specs() -> Iterator[CaseSpec]:
    yield from dv_specs()
    yield from puffin_specs()
