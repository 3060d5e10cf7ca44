"""Writing whole tables as a correct writer would: Parquet data files, position and equality delete
files, deletion vectors in Puffin files, and the metadata tree that tracks them.

Spec: "Position Delete Files", "Equality Delete Files", Appendix A (Parquet field ids), adopted v3
digest §1.5 (DVs); the metadata is written by `spec_impl.manifests.writer.TreeWriter`.

`TableBuilder` is the deterministic generator of the golden table corpus: every file goes into
`files`, keyed by its full path under the table location; writing the same scenario at another
location gives the same files with the other paths.
"""

from __future__ import annotations

import io
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spec_impl.deletes.apply import FILE_PATH_ID, POS_ID
from spec_impl.deletes.deletion_vectors import dv_blob, manifest_fields
from spec_impl.deletes.puffin import read_puffin, write_puffin
from spec_impl.manifests.inheritance import ADDED, DELETED
from spec_impl.manifests.writer import TreeWriter, WrittenManifest, data_file, entry
from spec_impl.metadata.schema import Schema, parse_schema
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.types import NestedField, parse_type

POSITION_DELETE_SCHEMA = Schema.of(
    NestedField(FILE_PATH_ID, "file_path", parse_type("string"), True),
    NestedField(POS_ID, "pos", parse_type("long"), True),
)


class TableBuilder:
    """A table under construction: write files, then commit them as snapshots."""

    def __init__(self, location: str, format_version: int, schema: dict, specs: list[dict] | None = None):
        self.tree = TreeWriter(location, format_version, schema, specs=specs or [{"spec-id": 0, "fields": []}])
        self.snapshot_id = 0
        self.current: list[dict] = []  # the current snapshot's manifest-list rows
        self._manifests = 0

    @property
    def files(self) -> dict[str, bytes]:
        return self.tree.files

    @property
    def location(self) -> str:
        return self.tree.location

    def schema(self) -> Schema:
        return parse_schema(self.tree.schema, self.tree.format_version)

    def _write(self, name: str, data: bytes) -> str:
        path = f"{self.location}/data/{name}"
        self.files[path] = data
        return path

    # --- files -----------------------------------------------------------------------------------
    def data(
        self, name: str, rows: list[dict[int, Any]], partition: dict | None = None, schema: Schema | None = None
    ) -> dict:
        """A Parquet data file of `rows` (records by field id) written with the current (or given) schema."""
        path = self._write(name, write_parquet(rows, schema or self.schema()))
        return data_file(path, len(rows), partition=partition, size=len(self.files[path]))

    def data_without_ids(self, name: str, table: pa.Table) -> dict:
        """A Parquet data file written without field ids (read through a name mapping)."""
        buf = io.BytesIO()
        pq.write_table(table, buf, store_schema=False)
        path = self._write(name, buf.getvalue())
        return data_file(path, table.num_rows, size=len(self.files[path]))

    def position_deletes(
        self, name: str, deletes: list[tuple[str, int]], partition: dict | None = None, *, referenced: str | None = None
    ) -> dict:
        """A position delete file: (data file path, position) pairs, sorted by path then position."""
        rows = [{FILE_PATH_ID: path, POS_ID: pos} for path, pos in sorted(deletes)]
        path = self._write(name, write_parquet(rows, POSITION_DELETE_SCHEMA))
        extra = {"referenced_data_file": referenced} if referenced else {}
        return data_file(path, len(rows), content=1, partition=partition, size=len(self.files[path]), **extra)

    def equality_deletes(
        self,
        name: str,
        equality_ids: list[int],
        rows: list[dict[int, Any]],
        partition: dict | None = None,
        schema: Schema | None = None,
    ) -> dict:
        """An equality delete file whose rows hold (at least) the delete columns `equality_ids`."""
        schema = schema or self.schema()
        kept = Schema.of(*(f for f in schema.fields if any(f.id in r for r in rows) or f.id in equality_ids))
        path = self._write(name, write_parquet(rows, kept))
        return data_file(
            path, len(rows), content=2, partition=partition, size=len(self.files[path]), equality_ids=list(equality_ids)
        )

    def deletion_vector(self, name: str, data_path: str, positions: list[int], partition: dict | None = None) -> dict:
        """A Puffin file holding the DV of one data file (adopted v3 §1.5)."""
        return self.deletion_vectors(name, {data_path: positions}, partition)[0]

    def deletion_vectors(
        self, name: str, positions_by_file: dict[str, list[int]], partition: dict | None = None
    ) -> list[dict]:
        """One Puffin file holding the DVs of several data files: one delete-file entry each, told apart
        by content_offset and referenced_data_file (adopted v3 §1.5)."""
        path = self._write(
            name, write_puffin([dv_blob(positions, data_path) for data_path, positions in positions_by_file.items()])
        )
        out = []
        for blob in read_puffin(self.files[path]).blobs:
            fields = manifest_fields(blob)
            fields.pop("content")
            fields.pop("file_format")
            out.append(
                data_file(
                    path,
                    fields.pop("record_count"),
                    content=1,
                    file_format="PUFFIN",
                    partition=partition,
                    size=len(self.files[path]),
                    **fields,
                )
            )
        return out

    # --- commits ---------------------------------------------------------------------------------
    def manifest(self, entries: list[dict], *, content: int = 0, spec_id: int | None = None) -> WrittenManifest:
        """A manifest of the given entries (`entry(...)` dicts), named after the next snapshot."""
        self._manifests += 1
        spec = self.tree.specs[-1]["spec-id"] if spec_id is None else spec_id
        kind = "data" if content == 0 else "deletes"
        return self.tree.write_manifest(
            f"m{self.snapshot_id + 1}-{self._manifests}-{kind}.avro", entries, spec_id=spec, content=content
        )

    def added(self, files: list[dict], *, spec_id: int | None = None) -> WrittenManifest:
        """A manifest of ADDED entries (data files, or delete files when the first one is)."""
        return self.manifest(
            [entry(ADDED, f) for f in files], content=0 if files[0]["content"] == 0 else 1, spec_id=spec_id
        )

    def removed(self, files: list[tuple[dict, int]], *, spec_id: int | None = None) -> WrittenManifest:
        """A manifest of DELETED entries: (data_file, its data sequence number), removed by the next snapshot."""
        sid = self.snapshot_id + 1
        gone = [entry(DELETED, f, sid, seq, seq) for f, seq in files]
        return self.manifest(gone, content=0 if files[0][0]["content"] == 0 else 1, spec_id=spec_id)

    def commit(self, operation: str, new: list[WrittenManifest], carried: list[dict] | None = None) -> int:
        """A snapshot of the new manifests and the carried manifest-list rows (default: all of the
        current snapshot's). Returns the snapshot id (1, 2, ...)."""
        self.snapshot_id += 1
        self.current = self.tree.commit(self.snapshot_id, operation, new, self.current if carried is None else carried)
        return self.snapshot_id

    def without(self, *manifests: WrittenManifest) -> list[dict]:
        """The current manifest-list rows except those of the given manifests."""
        paths = {m.path for m in manifests}
        return [r for r in self.current if r["manifest_path"] not in paths]
