"""Manifest and manifest-list files as Avro object container files, read and written with fastavro.

Spec: "Manifests" ("A manifest is a valid Iceberg data file"; its key-value metadata), "Manifest
Lists". Reading returns the records in their physical Avro form: logical types are not
converted (a date stays an int of days, a decimal its two's-complement bytes), and Iceberg maps
stay arrays of key/value records, as the Avro encoding of Appendix A has them. The file's
key-value metadata is decoded as UTF-8. Writing is deterministic: a fixed sync marker and no codec, so the
same records give the same bytes.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import fastavro

from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, register, implements
from spec_impl.serde.binary import from_binary
from spec_impl.types import DecimalType, IcebergType

register(
    Rule(
        "manifest.avro-file",
        "Manifests; Manifest Lists",
        "Manifests and manifest lists are Avro object container files whose key-value metadata is UTF-8 text",
    ),
)

SYNC_MARKER = b"iceberg-conform!"  # 16 bytes: fixed so that writing is reproducible


@dataclass(frozen=True)
class AvroFile:
    """One decoded Avro file: its key-value metadata (without the `avro.*` keys), writer schema, records."""

    metadata: dict[str, str]
    schema: dict
    records: list[dict[str, Any]]


@implements("manifest.avro-file")
def read_avro(data: bytes, path: str = "") -> AvroFile:
    """Decode an Avro object container file (rule manifest.avro-file), naming `path` on failure."""
    try:
        blocks = fastavro.block_reader(io.BytesIO(data))
        raw = blocks.metadata
        schema = json.loads(raw["avro.schema"])  # fastavro has parsed it already: valid JSON of bounded depth
        physical = fastavro.parse_schema(_without_logical_types(schema))  # fastavro converts logical types otherwise
        records = []
        for block in blocks:
            stream = block.bytes_ if hasattr(block.bytes_, "read") else io.BytesIO(block.bytes_)
            records.extend(fastavro.schemaless_reader(stream, physical) for _ in range(block.num_records))
    except Exception as e:  # fastavro raises ValueError, EOFError, struct errors... on a damaged file
        raise InvalidInput(
            "manifest.avro-file", f"{path or 'the file'} is not a readable Avro file: {e}", path
        ) from None
    metadata = {}
    for key, value in raw.items():
        if key.startswith("avro."):
            continue
        try:
            metadata[key] = value if isinstance(value, str) else value.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput(
                "manifest.avro-file", f"key-value metadata {key!r} of {path or 'the file'} is not UTF-8", path
            ) from None
    return AvroFile(metadata, schema, records)


def _without_logical_types(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _without_logical_types(v) for k, v in schema.items() if k != "logicalType"}
    if isinstance(schema, list):
        return [_without_logical_types(s) for s in schema]
    return schema


def write_avro(schema: dict, records: list[dict[str, Any]], metadata: dict[str, str]) -> bytes:
    """Encode records as an Avro object container file with the given key-value metadata."""
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, metadata=dict(metadata), sync_marker=SYNC_MARKER)
    return buf.getvalue()


def avro_map(pairs: list[dict[str, Any]] | None) -> dict[Any, Any] | None:
    """An Iceberg map read from its Avro array-of-records form (Appendix A), as a dict."""
    if pairs is None or isinstance(pairs, dict):  # a dict: already read
        return pairs
    return {p["key"]: p["value"] for p in pairs}


@implements("manifest.avro-schema")
def physical_value(t: IcebergType, value: Any) -> Any:
    """An Avro-encoded value of Iceberg type `t` as the reference's physical value (Appendix A):
    Avro carries a decimal as its two's-complement big-endian unscaled bytes and a uuid as 16 bytes,
    the forms of Appendix D's binary serialization; every other primitive is already physical.
    A value of another Avro type than `t`'s is rejected (rule manifest.avro-schema)."""
    if value is None:
        return value
    name = "decimal" if isinstance(t, DecimalType) else getattr(t, "name", None)
    expected = _PYTHON_TYPES.get(name)
    if expected is not None and not (isinstance(value, expected) and (expected is bool or not isinstance(value, bool))):
        raise InvalidInput("manifest.avro-schema", f"a {t} value is an Avro {_AVRO_NAMES[expected]}", brief(value))
    if name not in ("decimal", "uuid"):
        return value
    return from_binary(t, value)


_PYTHON_TYPES = {
    "boolean": bool,
    "int": int,
    "long": int,
    "date": int,
    "time": int,
    "timestamp": int,
    "timestamptz": int,
    "timestamp_ns": int,
    "timestamptz_ns": int,
    "float": float,
    "double": float,
    "string": str,
    "uuid": bytes,
    "fixed": bytes,
    "binary": bytes,
    "decimal": bytes,
}
_AVRO_NAMES = {bool: "boolean", int: "int or long", float: "float or double", str: "string", bytes: "bytes or fixed"}


def to_avro_map(mapping: dict[Any, Any] | None) -> list[dict[str, Any]] | None:
    """A dict written in the Avro array-of-records form of an Iceberg map (Appendix A)."""
    return None if mapping is None else [{"key": k, "value": v} for k, v in mapping.items()]
