"""Reading a snapshot's metadata tree: table metadata → manifest list → manifests → entries, with
the version defaults and the inheritance a reader must apply.

Spec: "Snapshots" (manifest-list, v1 `manifests`), "Manifest Lists", "Manifests", Appendix E;
adopted v3 digest §1.4 (row lineage). The inheritance itself is `spec_impl.manifests.inheritance`;
this module walks the files. Files come from a `FileSource`: `InMemoryFiles` (a mapping from the
exact path strings written in the tree to bytes, as the vectors carry them) or `LocalFiles`
(paths on this machine, `file:` URIs included).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, overload

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.manifests import inheritance
from spec_impl.manifests.avro_files import AvroFile, read_avro
from spec_impl.manifests.records import check_row
from spec_impl.metadata.snapshots import Snapshot
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import Rule, register, implements

register(
    Rule(
        "tree.file-exists",
        "Snapshots; Manifest Lists",
        "Every file the tree references (manifest list, manifests) exists",
    ),
    Rule(
        "tree.snapshot",
        "Snapshots",
        "The snapshot to read exists in the table metadata and has a manifest list (or, in v1, a manifests list)",
    ),
    Rule(
        "tree.manifest-format-version",
        "Manifests (key-value metadata)",
        "A manifest's format-version key, when present, is 1, 2 or 3 and not above the table's; absent means v1",
    ),
)


class FileSource(Protocol):
    def read(self, path: str) -> bytes: ...


@implements("tree.file-exists")
class InMemoryFiles:
    """Files keyed by the exact path strings the tree references (rule tree.file-exists)."""

    def __init__(self, files: Mapping[str, bytes]):
        self.files = dict(files)

    @implements("tree.file-exists")
    def read(self, path: str) -> bytes:
        try:
            return self.files[path]
        except KeyError:
            raise InvalidInput("tree.file-exists", "the tree references a file that is not there", path) from None


class FileUnreadable(OSError):
    """A file that exists but cannot be read here (a directory, no permission, an I/O error, a
    `file:` URI of another host): not a property of the table, so no spec rule; the command-line
    tools exit 2 on it. Its message names the path."""


@implements("tree.file-exists")
class LocalFiles:
    """Files on this machine: plain paths and `file:` URIs (`file:/p`, `file:///p`,
    `file://localhost/p`). A file that is not there is rule tree.file-exists; one that cannot be
    read for another reason is `FileUnreadable`. No containment here: that is
    `spec_impl.manifests.locations.ContainedFiles`."""

    @implements("tree.file-exists")
    def read(self, path: str) -> bytes:
        local = path
        if local.startswith("file://"):
            host, slash, rest = local[len("file://") :].partition("/")
            if host not in ("", "localhost"):
                raise FileUnreadable(
                    f"cannot read {path!r}: a file: URI of host {host!r} is not a file of this machine"
                )
            local = slash + rest
        elif local.startswith("file:"):
            local = local[len("file:") :]
        if "\x00" in local:
            raise InvalidInput(
                "tree.file-exists", "the tree references a file that is not there (its path has a NUL character)", path
            )
        try:
            return Path(local).read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            raise InvalidInput("tree.file-exists", "the tree references a file that is not there", path) from None
        except IsADirectoryError:
            raise FileUnreadable(f"cannot read {path!r}: it is a directory, not a file") from None
        except OSError as e:
            raise FileUnreadable(f"cannot read {path!r}: {e.strerror or e}") from None


@dataclass(frozen=True)
class ManifestReading:
    """One manifest of a snapshot: its manifest-list row (v1 defaults applied), its file's
    key-value metadata and format version, and its entries as a reader must see them."""

    row: dict[str, Any]
    file: AvroFile
    format_version: int
    entries: list[dict[str, Any]]

    @property
    def path(self) -> str:
        return self.row["manifest_path"]


class Manifests(Sequence[ManifestReading]):
    """A snapshot's manifests, read when asked for: iterating reads them one at a time, so a
    reader that walks them once holds one manifest's entries at a time, not the table's. Each
    iteration reads the files again (a manifest that cannot be read raises there)."""

    def __init__(self, files: FileSource, rows: list[dict[str, Any]], table_format_version: int):
        self.files, self.rows, self.table_format_version = files, rows, table_format_version

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, i: int) -> ManifestReading: ...
    @overload
    def __getitem__(self, i: slice) -> list[ManifestReading]: ...
    def __getitem__(self, i: int | slice) -> ManifestReading | list[ManifestReading]:
        if isinstance(i, slice):
            return [read_manifest(self.files, row, self.table_format_version) for row in self.rows[i]]
        return read_manifest(self.files, self.rows[i], self.table_format_version)

    def __iter__(self) -> Iterator[ManifestReading]:
        for row in self.rows:
            yield read_manifest(self.files, row, self.table_format_version)


@dataclass(frozen=True)
class SnapshotTree:
    """One snapshot's tree: its manifest list (None for a v1 `manifests` list) and its manifests,
    read as they are iterated (`Manifests`)."""

    metadata: TableMetadata
    snapshot: Snapshot
    manifest_list: AvroFile | None
    manifests: Manifests


@implements("tree.snapshot")
def find_snapshot(md: TableMetadata, snapshot_id: int | None) -> Snapshot:
    """The snapshot `snapshot_id`, or the current one when None (rule tree.snapshot)."""
    wanted = md.current_snapshot_id if snapshot_id is None else snapshot_id
    for s in md.snapshots:
        if s.snapshot_id == wanted:
            return s
    raise InvalidInput(
        "tree.snapshot",
        "no such snapshot in the table metadata" if wanted is not None else "the table has no current snapshot",
        wanted,
    )


@implements("tree.manifest-format-version")
def manifest_format_version(f: AvroFile, table_format_version: int, path: str) -> int:
    """A manifest's own format version (rule tree.manifest-format-version)."""
    raw = f.metadata.get("format-version")
    if raw is None:
        return 1
    if raw not in ("1", "2", "3") or int(raw) > table_format_version:
        raise InvalidInput(
            "tree.manifest-format-version",
            f"manifest {path} has format-version {raw!r} in a v{table_format_version} table",
            raw,
        )
    return int(raw)


