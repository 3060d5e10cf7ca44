"""Applying deletes to the rows of one data file: position deletes, deletion vectors and equality deletes.

Spec: "Position Delete Files", "Equality Delete Files" (seed text); adopted v3 digest §1.5 (DVs).
Which delete files apply to a data file is decided before, by `spec_impl.deletes.scoping`.

Rows are records keyed by field id, as `spec_impl.metadata.projection` reads them, and a row's
position is its ordinal in the data file, starting at 0 (before any delete).

- A row is deleted when a position delete file has an entry with its file's path and its
  position (`file_path` 2147483546, `pos` 2147483545), or its position is set in the DV.
- A row is deleted when, for some row of an applicable equality delete file, its values equal
  that row's values in every delete column (`equality_ids`): several columns are an AND, and a
  null delete value matches a null (`col IS NULL`). A delete column since dropped from the table
  still applies (the data file still has it); a column added later is read for older files by the
  projection rules (`initial-default`, else null). Float and double columns cannot be delete
  columns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, register, implements
from spec_impl.types import IcebergType

FILE_PATH_ID, POS_ID = 2147483546, 2147483545

register(
    Rule(
        "deletes.position-rows",
        "Position Delete Files",
        "A row is deleted by a position delete entry with its data file's path and its position (from 0); "
        "entries are (file_path 2147483546, pos 2147483545)",
    ),
    Rule(
        "deletes.dv-rows",
        "adopted 1.5 Deletion vectors",
        "A row is deleted when its position is set in the data file's deletion vector",
    ),
    Rule(
        "deletes.equality-rows",
        "Equality Delete Files",
        "A row is deleted when its values equal all delete columns of any row of an applicable equality delete "
        "file; null matches null; a dropped delete column still applies; a later-added column reads its default",
    ),
    Rule(
        "deletes.equality-columns",
        "Equality Delete Files",
        "equality_ids name columns present in the delete file; float and double columns cannot be delete columns",
    ),
)


@implements("deletes.position-rows")
def position_deletes(delete_rows: Iterable[dict[int, Any]], data_file_path: str, delete_path: str = "") -> set[int]:
    """The positions a position delete file deletes in `data_file_path` (rule deletes.position-rows)."""
    out = set()
    for row in delete_rows:
        path, pos = row.get(FILE_PATH_ID), row.get(POS_ID)
        if not isinstance(path, str) or not isinstance(pos, int) or isinstance(pos, bool) or pos < 0:
            raise InvalidInput(
                "deletes.position-rows",
                f"{delete_path}: a position delete entry has a string file_path and a position >= 0",
                (path, pos),
            )
        if path == data_file_path:
            out.add(pos)
    return out


@dataclass(frozen=True)
class EqualityDelete:
    """One equality delete file: its delete columns and the value tuples it deletes."""

    path: str
    field_ids: tuple[int, ...]
    keys: frozenset[tuple]

    def deletes(self, value_of: Callable[[int], Any]) -> bool:
        return tuple(value_of(i) for i in self.field_ids) in self.keys


@implements("deletes.equality-columns")
def equality_delete(
    path: str, equality_ids: Iterable[int], delete_rows: Iterable[dict[int, Any]], column_types: dict[int, IcebergType]
) -> EqualityDelete:
    """An equality delete file read for applying (rule deletes.equality-columns): `column_types`
    gives the type of each delete column in the file."""
    ids = tuple(equality_ids)
    if not ids:
        raise InvalidInput("deletes.equality-columns", f"{path}: equality_ids is empty", ids)
    for i in ids:
        t = column_types.get(i)
        if t is None:
            raise InvalidInput("deletes.equality-columns", f"{path}: delete column {i} is not in the delete file", i)
        if str(t) in ("float", "double"):
            raise InvalidInput(
                "deletes.equality-columns", f"{path}: column {i} is a {t}, which cannot be a delete column", i
            )
    return EqualityDelete(path, ids, frozenset(tuple(row.get(i) for i in ids) for row in delete_rows))


@implements("deletes.dv-rows", "deletes.equality-rows", "deletes.position-rows")
def surviving_positions(
    rows: list[dict[int, Any]],
    deleted_positions: set[int],
    equality: Iterable[EqualityDelete],
    missing: Callable[[int], Any] = lambda field_id: None,
) -> list[int]:
    """The positions of the rows no delete removes (rules deletes.dv-rows, deletes.position-rows,
    deletes.equality-rows). `missing(field_id)` is the value of a delete column the data file does
    not have (its initial-default, else null)."""
    equality = list(equality)
    out = []
    for pos, row in enumerate(rows):
        if pos in deleted_positions:
            continue

        def value_of(field_id: int, row: dict = row) -> Any:
            return row[field_id] if field_id in row else missing(field_id)

        if any(e.deletes(value_of) for e in equality):
            continue
        out.append(pos)
    return out
