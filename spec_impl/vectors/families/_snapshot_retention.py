"""Snapshot expiration cases (Snapshot Retention Policy): the five steps walked on a small history of
five snapshots, with table properties and per-ref settings."""

from __future__ import annotations

import copy
from typing import Any

from spec_impl.vectors.cases import case


NOW = 1700000000000  # 2023-11-14T22:13:20Z
DAY = 86400000
RETENTION_DEFAULTS = (
    "The spec names the table properties but not their defaults; the reference uses Iceberg Java's: "
    "max-snapshot-age 5 days (432000000 ms), min-snapshots-to-keep 1, max-ref-age never."
)
SPEC_STEPS = (
    "The spec's five steps expire every snapshot no ref retains; Iceberg Java also keeps unreferenced snapshots "
    "younger than the table's max snapshot age."
)


def _s(sid: int, days_ago: float, parent: int | None = None) -> dict:
    snap = {
        "snapshot-id": sid,
        "sequence-number": sid,
        "timestamp-ms": NOW - int(days_ago * DAY),
        "summary": {"operation": "append"},
        "manifest-list": f"s3://b/wh/t/metadata/snap-{sid}.avro",
    }
    if parent is not None:
        snap["parent-snapshot-id"] = parent
    return snap


# main: 1 <- 2 <- 3 <- 4 <- 5, taken 10, 8, 6, 3 and 1 days before now-ms
HISTORY = [_s(1, 10), _s(2, 8, 1), _s(3, 6, 2), _s(4, 3, 3), _s(5, 1, 4)]
HISTORY_TEXT = "history 1 <- 2 <- 3 <- 4 <- 5 taken 10, 8, 6, 3, 1 days ago"


def _branch(sid: int, **kw: Any) -> dict:
    return {"snapshot-id": sid, "type": "branch", **{k.replace("_", "-"): v for k, v in kw.items()}}


def _tag(sid: int, **kw: Any) -> dict:
    return {"snapshot-id": sid, "type": "tag", **{k.replace("_", "-"): v for k, v in kw.items()}}


def _expire(
    rule_id: str,
    slug: str,
    description: str,
    refs: dict,
    properties: dict | None = None,
    snapshots: list | None = None,
    now: int = NOW,
    **kw,
):
    return case(
        rule_id,
        slug,
        description,
        "expire-snapshots",
        format_version=2,
        snapshots=copy.deepcopy(snapshots or HISTORY),
        refs=refs,
        properties=properties or {},
        **{"now-ms": now},
        **kw,
    )


def _props(
    max_age_days: float | None = None, min_keep: int | None = None, max_ref_age_days: float | None = None
) -> dict:
    out = {}
    if max_age_days is not None:
        out["history.expire.max-snapshot-age-ms"] = str(int(max_age_days * DAY))
    if min_keep is not None:
        out["history.expire.min-snapshots-to-keep"] = str(min_keep)
    if max_ref_age_days is not None:
        out["history.expire.max-ref-age-ms"] = str(int(max_ref_age_days * DAY))
    return out


