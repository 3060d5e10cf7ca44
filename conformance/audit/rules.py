"""Rule ids the audit needs beyond those of `spec_impl` (registered in the same registry).

Spec: "Manifests" (data_file fields 103 `record_count`: "Number of records in this file", adopted:
"or the cardinality of a deletion vector"; 104 `file_size_in_bytes`: "Total file size in bytes"),
"Position Delete Files" ("The rows in the delete file must be sorted by file_path then position to
optimize filtering rows while scanning"; a position is "Ordinal position of a deleted row in the
target data file identified by the file path, starting at 0"), adopted 1.5 (a deletion vector's
positions are rows of its referenced data file).
"""

from __future__ import annotations

from spec_impl.rules import Rule, register

_DF = "Manifests: data_file fields"
_PD = "Position Delete Files"
NEW_RULES = (
    Rule("file.record-count", f"{_DF} (103 record_count)", "record_count is the number of records in the file (the Parquet row count; for a deletion vector its cardinality, rule dv.cardinality)"),
    Rule("file.size-in-bytes", f"{_DF} (104 file_size_in_bytes)", "file_size_in_bytes is the total size of the file in bytes"),
    Rule("position-deletes.sorted", _PD, "The rows of a position delete file are sorted by file_path, then pos"),
    Rule("position-deletes.in-range", f"{_PD}; adopted 1.5 Deletion vectors", "A deleted position is an ordinal row position of the target data file: 0 <= pos < its row count"),
)  # fmt: skip

register(*NEW_RULES)
