"""Avro files rewritten with mutated records: decode an Avro container file, mutate its records
as JSON values (missing fields, wrong types, objects where lists belong), and encode them again
under a writer schema inferred from the mutated records, so readers get records of any shape.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import fastavro

from . import mutate_json


def records_of(data: bytes) -> tuple[dict, list[dict]] | None:
    """(key-value metadata, records) of an Avro file read with its own schema; None if unreadable."""
    try:
        reader = fastavro.reader(io.BytesIO(data), return_record_name=False)
        meta = {
            k: v.decode("utf-8", "replace") if isinstance(v, bytes) else v
            for k, v in reader.metadata.items()
            if not k.startswith("avro.")
        }
        raw_schema = json.loads(reader.metadata["avro.schema"])
        records = list(fastavro.reader(io.BytesIO(data), reader_schema=_physical(raw_schema)))
        return meta, records
    except Exception:
        return None


def _physical(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _physical(v) for k, v in schema.items() if k != "logicalType"}
    if isinstance(schema, list):
        return [_physical(s) for s in schema]
    return schema


SYNC_MARKER = b"fuzzing-iceberg!"  # fixed, not fastavro's random one: an input is made again byte for byte


def infer(values: list[Any], names: Iterator[int] | None = None) -> Any:
    """An Avro schema every one of `values` conforms to (a union when they differ); its records
    are named r0, r1, ... in the order they are made, so an input is made again byte for byte."""
    names = itertools.count() if names is None else names
    branches: dict[str, Any] = {}
    records, arrays, maps = [], [], []
    for v in values:
        if v is None:
            branches["null"] = "null"
        elif isinstance(v, bool):
            branches["boolean"] = "boolean"
        elif isinstance(v, int):
            branches["long"] = "long" if -(2**63) <= v < 2**63 else "double"
        elif isinstance(v, float):
            branches["double"] = "double"
        elif isinstance(v, str):
            branches["string"] = "string"
        elif isinstance(v, bytes):
            branches["bytes"] = "bytes"
        elif isinstance(v, list):
            arrays.append(v)
        elif isinstance(v, dict) and all(_name_ok(k) for k in v):
            records.append(v)
        elif isinstance(v, dict):
            maps.append(v)
    out = list(dict.fromkeys(branches.values()))
    if arrays:
        out.append({"type": "array", "items": infer([x for a in arrays for x in a], names) if any(arrays) else "null"})
    if maps:
        out.append(
            {"type": "map", "values": infer([x for m in maps for x in m.values()], names) if any(maps) else "null"}
        )
    if records:
        keys = list(dict.fromkeys(k for r in records for k in r))
        fields = [{"name": k, "type": _optional(infer([r.get(k) for r in records], names))} for k in keys]
        out.append({"type": "record", "name": f"r{next(names)}", "fields": fields})
    if not out:
        return "null"
    return out[0] if len(out) == 1 else out


def _optional(schema: Any) -> Any:
    branches = schema if isinstance(schema, list) else [schema]
    return branches if "null" in branches else ["null", *branches]


def _name_ok(key: str) -> bool:
    return (
        bool(key)
        and (key[0].isascii() and (key[0].isalpha() or key[0] == "_"))
        and all(c.isascii() and (c.isalnum() or c == "_") for c in key)
    )


def _clamp(v: Any) -> Any:
    """Values Avro cannot carry (ints beyond 64 bits, non-UTF-8 keys) replaced by near ones."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v if -(2**63) <= v < 2**63 else float(v) if abs(v) < 1e308 else 1e308
    if isinstance(v, str):
        return v.encode("utf-8", "replace").decode("utf-8")
    if isinstance(v, dict):
        return {k.encode("utf-8", "replace").decode("utf-8"): _clamp(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_clamp(x) for x in v]
    return v


def _branch(v: Any) -> str:
    """The name of the union branch that `infer` made for the value `v`."""
    if v is None:
        return "null"
    if isinstance(v, dict):
        return "record" if all(_name_ok(k) for k in v) else "map"
    return {bool: "boolean", int: "long", float: "double", str: "string", bytes: "bytes", list: "array"}[type(v)]


def _tagged(v: Any, schema: Any) -> Any:
    """`v` with each value under a union written in fastavro's tuple notation (branch name, value),
    so the writer does not search the union by validating the value against each branch: that
    search is quadratic in the nesting depth, and made deeply nested inputs take seconds."""
    if isinstance(schema, list):
        kind = _branch(v)
        for branch in schema:
            name = branch if isinstance(branch, str) else branch["type"]
            if name == kind:
                return (branch["name"] if kind == "record" else kind, _tagged(v, branch))
        raise ValueError(f"no branch {kind} in {schema}")
    if isinstance(schema, dict):
        if schema["type"] == "record":
            return {f["name"]: _tagged(v.get(f["name"]), f["type"]) for f in schema["fields"]}
        if schema["type"] == "array":
            return [_tagged(x, schema["items"]) for x in v]
        if schema["type"] == "map":
            return {k: _tagged(x, schema["values"]) for k, x in v.items()}
    return v


def write(meta: dict, records: list[dict]) -> bytes:
    """An Avro file of `records` (non-records among them dropped) under an inferred schema."""
    records = [_clamp(r) for r in records if isinstance(r, dict) and all(_name_ok(k) for k in r)]
    schema = infer(records) if records else {"type": "record", "name": "empty", "fields": []}
    buf = io.BytesIO()
    tagged = [_tagged(r, schema) for r in records]
    fastavro.writer(
        buf,
        fastavro.parse_schema(schema),
        tagged,
        metadata={k: str(v) for k, v in meta.items()},
        sync_marker=SYNC_MARKER,
    )
    return buf.getvalue()


def mutate_file(rng: random.Random, data: bytes) -> bytes | None:
    """The Avro file `data` with its records (or key-value metadata) mutated; None if unreadable."""
    read = records_of(data)
    if read is None:
        return None
    meta, records = read
    if rng.random() < 0.2 and meta:
        key = rng.choice(list(meta))
        meta[key] = rng.choice(
            ["", "0", "4", "99", "x", "deletes", "data", "{}", "[", json.dumps(mutate_json.value(rng))]
        )
    else:
        records = mutate_json.mutate(rng, records)
    if not isinstance(records, list):
        records = [records]
    try:
        return write(meta, records)
    except Exception:
        return None
