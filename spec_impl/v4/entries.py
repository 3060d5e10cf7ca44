"""The v4 content entry: one record type for every row of a root, data or delete manifest.

Proposal ("Iceberg Single File Commits", `004_535f3eae0ad26c61.txt`): "Proposed Manifest
Structure" (V4 content entry structure, version_info struct, deletion_vector struct), "Root
Manifests" (the entry types). The Avro schema is kept as data, as `spec_impl.manifests.avro_schemas`
keeps v1-v3: rows of (field id, name, type, requirement).

Not modelled: `content_stats` (149, its nested ids are not defined by the proposal) and column
statistics in general; the partition tuple is removed by the proposal (data_file.partition REMOVED).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.manifests.records import conforms
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, register, implements
from spec_impl.v4.sections import SECTION_STRUCTURE, V4

register(
    Rule(
        "v4.entry.content-type",
        SECTION_STRUCTURE,
        "content_type (134) is 0 DATA, 1 POSITION_DELETE, 2 EQUALITY_DELETE, 3 DATA_MANIFEST, 4 DELETE_MANIFEST "
        "or 5 MANIFEST_DV",
        *V4,
    ),
    Rule(
        "v4.entry.status",
        f"{SECTION_STRUCTURE} (version_info)",
        "version_info.status is 0 EXISTING, 1 ADDED or 2 DELETED",
        *V4,
    ),
    Rule(
        "v4.entry.required",
        SECTION_STRUCTURE,
        "content_type, location, file_format, partition_spec_id and record_count are present and not null; "
        "version_info.status when version_info is present; every present field has the type of the field table "
        "(int, long, string, bytes, the version_info, deletion_vector and manifest_stats structs, lists); "
        "file_format names avro, orc, parquet or puffin (compared case-insensitively, as v1-v3 readers do)",
        *V4,
    ),
)

DATA, POSITION_DELETE, EQUALITY_DELETE, DATA_MANIFEST, DELETE_MANIFEST, MANIFEST_DV = range(6)
CONTENT_TYPES = {
    0: "DATA",
    1: "POSITION_DELETE",
    2: "EQUALITY_DELETE",
    3: "DATA_MANIFEST",
    4: "DELETE_MANIFEST",
    5: "MANIFEST_DV",
}
ROOT_ONLY = (
    DATA_MANIFEST,
    DELETE_MANIFEST,
    MANIFEST_DV,
)  # "Content types 3, 4 and 5, can only be defined in the root manifest"
MANIFEST_TYPES = (DATA_MANIFEST, DELETE_MANIFEST)
FILE_TYPES = (DATA, POSITION_DELETE, EQUALITY_DELETE)
EXISTING, ADDED, DELETED = 0, 1, 2
FILE_FORMATS = ("avro", "orc", "parquet", "puffin")  # "String file format name, avro, orc, parquet, or puffin"
STATUS_NAMES = {0: "EXISTING", 1: "ADDED", 2: "DELETED"}

R, O = "required", "optional"
VERSION_INFO = [
    (0, "status", "int", R),
    (1, "snapshot_id", "long", O),
    (3, "sequence_number", "long", O),
    (4, "file_sequence_number", "long", O),
]
DELETION_VECTOR = [
    (144, "offset", "long", O),
    (145, "size_in_bytes", "long", O),
    (146, "inline_content", "bytes", O),
]
MANIFEST_STATS = [
    (504, "added_files_count", "int", R),
    (505, "existing_files_count", "int", R),
    (506, "deleted_files_count", "int", R),
    (512, "added_rows_count", "long", R),
    (513, "existing_rows_count", "long", R),
    (514, "deleted_rows_count", "long", R),
    (516, "min_sequence_number", "long", R),
]
CONTENT_ENTRY = [
    (134, "content_type", "int", R),
    (100, "location", "string", R),
    (101, "file_format", "string", R),
    (5, "version_info", ("struct", VERSION_INFO), O),
    (147, "deletion_vector", ("struct", DELETION_VECTOR), O),
    (148, "partition_spec_id", "int", R),
    (140, "sort_order_id", "int", O),
    (103, "record_count", "long", R),
    (104, "file_size_in_bytes", "long", O),
    (521, "manifest_stats", ("struct", MANIFEST_STATS), O),
    (143, "referenced_file", "string", O),
    (131, "key_metadata", "bytes", O),
    (132, "split_offsets", ("list", 133, "long"), O),
    (135, "equality_ids", ("list", 136, "int"), O),
    (142, "first_row_id", "long", O),
]


def _avro(t: Any, name: str) -> Any:
    if isinstance(t, str):
        return t
    if t[0] == "struct":
        return record(name, t[1])
    _, element_id, element = t
    return {"type": "array", "element-id": element_id, "items": element}


def record(name: str, rows: list) -> dict:
    """The Avro record of `rows`; optional fields are unions with null (default null)."""
    fields = []
    for field_id, field_name, t, requirement in rows:
        avro = _avro(t, f"r{field_id}")
        if requirement == O:
            fields.append({"name": field_name, "type": ["null", avro], "default": None, "field-id": field_id})
        else:
            fields.append({"name": field_name, "type": avro, "field-id": field_id})
    return {"type": "record", "name": name, "fields": fields}


@implements("v4.entry.required")
def check_shape(value: dict, rows: list, where: str) -> None:
    """Rule v4.entry.required: each field of `value` null or of its type in `rows` (structs recursively)."""
    for _, name, t, _requirement in rows:
        v = value.get(name)
        if v is None:  # required fields: rule v4.entry.required, checked by the reader
            continue
        if isinstance(t, tuple) and t[0] == "struct":
            if not isinstance(v, dict):
                raise InvalidInput("v4.entry.required", f"{where}: {name} is a struct", brief(v))
            check_shape(v, t[1], f"{where} {name}")
        elif not conforms(v, t):
            raise InvalidInput(
                "v4.entry.required",
                f"{where}: {name} must be {t if isinstance(t, str) else 'a list of ' + t[2]}",
                brief(v),
            )


def content_entry_schema() -> dict:
    """The Avro schema of every v4 manifest (root and leaves): the content entry record."""
    return record("content_entry", CONTENT_ENTRY)


@dataclass(frozen=True)
class DeletionVectorRef:
    """deletion_vector (147): a blob in the Puffin file at `location` (offset, size_in_bytes), or inline bytes."""

    offset: int | None = None
    size_in_bytes: int | None = None
    inline_content: bytes | None = None

    @property
    def inline(self) -> bool:
        return self.inline_content is not None


@dataclass(frozen=True)
class ManifestStats:
    """manifest_stats (521): the manifest list's counts, moved into the entry of a manifest."""

    added_files_count: int
    existing_files_count: int
    deleted_files_count: int
    added_rows_count: int
    existing_rows_count: int
    deleted_rows_count: int
    min_sequence_number: int


