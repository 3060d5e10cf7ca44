"""The partition steps: add, drop and replace partition fields ("Partition Evolution"); in v1 a
dropped field stays as a void transform of its source."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .drawing import Shape, partition_field, voids
from .step import Run, Step


def _draw_add(draw: Any, shape: Shape, writer: Any) -> dict | None:
    if len(shape.partition) >= 3:
        return None
    f = partition_field(draw, shape.columns, shape.partition + voids(shape, writer), shape.new_name("p"), writer)
    if f is None:
        return None
    shape.partition.append(f)
    return {"op": "add-partition-field", "field": dict(f)}  # a copy: a later rename changes the shape's field


def _add(run: Run, i: int, step: dict) -> None:
    run.table.add_partition_field(step["field"])
    run.model.evolve_partition(add=step["field"])


def _draw_drop(draw: Any, shape: Shape, writer: Any) -> dict | None:
    if not shape.partition:
        return None
    f = draw(st.sampled_from(shape.partition))
    shape.partition = [p for p in shape.partition if p is not f]
    if shape.format_version == 1:
        shape.voids.append(f)
    return {"op": "drop-partition-field", "name": f["name"]}


def _drop(run: Run, i: int, step: dict) -> None:
    run.table.drop_partition_field(step["name"])
    run.model.evolve_partition(drop=step["name"])


def _draw_replace(draw: Any, shape: Shape, writer: Any) -> dict | None:
    if not shape.partition:
        return None
    old = draw(st.sampled_from(shape.partition))
    rest = [p for p in shape.partition if p is not old]
    kept_old = [old] if shape.format_version == 1 and not writer.replaces_field_in_place else []
    f = partition_field(draw, shape.columns, rest + voids(shape, writer) + kept_old, shape.new_name("p"), writer)
    if f is None:
        return None
    shape.partition = rest + [f]
    if shape.format_version == 1:
        shape.voids.append(old)
    return {"op": "replace-partition-field", "name": old["name"], "field": dict(f)}


def _replace(run: Run, i: int, step: dict) -> None:
    run.table.replace_partition_field(step["name"], step["field"])
    run.model.evolve_partition(drop=step["name"], add=step["field"])


ADD_PARTITION_FIELD = Step("add-partition-field", _draw_add, _add)
DROP_PARTITION_FIELD = Step("drop-partition-field", _draw_drop, _drop)
REPLACE_PARTITION_FIELD = Step("replace-partition-field", _draw_replace, _replace)
