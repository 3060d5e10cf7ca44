"""Snapshot expiration as a pure function ("Snapshot Retention Policy", "Snapshot Reference").

The spec's procedure, applied literally by `expire_snapshots`:

1. Start with an empty set of snapshots to retain.
2. Remove any refs (other than main) where the referenced snapshot is older than max-ref-age-ms.
3. For each branch and tag, add the referenced snapshot to the retained set.
4. For each branch, add its ancestors to the retained set until the snapshot is older than
   max-snapshot-age-ms AND is not one of the first min-snapshots-to-keep in the branch
   (including the branch's referenced snapshot).
5. Expire any snapshot not in the set of snapshots to retain.

"Older than" an age A at time `now_ms` means `now_ms - timestamp_ms > A` (Java keeps a snapshot
whose timestamp is at or after `now - A`).

Defaults: each ref's own value, else the table property the spec names
(`history.expire.max-ref-age-ms`, `history.expire.max-snapshot-age-ms`,
`history.expire.min-snapshots-to-keep`), else Java's defaults, which the spec does not state:
max-ref-age never (Long.MAX_VALUE), max-snapshot-age 5 days (432000000 ms), min-snapshots-to-keep 1.

Decisions and ambiguities:

- A tag's max-ref-age-ms is measured from the timestamp of the tagged snapshot (step 2 says "where
  the referenced snapshot is older than"), not from when the tag was created, which the metadata
  does not record. The same holds for branches.
- The walk of step 4 stops at the first ancestor that meets both conditions; that ancestor and
  everything older on the branch are not retained through this branch (the word "until"). A
  parent that has already expired ends the walk.
- `max-ref-age-ms` on `main` is accepted and ignored: "The main branch never expires."
- Java additionally retains snapshots that no ref reaches and that are younger than the table's
  max-snapshot-age (e.g. staged write-audit-publish snapshots). The spec's steps do not; neither
  does this function.
- A ref to a snapshot that is not in the table is rejected (`ref.unknown-snapshot`); Java drops it.
"""

from __future__ import annotations

import re

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput
from spec_impl.metadata.snapshots import MAIN_BRANCH, Snapshot, SnapshotLogEntry, SnapshotRef, ancestors
from spec_impl.rules import Rule, register, implements

_RET = "Snapshot Retention Policy"

register(
    Rule(
        "retention.ref-age",
        _RET,
        "Step 2: a ref other than main is removed when its snapshot is older than max-ref-age-ms (the ref's, "
        "else history.expire.max-ref-age-ms, else never)",
    ),
    Rule(
        "retention.main-never-expires",
        "Snapshot Reference (max-ref-age-ms)",
        "The main branch is never removed, whatever its max-ref-age-ms",
    ),
    Rule("retention.ref-snapshots", _RET, "Step 3: the snapshot of every remaining branch and tag is retained"),
    Rule(
        "retention.branch-ancestors",
        _RET,
        "Step 4: a branch retains its ancestors until one is older than max-snapshot-age-ms and not among the "
        "first min-snapshots-to-keep",
    ),
    Rule("retention.expire", _RET, "Step 5: every snapshot that is not retained expires"),
    Rule(
        "retention.property",
        "Snapshot Reference; Snapshot Retention Policy",
        "The history.expire.* table properties are positive integers",
    ),
    Rule(
        "retention.snapshot-log",
        "Table Metadata Fields (snapshot-log)",
        "After expiration, the snapshot-log entries up to the last expired snapshot are removed",
    ),
)

MAX_REF_AGE_PROPERTY = "history.expire.max-ref-age-ms"
MAX_SNAPSHOT_AGE_PROPERTY = "history.expire.max-snapshot-age-ms"
MIN_SNAPSHOTS_PROPERTY = "history.expire.min-snapshots-to-keep"
JAVA_MAX_SNAPSHOT_AGE_MS = 5 * 24 * 60 * 60 * 1000  # 432000000, Java's TableProperties default
JAVA_MIN_SNAPSHOTS_TO_KEEP = 1  # Java's TableProperties default


@dataclass(frozen=True)
class RetentionPolicy:
    """The table-wide retention settings; `max_ref_age_ms` None means refs never age out."""

    max_snapshot_age_ms: int = JAVA_MAX_SNAPSHOT_AGE_MS
    min_snapshots_to_keep: int = JAVA_MIN_SNAPSHOTS_TO_KEEP
    max_ref_age_ms: int | None = None


@dataclass(frozen=True)
class ExpirationResult:
    """What `expire_snapshots` decided: snapshot ids kept and expired, and the ref names removed."""

    kept: frozenset[int]
    expired: frozenset[int]
    refs_removed: frozenset[str]


