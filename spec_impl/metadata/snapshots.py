"""Snapshots, snapshot references and the snapshot log of table metadata.

Spec: "Snapshots", "Snapshot Reference", "Table Metadata Fields" (current-snapshot-id, refs,
snapshot-log), Appendix C (snapshot and refs JSON) and Appendix E (version changes); the adopted v3
digest §1.4 (row lineage: `first-row-id`, `added-rows`, `next-row-id`) and §1.7 (`key-id`).

Decisions where the text leaves room (each enforced under the rule id named):

- `current-snapshot-id` (`ref.current-snapshot`): absent, `null` and `-1` all mean "no current
  snapshot" when reading any format version (older writers write -1; Java 1.10 writes `null` for
  v3). `current_snapshot_id_to_json` writes -1 for v1/v2 and `null` for v3, as Java 1.10 does.
- `refs` (`ref.main-branch`): "There is always a main branch reference pointing to the
  current-snapshot-id even if the refs map is null." When `main` is missing and there is a current
  snapshot, `resolve_refs` adds the implied `main` branch, also when the map is present without it
  (Java keeps such a map without `main`). A `main` that is a tag is rejected.
- v1 `sequence-number` (`snapshot.sequence-number`): read as 0 when absent; a value a v1 writer
  wrote anyway is kept on reading but never written back ("should not be written").
- v3 row lineage (`snapshot.row-lineage`): the adopted spec makes `first-row-id` and `added-rows`
  required, yet snapshots from before an upgrade to v3 "keep a null first-row-id". Both absent is
  accepted (such a snapshot); one without the other is rejected. Under the 2024 seed revision the
  fields do not exist and are ignored.
- snapshot-log (`snapshot-log.unknown-snapshot`): "When snapshots are expired ..., all entries
  before a snapshot that has expired should be removed." Entries for expired snapshots are
  therefore allowed only as a prefix of the log: an expired entry after a retained one would leave
  a gap in which the wrong snapshot appears current.
- snapshot-log order (`snapshot-log.order`): timestamps must not go back by more than one minute,
  the clock-skew tolerance Java applies; the spec states no order beyond "each time ... a new entry
  should be added with the last-updated-ms".
- A `parent-snapshot-id` naming a snapshot no longer in the list is an expired parent: allowed.

Finding: the Appendix C snapshot example is not valid JSON (no comma after `"manifest-list"`), and
its template writes `"schema-id": "<id>"` as a string while the example and the table use an int.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata.versions import check_format_version
from spec_impl.revisions import ADOPTED, V3_ADOPTED, has
from spec_impl.rules import Rule, implements, register

_SNAP = "Snapshots; Appendix C"
_E2 = "Snapshots; Appendix E (Version 2)"
_LINEAGE = "adopted 1.4 Row lineage"
_REF = "Snapshot Reference; Appendix C"
_FIELDS = "Table Metadata Fields"
V2_UP = (2, 3)

register(
    Rule(
        "snapshot.json",
        _SNAP,
        "A snapshot is a JSON object: snapshot-id and timestamp-ms longs, optional parent-snapshot-id (long) and "
        "schema-id (int)",
    ),
    Rule(
        "snapshot.sequence-number",
        _E2,
        "sequence-number: a non-negative long; v2+ writers write it, readers read it as 0 when absent (v1 "
        "snapshots, also those kept by an upgraded table); v1 writers do not write it",
    ),
    Rule(
        "snapshot.manifest-list",
        _E2,
        "manifest-list is required in v2+; a v1 snapshot has manifest-list or the manifests list",
    ),
    Rule(
        "snapshot.manifests",
        _SNAP,
        "manifests (v1 only) is a list of locations and must be omitted if manifest-list is present",
    ),
    Rule("snapshot.summary", _SNAP, "summary is a string map that includes operation; required in v2+"),
    Rule("snapshot.operation", _SNAP, "The summary operation is one of append, replace, overwrite, delete"),
    Rule(
        "snapshot.row-lineage",
        _LINEAGE,
        "v3: first-row-id and added-rows are non-negative longs written together (absent only on snapshots from "
        "before the upgrade to v3)",
        (3,),
        ADOPTED,
    ),
    Rule(
        "snapshot.key-id",
        "adopted 1.7 Encryption",
        "v3: the optional key-id is a string, the key-id of an entry of the table's encryption-keys",
        (3,),
        ADOPTED,
    ),
    Rule("snapshot.unique-id", "Snapshots", "snapshot-id is unique among the table's snapshots"),
    Rule(
        "snapshot.parent",
        "Snapshots",
        "The parent chain has no cycle; a parent missing from the list has expired, which is allowed",
    ),
    Rule(
        "snapshot.sequence-order",
        "Snapshots (sequence-number)",
        "v2+: a snapshot's sequence-number is greater than its parent's (0 and 0 allowed: snapshots from v1)",
        V2_UP,
    ),
    Rule(
        "snapshot.last-sequence-number",
        _FIELDS,
        "v2+: no snapshot's sequence-number exceeds the table's last-sequence-number",
        V2_UP,
    ),
    Rule(
        "snapshot.next-row-id",
        _LINEAGE,
        "v3: first-row-id + added-rows of every snapshot is at most the table's next-row-id",
        (3,),
        ADOPTED,
    ),
    Rule(
        "snapshot.row-range",
        _LINEAGE,
        "v3: the row-id ranges [first-row-id, first-row-id + added-rows) of two snapshots do not overlap",
        (3,),
        ADOPTED,
    ),
    Rule(
        "snapshot-log.json",
        "Table Metadata Fields (snapshot-log); Appendix C",
        "snapshot-log entries are objects with timestamp-ms and snapshot-id longs",
    ),
    Rule(
        "snapshot-log.order",
        "Table Metadata Fields (snapshot-log)",
        "snapshot-log timestamps do not go back by more than one minute (Java's clock-skew tolerance)",
    ),
    Rule(
        "snapshot-log.unknown-snapshot",
        "Table Metadata Fields (snapshot-log)",
        "snapshot-log entries name known snapshots, except a prefix of entries for expired ones",
    ),
    Rule("ref.json", _REF, "A snapshot reference is an object with a snapshot-id long and a type string"),
    Rule("ref.type", _REF, "A reference's type is branch or tag"),
    Rule("ref.branch-only-retention", _REF, "min-snapshots-to-keep and max-snapshot-age-ms are for branches only"),
    Rule("ref.positive", _REF, "min-snapshots-to-keep, max-snapshot-age-ms and max-ref-age-ms are positive numbers"),
    Rule(
        "ref.main-branch",
        "Table Metadata Fields (refs)",
        "There is always a main branch pointing to current-snapshot-id, even if the refs map is null; main is a branch",
    ),
    Rule(
        "ref.current-snapshot",
        "Table Metadata Fields (current-snapshot-id)",
        "current-snapshot-id (a long; -1 or null for none) equals the snapshot-id of the main branch",
    ),
    Rule("ref.unknown-snapshot", _REF, "Every reference points to a snapshot of the table"),
)

OPERATIONS = ("append", "replace", "overwrite", "delete")
MAIN_BRANCH = "main"
BRANCH, TAG = "branch", "tag"
LOG_CLOCK_SKEW_MS = 60_000
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1

# --- JSON reading helpers ----------------------------------------------------------------------

_MISSING = object()


def _is_int(value: Any, lo: int = _LONG_MIN, hi: int = _LONG_MAX) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _object(obj: Any, rule: str, what: str) -> dict:
    if not isinstance(obj, dict):
        raise InvalidInput(rule, f"{what} must be a JSON object", obj)
    return obj


def _long(
    obj: dict, key: str, rule: str, *, required: bool = True, lo: int = _LONG_MIN, hi: int = _LONG_MAX
) -> int | None:
    """A long field (`lo`..`hi`); a missing or null optional field reads as None."""
    value = obj.get(key)
    if value is None:
        if required:
            raise InvalidInput(rule, f"required field {key!r} is missing", obj)
        return None
    if not _is_int(value, lo, hi):
        raise InvalidInput(rule, f"field {key!r} must be an integer in [{lo}, {hi}]", value)
    return value


def _string_map(value: Any, rule: str, what: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise InvalidInput(rule, f"{what} must be a map of strings to strings", value)
    return tuple(value.items())


@implements("table.format-version")
def _check_version(format_version: int) -> int:
    """A caller's format version, checked (rule table.format-version)."""
    return check_format_version(format_version)


