"""Table metadata: reading each format version with its defaults, and the rules that reject a document.

The documents in tests/fixtures/metadata/ were written by hand from Appendix C; the normalized
readings asserted here are the Appendix E defaults spelled out.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.metadata.table_metadata import normalized, parse_table_metadata, read_metadata_file
from spec_impl.revisions import SEED_2024

FIXTURES = Path(__file__).parent / "fixtures" / "metadata"


def _doc(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def test_v1_old_style_gets_the_appendix_e_defaults():
    """table.v1-defaults: sequence number 0, schema 0, spec 0 with ids from 1000, the unsorted order, main."""
    md = normalized(parse_table_metadata(_doc("v1-old-style.json")))
    assert md["last-sequence-number"] == 0 and md["current-schema-id"] == 0
    assert [f["field-id"] for f in md["partition-specs"][0]["fields"]] == list(
        range(1000, 1000 + len(md["partition-specs"][0]["fields"]))
    )
    assert md["sort-orders"] == [{"order-id": 0, "fields": []}] and md["default-sort-order-id"] == 0
    assert all(s["sequence-number"] == 0 for s in md["snapshots"])
    if md["current-snapshot-id"] is not None:
        assert md["refs"]["main"]["snapshot-id"] == md["current-snapshot-id"]


def test_minus_one_means_no_current_snapshot():
    md = normalized(parse_table_metadata(_doc("v1-empty-table.json")))
    assert md["current-snapshot-id"] is None and "main" not in md["refs"] and md["last-partition-id"] == 999


@pytest.mark.parametrize("name", ["v2-branch-tag.json", "v3-row-lineage.json"])
def test_complete_documents_read_back_their_values(name):
    doc = _doc(name)
    md = normalized(parse_table_metadata(doc))
    for key in (
        "format-version",
        "table-uuid",
        "location",
        "last-sequence-number",
        "last-column-id",
        "current-snapshot-id",
        "default-spec-id",
        "last-partition-id",
        "default-sort-order-id",
    ):
        assert md[key] == doc[key], key
    assert set(md["refs"]) == set(doc["refs"])
    assert (md["next-row-id"] is not None) == (doc["format-version"] >= 3)


def test_deprecated_fields_are_ignored_when_the_new_ones_exist():
    """table.deprecated-ignored"""
    doc = _doc("v2-branch-tag.json")
    doc["schema"] = {"type": "struct", "fields": []}
    doc["partition-spec"] = []
    assert normalized(parse_table_metadata(doc)) == normalized(parse_table_metadata(_doc("v2-branch-tag.json")))


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("invalid-format-version-4.json", None),  # Iceberg Java 1.10 reads v4; the reference supports up to v3
        ("invalid-v2-missing-last-sequence-number.json", "table.required-field"),
        ("invalid-current-snapshot-not-main.json", "ref.current-snapshot"),
        ("invalid-ref-unknown-snapshot.json", "ref.unknown-snapshot"),
    ],
)
def test_invalid_documents(name, rule):
    with pytest.raises(InvalidInput) as e:
        parse_table_metadata(_doc(name))
    assert e.value.rule == (rule or "table.format-version")


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"format-version": 99}, "table.format-version"),
        ({"table-uuid": "x"}, "table.table-uuid"),
        ({"current-schema-id": 42}, "table.current-schema"),
        ({"default-spec-id": 42}, "table.default-spec"),
        ({"default-sort-order-id": 42}, "table.default-sort-order"),
        ({"last-column-id": 0}, "table.last-column-id"),
        ({"last-partition-id": 0}, "table.last-partition-id"),
        ({"properties": {"a": 1}}, "table.field-type"),
        ({"metadata-log": [{"timestamp-ms": 1}]}, "table.logs"),
        ({"statistics": [{"snapshot-id": 1}]}, "table.statistics"),
    ],
)
def test_rules_name_the_violation(change, rule):
    doc = _doc("v2-branch-tag.json")
    doc.update(change)
    with pytest.raises(InvalidInput) as e:
        parse_table_metadata(doc)
    assert e.value.rule == rule


def test_duplicate_ids_and_v3_rules():
    """table.unique-ids; table.encryption-keys (adopted v3)."""
    doc = _doc("v2-branch-tag.json")
    doc["schemas"].append(copy.deepcopy(doc["schemas"][0]))
    with pytest.raises(InvalidInput, match="table.unique-ids"):
        parse_table_metadata(doc)
    v3 = _doc("v3-row-lineage.json")
    v3["encryption-keys"] = [{"key-id": 7}]
    with pytest.raises(InvalidInput, match="table.encryption-keys"):
        parse_table_metadata(v3)


def test_gzip_metadata_files():
    """table.gzip: the adopted spec allows gzip-compressed metadata files; the seed text does not."""
    raw = (FIXTURES / "v2-branch-tag.json").read_bytes()
    assert normalized(read_metadata_file(gzip.compress(raw))) == normalized(read_metadata_file(raw))
    with pytest.raises(InvalidInput, match="table.gzip"):
        read_metadata_file(gzip.compress(raw), revision=SEED_2024)


@pytest.mark.parametrize("name", ["v1-empty-table.json", "v2-branch-tag.json", "v3-row-lineage.json"])
def test_written_metadata_reads_back_the_same(name):
    """table.writer: what a writer of the table's version writes reads back to the same normalized values."""
    from spec_impl.metadata.table_metadata import write_table_metadata

    md = parse_table_metadata(_doc(name))
    written = write_table_metadata(md)
    assert normalized(parse_table_metadata(written)) == normalized(md)
    if md.format_version >= 2:
        assert "schema" not in written and "partition-spec" not in written
    else:
        assert "last-sequence-number" not in written and "schema" in written


def test_writer_upgrades_but_never_downgrades():
    from spec_impl.metadata.table_metadata import write_table_metadata

    md = parse_table_metadata(_doc("v2-branch-tag.json"))
    assert write_table_metadata(md, 3)["next-row-id"] == 0
    with pytest.raises(InvalidInput, match="table.writer"):
        write_table_metadata(md, 1)
