"""The history validator (spec_impl/validate/history.py): rules over each snapshot and its parent.

Every injected violation of the vectors (a golden table copied and one snapshot edited) is found
under its rule id, and only that one; every golden table of vectors/tables passes; a table with a
single snapshot passes trivially; the command line and the audit run the pass.
"""

from __future__ import annotations

import json

import pytest

from spec_impl.validate import history_metadata
from spec_impl.validate.history import CHECKS, validate_history
from spec_impl.manifests.tree import InMemoryFiles, LocalFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.rules import RULES
from spec_impl.vectors import tables
from spec_impl.vectors.families import history as family
from spec_impl.ops.file_ops import _tree_files

GOLDEN = sorted(set(tables.all_ids()) | set(tables.captured_ids()))
INJECTED = {
    "history.data-sequence-number",
    "history.file-sequence-number",
    "history.deleted-were-live",
    "history.append",
    "history.delete",
    "history.new-manifest-sequence-number",
    "history.v3-no-position-deletes",
    "history.dv-removed-with-data-file",
    "history.row-ids-kept",
    "history.added-entry-snapshot",
    "history.deleted-entry-snapshot",
    "history.new-entry-sequence-numbers",
    "history.new-file-row-id-null",
    "history.manifest-row-id-kept",
    "history.deleted-file-re-added",
    "history.metadata-log-entry",
    "history.replace-rows",
    "history.moved-row-lineage",
    "history.dv-file-size",
    "history.snapshot-log-entry",
    "history.snapshot-first-row-id",
    "history.next-sequence-number",
    "history.assigned-row-ids-in-range",
    "history.summary-delete-counts",
    "history.dv-merged",
    "history.position-file-kept",
}
# Golden tables written to break a writer rule on purpose (their description says so).
GOLDEN_FINDINGS = {"dv-and-position-file": ["history.dv-merged"]}


def _rules(t: family.Table) -> list[str]:
    return sorted({v.rule for v in validate_history(InMemoryFiles(t.files), t.metadata_location)})


def test_every_history_rule_is_registered_checked_and_injected():
    assert {rule_id for rule_id, _ in CHECKS + history_metadata.CHECKS} == INJECTED
    assert INJECTED <= set(RULES)
    assert {rule_id for rule_id, *_ in family.VIOLATIONS + family.BUILT} == INJECTED


@pytest.mark.parametrize("rule_id,slug,table_id,edit", family.VIOLATIONS, ids=[v[1] for v in family.VIOLATIONS])
def test_each_injected_violation_is_found_under_its_rule(rule_id, slug, table_id, edit):
    """The four of the acceptance (a changed data sequence number: existing-entry-data-sequence-number-
    changed; an append that removed a file: append-removed-a-file; a DV left live after its data file
    was removed: dv-live-after-its-data-file-was-removed; a v3 snapshot adding a position-delete file:
    v3-snapshot-added-a-position-delete-file) and one for every other rule. The edit adds no
    violation of the tree validator (an Iceberg Java tree keeps its tree.manifest-schema-id): only
    the history is wrong."""
    t = family.table_for(slug, table_id)
    assert _rules(t) == ([rule_id] if slug in family.UNEDITED else [])
    tree_before = {v.rule for v in validate_table(InMemoryFiles(t.files), t.metadata_location)}
    edit(t)
    assert _rules(t) == [rule_id]
    assert {v.rule for v in validate_table(InMemoryFiles(t.files), t.metadata_location)} == tree_before


@pytest.mark.parametrize("rule_id,slug,description,build", family.BUILT, ids=[b[1] for b in family.BUILT])
def test_each_built_table_has_its_verdict(rule_id, slug, description, build):
    """Tables the reference writes for a rule (rows rewritten with or without their lineage): the
    ones described as having no violation pass, the others break their rule only, and the tree is
    valid."""
    t = build()
    assert _rules(t) == ([] if "no violation" in description else [rule_id])
    assert validate_table(InMemoryFiles(t.files), t.metadata_location) == []


@pytest.mark.parametrize("table_id", GOLDEN)
def test_every_golden_table_passes(table_id):
    files, metadata_location, _ = tables.table_files(table_id)
    found = sorted({v.rule for v in validate_history(InMemoryFiles(files), metadata_location)})
    assert found == GOLDEN_FINDINGS.get(table_id, [])


COMPACTION = 4499134322677853775  # spark-v3-compaction-after-upgrade: the replace snapshot (Iceberg Java's rewrite)


