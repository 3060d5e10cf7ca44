"""A file's record_count and file_size_in_bytes against the file's row count and length."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "file-counts"
DESCRIPTION = (
    "Manifests: data_file record_count (103) and file_size_in_bytes (104) are the file's row count and byte length"
)


def _c(rule, slug, description, record_count, size, rows=3, length=1024):
    return case(
        rule,
        slug,
        description,
        "check-file-counts",
        record_count=record_count,
        file_size_in_bytes=size,
        rows=rows,
        length=length,
    )


def specs():
    rc, size = "file.record-count", "file.size-in-bytes"
    yield _c(rc, "match", "both claims are the file's", 3, 1024)
    yield _c(rc, "record-count-one-more", "record_count one above the row count", 4, 1024)
    yield _c(rc, "record-count-one-less", "record_count one below the row count", 2, 1024)
    yield _c(rc, "empty-file", "a file without rows claims 0", 0, 1024, rows=0)
    yield _c(rc, "record-count-negative", "a negative record_count", -1, 1024, rows=0)
    yield _c(rc, "record-count-null", "a missing record_count (a required field)", None, 1024)
    yield _c(rc, "record-count-beyond-int", "a count above 2^31 - 1 is a long", 2**31, 1024, rows=2**31)
    yield _c(size, "size-one-more", "file_size_in_bytes one above the length", 3, 1025)
    yield _c(size, "size-one-less", "file_size_in_bytes one below the length", 3, 1023)
    yield _c(size, "size-null", "a missing file_size_in_bytes (required in v1 to v3)", 3, None)
    yield _c(size, "both-wrong", "both claims wrong: both rules", 2, 1, rows=3, length=1024)
