"""Snapshots, refs and the snapshot log ("Snapshots", "Snapshot Reference", Appendix C, Appendix E;
adopted §1.4 row lineage, §1.7 key-id)."""

from __future__ import annotations

import json

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.metadata.snapshots import (
    Snapshot,
    SnapshotLogEntry,
    SnapshotRef,
    ancestors,
    current_snapshot_id_to_json,
    parse_current_snapshot_id,
    parse_ref,
    parse_snapshot,
    parse_snapshot_log,
    refs_to_json,
    resolve_refs,
    validate_snapshots,
)
from spec_impl.revisions import SEED_2024
from spec_impl.rules import RULES

# Appendix C, with the comma the spec's example is missing after "manifest-list".
APPENDIX_C_SNAPSHOT = {
    "snapshot-id": 3051729675574597004,
    "timestamp-ms": 1515100955770,
    "summary": {"operation": "append"},
    "manifest-list": "s3://b/wh/.../s1.avro",
    "schema-id": 0,
}
APPENDIX_C_REFS = {"test": {"snapshot-id": 123456789000, "type": "tag", "max-ref-age-ms": 10000000}}

V2 = {
    "snapshot-id": 2,
    "parent-snapshot-id": 1,
    "sequence-number": 5,
    "timestamp-ms": 20,
    "summary": {"operation": "overwrite"},
    "manifest-list": "s3://m/2.avro",
}
V3 = dict(V2, **{"first-row-id": 100, "added-rows": 30, "key-id": "k1"})


def _err(rule, fn, *args, **kwargs):
    with pytest.raises(InvalidInput) as e:
        fn(*args, **kwargs)
    assert e.value.rule == rule and rule in RULES
    return e.value


def test_appendix_c_snapshot_example_is_not_json_as_printed():
    """Finding: the Appendix C example has no comma between manifest-list and schema-id."""
    printed = (
        '{"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770, "summary": {"operation": '
        '"append"}, "manifest-list": "s3://b/wh/.../s1.avro"\n"schema-id": 0}'
    )
    with pytest.raises(json.JSONDecodeError):
        json.loads(printed)


def test_appendix_c_snapshot_in_v1():
    """snapshot.sequence-number: v1 reads default 0 and writes none."""
    s = parse_snapshot(APPENDIX_C_SNAPSHOT, 1)
    assert s.sequence_number == 0 and s.operation == "append" and s.schema_id == 0 and s.parent_snapshot_id is None
    assert s.to_json(1) == APPENDIX_C_SNAPSHOT
    kept = parse_snapshot(dict(APPENDIX_C_SNAPSHOT, **{"sequence-number": 7}), 1)
    assert kept.sequence_number == 7 and "sequence-number" not in kept.to_json(1)


def test_sequence_number_is_written_in_v2_and_read_as_0_when_absent():
    """snapshot.sequence-number: v2+ writers write it; a reader takes an absent one as 0, because an
    upgraded table keeps its v1 snapshots (Appendix E; Iceberg Java writes them without one)."""
    for version in (2, 3):
        assert parse_snapshot(APPENDIX_C_SNAPSHOT, version).sequence_number == 0
    _err("snapshot.sequence-number", parse_snapshot, dict(V2, **{"sequence-number": -1}), 2)
    s = parse_snapshot(dict(APPENDIX_C_SNAPSHOT, **{"sequence-number": 1}), 2)
    assert s.to_json(2)["sequence-number"] == 1
    v1 = parse_snapshot(APPENDIX_C_SNAPSHOT, 1)
    assert v1.to_json(2)["sequence-number"] == 0  # an upgraded v1 snapshot keeps 0


def test_v2_round_trip_and_key_order():
    s = parse_snapshot(V2, 2)
    assert s == Snapshot(2, 20, 5, 1, "s3://m/2.avro", None, (("operation", "overwrite"),))
    out = s.to_json(2)
    assert out == V2 and list(out)[:4] == ["snapshot-id", "parent-snapshot-id", "sequence-number", "timestamp-ms"]


