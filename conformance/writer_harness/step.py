"""One op of a history, declared once: how its arguments are drawn (generation, `strategies`), when a
writer may take it, and how it runs on the writer's table and on the model (execution, `runner`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .drawing import Shape
from .model import Change, TableModel


class Run(Protocol):
    """What a step needs of the history it runs in (`runner.HistoryRun`)."""

    table: Any  # the writer's table (`writer_base.Writer`)
    model: TableModel
    properties: dict[str, str]  # the table's properties as the steps set them

    def skip(self, i: int, reason: str) -> None: ...

    def rewritten(self, op: str, change: Change) -> Change: ...


def _always(shape: Shape, writer: Any) -> bool:
    return True


@dataclass(frozen=True)
class Step:
    op: str
    # the step's arguments, drawn against the shape the earlier steps left (and updating it), for a
    # writer class; None when it does not apply to this shape (an insert is drawn instead)
    draw: Callable[[Any, Shape, Any], dict | None]
    # the step on the writer's table and on the model: the model's change of a branch's rows, or None.
    # Data steps compute the change first (the model raises `ModelLimit` before the writer is called)
    # and the runner applies it once the writer committed; other steps change the model after the writer.
    run: Callable[[Run, int, dict], Change | None]
    weight: int = 1  # how often it is drawn, against the others
    when: Callable[[Shape, Any], bool] = _always  # offered on a table of this shape, by this writer class


def columns_of(m: TableModel) -> list[tuple[str, str]]:
    """The model's current columns as (name, type)."""
    return [(c.name, c.type) for c in m.columns]


def rows_by_name(m: TableModel, records: list[dict]) -> list[dict]:
    """Scenario records as the writers take them: model values by current column name."""
    return [m.by_name(m.row(r)) for r in records]
