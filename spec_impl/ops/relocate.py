"""Moving a whole table to another location: every path inside its files rewritten.

A table's files name each other by absolute path ("Table Metadata": `location`, a snapshot's
`manifest-list`, `metadata-log`; "Manifest Lists": `manifest_path`; "Manifests": `file_path`,
`referenced_data_file` and the `file_path` bounds of position delete files; "Position Delete
Files": the `file_path` column; Puffin: a deletion vector's `referenced-data-file` property). A
golden table that a real engine wrote cannot be generated again at another place, so it is
relocated instead: the same files with `old` replaced by `new` at the start of every such path.

Rewritten files change size, so the rewrite goes bottom-up: Puffin footers and position delete
files first, then the manifests that list them (with their new `file_size_in_bytes`, and a Parquet
file's new `column_sizes`), then the
manifest lists (with the new `manifest_length`), then the metadata files. Position delete files
may be Parquet, Avro or ORC (Appendix A; an Avro file is told from a manifest by its schema). Data
files and equality delete files hold no paths and are copied as they are. Hadoop's `.crc` side files are dropped
(they would no longer match). Tooling, not a spec rule: the paths it rewrites are listed above, so
that a consumer in another language can do the same.
"""

from __future__ import annotations

import io
import json
import struct
from typing import Any

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

from spec_impl.datafiles.content_file import parquet_column_sizes
from spec_impl.deletes.puffin import FOOTER_TAIL, MAGIC, decompress, read_puffin
from spec_impl.manifests.avro_files import read_avro, write_avro

FILE_PATH_FIELD_ID = 2147483546  # the `file_path` column of position delete files ("Reserved Field IDs")
ORC_ID = b"iceberg.id"  # Appendix A (ORC): the type attribute of a column's id


class RelocationError(ValueError):
    """A file of the table lies outside its location, or cannot be read to be rewritten."""


def relocate(files: dict[str, bytes], old: str, new: str) -> dict[str, bytes]:
    """The table's `files` (by full path, all under `old`) moved under `new`, paths inside rewritten."""
    move = _Mover(old, new)
    outside = sorted(p for p in files if move(p) == p)
    if outside:
        raise RelocationError(f"{len(outside)} files are not under the table location {old}: {outside[:3]}")
    kept = {p: data for p, data in files.items() if not p.endswith(".crc")}
    out: dict[str, bytes] = {}
    sizes: dict[str, int] = {}  # new size of every file whose bytes changed, by its new path
    column_sizes: dict[str, dict[int, int]] = {}  # new column chunk sizes of rewritten Parquet files
    avro = {p: read_avro(d, p) for p, d in kept.items() if p.endswith(".avro")}
    avro = {p: f for p, f in avro.items() if _is_manifest(f) or _is_manifest_list(f)}  # not Avro data files
    lists = {p for p, f in avro.items() if _is_manifest_list(f)}
    for path, data in kept.items():  # leaves: files that name data files
        if path.endswith(".puffin"):
            data = _relocate_puffin(data, move)
        elif path.endswith(".parquet") and _is_position_delete_file(data):
            data = _relocate_position_deletes(data, move)
            column_sizes[move(path)] = parquet_column_sizes(data)
        elif path.endswith(".orc") and _is_orc_position_delete_file(data):
            data = _relocate_orc_position_deletes(data, move)
        elif path in avro or path.endswith(".metadata.json"):
            continue
        elif path.endswith(".avro") and _is_avro_position_delete_file(data):
            data = _relocate_avro_position_deletes(data, move)
        out[move(path)] = data
        if data is not files[path]:
            sizes[move(path)] = len(data)
    for path in sorted(set(avro) - lists):  # manifests
        out[move(path)] = data = _relocate_manifest(avro[path], move, sizes, column_sizes)
        sizes[move(path)] = len(data)
    for path in sorted(lists):
        out[move(path)] = _relocate_manifest_list(avro[path], move, sizes)
    for path, data in kept.items():
        if path.endswith(".metadata.json"):
            out[move(path)] = _relocate_metadata(data, move, path)
    return out


class _Mover:
    """`old` + rest -> `new` + rest, for any string that starts with the old location. A `file:`
    location is matched in both of its spellings (`file:/p` and `file:///p`: writers mix them)."""

    def __init__(self, old: str, new: str):
        old, self.new = old.rstrip("/"), new.rstrip("/")
        local = old.removeprefix("file://") if old.startswith("file:///") else old.removeprefix("file:")
        self.olds = (f"file:{local}", f"file://{local}") if old.startswith("file:") else (old,)

    def __call__(self, value: str) -> str:
        for old in self.olds:
            if value == old or value.startswith(old + "/"):
                return self.new + value[len(old) :]
        return value

    def deep(self, value: Any) -> Any:
        """Every string inside a JSON value moved."""
        if isinstance(value, str):
            return self(value)
        if isinstance(value, list):
            return [self.deep(v) for v in value]
        if isinstance(value, dict):
            return {k: self.deep(v) for k, v in value.items()}
        return value


def _is_manifest(f: Any) -> bool:
    return any(field.get("name") == "data_file" for field in f.schema.get("fields", []))