def test_snapshot_json_shape():
    """snapshot.json"""
    _err("snapshot.json", parse_snapshot, [], 2)
    _err("snapshot.json", parse_snapshot, {k: v for k, v in V2.items() if k != "snapshot-id"}, 2)
    _err("snapshot.json", parse_snapshot, {k: v for k, v in V2.items() if k != "timestamp-ms"}, 2)
    _err("snapshot.json", parse_snapshot, dict(V2, **{"snapshot-id": "2"}), 2)
    _err("snapshot.json", parse_snapshot, dict(V2, **{"snapshot-id": 2**63}), 2)
    _err("snapshot.json", parse_snapshot, dict(V2, **{"schema-id": "0"}), 2)
    _err("snapshot.json", parse_snapshot, dict(V2, **{"parent-snapshot-id": True}), 2)
    assert parse_snapshot(dict(V2, **{"parent-snapshot-id": None}), 2).parent_snapshot_id is None


def test_manifest_list_rules():
    """snapshot.manifest-list: required in v2+; v1 accepts the manifests list instead."""
    no_list = {k: v for k, v in V2.items() if k != "manifest-list"}
    _err("snapshot.manifest-list", parse_snapshot, no_list, 2)
    _err(
        "snapshot.manifest-list",
        parse_snapshot,
        {k: v for k, v in APPENDIX_C_SNAPSHOT.items() if k != "manifest-list"},
        1,
    )
    _err("snapshot.manifest-list", parse_snapshot, dict(V2, **{"manifest-list": 3}), 2)
    v1 = {"snapshot-id": 1, "timestamp-ms": 5, "manifests": ["s3://m/a.avro", "s3://m/b.avro"]}
    s = parse_snapshot(v1, 1)
    assert s.manifests == ("s3://m/a.avro", "s3://m/b.avro") and s.manifest_list is None and s.summary is None
    assert s.to_json(1) == v1
    _err("snapshot.manifest-list", s.to_json, 2)


def test_manifests_rules():
    """snapshot.manifests: omitted if manifest-list is present; never in v2+; a list of strings."""
    _err("snapshot.manifests", parse_snapshot, dict(APPENDIX_C_SNAPSHOT, manifests=["a"]), 1)
    _err("snapshot.manifests", parse_snapshot, dict(V2, manifests=["a"]), 2)  # v2 requires manifest-list, so never both
    _err("snapshot.manifests", parse_snapshot, {"snapshot-id": 1, "timestamp-ms": 5, "manifests": "a"}, 1)


def test_summary_rules():
    """snapshot.summary: a string map including operation, required in v2+, optional in v1."""
    _err("snapshot.summary", parse_snapshot, {k: v for k, v in V2.items() if k != "summary"}, 2)
    _err("snapshot.summary", parse_snapshot, dict(V2, summary={"added-data-files": "1"}), 2)
    _err("snapshot.summary", parse_snapshot, dict(V2, summary={"operation": "append", "added-records": 3}), 2)
    s = parse_snapshot(dict(V2, summary={"operation": "append", "added-records": "3"}), 2)
    assert s.summary == (("operation", "append"), ("added-records", "3"))
    assert parse_snapshot({k: v for k, v in APPENDIX_C_SNAPSHOT.items() if k != "summary"}, 1).operation is None


@pytest.mark.parametrize("operation", ["append", "replace", "overwrite", "delete"])
def test_operations(operation):
    """snapshot.operation"""
    assert parse_snapshot(dict(V2, summary={"operation": operation}), 2).operation == operation


@pytest.mark.parametrize("operation", ["Append", "merge", "", "rewrite"])
def test_unknown_operations(operation):
    """snapshot.operation"""
    _err("snapshot.operation", parse_snapshot, dict(V2, summary={"operation": operation}), 2)


