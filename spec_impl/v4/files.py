"""v4 manifests as Avro files, and the deletion vectors of v4 entries (data DVs and manifest DVs).

Proposal: "V4 Manifest Key Value Metadata" (`format-version`, `content` = data | delete | root; no
serialized schema or spec), "Root Manifests" 1.d (data DVs: "a pointer to a data DV blob in a
Puffin file ... no in-lined delete vectors"), 1.e (manifest DVs: "an inline DV blob or a pointer
to a DV blob in a Puffin file"), Open Question 1.

Every v4 manifest has the one `content_entry` schema. Writing is deterministic (`write_avro`).
A DV, inline or in Puffin, is the `deletion-vector-v1` blob of `spec_impl.deletes.deletion_vectors`;
in Puffin its `referenced-data-file` property is the entry's `referenced_file` (a data file for
type 1, a manifest for type 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from spec_impl.deletes.deletion_vectors import deserialize_dv, dv_blob, read_dv, serialize_dv
from spec_impl.deletes.puffin import read_puffin, write_puffin
from spec_impl.errors import InvalidInput
from spec_impl.manifests.avro_files import read_avro, write_avro
from spec_impl.rules import Rule, register, implements
from spec_impl.v4.sections import SECTION_ROOT, SECTION_STRUCTURE, V4
from spec_impl.v4.entries import (
    ADDED,
    MANIFEST_DV,
    POSITION_DELETE,
    ContentEntry,
    DeletionVectorRef,
    content_entry_schema,
)

register(
    Rule(
        "v4.manifest.metadata",
        f"{SECTION_STRUCTURE} (V4 Manifest Key Value Metadata)",
        "A v4 manifest's key-value metadata has format-version 4 and content data, delete or root",
        *V4,
    ),
    Rule(
        "v4.dv.storage",
        f"{SECTION_ROOT} 1.d, 1.e",
        "A data DV (type 1) points at a deletion-vector-v1 blob in a Puffin file (offset, size_in_bytes), never "
        "inline; a manifest DV (type 5) is inline (inline_content only) or a Puffin blob (offset and "
        "size_in_bytes)",
        *V4,
    ),
)

CONTENTS = ("data", "delete", "root")
V3_CONTENTS = {"data": "data", "deletes": "delete"}  # a v3 leaf after the upgrade


@dataclass(frozen=True)
class ManifestFile:
    """A read manifest: v4 (`entries` are content entries as stored) or, for a leaf kept by the
    upgrade, v1-v3 (`records` are manifest_entry records; `entries` is empty)."""

    path: str
    format_version: int
    content: str  # data | delete | root
    entries: tuple[ContentEntry, ...]
    records: tuple[dict[str, Any], ...] = ()

    def __len__(self) -> int:
        return len(self.entries) if self.format_version >= 4 else len(self.records)


@implements("v4.manifest.metadata")
def write_manifest(content: str, entries: Iterable[ContentEntry]) -> bytes:
    """A v4 manifest file: content entries with `format-version` 4 and `content` (rule v4.manifest.metadata)."""
    if content not in CONTENTS:
        raise InvalidInput("v4.manifest.metadata", "content must be data, delete or root", content)
    return write_avro(
        content_entry_schema(), [e.to_record() for e in entries], {"format-version": "4", "content": content}
    )


@implements("v4.manifest.metadata")
def read_manifest(data: bytes, path: str, *, allow_v3: bool = False) -> ManifestFile:
    """A v4 manifest (or, with `allow_v3`, a v1-v3 manifest kept as a leaf by the upgrade)."""
    f = read_avro(data, path)
    version = f.metadata.get("format-version", "1")
    if version != "4":
        if not allow_v3 or version not in ("1", "2", "3"):
            raise InvalidInput("v4.manifest.metadata", f"{path}: format-version must be '4'", version)
        content = V3_CONTENTS.get(f.metadata.get("content", "data"))
        if content is None:
            raise InvalidInput(
                "v4.manifest.metadata",
                f"{path}: a v{version} manifest has content data or deletes",
                f.metadata.get("content"),
            )
        return ManifestFile(path, int(version), content, (), tuple(f.records))
    content = f.metadata.get("content")
    if content not in CONTENTS:
        raise InvalidInput("v4.manifest.metadata", f"{path}: content must be data, delete or root", content)
    entries = tuple(ContentEntry.from_record(r, f"{path} entry {i}") for i, r in enumerate(f.records))
    return ManifestFile(path, 4, content, entries)


# --- deletion vectors --------------------------------------------------------------------------


def inline_manifest_dv(location: str, target_manifest: str, positions: Iterable[int], **version: Any) -> ContentEntry:
    """An ADDED inline manifest DV (type 5) deleting `positions` (ordinals) of `target_manifest`."""
    blob = serialize_dv(sorted(set(positions)))
    return ContentEntry(
        MANIFEST_DV,
        location,
        "puffin",
        deserialize_dv(blob).cardinality,
        status=version.pop("status", ADDED),
        deletion_vector=DeletionVectorRef(inline_content=blob),
        referenced_file=target_manifest,
        **version,
    )


@implements("v4.dv.storage")
def puffin_dvs(
    location: str, content_type: int, targets: Mapping[str, Iterable[int]], **version: Any
) -> tuple[bytes, list[ContentEntry]]:
    """A Puffin file at `location` with one `deletion-vector-v1` blob per target (a data file for
    type 1, a manifest for type 5), and the ADDED entries pointing at them."""
    if content_type not in (POSITION_DELETE, MANIFEST_DV):
        raise InvalidInput("v4.dv.storage", "deletion vectors are content types 1 and 5", content_type)
    blobs = [dv_blob(sorted(set(positions)), target) for target, positions in targets.items()]
    data = write_puffin(blobs, {"created-by": "spec_impl.v4"})
    out = []
    for meta in read_puffin(data).blobs:
        out.append(
            ContentEntry(
                content_type,
                location,
                "puffin",
                int(meta.properties["cardinality"]),
                file_size_in_bytes=len(data),
                deletion_vector=DeletionVectorRef(meta.offset, meta.length),
                referenced_file=meta.properties["referenced-data-file"],
                status=version.get("status", ADDED),
                **{k: v for k, v in version.items() if k != "status"},
            )
        )
    return data, out


@implements("v4.dv.storage")
def check_dv_storage(e: ContentEntry, where: str = "") -> None:
    """Rule v4.dv.storage: the deletion_vector struct's shape for the entry's type."""
    dv = e.deletion_vector
    if dv is None:
        raise InvalidInput("v4.dv.storage", f"{where}: a type {e.content_type} entry needs deletion_vector", e.location)
    in_puffin = dv.offset is not None and dv.size_in_bytes is not None
    if dv.inline and (dv.offset is not None or dv.size_in_bytes is not None):
        raise InvalidInput("v4.dv.storage", f"{where}: a DV is inline or in a Puffin file, not both", e.location)
    if e.content_type == POSITION_DELETE and not in_puffin:
        raise InvalidInput(
            "v4.dv.storage",
            f"{where}: a data DV points at a Puffin blob (offset and size_in_bytes); no inline data DVs",
            e.location,
        )
    if e.content_type == MANIFEST_DV and not (dv.inline or in_puffin):
        raise InvalidInput(
            "v4.dv.storage", f"{where}: a manifest DV has inline_content or offset and size_in_bytes", e.location
        )


@implements(
    "dv.blob-metadata",
    "dv.blob-reference",
    "dv.cardinality",
    "dv.crc",
    "dv.entry",
    "dv.key-order",
    "dv.layout",
    "dv.magic",
    "dv.position",
    "v4.dv.storage",
)
def dv_positions(read: Any, e: ContentEntry) -> frozenset[int]:
    """The positions an entry of type 1 or 5 deletes; `read(path) -> bytes` reads Puffin files.
    Checks the storage (v4.dv.storage) and the blob (rules dv.*: layout, CRC, cardinality against
    record_count, blob reference)."""
    check_dv_storage(e)
    dv = e.deletion_vector
    if dv.inline:
        return frozenset(deserialize_dv(dv.inline_content, e.record_count).positions())
    v3_form = {
        "content": 1,
        "file_format": "puffin",
        "file_path": e.location,
        "record_count": e.record_count,
        "referenced_data_file": e.referenced_file,
        "content_offset": dv.offset,
        "content_size_in_bytes": dv.size_in_bytes,
    }
    return frozenset(read_dv(read_puffin(read(e.location)), v3_form).positions())
