"""Table-level snapshot cases (Snapshot Reference, Table Metadata Fields): refs, current-snapshot-id,
parent chains, sequence numbers, row-id ranges and the snapshot log, on copies of the table-metadata
family's documents."""

from __future__ import annotations

from spec_impl import revisions

import copy
from typing import Any

from spec_impl.vectors.cases import case
from spec_impl.vectors.families.table_metadata import v1_legacy, v2, v3


S1, S2 = 3051729675574597004, 3055729675574597004
EXPIRED = 3050729675574597004  # a snapshot id that is no longer in the table
S0 = 3049729675574597004


def with_changes(base: dict | None = None, **changes: Any) -> dict:
    """A copy of v2() (or `base`) with top-level changes; a value None removes the key."""
    doc = copy.deepcopy(base if base is not None else v2())
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def _set_snapshot(doc: dict, index: int, **changes: Any) -> dict:
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc["snapshots"][index].pop(key, None)
        else:
            doc["snapshots"][index][key] = value
    return doc


def _read(rule_id: str, slug: str, description: str, document: dict, **kw):
    return case(rule_id, slug, description, "read-table-metadata", document=document, **kw)


MAIN = {"snapshot-id": S2, "type": "branch"}
TEST_TAG = {"snapshot-id": S1, "type": "tag", "max-ref-age-ms": 10000000}  # Appendix C's refs example, pointing at S1


def _refs(**refs: dict) -> dict:
    return {"main": copy.deepcopy(MAIN), **{k.replace("_", "-"): v for k, v in refs.items()}}