@dataclass(frozen=True)
class ContentEntry:
    """One content entry. `status`, `snapshot_id` and the sequence numbers are version_info (5);
    None means "inherited" (snapshot_id always, sequence numbers only for ADDED entries)."""

    content_type: int
    location: str
    file_format: str
    record_count: int
    status: int = ADDED
    snapshot_id: int | None = None
    sequence_number: int | None = None
    file_sequence_number: int | None = None
    partition_spec_id: int = 0
    file_size_in_bytes: int | None = None
    deletion_vector: DeletionVectorRef | None = None
    sort_order_id: int | None = None
    manifest_stats: ManifestStats | None = None
    referenced_file: str | None = None
    key_metadata: bytes | None = None
    split_offsets: tuple[int, ...] | None = None
    equality_ids: tuple[int, ...] | None = None
    first_row_id: int | None = None
    has_version_info: bool = field(default=True, compare=False)

    @property
    def key(self) -> tuple:
        """What identifies the content: a Puffin file holds many DVs, told apart by their offset."""
        dv = self.deletion_vector
        return (self.content_type, self.location, dv.offset if dv is not None else None)

    @property
    def live(self) -> bool:
        return self.status != DELETED

    def with_status(self, status: int, **changes: Any) -> ContentEntry:
        return replace(self, status=status, **changes)

    def to_record(self) -> dict[str, Any]:
        """The entry as an Avro record of `content_entry_schema()`."""
        dv, stats = self.deletion_vector, self.manifest_stats
        return {
            "content_type": self.content_type,
            "location": self.location,
            "file_format": self.file_format,
            "version_info": {
                "status": self.status,
                "snapshot_id": self.snapshot_id,
                "sequence_number": self.sequence_number,
                "file_sequence_number": self.file_sequence_number,
            }
            if self.has_version_info
            else None,
            "deletion_vector": None
            if dv is None
            else {"offset": dv.offset, "size_in_bytes": dv.size_in_bytes, "inline_content": dv.inline_content},
            "partition_spec_id": self.partition_spec_id,
            "sort_order_id": self.sort_order_id,
            "record_count": self.record_count,
            "file_size_in_bytes": self.file_size_in_bytes,
            "manifest_stats": None if stats is None else dict(stats.__dict__),
            "referenced_file": self.referenced_file,
            "key_metadata": self.key_metadata,
            "split_offsets": None if self.split_offsets is None else list(self.split_offsets),
            "equality_ids": None if self.equality_ids is None else list(self.equality_ids),
            "first_row_id": self.first_row_id,
        }

    @classmethod
    @implements("v4.entry.content-type", "v4.entry.required", "v4.entry.status")
    def from_record(cls, r: dict[str, Any], where: str = "") -> ContentEntry:
        """An entry read from its Avro record (rules v4.entry.required, .content-type, .status).
        A null version_info reads as status ADDED with every value inherited (provisional)."""
        if not isinstance(r, dict):
            raise InvalidInput("v4.entry.required", f"{where}: a content entry is a record", brief(r))
        for name in ("content_type", "location", "file_format", "partition_spec_id", "record_count"):
            if r.get(name) is None:
                raise InvalidInput(
                    "v4.entry.required", f"{where}: content entry field {name} is required", r.get("location")
                )
        check_shape(r, CONTENT_ENTRY, where)
        if r["file_format"].lower() not in FILE_FORMATS:
            raise InvalidInput(
                "v4.entry.required", f"{where}: file_format is avro, orc, parquet or puffin", r["file_format"]
            )
        if r["content_type"] not in CONTENT_TYPES:
            raise InvalidInput("v4.entry.content-type", f"{where}: content_type must be 0..5", r["content_type"])
        vi = r.get("version_info")
        if vi is not None and vi.get("status") is None:
            raise InvalidInput("v4.entry.required", f"{where}: version_info.status is required", r["location"])
        status = ADDED if vi is None else vi["status"]
        if status not in STATUS_NAMES:
            raise InvalidInput(
                "v4.entry.status", f"{where}: status must be 0 (EXISTING), 1 (ADDED) or 2 (DELETED)", status
            )
        dv, stats = r.get("deletion_vector"), r.get("manifest_stats")
        return cls(
            r["content_type"],
            r["location"],
            r["file_format"],
            r["record_count"],
            status,
            None if vi is None else vi.get("snapshot_id"),
            None if vi is None else vi.get("sequence_number"),
            None if vi is None else vi.get("file_sequence_number"),
            r["partition_spec_id"],
            r.get("file_size_in_bytes"),
            None
            if dv is None
            else DeletionVectorRef(dv.get("offset"), dv.get("size_in_bytes"), dv.get("inline_content")),
            r.get("sort_order_id"),
            None if stats is None else ManifestStats(**{k: stats.get(k) for k in ManifestStats.__dataclass_fields__}),
            r.get("referenced_file"),
            r.get("key_metadata"),
            None if r.get("split_offsets") is None else tuple(r["split_offsets"]),
            None if r.get("equality_ids") is None else tuple(r["equality_ids"]),
            r.get("first_row_id"),
            vi is not None,
        )


def data_file(location: str, record_count: int, **kw: Any) -> ContentEntry:
    """An ADDED data file entry (content type 0), size 1000 + record_count unless given."""
    kw.setdefault("file_size_in_bytes", 1000 + record_count)
    return ContentEntry(DATA, location, kw.pop("file_format", "parquet"), record_count, **kw)


def equality_delete(location: str, record_count: int, equality_ids: tuple[int, ...] = (1,), **kw: Any) -> ContentEntry:
    """An ADDED equality delete file entry (content type 2)."""
    kw.setdefault("file_size_in_bytes", 500 + record_count)
    return ContentEntry(
        EQUALITY_DELETE,
        location,
        kw.pop("file_format", "parquet"),
        record_count,
        equality_ids=tuple(equality_ids),
        **kw,
    )
