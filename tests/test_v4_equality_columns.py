"""v4 equality delete files opened by the validator (rule v4.equality-delete.columns): the fields
equality_ids lists must be columns of the delete file, as deletes.equality-columns checks for v2/v3."""

from __future__ import annotations

from spec_impl.v4.validate import validate_snapshot
from spec_impl.vectors.families._v4_entry_cases import _equality_file_table


def _rules(ids: tuple[int, ...], layout: str = "root") -> list[str]:
    t = _equality_file_table(ids, layout)
    return sorted({v.rule for v in validate_snapshot(t.read, t.commits[-1].root, t.commits[-2].root)})


def test_v4_equality_delete_columns_present():
    assert _rules((1,)) == [] and _rules((1, 2), "manifest") == []


def test_v4_equality_delete_columns_missing_from_the_file():
    assert _rules((3,)) == ["v4.equality-delete.columns"]
    assert _rules((1, 3), "manifest") == ["v4.equality-delete.columns"]


def test_a_delete_file_not_in_the_inputs_is_not_opened():
    t = _equality_file_table((3,))
    del t.files["s3://b/t/data/eq1.parquet"]
    assert validate_snapshot(t.read, t.commits[-1].root, t.commits[-2].root) == []
