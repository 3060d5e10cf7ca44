"""The schema steps: add (v3: with an initial default), drop, rename, move and widen columns
("Schema Evolution"); each changes the model after the writer committed it."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from . import values
from .drawing import WIDENINGS, Shape, column_types, column_values
from .step import Run, Step


def _others(shape: Shape) -> list[tuple[str, str]]:
    return [(n, t) for n, t in shape.columns if n != "id"]


def _finite(v: Any) -> bool:
    return v is not None and not (isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))))


def _draw_add(draw: Any, shape: Shape, writer: Any) -> dict:
    t = draw(column_types(writer, added=True))
    name = shape.new_name("a")
    step = {"op": "add-column", "name": name, "type": t, "default": None}
    if shape.format_version >= 3 and values.kind(t) not in ("struct", "array", "map") and draw(st.booleans()):
        # a default is JSON in the metadata (Appendix D), which has no NaN or infinity
        step["default"] = values.to_json(t, draw(column_values(t).filter(_finite)))
    shape.columns.append((name, t))
    return step


def _add(run: Run, i: int, step: dict) -> None:
    run.table.add_column(step["name"], step["type"], values.from_json(step["type"], step.get("default")))
    run.model.add_column(step["name"], step["type"], step.get("default"))


def _draw_drop(draw: Any, shape: Shape, writer: Any) -> dict | None:
    sources = {f["column"] for f in shape.partition}
    droppable = [n for n, _ in _others(shape) if n not in sources]
    if not droppable:
        return None
    name = draw(st.sampled_from(droppable))
    shape.columns = [(n, t) for n, t in shape.columns if n != name]
    return {"op": "drop-column", "name": name}


def _drop(run: Run, i: int, step: dict) -> None:
    run.table.drop_column(step["name"])
    run.model.drop_column(step["name"])


def _draw_rename(draw: Any, shape: Shape, writer: Any) -> dict | None:
    others = _others(shape)
    if not others:
        return None
    name, to = draw(st.sampled_from([n for n, _ in others])), shape.new_name("r")
    shape.columns = [(to if n == name else n, t) for n, t in shape.columns]
    for f in shape.partition + shape.voids:
        f["column"] = to if f["column"] == name else f["column"]
    return {"op": "rename-column", "name": name, "to": to}


def _rename(run: Run, i: int, step: dict) -> None:
    run.table.rename_column(step["name"], step["to"])
    run.model.rename_column(step["name"], step["to"])


def _draw_move(draw: Any, shape: Shape, writer: Any) -> dict | None:
    if len(shape.columns) <= 2:
        return None
    name = draw(st.sampled_from([n for n, _ in _others(shape)]))
    after = draw(st.sampled_from([None, *[n for n, _ in shape.columns if n != name]]))
    moving = next(c for c in shape.columns if c[0] == name)
    rest = [c for c in shape.columns if c[0] != name]
    at = 0 if after is None else next(i for i, c in enumerate(rest) if c[0] == after) + 1
    shape.columns = rest[:at] + [moving] + rest[at:]
    return {"op": "move-column", "name": name, "after": after}


def _move(run: Run, i: int, step: dict) -> None:
    run.table.move_column(step["name"], step["after"])
    run.model.move_column(step["name"], step["after"])


def _widenable(t: str) -> bool:
    """int -> bigint, float -> double, decimal(P,S) -> decimal(P',S) for P < 38."""
    return t in WIDENINGS or bool(values.decimal_of(t) and values.decimal_of(t)[0] < 38)


def _draw_widen(draw: Any, shape: Shape, writer: Any) -> dict | None:
    widenable = [(n, t) for n, t in _others(shape) if _widenable(t)]
    if not widenable:
        return None
    name, t = draw(st.sampled_from(widenable))
    if values.decimal_of(t):
        p, s = values.decimal_of(t)
        new = f"decimal({draw(st.integers(p + 1, 38))},{s})"
    else:
        new = WIDENINGS[t]
    shape.columns = [(n, new if n == name else ct) for n, ct in shape.columns]
    return {"op": "widen-column", "name": name, "type": new}


def _widen(run: Run, i: int, step: dict) -> None:
    run.table.widen_column(step["name"], step["type"])
    run.model.widen_column(step["name"], step["type"])


ADD_COLUMN = Step("add-column", _draw_add, _add)
DROP_COLUMN = Step("drop-column", _draw_drop, _drop)
RENAME_COLUMN = Step("rename-column", _draw_rename, _rename)
MOVE_COLUMN = Step("move-column", _draw_move, _move)
WIDEN_COLUMN = Step("widen-column", _draw_widen, _widen)
