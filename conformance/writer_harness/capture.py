"""Keeping a history's table as a golden table: the files Iceberg Java wrote, and the model's rows.

    iceberg-writer-harness capture conformance/writer_harness/coverage/*.json
    iceberg-vectors generate --set tables                                      # then

A scenario with a `golden` section (id, description, rule ids) is run with every check. When it
shows no new finding, its table is copied to `vectors/sources/tables/<id>/`, relocated to the
corpus's placeholder location (`spec_impl.ops.relocate`), with `capture.json`: the history,
the writer, the known findings it shows, and for every snapshot the columns and rows of the
harness's **model** (not the reference's: the corpus gains an oracle of its own). In v3 the row
lineage columns are the reference reader's, which check 2 found equal to Iceberg Java's wherever
Spark could read the snapshot. The
generator (`spec_impl.vectors.tables`) turns each capture into `vectors/tables/<id>/`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from spec_impl.resources import vectors_dir

from .harness import Harness, classify
from .runner import HistoryRun
from .values import to_row_json
from .writers import describe

SOURCES = vectors_dir() / "sources" / "tables"
PLACEHOLDER = "file:/iceberg-conformance/tables"
LINEAGE = ("_row_id", "_last_updated_sequence_number")


class CaptureRefused(RuntimeError):
    """The history showed a new finding (or stopped early): its table is no golden table."""


def capture(harness: Harness, doc: dict, out: Path = SOURCES) -> Path:
    """Run the scenario `doc` and keep its table under `out/<golden id>/`; returns that directory."""
    from spec_impl.ops.relocate import relocate

    golden = doc["golden"]
    history = {k: doc[k] for k in ("format", "table", "steps")}
    run = HistoryRun(
        harness.spark,
        harness.warehouse,
        golden["id"].replace("-", "_"),
        history,
        harness.readers,
        writer=harness.writer_of(doc),
    )
    outcome = run.run()
    new, known = classify(outcome.findings, harness.known)
    if new or outcome.steps_run + len(outcome.skipped) < len(history["steps"]):
        shown = (
            "; ".join(f"{f.check} after step {f.step}: {f.message}" for f in new[:3])
            or f"{outcome.refused or 'a step did not run'}"
        )
        raise CaptureRefused(f"{golden['id']}: not kept: {shown}")
    md = run.table.metadata()
    scheme = (
        "file://" if md["location"].startswith("file:///") else "file:"
    )  # PyIceberg writes file:///, Iceberg Java file:/
    written = {f"{scheme}{p}": p.read_bytes() for p in sorted(run.table.directory.rglob("*")) if p.is_file()}
    location = f"{PLACEHOLDER}/{golden['id']}"
    files = relocate(written, md["location"], location)
    target = Path(out) / golden["id"]
    if target.exists():
        shutil.rmtree(target)
    for path, data in files.items():
        local = target / path[len(location) + 1 :]
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
    document = {
        **golden,
        "format-version": md["format-version"],
        "location": location,
        "metadata-location": f"{location}/metadata/{run.table.metadata_path.name}",
        "writer": describe(run.table.kind),
        "expected-rows": "the writer harness's model (conformance/writer_harness/model.py); "
        "in v3 the row lineage columns are the reference reader's, "
        "found equal to Iceberg Java's wherever Spark could read the snapshot",
        "known-findings": sorted({entry.id for _, entry in known}),
        "history": history,
        "snapshots": [
            _snapshot(run, s, md["format-version"]) for s in md["snapshots"] if s["snapshot-id"] in run.model.versions
        ],
    }
    (target / "capture.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def _snapshot(run: HistoryRun, snapshot: dict, format_version: int) -> dict[str, Any]:
    """One snapshot's columns and rows in the corpus's JSON row form, from the model."""
    sid = snapshot["snapshot-id"]
    version = run.model.versions[sid]
    lineage = {}
    if (
        format_version >= 3 and snapshot.get("first-row-id") is not None
    ):  # where Spark read the snapshot, check 2 compared these with its own
        read = run.readers.read_table(
            run.readers.table_files(run.table.metadata_location), run.table.metadata_location, sid, with_lineage=True
        ).to_pylist()
        lineage = {r["id"]: (r[LINEAGE[0]], r[LINEAGE[1]]) for r in read}
    rows = []
    for row in version.rows.values():
        values = run.model.by_name(row, version.columns)
        out = {c.name: to_row_json(c.type, values[c.name]) for c in version.columns}
        if format_version >= 3:
            out.update(zip(LINEAGE, lineage.get(values["id"], (None, None))))
        rows.append(out)
    columns = [c.name for c in version.columns] + (list(LINEAGE) if format_version >= 3 else [])
    return {
        "snapshot-id": sid,
        "operation": snapshot["summary"]["operation"],
        "columns": columns,
        "rows": sorted(rows, key=lambda r: json.dumps(r, sort_keys=True)),
    }
