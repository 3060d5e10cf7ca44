"""The optional `row` column of a position delete file (field id 2147483544, "Deleted row values").

Spec: "Position Delete Files": "When present in the delete file, row is required because all delete
entries must include the row values." (rule position-deletes.row-required: the column is a required
struct and no entry's row is null) and "When the deleted row column is present, its schema may be
any subset of the table schema and must use field ids matching the table." (rule
position-deletes.row-field-ids: every field id of the row struct is a field id of the table, under
the same parent). A file without the column is not judged: "the column must be omitted" is allowed.

`check_row_column` is the one check: the value vectors give it the column's field and the count of
null rows, the table audit the same read from the Parquet file.
"""

from __future__ import annotations

from collections.abc import Iterable

from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.schema import walk
from spec_impl.rules import Rule, implements, register
from spec_impl.types import NestedField, StructType

ROW_FIELD_ID = 2147483544

_PD = "Position Delete Files"
register(
    Rule(
        "position-deletes.row-required",
        _PD,
        "When present, the row column (2147483544) of a position delete file is a required struct: every "
        "entry has its row values, none is null",
        versions=(2, 3),
    ),
    Rule(
        "position-deletes.row-field-ids",
        _PD,
        "The row column's schema is a subset of the table schema: each of its field ids is a field id of the "
        "table, under the same parent",
        versions=(2, 3),
    ),
)


@implements("position-deletes.row-required", "position-deletes.row-field-ids")
def check_row_column(row: NestedField | None, tables: Iterable[StructType], null_rows: int) -> list[Finding]:
    """The violations of a position delete file's row column (None: the file has none). `tables` are
    the table's schemas (a field id of any of them matches); `null_rows` the entries whose row is null."""
    if row is None:
        return []
    found = []
    if not row.required or not isinstance(row.type, StructType):
        found.append(
            Finding("position-deletes.row-required", f"the row column is an optional {row.type}", row.type.to_json())
        )
    if null_rows:
        found.append(Finding("position-deletes.row-required", f"{null_rows} entries have a null row", null_rows))
    known = {(m.id, m.parent_id) for t in tables for m in walk(t)}
    foreign = [m.dotted for m in walk(row.type) if (m.id, m.parent_id) not in known]
    if foreign:
        found.append(
            Finding("position-deletes.row-field-ids", "row fields whose ids are not the table's: " + ", ".join(foreign))
        )
    return found