def table_policy(properties: Mapping[str, str] | None) -> RetentionPolicy:
    """Read the history.expire.* table properties, falling back to Java's defaults."""
    properties = properties or {}
    return RetentionPolicy(
        _positive(properties, MAX_SNAPSHOT_AGE_PROPERTY, JAVA_MAX_SNAPSHOT_AGE_MS),
        _positive(properties, MIN_SNAPSHOTS_PROPERTY, JAVA_MIN_SNAPSHOTS_TO_KEEP),
        _positive(properties, MAX_REF_AGE_PROPERTY, None),
    )


_MAX = {"history.expire.min-snapshots-to-keep": 2**31 - 1}  # an int; the ages are longs


@implements("retention.property")
def _positive(properties: Mapping[str, str], key: str, default: int | None) -> int | None:
    """A positive decimal integer string (as Java's parseInt / parseLong read it), within the field's range."""
    text = properties.get(key)
    if text is None:
        return default
    if not isinstance(text, str) or not re.fullmatch(r"[+]?[0-9]+", text):
        raise InvalidInput("retention.property", f"table property {key} must be a decimal integer string", text)
    value = bounded_int(text, 19, "retention.property", f"table property {key} (positive, within a long)", text)
    if not 0 < value <= _MAX.get(key, 2**63 - 1):
        raise InvalidInput("retention.property", f"table property {key} must be positive and fit its type", text)
    return value


def _older(snapshot: Snapshot, age_ms: int, now_ms: int) -> bool:
    return now_ms - snapshot.timestamp_ms > age_ms


@implements(
    "ref.unknown-snapshot",
    "retention.branch-ancestors",
    "retention.expire",
    "retention.main-never-expires",
    "retention.ref-age",
    "retention.ref-snapshots",
    "snapshot.unique-id",
)
def expire_snapshots(
    snapshots: Iterable[Snapshot], refs: Mapping[str, SnapshotRef], properties: Mapping[str, str] | None, now_ms: int
) -> ExpirationResult:
    """The five steps of "Snapshot Retention Policy" at time `now_ms` (ms from the epoch)."""
    by_id: dict[int, Snapshot] = {}
    for s in snapshots:
        if s.snapshot_id in by_id:
            raise InvalidInput("snapshot.unique-id", "two snapshots have the snapshot-id", s.snapshot_id)
        by_id[s.snapshot_id] = s
    for name, ref in refs.items():
        if ref.snapshot_id not in by_id:
            raise InvalidInput(
                "ref.unknown-snapshot",
                f"reference {name!r} points to a snapshot that is not in the table",
                ref.snapshot_id,
            )
    policy = table_policy(properties)

    retained: set[int] = set()  # step 1
    removed = set()  # step 2
    for name, ref in refs.items():
        max_ref_age = ref.max_ref_age_ms if ref.max_ref_age_ms is not None else policy.max_ref_age_ms
        if name != MAIN_BRANCH and max_ref_age is not None and _older(by_id[ref.snapshot_id], max_ref_age, now_ms):
            removed.add(name)
    remaining = {name: ref for name, ref in refs.items() if name not in removed}
    retained.update(ref.snapshot_id for ref in remaining.values())  # step 3
    for ref in remaining.values():  # step 4
        if ref.is_branch:
            retained.update(_branch_retained(ref, by_id, policy, now_ms))
    return ExpirationResult(frozenset(retained), frozenset(by_id) - retained, frozenset(removed))  # step 5


@implements("retention.branch-ancestors")
def _branch_retained(
    branch: SnapshotRef, by_id: Mapping[int, Snapshot], policy: RetentionPolicy, now_ms: int
) -> list[int]:
    max_age = branch.max_snapshot_age_ms if branch.max_snapshot_age_ms is not None else policy.max_snapshot_age_ms
    min_keep = (
        branch.min_snapshots_to_keep if branch.min_snapshots_to_keep is not None else policy.min_snapshots_to_keep
    )
    kept = []
    for position, snapshot in enumerate(ancestors(branch.snapshot_id, by_id)):
        if _older(snapshot, max_age, now_ms) and position >= min_keep:
            break
        kept.append(snapshot.snapshot_id)
    return kept


@implements("retention.snapshot-log")
def prune_snapshot_log(log: Iterable[SnapshotLogEntry], kept: Iterable[int]) -> tuple[SnapshotLogEntry, ...]:
    """ "When snapshots are expired from the list of valid snapshots, all entries before a snapshot
    that has expired should be removed": drop everything up to and including the last entry whose
    snapshot is not kept (the expired entry itself goes too, as in Java, so that every remaining
    entry names a snapshot of the table)."""
    log, kept = tuple(log), frozenset(kept)
    last_expired = max((i for i, entry in enumerate(log) if entry.snapshot_id not in kept), default=-1)
    return log[last_expired + 1 :]