def test_v3_row_lineage_fields():
    """snapshot.row-lineage and snapshot.key-id (adopted revision only)."""
    s = parse_snapshot(V3, 3)
    assert (s.first_row_id, s.added_rows, s.key_id) == (100, 30, "k1")
    assert s.to_json(3) == V3
    assert "first-row-id" not in s.to_json(2) and "key-id" not in s.to_json(2)
    pre_upgrade = parse_snapshot(V2, 3)  # "older snapshots keep a null first-row-id"
    assert pre_upgrade.first_row_id is None and pre_upgrade.to_json(3) == V2
    _err("snapshot.row-lineage", parse_snapshot, dict(V2, **{"first-row-id": 100}), 3)
    _err("snapshot.row-lineage", parse_snapshot, dict(V2, **{"added-rows": 3}), 3)
    _err("snapshot.row-lineage", parse_snapshot, dict(V3, **{"added-rows": -1}), 3)
    _err(
        "snapshot.row-lineage",
        Snapshot(2, 20, 5, first_row_id=1, manifest_list="m", summary=(("operation", "append"),)).to_json,
        3,
    )
    _err("snapshot.key-id", parse_snapshot, dict(V3, **{"key-id": 7}), 3)
    seed = parse_snapshot(V3, 3, SEED_2024)  # the 2024 text has no row lineage: fields ignored
    assert seed.first_row_id is None and seed.key_id is None and seed.to_json(3, SEED_2024) == V2
    assert parse_snapshot(dict(V2, **{"first-row-id": 1}), 2).first_row_id is None  # not a v2 field


def test_refs_appendix_c_example():
    ref = parse_ref(APPENDIX_C_REFS["test"])
    assert ref == SnapshotRef(123456789000, "tag", max_ref_age_ms=10000000) and not ref.is_branch
    assert refs_to_json({"test": ref}) == APPENDIX_C_REFS


def test_ref_json_and_type():
    """ref.json and ref.type"""
    _err("ref.json", parse_ref, {"type": "branch"})
    _err("ref.json", parse_ref, {"snapshot-id": 1})
    _err("ref.json", parse_ref, {"snapshot-id": 1, "type": "branch", "max-ref-age-ms": "10"})
    _err("ref.json", parse_ref, "main")
    _err("ref.type", parse_ref, {"snapshot-id": 1, "type": "head"})
    assert parse_ref({"snapshot-id": 1, "type": "BRANCH"}).type == "branch"  # Java reads types case-insensitively


def test_branch_only_retention():
    """ref.branch-only-retention: min-snapshots-to-keep and max-snapshot-age-ms are for branches."""
    branch = {
        "snapshot-id": 1,
        "type": "branch",
        "min-snapshots-to-keep": 3,
        "max-snapshot-age-ms": 1000,
        "max-ref-age-ms": 5000,
    }
    assert parse_ref(branch).to_json() == branch
    for key in ("min-snapshots-to-keep", "max-snapshot-age-ms"):
        _err("ref.branch-only-retention", parse_ref, {"snapshot-id": 1, "type": "tag", key: 3})


@pytest.mark.parametrize("key", ["min-snapshots-to-keep", "max-snapshot-age-ms", "max-ref-age-ms"])
@pytest.mark.parametrize("value", [0, -5])
def test_retention_values_positive(key, value):
    """ref.positive"""
    _err("ref.positive", parse_ref, {"snapshot-id": 1, "type": "branch", key: value})


def test_current_snapshot_id_none_forms():
    """ref.current-snapshot: absent, null and -1 all mean no current snapshot; written -1 / null."""
    assert parse_current_snapshot_id(None) is None and parse_current_snapshot_id(-1) is None
    assert parse_current_snapshot_id(5) == 5
    _err("ref.current-snapshot", parse_current_snapshot_id, "5")
    _err("ref.current-snapshot", parse_current_snapshot_id, True)
    assert [current_snapshot_id_to_json(None, v) for v in (1, 2, 3)] == [-1, -1, None]
    assert current_snapshot_id_to_json(7, 3) == 7