def test_a_replace_that_deletes_a_file_never_live():
    """The compaction Iceberg Java wrote (a replace): its manifest that marks the compacted file
    DELETED also marks DELETED a data file the table never had. Not a vector: rewriting an Iceberg
    Java manifest with fastavro orders its schema's keys by the hash seed."""
    t = family.golden("spark-v3-compaction-after-upgrade")
    assert t.snapshot(COMPACTION)["summary"]["operation"] == "replace"

    def add_ghost(records: list[dict], _: dict) -> None:
        df = records[0]["data_file"]
        ghost = dict(df, file_path=df["file_path"].replace(".parquet", "-gone.parquet"))
        records.append(dict(records[0], data_file=ghost))

    family.edit_manifest(t, COMPACTION, "4bc8d0d7-d6a8-4e6e-93fb-7b4c56509898-m0.avro", add_ghost)
    assert _rules(t) == ["history.deleted-were-live"]


def test_a_single_snapshot_passes_trivially():
    t = family.golden("position-deletes")
    document = t.metadata
    document["snapshots"] = [s for s in document["snapshots"] if s["snapshot-id"] == 1]
    document["current-snapshot-id"] = 1
    document["refs"] = {"main": {"snapshot-id": 1, "type": "branch"}}
    document.pop("snapshot-log", None)
    t.set_metadata(document)
    assert validate_history(InMemoryFiles(t.files), t.metadata_location) == []


def test_a_snapshot_whose_parent_expired_is_not_compared():
    """Snapshot 3's parent removed from the table (expired): only the pair (1, 2) is left, and the
    violation injected into snapshot 3 is not a violation against an absent parent."""
    t = family.golden("position-deletes")
    family.rewrite_manifest(t, 3, "m2-2-data.avro", "m3-9-data.avro", lambda es: es[0].update(sequence_number=1))
    document = t.metadata
    document["snapshots"] = [s for s in document["snapshots"] if s["snapshot-id"] != 2]
    document.pop("snapshot-log", None)
    t.set_metadata(document)
    assert _rules(t) == []


def test_the_seed_revision_skips_the_adopted_v3_rules():
    """history.v3-no-position-deletes exists only in the adopted v3 revision."""
    t = family.golden("dv-replaced")
    family._v3_position_delete_file(t)
    assert _rules(t) == ["history.v3-no-position-deletes"]
    assert validate_history(InMemoryFiles(t.files), t.metadata_location, "2024-seed") == []


def test_an_unreadable_snapshot_is_left_to_the_tree_validator():
    t = family.golden("position-deletes")
    del t.files[t.snapshot(3)["manifest-list"]]
    assert _rules(t) == []
    assert "tree.file-exists" in {v.rule for v in validate_table(InMemoryFiles(t.files), t.metadata_location)}


def test_each_manifest_is_read_once(monkeypatch):
    """Linear in snapshots: a manifest shared by every snapshot of the table is read once."""
    from spec_impl.validate import history

    files, metadata_location, _ = tables.table_files("position-deletes")
    reads: list[str] = []
    real = history.read_manifest
    monkeypatch.setattr(
        history, "read_manifest", lambda f, row, fv: reads.append(row["manifest_path"]) or real(f, row, fv)
    )
    validate_history(InMemoryFiles(files), metadata_location)
    assert reads and len(reads) == len(set(reads))


def test_the_vector_cases_carry_the_edited_trees():
    for spec in family.specs():
        found = sorted({v.rule for v in validate_history(_tree_files(spec.input), spec.input["metadata-location"])})
        clean = spec.slug.startswith("golden-") or "no violation" in spec.description
        assert found == ([] if clean else [spec.rule])


def _relocated(tmp_path, table_id: str, edit=None) -> str:
    """The edited tree written under tmp_path, its paths relocated there (spec_impl.ops.relocate)."""
    from spec_impl.ops.relocate import relocate

    t = family.golden(table_id)
    if edit is not None:
        edit(t)
    location = json.loads(t.files[t.metadata_location])["location"]
    target = f"file:{tmp_path}"
    for path, data in relocate(t.files, location, target).items():
        local = tmp_path / path[len(target) + 1 :]
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
    return target + t.metadata_location[len(location) :]


def test_iceberg_validate_table_runs_the_history_pass(tmp_path, capsys):
    from spec_impl.validate.cli import main

    metadata = _relocated(tmp_path, "partition-evolution", family._append_removed_file)
    assert main([metadata, "--json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [v["rule"] for v in found] == ["history.append"]
    assert "snapshot 2 (parent 1)" in found[0]["message"]


def test_the_audit_adds_the_history_pass(tmp_path):
    from conformance.audit.job import AuditResult, add_history

    metadata = _relocated(tmp_path, "dv-replaced", family._dv_left_live)
    result = add_history(AuditResult(3), LocalFiles(), metadata)
    assert [v.rule for v in result.violations] == ["history.dv-removed-with-data-file"]
