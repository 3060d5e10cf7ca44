"""What the SQL writers (ClickHouse through chDB, DuckDB) share: statements on one session, rows as
`VALUES` of typed literals, conditions true exactly where the history's SQL predicate is true
(`predicates.exact` over the ids the writer has written), the main branch only, and the same
refusals of what neither writes (equality deletes, the rewrite procedures, branches, tags, rollback
and cherry-pick). A dialect gives its `conditions` (quoting and literals) and statement forms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from . import predicates
from .writer_base import MetadataByLocation, Unsupported


class SqlWriter(MetadataByLocation):
    """A writer that takes each step as one SQL statement on its own session (`sql`)."""

    refusals: ClassVar[dict[str, str]] = {
        "equality-delete": "{label} writes no equality delete files",
        "rewrite-data-files": "the rewrite procedures are Iceberg Java's",
        "rewrite-manifests": "the rewrite procedures are Iceberg Java's",
        "rewrite-position-deletes": "the rewrite procedures are Iceberg Java's",
        "create-branch": "{label} creates no branches or tags",
        "create-tag": "{label} creates no branches or tags",
        "rollback": "{label} has no rollback or cherry-pick of Iceberg snapshots",
        "cherrypick": "{label} has no rollback or cherry-pick of Iceberg snapshots",
    }
    conditions: ClassVar[predicates.SqlConditions]  # the dialect's quoting, literals and spellings
    DELETE: ClassVar[str]  # "... {table} ... {where}"
    UPDATE: ClassVar[str]  # "... {table} ... {column} = {value} ... {where}"
    ID_RANGE: ClassVar[str]  # a SELECT of the ids from {start} to {end} (exclusive), {count} of them

    ident: str  # the table as the dialect's statements name it

    def __init__(self, spark: Any, name: str, directory: Path):
        self.spark, self.name, self.directory = spark, name, directory
        self.ids: set[int] = set()  # every id this writer has written (the universe of id-mod predicates)

    def sql(self, text: str) -> None:
        raise NotImplementedError

    def alter(self, clause: str) -> None:
        self.sql(f"ALTER TABLE {self.ident} {clause}")

    def quote(self, name: str) -> str:
        return self.conditions.quote(name)

    def condition(self, where: dict, types: dict[str, str]) -> str:
        return predicates.exact(where, types, self.ids, self.conditions)

    def tuples(self, columns: list[tuple[str, str]], rows: list[dict]) -> str:
        """`rows` (model form, by name) as the tuples of a VALUES list."""
        literal = self.conditions.literal
        return ", ".join("(" + ", ".join(literal(t, r.get(n)) for n, t in columns) + ")" for r in rows)

    def main_only(self, branch: str | None) -> None:
        if branch is not None:
            raise Unsupported(f"{self.label} writes no branches")

    def row_level(self, op: str) -> None:
        """Raises `Unsupported` for a delete, update or merge the writer does not make of this table."""

    def schema_fields(self) -> list[dict]:
        md = self.metadata()
        return next(s for s in md["schemas"] if s["schema-id"] == md["current-schema-id"])["fields"]

    # --- the steps both dialects write alike ----------------------------------------------------------
    def insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        self.main_only(branch)
        names = ", ".join(self.quote(n) for n, _ in columns)
        self.sql(f"INSERT INTO {self.ident} ({names}) VALUES {self.tuples(columns, rows)}")
        self.ids.update(r["id"] for r in rows)

    def insert_many(self, columns: list[tuple[str, str]], start: int, count: int, branch: str | None) -> None:
        self.main_only(branch)
        ids = self.ID_RANGE.format(start=start, end=start + count, count=count)
        self.sql(f"INSERT INTO {self.ident} ({self.quote('id')}) {ids}")
        self.ids.update(range(start, start + count))

    def delete(self, where: dict, types: dict[str, str], branch: str | None) -> None:
        self.main_only(branch)
        self.row_level("delete")
        self.sql(self.DELETE.format(table=self.ident, where=self.condition(where, types)))

    def update(self, column: str, t: str, value: Any, where: dict, types: dict[str, str], branch: str | None) -> None:
        self.main_only(branch)
        self.row_level("update")
        condition = self.condition(where, types)
        literal = self.conditions.literal(t, value)
        self.sql(self.UPDATE.format(table=self.ident, column=self.quote(column), value=literal, where=condition))

    def drop_column(self, name: str) -> None:
        self.alter(f"DROP COLUMN {self.quote(name)}")

    def rename_column(self, name: str, to: str) -> None:
        self.alter(f"RENAME COLUMN {self.quote(name)} TO {self.quote(to)}")
