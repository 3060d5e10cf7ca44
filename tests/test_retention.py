"""Snapshot expiration ("Snapshot Retention Policy"): hand-built scenarios for each step, and
hypothesis properties of the procedure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec_impl.errors import InvalidInput
from spec_impl.metadata.retention import (
    JAVA_MAX_SNAPSHOT_AGE_MS,
    ExpirationResult,
    RetentionPolicy,
    expire_snapshots,
    prune_snapshot_log,
    table_policy,
)
from spec_impl.metadata.snapshots import Snapshot, SnapshotLogEntry, SnapshotRef

DAY = 24 * 60 * 60 * 1000
APPEND = (("operation", "append"),)


def snap(sid, ts, parent=None):
    return Snapshot(sid, ts, sid, parent, f"s3://m/{sid}.avro", None, APPEND)


def chain(ids_and_times, parent=None):
    """Snapshots each the child of the one before; `parent` is the first one's parent."""
    out = []
    for sid, ts in ids_and_times:
        out.append(snap(sid, ts, parent))
        parent = sid
    return out


def branch(sid, **kw):
    return SnapshotRef(sid, "branch", **kw)


def tag(sid, **kw):
    return SnapshotRef(sid, "tag", **kw)


NOW = 100 * DAY
# main: 1 <- 2 <- 3 <- 4 <- 5, one snapshot a day ending yesterday-ish
MAIN = chain([(1, NOW - 10 * DAY), (2, NOW - 8 * DAY), (3, NOW - 6 * DAY), (4, NOW - 3 * DAY), (5, NOW - DAY)])


def test_java_defaults_when_no_properties():
    """retention.branch-ancestors: defaults 5 days and 1 snapshot (Java's, not the spec's)."""
    assert table_policy(None) == RetentionPolicy(432000000, 1, None) and JAVA_MAX_SNAPSHOT_AGE_MS == 432000000
    r = expire_snapshots(MAIN, {"main": branch(5)}, {}, NOW)
    assert r == ExpirationResult(frozenset({4, 5}), frozenset({1, 2, 3}), frozenset())


def test_age_boundary_is_strict():
    """retention.branch-ancestors: "older than" means now - timestamp > age."""
    props = {"history.expire.max-snapshot-age-ms": str(6 * DAY)}
    assert expire_snapshots(MAIN, {"main": branch(5)}, props, NOW).kept == {3, 4, 5}
    assert expire_snapshots(MAIN, {"main": branch(5)}, props, NOW + 1).kept == {4, 5}


def test_min_snapshots_to_keep_overrides_age():
    """retention.branch-ancestors: the first min-snapshots-to-keep (counting the head) are kept however old."""
    props = {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "3"}
    assert expire_snapshots(MAIN, {"main": branch(5)}, props, NOW).kept == {3, 4, 5}


def test_young_snapshots_beyond_min_are_kept():
    """retention.branch-ancestors: both conditions must hold to stop the walk."""
    props = {"history.expire.max-snapshot-age-ms": str(9 * DAY), "history.expire.min-snapshots-to-keep": "1"}
    assert expire_snapshots(MAIN, {"main": branch(5)}, props, NOW).kept == {2, 3, 4, 5}


def test_walk_stops_at_the_first_expired_ancestor():
    """retention.branch-ancestors: "until" -- a younger snapshot behind an old one is not reached."""
    odd = chain([(1, NOW - DAY), (2, NOW - 30 * DAY), (3, NOW - DAY)])
    assert expire_snapshots(odd, {"main": branch(3)}, {}, NOW).kept == {3}


def test_head_is_kept_even_when_old():
    """retention.ref-snapshots: step 3 keeps each branch head, whatever its age."""
    r = expire_snapshots(MAIN, {"main": branch(2)}, {"history.expire.max-snapshot-age-ms": "1"}, NOW)
    assert r.kept == {2} and r.expired == {1, 3, 4, 5}


def test_unreferenced_snapshots_expire():
    """retention.expire: step 5 expires every snapshot no ref retains, even a young one (Java keeps
    unreferenced snapshots younger than the table's max age; the spec's steps do not)."""
    staged = snap(9, NOW - 1, parent=5)
    r = expire_snapshots([*MAIN, staged], {"main": branch(5)}, {}, NOW)
    assert 9 in r.expired and r.kept == {4, 5}


