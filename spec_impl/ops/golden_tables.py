"""The golden tables of `vectors/tables/` as the case contract reads them (op `read-table`).

A golden table is a directory `vectors/tables/<id>/`: its files as an engine finds them, at the
placeholder location `PLACEHOLDER/<id>`, and its `case.json` (location, metadata location, format
version, the expected rows of every snapshot). `read_rows` is the reference reader's answer for
one snapshot, in the vectors' row form (`table_rows`). The files come from the directory, or, while
the generator writes the directory anew, from the generator (`built_by`): the op never climbs up to it.
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import json
import math
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pyarrow as pa

from spec_impl import revisions
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.ops.encoding import float_bits
from spec_impl.ops.regeneration import recover
from spec_impl.resources import vectors_dir
from spec_impl.scan.reader import read_table

PLACEHOLDER = "file:/iceberg-conformance/tables"

TableFiles = tuple[dict[str, bytes], str, int]  # files by path, metadata location, format version
_builders: list[Callable[[str], TableFiles]] = []


@contextlib.contextmanager
def built_by(source: Callable[[str], TableFiles]) -> Iterator[None]:
    """Within the block, a golden table's files come from `source` (the generator), not the directory."""
    _builders.append(source)
    try:
        yield
    finally:
        _builders.pop()


def table_files(table_id: str) -> TableFiles:
    """A golden table's files at its placeholder location, its metadata location and format version."""
    if _builders:
        return _builders[-1](table_id)
    return _from_directory(table_id)


def _from_directory(table_id: str) -> TableFiles:
    root = vectors_dir() / "tables"
    recover(root.parent)  # the vectors directory, whole after an interrupted regeneration
    directory = root / table_id
    if "/" in table_id or not (directory / "case.json").is_file():
        raise KeyError(f"read-table: no golden table {table_id!r} under {root} (a directory with a case.json)")
    doc = json.loads((directory / "case.json").read_text(encoding="utf-8"))
    files = {
        f"{doc['location']}/{p.relative_to(directory).as_posix()}": p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name not in ("case.json", "capture.json")
    }
    return files, doc["metadata-location"], doc["format-version"]


def read_rows(
    table_id: str, snapshot_id: int, revision: str = revisions.DEFAULT, metadata_columns: tuple[str, ...] = ()
) -> dict:
    """The columns and rows the reference reader returns for one snapshot of a golden table: with
    the row lineage columns in v3, or, when `metadata_columns` are asked for, with those instead."""
    files, metadata_location, format_version = table_files(table_id)
    table = read_table(
        InMemoryFiles(files),
        metadata_location,
        snapshot_id,
        with_lineage=format_version >= 3 and not metadata_columns,
        metadata_columns=metadata_columns,
        revision=revision,
    )
    return table_rows(table)


def table_rows(table: pa.Table) -> dict:
    """An Arrow table in the vectors' form: `columns` (names in order) and `rows` (objects by
    column name, sorted by their JSON): integers, strings and booleans as JSON, floats as JSON
    numbers or `{"ieee754": "<hex>"}` for the values JSON cannot carry (see encoding.py)."""
    types = dict(zip(table.column_names, table.schema.types))
    out = []
    for row in table.to_pylist():
        out.append({name: _json_value(value, types[name]) for name, value in row.items()})
    return {"columns": table.column_names, "rows": sorted(out, key=lambda r: json.dumps(r, sort_keys=True))}


def _json_value(value: Any, arrow_type: pa.DataType) -> Any:
    """A value of Arrow's `to_pylist` in the rows' JSON form (Appendix D's JSON single-value forms
    where one exists): decimals as plain strings at their scale, dates, times and timestamps in ISO
    form (timestamps with a zone converted to UTC, `+00:00`), binary as lowercase hex, uuids as
    strings, structs as objects, lists as arrays, maps as {"keys": [...], "values": [...]} with
    the entries in the order of their keys' JSON (maps are unordered), an empty map too (the
    Arrow type, not the value, tells a map from a list)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"ieee754": float_bits("double", value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, decimal.Decimal):
        return format(value, "f")  # plain digits at the value's scale (str() may use an exponent: -1E-7)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC)
        return value.isoformat(timespec="microseconds")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return str(value)
    if pa.types.is_map(arrow_type):  # a map is unordered: entries sorted by the key's JSON
        pairs = sorted(
            ((_json_value(k, arrow_type.key_type), _json_value(v, arrow_type.item_type)) for k, v in value),
            key=lambda kv: json.dumps(kv[0], sort_keys=True),
        )
        return {"keys": [k for k, _ in pairs], "values": [v for _, v in pairs]}
    if pa.types.is_struct(arrow_type):
        return {k: _json_value(v, arrow_type.field(k).type) for k, v in value.items()}
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type) or pa.types.is_fixed_size_list(arrow_type):
        return [_json_value(x, arrow_type.value_type) for x in value]
    raise TypeError(
        f"the table corpus has no JSON form for {type(value).__name__} values of Arrow type {arrow_type}: {value!r}"
    )


def snapshot_case_id(table_id: str, snapshot_id: int) -> str:
    """The case id of one snapshot of a golden table (op read-table)."""
    return f"table.{table_id}/snapshot-{snapshot_id}"
