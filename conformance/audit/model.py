"""What travels between the driver and the executors: the audit's context, a file task, a violation.

All are small picklable values; rows never travel (they are read where the task runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from spec_impl.datafiles.table_files import field_types as table_field_types
from spec_impl.manifests.locations import ContainedFiles, table_prefixes
from spec_impl.manifests.tree import LocalFiles
from spec_impl.metadata.partitioning import PartitionSpec, partition_type
from spec_impl.metadata.schema import Schema, walk
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.types import StructType
from spec_impl.manifests.validate import Violation  # noqa: F401  (a rule the table breaks, where and how: one definition)

DATA, POSITION_DELETES, EQUALITY_DELETES = 0, 1, 2


@dataclass(frozen=True)
class AuditContext:
    """The table's metadata document (its bytes, parsed once per executor process), the snapshot,
    and the prefixes outside the table's location that may be read (rule tree.file-location)."""

    metadata_location: str
    metadata_bytes: bytes
    snapshot_id: int
    allow_outside: tuple[str, ...] = ()

    @property
    def files(self) -> ContainedFiles:
        """The local files the audit may read: under the table's location and write paths
        (`spec_impl.manifests.locations`), in the driver and in every executor."""
        contained = ContainedFiles(
            LocalFiles(), table_prefixes(self.metadata_bytes), self.allow_outside, [self.metadata_location]
        )
        contained._cache[self.metadata_location] = self.metadata_bytes
        return contained

    @property
    def metadata(self) -> TableMetadata:
        return _parse(self.metadata_bytes)

    @property
    def field_types(self) -> dict[int, Any]:
        """The type of every field id of any schema (the newest schema's type when several have it)."""
        return _field_types(self.metadata_bytes)

    @property
    def schema_field_types(self) -> dict[int, tuple[Any, ...]]:
        """Every type each field id had in the table's schemas, and the reserved columns' types
        (`spec_impl.datafiles.table_files.field_types`, for Appendix A's checks of each file)."""
        return _schema_field_types(self.metadata_bytes)

    def partition(self, spec_id: int) -> tuple[PartitionSpec, StructType]:
        """The partition spec `spec_id` and its partition struct ("Partitioning": the source
        columns' types in the newest schema that has them all). Work of the table, made once per
        executor process rather than once per file."""
        return _partition(self.metadata_bytes, spec_id)


@lru_cache(maxsize=4)
def _parse(data: bytes) -> TableMetadata:
    return read_metadata_file(data)


@lru_cache(maxsize=4)
def _schema_field_types(data: bytes) -> dict[int, tuple[Any, ...]]:
    return table_field_types(_parse(data))


@lru_cache(maxsize=64)
def _partition(data: bytes, spec_id: int) -> tuple[PartitionSpec, StructType]:
    md = _parse(data)
    spec = next(s for s in md.specs if s.spec_id == spec_id)
    return spec, partition_type(spec, schema_with_sources(md, [pf.source_ids[0] for pf in spec.fields]).struct)


@lru_cache(maxsize=4)
def _field_types(data: bytes) -> dict[int, Any]:
    types = {}
    for s in sorted(_parse(data).schemas, key=lambda s: s.schema_id):
        types.update({info.id: info.field.type for info in walk(s.struct) if info.field is not None})
    return types


def schema_with_sources(md: TableMetadata, source_ids: list[int]) -> Schema:
    """The newest schema that has every source field of a spec ("Partitioning": a dropped source
    column stays in the older schemas)."""

    def has(s: Schema, fid: int) -> bool:
        try:
            s.field_by_id(fid)
            return True
        except KeyError:
            return False

    return next(s for s in sorted(md.schemas, key=lambda s: -s.schema_id) if all(has(s, i) for i in source_ids))


@dataclass(frozen=True)
class FileTask:
    """One live file of the snapshot: its manifest entry's data_file (after inheritance) and spec id."""

    manifest_path: str
    spec_id: int
    data_file: dict[str, Any]

    @property
    def path(self) -> str:
        return self.data_file["file_path"]

    @property
    def content(self) -> int:
        return self.data_file.get("content", DATA)

    @property
    def is_dv(self) -> bool:
        return str(self.data_file.get("file_format", "")).lower() == "puffin"
