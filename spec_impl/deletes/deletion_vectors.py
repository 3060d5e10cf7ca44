"""Deletion vectors: the Puffin `deletion-vector-v1` blob and the manifest entry that points at it.

Spec: Puffin spec "`deletion-vector-v1` blob type"; table spec "Deletion Vectors" and the
`data_file` fields 143-145 (adopted v3 digest §1.5, §1.6).

    blob = length (4, big-endian: len(magic + vector)) | magic D1 D3 39 64 | vector | CRC-32 (4, big-endian)
    vector = count of 32-bit bitmaps (8, LE) | for each, keys ascending: key (4, LE) | 32-bit portable Roaring bitmap

A position's key is its high 32 bits and its bitmap holds the low 32 bits; positions are
non-negative (the most significant bit is 0). The CRC is `java.util.zip.CRC32` (= `zlib.crc32`)
over magic + vector. The blob carries the properties `referenced-data-file` and `cardinality`, no
compression-codec, and snapshot-id and sequence-number -1. The DV's manifest entry has
`content_offset` / `content_size_in_bytes` equal to the blob's offset / length, `record_count`
equal to the cardinality, and `referenced_data_file` equal to the blob's property.

The writer stores only non-empty keys and run-optimizes each bitmap; Iceberg Java also writes
an empty bitmap for every absent key below the highest one, which readers accept.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pyroaring import BitMap

from spec_impl import revisions
from spec_impl.deletes.puffin import Blob, BlobMetadata, PuffinFile, read_puffin
from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, implements, register

_BLOB = "Puffin spec: deletion-vector-v1 blob type; adopted 1.6"
_ENTRY = "Deletion Vectors; Manifests (data_file 143-145); adopted 1.5"
_V3 = ((3,), revisions.ADOPTED)
register(
    Rule(
        "dv.layout",
        _BLOB,
        "The blob is a 4-byte big-endian length of magic + vector (blob size - 8), the magic, the vector (8-byte "
        "LE bitmap count, then 4-byte LE key and a 32-bit portable Roaring bitmap each) and a 4-byte CRC, "
        "nothing more",
        *_V3,
    ),
    Rule("dv.magic", _BLOB, "The magic after the length is D1 D3 39 64", *_V3),
    Rule("dv.crc", _BLOB, "The last 4 bytes are the big-endian CRC-32 of magic + vector", *_V3),
    Rule(
        "dv.key-order",
        _BLOB,
        "The 32-bit bitmaps are ordered by unsigned comparison of their keys, each key once",
        *_V3,
    ),
    Rule(
        "dv.position",
        _BLOB,
        "Positions are non-negative 64-bit values (the most significant bit is 0): keys are at most 2^31 - 1",
        *_V3,
    ),
    Rule(
        "dv.cardinality",
        f"{_BLOB}; {_ENTRY}",
        "The number of set positions equals the blob's cardinality property and the manifest entry's record_count",
        *_V3,
    ),
    Rule(
        "dv.blob-metadata",
        _BLOB,
        "A deletion-vector-v1 blob has the properties referenced-data-file and cardinality, no "
        "compression-codec, and snapshot-id and sequence-number -1",
        *_V3,
    ),
    Rule(
        "dv.blob-reference",
        _ENTRY,
        "The DV's content_offset and content_size_in_bytes are a deletion-vector-v1 blob's offset and length, "
        "and its referenced_data_file is the blob's referenced-data-file",
        *_V3,
    ),
    Rule(
        "dv.entry",
        _ENTRY,
        "A DV's data_file has content 1 (position deletes), file_format puffin, and referenced_data_file, "
        "content_offset and content_size_in_bytes",
        *_V3,
    ),
)

BLOB_TYPE = "deletion-vector-v1"
MAGIC = b"\xd1\xd3\x39\x64"
POS_FIELD_ID = 2147483645  # _pos: the blob `fields` Iceberg Java writes
MAX_KEY = 2**31 - 1
_NO_RUNS, _RUNS = 12346, 12347  # Roaring cookies (RoaringFormatSpec)
_NO_OFFSET_THRESHOLD, _ARRAY_MAX = 4, 4096


@dataclass(frozen=True)
class DeletionVector:
    """The decoded vector: (key, 32-bit bitmap) pairs in ascending key order."""

    bitmaps: tuple[tuple[int, BitMap], ...]

    @property
    def cardinality(self) -> int:
        return sum(len(b) for _, b in self.bitmaps)

    def __contains__(self, position: int) -> bool:
        bitmap = dict(self.bitmaps).get(position >> 32)
        return bitmap is not None and (position & 0xFFFFFFFF) in bitmap

    def positions(self) -> Iterator[int]:
        """The deleted positions, ascending."""
        for key, bitmap in self.bitmaps:
            high = key << 32
            yield from (high | low for low in bitmap)


# --- writing -----------------------------------------------------------------------------


@implements("dv.position")
def serialize_dv(positions: Iterable[int]) -> bytes:
    """The `deletion-vector-v1` blob of a set of row positions (rule dv.position)."""
    by_key: dict[int, BitMap] = {}
    for p in positions:
        if type(p) is not int or not 0 <= p <= 2**63 - 1:
            raise InvalidInput("dv.position", "a deleted position is a non-negative 64-bit integer", p)
        by_key.setdefault(p >> 32, BitMap()).add(p & 0xFFFFFFFF)
    vector = bytearray(struct.pack("<Q", len(by_key)))
    for key in sorted(by_key):
        bitmap = by_key[key]
        bitmap.run_optimize()
        vector += struct.pack("<I", key) + bitmap.serialize()
    body = MAGIC + bytes(vector)
    return struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))


def dv_blob(positions: Iterable[int], referenced_data_file: str) -> Blob:
    """A Puffin blob for `write_puffin`, with the properties and -1 ids the spec requires."""
    content = serialize_dv(positions)
    cardinality = deserialize_dv(content).cardinality
    props = {"referenced-data-file": referenced_data_file, "cardinality": str(cardinality)}
    return Blob(BLOB_TYPE, content, (POS_FIELD_ID,), -1, -1, None, props)


def manifest_fields(blob: BlobMetadata) -> dict[str, Any]:
    """The data_file fields of the DV stored in `blob` (what a writer puts in the manifest)."""
    return {
        "content": 1,
        "file_format": "puffin",
        "record_count": int(blob.properties["cardinality"]),
        "referenced_data_file": blob.properties["referenced-data-file"],
        "content_offset": blob.offset,
        "content_size_in_bytes": blob.length,
    }


# --- reading -----------------------------------------------------------------------------


@implements("dv.cardinality", "dv.crc", "dv.layout", "dv.magic")
def deserialize_dv(blob: bytes, expected_cardinality: int | None = None) -> DeletionVector:
    """Decode a `deletion-vector-v1` blob, checking length, magic, CRC, layout, key order,
    positions and, when given, the cardinality (the manifest entry's record_count)."""
    blob = bytes(blob)
    if len(blob) < 4 + 4 + 8 + 4:
        raise InvalidInput(
            "dv.layout", "a deletion vector blob has at least 20 bytes (length, magic, bitmap count, CRC)", len(blob)
        )
    (length,) = struct.unpack_from(">I", blob, 0)
    if length != len(blob) - 8:
        raise InvalidInput("dv.layout", f"the length field must be the blob size minus 8 ({len(blob) - 8})", length)
    if blob[4:8] != MAGIC:
        raise InvalidInput("dv.magic", "the deletion vector magic must be D1 D3 39 64", blob[4:8].hex(" ").upper())
    body = blob[4:-4]
    (crc,) = struct.unpack_from(">I", blob, len(blob) - 4)
    if crc != zlib.crc32(body):
        raise InvalidInput("dv.crc", f"the CRC-32 of magic + vector is {zlib.crc32(body):#010x}", f"{crc:#010x}")
    dv = DeletionVector(tuple(_bitmaps(body[4:])))
    if expected_cardinality is not None and dv.cardinality != expected_cardinality:
        raise InvalidInput(
            "dv.cardinality",
            f"the vector holds {dv.cardinality} positions, the entry's record_count says",
            expected_cardinality,
        )
    return dv


@implements("dv.key-order", "dv.layout", "dv.position")
def _bitmaps(vector: bytes) -> Iterator[tuple[int, BitMap]]:
    """The (key, bitmap) pairs of the portable 64-bit Roaring serialization."""
    (count,) = struct.unpack_from("<Q", vector, 0)
    if count * 12 > len(vector) - 8:  # each bitmap takes at least a key and an 8-byte empty bitmap
        raise InvalidInput("dv.layout", f"the vector of {len(vector)} bytes cannot hold the bitmap count", count)
    at, previous = 8, -1
    for _ in range(count):
        if at + 4 > len(vector):
            raise InvalidInput("dv.layout", "the vector ends before a bitmap's key", at)
        (key,) = struct.unpack_from("<I", vector, at)
        if key <= previous:
            raise InvalidInput(
                "dv.key-order", f"key {key} follows key {previous}: keys must be strictly ascending", key
            )
        if key > MAX_KEY:
            raise InvalidInput(
                "dv.position", "a key above 2^31 - 1 makes positions with the most significant bit set", key
            )
        size = roaring_size(vector, at + 4)
        try:
            bitmap = BitMap.deserialize(vector[at + 4 : at + 4 + size])
        except ValueError as e:
            raise InvalidInput(
                "dv.layout", f"the bitmap of key {key} is not a valid 32-bit Roaring bitmap: {e}", key
            ) from None
        yield key, bitmap
        at, previous = at + 4 + size, key
    if at != len(vector):
        raise InvalidInput("dv.layout", f"{len(vector) - at} bytes follow the last bitmap", len(vector) - at)


@implements("dv.layout")
def roaring_size(data: bytes, start: int) -> int:
    """The byte size of the 32-bit portable Roaring bitmap at `start` (RoaringFormatSpec's
    cookie, descriptive header, offset header and containers), or dv.layout when truncated."""

    def u16(at: int) -> int:
        _need(data, at + 2, start)
        return struct.unpack_from("<H", data, at)[0]

    _need(data, start + 4, start)
    (cookie,) = struct.unpack_from("<I", data, start)
    if cookie & 0xFFFF == _RUNS:
        n, at = (cookie >> 16) + 1, start + 4
        _need(data, at + (n + 7) // 8, start)
        runs, at = data[at : at + (n + 7) // 8], at + (n + 7) // 8
        has_offsets = n >= _NO_OFFSET_THRESHOLD
    elif cookie == _NO_RUNS:
        _need(data, start + 8, start)
        n, at, runs, has_offsets = struct.unpack_from("<I", data, start + 4)[0], start + 8, b"", True
    else:
        raise InvalidInput(
            "dv.layout",
            f"a 32-bit Roaring bitmap starts with cookie {_NO_RUNS} or {_RUNS} (LE) at offset {start}",
            cookie,
        )
    if n > 65536:
        raise InvalidInput("dv.layout", "a 32-bit Roaring bitmap has at most 65536 containers", n)
    cards = [u16(at + 4 * i + 2) + 1 for i in range(n)]
    at += 4 * n + (4 * n if has_offsets else 0)
    for i, card in enumerate(cards):
        if runs and runs[i // 8] >> (i % 8) & 1:
            n_runs = u16(at)
            held = sum(u16(at + 4 + 4 * r) + 1 for r in range(n_runs))
            if held != card:
                raise InvalidInput(
                    "dv.layout", f"run container {i} at offset {start} holds {held} values, its header says", card
                )
            at += 2 + 4 * n_runs
        else:
            at += 2 * card if card <= _ARRAY_MAX else 8192
    _need(data, at, start)
    return at - start


@implements("dv.layout")
def _need(data: bytes, end: int, start: int) -> None:
    if end > len(data):
        raise InvalidInput("dv.layout", f"the Roaring bitmap at offset {start} is truncated", len(data))


# --- a DV through its manifest entry ---------------------------------------------------------


@implements("dv.blob-metadata", "dv.blob-reference", "dv.entry")
def dv_blob_metadata(puffin: PuffinFile, data_file: dict[str, Any]) -> BlobMetadata:
    """The blob a DV's data_file points at, with the checks of rules dv.entry, dv.blob-reference
    and dv.blob-metadata."""
    if not isinstance(data_file, dict):
        raise InvalidInput("dv.entry", "a deletion vector's data_file is an object", brief(data_file))
    for key in ("referenced_data_file", "content_offset", "content_size_in_bytes", "record_count"):
        if data_file.get(key) is None:
            raise InvalidInput(
                "dv.entry", f"a deletion vector's data_file needs {key}", brief(data_file.get("file_path"))
            )
    for key, kind in (
        ("referenced_data_file", str),
        ("content_offset", int),
        ("content_size_in_bytes", int),
        ("record_count", int),
    ):
        if not isinstance(data_file[key], kind) or isinstance(data_file[key], bool):
            raise InvalidInput(
                "dv.entry",
                f"a deletion vector's {key} is a {'string' if kind is str else 'long'}",
                brief(data_file[key]),
            )
    file_format = data_file.get("file_format", "puffin")
    if data_file.get("content", 1) != 1 or not isinstance(file_format, str) or file_format.lower() != "puffin":
        raise InvalidInput(
            "dv.entry",
            "a deletion vector's data_file has content 1 and file_format puffin",
            brief((data_file.get("content"), data_file.get("file_format"))),
        )
    span = (data_file["content_offset"], data_file["content_size_in_bytes"])
    blob = next((b for b in puffin.blobs if (b.offset, b.length) == span), None)
    if blob is None or blob.type != BLOB_TYPE:
        found = "no blob" if blob is None else f"a {blob.type!r} blob"
        raise InvalidInput(
            "dv.blob-reference", f"content_offset / content_size_in_bytes name {found}, not a {BLOB_TYPE} blob", span
        )
    _check_blob_metadata(blob)
    if blob.properties["referenced-data-file"] != data_file["referenced_data_file"]:
        raise InvalidInput(
            "dv.blob-reference",
            f"the blob's referenced-data-file is {blob.properties['referenced-data-file']!r}, "
            "the entry's referenced_data_file",
            data_file["referenced_data_file"],
        )
    return blob


@implements("dv.blob-metadata")
def _check_blob_metadata(blob: BlobMetadata) -> None:
    for key in ("referenced-data-file", "cardinality"):
        if key not in blob.properties:
            raise InvalidInput("dv.blob-metadata", f"a {BLOB_TYPE} blob needs the property {key!r}", blob.offset)
    if blob.compression_codec is not None:
        raise InvalidInput("dv.blob-metadata", f"a {BLOB_TYPE} blob is not compressed", blob.compression_codec)
    if (blob.snapshot_id, blob.sequence_number) != (-1, -1):
        ids = (blob.snapshot_id, blob.sequence_number)
        raise InvalidInput("dv.blob-metadata", "snapshot-id and sequence-number of a deletion vector blob are -1", ids)
    if not blob.properties["cardinality"].isascii() or not blob.properties["cardinality"].isdigit():
        raise InvalidInput(
            "dv.blob-metadata",
            "the cardinality property is a non-negative decimal integer",
            blob.properties["cardinality"],
        )


@implements("dv.cardinality")
def read_dv(puffin: PuffinFile, data_file: dict[str, Any]) -> DeletionVector:
    """The DV a manifest entry's data_file points at in `puffin`, fully checked: the blob
    reference, the blob's metadata, the layout, and the cardinality against both the blob's
    `cardinality` property and the entry's record_count."""
    blob = dv_blob_metadata(puffin, data_file)
    dv = deserialize_dv(puffin.payload(blob), data_file["record_count"])
    if dv.cardinality != int(blob.properties["cardinality"]):
        said = blob.properties["cardinality"]
        raise InvalidInput(
            "dv.cardinality", f"the vector holds {dv.cardinality} positions, the blob's cardinality property says", said
        )
    return dv


def deleted_positions(puffin_bytes: bytes, data_file: dict[str, Any]) -> list[int]:
    """The sorted row positions deleted by the DV whose data_file (or manifest entry with a
    `data_file`) is given, read from the Puffin file's bytes."""
    if isinstance(data_file, dict) and "data_file" in data_file:
        data_file = data_file["data_file"]
    return list(read_dv(read_puffin(puffin_bytes), data_file).positions())