# --- snapshots ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """One snapshot ("Snapshots"). `summary` keeps the summary map's pairs in order; `manifests` is
    the v1 embedded list of manifest locations; the last three fields are v3 (adopted) only."""

    snapshot_id: int
    timestamp_ms: int
    sequence_number: int = 0
    parent_snapshot_id: int | None = None
    manifest_list: str | None = None
    manifests: tuple[str, ...] | None = None
    summary: tuple[tuple[str, str], ...] | None = None
    schema_id: int | None = None
    first_row_id: int | None = None
    added_rows: int | None = None
    key_id: str | None = None

    @property
    def operation(self) -> str | None:
        """The summary's `operation`, or None without a summary."""
        return None if self.summary is None else dict(self.summary).get("operation")

    def to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> dict:
        """Appendix C JSON following the writer rules of Appendix E: v1 omits sequence-number;
        v2+ writes sequence-number, manifest-list and summary and never `manifests`; v3 (adopted)
        writes first-row-id, added-rows and key-id when set. The result is re-read to validate it."""
        _check_version(format_version)
        revisions.check(revision)
        out: dict[str, Any] = {"snapshot-id": self.snapshot_id}
        if self.parent_snapshot_id is not None:
            out["parent-snapshot-id"] = self.parent_snapshot_id
        if format_version >= 2:
            out["sequence-number"] = self.sequence_number
        out["timestamp-ms"] = self.timestamp_ms
        if self.summary is not None:
            out["summary"] = dict(self.summary)
        if self.manifest_list is not None:
            out["manifest-list"] = self.manifest_list
        if self.manifests is not None:
            out["manifests"] = list(self.manifests)
        if self.schema_id is not None:
            out["schema-id"] = self.schema_id
        if format_version >= 3 and has(revision, V3_ADOPTED):
            for key, value in (
                ("first-row-id", self.first_row_id),
                ("added-rows", self.added_rows),
                ("key-id", self.key_id),
            ):
                if value is not None:
                    out[key] = value
        parse_snapshot(out, format_version, revision)
        return out


