"""Writing metadata trees as a correct writer of each format version would: manifests, manifest
lists with their counts and sequence numbers, snapshots and metadata files.

Spec: "Manifests" (key-value metadata, entry fields per version), "Manifest Lists" (counts,
sequence_number, min_sequence_number), "Snapshots", "Sequence Numbers", Appendix E, adopted v3
digest §1.4 (first_row_id assignment, snapshot first-row-id and added-rows, next-row-id).

`TreeWriter` is the deterministic generator behind the tree vectors: a table with one schema and
its partition specs, to which commits add snapshots. A commit takes the manifests it writes
(entries with the values a writer stores: null sequence numbers for ADDED entries that inherit
them) and the manifest-list rows it carries over. Every file goes into `files`, keyed by its path.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spec_impl.manifests import inheritance
from spec_impl.manifests.avro_files import read_avro, to_avro_map, write_avro
from spec_impl.manifests.avro_schemas import manifest_list_schema, manifest_schema
from spec_impl.manifests.inheritance import ADDED, DATA, DELETED, EXISTING
from spec_impl.types import DecimalType, parse_primitive

_AVRO_PRIMITIVE = {
    "boolean": "boolean",
    "int": "int",
    "long": "long",
    "float": "float",
    "double": "double",
    "date": "int",
    "string": "string",
    "binary": "bytes",
}


def _avro_primitive(type_text: str) -> Any:
    """The Avro type of a primitive partition value (Appendix A): decimal(P,S) is a fixed of the
    fewest bytes that hold every unscaled value of precision P."""
    t = parse_primitive(type_text)
    if isinstance(t, DecimalType):
        size = next(n for n in range(1, 17) if 2 ** (8 * n - 1) > 10**t.precision - 1)
        return {
            "type": "fixed",
            "name": f"decimal_{t.precision}_{t.scale}",
            "size": size,
            "logicalType": "decimal",
            "precision": t.precision,
            "scale": t.scale,
        }
    return _AVRO_PRIMITIVE[type_text]


def data_file(
    path: str,
    record_count: int,
    *,
    content: int = DATA,
    partition: dict | None = None,
    file_format: str = "PARQUET",
    size: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A data_file struct with the required fields; `extra` adds optional ones (bounds as dicts)."""
    f = {
        "content": content,
        "file_path": path,
        "file_format": file_format,
        "partition": partition or {},
        "record_count": record_count,
        "file_size_in_bytes": size if size is not None else 1000 + record_count,
    }
    f.update(extra)
    return f


def entry(
    status: int,
    f: dict[str, Any],
    snapshot_id: int | None = None,
    sequence_number: int | None = None,
    file_sequence_number: int | None = None,
) -> dict[str, Any]:
    return {
        "status": status,
        "snapshot_id": snapshot_id,
        "sequence_number": sequence_number,
        "file_sequence_number": file_sequence_number,
        "data_file": f,
    }


@dataclass
class WrittenManifest:
    """A manifest file written but not yet in a manifest list."""

    path: str
    length: int
    spec_id: int
    content: int
    entries: list[dict[str, Any]]
    format_version: int


