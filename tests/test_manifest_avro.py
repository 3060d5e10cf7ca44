"""The Avro schemas of manifests and manifest lists (rule manifest.avro-schema), checked against the
spec's tables and by writing and reading files with fastavro."""

from __future__ import annotations

import io

import fastavro
import pytest

from spec_impl.manifests.avro_schemas import manifest_list_schema, manifest_schema


def _fields(schema: dict) -> dict:
    return {f["name"]: f for f in schema["fields"]}


def _required(field: dict) -> bool:
    return not (isinstance(field["type"], list) and "null" in field["type"])


def test_manifest_list_fields_per_version():
    v1, v2, v3 = (_fields(manifest_list_schema(v)) for v in (1, 2, 3))
    assert "sequence_number" not in v1 and "content" not in v1 and not _required(v1["added_files_count"])
    assert (
        _required(v2["sequence_number"]) and _required(v2["min_sequence_number"]) and _required(v2["added_rows_count"])
    )
    assert "first_row_id" not in v2 and v3["first_row_id"]["field-id"] == 520 and not _required(v3["first_row_id"])
    assert {f["field-id"] for f in v2.values()} == {
        500,
        501,
        502,
        517,
        515,
        516,
        503,
        504,
        505,
        506,
        512,
        513,
        514,
        507,
        519,
    }


def test_manifest_entry_and_data_file_per_version():
    v1, v2, v3 = (_fields(manifest_schema(v)) for v in (1, 2, 3))
    assert _required(v1["snapshot_id"]) and not _required(v2["snapshot_id"]) and "sequence_number" not in v1
    files = [_fields(s["data_file"]["type"]) for s in (v1, v2, v3)]
    assert _required(files[0]["block_size_in_bytes"]) and "block_size_in_bytes" not in files[1]
    assert "content" not in files[0] and _required(files[1]["content"])
    assert "distinct_counts" in files[1] and "distinct_counts" not in files[2]
    assert {
        files[2][n]["field-id"]
        for n in ("first_row_id", "referenced_data_file", "content_offset", "content_size_in_bytes")
    } == {142, 143, 144, 145}
    assert files[1]["lower_bounds"]["type"][1]["logicalType"] == "map"


@pytest.mark.parametrize("version", [1, 2, 3])
def test_round_trip_with_fastavro(version):
    partition = [{"name": "id_bucket", "type": ["null", "int"], "default": None, "field-id": 1000}]
    schema = fastavro.parse_schema(manifest_schema(version, partition))
    data_file = {
        "file_path": "s3://b/t/a.parquet",
        "file_format": "PARQUET",
        "partition": {"id_bucket": 3},
        "record_count": 10,
        "file_size_in_bytes": 1024,
        "lower_bounds": [{"key": 1, "value": b"\x01\x00\x00\x00"}],
    }
    if version == 1:
        data_file["block_size_in_bytes"] = 67108864
    else:
        data_file["content"] = 0
    entry = {"status": 1, "snapshot_id": 8, "data_file": data_file}
    buf = io.BytesIO()
    fastavro.writer(buf, schema, [entry], metadata={"format-version": str(version)})
    buf.seek(0)
    [read] = list(fastavro.reader(buf))
    assert (
        read["data_file"]["partition"] == {"id_bucket": 3}
        and read["data_file"]["lower_bounds"][0]["value"] == b"\x01\x00\x00\x00"
    )
    list_schema = fastavro.parse_schema(manifest_list_schema(version))
    row = {"manifest_path": "m.avro", "manifest_length": 1, "partition_spec_id": 0, "added_snapshot_id": 8}
    if version >= 2:
        row.update(
            {
                "content": 0,
                "sequence_number": 1,
                "min_sequence_number": 1,
                "added_files_count": 1,
                "existing_files_count": 0,
                "deleted_files_count": 0,
                "added_rows_count": 10,
                "existing_rows_count": 0,
                "deleted_rows_count": 0,
            }
        )
    buf = io.BytesIO()
    fastavro.writer(buf, list_schema, [row])
    buf.seek(0)
    assert next(fastavro.reader(buf))["manifest_path"] == "m.avro"
