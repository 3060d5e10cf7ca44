"""The `statistics` and `partition-statistics` fields of table metadata: each entry's fields, the
blob metadata of a statistics file, and the snapshots they name.

Spec: "Table Statistics" and "Partition Statistics" (the field tables), the adopted v3 digest §3
("The `snapshot-id` type was corrected from string to `long`") and §4 (BlobMetadata: theta
sketches' `ndv` property). The files themselves are checked by `statistics_files`.
"""

from __future__ import annotations

import re
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, implements, register

_TABLE, _PARTITION = "Table Statistics", "Partition Statistics"
THETA = "apache-datasketches-theta-v1"
register(
    Rule(
        "table.statistics.blob-metadata",
        _TABLE,
        "Each blob-metadata entry has type (string), snapshot-id and sequence-number (long), fields (a list of "
        "field ids) and optional properties (a string map)",
    ),
    Rule(
        "table.statistics.snapshot",
        f"{_TABLE}; {_PARTITION}",
        "The snapshot-id of a statistics or partition-statistics entry is the ID of a snapshot of the table",
    ),
    Rule(
        "table.statistics.blob-snapshot",
        _TABLE,
        "A blob computed from a snapshot of the table carries that snapshot's sequence number",
    ),
    Rule(
        "partition-statistics.one-per-snapshot",
        _PARTITION,
        "Each snapshot has at most one partition-statistics entry",
    ),
    Rule(
        "puffin.theta-sketch",
        "Table Statistics; adopted 4",
        "An apache-datasketches-theta-v1 blob's ndv property, when present, is a decimal integer",
        (1, 2, 3),
        revisions.ADOPTED,
    ),
)

_STATISTICS_FIELDS = ("snapshot-id", "statistics-path", "file-size-in-bytes", "file-footer-size-in-bytes")
_PARTITION_FIELDS = ("snapshot-id", "statistics-path", "file-size-in-bytes")
_DECIMAL = re.compile(r"0|[1-9][0-9]*")


def _is_long(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def _snapshot_id(value: Any, revision: str) -> int | None:
    """The snapshot id an entry names. The seed's field table types it `string`; the adopted spec
    corrected it to `long` (digest §3), which is what writers write: the seed revision reads both."""
    if _is_long(value):
        return value
    if (
        not revisions.has(revision, revisions.V3_ADOPTED)
        and isinstance(value, str)
        and re.fullmatch(r"-?[0-9]+", value)
    ):
        return int(value)
    return None


@implements("table.statistics")
def check_entry(entry: Any, key: str, revision: str) -> int:
    """One entry of `statistics` or `partition-statistics` (`key`): its required fields and their
    types; returns the snapshot id it names."""
    required = _STATISTICS_FIELDS + ("blob-metadata",) if key == "statistics" else _PARTITION_FIELDS
    if not isinstance(entry, dict) or not set(required) <= entry.keys():
        raise InvalidInput("table.statistics", f"a {key} entry needs {', '.join(required)}", brief(entry))
    sid = _snapshot_id(entry["snapshot-id"], revision)
    if sid is None:
        raise InvalidInput("table.statistics", f"the snapshot-id of a {key} entry is a long", entry["snapshot-id"])
    if not isinstance(entry["statistics-path"], str):
        raise InvalidInput("table.statistics", "statistics-path is a string", brief(entry["statistics-path"]))
    for size in required[2:4]:
        if size in entry and not (_is_long(entry[size]) and entry[size] >= 0):
            raise InvalidInput("table.statistics", f"{size} is a non-negative long", brief(entry[size]))
    if key == "statistics":
        if entry.get("key-metadata") is not None and not isinstance(entry["key-metadata"], str):
            raise InvalidInput("table.statistics", "key-metadata is a base64 string", brief(entry["key-metadata"]))
        if not isinstance(entry["blob-metadata"], list):
            raise InvalidInput("table.statistics", "blob-metadata is a list", brief(entry["blob-metadata"]))
        for blob in entry["blob-metadata"]:
            check_blob_metadata(blob, revision)
    return sid


@implements("table.statistics.blob-metadata")
def check_blob_metadata(blob: Any, revision: str) -> None:
    """One blob metadata struct of a statistics entry ("Table Statistics": type, snapshot-id,
    sequence-number and fields required, properties an optional string map)."""
    rule = "table.statistics.blob-metadata"
    if not isinstance(blob, dict) or not {"type", "snapshot-id", "sequence-number", "fields"} <= blob.keys():
        raise InvalidInput(rule, "blob metadata needs type, snapshot-id, sequence-number and fields", brief(blob))
    if not isinstance(blob["type"], str):
        raise InvalidInput(rule, "a blob's type is a string", brief(blob["type"]))
    for key in ("snapshot-id", "sequence-number"):
        if not _is_long(blob[key]):
            raise InvalidInput(rule, f"a blob's {key} is a long", brief(blob[key]))
    fields = blob["fields"]
    if not isinstance(fields, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in fields):
        raise InvalidInput(rule, "a blob's fields are a list of field ids (integers)", brief(fields))
    properties = blob.get("properties")
    if properties is not None and not (
        isinstance(properties, dict) and all(isinstance(v, str) for v in properties.values())
    ):
        raise InvalidInput(rule, "a blob's properties are a map of strings", brief(properties))
    if revisions.has(revision, revisions.V3_ADOPTED):
        check_theta_properties(blob["type"], properties or {})


@implements("puffin.theta-sketch")
def check_theta_properties(blob_type: str, properties: dict[str, str]) -> None:
    """Digest §4: theta sketches carry `ndv` "as a decimal integer"."""
    ndv = properties.get("ndv")
    if blob_type == THETA and ndv is not None and not _DECIMAL.fullmatch(ndv):
        raise InvalidInput("puffin.theta-sketch", "a theta sketch's ndv property is a decimal integer", ndv)


@implements("table.statistics.snapshot", "table.statistics.blob-snapshot", "partition-statistics.one-per-snapshot")
def check_statistics(
    statistics: tuple, partition_statistics: tuple, sequence_numbers: dict[int, int], revision: str
) -> None:
    """Both lists against the table's snapshots (`sequence_numbers`: snapshot id -> its sequence number)."""
    seen: set[int] = set()
    for key, entries in (("statistics", statistics), ("partition-statistics", partition_statistics)):
        for entry in entries:
            sid = check_entry(entry, key, revision)
            if sid not in sequence_numbers:
                raise InvalidInput("table.statistics.snapshot", f"a {key} entry names no snapshot of the table", sid)
            if key == "partition-statistics":
                if sid in seen:
                    raise InvalidInput(
                        "partition-statistics.one-per-snapshot",
                        "a snapshot is associated with at most one partition statistics file",
                        sid,
                    )
                seen.add(sid)
            for blob in entry.get("blob-metadata") or ():
                expected = sequence_numbers.get(blob["snapshot-id"])
                if expected is not None and blob["sequence-number"] != expected:
                    raise InvalidInput(
                        "table.statistics.blob-snapshot",
                        f"a blob computed from snapshot {blob['snapshot-id']} carries its sequence number {expected}",
                        blob["sequence-number"],
                    )
