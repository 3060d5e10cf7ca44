"""The rows of a position delete file: sorted by file_path then pos, positions inside the target."""

from __future__ import annotations

from spec_impl.vectors.cases import case

NAME = "position-delete-rows"
DESCRIPTION = "Position Delete Files: rows sorted by file_path then pos; 0 <= pos < the target's row count"

A, B = "s3://b/t/data/a.parquet", "s3://b/t/data/b.parquet"
COUNTS = {A: 10, B: 5}


def _c(rule, slug, description, rows, row_counts=None):
    return case(
        rule, slug, description, "check-position-deletes", rows=[list(r) for r in rows], row_counts=row_counts or COUNTS
    )


def specs():
    s, r = "position-deletes.sorted", "position-deletes.in-range"
    yield _c(s, "sorted", "two targets, positions ascending in each", [(A, 0), (A, 9), (B, 0), (B, 4)])
    yield _c(s, "empty", "a file without rows", [])
    yield _c(s, "duplicate-row", "a row repeated is still in order (non-decreasing)", [(A, 3), (A, 3)])
    yield _c(s, "pos-descending", "positions of one target out of order", [(A, 5), (A, 4)])
    yield _c(s, "path-descending", "targets out of order", [(B, 0), (A, 0)])
    yield _c(s, "path-before-pos", "file_path sorts first: (a, 9) before (b, 0)", [(A, 9), (B, 0)])
    yield _c(s, "pos-numeric", "positions sort as numbers: 9 before 10", [(A, 9), (A, 10)], {A: 11})
    low, high = "s3://b/t/data/\uff61.parquet", "s3://b/t/data/\U0001f600.parquet"
    yield _c(
        s,
        "path-code-points",
        "paths sort by code point: U+FF61 before U+1F600 (UTF-16 order is the reverse)",
        [(low, 0), (high, 0)],
        {low: 1, high: 1},
    )
    yield _c(
        s,
        "path-code-points-reversed",
        "U+1F600 before U+FF61 is out of order",
        [(high, 0), (low, 0)],
        {low: 1, high: 1},
    )
    yield _c(r, "last-row", "the last row of the target (pos = row count - 1)", [(B, 4)])
    yield _c(r, "one-past-end", "pos = row count is outside the target", [(B, 5)])
    yield _c(r, "first-row", "pos 0 is the first row", [(A, 0)])
    yield _c(r, "negative", "a negative position", [(A, -1), (A, 0)])
    yield _c(
        r, "unknown-target", "a target whose row count is unknown is not judged", [("s3://b/t/data/gone.parquet", 1000)]
    )
    yield _c(r, "both-rules", "out of order and outside the target", [(B, 7), (B, 1)])
