"""More v4 trees for the validator and the replay: data DVs stored the wrong way, equality delete
files (added, scoped by partition spec, without equality_ids), a carried entry whose snapshot_id is
left to inheritance, and a manifest list given as a snapshot's root (proposal "Proposed Manifest
Structure", "Root Manifests" 1.d, "Commit Procedure", "Proposal").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from spec_impl.v4.commits import append, row_delta
from spec_impl.v4.entries import EXISTING, DeletionVectorRef, equality_delete
from spec_impl.v4.files import write_manifest
from spec_impl.vectors.cases import CaseSpec, case
from spec_impl.vectors.families._v4_tables import D, L, Table, _note, files


def EQ(n: int) -> str:
    return f"{L}/data/eq{n}.parquet"


def _data_dv_table() -> Table:
    """D1, then a row delta adding D2 and a data DV for D1 in a Puffin file (root entry 2)."""
    t = Table()
    t.apply(append, files(1))
    t.apply(row_delta, {D(1): [0, 3]}, add=files(2))
    return t


def _equality_delete_table() -> Table:
    """D1 (spec 0) and D2 (spec 1), then an equality delete file of spec 0 on field 1 (root entry 2)."""
    t = Table()
    t.apply(append, [*files(1), *(dataclasses.replace(f, partition_spec_id=1) for f in files(2))])
    t.apply(append, [equality_delete(EQ(1), 2)])
    return t


def _equality_file_table(equality_ids: tuple[int, ...], layout: str = "root") -> Table:
    """D1, then an equality delete file on `equality_ids` whose Parquet file (columns 1 id, 2 data)
    is in the tree's inputs."""
    from spec_impl.metadata.schema import parse_schema
    from spec_impl.scan.arrow_values import write_parquet

    t = Table()
    t.apply(append, files(1))
    t.apply(append, [equality_delete(EQ(1), 2, equality_ids=equality_ids)], layout=layout)
    fields = [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "data", "required": False, "type": "string"},
    ]
    schema = parse_schema({"type": "struct", "schema-id": 0, "fields": fields}, 2)
    t.files[EQ(1)] = write_parquet([{1: 5, 2: "a"}, {1: 7, 2: None}], schema)
    return t


def _edited(build: Callable[[], Table], index: int, **changes) -> Callable[[], Table]:
    """The table of `build` with root entry `index` of its last commit rewritten with `changes`."""

    def edited() -> Table:
        t = build()
        c = t.commits[-1]
        entries = list(c.written)
        entries[index] = dataclasses.replace(entries[index], **changes)
        t.files[c.root.location] = write_manifest("root", entries)
        return t

    return edited


def _inline_data_dv() -> Table:
    t = _data_dv_table()
    dv = t.commits[-1].written[2].deletion_vector
    blob = t.files[t.commits[-1].written[2].location][dv.offset : dv.offset + dv.size_in_bytes]
    return _edited(_data_dv_table, 2, deletion_vector=DeletionVectorRef(inline_content=blob))()


def _manifest_list_root() -> Table:
    """A v4 snapshot whose root location names a v3 manifest list (the first v3 snapshot's)."""
    from spec_impl.manifests.inheritance import ADDED as V3_ADDED
    from spec_impl.manifests.writer import TreeWriter, data_file as v3_data_file, entry as v3_entry

    schema = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}
    w = TreeWriter(L, 3, schema)
    w.commit(1, "append", [w.write_manifest("m1.avro", [v3_entry(V3_ADDED, v3_data_file(D(1), 10))])])
    t = Table()
    t.apply(append, files(1))
    listing = next(p for p in w.files if "snap-" in p)
    t.files[t.commits[-1].root.location] = w.files[listing]
    return t


