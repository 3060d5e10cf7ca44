"""The step table: every op of a history declared once (`step.Step`): how its arguments are drawn
(`strategies`), when a writer may take it, and how it runs on the writer and on the model (`runner`).
A writer offers the ops whose methods it overrides (`writer_base.Writer.steps`).

The order of `TABLE` is the order the generator draws from (with each step's weight): changing it
changes the histories a seed draws.
"""

from __future__ import annotations

from . import data, partition, schema, table
from .step import Run, Step

TABLE: tuple[Step, ...] = (
    data.INSERT,
    data.DELETE,
    data.UPDATE,
    data.MERGE,
    data.OVERWRITE,
    data.INSERT_MANY,
    schema.ADD_COLUMN,
    schema.DROP_COLUMN,
    schema.RENAME_COLUMN,
    schema.MOVE_COLUMN,
    schema.WIDEN_COLUMN,
    partition.ADD_PARTITION_FIELD,
    partition.DROP_PARTITION_FIELD,
    partition.REPLACE_PARTITION_FIELD,
    table.REWRITE_DATA_FILES,
    table.REWRITE_MANIFESTS,
    table.EXPIRE_SNAPSHOTS,
    table.CREATE_BRANCH,
    table.CREATE_TAG,
    table.ROLLBACK,
    table.SET_PROPERTIES,
    table.UPGRADE,
    table.REWRITE_POSITION_DELETES,
    table.CHERRYPICK,
    data.EQUALITY_DELETE,
)
BY_OP: dict[str, Step] = {s.op: s for s in TABLE}
# the steps that remove or rewrite files: every live snapshot is checked again after them
FILE_REMOVING = ("expire-snapshots", "rewrite-data-files", "rewrite-manifests", "rewrite-position-deletes")

__all__ = ["BY_OP", "FILE_REMOVING", "TABLE", "Run", "Step"]