def test_main_branch_implied_when_refs_null():
    """ref.main-branch: "There is always a main branch reference ... even if the refs map is null"."""
    for version in (1, 2, 3):
        assert resolve_refs(None, 5, version) == {"main": SnapshotRef(5, "branch")}
    assert resolve_refs(None, -1, 1) == {} and resolve_refs(None, None, 3) == {}
    refs = resolve_refs(APPENDIX_C_REFS, 5, 2)  # a map without main: main is still implied
    assert refs["main"] == SnapshotRef(5, "branch") and refs["test"].type == "tag"
    assert resolve_refs({"main": {"snapshot-id": 5, "type": "branch"}}, 5, 2) == {"main": SnapshotRef(5, "branch")}


def test_main_must_be_a_branch():
    """ref.main-branch"""
    _err("ref.main-branch", resolve_refs, {"main": {"snapshot-id": 5, "type": "tag"}}, 5, 2)
    _err("ref.json", resolve_refs, [], 5, 2)


def test_current_snapshot_must_equal_main():
    """ref.current-snapshot"""
    main = {"main": {"snapshot-id": 5, "type": "branch"}}
    _err("ref.current-snapshot", resolve_refs, main, 6, 2)
    _err("ref.current-snapshot", resolve_refs, main, -1, 2)
    _err("ref.current-snapshot", resolve_refs, main, None, 3)


def _chain(*ids, seq=True):
    """Linear history: each snapshot's parent is the previous one."""
    out, parent = [], None
    for n, i in enumerate(ids, 1):
        out.append(Snapshot(i, 1000 * n, n if seq else 0, parent, f"s3://m/{i}.avro", None, (("operation", "append"),)))
        parent = i
    return out


def test_ancestors():
    snaps = {s.snapshot_id: s for s in _chain(1, 2, 3)}
    assert [s.snapshot_id for s in ancestors(3, snaps)] == [3, 2, 1]
    del snaps[1]  # expired: the walk ends at 2
    assert [s.snapshot_id for s in ancestors(3, snaps)] == [3, 2]
    assert ancestors(99, snaps) == ()


def test_validate_accepts_expired_parent():
    """snapshot.parent: a parent that is no longer in the list has expired."""
    snaps = _chain(1, 2, 3)[1:]
    by_id = validate_snapshots(snaps, {"main": SnapshotRef(3, "branch")}, 3, 2)
    assert set(by_id) == {2, 3}


def test_parent_cycle():
    """snapshot.parent"""
    a = Snapshot(1, 1, 1, 2, "m", None, (("operation", "append"),))
    b = Snapshot(2, 2, 2, 1, "m", None, (("operation", "append"),))
    _err("snapshot.parent", validate_snapshots, [a, b], {}, 2, 2)
    _err("snapshot.parent", ancestors, 1, {1: a, 2: b})


def test_unique_ids():
    """snapshot.unique-id"""
    s = _chain(1)[0]
    _err("snapshot.unique-id", validate_snapshots, [s, s], {}, 1, 2)


def test_sequence_numbers():
    """snapshot.last-sequence-number and snapshot.sequence-order (v2+ only)."""
    snaps = _chain(1, 2, 3)
    validate_snapshots(snaps, {}, 3, 2)
    _err("snapshot.last-sequence-number", validate_snapshots, snaps, {}, 2, 2)
    validate_snapshots(snaps, {}, None, 1)  # v1 has no last-sequence-number
    swapped = [snaps[0], Snapshot(2, 2000, 9, 1, "m", None, (("operation", "append"),)), snaps[2]]
    _err("snapshot.sequence-order", validate_snapshots, swapped, {}, 9, 2)
    validate_snapshots(swapped, {}, None, 1)
    upgraded = _chain(1, 2, seq=False) + [Snapshot(3, 3000, 1, 2, "m", None, (("operation", "append"),))]
    validate_snapshots(upgraded, {}, 1, 2)  # snapshots from v1 all have sequence number 0


