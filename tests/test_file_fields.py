"""The data_file field checks of `spec_impl.manifests.file_fields` (rules tree.split-offsets,
tree.sort-order-id, tree.position-delete-sort-order and tree.equality-delete-columns), and the
validator's CLI listing the should-rule apart from the violations."""

from __future__ import annotations

import pytest

from spec_impl.validate import cli
from spec_impl.manifests.file_fields import data_file_findings, unsorted_split_offsets
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.manifests.writer import data_file
from spec_impl.metadata.table_metadata import read_metadata_file
from spec_impl.vectors.families import _manifest_tree_fields as tree_fields
from spec_impl.vectors.families import manifest_trees as trees
from spec_impl.ops.relocate import relocate


@pytest.mark.parametrize(
    "offsets, sorted_",
    [(None, True), ([], True), ([4], True), ([4, 4, 9], True), ([4, 9, 8], False), ([9, 4], False)],
)
def test_split_offsets_must_ascend(offsets, sorted_):
    """tree.split-offsets: equal neighbours are ascending (not strictly), one step down is not."""
    assert (unsorted_split_offsets(offsets) is None) == sorted_


def _rules(df: dict) -> list[str]:
    w = tree_fields.double_column_deletes(trees)
    md = read_metadata_file(w.files[w.metadata_location])
    return [rule for rule, _ in data_file_findings(df, md)]


def test_sort_order_ids_and_equality_columns_against_the_table():
    """tree.sort-order-id for data and equality delete files, tree.position-delete-sort-order for
    position deletes (not looked up: readers ignore it), tree.equality-delete-columns for the
    double column 3."""
    path = "file:/warehouse/double-column/data/x.parquet"
    assert _rules(data_file(path, 1, sort_order_id=0)) == []
    assert _rules(data_file(path, 1, sort_order_id=5)) == ["tree.sort-order-id"]
    assert _rules(data_file(path, 1, content=2, equality_ids=[1], sort_order_id=5)) == ["tree.sort-order-id"]
    assert _rules(data_file(path, 1, content=1, sort_order_id=5)) == ["tree.position-delete-sort-order"]
    assert _rules(data_file(path, 1, content=2, equality_ids=[3, 1])) == ["tree.equality-delete-columns"]
    assert _rules(data_file(path, 1, split_offsets=[8, 4])) == ["tree.split-offsets"]


def test_the_cli_lists_a_position_delete_sort_order_apart(tmp_path, capsys):
    """A should (tree.position-delete-sort-order) is printed as a recommendation; the exit status
    stays clean and --json prints no violation."""
    w = trees.row_delta()
    trees._edit_manifest(w, "d1.avro", trees._data_file(0, sort_order_id=0))
    assert [v.rule for v in validate_table(InMemoryFiles(w.files), w.metadata_location)] == [
        "tree.position-delete-sort-order"
    ]
    root = "file:/warehouse/row-delta"
    for path, data in relocate(w.files, root, f"file:{tmp_path}").items():
        local = tmp_path / path.removeprefix(f"file:{tmp_path}/")
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
    metadata = str(tmp_path / w.metadata_location.removeprefix(root + "/"))
    assert cli.main([metadata, "--no-data-files"]) == 0
    out = capsys.readouterr().out
    assert "1 recommendation(s)" in out and "[tree.position-delete-sort-order]" in out


def test_v4_entries_use_the_same_split_offsets_check():
    """v4.entry.split-offsets: a v4 content entry's split_offsets are checked by
    `unsorted_split_offsets` as well."""
    from spec_impl.vectors.families import v4_root_manifests as v4
    from spec_impl.ops.file_ops import FILE_OPS

    [build] = [b for rule, slug, _, b in v4.INVALID if slug == "split-offsets-descending"]
    assert FILE_OPS["v4-validate"](build().inputs(), "v3-adopted") == ["v4.entry.split-offsets"]