@implements("snapshot.json", "snapshot.key-id", "snapshot.row-lineage", "snapshot.sequence-number")
def parse_snapshot(obj: Any, format_version: int, revision: str = revisions.DEFAULT) -> Snapshot:
    """Read a snapshot of a table of `format_version`, applying the Appendix E read defaults
    (v1: sequence-number 0). Fields of later versions are ignored, as readers ignore unknown fields."""
    _check_version(format_version)
    revisions.check(revision)
    obj = _object(obj, "snapshot.json", "a snapshot")
    snapshot_id = _long(obj, "snapshot-id", "snapshot.json")
    timestamp_ms = _long(obj, "timestamp-ms", "snapshot.json")
    parent = _long(obj, "parent-snapshot-id", "snapshot.json", required=False)
    schema_id = _long(obj, "schema-id", "snapshot.json", required=False, lo=_INT_MIN, hi=_INT_MAX)
    # Read as 0 when absent in every version: a v2+ table upgraded from v1 keeps its v1 snapshots
    # ("Tables that are upgraded from v1 may contain metadata that does not follow these
    # requirements", Appendix E), and Iceberg Java omits a sequence number of 0 when it writes them.
    sequence_number = _long(obj, "sequence-number", "snapshot.sequence-number", required=False, lo=0) or 0
    manifest_list, manifests = _read_manifests(obj, format_version)
    summary = _read_summary(obj, format_version)
    first_row_id = added_rows = key_id = None
    if format_version >= 3 and has(revision, V3_ADOPTED):
        first_row_id = _long(obj, "first-row-id", "snapshot.row-lineage", required=False, lo=0)
        added_rows = _long(obj, "added-rows", "snapshot.row-lineage", required=False, lo=0)
        if (first_row_id is None) != (added_rows is None):
            missing = "added-rows" if added_rows is None else "first-row-id"
            raise InvalidInput(
                "snapshot.row-lineage",
                f"a v3 snapshot with row lineage needs both first-row-id and added-rows; {missing} is missing",
                obj,
            )
        key_id = obj.get("key-id")
        if key_id is not None and not isinstance(key_id, str):
            raise InvalidInput("snapshot.key-id", "key-id must be a string", key_id)
    return Snapshot(
        snapshot_id,
        timestamp_ms,
        sequence_number or 0,
        parent,
        manifest_list,
        manifests,
        summary,
        schema_id,
        first_row_id,
        added_rows,
        key_id,
    )


