"""A data or delete file's record_count and file_size_in_bytes against the file itself.

Spec: "Manifests", data_file fields 103 `record_count` ("Number of records in this file"; adopted
1.5 adds "or the cardinality of a deletion vector", checked by rule dv.cardinality) and 104
`file_size_in_bytes` ("Total file size in bytes"). Both are required longs in v1 to v3: a count
of the file's rows and a length of its bytes, so a negative, missing or non-integer claim is wrong
whatever the file holds. (The v4 proposal makes `file_size_in_bytes` optional; not judged here.)
"""

from __future__ import annotations

from typing import Any

from spec_impl.metadata.partitioning import Finding
from spec_impl.rules import Rule, register, implements

_DF = "Manifests: data_file fields"
register(
    Rule(
        "file.record-count",
        f"{_DF} (103 record_count)",
        "record_count is the number of records in the file (the Parquet or Avro row count; for a deletion vector "
        "its cardinality, rule dv.cardinality)",
    ),
    Rule(
        "file.size-in-bytes",
        f"{_DF} (104 file_size_in_bytes)",
        "file_size_in_bytes is the total size of the file in bytes",
    ),
)


@implements("file.record-count")
def check_record_count(claimed: Any, rows: int) -> list[Finding]:
    """Rule file.record-count: the claimed count is the file's number of rows."""
    return (
        []
        if _is_long(claimed) and claimed == rows
        else [Finding("file.record-count", f"the file has {rows} rows", claimed)]
    )


@implements("file.size-in-bytes")
def check_file_size(claimed: Any, length: int) -> list[Finding]:
    """Rule file.size-in-bytes: the claimed size is the file's length in bytes."""
    return (
        []
        if _is_long(claimed) and claimed == length
        else [Finding("file.size-in-bytes", f"the file has {length} bytes", claimed)]
    )


def _is_long(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
