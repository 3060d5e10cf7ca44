"""The v4 "Single File Commits" proposal: each of its examples as a replayed tree with its live
set, and trees that break each of its rules. Cases whose rule rests on an interpretation of the
proposal (`spec_impl.v4.PROVISIONAL_RULES`) carry the note "provisional".
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Callable, Iterator

from spec_impl.v4.commits import append, compact, delete_files, overwrite, row_delta
from spec_impl.v4.entries import ADDED, DELETED, EXISTING, DeletionVectorRef, data_file
from spec_impl.v4.files import inline_manifest_dv, write_manifest
from spec_impl.v4.replay import replay
from spec_impl.vectors.cases import CaseSpec, case
from spec_impl.vectors.families import _v4_entry_cases
from spec_impl.vectors.families._v4_tables import D, L, Table, _note, files

NAME = "v4-root-manifests"
DESCRIPTION = (
    "Format v4 proposal (Single File Commits): root manifests, content entries, manifest delete vectors, "
    "commit procedures"
)

# --- the proposal's examples ---------------------------------------------------------------------------


def _examples() -> Iterator[tuple[str, str, Table]]:
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(append, files(4))
    t.apply(append, files(5))
    yield (
        "append-to-root",
        "Appends To the Root Manifest: D4, then D5 as ADDED data entries of the root, M1 carried EXISTING",
        t,
    )
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(append, files(4, 5, 6), layout="manifest")
    yield "append-new-leaf", "Appends to the Root Manifest using new Data Manifests: M2 added beside M1", t
    t = Table()
    t.apply(append, files(1, 2))
    t.apply(delete_files, [D(1)])
    yield "remove-from-root", "Removing a File From the Root Manifest: D1 DELETED in the root", t
    for storage in ("inline", "puffin"):
        t = Table()
        t.apply(append, files(1, 2, 3), layout="manifest")
        t.apply(delete_files, [D(2)], dv_storage=storage)
        yield (
            f"remove-from-leaf-{storage}",
            f"Removing a File From a Leaf Manifest: a manifest DV ({storage}) marks D2 in M1",
            t,
        )
    t = Table()
    t.apply(append, files(1))
    t.apply(overwrite, [D(1)], files(2))
    t.apply(overwrite, [D(2)], files(3))
    yield "overwrite-in-root", "Overwrite Files in Root Manifest: D2 replaces D1, then D3 replaces D2", t
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(overwrite, [D(2)], files(4))
    yield "overwrite-in-leaf", "Overwrite Files in Leaf Manifest: a manifest DV removes D2 from M1 and D4 is added", t
    t = Table()
    t.apply(append, files(1))
    t.apply(row_delta, {D(1): [0, 3]}, add=files(2))
    yield "row-delta-root-only", "Root Manifest Only Row Delta: D2 and a DV for D1 added at the root", t
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")
    t.apply(row_delta, {D(1): [0], D(2): [1]}, layout="manifest", dv_storage="puffin")
    t.apply(row_delta, {D(1): [5]}, add=files(3), layout="manifest")
    yield (
        "row-delta-complex",
        "A Complex Row Delta with Modified Delete Vectors: DV1 replaced by DV4 = DV1 + new deletes for D1",
        t,
    )
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(append, files(4, 5, 6), layout="manifest")
    t.apply(delete_files, [D(1), D(5)])
    t.apply(append, files(7), compact=True)
    yield (
        "compaction-during-append",
        "Manifest Compaction During an Append: M1 and M2 with their manifest DVs compacted into M3 (EXISTING)",
        t,
    )
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")
    t.apply(row_delta, {D(1): [0]}, layout="manifest", affiliate=f"{L}/metadata/1-data.avro")
    yield (
        "affinity",
        "Optional Affinity between Data and Delete Manifests: the delete manifest names its data manifest",
        t,
    )
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(append, files(4, 5, 6), layout="manifest")
    t.apply(compact)
    yield "compaction-no-net-change", "Manifest Compaction: a compaction-only commit, no change to the live set", t


# --- invalid trees ---------------------------------------------------------------------------------------


def _leaf_table() -> Table:
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    t.apply(delete_files, [D(2)])
    return t


def _root_table() -> Table:
    t = Table()
    t.apply(append, files(1, 2))
    return t


def _edited(index: int, table: Callable[[], Table] = _leaf_table, **changes) -> Callable[[], Table]:
    def build() -> Table:
        t = table()
        c = t.commits[-1]
        entries = list(c.written)
        entries[index] = dataclasses.replace(entries[index], **changes)
        t.files[c.root.location] = write_manifest("root", entries)
        return t

    return build


def _dv_positions_outside_leaf() -> Table:
    t = _leaf_table()
    c = t.commits[-1]
    entries = list(c.written)
    entries[1] = inline_manifest_dv(entries[1].location, entries[1].referenced_file, [1, 3])
    t.files[c.root.location] = write_manifest("root", entries)
    return t


def _silent_removal() -> Table:
    t = Table()
    t.apply(append, files(1, 2))
    c = t.apply(delete_files, [D(1)])
    t.files[c.root.location] = write_manifest("root", c.written[:1])
    return t


def _leaf_with_deleted_entry() -> Table:
    t = _leaf_table()
    leaf = f"{L}/metadata/1-data.avro"
    from spec_impl.v4.files import read_manifest

    entries = list(read_manifest(t.files[leaf], leaf).entries)
    entries[2] = entries[2].with_status(DELETED, sequence_number=1, file_sequence_number=1)
    t.files[leaf] = write_manifest("data", entries)
    return t


def _whole_leaf_dropped() -> Table:
    t = Table()
    t.apply(append, files(1, 2, 3), layout="manifest")
    c = t.apply(append, files(4))
    t.files[c.root.location] = write_manifest("root", [c.written[1], c.written[0].with_status(DELETED, snapshot_id=2)])
    return t


def _affinity_to_other_leaf() -> Table:
    t = Table()
    t.apply(append, files(1, 2), layout="manifest")
    t.apply(append, files(3), layout="manifest")
    c = row_delta(
        t.state, t.read, 3, {D(2): [1]}, layout="manifest", affiliate=f"{L}/metadata/2-data.avro"
    )  # D2 is in M1
    t.files.update(c.files)
    t.commits.append(c)
    return t


def _dv_for_other_manifest() -> Table:
    t = _leaf_table()
    c = t.commits[-1]
    entries = list(c.written)
    entries[1] = inline_manifest_dv(entries[1].location, f"{L}/metadata/other.avro", [1])
    t.files[c.root.location] = write_manifest("root", entries)
    return t


def _manifest_dv_in_leaf() -> Table:
    from spec_impl.v4.files import read_manifest

    t = _leaf_table()
    leaf = f"{L}/metadata/1-data.avro"
    entries = list(read_manifest(t.files[leaf], leaf).entries)
    t.files[leaf] = write_manifest("data", entries + [inline_manifest_dv("x#dv", leaf, [0])])
    return t


def _manifest_entry_in_leaf(content_type: int) -> Callable[[], Table]:
    """A leaf manifest holding an entry of a manifest (3: data manifest, 4: delete manifest), which
    only the root may hold."""

    def build() -> Table:
        from spec_impl.v4.files import read_manifest

        t = _leaf_table()
        leaf = f"{L}/metadata/1-data.avro"
        entries = list(read_manifest(t.files[leaf], leaf).entries)
        nested = dataclasses.replace(entries[0], content_type=content_type, location=f"{L}/metadata/nested.avro")
        t.files[leaf] = write_manifest("data", entries + [nested])
        return t

    return build


def _compacted(drop: bool, add: bool, status: int = EXISTING) -> Callable[[], Table]:
    """A 'compaction' of M1 into M3 that drops D2 (a net change), adds D9 (new files merged in), or
    is marked with another status than EXISTING."""
    from spec_impl.v4.commits import manifest_stats
    from spec_impl.v4.entries import DATA_MANIFEST, ContentEntry

    def build() -> Table:
        t = Table()
        t.apply(append, files(1, 2, 3), layout="manifest")
        c = t.apply(append, files(4))
        m1 = c.written[0]
        kept = [
            e.with_status(EXISTING)
            for e in replay(t.read, t.commits[0].root).leaves[m1.location]
            if not (drop and e.location == D(2))
        ]
        kept += [data_file(D(9), 1)] if add else []
        data = write_manifest("data", kept)
        t.files[f"{L}/metadata/m3.avro"] = data
        m3 = ContentEntry(
            DATA_MANIFEST,
            f"{L}/metadata/m3.avro",
            "avro",
            2,
            EXISTING,
            2,
            2,
            2,
            file_size_in_bytes=len(data),
            manifest_stats=manifest_stats(kept, 2),
        )
        m3 = dataclasses.replace(m3, record_count=len(kept), status=status)
        t.files[c.root.location] = write_manifest("root", [m3, c.written[1], m1.with_status(DELETED, snapshot_id=2)])
        return t

    return build


INVALID: list[tuple[str, str, str, Callable[[], Table]]] = [
    (
        "v4.entry.deletion-vector",
        "dv-on-data-manifest",
        "a data manifest entry with a deletion_vector",
        _edited(0, deletion_vector=DeletionVectorRef(1, 2)),
    ),
    (
        "v4.entry.deletion-vector",
        "manifest-dv-without-vector",
        "a manifest DV entry without its deletion_vector",
        _edited(1, deletion_vector=None),
    ),
    (
        "v4.dv.storage",
        "inline-and-offset",
        "an inline manifest DV that also names a Puffin range",
        _edited(1, deletion_vector=DeletionVectorRef(4, 10, b"x")),
    ),
    (
        "v4.dv.storage",
        "puffin-offset-without-size",
        "a manifest DV in a Puffin file with an offset and no size_in_bytes",
        _edited(1, deletion_vector=DeletionVectorRef(4, None), file_size_in_bytes=100),
    ),
    (
        "v4.dv.storage",
        "puffin-size-without-offset",
        "a manifest DV in a Puffin file with a size_in_bytes and no offset",
        _edited(1, deletion_vector=DeletionVectorRef(None, 10), file_size_in_bytes=100),
    ),
    (
        "v4.entry.manifest-stats",
        "manifest-without-stats",
        "a data manifest entry without manifest_stats",
        _edited(0, manifest_stats=None),
    ),
    (
        "v4.manifest-stats.counts",
        "wrong-record-count",
        "a manifest entry whose record_count is not its number of entries",
        _edited(0, record_count=7),
    ),
    (
        "v4.entry.manifest-sequence-number",
        "file-sequence-differs",
        "a manifest entry whose file sequence number differs from its sequence number",
        _edited(0, file_sequence_number=9),
    ),
    (
        "v4.entry.referenced-file",
        "data-manifest-references-file",
        "a data manifest entry with a referenced_file",
        _edited(0, referenced_file=D(1)),
    ),
    (
        "v4.entry.sort-order-id",
        "manifest-with-sort-order",
        "a manifest entry with a sort_order_id",
        _edited(0, sort_order_id=1),
    ),
    (
        "v4.entry.split-offsets",
        "split-offsets-descending",
        "a data file entry whose split_offsets [4, 8192, 4096] are not sorted ascending",
        _edited(0, _root_table, split_offsets=(4, 8192, 4096)),
    ),
    (
        "v4.entry.equality-ids",
        "manifest-with-equality-ids",
        "a manifest entry with equality_ids",
        _edited(0, equality_ids=(1,)),
    ),
    (
        "v4.entry.file-size",
        "manifest-without-size",
        "a manifest entry without file_size_in_bytes",
        _edited(0, file_size_in_bytes=None),
    ),
    (
        "v4.root.carried-existing",
        "carried-as-added",
        "a manifest carried from the parent root marked ADDED",
        _edited(0, status=ADDED),
    ),
    (
        "v4.inherit",
        "existing-without-sequence-numbers",
        "an EXISTING root entry without sequence numbers",
        _edited(0, sequence_number=None, file_sequence_number=None),
    ),
    (
        "v4.status.added",
        "new-dv-as-existing",
        "the commit's new manifest DV marked EXISTING",
        _edited(1, status=EXISTING),
    ),
    (
        "v4.manifest-dv.positions",
        "dv-beyond-leaf",
        "a manifest DV marking ordinal 3 of a leaf with 3 entries",
        _dv_positions_outside_leaf,
    ),
    (
        "v4.root.deleted-entries",
        "silent-removal",
        "a file of the parent root dropped without a DELETED entry",
        _silent_removal,
    ),
    (
        "v4.leaf.no-deleted",
        "leaf-with-deleted-entry",
        "a v4 leaf manifest holding a DELETED entry",
        _leaf_with_deleted_entry,
    ),
    (
        "v4.affinity.targets",
        "affiliated-to-other-leaf",
        "a delete manifest affiliated to a data manifest that does not hold its DV's data file",
        _affinity_to_other_leaf,
    ),
    (
        "v4.manifest-dv.target",
        "dv-for-other-manifest",
        "a manifest DV whose referenced_file is no live leaf manifest of the root",
        _dv_for_other_manifest,
    ),
    (
        "v4.tree.root-only",
        "manifest-dv-in-leaf",
        "a manifest DV inside a leaf manifest: types 3, 4 and 5 belong in the root",
        _manifest_dv_in_leaf,
    ),
    (
        "v4.tree.root-only",
        "data-manifest-in-leaf",
        "a data manifest entry (content type 3) inside a leaf manifest",
        _manifest_entry_in_leaf(3),
    ),
    (
        "v4.tree.root-only",
        "delete-manifest-in-leaf",
        "a delete manifest entry (content type 4) inside a leaf manifest",
        _manifest_entry_in_leaf(4),
    ),
    (
        "v4.compaction.no-net-change",
        "compaction-drops-a-file",
        "a compacted manifest that loses D2",
        _compacted(drop=True, add=False),
    ),
    (
        "v4.compaction.no-merge",
        "compaction-merges-new-file",
        "a compacted manifest that takes in a new file D9",
        _compacted(drop=False, add=True),
    ),
    (
        "v4.status.existing",
        "compaction-as-added",
        "a compacted manifest (no change of table data) marked ADDED",
        _compacted(drop=False, add=False, status=ADDED),
    ),
    (
        "v4.commit.no-copy-on-write",
        "whole-leaf-dropped",
        "a commit that deletes a whole leaf manifest to remove one file",
        _whole_leaf_dropped,
    ),
]


def specs() -> Iterator[CaseSpec]:
    for slug, description, t in _examples():
        yield case(
            "v4.replay.live-files",
            slug,
            f"{description}: the live data files and the deletes that apply to each",
            "v4-replay",
            note=_note("v4.replay.live-files"),
            **t.inputs(parent=False),
        )
        yield case(
            "v4.tree.depth",
            f"{slug}-valid",
            f"{description}: a valid snapshot (no violation of any rule against its parent)",
            "v4-validate",
            **t.inputs(),
        )
    for rule, slug, description, build in INVALID:
        yield case(rule, slug, f"invalid tree: {description}", "v4-validate", note=_note(rule), **build().inputs())
    yield from _manifest_files()
    yield from _upgrades()
    yield from _v4_entry_cases.specs()


def _manifest_files() -> Iterator[CaseSpec]:
    """Reading one v4 manifest file: its entries, or the rule a malformed one breaks."""
    from spec_impl.manifests.avro_files import write_avro
    from spec_impl.v4.entries import content_entry_schema

    t = _leaf_table()
    root = t.commits[-1].root.location
    good = t.files[root]
    records = [e.to_record() for e in t.commits[-1].written]

    def with_record(change: dict, meta: dict | None = None, schema: dict | None = None) -> str:
        rs = [dict(records[0], **change)] + records[1:]
        return base64.b64encode(
            write_avro(schema or content_entry_schema(), rs, meta or {"format-version": "4", "content": "root"})
        ).decode()

    lax = content_entry_schema()  # a writer schema that lets record_count be null, as a careless writer's might
    for f in lax["fields"]:
        if f["name"] == "record_count":
            f["type"], f["default"] = ["null", "long"], None

    yield case(
        "v4.manifest.metadata",
        "root-manifest",
        "a root manifest: format-version 4, content root; its entries",
        "v4-read-manifest",
        file_base64=base64.b64encode(good).decode(),
    )
    yield case(
        "v4.manifest.metadata",
        "unknown-content",
        "key-value metadata content 'roots'",
        "v4-read-manifest",
        file_base64=with_record({}, {"format-version": "4", "content": "roots"}),
    )
    yield case(
        "v4.entry.content-type",
        "content-type-6",
        "content_type 6",
        "v4-read-manifest",
        file_base64=with_record({"content_type": 6}),
    )
    status = dict(records[0]["version_info"], status=3)
    yield case(
        "v4.entry.status",
        "status-3",
        "version_info.status 3",
        "v4-read-manifest",
        file_base64=with_record({"version_info": status}),
    )
    yield case(
        "v4.entry.required",
        "null-record-count",
        "a null record_count",
        "v4-read-manifest",
        file_base64=with_record({"record_count": None}, schema=lax),
    )
    yield case(
        "v4.entry.required",
        "unknown-file-format",
        "file_format 'csv': the format name is avro, orc, parquet or puffin",
        "v4-read-manifest",
        file_base64=with_record({"file_format": "csv"}),
    )
    yield from _malformed_entries(records[0])


def _writer_schema(name: str, avro_type: object) -> dict:
    """The content entry schema with field `name` written as `avro_type` (a careless writer's)."""
    from spec_impl.v4.entries import content_entry_schema

    schema = content_entry_schema()
    for f in schema["fields"]:
        if f["name"] == name:
            f["type"] = avro_type
            f.pop("default", None)
            if isinstance(avro_type, list) and avro_type[0] == "null":
                f["default"] = None
    return schema


def _malformed_entries(record: dict) -> Iterator[CaseSpec]:
    """One-entry root manifests whose entry has a required field null or a field of another type, one
    at a time (rule v4.entry.required)."""
    from spec_impl.manifests.avro_files import write_avro

    def one(name: str, avro_type: object, value: object) -> str:
        data = write_avro(
            _writer_schema(name, avro_type), [dict(record, **{name: value})], {"format-version": "4", "content": "root"}
        )
        return base64.b64encode(data).decode()

    for name, avro_type in (("location", "string"), ("file_format", "string"), ("partition_spec_id", "int")):
        yield case(
            "v4.entry.required",
            f"null-{name.replace('_', '-')}",
            f"a null {name}",
            "v4-read-manifest",
            file_base64=one(name, ["null", avro_type], None),
        )
    for name, avro_type, value in (
        ("version_info", ["null", "long"], 7),
        ("key_metadata", ["null", "string"], "k"),
        ("deletion_vector", ["null", "long"], 5),
        ("partition_spec_id", ["null", "string"], "0"),
    ):
        yield case(
            "v4.entry.required",
            f"{name.replace('_', '-')}-wrong-type",
            f"{name} written as {avro_type[1]} {value!r}",
            "v4-read-manifest",
            file_base64=one(name, avro_type, value),
        )


def _upgrades() -> Iterator[CaseSpec]:
    """The first v4 commit after a v3 snapshot: the manifest list becomes root entries, v3 manifests stay leaves."""
    from spec_impl.manifests.inheritance import ADDED as V3_ADDED
    from spec_impl.manifests.writer import TreeWriter, data_file as v3_data_file, entry as v3_entry

    schema = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}
    w = TreeWriter(L, 3, schema)
    rows = w.commit(
        1,
        "append",
        [
            w.write_manifest(
                "m1.avro", [v3_entry(V3_ADDED, v3_data_file(D(1), 10)), v3_entry(V3_ADDED, v3_data_file(D(2), 20))]
            )
        ],
    )
    w.commit(2, "append", [w.write_manifest("m2.avro", [v3_entry(V3_ADDED, v3_data_file(D(3), 30))])], rows)
    inputs = {
        "files": {p: base64.b64encode(d).decode() for p, d in sorted(w.files.items())},
        "metadata_location": w.metadata_location,
    }
    yield case(
        "v4.upgrade.migration",
        "v3-manifest-list",
        "a v3 snapshot of two manifests upgraded, then D2 removed from the v3 leaf m1 "
        "with a manifest DV: root entries and live files",
        "v4-upgrade",
        remove=[D(2)],
        **inputs,
    )
    yield case(
        "v4.upgrade.v3-leaves",
        "v3-leaves-read",
        "the v3 leaves of the upgraded root read as v3 defines: D1, D2, D3 live before any change",
        "v4-upgrade",
        remove=[],
        **inputs,
    )
    yield case(
        "v4.commit.target",
        "remove-missing-file",
        "removing a file the snapshot does not have",
        "v4-upgrade",
        remove=[D(7)],
        **inputs,
    )