@implements("snapshot.manifest-list", "snapshot.manifests")
def _read_manifests(obj: dict, format_version: int) -> tuple[str | None, tuple[str, ...] | None]:
    manifest_list = obj.get("manifest-list")
    if manifest_list is not None and not isinstance(manifest_list, str):
        raise InvalidInput("snapshot.manifest-list", "manifest-list must be a location string", manifest_list)
    if manifest_list is None and format_version >= 2:
        raise InvalidInput(
            "snapshot.manifest-list", f"a v{format_version} snapshot requires manifest-list", obj.get("snapshot-id")
        )
    manifests = obj.get("manifests")
    if manifests is not None:
        if manifest_list is not None:
            raise InvalidInput("snapshot.manifests", "manifests must be omitted if manifest-list is present", manifests)
        if not isinstance(manifests, list) or not all(isinstance(m, str) for m in manifests):
            raise InvalidInput("snapshot.manifests", "manifests must be a list of location strings", manifests)
        manifests = tuple(manifests)
    if manifest_list is None and manifests is None:
        raise InvalidInput(
            "snapshot.manifest-list", "a v1 snapshot requires manifest-list or manifests", obj.get("snapshot-id")
        )
    return manifest_list, manifests


@implements("snapshot.operation", "snapshot.summary")
def _read_summary(obj: dict, format_version: int) -> tuple[tuple[str, str], ...] | None:
    value = obj.get("summary")
    if value is None:
        if format_version >= 2:
            raise InvalidInput("snapshot.summary", f"summary is required in v{format_version}", obj.get("snapshot-id"))
        return None
    summary = _string_map(value, "snapshot.summary", "summary")
    operation = dict(summary).get("operation")
    if operation is None:
        raise InvalidInput("snapshot.summary", "the summary must include operation", value)
    if operation not in OPERATIONS:
        raise InvalidInput("snapshot.operation", f"operation must be one of {', '.join(OPERATIONS)}", operation)
    return summary


@implements("snapshot.parent")
def ancestors(snapshot_id: int, snapshots_by_id: Mapping[int, Snapshot]) -> tuple[Snapshot, ...]:
    """The snapshot `snapshot_id` and its ancestors, newest first, up to the first snapshot without
    a parent or whose parent has expired (is not in `snapshots_by_id`). An unknown `snapshot_id`
    gives (). A cycle in the parent chain is rejected (`snapshot.parent`)."""
    chain: list[Snapshot] = []
    seen: set[int] = set()
    current = snapshots_by_id.get(snapshot_id)
    while current is not None:
        if current.snapshot_id in seen:
            raise InvalidInput(
                "snapshot.parent", "the parent chain contains a cycle through snapshot", current.snapshot_id
            )
        seen.add(current.snapshot_id)
        chain.append(current)
        parent = current.parent_snapshot_id
        current = None if parent is None else snapshots_by_id.get(parent)
    return tuple(chain)


