"""spec_impl: the reference implementation of the Apache Iceberg table spec's rules.

The public API for value rules (spec sections in each function's docstring):

    >>> from decimal import Decimal
    >>> import spec_impl as si
    >>> t = si.parse_type("decimal(9, 2)")            # Appendix C type strings and JSON objects
    >>> str(t)
    'decimal(9,2)'
    >>> si.apply_transform("bucket[16]", "long", 34)    # Partition Transforms, Appendix B
    3
    >>> si.apply_transform("truncate[50]", t, Decimal("10.65"))
    Decimal('10.50')
    >>> si.hash_value("timestamp_ns", 1510871468000000001, revision="2024-seed")  # Appendix B
    -160215926
    >>> si.to_binary(t, Decimal("14.20")).hex()          # Appendix D, binary (bounds)
    '058c'
    >>> si.from_json("timestamptz", "2017-11-16T22:31:08.000001+00:00")   # Appendix D, JSON
    1510871468000001
    >>> si.from_json("timestamptz", "2017-11-16T22:31:08+01:00")
    Traceback (most recent call last):
    ...
    spec_impl.errors.InvalidInput: [json.timestamptz] a timestamptz value must end in the offset '+00:00' (got \
'2017-11-16T22:31:08+01:00')

Values are the spec's physical values (`spec_impl.values`): ints for int/long/date (days)/time (µs)/
timestamps (µs or ns), `decimal.Decimal`, `str`, `bytes`, `uuid.UUID`, `bool`, `float`. Every
rejection is a `SpecError` carrying a rule id of `spec_impl.rules.RULES`. Rules whose result
differs between spec texts take `revision=` ("2024-seed", "v3-adopted" (the default),
"upstream-2026-08", ...: `spec_impl.revisions`).
Bulk (Arrow) versions of the transforms are in `spec_impl.bulk`; the metadata rules (schemas,
partition specs, sort orders, snapshots, retention, table and view metadata) in `spec_impl.metadata`:

    >>> md = si.parse_table_metadata({"format-version": 1, "location": "s3://b/t", "last-updated-ms": 0,
    ...     "last-column-id": 1, "schema": {"type": "struct", "fields": [
    ...         {"id": 1, "name": "x", "required": True, "type": "long"}]},
    ...     "partition-spec": [{"name": "x_bucket", "transform": "bucket[4]", "source-id": 1}]})
    >>> si.normalized_metadata(md)["partition-specs"]   # Appendix E: v1 field ids from 1000
    [{'spec-id': 0, 'fields': [{'source-ids': [1], 'field-id': 1000, 'name': 'x_bucket', 'transform': 'bucket[4]'}]}]
"""

from __future__ import annotations

from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput, NotDefined, SpecError
from spec_impl.hashing import hash_value as _hash_value
from spec_impl.promotion import can_promote
from spec_impl.rules import RULES, Rule
from spec_impl.serde import binary as _binary, json_value as _json
from spec_impl.transforms import Transform, parse_transform
from spec_impl.transforms import apply_transform, result_type
from spec_impl.types import IcebergType, parse_type
from spec_impl import deletes, manifests, metadata, scan, v4  # noqa: F401  (registers their rules)
from spec_impl import expressions, metrics, pruning  # noqa: F401  (registers their rules)
from spec_impl import datafiles  # noqa: F401  (registers its rules)
from spec_impl.metadata.table_metadata import normalized as normalized_metadata, parse_table_metadata

__all__ = [
    "IcebergType",
    "InvalidInput",
    "NotDefined",
    "RULES",
    "Rule",
    "SpecError",
    "Transform",
    "apply_transform",
    "can_promote",
    "from_binary",
    "from_json",
    "hash_value",
    "parse_transform",
    "parse_type",
    "result_type",
    "revisions",
    "to_binary",
    "to_json",
    "parse_table_metadata",
    "normalized_metadata",
]


def hash_value(t: IcebergType | str, value: Any, revision: str = revisions.DEFAULT) -> int | None:
    """Appendix B: the signed 32-bit Murmur3 hash of one value of type `t`."""
    return _hash_value(parse_type(t), value, revision)


def to_binary(t: IcebergType | str, value: Any) -> bytes:
    """Appendix D: the binary single-value form of `value` (bounds in manifests)."""
    return _binary.to_binary(parse_type(t), value)


def from_binary(t: IcebergType | str, data: bytes, revision: str = revisions.DEFAULT) -> Any:
    """Appendix D: read a binary single value of type `t`."""
    return _binary.from_binary(parse_type(t), data, revision)


def to_json(t: IcebergType | str, value: Any) -> Any:
    """Appendix D: the JSON single-value form of `value` (defaults, partition values)."""
    return _json.to_json(parse_type(t), value)


def from_json(t: IcebergType | str, obj: Any) -> Any:
    """Appendix D: read a JSON single value of type `t`."""
    return _json.from_json(parse_type(t), obj)