def _is_manifest_list(f: Any) -> bool:
    return any(field.get("name") == "manifest_path" for field in f.schema.get("fields", []))


def _relocate_metadata(data: bytes, move: _Mover, path: str) -> bytes:
    try:
        document = json.loads(data)
    except ValueError as e:
        raise RelocationError(f"{path} is not JSON: {e}") from None
    return json.dumps(move.deep(document), indent=2).encode()


def _relocate_manifest_list(f: Any, move: _Mover, sizes: dict[str, int]) -> bytes:
    records = []
    for r in f.records:
        path = move(r["manifest_path"])
        records.append({**r, "manifest_path": path, "manifest_length": sizes.get(path, r["manifest_length"])})
    return write_avro(f.schema, records, f.metadata)


def _relocate_manifest(f: Any, move: _Mover, sizes: dict[str, int], column_sizes: dict[str, dict[int, int]]) -> bytes:
    """A manifest with its paths moved, and the new sizes of the files the move rewrote (a rewritten
    Parquet file's column_sizes too: Manifests, column_sizes)."""
    records = []
    for entry in f.records:
        d = dict(entry["data_file"])
        d["file_path"] = move(d["file_path"])
        d["file_size_in_bytes"] = sizes.get(d["file_path"], d["file_size_in_bytes"])
        if d.get("column_sizes") is not None and d["file_path"] in column_sizes:
            new = column_sizes[d["file_path"]]
            d["column_sizes"] = [{**p, "value": new.get(p["key"], p["value"])} for p in d["column_sizes"]]
        if d.get("referenced_data_file") is not None:
            d["referenced_data_file"] = move(d["referenced_data_file"])
        for bounds in ("lower_bounds", "upper_bounds"):
            if d.get(bounds) is not None:
                d[bounds] = [_moved_bound(b, move) for b in d[bounds]]
        records.append({**entry, "data_file": d})
    return write_avro(f.schema, records, f.metadata)


def _moved_bound(bound: dict[str, Any], move: _Mover) -> dict[str, Any]:
    if bound["key"] != FILE_PATH_FIELD_ID:
        return bound
    return {**bound, "value": move(bound["value"].decode("utf-8")).encode("utf-8")}


def _is_position_delete_file(data: bytes) -> bool:
    schema = pq.read_schema(io.BytesIO(data))
    return any(_field_id(schema.field(i)) == FILE_PATH_FIELD_ID for i in range(len(schema)))


def _field_id(f: pa.Field) -> int | None:
    raw = (f.metadata or {}).get(b"PARQUET:field_id")
    return int(raw) if raw is not None else None


def _relocate_position_deletes(data: bytes, move: _Mover) -> bytes:
    table = pq.read_table(io.BytesIO(data), use_threads=False)
    i = next(i for i in range(table.num_columns) if _field_id(table.schema.field(i)) == FILE_PATH_FIELD_ID)
    paths = pa.array([move(p) for p in table.column(i).to_pylist()], table.schema.field(i).type)
    table = table.set_column(i, table.schema.field(i), paths)
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


def _is_orc_position_delete_file(data: bytes) -> bool:
    schema = orc.ORCFile(io.BytesIO(data)).schema
    return any((f.metadata or {}).get(ORC_ID) == str(FILE_PATH_FIELD_ID).encode() for f in schema)


def _relocate_orc_position_deletes(data: bytes, move: _Mover) -> bytes:
    """Rewritten by pyarrow's ORC writer, which keeps the type attributes (iceberg.id) of the fields."""
    table = orc.ORCFile(io.BytesIO(data)).read()
    i = next(
        i for i, f in enumerate(table.schema) if (f.metadata or {}).get(ORC_ID) == str(FILE_PATH_FIELD_ID).encode()
    )
    table = table.set_column(i, table.schema.field(i), pa.array([move(p) for p in table.column(i).to_pylist()]))
    out = io.BytesIO()
    orc.write_table(table, out)
    return out.getvalue()


def _is_avro_position_delete_file(data: bytes) -> bool:
    return any(f.get("field-id") == FILE_PATH_FIELD_ID for f in read_avro(data).schema.get("fields", []))


def _relocate_avro_position_deletes(data: bytes, move: _Mover) -> bytes:
    f = read_avro(data)
    name = next(field["name"] for field in f.schema["fields"] if field.get("field-id") == FILE_PATH_FIELD_ID)
    return write_avro(f.schema, [{**r, name: move(r[name])} for r in f.records], f.metadata)


def _relocate_puffin(data: bytes, move: _Mover) -> bytes:
    """The same blobs at the same offsets; the footer rewritten (uncompressed) with moved properties."""
    puffin = read_puffin(data)
    footer_start = len(data) - puffin.footer_size
    payload_size = puffin.footer_size - 4 - FOOTER_TAIL
    payload = data[footer_start + 4 : footer_start + 4 + payload_size]
    if puffin.footer_compressed:
        payload = decompress("lz4", payload, "footer payload")
    footer = move.deep(json.loads(payload))
    payload = json.dumps(footer, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return data[:footer_start] + MAGIC + payload + struct.pack("<i", len(payload)) + bytes(4) + MAGIC
