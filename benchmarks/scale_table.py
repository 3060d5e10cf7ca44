"""A synthetic v2 table of N data files with deletes, valid against every rule, for the scale benchmark.

Spec: "Partitioning" (identity), "Position Delete Files", "Equality Delete Files", "Scan Planning"
(delete scoping by partition and sequence number), Appendix A (Parquet field ids).

    metadata = write_table(Path("/tmp/t"), 100_000)   # the path of the table's last metadata file

The table (schema `id long, p int`, partitioned by `identity(p)`) has `FILES_PER_PARTITION` data
files in each partition, each of `ROWS` rows (ids 0..ROWS-1). Every file of a partition holds the
same rows, so the bytes of one Parquet file per partition are written under every path of that
partition: the files are tiny and writing 100,000 of them takes seconds, not minutes. Three
snapshots, each with manifests of at most `entries_per_manifest` entries:

1. append: the data files, with their metrics (value and null counts, bounds of both columns);
2. delete: one position delete file for every `POSITION_EVERY`-th data file, naming that file only
   (its `file_path` bounds are equal, so planners can target it), deleting positions 0 and 5;
3. delete: one equality delete file per partition (`id = 3`), applying to every data file there.

PyIceberg 0.12 plans no equality deletes, so it plans snapshot 2 (`POSITION_SNAPSHOT`).
"""

from __future__ import annotations

import struct
from pathlib import Path

from spec_impl.manifests.inheritance import ADDED
from spec_impl.manifests.writer import TreeWriter, data_file, entry
from spec_impl.metadata.schema import Schema
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.scan.table_writer import POSITION_DELETE_SCHEMA
from spec_impl.types import NestedField, parse_type

FILES_PER_PARTITION = 100
ROWS = 10
POSITION_EVERY = 10  # one position delete file per this many data files
DELETED_POSITIONS = (0, 5)
EQUALITY_ID = 3  # the id every equality delete file deletes
POSITION_SNAPSHOT = 2  # the snapshot with data and position deletes only
FILE_PATH_ID = 2147483546

SCHEMA_JSON = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "p", "required": True, "type": "int"},
    ],
}
SPEC = {"spec-id": 0, "fields": [{"source-id": 2, "field-id": 1000, "name": "p", "transform": "identity"}]}
SCHEMA = Schema.of(
    NestedField(1, "id", parse_type("long"), True),
    NestedField(2, "p", parse_type("int"), True),
)
ID_ONLY = Schema.of(NestedField(1, "id", parse_type("long"), True))


def _long(v: int) -> bytes:
    return struct.pack("<q", v)


def _int(v: int) -> bytes:
    return struct.pack("<i", v)


class _Disk:
    """Writes files under the table's location, by their file: URI."""

    def write(self, uri: str, data: bytes) -> int:
        local = Path(uri.removeprefix("file:"))
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
        return len(data)


def _data_files(location: str, files: int, disk: _Disk) -> list[dict]:
    out = []
    for p in range((files + FILES_PER_PARTITION - 1) // FILES_PER_PARTITION):
        blob = write_parquet([{1: i, 2: p} for i in range(ROWS)], SCHEMA)
        for i in range(p * FILES_PER_PARTITION, min(files, (p + 1) * FILES_PER_PARTITION)):
            path = f"{location}/data/p={p}/{i:07d}.parquet"
            metrics = {
                "value_counts": {1: ROWS, 2: ROWS},
                "null_value_counts": {1: 0, 2: 0},
                "lower_bounds": {1: _long(0), 2: _int(p)},
                "upper_bounds": {1: _long(ROWS - 1), 2: _int(p)},
            }
            out.append(data_file(path, ROWS, partition={"p": p}, size=disk.write(path, blob), **metrics))
    return out


def _position_deletes(location: str, data: list[dict], disk: _Disk) -> list[dict]:
    out = []
    for i, f in enumerate(data[::POSITION_EVERY]):
        target, p = f["file_path"], f["partition"]["p"]
        rows = [{FILE_PATH_ID: target, 2147483545: pos} for pos in DELETED_POSITIONS]
        path = f"{location}/data/p={p}/pos-{i:07d}.parquet"
        size = disk.write(path, write_parquet(rows, POSITION_DELETE_SCHEMA))
        bounds = {"lower_bounds": {FILE_PATH_ID: target.encode()}, "upper_bounds": {FILE_PATH_ID: target.encode()}}
        out.append(data_file(path, len(rows), content=1, partition={"p": p}, size=size, **bounds))
    return out


def _equality_deletes(location: str, partitions: int, disk: _Disk) -> list[dict]:
    blob = write_parquet([{1: EQUALITY_ID}], ID_ONLY)
    out = []
    for p in range(partitions):
        path = f"{location}/data/p={p}/eq-{p:07d}.parquet"
        size = disk.write(path, blob)
        out.append(data_file(path, 1, content=2, partition={"p": p}, size=size, equality_ids=[1]))
    return out


def _manifests(tree: TreeWriter, name: str, files: list[dict], per_manifest: int, content: int) -> list:
    return [
        tree.write_manifest(
            f"{name}-{n}.avro", [entry(ADDED, f) for f in files[start : start + per_manifest]], content=content
        )
        for n, start in enumerate(range(0, len(files), per_manifest))
    ]


def write_table(directory: Path, files: int, entries_per_manifest: int = 1000) -> Path:
    """Write the table of `files` data files under `directory`/t; the path of its last metadata file."""
    location = f"file:{directory.resolve()}/t"
    disk = _Disk()
    tree = TreeWriter(location, 2, SCHEMA_JSON, specs=[SPEC])
    data = _data_files(location, files, disk)
    rows = tree.commit(1, "append", _manifests(tree, "data", data, entries_per_manifest, 0))
    positions = _position_deletes(location, data, disk)
    rows = tree.commit(2, "delete", _manifests(tree, "pos", positions, entries_per_manifest, 1), rows)
    partitions = len({f["partition"]["p"] for f in data})
    equality = _equality_deletes(location, partitions, disk)
    tree.commit(3, "delete", _manifests(tree, "eq", equality, entries_per_manifest, 1), rows)
    for uri, blob in tree.files.items():
        disk.write(uri, blob)
    return Path(tree.metadata_location.removeprefix("file:"))
