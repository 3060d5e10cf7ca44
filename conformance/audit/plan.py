"""Planning the audit: the snapshot's manifest-list rows on the driver, each manifest's file tasks
and summary check in an executor.

Spec: "Snapshots", "Snapshot References" (a snapshot by id or ref, rule scan.snapshot), "Manifest
Lists" (field 507 `partitions`: the field summaries of the manifest's entries,
`spec_impl.metrics.summaries`), "Manifests" (entries and their inheritance,
`spec_impl.manifests.tree.read_manifest`). A summary covers every entry of its manifest, DELETED
ones included (they are partitions the manifest contains; Iceberg Java's writer counts them too),
and each live entry (ADDED or EXISTING) becomes a `FileTask`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.manifests import locations
from spec_impl.manifests.avro_files import physical_value
from spec_impl.manifests.inheritance import DELETED
from spec_impl.manifests.tree import FileSource, find_snapshot, manifest_rows, read_manifest
from spec_impl.metadata.partitioning import partition_type
from spec_impl.metadata.table_metadata import read_metadata_file
from spec_impl.metrics.summaries import FieldSummary, check_partition_summaries
from spec_impl.scan.reader import _snapshot_id as snapshot_of

from .model import AuditContext, FileTask, Violation, schema_with_sources


@dataclass(frozen=True)
class Plan:
    context: AuditContext
    manifest_rows: list[dict[str, Any]]


def plan(
    files: FileSource, metadata_location: str, snapshot_id: int | None = None, ref: str | None = None
) -> Plan | None:
    """The snapshot to audit and its manifest-list rows; None when the table has no snapshot.
    Raises SpecError (with the file named) on a metadata file or manifest list that cannot be read,
    or that lies outside the table's location (tree.file-location; `files` is bounded by the table
    unless it already is a `ContainedFiles`, whose --allow-outside prefixes the executors keep)."""
    files = locations.contain(files, metadata_location)
    data = files.read(metadata_location)
    md = read_metadata_file(data)
    wanted = snapshot_of(md, snapshot_id, ref)
    if wanted is None:
        return None
    snapshot = find_snapshot(md, wanted)
    _, rows = manifest_rows(files, md, snapshot)
    return Plan(AuditContext(metadata_location, data, wanted, files.allow_outside), rows)


def manifest_items(ctx: AuditContext, files: FileSource, row: dict[str, Any]) -> tuple[list[FileTask], list[Violation]]:
    """The live files of one manifest and the violations of its manifest-list summaries."""
    md = ctx.metadata
    try:
        m = read_manifest(files, row, md.format_version)
    except SpecError as e:
        return [], [Violation(e.rule, row["manifest_path"], str(e))]
    tasks = [FileTask(m.path, m.row["partition_spec_id"], e["data_file"]) for e in m.entries if e["status"] != DELETED]
    return tasks, summary_violations(ctx, m.row, [e["data_file"].get("partition") or {} for e in m.entries])


def summary_violations(ctx: AuditContext, row: dict[str, Any], partitions: list[dict[str, Any]]) -> list[Violation]:
    """Rules partition-summary.*: the row's `partitions` against the entries' partition tuples."""
    if row.get("partitions") is None:  # optional in every version
        return []
    md = ctx.metadata
    spec = next(s for s in md.specs if s.spec_id == row["partition_spec_id"])
    struct = partition_type(spec, schema_with_sources(md, [pf.source_ids[0] for pf in spec.fields]).struct)
    types = [f.type for f in struct.fields]
    tuples = [[physical_value(f.type, p.get(f.name)) for f in struct.fields] for p in partitions]
    claimed = [
        FieldSummary(s["contains_null"], s.get("contains_nan"), s.get("lower_bound"), s.get("upper_bound"))
        for s in row["partitions"]
    ]
    return [
        Violation(f.rule, row["manifest_path"], f"{f.message} (claimed {f.value!r})")
        for f in check_partition_summaries(types, tuples, claimed)
    ]