# --- references --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SnapshotRef:
    """A branch or tag ("Snapshot Reference"); the retention fields are None when not set."""

    snapshot_id: int
    type: str
    min_snapshots_to_keep: int | None = None
    max_snapshot_age_ms: int | None = None
    max_ref_age_ms: int | None = None

    @implements("ref.branch-only-retention", "ref.positive", "ref.type")
    def __post_init__(self):
        if self.type not in (BRANCH, TAG):
            raise InvalidInput("ref.type", "a reference's type must be branch or tag", self.type)
        if self.type == TAG:
            for key, value in (
                ("min-snapshots-to-keep", self.min_snapshots_to_keep),
                ("max-snapshot-age-ms", self.max_snapshot_age_ms),
            ):
                if value is not None:
                    raise InvalidInput("ref.branch-only-retention", f"{key} is for branches only; a tag sets", value)
        for key, value in (
            ("min-snapshots-to-keep", self.min_snapshots_to_keep),
            ("max-snapshot-age-ms", self.max_snapshot_age_ms),
            ("max-ref-age-ms", self.max_ref_age_ms),
        ):
            if value is not None and value <= 0:
                raise InvalidInput("ref.positive", f"{key} must be a positive number", value)

    @property
    def is_branch(self) -> bool:
        return self.type == BRANCH

    def to_json(self) -> dict:
        """Appendix C refs value."""
        out: dict[str, Any] = {"snapshot-id": self.snapshot_id, "type": self.type}
        for key, value in (
            ("min-snapshots-to-keep", self.min_snapshots_to_keep),
            ("max-snapshot-age-ms", self.max_snapshot_age_ms),
            ("max-ref-age-ms", self.max_ref_age_ms),
        ):
            if value is not None:
                out[key] = value
        return out


@implements("ref.json")
def parse_ref(obj: Any) -> SnapshotRef:
    """Read one value of the refs map ("Snapshot Reference"; Appendix C)."""
    obj = _object(obj, "ref.json", "a snapshot reference")
    snapshot_id = _long(obj, "snapshot-id", "ref.json")
    ref_type = obj.get("type")
    if not isinstance(ref_type, str):
        raise InvalidInput("ref.json", "a reference needs a type string", ref_type)
    min_keep = _long(obj, "min-snapshots-to-keep", "ref.json", required=False, lo=_INT_MIN, hi=_INT_MAX)
    max_age = _long(obj, "max-snapshot-age-ms", "ref.json", required=False)
    max_ref_age = _long(obj, "max-ref-age-ms", "ref.json", required=False)
    if ref_type.lower() in (BRANCH, TAG):  # Java reads the type case-insensitively
        ref_type = ref_type.lower()
    return SnapshotRef(snapshot_id, ref_type, min_keep, max_age, max_ref_age)


@implements("ref.current-snapshot")
def parse_current_snapshot_id(value: Any) -> int | None:
    """Table metadata `current-snapshot-id`: None for absent, null or -1 (no current snapshot)."""
    if value is None or (_is_int(value) and value == -1):
        return None
    if not _is_int(value):
        raise InvalidInput("ref.current-snapshot", "current-snapshot-id must be a long, -1 or null", value)
    return value


def current_snapshot_id_to_json(snapshot_id: int | None, format_version: int) -> int | None:
    """The written `current-snapshot-id`: -1 for none in v1/v2, null in v3 (as Java 1.10 writes)."""
    _check_version(format_version)
    if snapshot_id is None:
        return None if format_version >= 3 else -1
    return snapshot_id


