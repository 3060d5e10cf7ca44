"""Puffin files: the reader with every check a reader must make, and a deterministic writer.

Spec: the Puffin spec (`puffin-spec.md`: "File structure", "Footer structure", "Footer Payload",
"FileMetadata", "BlobMetadata", "Compression codecs"), summarised in the adopted v3 digest §4.

    Magic Blob₁ ... Blobₙ Footer          Magic = 50 46 41 31 ("PFA1")
    Footer = Magic FooterPayload FooterPayloadSize Flags Magic

`FooterPayloadSize` is a 4-byte signed little-endian int; `Flags` are 4 bytes, of which only
byte 0 bit 0 (the payload is one LZ4 frame) is defined. The reader rejects any other set flag,
as Iceberg Java and iceberg-rust do: a reserved flag could change how the footer is read. A blob
lies between the header magic and the footer. Compressed data (a blob, or the footer) is a single
LZ4 or Zstandard frame with its content size present.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

import lz4.frame
import zstandard

from spec_impl.errors import InvalidInput, SpecError
from spec_impl.metadata import json_document
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, register, implements

_PUFFIN = "Puffin spec"
register(
    Rule(
        "puffin.magic",
        f"{_PUFFIN}: File structure, Footer structure; adopted 4",
        "A Puffin file starts with the magic 50 46 41 31 and its footer starts and ends with it",
    ),
    Rule(
        "puffin.footer",
        f"{_PUFFIN}: Footer structure, Footer Payload, FileMetadata; adopted 4",
        "FooterPayloadSize (4-byte signed LE) fits the file; the payload is UTF-8 JSON of a FileMetadata object: "
        "a required blobs list and optional string properties",
    ),
    Rule(
        "puffin.flags",
        f"{_PUFFIN}: Footer structure",
        "Flags byte 0 bit 0 marks a compressed footer payload; every other bit is reserved and 0",
    ),
    Rule(
        "puffin.blob-metadata",
        f"{_PUFFIN}: BlobMetadata; adopted 4",
        "A BlobMetadata has type (string), fields (list of int), snapshot-id, sequence-number, offset and length "
        "(long), and optional compression-codec (string) and properties (string map)",
    ),
    Rule(
        "puffin.blob-range",
        f"{_PUFFIN}: File structure, BlobMetadata",
        "A blob's offset and length (after compression) lie between the header magic and the footer",
    ),
    Rule(
        "puffin.codec",
        f"{_PUFFIN}: Compression codecs",
        "compression-codec, when present, is lz4 or zstd; other codecs are not supported",
    ),
    Rule(
        "puffin.frame",
        f"{_PUFFIN}: Compression codecs, Footer Payload",
        "Compressed data is a single LZ4 frame or Zstandard frame with the content size present",
    ),
)

MAGIC = b"PFA1"
FOOTER_TAIL = 12  # FooterPayloadSize (4) + Flags (4) + Magic (4)
FOOTER_COMPRESSED = 0x01  # byte 0, bit 0
CODECS = ("lz4", "zstd")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
_LZ4_MAGIC = b"\x04\x22\x4d\x18"
_LZ4_CONTENT_SIZE_FLAG = 0x08  # FLG bit 3 (LZ4 frame format)
MAX_DECOMPRESSED = (
    256 * 1024 * 1024
)  # a resource limit of the reference: the declared content size is checked before decoding


@dataclass(frozen=True)
class BlobMetadata:
    """One `BlobMetadata` of the footer; `properties` is empty when the JSON has none."""

    type: str
    fields: tuple[int, ...]
    snapshot_id: int
    sequence_number: int
    offset: int
    length: int
    compression_codec: str | None = None
    properties: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PuffinFile:
    """A read Puffin file: its blobs' metadata, file properties, the footer size and the bytes."""

    blobs: tuple[BlobMetadata, ...]
    properties: dict[str, str]
    footer_size: int  # the whole footer: what table statistics call file-footer-size-in-bytes
    footer_compressed: bool
    data: bytes = field(repr=False)

    def payload(self, blob: BlobMetadata) -> bytes:
        """The blob's bytes as stored (still compressed)."""
        return self.data[blob.offset : blob.offset + blob.length]

    @implements("puffin.frame")
    def read_blob(self, blob: BlobMetadata) -> bytes:
        """The blob's content, decompressed per its compression-codec (rule puffin.frame)."""
        return decompress(blob.compression_codec, self.payload(blob), f"blob at offset {blob.offset}")


