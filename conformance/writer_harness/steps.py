"""The step table: every op of a history declared once (`step.Step`): how its arguments are drawn
(`strategies`), when a writer may take it, and how it runs on the writer and on the model (`runner`).
The ops themselves are in `step_data`, `step_schema`, `step_partition` and `step_maintenance`.
A writer offers the ops whose methods it overrides (`writer_base.Writer.steps`).

The order of `TABLE` is the order the generator draws from (with each step's weight): changing it
changes the histories a seed draws.
"""

from __future__ import annotations

from . import step_data, step_maintenance, step_partition, step_schema
from .step import Run, Step

TABLE: tuple[Step, ...] = (
    step_data.INSERT,
    step_data.DELETE,
    step_data.UPDATE,
    step_data.MERGE,
    step_data.OVERWRITE,
    step_data.INSERT_MANY,
    step_schema.ADD_COLUMN,
    step_schema.DROP_COLUMN,
    step_schema.RENAME_COLUMN,
    step_schema.MOVE_COLUMN,
    step_schema.WIDEN_COLUMN,
    step_partition.ADD_PARTITION_FIELD,
    step_partition.DROP_PARTITION_FIELD,
    step_partition.REPLACE_PARTITION_FIELD,
    step_maintenance.REWRITE_DATA_FILES,
    step_maintenance.REWRITE_MANIFESTS,
    step_maintenance.EXPIRE_SNAPSHOTS,
    step_maintenance.CREATE_BRANCH,
    step_maintenance.CREATE_TAG,
    step_maintenance.ROLLBACK,
    step_maintenance.SET_PROPERTIES,
    step_maintenance.UPGRADE,
    step_maintenance.REWRITE_POSITION_DELETES,
    step_maintenance.CHERRYPICK,
    step_data.EQUALITY_DELETE,
    step_maintenance.COMPUTE_STATISTICS,  # weight 0: never drawn (the draws of a seed stay as they were)
)
BY_OP: dict[str, Step] = {s.op: s for s in TABLE}
# the steps that remove or rewrite files: every live snapshot is checked again after them
FILE_REMOVING = ("expire-snapshots", "rewrite-data-files", "rewrite-manifests", "rewrite-position-deletes")

__all__ = ["BY_OP", "FILE_REMOVING", "TABLE", "Run", "Step"]
