"""The writer interface as a base class: what `runner.HistoryRun` asks of the table of one history.

A writer subclasses `Writer` and declares, once:

* `kind` (its name in the registry, `writers`), `label` (how refusals name it), `product` and
  `distribution` (how scenario files describe it), `crash_check` (the finding a crash of the
  writer is: `spark-crash` or `writer-crash`) and `versions` (the format versions it writes);
* what the generator draws for it: `unwritten_types`, `nested_columns`, `adds_nested_columns`,
  `takes_table_properties`, `one_field_per_column`, `replaces_field_in_place`;
* the steps it offers, by overriding their methods. Every step method of the base refuses with
  `Unsupported` before it changes anything, with the writer's reason (`refusals`, by op), and the
  runner lists the step as skipped. `steps` (the ops a writer overrides) is what the generator
  draws for it (`strategies`);
* `create(table)`, `metadata_location`, `metadata_path`, `metadata()`, `read(...)` (Spark's
  columns and rows, check 1), `classify(exception)` (("refused" | "crash" | "harness", text): a
  refusal leaves table and model unchanged, a crash is a finding, "harness" the harness's own
  fault) and `copy_on_write(op, properties)` (whether a delete, update or merge rewrites the data
  files it touches: the model's bookkeeping of where rows live).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from .spark_wire import read_rows


class Unsupported(Exception):
    """A step the writer does not offer (the message says why): skipped, table and model unchanged."""


def _step(method: Any) -> Any:
    """Marks a method of `Writer` as a step of a history (its op: the name with dashes)."""
    method.step_op = method.__name__.replace("_", "-")
    return method


class Writer:
    """The table of one history, written by one writer; every step refused unless overridden."""

    kind: ClassVar[str] = ""
    label: ClassVar[str] = ""  # the writer as its refusals name it ("ClickHouse")
    product: ClassVar[str] = ""  # the writer as scenario files name it, with its distribution's version
    distribution: ClassVar[str] = ""
    crash_check: ClassVar[str] = "writer-crash"
    versions: ClassVar[tuple[int, ...]] = ()  # the format versions it writes
    refusals: ClassVar[dict[str, str]] = {}  # op -> why the writer does not offer it ({label} is filled in)
    steps: ClassVar[frozenset[str]] = frozenset()  # the ops the writer offers (set per subclass)
    # what the generator draws for the writer (`drawing`, `strategies`)
    unwritten_types: ClassVar[tuple[str, ...]] = ()  # primitive column types it writes no column of
    nested_columns: ClassVar[bool] = True  # whether it writes struct, list and map columns
    adds_nested_columns: ClassVar[bool] = True  # whether it adds them to a table later
    takes_table_properties: ClassVar[bool] = True  # whether it takes Iceberg's table properties at creation
    one_field_per_column: ClassVar[bool] = False  # a column has one partition field at most (v1 voids count)
    replaces_field_in_place: ClassVar[bool] = False  # v1: a replaced field's column and family are free again

    name: str
    directory: Path

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.steps = frozenset(
            method.step_op
            for method in vars(Writer).values()
            if hasattr(method, "step_op") and getattr(cls, method.__name__) is not method
        )

    @classmethod
    def describe(cls) -> str:
        """The writer as scenario files name it (`"writer"`)."""
        from importlib import metadata

        return f"{cls.product} {metadata.version(cls.distribution)} ({cls.kind})"

    def refusal(self, op: str) -> Unsupported:
        """Why the writer does not offer `op`: the nearest class's reason, else a plain one."""
        for klass in type(self).__mro__:
            reason = vars(klass).get("refusals", {}).get(op)
            if reason is not None:
                return Unsupported(reason.format(label=self.label))
        return Unsupported(f"{self.label} does not offer the step {op}")

    # --- the table --------------------------------------------------------------------------------
    @property
    def metadata_location(self) -> str:
        raise NotImplementedError

    @property
    def metadata_path(self) -> Path:
        location = self.metadata_location
        return Path(location[len("file://") :] if location.startswith("file://") else location.removeprefix("file:"))

    def metadata(self) -> dict:
        return json.loads(self.metadata_path.read_text())

    def classify(self, e: BaseException) -> tuple[str, str]:
        raise NotImplementedError

    def copy_on_write(self, op: str, properties: dict[str, str]) -> bool:
        return False

    def create(self, table: dict) -> None:
        raise NotImplementedError

    def read(
        self, snapshot_id: int | None = None, branch: str | None = None, tag: str | None = None, lineage: bool = False
    ) -> tuple[list[str], list[dict[str, Any]]]:
        raise NotImplementedError

    # --- data steps (rows in model form, by column name) ------------------------------------------------
    @_step
    def insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        raise self.refusal("insert")

    @_step
    def overwrite(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        raise self.refusal("overwrite")

    @_step
    def insert_many(self, columns: list[tuple[str, str]], start: int, count: int, branch: str | None) -> None:
        raise self.refusal("insert-many")

    @_step
    def delete(self, where: dict, types: dict[str, str], branch: str | None) -> None:
        raise self.refusal("delete")

    @_step
    def update(self, column: str, t: str, value: Any, where: dict, types: dict[str, str], branch: str | None) -> None:
        raise self.refusal("update")

    @_step
    def merge(
        self,
        columns: list[tuple[str, str]],
        rows: list[dict],
        delete_where: dict | None,
        types: dict[str, str],
        branch: str | None,
    ) -> None:
        raise self.refusal("merge")

    @_step
    def equality_delete(self, columns: list[str], groups: list[list[dict]], types: dict[str, str]) -> None:
        raise self.refusal("equality-delete")

    # --- schema and partitioning ----------------------------------------------------------------------
    @_step
    def add_column(self, name: str, t: str, default: Any) -> None:
        raise self.refusal("add-column")

    @_step
    def drop_column(self, name: str) -> None:
        raise self.refusal("drop-column")

    @_step
    def rename_column(self, name: str, to: str) -> None:
        raise self.refusal("rename-column")

    @_step
    def move_column(self, name: str, after: str | None) -> None:
        raise self.refusal("move-column")

    @_step
    def widen_column(self, name: str, t: str) -> None:
        raise self.refusal("widen-column")

    @_step
    def add_partition_field(self, field: dict) -> None:
        raise self.refusal("add-partition-field")

    @_step
    def drop_partition_field(self, name: str) -> None:
        raise self.refusal("drop-partition-field")

    @_step
    def replace_partition_field(self, name: str, field: dict) -> None:
        raise self.refusal("replace-partition-field")

    @_step
    def set_properties(self, props: dict[str, str]) -> None:
        raise self.refusal("set-properties")

    @_step
    def upgrade(self, format_version: int) -> None:
        raise self.refusal("upgrade")

    # --- maintenance and refs ----------------------------------------------------------------------
    @_step
    def rewrite_data_files(self, options: dict[str, str]) -> None:
        raise self.refusal("rewrite-data-files")

    @_step
    def rewrite_manifests(self) -> None:
        raise self.refusal("rewrite-manifests")

    @_step
    def rewrite_position_deletes(self) -> None:
        raise self.refusal("rewrite-position-deletes")

    @_step
    def compute_statistics(self) -> None:
        raise self.refusal("compute-statistics")

    @_step
    def expire_snapshots(self, retain_last: int) -> None:
        raise self.refusal("expire-snapshots")

    @_step
    def create_branch(self, name: str) -> None:
        raise self.refusal("create-branch")

    @_step
    def create_tag(self, name: str) -> None:
        raise self.refusal("create-tag")

    @_step
    def rollback(self, snapshot_id: int) -> None:
        raise self.refusal("rollback")

    @_step
    def cherrypick(self, snapshot_id: int) -> None:
        raise self.refusal("cherrypick")


STEP_OPS = tuple(m.step_op for m in vars(Writer).values() if hasattr(m, "step_op"))  # every op of the interface


class MetadataByLocation(Writer):
    """A writer other than Spark, whose `metadata_location` is a file: URI: Spark reads its table
    (check 1: Iceberg Java) by the path of the current metadata file."""

    spark: Any

    def read(
        self, snapshot_id: int | None = None, branch: str | None = None, tag: str | None = None, lineage: bool = False
    ) -> tuple[list[str], list[dict[str, Any]]]:
        return read_rows(self.spark, self.metadata_location, snapshot_id, branch, tag, lineage)