def specs():
    main = {"main": _branch(5)}
    log = [
        {"snapshot-id": sid, "timestamp-ms": NOW - days * DAY}
        for sid, days in ((1, 10), (2, 8), (3, 6), (4, 3), (5, 1))
    ]
    yield _expire(
        "retention.snapshot-log",
        "log-pruned",
        f"{HISTORY_TEXT}, main at 5 with the Java defaults: 1-3 expire, and the "
        "snapshot log loses every entry up to the last expired snapshot (3), leaving 4 and 5",
        main,
        **{"snapshot-log": log},
    )
    rollback = [
        {"snapshot-id": 4, "timestamp-ms": NOW - 3 * DAY},
        {"snapshot-id": 1, "timestamp-ms": NOW - 2 * DAY},
        {"snapshot-id": 5, "timestamp-ms": NOW - DAY},
    ]
    yield _expire(
        "retention.snapshot-log",
        "log-after-rollback",
        "a log [4, 1, 5] (a rollback to 1, then 5): everything up to the last "
        "entry of an expired snapshot goes, the entry for the kept 4 before it too, leaving [5]",
        main,
        **{"snapshot-log": rollback},
    )

    r = "retention.expire"
    yield _expire(
        r,
        "java-defaults",
        f"{HISTORY_TEXT}, main at 5, no properties: 4 and 5 are younger than 5 days and kept, 1-3 expire",
        main,
        note=RETENTION_DEFAULTS,
    )
    yield _expire(
        r,
        "unreferenced-young",
        "a snapshot 6 taken 1 ms ago whose parent is 5 but that no ref points to (a staged commit) expires",
        main,
        snapshots=HISTORY + [_s(6, 0, 5) | {"timestamp-ms": NOW - 1}],
        note=SPEC_STEPS,
    )
    yield _expire(
        r,
        "no-refs",
        f"{HISTORY_TEXT} and no refs at all (no current snapshot): every snapshot expires",
        {},
        note=SPEC_STEPS,
    )
    yield _expire(r, "unique-id", "two snapshots with id 1", main, snapshots=HISTORY + [_s(1, 10)])
    yield _expire(
        r,
        "ref-to-unknown",
        "a tag pointing to snapshot 42, which is not in the table",
        {**main, "t": _tag(42)},
        note="Iceberg Java drops such a ref; the reference rejects the input.",
    )

    r = "retention.ref-age"
    refs = {**main, "old": _tag(2, max_ref_age_ms=7 * DAY), "fresh": _tag(3, max_ref_age_ms=7 * DAY)}
    yield _expire(
        r,
        "tag-own-max-ref-age",
        'tags with max-ref-age-ms 7 days: "old" on 2 (8 days old) is removed and 2 expires; "fresh" on 3 (6 '
        "days) stays",
        refs,
        note="The age is that of the referenced snapshot (step 2), not of the ref, whose creation time is not "
        "recorded.",
    )
    refs = {**main, "a": _tag(1), "b": _tag(2, max_ref_age_ms=30 * DAY), "c": _branch(3)}
    yield _expire(
        r,
        "table-property",
        'history.expire.max-ref-age-ms 5 days removes tag "a" (on 1) and branch "c" (on 3); tag "b" on 2 keeps '
        "its own 30 days",
        refs,
        _props(max_ref_age_days=5),
    )
    yield _expire(
        r,
        "never-by-default",
        "without max-ref-age-ms anywhere refs never age out: tags on 1 and 2 keep their snapshots",
        {**main, "a": _tag(1), "b": _tag(2)},
    )
    yield _expire(
        r,
        "boundary",
        'a tag whose snapshot (2) is exactly max-ref-age-ms (8 days) old is kept: "older than" is strict',
        {**main, "t": _tag(2, max_ref_age_ms=8 * DAY)},
    )
    yield _expire(
        r,
        "boundary-plus-1ms",
        "1 ms later the same tag is removed and 2 expires",
        {**main, "t": _tag(2, max_ref_age_ms=8 * DAY)},
        now=NOW + 1,
    )
    dev = [_s(11, 30, 1)]
    refs = {**main, "dev": _branch(11, max_ref_age_ms=DAY, min_snapshots_to_keep=10)}
    yield _expire(
        r,
        "removed-branch",
        'branch "dev" on 11 (30 days old, parent 1) ages out by its max-ref-age-ms 1 day: its min-snapshots-to-keep 10 '
        "no longer protects 11 or 1",
        refs,
        snapshots=HISTORY + dev,
    )
    yield _expire(
        r,
        "removed-tag-shared-snapshot",
        'tag "t" on 4 ages out (max-ref-age-ms 1 day) but main still retains 4',
        {**main, "t": _tag(4, max_ref_age_ms=DAY)},
    )

    r = "retention.main-never-expires"
    yield _expire(
        r,
        "own-and-property",
        "main on 1 (10 days old) with max-ref-age-ms 1 and history.expire.max-ref-age-ms 1: main stays, 1 is kept",
        {"main": _branch(1, max_ref_age_ms=1)},
        {"history.expire.max-ref-age-ms": "1"},
        snapshots=HISTORY[:1],
    )
    yield _expire(
        r,
        "property-only",
        'history.expire.max-ref-age-ms 1 day removes tag "t" on 2 but not main on 5, whose ancestors are walked '
        "as usual",
        {**main, "t": _tag(2)},
        _props(max_ref_age_days=1, max_age_days=7),
    )

    r = "retention.ref-snapshots"
    yield _expire(
        r,
        "tag-without-ancestors",
        'tag "v1.0" on 2 retains 2 but not its ancestor 1; main retains 4 and 5; 1 and 3 expire',
        {**main, "v1.0": _tag(2)},
    )
    yield _expire(
        r,
        "old-branch-head",
        "main on 2 with history.expire.max-snapshot-age-ms 1: the head 2 is kept however old; 1 expires, and "
        "3-5, not reachable from main, expire",
        {"main": _branch(2)},
        {"history.expire.max-snapshot-age-ms": "1"},
    )
    yield _expire(r, "old-tag", 'tag "t" on 1 (10 days old, no max-ref-age-ms): 1 is kept', {**main, "t": _tag(1)})

    r = "retention.branch-ancestors"
    yield _expire(
        r,
        "age-boundary",
        "history.expire.max-snapshot-age-ms 6 days: 3, exactly 6 days old, is not older and is kept",
        main,
        _props(max_age_days=6),
    )
    yield _expire(
        r,
        "age-boundary-plus-1ms",
        "1 ms later 3 is older than 6 days and expires",
        main,
        _props(max_age_days=6),
        now=NOW + 1,
    )
    yield _expire(
        r,
        "min-overrides-age",
        "max-snapshot-age-ms 1 ms and min-snapshots-to-keep 3: the first 3 of main (5, 4, 3, counting the head) "
        "are kept however old",
        main,
        {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "3"},
    )
    yield _expire(
        r,
        "both-conditions",
        "max-snapshot-age 9 days, min-snapshots-to-keep 1: 2, 3 and 4 are beyond the minimum but young, so kept; "
        "1 is both and expires",
        main,
        _props(max_age_days=9, min_keep=1),
    )
    yield _expire(
        r,
        "min-above-history",
        "min-snapshots-to-keep 10 on a history of 5 with max-snapshot-age 1 ms: all 5 kept",
        main,
        {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "10"},
    )
    odd = [_s(1, 1), _s(2, 30, 1), _s(3, 1, 2)]
    yield _expire(
        r,
        "walk-stops",
        "history 1 <- 2 <- 3 taken 1, 30, 1 days ago (a clock jump), main on 3: the walk stops at 2, so 1 "
        "expires although it is young",
        {"main": _branch(3)},
        snapshots=odd,
        note='"add its ancestors ... until": the walk ends at the first ancestor that meets both conditions.',
    )
    yield _expire(
        r,
        "expired-parent-ends-walk",
        "history 3 <- 4 <- 5 whose 3 has a parent (2) already expired; main with min-snapshots-to-keep 10: 3, 4, "
        "5 kept",
        {"main": _branch(5, min_snapshots_to_keep=10)},
        snapshots=HISTORY[2:],
    )
    tight = {"history.expire.max-snapshot-age-ms": "1", "history.expire.min-snapshots-to-keep": "1"}
    yield _expire(
        r,
        "branch-min-overrides-property",
        "table properties keep 1 snapshot of any age; main's own min-snapshots-to-keep 4 keeps 5, 4, 3, 2",
        {"main": _branch(5, min_snapshots_to_keep=4)},
        tight,
    )
    yield _expire(
        r,
        "branch-age-overrides-property",
        "table max-snapshot-age 1 ms; main's own max-snapshot-age-ms 7 days keeps 5, 4, 3",
        {"main": _branch(5, max_snapshot_age_ms=7 * DAY)},
        tight,
    )
    yield _expire(
        r,
        "branch-age-shorter-than-property",
        "table max-snapshot-age 50 days; main's own max-snapshot-age-ms 2 days keeps only 5",
        {"main": _branch(5, max_snapshot_age_ms=2 * DAY)},
        _props(max_age_days=50),
    )
    yield _expire(
        r,
        "branch-settings-not-shared",
        'branch "dev" on 3 with min-snapshots-to-keep 3 keeps 3, 2, 1; main keeps 5, 4 with the defaults',
        {**main, "dev": _branch(3, min_snapshots_to_keep=3)},
    )
    shared = HISTORY + [_s(11, 9, 3), _s(12, 2, 11)]  # dev: 3 <- 11 <- 12
    yield _expire(
        r,
        "shared-ancestors",
        'branch "dev" 3 <- 11 <- 12 (11 nine days, 12 two days old) forks from main at 3; '
        "dev's min-snapshots-to-keep 4 reaches the shared ancestors 3 and 2; 1 expires",
        {**main, "dev": _branch(12, min_snapshots_to_keep=4)},
        snapshots=shared,
    )
    yield _expire(
        r,
        "shared-ancestors-defaults",
        "the same branches with the defaults: dev keeps only 12 (11 is 9 days old), main 5 and 4; 1, 2, 3, 11 expire",
        {**main, "dev": _branch(12)},
        snapshots=shared,
        note=RETENTION_DEFAULTS,
    )
    yield _expire(
        r,
        "tag-no-walk",
        "a tag's ancestors are not walked, even with table properties that would keep them",
        {"main": _branch(1), "t": _tag(5)},
        _props(max_age_days=30, min_keep=5),
    )

    r = "retention.property"
    for key, value, why in (
        ("history.expire.min-snapshots-to-keep", "0", "zero"),
        ("history.expire.max-snapshot-age-ms", "-5", "negative"),
        ("history.expire.max-ref-age-ms", "five days", "not a number"),
        ("history.expire.max-snapshot-age-ms", "1.5", "not an integer"),
        ("history.expire.max-snapshot-age-ms", "9223372036854775808", "beyond a long"),
        ("history.expire.max-ref-age-ms", "9" * 4301, "4,301 digits long"),
    ):
        yield _expire(
            r,
            f"{key.rsplit('.', 1)[1]}-{why}",
            f"table property {key} = {value!r} is {why}: rejected",
            main,
            {key: value},
        )
