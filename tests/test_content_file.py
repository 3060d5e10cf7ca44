"""`spec_impl.datafiles.content_file`: a file against its data_file fields (rules
content-file.column-sizes, content-file.utf8-strings, content-file.avro-optional-union, content-file.uuid-fixed,
delete-file.equality-columns, delete-file.schema,
delete-file.metrics), over the vectors of the content-files family and over the files Iceberg Java
wrote."""

from __future__ import annotations

import pytest

from spec_impl.datafiles.table_files import validate_data_files
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.vectors import tables
from spec_impl.vectors.families import data_file_fields
from spec_impl.ops.file_ops import FILE_OPS


BROKEN = {
    "parquet-wrong-size",
    "avro-with-sizes",
    "id-missing",
    "position-upper-below",
    "position-count-short",
    "equality-lower-above",
    "position-without-pos",
    "position-int-pos",
    "equality-wrong-type",
    "equality-unknown-column",
    "utf8-invalid",
    "avro-optional-bare",
    "avro-element-bare",
    "avro-uuid-plain-fixed",
    "orc-uuid-plain-binary",
}


@pytest.mark.parametrize("spec", list(data_file_fields.specs()), ids=lambda s: s.slug)
def test_the_family_cases(spec):
    """Each broken file has a finding (delete-file.schema for a delete file's columns), each other none."""
    assert bool(FILE_OPS["check-content-file"](spec.input, "v3-adopted")) == (spec.slug in BROKEN)


@pytest.mark.parametrize("case_id", ["spark-v2-position-one-spec-equality-both", "spark-v2-avro-data-files"])
def test_iceberg_java_files_agree_with_their_entries(case_id):
    """Spark's Parquet data files' column sizes are exact, its Avro files have none, its equality
    delete files hold their columns and its delete files' metrics cover their rows."""
    files, location, _ = tables.table_files(case_id)
    assert validate_data_files(InMemoryFiles(files), location) == ([], [])


def test_relocation_updates_the_column_sizes_of_the_delete_files_it_rewrites():
    """A relocated Parquet position delete file is written again: its entry gets the new file's
    column chunk sizes (Manifests, column_sizes)."""
    from spec_impl.datafiles.content_file import parquet_column_sizes
    from spec_impl.manifests.avro_files import avro_map
    from spec_impl.manifests.tree import read_snapshot
    from spec_impl.ops.relocate import relocate

    files, location, _ = tables.table_files("spark-v2-position-one-spec-equality-both")
    old = tables.captured_document("spark-v2-position-one-spec-equality-both")["location"]
    moved = relocate(files, old, "file:/elsewhere/t")
    moved_location = "file:/elsewhere/t" + location[len(old) :]
    checked = 0
    for m in read_snapshot(InMemoryFiles(moved), moved_location).manifests:
        for e in m.entries:
            df = e["data_file"]
            if df["content"] == 1 and str(df["file_format"]).lower() == "parquet" and df.get("column_sizes"):
                assert avro_map(df["column_sizes"]) == parquet_column_sizes(moved[df["file_path"]])
                checked += 1
    assert checked
