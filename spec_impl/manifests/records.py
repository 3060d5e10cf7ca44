"""The shape of manifest-list rows and manifest entries as read: every field has the Avro type of
the spec's field tables, checked before anything uses it.

Spec: "Manifest Lists" (manifest_file), "Manifests" (manifest_entry, data_file), Appendix A
(maps are arrays of key/value records). An Avro file carries its own writer schema, so a
manifest may decode into records of any shape; readers (the tree walk, inheritance, the
validator, delete scoping, v4 replay) check them here, under rule manifest.avro-schema, and name
the field and the offending value. A null (or absent) optional field is fine here; which fields
a version requires is the validator's rule tree.required-fields, except the few a reader cannot
do without (`READER_REQUIRED`).
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.manifests.avro_schemas import DATA_FILE, FIELD_SUMMARY, MANIFEST_ENTRY, MANIFEST_FILE
from spec_impl.metadata.json_document import brief
from spec_impl.rules import implements

RULE = "manifest.avro-schema"
READER_REQUIRED = {
    "manifest_file": ("manifest_path",),
    "manifest_entry": ("status", "data_file"),
    "data_file": ("file_path", "record_count"),
}


def check_row(row: Any, where: str = "a manifest-list row", *, reader_required: bool = True) -> dict[str, Any]:
    """A manifest-list row (manifest_file) of the right shape, returned as is; `reader_required`
    False for a row being written (no manifest_path yet)."""
    return _record(row, MANIFEST_FILE, "manifest_file", where, reader_required)


def check_entry(entry: Any, where: str = "a manifest entry") -> dict[str, Any]:
    """A manifest_entry and its data_file of the right shape, returned as is."""
    _record(entry, MANIFEST_ENTRY, "manifest_entry", where)
    _record(entry["data_file"], DATA_FILE, "data_file", f"{where} data_file")
    return entry


@implements("manifest.avro-schema")
def check_entries(entries: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(entries, (list, tuple)):
        raise InvalidInput(
            RULE, f"{where}: the entries of a manifest are a list of manifest_entry records", type(entries).__name__
        )
    return [check_entry(e, f"{where} entry {i}") for i, e in enumerate(entries)]


@implements("manifest.avro-schema")
def _record(value: Any, table: list, name: str, where: str, reader_required: bool = True) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(RULE, f"{where}: a {name} is a record", brief(value))
    for key in READER_REQUIRED[name] if reader_required else ():
        if value.get(key) is None:
            raise InvalidInput(RULE, f"{where}: {name}.{key} is required", brief(value.get(key)))
    for _, field, avro_type, _ in table:
        v = value.get(field)
        if v is not None and not conforms(v, avro_type):
            raise InvalidInput(RULE, f"{where}: {name}.{field} must be {_describe(avro_type)}", brief(v))
    return value


def conforms(v: Any, t: Any) -> bool:
    """Whether the decoded value `v` has the Avro type `t` of a field table (ints and longs in range)."""
    if t in ("int", "long"):
        bits = 32 if t == "int" else 64
        return type(v) is int and -(2 ** (bits - 1)) <= v < 2 ** (bits - 1)
    if t == "string":
        return isinstance(v, str)
    if t == "bytes":
        return isinstance(v, bytes)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "partition":
        return isinstance(v, dict)
    if t == "data_file":
        return isinstance(v, dict)  # checked field by field by check_entry
    if t == "field_summary":
        return isinstance(v, dict) and all(
            x is None or conforms(x, ft) for _, f, ft, _ in FIELD_SUMMARY for x in (v.get(f),)
        )
    if t[0] == "list":
        return isinstance(v, list) and all(x is not None and conforms(x, t[2]) for x in v)
    _, _, key_type, _, value_type = t  # a map: an array of key/value records (Avro), or a dict (in memory)
    if isinstance(v, dict):
        return all(
            k is not None and conforms(k, key_type) and (x is None or conforms(x, value_type)) for k, x in v.items()
        )
    return isinstance(v, list) and all(
        isinstance(p, dict)
        and p.get("key") is not None
        and conforms(p["key"], key_type)
        and (p.get("value") is None or conforms(p["value"], value_type))
        for p in v
    )


def _describe(t: Any) -> str:
    if isinstance(t, str):
        return {"partition": "a partition record", "field_summary": "a field_summary record"}.get(t, f"an Avro {t}")
    if t[0] == "list":
        return f"a list of {_describe(t[2])}"
    return f"a map ({_describe(t[2])} to {_describe(t[4])}) as key/value records"