@dataclass
class TreeWriter:
    location: str
    format_version: int
    schema: dict  # the table schema as JSON (Appendix C), with "schema-id"
    specs: list[dict] = field(default_factory=lambda: [{"spec-id": 0, "fields": []}])
    files: dict[str, bytes] = field(default_factory=dict)
    snapshots: list[dict] = field(default_factory=list)
    last_sequence_number: int = 0
    next_row_id: int = 0
    current_snapshot_id: int | None = None
    metadata_location: str | None = None
    timestamp_ms: int = 1_700_000_000_000
    write_distinct_counts: bool = False  # optional in v1 and v2, deprecated; Iceberg Java never writes it
    past_schemas: list[dict] = field(default_factory=list)  # schemas before the current one
    properties: dict[str, str] = field(default_factory=dict)

    def path(self, name: str) -> str:
        return f"{self.location}/metadata/{name}"

    def upgrade(self, format_version: int) -> None:
        """Appendix E: the table is upgraded; files written from now on are of the new version."""
        assert format_version > self.format_version
        self.format_version = format_version

    def evolve_schema(self, schema: dict) -> None:
        """Schema Evolution: `schema` (with a new schema-id) becomes the current schema."""
        assert schema["schema-id"] not in {s.get("schema-id", 0) for s in [*self.past_schemas, self.schema]}
        self.past_schemas.append(self.schema)
        self.schema = schema

    def add_spec(self, spec: dict) -> None:
        """Partition evolution: `spec` (with a new spec-id) becomes the default spec."""
        self.specs.append(spec)

    # --- manifests ---------------------------------------------------------------------------
    def _partition_fields(self, spec_id: int) -> list[dict]:
        spec = next(s for s in self.specs if s["spec-id"] == spec_id)
        fields = []
        for pf in spec["fields"]:
            source = next(
                f for s in [self.schema, *self.past_schemas] for f in s["fields"] if f["id"] == pf["source-id"]
            )
            result = (
                "int"
                if pf["transform"].startswith(("bucket", "year", "month", "day", "hour"))
                else _avro_primitive(source["type"])
            )
            fields.append({"name": pf["name"], "type": ["null", result], "default": None, "field-id": pf["field-id"]})
        return fields

    def write_manifest(
        self,
        name: str,
        entries: list[dict[str, Any]],
        *,
        spec_id: int = 0,
        content: int = DATA,
        format_version: int | None = None,
    ) -> WrittenManifest:
        """Write a manifest of the table's (or the given) format version (Manifests: key-value metadata)."""
        fv = format_version or self.format_version
        schema = manifest_schema(fv, self._partition_fields(spec_id))
        if not self.write_distinct_counts:
            data_file_record = next(f for f in schema["fields"] if f["name"] == "data_file")["type"]
            data_file_record["fields"] = [f for f in data_file_record["fields"] if f["name"] != "distinct_counts"]
        records = [self._entry_record(e, fv) for e in entries]
        spec = next(s for s in self.specs if s["spec-id"] == spec_id)
        meta = {
            "schema": json.dumps(self.schema),
            "partition-spec": json.dumps(spec["fields"]),
            "partition-spec-id": str(spec_id),
        }
        if fv >= 2:
            meta.update(
                {
                    "schema-id": str(self.schema.get("schema-id", 0)),
                    "format-version": str(fv),
                    "content": "data" if content == DATA else "deletes",
                }
            )
        data = write_avro(schema, records, meta)
        path = self.path(name)
        self.files[path] = data
        return WrittenManifest(path, len(data), spec_id, content, entries, fv)

    @staticmethod
    def _entry_record(e: dict[str, Any], fv: int) -> dict[str, Any]:
        f = dict(e["data_file"])
        for key in (
            "lower_bounds",
            "upper_bounds",
            "value_counts",
            "null_value_counts",
            "column_sizes",
            "nan_value_counts",
            "distinct_counts",
        ):
            if isinstance(f.get(key), dict):
                f[key] = to_avro_map(f[key])
        if fv == 1:
            f.pop("content", None)
            f.setdefault("block_size_in_bytes", 67108864)  # "Always write a default in v1"
            return {"status": e["status"], "snapshot_id": e["snapshot_id"], "data_file": f}
        return dict(e, data_file=f)

    # --- commits -----------------------------------------------------------------------------
    def manifest_row(self, m: WrittenManifest, snapshot_id: int, sequence_number: int) -> dict[str, Any]:
        """The manifest-list row of a manifest added by this commit: counts and min_sequence_number
        over its entries, with ADDED entries inheriting `sequence_number`."""
        row = {
            "manifest_path": m.path,
            "manifest_length": m.length,
            "partition_spec_id": m.spec_id,
            "content": m.content,
            "sequence_number": sequence_number,
            "min_sequence_number": 0,
            "added_snapshot_id": snapshot_id,
        }
        for status, name in ((ADDED, "added"), (EXISTING, "existing"), (DELETED, "deleted")):
            matching = [e for e in m.entries if e["status"] == status]
            row[f"{name}_files_count"] = len(matching)
            row[f"{name}_rows_count"] = sum(e["data_file"]["record_count"] for e in matching)
        inherited = inheritance.inherit_entries(row, m.entries, m.format_version)
        row["min_sequence_number"] = inheritance.min_sequence_number(inherited) if m.format_version >= 2 else 0
        if row["min_sequence_number"] is None:
            row["min_sequence_number"] = sequence_number
        return row

    def commit(
        self,
        snapshot_id: int,
        operation: str,
        new: list[WrittenManifest],
        carried: list[dict[str, Any]] = (),
        *,
        parent: int | None = ...,
        list_name: str | None = None,
        sequence_number: int | None = None,
    ) -> list[dict[str, Any]]:
        """Add a snapshot whose manifest list holds the carried rows and rows for the new manifests;
        write the list and a new metadata file. Returns the snapshot's manifest-list rows."""
        seq = self.last_sequence_number + 1 if sequence_number is None else sequence_number
        if self.format_version == 1:
            seq = 0  # v1 has no sequence numbers; its manifests are carried into later lists with 0
        rows = [self.manifest_row(m, snapshot_id, seq) for m in new] + [dict(r) for r in carried]
        snapshot: dict[str, Any] = {
            "snapshot-id": snapshot_id,
            "timestamp-ms": self.timestamp_ms + 1000 * len(self.snapshots),
            "summary": {"operation": operation},
            "schema-id": self.schema.get("schema-id", 0),
        }
        parent_id = self.current_snapshot_id if parent is ... else parent
        if parent_id is not None:
            snapshot["parent-snapshot-id"] = parent_id
        if self.format_version >= 2:
            snapshot["sequence-number"] = seq
            self.last_sequence_number = seq
        if self.format_version >= 3:
            rows, next_id = inheritance.assign_manifest_first_row_ids(rows, self.next_row_id)
            snapshot.update({"first-row-id": self.next_row_id, "added-rows": next_id - self.next_row_id})
            self.next_row_id = next_id
        list_path = self.path(list_name or f"snap-{snapshot_id}.avro")
        schema = manifest_list_schema(self.format_version)
        written = [{k: r.get(k) for k in (f["name"] for f in schema["fields"])} for r in rows]
        meta = {"snapshot-id": str(snapshot_id), "format-version": str(self.format_version)}
        if parent_id is not None:
            meta["parent-snapshot-id"] = str(parent_id)
        if self.format_version >= 2:
            meta["sequence-number"] = str(seq)
        if self.format_version >= 3:
            meta["first-row-id"] = str(snapshot["first-row-id"])
        self.files[list_path] = write_avro(schema, written, meta)
        snapshot["manifest-list"] = list_path
        self.snapshots.append(snapshot)
        self.current_snapshot_id = snapshot_id
        self.write_metadata()
        return rows

    def write_metadata(self) -> str:
        """Write vN.metadata.json for the table as it stands (Table Metadata Fields, per version)."""
        fv = self.format_version
        doc: dict[str, Any] = {
            "format-version": fv,
            "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
            "location": self.location,
        }
        if fv >= 2:
            doc["last-sequence-number"] = self.last_sequence_number
        doc["last-updated-ms"] = self.timestamp_ms + 1000 * len(self.snapshots)
        doc["last-column-id"] = max(f["id"] for s in [*self.past_schemas, self.schema] for f in s["fields"])
        if fv == 1:
            doc["schema"] = self.schema
            doc["partition-spec"] = self.specs[-1]["fields"]
        doc.update(
            {
                "schemas": [*self.past_schemas, self.schema],
                "current-schema-id": self.schema.get("schema-id", 0),
                "partition-specs": self.specs,
                "default-spec-id": self.specs[-1]["spec-id"],
                "last-partition-id": max((f["field-id"] for s in self.specs for f in s["fields"]), default=999),
                "sort-orders": [{"order-id": 0, "fields": []}],
                "default-sort-order-id": 0,
                "properties": dict(self.properties),
                "current-snapshot-id": self.current_snapshot_id if self.current_snapshot_id is not None else -1,
                "snapshots": self.snapshots,
                "snapshot-log": [
                    {"snapshot-id": s["snapshot-id"], "timestamp-ms": s["timestamp-ms"]} for s in self.snapshots
                ],
                "metadata-log": [],
            }
        )
        if self.current_snapshot_id is not None and fv >= 2:  # the field table: v1 has no `refs`
            doc["refs"] = {"main": {"snapshot-id": self.current_snapshot_id, "type": "branch"}}
        if fv >= 3:
            doc["next-row-id"] = self.next_row_id
        version = sum(1 for p in self.files if p.endswith(".metadata.json")) + 1
        self.metadata_location = self.path(f"v{version}.metadata.json")
        self.files[self.metadata_location] = json.dumps(doc, separators=(",", ":")).encode()
        return self.metadata_location


# --- editing written trees (corrupting them on purpose, in vectors and tests) ---------------------------


def edit_avro(files: dict[str, bytes], path: str, change: Callable[[list[dict], dict], None]) -> None:
    """Rewrite one Avro file of a tree with its records and key-value metadata changed in place."""
    f = read_avro(files[path], path)
    records, meta = [dict(r) for r in f.records], dict(f.metadata)
    change(records, meta)
    files[path] = write_avro(f.schema, records, meta)


def fix_manifest_lengths(files: dict[str, bytes], manifest_lists: list[str], manifest_path: str) -> None:
    """After a manifest was rewritten, give it its new length in every manifest list that names it."""
    length = len(files[manifest_path])
    for list_path in manifest_lists:
        edit_avro(
            files,
            list_path,
            lambda rows, _: [r.update(manifest_length=length) for r in rows if r["manifest_path"] == manifest_path],
        )