def test_refs_must_point_to_known_snapshots():
    """ref.unknown-snapshot"""
    snaps = _chain(1, 2)
    e = _err(
        "ref.unknown-snapshot",
        validate_snapshots,
        snaps,
        {"main": SnapshotRef(2, "branch"), "t": SnapshotRef(7, "tag")},
        2,
        2,
    )
    assert e.value == 7 and "'t'" in str(e)


def test_snapshot_log_parse_and_order():
    """snapshot-log.json and snapshot-log.order (one minute of clock skew tolerated)."""
    log = parse_snapshot_log([{"timestamp-ms": 1000, "snapshot-id": 1}, {"timestamp-ms": 2000, "snapshot-id": 2}])
    assert log == (SnapshotLogEntry(1000, 1), SnapshotLogEntry(2000, 2)) and log[0].to_json() == {
        "timestamp-ms": 1000,
        "snapshot-id": 1,
    }
    assert parse_snapshot_log(None) == ()
    _err("snapshot-log.json", parse_snapshot_log, {"timestamp-ms": 1})
    _err("snapshot-log.json", parse_snapshot_log, [{"timestamp-ms": 1}])
    snaps = _chain(1, 2)
    validate_snapshots(snaps, {}, 2, 2, snapshot_log=[SnapshotLogEntry(70_000, 1), SnapshotLogEntry(10_000, 2)])
    _err(
        "snapshot-log.order",
        validate_snapshots,
        snaps,
        {},
        2,
        2,
        snapshot_log=[SnapshotLogEntry(70_001, 1), SnapshotLogEntry(1, 2)],
    )


def test_snapshot_log_expired_entries():
    """snapshot-log.unknown-snapshot: expired entries only before every retained one."""
    snaps = _chain(1, 2, 3)[1:]
    ok = [SnapshotLogEntry(1, 0), SnapshotLogEntry(1000, 1), SnapshotLogEntry(2000, 2), SnapshotLogEntry(3000, 3)]
    validate_snapshots(snaps, {}, 3, 2, snapshot_log=ok)
    gap = [SnapshotLogEntry(2000, 2), SnapshotLogEntry(2500, 1), SnapshotLogEntry(3000, 3)]
    e = _err("snapshot-log.unknown-snapshot", validate_snapshots, snaps, {}, 3, 2, snapshot_log=gap)
    assert e.value == 1


def _lineage(sid, first, added, parent=None):
    return Snapshot(
        sid, sid * 10, sid, parent, "m", None, (("operation", "append"),), first_row_id=first, added_rows=added
    )


def test_next_row_id():
    """snapshot.next-row-id: first-row-id + added-rows <= next-row-id (v3, adopted)."""
    snaps = [_lineage(1, 0, 10), _lineage(2, 10, 5, 1)]
    validate_snapshots(snaps, {}, 2, 3, next_row_id=15)
    e = _err("snapshot.next-row-id", validate_snapshots, snaps, {}, 2, 3, next_row_id=14)
    assert e.value == 15
    validate_snapshots(snaps, {}, 2, 3, next_row_id=14, revision=SEED_2024)
    validate_snapshots(snaps, {}, 2, 2, next_row_id=14)
    validate_snapshots([_chain(1)[0], _lineage(2, 0, 5, 1)], {}, 2, 3, next_row_id=5)  # pre-upgrade snapshot


def test_row_ranges_do_not_overlap():
    """snapshot.row-range: each commit takes ids from next-row-id, so ranges are disjoint."""
    _err(
        "snapshot.row-range", validate_snapshots, [_lineage(1, 0, 10), _lineage(2, 5, 10, 1)], {}, 2, 3, next_row_id=20
    )
    validate_snapshots([_lineage(1, 0, 10), _lineage(2, 10, 0, 1), _lineage(3, 10, 4, 2)], {}, 3, 3, next_row_id=14)
    validate_snapshots([_lineage(1, 0, 10), _lineage(2, 5, 0, 1)], {}, 2, 3, next_row_id=10)  # no ids assigned


def test_format_version_argument():
    with pytest.raises(ValueError):
        parse_snapshot(V2, 4)
