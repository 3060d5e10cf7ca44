"""The metadata columns of "Reserved Field IDs" as the reference reader returns them on request
(spec_impl.scan.metadata_columns), over the golden tables."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.ops.golden_tables import PLACEHOLDER, read_rows as read_expected

TABLE = f"{PLACEHOLDER}/position-deletes/data"


def _rows(table_id: str, snapshot_id: int, *columns: str) -> list[dict]:
    out = read_expected(table_id, snapshot_id, metadata_columns=columns)
    assert out["columns"][-len(columns) :] == list(columns)
    return sorted(out["rows"], key=lambda r: r["id"])


def test_file_and_pos_name_each_row_s_file_and_position_before_deletes():
    """metadata-column.file and metadata-column.pos: a.parquet lost positions 0 and 4, b.parquet 1 and 2."""
    rows = _rows("position-deletes", 3, "_file", "_pos")
    assert [(r["id"], r["_file"], r["_pos"]) for r in rows] == [
        (2, f"{TABLE}/a.parquet", 1),
        (3, f"{TABLE}/a.parquet", 2),
        (4, f"{TABLE}/a.parquet", 3),
        (6, f"{TABLE}/b.parquet", 0),
    ]


def test_spec_id_and_unified_partition_follow_each_file_s_spec():
    """metadata-column.spec-id and metadata-column.partition-unified: the unpartitioned file's
    partition is the unified type with its category null."""
    rows = _rows("partition-evolution", 3, "_spec_id", "_partition")
    assert [(r["id"], r["_spec_id"], r["_partition"]) for r in rows] == [
        (2, 0, {"category": None}),
        (3, 1, {"category": "x"}),
    ]


def test_partition_of_a_table_with_one_partitioned_spec_is_its_tuple():
    """metadata-column.partition: decimal partition values decoded from their Avro bytes."""
    rows = read_expected(
        "spark-decimal-partition-named-type",
        _current("spark-decimal-partition-named-type"),
        metadata_columns=("_partition",),
    )["rows"]
    assert {tuple(sorted(r["_partition"])) for r in rows} == {("d", "d_trunc")}
    assert {r["_partition"]["d"] for r in rows} >= {"1.25"}


def test_an_unpartitioned_table_reads_an_empty_partition_struct_and_no_row_is_deleted():
    """metadata-column.partition-unified (the reference's reading) and metadata-column.deleted."""
    rows = _rows("position-deletes", 3, "_partition", "_deleted")
    assert {(str(r["_partition"]), r["_deleted"]) for r in rows} == {("{}", False)}


def test_unknown_or_repeated_metadata_columns_are_refused():
    with pytest.raises(InvalidInput):
        read_expected("position-deletes", 3, metadata_columns=("_change_type",))
    with pytest.raises(InvalidInput):
        read_expected("position-deletes", 3, metadata_columns=("_file", "_file"))


def test_asking_for_metadata_columns_leaves_the_plain_read_unchanged():
    plain = read_expected("upgrade-v1-v2-v3", 3)
    asked = read_expected("upgrade-v1-v2-v3", 3, metadata_columns=("_pos",))
    assert "_row_id" in plain["columns"] and "_row_id" not in asked["columns"]

    def data(rows: list[dict]) -> list[str]:
        return sorted(str({k: v for k, v in r.items() if not k.startswith("_")}) for r in rows)

    assert data(plain["rows"]) == data(asked["rows"])


def _current(table_id: str) -> int:
    from spec_impl.manifests.tree import InMemoryFiles
    from spec_impl.metadata.table_metadata import read_metadata_file
    from spec_impl.vectors.tables import table_files

    files, location, _ = table_files(table_id)
    return read_metadata_file(InMemoryFiles(files).read(location)).current_snapshot_id
