"""Avro files rewritten with mutated records: decode an Avro container file, mutate its records
as JSON values (missing fields, wrong types, objects where lists belong), and encode them again
under a writer schema inferred from the mutated records, so readers get records of any shape.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import fastavro

from . import mutate_json

_NAMES = iter(range(10**9))


def records_of(data: bytes) -> tuple[dict, list[dict]] | None:
    """(key-value metadata, records) of an Avro file read with its own schema; None if unreadable."""
    try:
        reader = fastavro.reader(io.BytesIO(data), return_record_name=False)
        meta = {k: v.decode("utf-8", "replace") if isinstance(v, bytes) else v for k, v in reader.metadata.items() if not k.startswith("avro.")}
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


def infer(values: list[Any]) -> Any:
    """An Avro schema every one of `values` conforms to (a union when they differ)."""
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
        out.append({"type": "array", "items": infer([x for a in arrays for x in a]) if any(arrays) else "null"})
    if maps:
        out.append({"type": "map", "values": infer([x for m in maps for x in m.values()]) if any(maps) else "null"})
    if records:
        names = list(dict.fromkeys(k for r in records for k in r))
        fields = [{"name": n, "type": _optional(infer([r.get(n) for r in records]))} for n in names]
        out.append({"type": "record", "name": f"r{next(_NAMES)}", "fields": fields})
    if not out:
        return "null"
    return out[0] if len(out) == 1 else out


def _optional(schema: Any) -> Any:
    branches = schema if isinstance(schema, list) else [schema]
    return branches if "null" in branches else ["null", *branches]


def _name_ok(key: str) -> bool:
    return bool(key) and (key[0].isascii() and (key[0].isalpha() or key[0] == "_")) and all(c.isascii() and (c.isalnum() or c == "_") for c in key)


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


def write(meta: dict, records: list[dict]) -> bytes:
    """An Avro file of `records` (non-records among them dropped) under an inferred schema."""
    records = [_clamp(r) for r in records if isinstance(r, dict) and all(_name_ok(k) for k in r)]
    schema = infer(records) if records else {"type": "record", "name": "empty", "fields": []}
    if isinstance(schema, list):
        schema = next((s for s in schema if isinstance(s, dict) and s.get("type") == "record"), schema[0])
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, metadata={k: str(v) for k, v in meta.items()})
    return buf.getvalue()


def mutate_file(rng: random.Random, data: bytes) -> bytes | None:
    """The Avro file `data` with its records (or key-value metadata) mutated; None if unreadable."""
    read = records_of(data)
    if read is None:
        return None
    meta, records = read
    if rng.random() < 0.2 and meta:
        key = rng.choice(list(meta))
        meta[key] = rng.choice(["", "0", "4", "99", "x", "deletes", "data", "{}", "[", json.dumps(mutate_json.value(rng))])
    else:
        records = mutate_json.mutate(rng, records)
    if not isinstance(records, list):
        records = [records]
    try:
        return write(meta, records)
    except Exception:
        return None