def test_tag_keeps_only_its_snapshot():
    """retention.ref-snapshots: a tag retains its snapshot but not the snapshot's ancestors."""
    r = expire_snapshots(MAIN, {"main": branch(5), "v1.0": tag(2)}, {}, NOW)
    assert r.kept == {2, 4, 5} and r.expired == {1, 3}


def test_ref_aged_out_by_its_own_max_ref_age():
    """retention.ref-age: a tag whose snapshot is older than its max-ref-age-ms is removed, and its
    snapshot expires. The age is that of the tagged snapshot, not of the tag."""
    refs = {"main": branch(5), "old": tag(2, max_ref_age_ms=7 * DAY), "fresh": tag(3, max_ref_age_ms=7 * DAY)}
    r = expire_snapshots(MAIN, refs, {}, NOW)
    assert r.refs_removed == {"old"} and r.kept == {3, 4, 5} and 2 in r.expired


def test_ref_age_from_table_property_and_ref_override():
    """retention.ref-age: the ref's value wins over history.expire.max-ref-age-ms; no value = never."""
    refs = {"main": branch(5), "a": tag(1), "b": tag(2, max_ref_age_ms=30 * DAY), "c": branch(3)}
    assert expire_snapshots(MAIN, refs, {}, NOW).refs_removed == set()
    r = expire_snapshots(MAIN, refs, {"history.expire.max-ref-age-ms": str(5 * DAY)}, NOW)
    assert r.refs_removed == {"a", "c"} and r.kept == {2, 4, 5}


def test_main_never_expires():
    """retention.main-never-expires: not by its own max-ref-age-ms, not by the table property."""
    refs = {"main": branch(1, max_ref_age_ms=1)}
    r = expire_snapshots(MAIN[:1], refs, {"history.expire.max-ref-age-ms": "1"}, NOW)
    assert r.refs_removed == set() and r.kept == {1}


def test_branch_settings_override_table_properties():
    """retention.branch-ancestors: a branch's min-snapshots-to-keep / max-snapshot-age-ms win."""
    props = {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "1"}
    assert expire_snapshots(MAIN, {"main": branch(5, min_snapshots_to_keep=4)}, props, NOW).kept == {2, 3, 4, 5}
    assert expire_snapshots(MAIN, {"main": branch(5, max_snapshot_age_ms=7 * DAY)}, props, NOW).kept == {3, 4, 5}
    young = {"history.expire.max-snapshot-age-ms": str(50 * DAY)}
    assert expire_snapshots(MAIN, {"main": branch(5, max_snapshot_age_ms=2 * DAY)}, young, NOW).kept == {5}


def test_ancestors_shared_by_two_branches():
    """retention.branch-ancestors: each branch walks its own ancestry with its own settings; shared
    ancestors are retained if either walk reaches them."""
    dev = chain([(11, NOW - 9 * DAY), (12, NOW - 2 * DAY)], parent=3)  # 3 <- 11 <- 12
    snaps = MAIN + dev
    refs = {"main": branch(5), "dev": branch(12, min_snapshots_to_keep=4)}
    r = expire_snapshots(snaps, refs, {}, NOW)
    assert r.kept == {4, 5, 12, 11, 3, 2} and r.expired == {1}
    r = expire_snapshots(snaps, {"main": branch(5), "dev": branch(12)}, {}, NOW)
    assert r.kept == {4, 5, 12}


def test_removed_branch_no_longer_protects_its_ancestors():
    """retention.ref-age then retention.branch-ancestors: step 4 only walks branches that remain."""
    dev = chain([(11, NOW - 30 * DAY)], parent=1)
    refs = {"main": branch(5), "dev": branch(11, max_ref_age_ms=DAY, min_snapshots_to_keep=10)}
    r = expire_snapshots(MAIN + dev, refs, {}, NOW)
    assert r.refs_removed == {"dev"} and 11 in r.expired and 1 in r.expired


def test_expired_parent_ends_the_walk():
    r = expire_snapshots(MAIN[2:], {"main": branch(5, min_snapshots_to_keep=10)}, {}, NOW)
    assert r.kept == {3, 4, 5} and r.expired == set()


