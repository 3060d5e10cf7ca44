"""The maintenance and table steps: the rewrite procedures and snapshot expiry (which remove or rewrite files),
branches and tags, rollback and cherry-pick, format upgrades and property changes."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .drawing import METRICS, Shape, write_modes
from .model import Change
from .step import Run, Step


def _draw_rewrite_data_files(draw: Any, shape: Shape, writer: Any) -> dict:
    options = {"min-input-files": "1"}
    if draw(st.booleans()):
        options["delete-file-threshold"] = "1"
    if draw(st.booleans()):
        options["rewrite-all"] = "true"
    return {"op": "rewrite-data-files", "options": options}


def _rewrite_data_files(run: Run, i: int, step: dict) -> Change:
    run.table.rewrite_data_files(step["options"])
    return run.model.files_rewritten(run.model.unchanged("main"))


def _draw_plain(op: str) -> Any:
    return lambda draw, shape, writer: {"op": op}


def _rewrite_manifests(run: Run, i: int, step: dict) -> Change:
    run.table.rewrite_manifests()
    return run.model.unchanged("main")


def _rewrite_position_deletes(run: Run, i: int, step: dict) -> Change:
    run.table.rewrite_position_deletes()
    return run.model.unchanged("main")


def _compute_statistics(run: Run, i: int, step: dict) -> None:
    run.table.compute_statistics()  # metadata only: no snapshot, the model is unchanged


def _draw_expire(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "expire-snapshots", "retain-last": draw(st.integers(1, 3))}


def _expire(run: Run, i: int, step: dict) -> None:
    run.table.expire_snapshots(step["retain-last"])


def _draw_ref(op: str, prefix: str) -> Any:
    def draw_ref(draw: Any, shape: Shape, writer: Any) -> dict:
        name = shape.new_name(prefix)
        (shape.branches if op == "create-branch" else shape.tags).append(name)
        return {"op": op, "name": name}

    return draw_ref


def _create_branch(run: Run, i: int, step: dict) -> None:
    run.table.create_branch(step["name"])
    if run.model.branches["main"] is not None:
        run.model.create_branch(step["name"])


def _create_tag(run: Run, i: int, step: dict) -> None:
    if run.model.branches["main"] is None:
        return run.skip(i, "a tag needs a snapshot")
    run.table.create_tag(step["name"])
    run.model.create_tag(step["name"])


def _draw_rollback(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "rollback", "ancestor": draw(st.integers(1, 3))}


def _rollback(run: Run, i: int, step: dict) -> None:
    m = run.model
    older = m.ancestors(m.branches["main"])[1:]
    if len(older) < step["ancestor"]:
        return run.skip(i, f"main has no live ancestor {step['ancestor']} back")
    target = older[step["ancestor"] - 1]
    run.table.rollback(target)
    m.rollback(target)


def _draw_cherrypick(draw: Any, shape: Shape, writer: Any) -> dict:
    return {"op": "cherrypick", "branch": draw(st.sampled_from(shape.branches))}


def _cherrypick(run: Run, i: int, step: dict) -> Change | None:
    m = run.model
    source = m.branches.get(step["branch"])
    change = m.cherrypick(source) if source is not None else None
    if change is None:
        return run.skip(i, f"the head of branch {step['branch']} is no snapshot Iceberg can cherry-pick into main")
    run.table.cherrypick(source)
    m.picked.add(source)
    return change


def _draw_upgrade(draw: Any, shape: Shape, writer: Any) -> dict:
    shape.format_version = draw(st.integers(shape.format_version + 1, max(writer.versions)))
    return {"op": "upgrade", "format-version": shape.format_version}


def _upgrade(run: Run, i: int, step: dict) -> None:
    run.table.upgrade(step["format-version"])
    run.properties["format-version"] = str(step["format-version"])


def _draw_set_properties(draw: Any, shape: Shape, writer: Any) -> dict:
    mode = draw(write_modes(shape.format_version))
    metrics = draw(st.sampled_from(METRICS))
    modes = {"write.delete.mode": mode, "write.update.mode": mode, "write.merge.mode": mode}
    return {"op": "set-properties", "properties": {**modes, "write.metadata.metrics.default": metrics}}


def _set_properties(run: Run, i: int, step: dict) -> None:
    run.table.set_properties(step["properties"])
    run.properties.update(step["properties"])


REWRITE_DATA_FILES = Step("rewrite-data-files", _draw_rewrite_data_files, _rewrite_data_files)
REWRITE_MANIFESTS = Step("rewrite-manifests", _draw_plain("rewrite-manifests"), _rewrite_manifests)
REWRITE_POSITION_DELETES = Step(
    "rewrite-position-deletes",
    _draw_plain("rewrite-position-deletes"),
    _rewrite_position_deletes,
    when=lambda shape, writer: shape.format_version >= 2,
)
# never drawn (weight 0): a scenario names it to give a golden table statistics files
COMPUTE_STATISTICS = Step("compute-statistics", _draw_plain("compute-statistics"), _compute_statistics, weight=0)
EXPIRE_SNAPSHOTS = Step("expire-snapshots", _draw_expire, _expire)
CREATE_BRANCH = Step("create-branch", _draw_ref("create-branch", "b"), _create_branch)
CREATE_TAG = Step("create-tag", _draw_ref("create-tag", "t"), _create_tag)
ROLLBACK = Step("rollback", _draw_rollback, _rollback)
CHERRYPICK = Step("cherrypick", _draw_cherrypick, _cherrypick, when=lambda shape, writer: bool(shape.branches))
UPGRADE = Step(
    "upgrade", _draw_upgrade, _upgrade, when=lambda shape, writer: shape.format_version < max(writer.versions)
)
SET_PROPERTIES = Step("set-properties", _draw_set_properties, _set_properties)
