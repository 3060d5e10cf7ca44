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
    yield from _row_column_specs()


# The optional row column (2147483544): a subset of this table schema, required, one row per entry.
TABLE = {
    "type": "struct",
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "data", "required": False, "type": "string"},
        {
            "id": 3,
            "name": "point",
            "required": False,
            "type": {
                "type": "struct",
                "fields": [
                    {"id": 4, "name": "x", "required": True, "type": "double"},
                    {"id": 5, "name": "y", "required": True, "type": "double"},
                ],
            },
        },
    ],
}
ID_DATA = [{"id": 1, "name": "id", "required": True, "type": "long"}, TABLE["fields"][1]]


def _row(rule, slug, description, values, fields=ID_DATA, required=True, row_type=None):
    field = {
        "id": 2147483544,
        "name": "row",
        "required": required,
        "type": row_type or {"type": "struct", "fields": fields},
    }
    rows = [(A, n) for n in range(len(values))]
    return case(
        rule,
        slug,
        description,
        "check-position-deletes",
        rows=[list(r) for r in rows],
        row_counts=COUNTS,
        row={"field": field, "values": values},
        schema=TABLE,
    )


def _row_column_specs():
    q, i = "position-deletes.row-required", "position-deletes.row-field-ids"
    two = [{"id": 1, "data": "a"}, {"id": 2, "data": None}]
    yield _row(q, "row-column", "a required row column with the values of every deleted row", two)
    yield _row(q, "row-null-entry", "one entry's row is null: all entries must include row values", [two[0], None])
    yield _row(q, "row-all-null", "every entry's row is null (omit the column instead)", [None, None])
    yield _row(q, "row-optional", "the row column is optional: when present, row is required", two, required=False)
    yield _row(q, "row-not-struct", "the row column is a long, not a struct", [1, 2], row_type="long")
    nested = {
        "id": 3,
        "name": "point",
        "required": False,
        "type": {"type": "struct", "fields": [TABLE["fields"][2]["type"]["fields"][0]]},
    }
    yield _row(
        i,
        "row-nested-subset",
        "a subset of the table schema: point.x without point.y",
        [{"point": {"x": 1.0}}],
        [nested],
    )
    yield _row(
        i,
        "row-unknown-id",
        "a row field id (9) that the table schema does not have",
        [{"z": 1}],
        [{"id": 9, "name": "z", "required": True, "type": "long"}],
    )
    moved = {"id": 4, "name": "x", "required": True, "type": "double"}
    yield _row(i, "row-moved-field", "field 4 (point.x in the table) at the top level of row", [{"x": 1.0}], [moved])