@pytest.mark.parametrize(
    "props",
    [
        {"history.expire.min-snapshots-to-keep": "0"},
        {"history.expire.max-snapshot-age-ms": "-5"},
        {"history.expire.max-ref-age-ms": "five days"},
    ],
)
def test_bad_properties(props):
    """retention.property"""
    with pytest.raises(InvalidInput) as e:
        expire_snapshots(MAIN, {"main": branch(5)}, props, NOW)
    assert e.value.rule == "retention.property"


def test_refs_to_unknown_snapshots_and_duplicate_ids():
    with pytest.raises(InvalidInput) as e:
        expire_snapshots(MAIN, {"main": branch(5), "t": tag(42)}, {}, NOW)
    assert e.value.rule == "ref.unknown-snapshot" and e.value.value == 42
    with pytest.raises(InvalidInput) as e:
        expire_snapshots(MAIN + MAIN[:1], {}, {}, NOW)
    assert e.value.rule == "snapshot.unique-id"


def test_prune_snapshot_log():
    """retention.snapshot-log: entries up to and including the last expired snapshot are removed."""
    log = [
        SnapshotLogEntry(1, 1),
        SnapshotLogEntry(2, 2),
        SnapshotLogEntry(3, 3),
        SnapshotLogEntry(4, 2),
        SnapshotLogEntry(5, 5),
    ]
    assert prune_snapshot_log(log, {2, 4, 5}) == (SnapshotLogEntry(4, 2), SnapshotLogEntry(5, 5))
    assert prune_snapshot_log(log, {1, 2, 3, 5}) == tuple(log)
    assert prune_snapshot_log(log, set()) == ()


# --- properties ---------------------------------------------------------------------------------

AGES = st.one_of(st.none(), st.integers(1, 40))


@st.composite
def tables(draw):
    """Snapshots with random parents (some expired), and refs with random retention settings."""
    n = draw(st.integers(1, 12))
    snaps = []
    for sid in range(1, n + 1):
        parent = draw(st.one_of(st.none(), st.integers(1, sid - 1) if sid > 1 else st.none(), st.just(1000 + sid)))
        snaps.append(snap(sid, draw(st.integers(0, 60)), parent))
    ids = st.integers(1, n)
    refs = {}
    if draw(st.booleans()):
        refs["main"] = branch(
            draw(ids),
            min_snapshots_to_keep=draw(st.none() | st.integers(1, 4)),
            max_snapshot_age_ms=draw(AGES),
            max_ref_age_ms=draw(AGES),
        )
    for k in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            refs[f"b{k}"] = branch(
                draw(ids),
                min_snapshots_to_keep=draw(st.none() | st.integers(1, 4)),
                max_snapshot_age_ms=draw(AGES),
                max_ref_age_ms=draw(AGES),
            )
        else:
            refs[f"t{k}"] = tag(draw(ids), max_ref_age_ms=draw(AGES))
    keys = {
        "history.expire.max-snapshot-age-ms": AGES,
        "history.expire.min-snapshots-to-keep": st.none() | st.integers(1, 4),
        "history.expire.max-ref-age-ms": AGES,
    }
    props = {k: str(v) for k, s in keys.items() if (v := draw(s)) is not None}
    return snaps, refs, props, draw(st.integers(0, 100))


@given(tables())
def test_kept_and_expired_partition_the_snapshots(table):
    """retention.expire"""
    snaps, refs, props, now = table
    r = expire_snapshots(snaps, refs, props, now)
    assert r.kept | r.expired == {s.snapshot_id for s in snaps} and not r.kept & r.expired
    assert "main" not in r.refs_removed and r.refs_removed <= set(refs)


@given(tables())
def test_every_remaining_ref_keeps_its_snapshot(table):
    """retention.ref-snapshots"""
    snaps, refs, props, now = table
    r = expire_snapshots(snaps, refs, props, now)
    assert all(ref.snapshot_id in r.kept for name, ref in refs.items() if name not in r.refs_removed)


@given(tables())
def test_expiring_twice_changes_nothing_more(table):
    """retention.expire: the procedure is idempotent at a fixed time."""
    snaps, refs, props, now = table
    first = expire_snapshots(snaps, refs, props, now)
    remaining_refs = {name: ref for name, ref in refs.items() if name not in first.refs_removed}
    second = expire_snapshots([s for s in snaps if s.snapshot_id in first.kept], remaining_refs, props, now)
    assert second == ExpirationResult(first.kept, frozenset(), frozenset())