INVALID: list[tuple[str, str, str, Callable[[], Table]]] = [
    (
        "v4.dv.storage",
        "inline-data-dv",
        "a data DV (type 1) whose deletion-vector-v1 blob is inline, not in a Puffin file",
        _inline_data_dv,
    ),
    (
        "v4.dv.storage",
        "data-dv-without-size",
        "a data DV in a Puffin file with an offset and no size_in_bytes",
        _edited(_data_dv_table, 2, deletion_vector=DeletionVectorRef(4, None)),
    ),
    (
        "v4.dv.storage",
        "data-dv-without-offset",
        "a data DV in a Puffin file with a size_in_bytes and no offset",
        _edited(_data_dv_table, 2, deletion_vector=DeletionVectorRef(None, 44)),
    ),
    (
        "v4.status.added",
        "new-equality-delete-as-existing",
        "the commit's new equality delete file marked EXISTING (adding deletes is the procedure of adding files)",
        _edited(_equality_delete_table, 2, status=EXISTING, snapshot_id=2, sequence_number=2, file_sequence_number=2),
    ),
    (
        "v4.entry.equality-ids",
        "equality-delete-without-ids",
        "an equality delete file entry (type 2) without equality_ids",
        _edited(_equality_delete_table, 2, equality_ids=None),
    ),
    (
        "v4.equality-delete.columns",
        "equality-id-not-in-file",
        "an equality delete file on field 3, which its Parquet file (fields 1 and 2) does not have",
        lambda: _equality_file_table((3,)),
    ),
    (
        "v4.equality-delete.columns",
        "equality-id-not-in-leaf-file",
        "an equality delete file of a delete manifest on fields 1 and 3; the file has fields 1 and 2",
        lambda: _equality_file_table((1, 3), "manifest"),
    ),
    (
        "v4.root.carried-existing",
        "carried-snapshot-id-null",
        "D1 carried EXISTING from the parent with a null snapshot_id: it inherits the child snapshot's id, "
        "not the id of the snapshot that added D1",
        _edited(_data_dv_table, 0, snapshot_id=None),
    ),
    (
        "v4.manifest.metadata",
        "manifest-list-as-root",
        "a snapshot whose root is a v3 manifest list (format-version 3, no content root): manifest lists are "
        "no longer used",
        _manifest_list_root,
    ),
]


def _lineage_table(explicit: int | None = None) -> Table:
    """D1, D2, D3 (10, 20, 30 rows) ADDED in a new data manifest; D2 with first_row_id `explicit`."""
    t = Table()
    added = files(1, 2, 3)
    if explicit is not None:
        added[1] = dataclasses.replace(added[1], first_row_id=explicit)
    t.apply(append, added, layout="manifest")
    return t


LINEAGE: list[tuple[str, str, Callable[[], Table]]] = [
    (
        "from-manifest",
        "the data manifest's root entry has first_row_id 100: D1, D2, D3 start at 100, 110 and 130",
        _edited(_lineage_table, 0, first_row_id=100),
    ),
    (
        "explicit-kept",
        "first_row_id 100 on the manifest, 500 on D2: D2 keeps 500, D1 and D3 take 100 and 110",
        _edited(lambda: _lineage_table(500), 0, first_row_id=100),
    ),
    (
        "manifest-without",
        "no first_row_id on the manifest: the data files have none",
        _lineage_table,
    ),
    (
        "root-file-explicit",
        "a data file in the root with first_row_id 7 keeps it",
        _edited(_data_dv_table, 1, first_row_id=7),
    ),
]


def specs() -> Iterator[CaseSpec]:
    for slug, description, build in LINEAGE:
        yield case(
            "v4.lineage.first-row-id",
            slug,
            f"row lineage: {description}",
            "v4-replay",
            **build().inputs(parent=False),
        )
    for rule, slug, description, build in INVALID:
        yield case(rule, slug, f"invalid tree: {description}", "v4-validate", note=_note(rule), **build().inputs())
    for ids, layout in (((1,), "root"), ((1, 2), "manifest")):
        yield case(
            "v4.equality-delete.columns",
            f"equality-ids-{'-'.join(map(str, ids))}-in-{layout}",
            f"an equality delete file ({'in the root' if layout == 'root' else 'in a delete manifest'}) on fields "
            f"{list(ids)}, columns of its Parquet file: a valid snapshot",
            "v4-validate",
            **_equality_file_table(ids, layout).inputs(),
        )
    t = _equality_delete_table()
    yield case(
        "v4.tree.depth",
        "equality-delete-added-valid",
        "an equality delete file added at the root as an ADDED entry, D1 and D2 carried EXISTING: a valid snapshot",
        "v4-validate",
        **t.inputs(),
    )
    yield case(
        "v4.replay.live-files",
        "equality-delete-by-spec",
        "an equality delete file of spec 0 applies to D1 (spec 0, older) and not to D2 (spec 1): partition "
        "tuples are gone, the spec still scopes equality deletes",
        "v4-replay",
        note=_note("v4.replay.live-files"),
        **t.inputs(parent=False),
    )
