"""The v4 validator: a snapshot's root and leaves checked against the proposal's rules, and, given
its parent, the commit that produced it; every violation reported with its rule id.

Proposal: "Root Manifests", "Commit Procedure", "Manifest Compaction", "Proposed Manifest
Structure" (field descriptions), "Optional Affinity"; the interpretations of the package
docstring (rules in `spec_impl.v4.PROVISIONAL_RULES`).

    violations = validate_snapshot(InMemoryFiles(files).read, SnapshotRoot(root, 2, 2), parent=SnapshotRoot(prev, 1, 1))
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import SpecError
from spec_impl.manifests.file_fields import unsorted_split_offsets
from spec_impl.manifests.validate import Violation
from spec_impl.rules import Rule, register, implements
from spec_impl.v4.sections import (
    SECTION_AFFINITY,
    SECTION_COMMIT,
    SECTION_COMPACTION,
    SECTION_ROOT,
    SECTION_STRUCTURE,
    V4,
)
from spec_impl.v4.commits import TableState, manifest_stats
from spec_impl.v4.entries import (
    ADDED,
    DATA,
    DATA_MANIFEST,
    DELETE_MANIFEST,
    DELETED,
    EQUALITY_DELETE,
    EXISTING,
    MANIFEST_DV,
    MANIFEST_TYPES,
    POSITION_DELETE,
    STATUS_NAMES,
    ContentEntry,
)
from spec_impl.v4.files import check_dv_storage, dv_positions, read_manifest
from spec_impl.v4.replay import LiveFiles, SnapshotRoot, inherit, read_leaf, read_root, replay_entries, require_root

_S = SECTION_STRUCTURE
register(
    Rule(
        "v4.entry.deletion-vector",
        f"{_S} (deletion_vector)",
        "deletion_vector must be defined if content type is 1 or 5 and must be null for all other types",
        *V4,
    ),
    Rule(
        "v4.entry.manifest-stats",
        f"{_S} (manifest_stats); {SECTION_ROOT} 3",
        "manifest_stats must be set if content_type is 3 or 4, otherwise null",
        *V4,
    ),
    Rule(
        "v4.manifest-stats.counts",
        f"{_S} (manifest_stats); {SECTION_ROOT} 3",
        "manifest_stats holds the counts of the leaf's entries by status and the minimum data sequence number of "
        "its live entries",
        *V4,
    ),
    Rule(
        "v4.entry.manifest-sequence-number",
        f"{_S} (version_info)",
        "sequence_number must equal file_sequence_number if the type is 3 or 4",
        *V4,
    ),
    Rule(
        "v4.entry.referenced-file",
        f"{_S} (referenced_file)",
        "referenced_file is the data file a DV references for type 1, the manifest a manifest DV references for "
        "type 5 (live in the same root), the affiliated data manifest or null for type 4, null otherwise",
        *V4,
    ),
    Rule("v4.entry.sort-order-id", f"{_S} (sort_order_id)", "sort_order_id can only be set if content_type is 0", *V4),
    Rule("v4.entry.split-offsets", f"{_S} (split_offsets)", "split_offsets, when set, is sorted ascending", *V4),
    Rule(
        "v4.entry.equality-ids",
        f"{_S} (equality_ids)",
        "equality_ids is required when content_type is 2 and null otherwise",
        *V4,
    ),
    Rule(
        "v4.entry.file-size",
        f"{_S} (file_size_in_bytes)",
        "file_size_in_bytes must be defined if location is defined: for every entry but an inline manifest DV",
        *V4,
    ),
    Rule(
        "v4.manifest-dv.positions",
        f"{SECTION_ROOT} 1.e; Examples (Removing a File From a Leaf Manifest)",
        "A manifest DV deletes ordinals (0-based entry positions) of its manifest: each below the manifest's "
        "entry count",
        *V4,
    ),
    Rule(
        "v4.leaf.no-deleted",
        f"{SECTION_COMMIT} (no copy on write)",
        "A v4 leaf manifest holds no DELETED entries: removals from leaves are manifest DVs",
        *V4,
    ),
    Rule(
        "v4.root.deleted-entries",
        f"{_S} (version_info.status)",
        "Deleted entries are required when the snapshot has a non-null parent-id: every live entry of the parent "
        "root that is not live in the child is a DELETED entry of the child root; a root without parent has none",
        *V4,
    ),
    Rule(
        "v4.root.carried-existing",
        f"{SECTION_COMMIT} (Adding data files / delete files)",
        "All previously existing entries are marked as EXISTING: an entry live in the parent root and kept is "
        "EXISTING with the same version values",
        *V4,
    ),
    Rule(
        "v4.status.added",
        f"{SECTION_ROOT} 4",
        "Any changes to underlying data are marked as ADDED: new files and manifests of new files, manifest DVs "
        "that delete live entries",
        *V4,
    ),
    Rule(
        "v4.status.existing",
        f"{SECTION_ROOT} 4; {SECTION_COMPACTION}",
        "Anything which does not change the actual data of the table is marked as EXISTING (compacted manifests "
        "and DVs)",
        *V4,
    ),
    Rule(
        "v4.commit.no-copy-on-write",
        SECTION_COMMIT,
        "A file leaves the table only through a DELETED root entry or a new position of an ADDED manifest DV; "
        "removing or rewriting a leaf manifest with a net change is not allowed",
        *V4,
    ),
    Rule(
        "v4.compaction.no-net-change",
        SECTION_COMPACTION,
        "Compactions must not create files which cause a net change to table state: a compacted manifest holds "
        "exactly live files of the parent",
        *V4,
    ),
    Rule(
        "v4.compaction.no-merge",
        SECTION_COMPACTION,
        "Combining new files or deletes of the snapshot with an existing manifest is not allowed: a new leaf "
        "manifest holds only ADDED entries of new files or only EXISTING entries",
        *V4,
    ),
    Rule(
        "v4.equality-delete.columns",
        f"{_S} (equality_ids)",
        "The fields equality_ids lists are columns of the equality delete file (as deletes.equality-columns for "
        "v2 and v3), checked for the delete files the tree's inputs hold",
        *V4,
    ),
    Rule(
        "v4.affinity.targets",
        SECTION_AFFINITY,
        "A delete manifest affiliated to a data manifest holds DVs only of data files of that data manifest",
        *V4,
    ),
)


class _Checker:
    def __init__(self, read: Any):
        self.read = read
        self.violations: list[Violation] = []

    def report(self, rule: str, path: str, message: str) -> None:
        v = Violation(rule, path, message)
        if v not in self.violations:
            self.violations.append(v)

    def error(self, e: SpecError, path: str) -> None:
        self.report(e.rule, path, str(e))

    # --- fields of one entry ----------------------------------------------------------------------
    @implements(
        "v4.entry.deletion-vector",
        "v4.entry.equality-ids",
        "v4.entry.file-size",
        "v4.entry.manifest-stats",
        "v4.entry.sort-order-id",
        "v4.entry.split-offsets",
    )
    def entry(self, e: ContentEntry, path: str, where: str, root_manifests: dict[str, ContentEntry] | None) -> None:
        t = e.content_type
        if (e.deletion_vector is not None) != (t in (POSITION_DELETE, MANIFEST_DV)):
            self.report(
                "v4.entry.deletion-vector",
                path,
                f"{where}: type {t} {'needs' if e.deletion_vector is None else 'must not have'} deletion_vector",
            )
        elif e.deletion_vector is not None:
            try:
                check_dv_storage(e, where)
            except SpecError as err:
                self.error(err, path)
        if (e.manifest_stats is not None) != (t in MANIFEST_TYPES):
            self.report(
                "v4.entry.manifest-stats",
                path,
                f"{where}: type {t} {'needs' if e.manifest_stats is None else 'must not have'} manifest_stats",
            )
        if e.sort_order_id is not None and t != DATA:
            self.report("v4.entry.sort-order-id", path, f"{where}: sort_order_id on a type {t} entry")
        if (unsorted := unsorted_split_offsets(e.split_offsets)) is not None:
            self.report("v4.entry.split-offsets", path, f"{where}: {unsorted}")
        if (e.equality_ids is not None) != (t == EQUALITY_DELETE):
            self.report("v4.entry.equality-ids", path, f"{where}: type {t} with equality_ids {e.equality_ids}")
        inline = e.deletion_vector is not None and e.deletion_vector.inline
        if e.file_size_in_bytes is None and not inline:
            self.report("v4.entry.file-size", path, f"{where}: file_size_in_bytes is required for {e.location}")
        self.referenced_file(e, path, where, root_manifests)

    @implements("v4.entry.referenced-file")
    def referenced_file(
        self, e: ContentEntry, path: str, where: str, manifests: dict[str, ContentEntry] | None
    ) -> None:
        t, ref = e.content_type, e.referenced_file
        if t in (POSITION_DELETE, MANIFEST_DV) and ref is None:
            self.report(
                "v4.entry.referenced-file",
                path,
                f"{where}: a type {t} entry names the file it applies to in referenced_file",
            )
        elif t in (DATA, EQUALITY_DELETE, DATA_MANIFEST) and ref is not None:
            self.report("v4.entry.referenced-file", path, f"{where}: referenced_file must be null for type {t}")
        elif manifests is not None and e.live and ref is not None:
            if t == MANIFEST_DV and ref not in manifests:
                self.report(
                    "v4.entry.referenced-file", path, f"{where}: manifest DV for {ref}, not a manifest live in the root"
                )
            if t == DELETE_MANIFEST and (ref not in manifests or manifests[ref].content_type != DATA_MANIFEST):
                self.report(
                    "v4.entry.referenced-file",
                    path,
                    f"{where}: affiliated to {ref}, not a data manifest live in the root",
                )

    # --- one snapshot -----------------------------------------------------------------------------------
    @implements("v4.entry.manifest-sequence-number", "v4.tree.root-only")
    def snapshot(self, root: SnapshotRoot) -> tuple[list[ContentEntry], LiveFiles] | None:
        try:
            stored = read_manifest(self.read(root.location), root.location)
        except SpecError as e:
            self.error(e, root.location)
            return None
        if stored.content != "root":
            self.report("v4.tree.root-only", root.location, f"a root manifest has content root, not {stored.content}")
        resolved = []
        for i, e in enumerate(stored.entries):
            try:
                resolved.append(inherit(e, root.snapshot_id, root.sequence_number, f"entry {i}"))
            except SpecError as err:
                self.error(err, root.location)
                resolved.append(e)
        manifests = {e.location: e for e in resolved if e.live and e.content_type in MANIFEST_TYPES}
        for i, (e, r) in enumerate(zip(stored.entries, resolved)):
            where = f"root entry {i} ({e.location})"
            self.entry(e, root.location, where, manifests)
            if e.content_type in MANIFEST_TYPES and r.sequence_number != r.file_sequence_number:
                self.report(
                    "v4.entry.manifest-sequence-number",
                    root.location,
                    f"{where}: sequence_number {r.sequence_number} != file_sequence_number {r.file_sequence_number}",
                )
        for m in manifests.values():
            self.leaf(m, manifests)
        try:
            live = replay_entries(self.read, resolved)
        except SpecError as e:
            self.error(e, root.location)
            return None
        for e in resolved:
            if e.live and e.content_type == MANIFEST_DV and e.referenced_file in live.leaves:
                self.manifest_dv(e, len(live.leaves[e.referenced_file]), root.location)
        for loc in live.files.values():
            if loc.entry.content_type == EQUALITY_DELETE and loc.entry.equality_ids is not None:
                self.equality_columns(loc.entry, loc.manifest or root.location)
        return resolved, live

    @implements("v4.equality-delete.columns")
    def equality_columns(self, e: ContentEntry, path: str) -> None:
        """The equality delete file's columns against its equality_ids, by the v2/v3 check
        (`deletes.apply.equality_delete`). The vectors' trees hold manifests and Puffin files; a
        delete file that `read` does not have is not opened."""
        from spec_impl.deletes.apply import equality_delete
        from spec_impl.scan.data_files import read_data_file

        try:
            data = self.read(e.location)
        except (KeyError, OSError):  # a caller's reader without the file
            return
        except SpecError as err:
            if err.rule == "tree.file-exists":
                return
            raise
        try:
            schema, rows = read_data_file(data, e.file_format, e.location)
            types = {} if schema is None else {f.id: f.type for f in schema.fields}
            equality_delete(e.location, e.equality_ids, rows, types)
        except SpecError as err:
            self.report("v4.equality-delete.columns", path, str(err))

    @implements("v4.affinity.targets", "v4.leaf.no-deleted", "v4.manifest-stats.counts")
    def leaf(self, m: ContentEntry, manifests: dict[str, ContentEntry]) -> None:
        try:
            f, entries = read_leaf(self.read, m)
        except SpecError as e:
            self.error(e, m.location)
            return
        if (
            m.manifest_stats is not None
            and m.sequence_number is not None
            and m.manifest_stats != manifest_stats(entries, m.sequence_number)
        ):
            self.report(
                "v4.manifest-stats.counts",
                m.location,
                f"manifest_stats {m.manifest_stats} != the leaf's {manifest_stats(entries, m.sequence_number)}",
            )
        if m.record_count != len(f):
            self.report(
                "v4.manifest-stats.counts",
                m.location,
                f"record_count {m.record_count}, the manifest has {len(f)} entries",
            )
        if f.format_version >= 4:
            for i, e in enumerate(f.entries):
                self.entry(e, m.location, f"entry {i} ({e.location})", None)
                if e.status == DELETED:
                    self.report("v4.leaf.no-deleted", m.location, f"entry {i} ({e.location}) is DELETED")
        if m.content_type == DELETE_MANIFEST and m.referenced_file in manifests:
            try:
                _, data = read_leaf(self.read, manifests[m.referenced_file])
            except SpecError:
                return
            paths = {e.location for e in data}
            for e in entries:
                if e.content_type == POSITION_DELETE and e.referenced_file not in paths:
                    self.report(
                        "v4.affinity.targets",
                        m.location,
                        f"DV {e.location} for {e.referenced_file}, not a file of {m.referenced_file}",
                    )

    @implements("v4.manifest-dv.positions")
    def manifest_dv(self, e: ContentEntry, count: int, path: str) -> None:
        try:
            positions = dv_positions(self.read, e)
        except SpecError as err:
            self.error(err, path)
            return
        beyond = sorted(p for p in positions if p >= count)
        if beyond:
            self.report(
                "v4.manifest-dv.positions",
                path,
                f"manifest DV {e.location} deletes ordinals {beyond} of {e.referenced_file}, which has {count} entries",
            )

    # --- the commit from the parent -----------------------------------------------------------------------
    @implements(
        "v4.commit.no-copy-on-write",
        "v4.compaction.no-net-change",
        "v4.root.carried-existing",
        "v4.root.deleted-entries",
    )
    def commit(
        self,
        child: list[ContentEntry],
        live: LiveFiles,
        parent: list[ContentEntry] | None,
        parent_live: LiveFiles | None,
        path: str,
    ) -> None:
        deleted = {e.key for e in child if e.status == DELETED}
        child_live = {e.key: e for e in child if e.live}
        if parent is None:
            for e in child:
                if e.status == DELETED:
                    self.report("v4.root.deleted-entries", path, f"{e.location} is DELETED in a root without parent")
            return
        parent_root = {e.key: e for e in parent if e.live}
        for key, e in parent_root.items():
            if key not in child_live and key not in deleted:
                self.report(
                    "v4.root.deleted-entries",
                    path,
                    f"{e.location} ({STATUS_NAMES[e.status]} in the parent) is neither kept nor DELETED",
                )
            kept = child_live.get(key)
            if kept is not None and (
                kept.status != EXISTING
                or kept.sequence_number != e.sequence_number
                or kept.snapshot_id != e.snapshot_id
            ):
                self.report(
                    "v4.root.carried-existing",
                    path,
                    f"{e.location} is kept as {STATUS_NAMES[kept.status]} with seq {kept.sequence_number}, "
                    f"snapshot {kept.snapshot_id}; expected EXISTING, seq {e.sequence_number}, snapshot "
                    f"{e.snapshot_id}",
                )
        for key in deleted - set(parent_root):
            self.report("v4.root.deleted-entries", path, f"{key[1]} is DELETED but was not live in the parent root")
        compacted = False
        for key, e in child_live.items():
            if key in parent_root:
                continue
            if e.content_type in MANIFEST_TYPES:
                compacted |= self.new_manifest(e, live, parent_live, path)
            elif e.content_type == MANIFEST_DV:
                self.new_manifest_dv(e, parent_live, path)
            else:
                self.expect_status(
                    e,
                    ADDED if key not in parent_live.files else EXISTING,
                    path,
                    "a file new to the table" if key not in parent_live.files else "a file live in the parent",
                )
        for key, loc in parent_live.files.items():
            if key in live.files or key in deleted:
                continue
            m = loc.manifest
            if m is not None and m in live.leaves and loc.ordinal in live.manifest_dvs.get(m, ()):
                continue  # removed by a manifest DV (whose status new_manifest_dv checks)
            rule = "v4.compaction.no-net-change" if compacted and m is not None else "v4.commit.no-copy-on-write"
            self.report(
                rule,
                path,
                f"{loc.entry.location} (in {m or 'the root'}) left the table without a DELETED entry or a manifest DV",
            )

    @implements("v4.status.added", "v4.status.existing")
    def expect_status(self, e: ContentEntry, status: int, path: str, why: str) -> None:
        if e.status != status:
            rule = "v4.status.added" if status == ADDED else "v4.status.existing"
            self.report(rule, path, f"{e.location} is {STATUS_NAMES[e.status]}; {why} is {STATUS_NAMES[status]}")

    @implements("v4.compaction.no-merge")
    def new_manifest(self, m: ContentEntry, live: LiveFiles, parent_live: LiveFiles, path: str) -> bool:
        entries = live.leaves.get(m.location, ())
        new = [e for e in entries if e.key not in parent_live.files]
        old = [e for e in entries if e.key in parent_live.files]
        statuses = {e.status for e in entries}
        if new and old or len(statuses) > 1:
            self.report(
                "v4.compaction.no-merge",
                m.location,
                f"a new manifest mixes {len(new)} new files with {len(old)} files live before, statuses "
                f"{sorted(statuses)}",
            )
            return False
        for e in new:
            self.expect_status(e, ADDED, m.location, "a new file")
        for e in old:
            self.expect_status(e, EXISTING, m.location, "a file live in the parent")
        if new:
            self.expect_status(m, ADDED, path, "a manifest of new files")
            return False
        self.expect_status(m, EXISTING, path, "a compacted manifest")
        return True

    def new_manifest_dv(self, e: ContentEntry, parent_live: LiveFiles, path: str) -> None:
        try:
            positions = dv_positions(self.read, e)
        except SpecError:
            return  # reported by the snapshot checks
        before = (
            parent_live.manifest_dvs.get(e.referenced_file, frozenset())
            if e.referenced_file in parent_live.leaves
            else frozenset()
        )
        changes = bool(positions - before)
        self.expect_status(
            e,
            ADDED if changes else EXISTING,
            path,
            "a manifest DV deleting live entries" if changes else "a manifest DV deleting nothing new",
        )


def _parent_entries(c: _Checker, parent: SnapshotRoot | TableState) -> tuple[list[ContentEntry], LiveFiles] | None:
    try:
        entries = (
            list(parent.entries) if isinstance(parent, TableState) else [e for e in read_root(c.read, parent) if e.live]
        )
        return entries, replay_entries(c.read, entries)
    except SpecError as e:
        c.error(e, getattr(parent, "location", ""))
        return None


def validate_snapshot(
    read: Any, root: SnapshotRoot, parent: SnapshotRoot | TableState | None = None
) -> list[Violation]:
    """Every violation of the snapshot whose root is `root`: its tree, and, when `parent` (the
    parent snapshot's root, or the `TableState` an upgrade gives) is given or None for a snapshot
    without parent, the commit that produced it. `read(path) -> bytes`."""
    c = _Checker(read)
    got = c.snapshot(require_root(root))
    if got is None:
        return c.violations
    child, live = got
    if parent is None:
        c.commit(child, live, None, None, root.location)
    else:
        p = _parent_entries(c, parent)
        if p is not None:
            c.commit(child, live, p[0], p[1], root.location)
    return c.violations