def specs():
    r = "ref.main-branch"
    yield _read(
        r,
        "refs-absent",
        "no refs map: the main branch pointing to current-snapshot-id is implied",
        with_changes(refs=None),
    )
    doc = with_changes()
    doc["refs"] = None
    yield _read(
        r, "refs-null", '"refs": null: "there is always a main branch reference ... even if the refs map is null"', doc
    )
    yield _read(
        r,
        "refs-without-main",
        'a refs map holding only Appendix C\'s tag "test": main is still implied, pointing to current-snapshot-id',
        with_changes(refs={"test": TEST_TAG}),
        note="Iceberg Java keeps such a map without main; the spec says there is always a main branch.",
    )
    yield _read(
        r,
        "no-current-snapshot",
        "current-snapshot-id -1 and no refs: no main branch is implied",
        with_changes(current_snapshot_id=-1, refs=None),
    )
    v1 = v1_legacy()
    v1.update(
        {
            "current-snapshot-id": S1,
            "snapshots": [{"snapshot-id": S1, "timestamp-ms": 1515100955770, "manifest-list": "s3://b/wh/.../s1.avro"}],
        }
    )
    yield _read(
        r, "v1-implied", "a v1 table with a snapshot and no refs (refs came with v2 writers): main is implied", v1
    )
    yield _read(
        r,
        "main-is-tag",
        "main must be a branch, not a tag",
        with_changes(refs={"main": {"snapshot-id": S2, "type": "tag"}}),
    )

    r = "ref.current-snapshot"
    yield _read(
        r,
        "differs-from-main",
        "current-snapshot-id names S1 but main points to S2",
        with_changes(current_snapshot_id=S1),
    )
    yield _read(
        r,
        "minus-one-with-main",
        "current-snapshot-id -1 (none) while main points to a snapshot",
        with_changes(current_snapshot_id=-1),
    )
    yield _read(
        r,
        "absent-with-main",
        "no current-snapshot-id while main points to a snapshot",
        with_changes(current_snapshot_id=None),
    )
    yield _read(
        r,
        "minus-one-means-none",
        "current-snapshot-id -1 (as older writers write it) means no current snapshot",
        with_changes(current_snapshot_id=-1, refs={"test": TEST_TAG}),
    )
    doc = with_changes(base=v3(), refs={"test": TEST_TAG})
    doc["current-snapshot-id"] = None
    yield _read(
        r,
        "null-means-none",
        "current-snapshot-id null (as v3 writers of Iceberg Java 1.10 write it) means no current snapshot",
        doc,
        revisions=revisions.ADOPTED,
    )
    yield _read(r, "string", "current-snapshot-id is a long, not a string", with_changes(current_snapshot_id=str(S2)))

    r = "ref.unknown-snapshot"
    yield _read(
        r,
        "tag",
        "a tag pointing to a snapshot not in snapshots",
        with_changes(refs=_refs(test={"snapshot-id": EXPIRED, "type": "tag"})),
    )
    yield _read(
        r,
        "branch",
        "a branch pointing to a snapshot not in snapshots",
        with_changes(refs=_refs(dev={"snapshot-id": EXPIRED, "type": "branch"})),
    )
    yield _read(
        r,
        "implied-main",
        "current-snapshot-id names an unknown snapshot and there are no refs: the implied main points nowhere",
        with_changes(current_snapshot_id=EXPIRED, refs=None),
    )

    r = "ref.json"
    yield _read(r, "refs-list", "refs is a map of name to reference, not a list", with_changes(refs=[MAIN]))
    yield _read(r, "ref-not-object", "a reference is an object, not a snapshot id", with_changes(refs={"main": S2}))
    yield _read(
        r, "missing-snapshot-id", "a reference needs snapshot-id", with_changes(refs=_refs(test={"type": "tag"}))
    )
    yield _read(r, "missing-type", "a reference needs type", with_changes(refs=_refs(test={"snapshot-id": S1})))
    yield _read(
        r,
        "max-ref-age-string",
        "max-ref-age-ms is a long, not a string",
        with_changes(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-ref-age-ms": "10000000"})),
    )
    yield _read(
        r,
        "min-to-keep-above-int",
        "min-snapshots-to-keep is an int: 2^31 does not fit",
        with_changes(refs=_refs(dev={"snapshot-id": S1, "type": "branch", "min-snapshots-to-keep": 2**31})),
    )

    r = "ref.type"
    yield _read(
        r,
        "unknown",
        'type "head" is neither branch nor tag',
        with_changes(refs=_refs(test={"snapshot-id": S1, "type": "head"})),
    )
    yield _read(
        r,
        "uppercase",
        'type "BRANCH" reads as branch',
        with_changes(refs=_refs(dev={"snapshot-id": S1, "type": "BRANCH"})),
        note='The spec says "tag or branch"; Iceberg Java reads the type case-insensitively, and so does the '
        "reference.",
    )

    r = "ref.branch-only-retention"
    yield _read(
        r,
        "tag-max-ref-age",
        'Appendix C\'s tag "test" with max-ref-age-ms 10000000: max-ref-age-ms is allowed on tags',
        with_changes(refs=_refs(test=TEST_TAG)),
    )
    yield _read(
        r,
        "branch-all-three",
        "a branch with min-snapshots-to-keep, max-snapshot-age-ms and max-ref-age-ms",
        with_changes(
            refs=_refs(
                dev={
                    "snapshot-id": S1,
                    "type": "branch",
                    "min-snapshots-to-keep": 3,
                    "max-snapshot-age-ms": 86400000,
                    "max-ref-age-ms": 604800000,
                }
            )
        ),
    )
    yield _read(
        r,
        "tag-min-to-keep",
        "min-snapshots-to-keep is for branches only",
        with_changes(refs=_refs(test={"snapshot-id": S1, "type": "tag", "min-snapshots-to-keep": 3})),
    )
    yield _read(
        r,
        "tag-max-snapshot-age",
        "max-snapshot-age-ms is for branches only",
        with_changes(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-snapshot-age-ms": 86400000})),
    )

    r = "ref.positive"
    for key in ("min-snapshots-to-keep", "max-snapshot-age-ms", "max-ref-age-ms"):
        yield _read(
            r,
            f"{key}-zero",
            f"{key} 0 is not positive",
            with_changes(refs=_refs(dev={"snapshot-id": S1, "type": "branch", key: 0})),
        )
    yield _read(
        r,
        "max-ref-age-negative",
        "max-ref-age-ms -1 is not positive",
        with_changes(refs=_refs(test={"snapshot-id": S1, "type": "tag", "max-ref-age-ms": -1})),
    )
    yield _read(
        r,
        "main-retention-one",
        "the smallest positive values on main: min-snapshots-to-keep 1, max-snapshot-age-ms 1, max-ref-age-ms 1",
        with_changes(
            refs={"main": dict(MAIN, **{"min-snapshots-to-keep": 1, "max-snapshot-age-ms": 1, "max-ref-age-ms": 1})}
        ),
    )

    r = "snapshot.unique-id"
    doc = with_changes()
    doc["snapshots"].append(copy.deepcopy(doc["snapshots"][0]))
    yield _read(r, "duplicate", "the snapshot S1 listed twice", doc)

    r = "snapshot.parent"
    doc = _set_snapshot(with_changes(), 0, parent_snapshot_id=S2)
    yield _read(r, "cycle", "S1's parent is S2 and S2's parent is S1: a cycle", doc)
    doc = _set_snapshot(with_changes(), 1, parent_snapshot_id=S2)
    yield _read(r, "self-parent", "S2 is its own parent", doc)
    doc = _set_snapshot(with_changes(), 0, parent_snapshot_id=EXPIRED)
    yield _read(r, "expired-parent", "S1's parent is not in the table: it has expired, which is allowed", doc)

    r = "snapshot.sequence-order"
    yield _read(
        r,
        "equal-to-parent",
        "S2's sequence-number equals its parent S1's (1)",
        _set_snapshot(with_changes(), 1, sequence_number=1),
    )
    doc = _set_snapshot(_set_snapshot(with_changes(), 0, sequence_number=2), 1, sequence_number=1)
    yield _read(r, "below-parent", "S2 has sequence-number 1 and its parent S1 has 2", doc)
    doc = _set_snapshot(_set_snapshot(with_changes(last_sequence_number=0), 0, sequence_number=0), 1, sequence_number=0)
    yield _read(
        r, "both-zero", "S1 and S2 both with sequence-number 0: snapshots written in v1 before an upgrade to v2", doc
    )
    doc = _set_snapshot(_set_snapshot(with_changes(), 0, sequence_number=0), 1, sequence_number=1)
    yield _read(
        r, "v1-parent", "S1 from v1 (sequence-number 0) and S2 committed after the upgrade (sequence-number 1)", doc
    )

    r = "snapshot.last-sequence-number"
    yield _read(
        r,
        "above-snapshots",
        "last-sequence-number 5 above every snapshot's (a newer snapshot was expired or a commit failed)",
        with_changes(last_sequence_number=5),
    )
    yield _read(
        r,
        "below-snapshot",
        "S2's sequence-number 2 exceeds last-sequence-number 1",
        with_changes(last_sequence_number=1),
    )

    r = "snapshot.next-row-id"
    yield _read(
        r,
        "one-below",
        "v3: S2's first-row-id 100 + added-rows 200 = 300 exceeds next-row-id 299",
        with_changes(base=v3(), next_row_id=299),
    )
    yield _read(
        r,
        "above",
        "v3: next-row-id 1000 above the last assigned row id is valid (ids of other branches or failed commits)",
        with_changes(base=v3(), next_row_id=1000),
    )
    doc = _set_snapshot(with_changes(base=v3(), next_row_id=200), 0, first_row_id=None, added_rows=None)
    _set_snapshot(doc, 1, first_row_id=0)
    yield _read(
        r, "after-upgrade", "v3 after an upgrade: S1 has no row lineage, S2 assigned ids 0..199, next-row-id 200", doc
    )

    r = "snapshot.row-range"
    yield _read(
        r,
        "overlap",
        "v3: S1 has row ids [0, 100) and S2 [50, 250): the ranges overlap",
        _set_snapshot(with_changes(base=v3()), 1, first_row_id=50),
    )
    yield _read(
        r, "adjacent", "v3: S1 [0, 100) and S2 [100, 300) are adjacent, not overlapping", with_changes(base=v3())
    )
    doc = _set_snapshot(with_changes(base=v3(), next_row_id=500), 0, first_row_id=300)
    yield _read(r, "out-of-order", "v3: ranges need not follow the parent order: S1 [300, 400), S2 [100, 300)", doc)

    r = "snapshot-log.json"
    yield _read(
        r,
        "not-a-list",
        "snapshot-log is a list",
        with_changes(snapshot_log={"snapshot-id": S1, "timestamp-ms": 1515100955770}),
    )
    yield _read(
        r,
        "missing-snapshot-id",
        "a snapshot-log entry needs snapshot-id",
        with_changes(snapshot_log=[{"timestamp-ms": 1515100955770}]),
    )
    yield _read(
        r,
        "string-timestamp",
        "timestamp-ms is a long",
        with_changes(snapshot_log=[{"snapshot-id": S1, "timestamp-ms": "1515100955770"}]),
    )
    yield _read(r, "absent", "snapshot-log is optional: absent reads as an empty log", with_changes(snapshot_log=None))

    r = "snapshot-log.order"
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1515100955770 - 60_000},
    ]
    yield _read(
        r,
        "skew-60s",
        "the second entry is 60 s earlier than the first: within the one-minute clock skew Iceberg Java tolerates",
        with_changes(snapshot_log=log),
        note="The spec states no order; the one-minute tolerance is Iceberg Java's.",
    )
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1515100955770 - 60_001},
    ]
    yield _read(
        r,
        "skew-above-60s",
        "the second entry is 60.001 s earlier than the first: rejected",
        with_changes(snapshot_log=log),
        note="The spec states no order; the one-minute tolerance is Iceberg Java's.",
    )
    log = [
        {"snapshot-id": S1, "timestamp-ms": 1515100955770},
        {"snapshot-id": S2, "timestamp-ms": 1555100955770},
        {"snapshot-id": S1, "timestamp-ms": 1555100955771},
    ]
    yield _read(
        r,
        "rollback",
        "a rollback to S1 after S2: a snapshot may appear twice in the log",
        with_changes(current_snapshot_id=S1, refs=None, snapshot_log=log),
    )

    yield from _last_updated_cases()

    r = "snapshot-log.unknown-snapshot"
    prefix = [{"snapshot-id": EXPIRED, "timestamp-ms": 1505100955770}]
    yield _read(
        r,
        "expired-prefix",
        "the log starts with an entry for an expired snapshot: allowed before the retained ones",
        with_changes(snapshot_log=prefix + v2()["snapshot-log"]),
    )
    log = copy.deepcopy(v2()["snapshot-log"])
    log.insert(1, {"snapshot-id": EXPIRED, "timestamp-ms": 1535100955770})
    yield _read(
        r,
        "expired-in-middle",
        "an entry for an expired snapshot between S1's and S2's: entries before an expired snapshot should have "
        "been removed",
        with_changes(snapshot_log=log),
    )
    log = v2()["snapshot-log"] + [{"snapshot-id": EXPIRED, "timestamp-ms": 1555100955771}]
    yield _read(
        r, "unknown-last", "the last entry names a snapshot that is not in the table", with_changes(snapshot_log=log)
    )

    # retention.snapshot-log: what the log must look like after expiration. The ops have no output
    # for a pruned log, so the case reads the table an expiration leaves.
    r = "retention.snapshot-log"
    prune_note = (
        '"All entries before a snapshot that has expired should be removed": the reference also removes the expired '
        "snapshot's own entry (as Iceberg Java does), so that every remaining entry names a snapshot of the table."
    )
    s0 = {
        "snapshot-id": S0,
        "timestamp-ms": 1505100955770,
        "summary": {"operation": "append"},
        "manifest-list": "s3://b/wh/data.db/table/metadata/snap-0.avro",
        "schema-id": 0,
        "sequence-number": 1,
    }
    after = with_changes(
        last_sequence_number=3, refs=_refs(old={"snapshot-id": S0, "type": "tag"})
    )  # history S0 <- S1 <- S2
    after["snapshots"] = [s0, _set_snapshot(copy.deepcopy(after), 1, sequence_number=3)["snapshots"][1]]  # S1 expired
    after["snapshot-log"].insert(0, {"snapshot-id": S0, "timestamp-ms": 1505100955770})
    unpruned = copy.deepcopy(after)
    yield _read(
        r,
        "not-pruned",
        "history S0 <- S1 <- S2 with log [S0, S1, S2]; S1 expired while a tag keeps S0: the log still naming S1 "
        "after S0 is rejected (entries up to the expired S1 must be removed)",
        unpruned,
        note=prune_note,
    )
    pruned = copy.deepcopy(after)
    pruned["snapshot-log"] = [e for e in pruned["snapshot-log"] if e["snapshot-id"] == S2]
    yield _read(
        r,
        "pruned",
        "the same table with the log pruned to [S2]: every entry up to and including the expired S1 removed",
        pruned,
        note=prune_note,
    )


