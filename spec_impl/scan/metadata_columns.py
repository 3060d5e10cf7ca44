"""The metadata columns a read returns on request: `_file`, `_pos`, `_deleted`, `_spec_id`, `_partition`.

Spec: "Reserved Field IDs" (the table of metadata columns). Each value comes from the live data
file a row is read from (`reader.LiveFile`) and the row's position in it:

- `_file`: "Path of the file in which a row is stored": the data file's `file_path` as the
  manifest names it;
- `_pos`: "Ordinal position of a row in the source data file": the row's 0-based position in
  the file, counted before any delete is applied (the positions position deletes name);
- `_spec_id`: "Spec ID used to track the file containing a row": the manifest's
  `partition_spec_id`;
- `_partition`: "Partition to which a row belongs": the file's partition tuple. The spec gives the
  column the type `struct` and no fields; the reference uses the unified partition type of
  "Partition Statistics" (every partition field of every spec, by field id), the fields the
  file's spec lacks null (question `metadata-column.partition-type`);
- `_deleted`: "Whether the row has been deleted": a read returns the snapshot's live rows, none
  of them deleted, so false; the spec does not say whether asking for the column brings the
  deleted rows back (question `metadata-column.deleted-rows`).

    columns = MetadataColumns(md, ["_file", "_pos"], schema)
    columns.add(live_file, kept_positions)      # per data file, in the order its rows are emitted
    table = columns.append_to(table)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.manifests.avro_files import physical_value
from spec_impl.metadata.partitioning import unified_partition_type
from spec_impl.metadata.schema import Schema, metadata_column
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.arrow_values import arrow_table
from spec_impl.types import BOOLEAN, INT, LONG, STRING, NestedField, StructType

_SECTION = "Reserved Field IDs"
register(
    Rule("metadata-column.file", _SECTION, "_file (2147483646) is the path of the data file a row is read from"),
    Rule(
        "metadata-column.pos",
        _SECTION,
        "_pos (2147483645) is the row's 0-based ordinal position in its data file, counted before deletes",
    ),
    Rule(
        "metadata-column.spec-id",
        _SECTION,
        "_spec_id (2147483643) is the id of the partition spec of the manifest that tracks the row's data file",
    ),
    Rule(
        "metadata-column.partition",
        _SECTION,
        "_partition (2147483642) is the partition tuple of the row's data file; in a table with one partitioned "
        "spec, a struct of that spec's partition fields",
    ),
    Rule(
        "metadata-column.partition-unified",
        _SECTION,
        "_partition in a table with several specs, or none partitioned: the spec gives no struct type; the "
        "reference reads the unified partition type (every partition field of every spec, by field id), the "
        "fields the file's spec lacks null (a reading: metadata-column.partition-type)",
    ),
    Rule(
        "metadata-column.deleted",
        _SECTION,
        "_deleted (2147483644) is whether the row has been deleted: false for every row a read returns (the spec "
        "is silent on whether asking for it returns deleted rows: metadata-column.deleted-rows)",
    ),
)

NAMES = ("_file", "_pos", "_deleted", "_spec_id", "_partition")
_TYPES = {"_file": STRING, "_pos": LONG, "_deleted": BOOLEAN, "_spec_id": INT}


class MetadataColumns:
    """The requested metadata columns of one read, gathered file by file."""

    def __init__(self, md: Any, names: Sequence[str], schema: Schema, revision: str = revisions.DEFAULT):
        unknown = [n for n in names if n not in NAMES]
        if unknown or len(set(names)) != len(names):
            raise InvalidInput(
                "metadata-column.file", f"the metadata columns a read returns are {', '.join(NAMES)}", list(names)
            )
        self.names = tuple(names)
        self._specs = {s.spec_id: s for s in md.specs}
        self._partition_type = _partition_type(md, schema, revision) if "_partition" in names else StructType(())
        self._rows: list[dict[int, Any]] = []

    def add(self, data_file_path: str, spec_id: int, partition: dict[str, Any], positions: Sequence[int]) -> None:
        """The values of the rows kept from one data file, at their positions in the file."""
        if not self.names:
            return
        values = {
            "_file": file_path(data_file_path),
            "_spec_id": spec_id_of(spec_id),
            "_deleted": deleted(),
            "_partition": partition_of(self._specs[spec_id], partition, self._partition_type),
        }
        ids = {name: metadata_column(name).id for name in self.names}
        for p in positions:
            row = {ids[n]: values[n] for n in self.names if n != "_pos"}
            if "_pos" in ids:
                row[ids["_pos"]] = position(p)
            self._rows.append(row)

    def append_to(self, table: pa.Table) -> pa.Table:
        """`table` with the requested columns after its own, in the requested order."""
        if not self.names:
            return table
        fields = [
            NestedField(metadata_column(n).id, n, self._partition_type if n == "_partition" else _TYPES[n], False)
            for n in self.names
        ]
        extra = arrow_table(self._rows, Schema(StructType(tuple(fields))))
        for name in self.names:
            table = table.append_column(extra.schema.field(name), extra.column(name))
        return table


@implements("metadata-column.file")
def file_path(data_file_path: str) -> str:
    """`_file`: the data file's file_path, as the manifest names it."""
    return data_file_path


@implements("metadata-column.pos")
def position(pos: int) -> int:
    """`_pos`: the row's position in its data file (0-based, before deletes: the positions that
    position deletes and deletion vectors name)."""
    return pos


@implements("metadata-column.spec-id")
def spec_id_of(spec_id: int) -> int:
    """`_spec_id`: the manifest's partition_spec_id."""
    return spec_id


@implements("metadata-column.deleted")
def deleted() -> bool:
    """`_deleted`: the rows a read returns are the snapshot's live rows, none deleted."""
    return False


@implements("metadata-column.partition", "metadata-column.partition-unified")
def partition_of(spec: Any, partition: dict[str, Any], unified: StructType) -> dict[int, Any]:
    """`_partition`: the file's partition tuple (Avro values by its spec's field names) as a record
    of the unified partition type (physical values by partition field id); fields the spec lacks
    are null."""
    by_id = {f.field_id: partition.get(f.name) for f in spec.fields}
    return {f.id: physical_value(f.type, by_id.get(f.id)) for f in unified.fields}


def _partition_type(md: Any, schema: Schema, revision: str) -> StructType:
    """The unified partition type of the table's specs, their sources resolved in the read schema
    or, for a source it dropped, in the newest schema that has it."""
    columns: dict[int, NestedField] = {}
    for s in [schema, *sorted(md.schemas, key=lambda s: -s.schema_id)]:
        for f in s.fields:
            columns.setdefault(f.id, f)
    return unified_partition_type(md.specs, StructType(tuple(columns.values())), revision)