@implements("ref.current-snapshot", "ref.json", "ref.main-branch")
def resolve_refs(refs_json: Any, current_snapshot_id: Any, format_version: int) -> dict[str, SnapshotRef]:
    """The table's references ("Table Metadata Fields": refs, current-snapshot-id).

    `refs_json` is the refs map or None; `current_snapshot_id` the raw JSON value. The main branch
    is implied when missing and there is a current snapshot; a `main` that is not a branch, or
    whose snapshot differs from current-snapshot-id, is rejected."""
    _check_version(format_version)
    current = parse_current_snapshot_id(current_snapshot_id)
    if refs_json is None:
        refs_json = {}
    if not isinstance(refs_json, dict):
        raise InvalidInput("ref.json", "refs must be a JSON object of reference name to reference", refs_json)
    refs = {name: parse_ref(value) for name, value in refs_json.items()}
    main = refs.get(MAIN_BRANCH)
    if main is None:
        if current is not None:
            refs = {MAIN_BRANCH: SnapshotRef(current, BRANCH), **refs}
        return refs
    if not main.is_branch:
        raise InvalidInput("ref.main-branch", "the main reference must be a branch", main.type)
    if current is None:
        raise InvalidInput(
            "ref.current-snapshot",
            "the table has no current-snapshot-id but the main branch points to a snapshot",
            main.snapshot_id,
        )
    if main.snapshot_id != current:
        raise InvalidInput(
            "ref.current-snapshot",
            f"current-snapshot-id {current} differs from the main branch's snapshot-id",
            main.snapshot_id,
        )
    return refs


def refs_to_json(refs: Mapping[str, SnapshotRef]) -> dict:
    """The Appendix C refs map."""
    return {name: ref.to_json() for name, ref in refs.items()}


# --- snapshot log and whole-table checks -------------------------------------------------------


@dataclass(frozen=True)
class SnapshotLogEntry:
    """One snapshot-log entry: when `snapshot_id` became the current snapshot."""

    timestamp_ms: int
    snapshot_id: int

    def to_json(self) -> dict:
        return {"timestamp-ms": self.timestamp_ms, "snapshot-id": self.snapshot_id}


@implements("snapshot-log.json")
def parse_snapshot_log(obj: Any) -> tuple[SnapshotLogEntry, ...]:
    """Read the snapshot-log list (None reads as empty)."""
    if obj is None:
        return ()
    if not isinstance(obj, list):
        raise InvalidInput("snapshot-log.json", "snapshot-log must be a list", obj)
    entries = []
    for item in obj:
        item = _object(item, "snapshot-log.json", "a snapshot-log entry")
        entries.append(
            SnapshotLogEntry(
                _long(item, "timestamp-ms", "snapshot-log.json"), _long(item, "snapshot-id", "snapshot-log.json")
            )
        )
    return tuple(entries)


@implements("ref.unknown-snapshot", "snapshot.last-sequence-number", "snapshot.sequence-order", "snapshot.unique-id")
def validate_snapshots(
    snapshots: Iterable[Snapshot],
    refs: Mapping[str, SnapshotRef],
    last_sequence_number: int | None,
    format_version: int,
    *,
    snapshot_log: Iterable[SnapshotLogEntry] = (),
    next_row_id: int | None = None,
    revision: str = revisions.DEFAULT,
) -> dict[int, Snapshot]:
    """Check the table-level snapshot rules and return the snapshots by id.

    Unique ids; parent chains without cycles (expired parents allowed); v2+: sequence numbers
    increase along parents and do not exceed `last_sequence_number`; refs point to known
    snapshots; the snapshot log is ordered and names known snapshots after any expired prefix;
    v3 (adopted, when `next_row_id` is given): row-id ranges end at or below `next_row_id` and
    do not overlap."""
    _check_version(format_version)
    revisions.check(revision)
    by_id: dict[int, Snapshot] = {}
    for s in snapshots:
        if s.snapshot_id in by_id:
            raise InvalidInput("snapshot.unique-id", "two snapshots have the snapshot-id", s.snapshot_id)
        by_id[s.snapshot_id] = s
    _check_parent_chains_end(by_id)
    for s in by_id.values():
        parent = by_id.get(s.parent_snapshot_id) if s.parent_snapshot_id is not None else None
        if (
            format_version >= 2
            and parent is not None
            and s.sequence_number <= parent.sequence_number
            and not (s.sequence_number == parent.sequence_number == 0)
        ):
            raise InvalidInput(
                "snapshot.sequence-order",
                f"snapshot {s.snapshot_id} has a sequence-number not above its parent's {parent.sequence_number}",
                s.sequence_number,
            )
        if format_version >= 2 and last_sequence_number is not None and s.sequence_number > last_sequence_number:
            raise InvalidInput(
                "snapshot.last-sequence-number",
                f"snapshot {s.snapshot_id} has a sequence-number above last-sequence-number {last_sequence_number}",
                s.sequence_number,
            )
    for name, ref in refs.items():
        if ref.snapshot_id not in by_id:
            raise InvalidInput(
                "ref.unknown-snapshot",
                f"reference {name!r} points to a snapshot that is not in the table",
                ref.snapshot_id,
            )
    _check_log(tuple(snapshot_log), by_id)
    if format_version >= 3 and has(revision, V3_ADOPTED) and next_row_id is not None:
        _check_row_ranges(by_id.values(), next_row_id)
    return by_id


