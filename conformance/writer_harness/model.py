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
HOME = (
    -1
)  # a row's reserved key: (spec generation, identity partition values) of the file it lives in, None when unknown


class ModelLimit(Exception):
    """A step whose outcome the model cannot predict (the message says why): a harness error, not a finding."""


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
    def __init__(self, columns: list[tuple[str, str]], partition: list[dict] | None = None):
        self.columns: list[Column] = [Column(i, name, t) for i, (name, t) in enumerate(columns)]
        self._next_key = len(self.columns)
        # Where rows live, for scoping equality deletes: the partition fields of the current spec, and
        # how many times the spec changed. Only identity fields are modelled (no transform code here).
        self.spec_generation = 0
        self.partition_fields: list[tuple[str, str, int]] = [
            (f["name"], f["transform"], self.column(f["column"]).key) for f in partition or []
        ]
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
        """A row from a scenario record (JSON values by current column name), written under the current spec."""
        return self._homed({c.key: values.from_json(c.type, record.get(c.name)) for c in self.columns})

    # --- where rows live (for equality deletes) ---------------------------------------------------
    def _partition_of(self, row: Row) -> tuple | None:
        """The row's identity partition values under the current spec; None when a field is no identity."""
        if any(transform != "identity" for _, transform, _ in self.partition_fields):
            return None
        return tuple(self._value(row, key) for _, _, key in self.partition_fields)

    def _value(self, row: Row, key: int) -> Any:
        c = next(c for c in self.columns if c.key == key)
        return values.comparable(c.type, row.get(key, c.initial_default))

    def _homed(self, row: Row) -> Row:
        part = self._partition_of(row)
        return {**row, HOME: None if part is None else (self.spec_generation, part)}

    def evolve_partition(self, drop: str | None = None, add: dict | None = None) -> None:
        """The table's spec changed: the field named `drop` removed (v1 keeps it as void, which
        partitions nothing either) and/or the field `add` (by current column name) added."""
        self.partition_fields = [f for f in self.partition_fields if f[0] != drop]
        if add is not None:
            self.partition_fields.append((add["name"], add["transform"], self.column(add["column"]).key))
        self.spec_generation += 1

    def files_rewritten(self, change: Change) -> Change:
        """A step that rewrote data files (copy-on-write, compaction): rows it did not touch may have
        moved to files of the current spec, so after a spec change their home is unknown."""
        if self.spec_generation == 0:
            return change
        rows = {i: (r if i in change.touched else {**r, HOME: None}) for i, r in change.rows.items()}
        return Change(change.branch, rows, change.touched, change.appended)

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
                r = self._homed({**r, c.key: values.from_json(c.type, value)})
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

    def equality_delete(self, branch: str, columns: list[str], where: dict) -> tuple[Change, list[list[int]]]:
        """One equality delete file on `columns` per partition (under the current spec) of the rows
        `where` selects, holding those rows' values. Each file deletes every older row with equal
        values (null equals null) that lives in its partition of the current spec, or in any file
        when the current spec is unpartitioned ("Scan Planning", "Equality Delete Files").
        Returns the change and the ids whose values each file holds, one list per file."""
        rows, types = self.rows_of(branch), self.types()
        groups: dict[tuple, list[int]] = {}
        for i, r in rows.items():
            if predicates.holds(where, self.by_name(r), types):
                part = self._partition_of(r)
                if part is None:
                    raise ModelLimit("the model scopes equality deletes under identity partition fields only")
                groups.setdefault(part, []).append(i)
        keys = [self.column(name).key for name in columns]
        tuple_of = lambda r: tuple(self._value(r, k) for k in keys)  # noqa: E731
        deletes = {part: {tuple_of(rows[i]) for i in ids} for part, ids in groups.items()}
        everywhere = not self.partition_fields
        kept = {}
        for i, r in rows.items():
            hit = [part for part, tuples in deletes.items() if tuple_of(r) in tuples]
            if hit and not everywhere and r.get(HOME) is None:
                raise ModelLimit(f"row {i} lives in a file of unknown spec (rewritten after a spec change)")
            if not any(everywhere or r[HOME] == (self.spec_generation, part) for part in hit):
                kept[i] = r
        return Change(branch, kept, frozenset(), {}), [ids for ids in groups.values()]

    def unchanged(self, branch: str) -> Change:
        """A commit that rewrites files but not rows (compaction, manifest rewrites)."""
        return Change(branch, dict(self.rows_of(branch)), frozenset(), {})

    def commit(self, change: Change, snapshot_id: int, operation: str) -> None:
        """Record the snapshot the writer made for `change` as the branch's new head."""
        parent = self.branches[change.branch]
        self.versions[snapshot_id] = Version(
            tuple(self.columns), change.rows, change.touched, change.appended, parent, operation
        )
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
