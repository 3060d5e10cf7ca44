"""The data steps: insert (also many rows at once, and into branches), insert overwrite, delete,
update and merge with generated predicates, and equality deletes ("Equality Delete Files")."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from . import values
from .drawing import Shape, branch, column_values, delete_columns, predicate, records
from .model import Change
from .step import Run, Step, columns_of, rows_by_name


def _draw_insert(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "insert", "rows": records(draw, shape), "branch": branch(draw, shape)}


def _insert(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change = m.insert(step.get("branch") or "main", step["rows"])
    run.table.insert(columns_of(m), rows_by_name(m, step["rows"]), step.get("branch"))
    return change


def _draw_overwrite(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "overwrite", "rows": records(draw, shape)}


def _overwrite(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change = m.overwrite(step.get("branch") or "main", step["rows"])
    run.table.overwrite(columns_of(m), rows_by_name(m, step["rows"]), step.get("branch"))
    return change


def _draw_insert_many(draw: Any, shape: Shape, writer: Any) -> dict:
    start, count = shape.next_id, draw(st.sampled_from([1000, 2500]))
    shape.next_id += count
    return {"op": "insert-many", "start": start, "count": count, "branch": branch(draw, shape)}


def _insert_many(run: Run, i: int, step: dict) -> Change:
    m = run.model
    records_ = [{"id": k} for k in range(step["start"], step["start"] + step["count"])]
    change = m.insert(step.get("branch") or "main", records_)
    run.table.insert_many(columns_of(m), step["start"], step["count"], step.get("branch"))
    return change


def _draw_delete(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "delete", "where": predicate(draw, shape), "branch": branch(draw, shape)}


def _delete(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change = m.delete(step.get("branch") or "main", step["where"])
    run.table.delete(step["where"], m.types(), step.get("branch"))
    return run.rewritten("delete", change)


def _draw_update(draw: Any, shape: Shape, writer: Any) -> dict | None:
    others = [(n, t) for n, t in shape.columns if n != "id"]
    if not others:
        return None
    name, t = draw(st.sampled_from(others))
    return {
        "op": "update",
        "column": name,
        "value": values.to_json(t, draw(column_values(t))),
        "where": predicate(draw, shape),
        "branch": branch(draw, shape),
    }


def _update(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change = m.update(step.get("branch") or "main", step["column"], step["value"], step["where"])
    col = m.column(step["column"])
    value = values.from_json(col.type, step["value"])
    run.table.update(col.name, col.type, value, step["where"], m.types(), step.get("branch"))
    return run.rewritten("update", change)


def _draw_merge(draw: Any, shape: Shape, writer: Any) -> dict:
    delete_where = predicate(draw, shape) if draw(st.booleans()) else None
    return {
        "op": "merge",
        "rows": records(draw, shape, reuse=True),
        "delete-where": delete_where,
        "branch": branch(draw, shape),
    }


def _merge(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change = m.merge(step.get("branch") or "main", step["rows"], step.get("delete-where"))
    rows = rows_by_name(m, step["rows"])
    run.table.merge(columns_of(m), rows, step.get("delete-where"), m.types(), step.get("branch"))
    return run.rewritten("merge", change)


def _draw_equality_delete(draw: Any, shape: Shape, writer: Any) -> dict:
    columns = draw(st.lists(st.sampled_from(delete_columns(shape)), min_size=1, max_size=2, unique=True))
    return {"op": "equality-delete", "columns": columns, "where": predicate(draw, shape)}


def _equality_delete(run: Run, i: int, step: dict) -> Change:
    m = run.model
    change, groups = m.equality_delete("main", step["columns"], step["where"])
    rows = [[m.by_name(m.rows_of("main")[k]) for k in ids] for ids in groups]
    run.table.equality_delete(step["columns"], rows, m.types())
    return change


def _scopable(shape: Shape, writer: Any) -> bool:
    """v2 and v3 tables whose partition fields are all identity: the model scopes equality deletes
    by identity partitions only."""
    return shape.format_version >= 2 and all(f["transform"] == "identity" for f in shape.partition)


INSERT = Step("insert", _draw_insert, _insert, weight=3)
DELETE = Step("delete", _draw_delete, _delete)
UPDATE = Step("update", _draw_update, _update)
MERGE = Step("merge", _draw_merge, _merge)
OVERWRITE = Step("overwrite", _draw_overwrite, _overwrite)
INSERT_MANY = Step("insert-many", _draw_insert_many, _insert_many)
EQUALITY_DELETE = Step("equality-delete", _draw_equality_delete, _equality_delete, when=_scopable)
