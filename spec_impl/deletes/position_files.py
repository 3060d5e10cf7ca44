"""The rows of a position delete file: sorted, and every position a row of its target file.

Spec: "Position Delete Files": "The rows in the delete file must be sorted by file_path then pos
to optimize filtering rows while scanning" (rule position-deletes.sorted); `pos` is the "Ordinal
position of a deleted row in the target data file identified by file_path, starting at 0" (rule
position-deletes.in-range: 0 <= pos < the target's row count). Adopted 1.5: a deletion vector's
positions are rows of its `referenced_data_file` (the same range rule).

The spec names no string order for file_path; it is taken as the order of string bounds, code point
order (= the order of the UTF-8 bytes). Equal rows are in order (non-decreasing). A target whose
row count is unknown (a file that is gone) is not judged.

`check_position_rows` is the reference over (file_path, pos) pairs; `check_position_arrays` applies
the same rules to Arrow columns for the table audit (`tests/test_position_files.py` holds them equal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.metadata.partitioning import Finding
from spec_impl.rules import Rule, register, implements

_PD = "Position Delete Files"
register(
    Rule(
        "position-deletes.sorted",
        _PD,
        "The rows of a position delete file are sorted by file_path (code point order), then pos",
    ),
    Rule(
        "position-deletes.in-range",
        f"{_PD}; adopted 1.5 Deletion vectors",
        "A deleted position is an ordinal row position of the target data file: 0 <= pos < its row count",
    ),
)

RowCount = Callable[[str], "int | None"]


@implements("deletes.position-rows", "position-deletes.in-range", "position-deletes.sorted")
def check_position_rows(rows: Sequence[tuple[str, int]], row_count: RowCount | Mapping[str, int]) -> list[Finding]:
    """The violations of a position delete file's rows: the first row out of order
    (position-deletes.sorted) and, per target, the positions outside it (position-deletes.in-range)."""
    count = _row_count_function(row_count)
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)):
        raise InvalidInput(
            "deletes.position-rows",
            "the rows of a position delete file are a list of (file_path, pos) pairs",
            brief(rows),
        )
    for n, row in enumerate(rows):
        if not isinstance(row, Sequence) or isinstance(row, (str, bytes)) or len(row) != 2:
            raise InvalidInput(
                "deletes.position-rows", f"row {n}: a position delete row is a (file_path, pos) pair", brief(row)
            )
        path, pos = row
        if not isinstance(path, str) or isinstance(pos, bool) or not isinstance(pos, int):
            raise InvalidInput(
                "deletes.position-rows",
                f"row {n}: a position delete row is a string file_path and a long pos",
                brief([path, pos]),
            )
    found = []
    unsorted = next((n for n in range(1, len(rows)) if tuple(rows[n]) < tuple(rows[n - 1])), None)
    if unsorted is not None:
        found.append(_unsorted(unsorted, rows[unsorted], rows[unsorted - 1]))
    ranges: dict[str, tuple[int, int]] = {}
    for path, pos in rows:
        low, high = ranges.get(path, (pos, pos))
        ranges[path] = (min(low, pos), max(high, pos))
    for path in sorted(ranges):
        found += check_positions_in_range(path, *ranges[path], count(path))
    return found


@implements("deletes.position-rows")
def check_position_arrays(
    paths: pa.Array, positions: pa.Array, row_count: RowCount | Mapping[str, int]
) -> list[Finding]:
    """`check_position_rows` on Arrow columns (file_path strings, pos longs), column at a time."""
    count = _row_count_function(row_count)
    paths, positions = _combined(paths), _combined(positions)
    if paths.null_count or positions.null_count:
        raise InvalidInput(
            "deletes.position-rows",
            "a position delete row is a string file_path and a long pos, never null",
            [paths.null_count, positions.null_count],
        )
    found, n = [], len(paths)
    if n > 1:
        before, after = paths.slice(0, n - 1), paths.slice(1)
        out_of_order = pc.or_(
            pc.less(after, before),
            pc.and_(pc.equal(after, before), pc.less(positions.slice(1), positions.slice(0, n - 1))),
        )
        if pc.any(out_of_order).as_py():
            i = pc.index(out_of_order, True).as_py() + 1
            found.append(
                _unsorted(i, (paths[i].as_py(), positions[i].as_py()), (paths[i - 1].as_py(), positions[i - 1].as_py()))
            )
    ranges = pa.table({"p": paths, "q": positions}).group_by("p").aggregate([("q", "min"), ("q", "max")]).sort_by("p")
    for path, low, high in zip(ranges["p"].to_pylist(), ranges["q_min"].to_pylist(), ranges["q_max"].to_pylist()):
        found += check_positions_in_range(path, low, high, count(path))
    return found


@implements("position-deletes.in-range")
def check_positions_in_range(target: str, low: int, high: int, rows: int | None) -> list[Finding]:
    """Rule position-deletes.in-range: positions low..high of `target` lie in 0..rows-1 (None: unknown)."""
    if rows is None or (0 <= low and high < rows):
        return []
    return [
        Finding(
            "position-deletes.in-range",
            f"positions {low}..{high} of {target} (which has {rows} rows)",
            high if high >= rows else low,
        )
    ]


@implements("position-deletes.sorted")
def _unsorted(n: int, row: Sequence, previous: Sequence) -> Finding:
    return Finding(
        "position-deletes.sorted", f"row {n} {tuple(row)!r} sorts before row {n - 1} {tuple(previous)!r}", list(row)
    )


@implements("deletes.position-rows")
def _row_count_function(row_count: RowCount | Mapping[str, int]) -> RowCount:
    """Row counts by target path, from a mapping or a function; each count an int or None (unknown)."""
    if not isinstance(row_count, Mapping) and not callable(row_count):
        raise InvalidInput(
            "deletes.position-rows",
            "row counts are a mapping (or function) from file path to row count",
            brief(row_count),
        )
    get = row_count.get if isinstance(row_count, Mapping) else row_count

    def count(path: str) -> int | None:
        n = get(path)
        if n is not None and (type(n) is not int or n < 0):
            raise InvalidInput("deletes.position-rows", f"the row count of {path} is a non-negative integer", brief(n))
        return n

    return count


def _combined(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