def _last_updated_cases():
    """Rule table.last-updated-ms: v2()'s last-updated-ms equals its last snapshot-log entry's
    timestamp (1555100955770); its metadata-log entry is older."""
    r, last = "table.last-updated-ms", 1555100955770
    skew = (
        "The spec says the field is updated just before the file is written; the one-minute tolerance is "
        "Iceberg Java's."
    )
    yield _read(
        r,
        "skew-60s-before-snapshot-log",
        "last-updated-ms 60 s before the last snapshot-log entry: within the one-minute clock skew Iceberg Java "
        "tolerates",
        with_changes(last_updated_ms=last - 60_000),
        note=skew,
    )
    yield _read(
        r,
        "before-snapshot-log",
        "last-updated-ms 60.001 s before the last snapshot-log entry, which an earlier update wrote: rejected",
        with_changes(last_updated_ms=last - 60_001),
        note=skew,
    )
    metadata_log = [
        {"metadata-file": "s3://b/wh/data.db/table/metadata/v1.metadata.json", "timestamp-ms": last + 60_001}
    ]
    yield _read(
        r,
        "before-metadata-log",
        "last-updated-ms 60.001 s before the last metadata-log entry, a file written before this one: rejected",
        with_changes(metadata_log=metadata_log),
        note=skew,
    )
    yield _read(
        r,
        "before-newest-snapshot",
        "no snapshot-log; last-updated-ms 60.001 s before the newest snapshot's timestamp-ms, a snapshot "
        "created before the file that adds it: rejected",
        with_changes(last_updated_ms=last - 60_001, snapshot_log=None),
        note=skew,
    )
