"""The golden tables of `vectors/tables/` on local disk, for adapters whose engine reads a table by path.

The tables under `vectors/tables/` are written at a placeholder location that does not exist. To
be read for real, a table is written again with `spec_impl.vectors.tables.materialize` (the
generator is deterministic: only the paths differ) under `<process directory>/<table id>/`. Each
table is written at most once per process; the directory is removed at exit. Plumbing only: no
spec rule is applied here.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GoldenTable:
    """A golden table written to local disk: its directory, metadata file and case document."""

    id: str
    directory: Path
    metadata_location: str  # `file:<directory>/metadata/vN.metadata.json`, the latest version
    document: dict[str, Any]

    @property
    def format_version(self) -> int:
        return self.document["format-version"]

    @property
    def metadata_path(self) -> str:
        """The metadata file as a plain local path (for engines that take no `file:` URI)."""
        return self.metadata_location.removeprefix("file:")


_lock = threading.Lock()
_root: Path | None = None
_tables: dict[str, GoldenTable] = {}


def root() -> Path:
    """The process's directory of materialized tables (created on first use, removed at exit)."""
    global _root
    with _lock:
        if _root is None:
            _root = Path(tempfile.mkdtemp(prefix="iceberg-conformance-tables-")).resolve()
            atexit.register(shutil.rmtree, _root, True)
        return _root


def table(table_id: str) -> GoldenTable:
    """The golden table `table_id`, written under `root()` on first request."""
    from spec_impl.vectors.tables import materialize

    directory = root() / table_id
    with _lock:
        if table_id not in _tables:
            metadata_location, document = materialize(table_id, directory)
            _tables[table_id] = GoldenTable(table_id, directory, metadata_location, document)
        return _tables[table_id]


def register(table_id: str, metadata_location: str, format_version: int) -> GoldenTable:
    """Make a table that already lies on local disk (one an engine wrote, say) readable by the
    adapters under `table_id`, as if it were a golden table. Its rows are the caller's to judge."""
    directory = Path(metadata_location.removeprefix("file:")).parents[1]
    with _lock:
        _tables[table_id] = GoldenTable(
            table_id, directory, metadata_location, {"id": table_id, "format-version": format_version}
        )
        return _tables[table_id]


LINEAGE_COLUMNS = ("_row_id", "_last_updated_sequence_number")


@dataclass(frozen=True)
class SnapshotFiles:
    """What a snapshot's live files are made of: the formats of its data files and of its delete
    files (Puffin deletion vectors apart), and whether it has live position deletes (files or DVs)."""

    formats: frozenset[str]
    position_deletes: bool


_files_of: dict[tuple[str, int], SnapshotFiles | None] = {}


def snapshot_files(table_id: str, snapshot_id: int) -> SnapshotFiles | None:
    """The `SnapshotFiles` of one snapshot of a golden table (or of a registered one), for adapters
    whose engine reads only some file formats; None when the reference cannot list them (a broken
    tree: the engine is asked as it is). Plumbing: the reference's tree reader lists the files."""
    from spec_impl.errors import SpecError

    from spec_impl.manifests.tree import InMemoryFiles, LocalFiles, read_snapshot
    from spec_impl.scan.reader import live_files
    from spec_impl.ops.golden_tables import table_files

    key = (table_id, snapshot_id)
    if key not in _files_of:
        with _lock:
            on_disk = _tables.get(table_id)
        try:
            if on_disk is not None:
                tree = read_snapshot(LocalFiles(), on_disk.metadata_location, snapshot_id)
            else:
                files, metadata_location, _ = table_files(table_id)
                tree = read_snapshot(InMemoryFiles(files), metadata_location, snapshot_id)
            data, deletes = live_files(tree)
        except SpecError:
            _files_of[key] = None
            return None
        formats = {f.scan.file_format.lower() for f in (*data, *deletes)} - {"puffin"}
        _files_of[key] = SnapshotFiles(frozenset(formats), any(d.scan.content == 1 for d in deletes))
    return _files_of[key]


def without_columns(output: dict[str, Any], names: tuple[str, ...] = LINEAGE_COLUMNS) -> dict[str, Any]:
    """A read-table output without the given columns (for `partial_view`): columns and row keys."""
    return {
        "columns": [c for c in output["columns"] if c not in names],
        "rows": [{k: v for k, v in row.items() if k not in names} for row in output["rows"]],
    }


def at_placeholder(output: Any) -> Any:
    """A read-table output with the `_file` values under a materialized table's directory (`root()`)
    written at the table's placeholder location, where the vectors name the files."""
    from spec_impl.ops.golden_tables import PLACEHOLDER

    if not isinstance(output, dict) or "_file" not in output.get("columns", ()):
        return output
    local = f"file:{root()}/"

    def placeholder(path: Any) -> Any:
        return f"{PLACEHOLDER}/{path[len(local) :]}" if isinstance(path, str) and path.startswith(local) else path

    return {**output, "rows": [{**row, "_file": placeholder(row.get("_file"))} for row in output["rows"]]}