# --- reading -----------------------------------------------------------------------------


@implements("puffin.blob-range", "puffin.footer", "puffin.magic")
def read_puffin(data: bytes) -> PuffinFile:
    """Parse a Puffin file, checking magics, footer, flags, metadata, blob ranges and codecs."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidInput("puffin.magic", "a Puffin file is bytes", type(data).__name__)
    data = bytes(data)
    if len(data) < len(MAGIC) or data[:4] != MAGIC:
        raise InvalidInput("puffin.magic", "the file does not start with the Puffin magic 50 46 41 31", data[:4])
    if len(data) < 4 + 4 + FOOTER_TAIL:
        raise InvalidInput(
            "puffin.footer",
            f"a Puffin file has at least {4 + 4 + FOOTER_TAIL} bytes (magic and an empty footer)",
            len(data),
        )
    if data[-4:] != MAGIC:
        raise InvalidInput("puffin.magic", "the footer does not end with the Puffin magic", data[-4:])
    (payload_size,) = struct.unpack_from("<i", data, len(data) - FOOTER_TAIL)
    flags = data[len(data) - 8 : len(data) - 4]
    footer_start = len(data) - FOOTER_TAIL - payload_size - 4
    if payload_size < 0 or footer_start < 4:
        raise InvalidInput("puffin.footer", f"FooterPayloadSize does not fit a file of {len(data)} bytes", payload_size)
    if data[footer_start : footer_start + 4] != MAGIC:
        found = data[footer_start : footer_start + 4]
        raise InvalidInput(
            "puffin.magic", f"the footer at offset {footer_start} does not start with the Puffin magic", found
        )
    compressed = _flags(flags)
    payload = data[footer_start + 4 : footer_start + 4 + payload_size]
    if compressed:
        payload = decompress("lz4", payload, "footer payload")
    metadata = _footer_json(payload)
    blobs = tuple(_blob_metadata(b, i) for i, b in enumerate(metadata["blobs"]))
    for i, b in enumerate(blobs):
        if b.offset < 4 or b.offset + b.length > footer_start:
            raise InvalidInput(
                "puffin.blob-range",
                f"blob {i} [{b.offset}, {b.offset + b.length}) is not between the header magic "
                f"and the footer at offset {footer_start}",
                (b.offset, b.length),
            )
    return PuffinFile(blobs, metadata["properties"], len(data) - footer_start, compressed, data)


@implements("puffin.flags")
def _flags(flags: bytes) -> bool:
    """Whether the footer payload is compressed; a reserved bit set is rejected (rule puffin.flags)."""
    value = int.from_bytes(flags, "little")
    if value & ~FOOTER_COMPRESSED:
        raise InvalidInput(
            "puffin.flags", "reserved footer flag bits are set (only byte 0 bit 0 is defined)", flags.hex(" ")
        )
    return bool(value & FOOTER_COMPRESSED)


@implements("puffin.footer")
def _footer_json(payload: bytes) -> dict[str, Any]:
    """The FileMetadata object: `blobs` a list, `properties` a string map ({} when absent)."""
    try:
        obj = json_document.loads(payload, "the footer payload")
    except SpecError as e:  # not UTF-8, not JSON, NaN tokens, duplicate keys, too deep (rule json.document)
        raise InvalidInput("puffin.footer", f"the footer payload is not strict JSON: {e}", payload[:40]) from None
    if not isinstance(obj, dict):
        raise InvalidInput(
            "puffin.footer", "the footer payload is not a JSON object (FileMetadata)", type(obj).__name__
        )
    if not isinstance(obj.get("blobs"), list):
        raise InvalidInput("puffin.footer", "FileMetadata needs a 'blobs' list", brief(obj.get("blobs")))
    properties = _string_map(obj.get("properties"), "puffin.footer", "FileMetadata properties")
    return {"blobs": obj["blobs"], "properties": properties}


def _string_map(value: Any, rule: str, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise InvalidInput(rule, f"{what} must be a JSON object with string values", brief(value))
    return dict(value)


@implements("puffin.blob-metadata")
def _long(obj: dict[str, Any], key: str, where: str, lo: int = LONG_MIN) -> int:
    value = obj.get(key)
    if type(value) is not int or not lo <= value <= LONG_MAX:
        limit = "a non-negative long" if lo == 0 else "a long"
        raise InvalidInput("puffin.blob-metadata", f"{where}: {key!r} must be {limit}", brief(value))
    return value


@implements("puffin.blob-metadata", "puffin.codec")
def _blob_metadata(obj: Any, index: int) -> BlobMetadata:
    """One BlobMetadata, field by field (rules puffin.blob-metadata, puffin.codec)."""
    where = f"blob {index}"
    if not isinstance(obj, dict):
        raise InvalidInput("puffin.blob-metadata", f"{where} is not a JSON object", brief(obj))
    if not isinstance(obj.get("type"), str):
        raise InvalidInput("puffin.blob-metadata", f"{where}: 'type' must be a string", brief(obj.get("type")))
    fields = obj.get("fields")
    if not isinstance(fields, list) or not all(type(f) is int and INT_MIN <= f <= INT_MAX for f in fields):
        raise InvalidInput("puffin.blob-metadata", f"{where}: 'fields' must be a list of int field ids", brief(fields))
    codec = obj.get("compression-codec")
    if codec is not None and not isinstance(codec, str):
        raise InvalidInput("puffin.blob-metadata", f"{where}: 'compression-codec' must be a string", brief(codec))
    if codec is not None and codec not in CODECS:
        raise InvalidInput("puffin.codec", f"{where}: compression-codec must be lz4 or zstd (or absent)", codec)
    return BlobMetadata(
        obj["type"],
        tuple(fields),
        _long(obj, "snapshot-id", where),
        _long(obj, "sequence-number", where),
        _long(obj, "offset", where, 0),
        _long(obj, "length", where, 0),
        codec,
        _string_map(obj.get("properties"), "puffin.blob-metadata", f"{where} properties"),
    )


# --- compression -------------------------------------------------------------------------


@implements("puffin.codec")
def decompress(codec: str | None, data: bytes, what: str = "data") -> bytes:
    """Decode `data` stored with `codec` (None: uncompressed): one frame, content size present."""
    if codec is None:
        return data
    if codec == "lz4":
        return _lz4_decompress(data, what)
    if codec == "zstd":
        return _zstd_decompress(data, what)
    raise InvalidInput("puffin.codec", f"{what}: compression-codec must be lz4 or zstd (or absent)", codec)


@implements("puffin.frame")
def _lz4_decompress(data: bytes, what: str) -> bytes:
    if data[:4] != _LZ4_MAGIC or len(data) < 7:
        raise InvalidInput("puffin.frame", f"{what} is not an LZ4 frame (magic 04 22 4D 18)", data[:4].hex(" "))
    if not data[4] & _LZ4_CONTENT_SIZE_FLAG:
        raise InvalidInput("puffin.frame", f"{what}: the LZ4 frame has no content size", data[4])
    if len(data) < 14:
        raise InvalidInput("puffin.frame", f"{what}: the LZ4 frame header is truncated", len(data))
    size = int.from_bytes(data[6:14], "little")  # FLG, BD, then the 8-byte content size
    if size > MAX_DECOMPRESSED:
        raise InvalidInput(
            "puffin.frame",
            f"{what}: the LZ4 frame does not decode within the reference's limit of {MAX_DECOMPRESSED} bytes: it "
            f"declares {size}",
            size,
        )
    try:
        out, used = lz4.frame.decompress(data, return_bytes_read=True)
    except RuntimeError as e:
        raise InvalidInput("puffin.frame", f"{what}: the LZ4 frame does not decode: {e}", len(data)) from None
    if used != len(data):
        raise InvalidInput("puffin.frame", f"{what}: {len(data) - used} bytes follow the single LZ4 frame", len(data))
    return out


@implements("puffin.frame")
def _zstd_decompress(data: bytes, what: str) -> bytes:
    try:
        size = zstandard.get_frame_parameters(data).content_size
        if size == zstandard.CONTENTSIZE_UNKNOWN:
            raise InvalidInput("puffin.frame", f"{what}: the Zstandard frame has no content size", len(data))
        if size > MAX_DECOMPRESSED:
            raise InvalidInput(
                "puffin.frame",
                f"{what}: the Zstandard frame declares {size} bytes, above the reference's limit of {MAX_DECOMPRESSED}",
                size,
            )
        return zstandard.ZstdDecompressor().decompress(data, allow_extra_data=False)
    except zstandard.ZstdError as e:
        raise InvalidInput("puffin.frame", f"{what} is not a single Zstandard frame: {e}", len(data)) from None


@implements("puffin.codec", "puffin.frame")
def compress(codec: str | None, data: bytes) -> bytes:
    """Encode `data` as one frame of `codec` with its content size (deterministic settings)."""
    if codec is None:
        return data
    if codec == "lz4":
        if not data:  # lz4 frames record a content size of 0 as "absent"
            raise InvalidInput(
                "puffin.frame", "an empty payload has no LZ4 frame with a content size; write it uncompressed", codec
            )
        return lz4.frame.compress(data, store_size=True, compression_level=0, content_checksum=False)
    if codec == "zstd":
        return zstandard.ZstdCompressor(level=3, write_content_size=True, write_checksum=False).compress(data)
    raise InvalidInput("puffin.codec", "compression-codec must be lz4 or zstd (or absent)", codec)


# --- writing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Blob:
    """A blob to write: its content (uncompressed) and the metadata the writer does not compute."""

    type: str
    content: bytes
    fields: tuple[int, ...] = ()
    snapshot_id: int = -1
    sequence_number: int = -1
    compression_codec: str | None = None
    properties: dict[str, str] = field(default_factory=dict)


def write_puffin(
    blobs: list[Blob], properties: dict[str, str] | None = None, *, compress_footer: bool = False
) -> bytes:
    """A Puffin file: blobs stored in order after the magic, then the footer.

    The footer JSON has keys in the spec's table order, no spaces, and omits compression-codec
    when absent and properties when empty (as Iceberg Java writes it); property order is kept.
    """
    out = bytearray(MAGIC)
    metadata = []
    for b in blobs:
        stored = compress(b.compression_codec, b.content)
        metadata.append(_blob_json(b, len(out), len(stored)))
        out += stored
    footer: dict[str, Any] = {"blobs": metadata}
    if properties:
        footer["properties"] = dict(properties)
    payload = json.dumps(footer, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if compress_footer:
        payload = compress("lz4", payload)
    flags = bytes([FOOTER_COMPRESSED if compress_footer else 0, 0, 0, 0])
    out += MAGIC + payload + struct.pack("<i", len(payload)) + flags + MAGIC
    return bytes(out)


def _blob_json(b: Blob, offset: int, length: int) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "type": b.type,
        "fields": list(b.fields),
        "snapshot-id": b.snapshot_id,
        "sequence-number": b.sequence_number,
        "offset": offset,
        "length": length,
    }
    if b.compression_codec is not None:
        obj["compression-codec"] = b.compression_codec
    if b.properties:
        obj["properties"] = dict(b.properties)
    return obj