@implements("snapshot.parent")
def _check_parent_chains_end(by_id: Mapping[int, Snapshot]) -> None:
    """No parent chain has a cycle (rule snapshot.parent), in time linear in the snapshots: a walk up
    the parents stops at a snapshot an earlier walk already followed to its end."""
    ends: set[int] = set()
    for start in by_id:
        on_walk: set[int] = set()
        current = by_id.get(start)
        while current is not None and current.snapshot_id not in ends:
            if current.snapshot_id in on_walk:
                raise InvalidInput(
                    "snapshot.parent", "the parent chain contains a cycle through snapshot", current.snapshot_id
                )
            on_walk.add(current.snapshot_id)
            parent = current.parent_snapshot_id
            current = None if parent is None else by_id.get(parent)
        ends |= on_walk


@implements("snapshot-log.order", "snapshot-log.unknown-snapshot")
def _check_log(log: tuple[SnapshotLogEntry, ...], by_id: Mapping[int, Snapshot]) -> None:
    for before, after in pairwise(log):
        if after.timestamp_ms < before.timestamp_ms - LOG_CLOCK_SKEW_MS:
            raise InvalidInput(
                "snapshot-log.order",
                f"snapshot-log entry for snapshot {after.snapshot_id} goes back in time before {before.timestamp_ms}",
                after.timestamp_ms,
            )
    seen_known = False
    for entry in log:
        if entry.snapshot_id in by_id:
            seen_known = True
        elif seen_known:
            raise InvalidInput(
                "snapshot-log.unknown-snapshot",
                "snapshot-log names an expired or unknown snapshot after a retained one (entries before an "
                "expired snapshot should be removed)",
                entry.snapshot_id,
            )


@implements("snapshot.next-row-id", "snapshot.row-range")
def _check_row_ranges(snapshots: Iterable[Snapshot], next_row_id: int) -> None:
    ranges = sorted(
        (s.first_row_id, s.first_row_id + s.added_rows, s.snapshot_id)
        for s in snapshots
        if s.first_row_id is not None and s.added_rows is not None
    )
    for _start, end, snapshot_id in ranges:
        if end > next_row_id:
            raise InvalidInput(
                "snapshot.next-row-id",
                f"snapshot {snapshot_id}: first-row-id + added-rows exceeds the table's next-row-id {next_row_id}",
                end,
            )
    ranges = [r for r in ranges if r[1] > r[0]]  # a snapshot that added no rows assigned no ids
    for (_, end, first), (start, _, second) in pairwise(ranges):
        if start < end:
            raise InvalidInput(
                "snapshot.row-range", f"the row ids of snapshots {first} and {second} overlap from", start
            )
