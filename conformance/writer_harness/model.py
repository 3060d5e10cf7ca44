"""The harness's own model of a table: plain Python rows per branch and per snapshot.

The model knows nothing of Spark, of Iceberg's files or of `spec_impl`. It applies each step of a
history to rows (`id` → values by the model's own column keys) with SQL's semantics, and remembers,
for every snapshot the writer made, the columns of its schema, its rows and which rows the commit
inserted or updated (for the row-lineage checks). Column keys are the model's, not Iceberg's field
ids: a dropped column's key is never reused, so a column added later under the same name reads null
(or its initial default) in older rows, which is what "Schema Evolution" requires of field ids.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from . import predicates, values

Row = dict[int, Any]  # column key -> value; a key absent from a row reads as the column's initial default


@dataclass(frozen=True)
class Column:
    key: int
    name: str
    type: str
    initial_default: Any = None  # v3 "initial-default": what rows written before the column read


@dataclass
class Version:
    """The model of one snapshot."""

    columns: tuple[Column, ...]  # the table's schema when the snapshot was committed
    rows: dict[int, Row]  # id -> row
    touched: frozenset[int] = frozenset()  # ids the commit inserted or updated
    appended: dict[int, Row] = field(default_factory=dict)  # rows an append added (for cherry-picks)
    parent: int | None = None
    operation: str = ""  # the step that made it


@dataclass
class Change:
    """What a data step does to one branch: the new rows and the ids it inserted or updated."""

    branch: str
    rows: dict[int, Row]
    touched: frozenset[int]
    appended: dict[int, Row]


class TableModel:
    def __init__(self, columns: list[tuple[str, str]]):
        self.columns: list[Column] = [Column(i, name, t) for i, (name, t) in enumerate(columns)]
        self._next_key = len(self.columns)
        self.branches: dict[str, int | None] = {"main": None}  # branch -> head snapshot id
        self.tags: dict[str, int] = {}
        self.versions: dict[int, Version] = {}
        self.picked: set[int] = set()  # snapshots cherry-picked into main

    # --- reading ---------------------------------------------------------------------------
    def rows_of(self, branch: str) -> dict[int, Row]:
        head = self.branches[branch]
        return {} if head is None else self.versions[head].rows

    def view(self, rows: dict[int, Row], columns: tuple[Column, ...] | list[Column]) -> list[tuple]:
        """Rows projected on `columns` (by key), as tuples in column order."""
        return [tuple(r.get(c.key, c.initial_default) for c in columns) for r in rows.values()]

    def by_name(self, row: Row, columns: list[Column] | tuple[Column, ...] | None = None) -> dict[str, Any]:
        return {c.name: row.get(c.key, c.initial_default) for c in (columns or self.columns)}

    def types(self) -> dict[str, str]:
        return {c.name: c.type for c in self.columns}

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    # --- data steps ---------------------------------------------------------------------------
    def row(self, record: dict[str, Any]) -> Row:
        """A row from a scenario record (JSON values by current column name)."""
        return {c.key: values.from_json(c.type, record.get(c.name)) for c in self.columns}

    def insert(self, branch: str, records: list[dict]) -> Change:
        rows = dict(self.rows_of(branch))
        added = {r["id"]: self.row(r) for r in records}
        rows.update(added)
        return Change(branch, rows, frozenset(added), added)

    def overwrite(self, branch: str, records: list[dict]) -> Change:
        added = {r["id"]: self.row(r) for r in records}
        return Change(branch, added, frozenset(added), {})

    def delete(self, branch: str, where: dict) -> Change:
        types = self.types()
        kept = {i: r for i, r in self.rows_of(branch).items() if not predicates.holds(where, self.by_name(r), types)}
        return Change(branch, kept, frozenset(), {})

    def update(self, branch: str, column: str, value: Any, where: dict) -> Change:
        types, c = self.types(), self.column(column)
        rows, touched = {}, set()
        for i, r in self.rows_of(branch).items():
            if predicates.holds(where, self.by_name(r), types):
                r = {**r, c.key: values.from_json(c.type, value)}
                touched.add(i)
            rows[i] = r
        return Change(branch, rows, frozenset(touched), {})

    def merge(self, branch: str, records: list[dict], delete_where: dict | None) -> Change:
        """MERGE ... ON t.id = s.id WHEN MATCHED AND <delete_where> THEN DELETE WHEN MATCHED THEN
        UPDATE SET * WHEN NOT MATCHED THEN INSERT *. `delete_where` is on the target row."""
        types = self.types()
        rows, touched = dict(self.rows_of(branch)), set()
        for record in records:
            i = record["id"]
            if i in rows and delete_where is not None and predicates.holds(delete_where, self.by_name(rows[i]), types):
                del rows[i]
                continue
            rows[i] = self.row(record)
            touched.add(i)
        return Change(branch, rows, frozenset(touched), {})

    def unchanged(self, branch: str) -> Change:
        """A commit that rewrites files but not rows (compaction, manifest rewrites)."""
        return Change(branch, dict(self.rows_of(branch)), frozenset(), {})

    def commit(self, change: Change, snapshot_id: int, operation: str) -> None:
        """Record the snapshot the writer made for `change` as the branch's new head."""
        parent = self.branches[change.branch]
        self.versions[snapshot_id] = Version(tuple(self.columns), change.rows, change.touched, change.appended, parent, operation)
        self.branches[change.branch] = snapshot_id

    # --- refs ---------------------------------------------------------------------------------
    def create_branch(self, name: str) -> None:
        self.branches[name] = self.branches["main"]

    def create_tag(self, name: str) -> None:
        head = self.branches["main"]
        if head is not None:
            self.tags[name] = head

    def ancestors(self, snapshot_id: int | None) -> list[int]:
        out = []
        while snapshot_id is not None and snapshot_id in self.versions:
            out.append(snapshot_id)
            snapshot_id = self.versions[snapshot_id].parent
        return out

    def rollback(self, snapshot_id: int) -> None:
        self.branches["main"] = snapshot_id

    def cherrypick(self, snapshot_id: int) -> Change | None:
        """What cherry-picking `snapshot_id` into main does: an append re-applies its rows; a snapshot
        whose parent is main's head fast-forwards. None for what Iceberg refuses."""
        v = self.versions[snapshot_id]
        if snapshot_id in self.picked or snapshot_id in self.ancestors(self.branches["main"]):
            return None
        if v.parent == self.branches["main"]:
            return Change("main", dict(v.rows), v.touched, v.appended)
        if v.operation in ("insert", "insert-many") and v.appended:
            rows = dict(self.rows_of("main"))
            rows.update(v.appended)
            return Change("main", rows, frozenset(v.appended), dict(v.appended))
        return None

    def forget(self, live: set[int]) -> None:
        """Drop the snapshots the table no longer has (expired)."""
        self.versions = {sid: v for sid, v in self.versions.items() if sid in live}

    # --- schema steps --------------------------------------------------------------------------
    def add_column(self, name: str, type_: str, default: Any = None) -> None:
        self.columns.append(Column(self._next_key, name, type_, values.from_json(type_, default)))
        self._next_key += 1

    def drop_column(self, name: str) -> None:
        self.columns = [c for c in self.columns if c.name != name]

    def rename_column(self, name: str, to: str) -> None:
        self.columns = [Column(c.key, to, c.type, c.initial_default) if c.name == name else c for c in self.columns]

    def move_column(self, name: str, after: str | None) -> None:
        moving = self.column(name)
        rest = [c for c in self.columns if c.name != name]
        at = 0 if after is None else next(i for i, c in enumerate(rest) if c.name == after) + 1
        self.columns = rest[:at] + [moving] + rest[at:]

    def widen_column(self, name: str, type_: str) -> None:
        """int -> bigint, float -> double, decimal(P,S) -> decimal(P',S): values keep their value."""
        self.columns = [Column(c.key, c.name, type_, c.initial_default) if c.name == name else c for c in self.columns]

    def snapshot_state(self) -> TableModel:
        return copy.deepcopy(self)