def read_manifest(files: FileSource, row: dict[str, Any], table_format_version: int) -> ManifestReading:
    """One manifest with its entries inherited from `row` and, in v3, file first_row_ids derived."""
    row = inheritance.read_manifest_file(row)
    f = read_avro(files.read(row["manifest_path"]), row["manifest_path"])
    fv = manifest_format_version(f, table_format_version, row["manifest_path"])
    entries = inheritance.inherit_entries(row, f.records, fv)
    if table_format_version >= 3:
        for entry, first_row_id in zip(entries, inheritance.file_first_row_ids(row.get("first_row_id"), entries)):
            entry["data_file"]["first_row_id"] = first_row_id
    return ManifestReading(row, f, fv, entries)


@implements("tree.manifest-metadata", "tree.snapshot")
def manifest_rows(
    files: FileSource, md: TableMetadata, snapshot: Snapshot
) -> tuple[AvroFile | None, list[dict[str, Any]]]:
    """The manifest-list rows of a snapshot; a v1 snapshot with a `manifests` list gets rows made
    from each manifest's key-value metadata (its spec id), with the snapshot as added_snapshot_id."""
    if snapshot.manifest_list is not None:
        f = read_avro(files.read(snapshot.manifest_list), snapshot.manifest_list)
        return f, [check_row(r, f"{snapshot.manifest_list} row {i}") for i, r in enumerate(f.records)]
    if snapshot.manifests is None:
        raise InvalidInput(
            "tree.snapshot", "the snapshot has neither manifest-list nor manifests", snapshot.snapshot_id
        )
    rows = []
    for path in snapshot.manifests:
        data = files.read(path)
        spec_id = read_avro(data, path).metadata.get("partition-spec-id", str(md.default_spec_id))
        if not (spec_id.isascii() and spec_id.isdigit() and len(spec_id) < 10):
            raise InvalidInput(
                "tree.manifest-metadata", f"manifest {path} has a partition-spec-id that is not an int", spec_id
            )
        rows.append(
            {
                "manifest_path": path,
                "manifest_length": len(data),
                "partition_spec_id": int(spec_id),
                "added_snapshot_id": snapshot.snapshot_id,
            }
        )
    return None, rows


def read_snapshot(
    files: FileSource, metadata_location: str, snapshot_id: int | None = None, revision: str = revisions.DEFAULT
) -> SnapshotTree:
    """The tree of one snapshot (the current one by default): the metadata and manifest list are
    read here, the manifests as they are iterated."""
    md = read_metadata_file(files.read(metadata_location), revision)
    snapshot = find_snapshot(md, snapshot_id)
    manifest_list, rows = manifest_rows(files, md, snapshot)
    return SnapshotTree(md, snapshot, manifest_list, Manifests(files, rows, md.format_version))


MANIFEST_KEYS = (
    "manifest_path",
    "partition_spec_id",
    "content",
    "sequence_number",
    "min_sequence_number",
    "added_snapshot_id",
    "first_row_id",
)


def tree_reading(tree: SnapshotTree) -> dict[str, Any]:
    """The normalized reading of a snapshot's tree that the vectors compare: each manifest's row,
    and each entry (DELETED ones included) with its inherited values, in file order."""
    manifests, entries = [], []
    for m in tree.manifests:
        manifests.append({k: m.row.get(k) for k in MANIFEST_KEYS})
        for e in m.entries:
            f = e["data_file"]
            entries.append(
                {
                    "manifest_path": m.path,
                    "status": e["status"],
                    "content": f.get("content", 0),
                    "file_path": f["file_path"],
                    "record_count": f["record_count"],
                    "snapshot_id": e["snapshot_id"],
                    "sequence_number": e["sequence_number"],
                    "file_sequence_number": e["file_sequence_number"],
                    "first_row_id": f.get("first_row_id"),
                }
            )
    return {
        "snapshot-id": tree.snapshot.snapshot_id,
        "sequence-number": tree.snapshot.sequence_number,
        "manifests": manifests,
        "entries": entries,
    }
