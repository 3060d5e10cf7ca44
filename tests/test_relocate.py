"""Relocating a table (spec_impl.ops.relocate): every path inside its files moved, nothing else.

Checked on every golden table: the reference-written ones (whose relocation must read exactly like
the same table written at the new place) and the ones Iceberg Java wrote (captured by the writer
harness), which must still validate and read the expected rows of their case.
"""

from __future__ import annotations

import io
import json

import pyarrow.parquet as pq
import pytest

from spec_impl.deletes.puffin import read_puffin
from spec_impl.manifests.avro_files import read_avro
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.scan.reader import read_table
from spec_impl.vectors import tables
from spec_impl.ops.relocate import FILE_PATH_FIELD_ID, RelocationError, relocate

OLD, NEW = "file:/a/old-place", "file:/somewhere/else/t"


@pytest.mark.parametrize("case_id", [c.id for c in tables.CASES])
def test_a_relocated_reference_table_reads_like_one_written_there(case_id):
    case, here = tables.build(case_id, OLD)
    _, there = tables.build(case_id, NEW)
    moved = relocate(here.files, OLD, NEW)
    assert sorted(moved) == sorted(there.files)
    for s in there.tree.snapshots:
        want = read_table(
            InMemoryFiles(there.files),
            there.tree.metadata_location,
            s["snapshot-id"],
            with_lineage=case.format_version >= 3,
        )
        got = read_table(
            InMemoryFiles(moved), there.tree.metadata_location, s["snapshot-id"], with_lineage=case.format_version >= 3
        )
        assert tables.table_rows(got) == tables.table_rows(want)
    assert not [p for p, data in moved.items() if OLD.encode() in data]


@pytest.mark.parametrize("case_id", tables.captured_ids())
def test_a_relocated_captured_table_validates_and_reads_its_expected_rows(case_id):
    files, metadata_location, format_version = tables.table_files(case_id)
    document = tables.captured_document(case_id)
    moved = relocate(files, document["location"], NEW)
    location = NEW + metadata_location[len(document["location"]) :]
    assert not [p for p, data in moved.items() if document["location"].encode() in data]
    assert {v.rule for v in validate_table(InMemoryFiles(moved), location)} <= {
        "tree.manifest-schema-id"
    }  # Iceberg Java's known omission
    for s in document["snapshots"]:
        got = tables.table_rows(
            read_table(InMemoryFiles(moved), location, s["snapshot-id"], with_lineage=format_version >= 3)
        )
        assert got == {"columns": s["columns"], "rows": s["rows"]}


def test_position_delete_paths_bounds_and_sizes_follow_the_move():
    _, t = tables.build("position-deletes", OLD)
    moved = relocate(t.files, OLD, NEW)
    deletes = [
        p
        for p, data in moved.items()
        if p.endswith(".parquet") and "file_path" in pq.read_schema(io.BytesIO(data)).names
    ]
    assert deletes
    for p in deletes:
        assert all(x.startswith(NEW + "/") for x in pq.read_table(io.BytesIO(moved[p])).column("file_path").to_pylist())
    for p, data in moved.items():
        if p.endswith(".avro") and "data_file" in json.dumps(read_avro(data).schema):
            for entry in read_avro(data).records:
                f = entry["data_file"]
                assert f["file_size_in_bytes"] == len(moved[f["file_path"]])
                for b in (f.get("lower_bounds") or []) + (f.get("upper_bounds") or []):
                    if b["key"] == FILE_PATH_FIELD_ID:
                        assert b["value"].startswith(NEW.encode())


def test_puffin_blobs_keep_their_offsets_and_the_footer_moves():
    _, t = tables.build("dvs-in-one-puffin", OLD)
    moved = relocate(t.files, OLD, NEW)
    (path,) = [p for p in t.files if p.endswith(".puffin")]
    before, after = read_puffin(t.files[path]), read_puffin(moved[path.replace(OLD, NEW)])
    assert [(b.offset, b.length) for b in before.blobs] == [(b.offset, b.length) for b in after.blobs]
    assert [before.payload(b) for b in before.blobs] == [after.payload(b) for b in after.blobs]
    assert all(b.properties["referenced-data-file"].startswith(NEW + "/") for b in after.blobs)


def test_both_spellings_of_a_file_location_move_and_a_stray_file_is_refused():
    _, t = tables.build("position-deletes", OLD)
    files = {(p.replace("file:/", "file:///", 1) if p.endswith(".parquet") else p): d for p, d in t.files.items()}
    assert all(p.startswith(NEW + "/") for p in relocate(files, OLD, NEW))
    with pytest.raises(RelocationError, match="not under the table location"):
        relocate({**t.files, "file:/elsewhere/x.parquet": b""}, OLD, NEW)
