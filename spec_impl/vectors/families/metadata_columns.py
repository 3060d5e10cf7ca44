"""The metadata columns of "Reserved Field IDs" read from the golden tables (`read-table` with
`metadata-columns`): `_file`, `_pos`, `_spec_id`, `_partition` and `_deleted`, one column per case,
at each table's current snapshot, beside the table's own columns (so rows stay identifiable).

The cases read the golden tables of `vectors/tables/` (`spec_impl.vectors.tables`); the cases of
those tables (`table.<id>/snapshot-<n>`) are unchanged. `_file` is the path the manifest names, at
the table's placeholder location: an engine that reads a copy elsewhere reports it relative to the
copy, and the suite maps the copy's location back (`conformance.engines.golden_tables`).
"""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.revisions import ADOPTED
from spec_impl.vectors import tables
from spec_impl.vectors.cases import CaseSpec, case

NAME = "metadata-columns"
DESCRIPTION = (
    "Reserved Field IDs: the metadata columns _file, _pos, _spec_id, _partition and _deleted a reader returns on "
    "request, read from the golden tables"
)

_RULES = {
    "_file": ("metadata-column.file", "the path of the data file each row is read from"),
    "_pos": ("metadata-column.pos", "each row's 0-based position in its data file, before deletes"),
    "_spec_id": ("metadata-column.spec-id", "the partition spec id of the manifest that tracks each row's file"),
    "_deleted": ("metadata-column.deleted", "false for every row the read returns"),
}


def _metadata(table_id: str) -> TableMetadata:
    files, metadata_location, _ = tables.table_files(table_id)
    return read_metadata_file(InMemoryFiles(files).read(metadata_location))


def _partition_rule(md: TableMetadata) -> tuple[str, str]:
    """One partitioned spec: the partition tuple of that spec; otherwise the unified type (a reading)."""
    if len(md.specs) == 1 and md.specs[0].fields:
        return "metadata-column.partition", "the partition tuple of each row's data file"
    return (
        "metadata-column.partition-unified",
        "the partition tuple of each row's data file as the unified partition type of the table's "
        f"{len(md.specs)} spec(s)",
    )


def specs() -> Iterator[CaseSpec]:
    for table_id in tables.all_ids():
        md = _metadata(table_id)
        if md.current_snapshot_id is None:
            continue
        for column in ("_file", "_pos", "_spec_id", "_partition", "_deleted"):
            rule_id, what = _partition_rule(md) if column == "_partition" else _RULES[column]
            yield case(
                rule_id,
                table_id,
                f"golden table {table_id}, current snapshot, asking for {column}: {what}",
                "read-table",
                revisions=ADOPTED,
                table=table_id,
                snapshot_id=md.current_snapshot_id,
                metadata_columns=[column],
            )
