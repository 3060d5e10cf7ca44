"""Rules over consecutive snapshots (`spec_impl.validate.history`): golden tables of
vectors/tables/ copied, their metadata tree edited so that one snapshot breaks one rule against its
parent, and the history validator's verdict (sorted rule ids; [] for the unedited copies).

Each case carries the table's metadata tree inline (`files`: path -> base64: the metadata file the
case names, the manifest lists and the manifests; data files are not needed, the rules read
metadata only), at the table's placeholder location. An edited manifest is written under a new
name (a manifest the writer of the child rewrote), so that the parent's tree stays as it was.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from spec_impl.manifests.avro_files import read_avro, write_avro
from spec_impl.manifests.inheritance import DELETED, EXISTING, file_first_row_ids, inherit_entries
from spec_impl.manifests.tree import manifest_format_version
from spec_impl.manifests.writer import edit_avro
from spec_impl.vectors.cases import CaseSpec, case

NAME = "history"
DESCRIPTION = (
    "Snapshots, Manifest Entry Fields, Manifest Lists, adopted v3 §1.4 and §1.5: golden tables with one snapshot "
    "edited to break a rule over consecutive snapshots, validated against its parent"
)
OP = "validate-history"


@dataclass
class Table:
    """A golden table's metadata tree, being edited: files by path, and the metadata file."""

    files: dict[str, bytes]
    metadata_location: str

    @property
    def metadata(self) -> dict:
        return json.loads(self.files[self.metadata_location])

    def set_metadata(self, document: dict) -> None:
        self.files[self.metadata_location] = json.dumps(document, indent=2).encode()

    def snapshot(self, snapshot_id: int) -> dict:
        return next(s for s in self.metadata["snapshots"] if s["snapshot-id"] == snapshot_id)

    def path(self, name: str) -> str:
        return f"{self.metadata['location']}/metadata/{name}"

    def inputs(self) -> dict:
        files = {p: base64.b64encode(d).decode() for p, d in sorted(self.files.items())}
        return {"files": files, "metadata_location": self.metadata_location}


ALL_FILES = ("*",)  # a case that carries every file of the table (the rules that read rows)


def golden(table_id: str, carried: tuple[str, ...] = ()) -> Table:
    """The metadata tree of a golden table: its current metadata file, manifest lists and manifests,
    and the files named in `carried` (file names: delete files, for the rules that read positions;
    earlier metadata files, for the rules over consecutive metadata files)."""
    from spec_impl.vectors import tables  # late: the table corpus imports the reader and writer

    files, metadata_location, _ = tables.table_files(table_id)
    tree = {
        p: d
        for p, d in files.items()
        if p == metadata_location or p.endswith(".avro") or p.rsplit("/", 1)[-1] in carried or carried == ALL_FILES
    }
    return Table(tree, metadata_location)


# --- edits ---------------------------------------------------------------------------------------------


def set_snapshot(t: Table, snapshot_id: int, **fields) -> None:
    """Change fields of a snapshot in the metadata file (`operation` goes to the summary)."""
    document = t.metadata
    for s in document["snapshots"]:
        if s["snapshot-id"] == snapshot_id:
            if "operation" in fields:
                s["summary"]["operation"] = fields.pop("operation")
            s.update({k.replace("_", "-"): v for k, v in fields.items()})
    t.set_metadata(document)


def edit_list(t: Table, snapshot_id: int, change: Callable[[list[dict]], list[dict]]) -> None:
    """Rewrite a snapshot's manifest list with its rows changed (`change` returns the new rows)."""
    path = t.snapshot(snapshot_id)["manifest-list"]
    f = read_avro(t.files[path], path)
    t.files[path] = write_avro(f.schema, change([dict(r) for r in f.records]), f.metadata)


def rewrite_manifest(
    t: Table, snapshot_id: int, old_name: str, new_name: str, change: Callable[[list[dict]], None]
) -> None:
    """The child snapshot rewrites the manifest `old_name` as `new_name`: every entry EXISTING with
    its inherited values written out (as a writer must), then `change` applied to the entries; the
    child's manifest list names the new manifest, with its counts and sequence numbers."""
    snapshot = t.snapshot(snapshot_id)
    old_path, new_path = t.path(old_name), t.path(new_name)
    rows = read_avro(t.files[snapshot["manifest-list"]]).records
    row = next(r for r in rows if r["manifest_path"] == old_path)
    f = read_avro(t.files[old_path], old_path)
    fv = manifest_format_version(f, t.metadata["format-version"], old_path)
    entries = [dict(e, status=EXISTING) for e in inherit_entries(row, f.records, fv)]
    if t.metadata["format-version"] >= 3:  # adopted §1.4: existing entries carry the first_row_id they inherited
        for e, first_row_id in zip(entries, file_first_row_ids(row.get("first_row_id"), f.records)):
            e["data_file"]["first_row_id"] = first_row_id
    change(entries)
    t.files[new_path] = write_avro(f.schema, entries, f.metadata)
    sequence_number = snapshot["sequence-number"]

    def relist(list_rows: list[dict]) -> list[dict]:
        for r in list_rows:
            if r["manifest_path"] == old_path:
                r.update(_counts(entries), manifest_path=new_path, manifest_length=len(t.files[new_path]))
                r.update(added_snapshot_id=snapshot_id, sequence_number=sequence_number)
                live = [e["sequence_number"] for e in entries if e["status"] != DELETED]
                r["min_sequence_number"] = min(live) if live else sequence_number
        return list_rows

    edit_list(t, snapshot_id, relist)


def _counts(entries: list[dict]) -> dict:
    out = {}
    for status, name in ((1, "added"), (EXISTING, "existing"), (DELETED, "deleted")):
        matching = [e for e in entries if e["status"] == status]
        out[f"{name}_files_count"] = len(matching)
        out[f"{name}_rows_count"] = sum(e["data_file"]["record_count"] for e in matching)
    return out


def edit_manifest(t: Table, snapshot_id: int, name: str, change: Callable[[list[dict], dict], None]) -> None:
    """Edit a manifest in place (one only the child has) and give the child's list its new length and counts."""
    path = t.path(name)
    edit_avro(t.files, path, change)
    entries = read_avro(t.files[path], path).records

    def relist(rows: list[dict]) -> list[dict]:
        for r in rows:
            if r["manifest_path"] == path:
                r.update(_counts(entries), manifest_length=len(t.files[path]))
        return rows

    edit_list(t, snapshot_id, relist)


# --- the cases ---------------------------------------------------------------------------------------


def _sequence_number_changed(t: Table) -> None:
    """position-deletes, snapshot 3 (a delete): b.parquet, added at sequence number 2, rewritten as
    EXISTING with data sequence number 1."""
    rewrite_manifest(t, 3, "m2-2-data.avro", "m3-9-data.avro", lambda es: es[0].update(sequence_number=1))


def _file_sequence_number_changed(t: Table) -> None:
    """position-deletes, snapshot 3: b.parquet rewritten as EXISTING with file sequence number 3 (was 2)."""
    rewrite_manifest(t, 3, "m2-2-data.avro", "m3-9-data.avro", lambda es: es[0].update(file_sequence_number=3))


def _deleted_not_live(t: Table) -> None:
    """position-deletes, snapshot 3: its new delete manifest also marks DELETED a position-delete
    file the table never had."""

    def add_ghost(records: list[dict], _: dict) -> None:
        ghost = dict(records[0]["data_file"], file_path=records[0]["data_file"]["file_path"] + ".gone")
        records.append(
            dict(records[0], status=DELETED, snapshot_id=3, sequence_number=2, file_sequence_number=2, data_file=ghost)
        )

    edit_manifest(t, 3, "m3-4-deletes.avro", add_ghost)


def _append_removed_file(t: Table) -> None:
    """partition-evolution, snapshot 2 (an append): its manifest list drops the parent's manifest,
    so old.parquet is no longer live (nor in snapshot 3, which keeps snapshot 2's data manifests)."""
    old = t.path("m1-1-data.avro")
    for snapshot_id in (2, 3):
        edit_list(t, snapshot_id, lambda rows: [r for r in rows if r["manifest_path"] != old])


def _append_added_deletes(t: Table) -> None:
    """position-deletes, snapshot 2, which adds b.parquet and the position-delete file d2.parquet,
    labelled append instead of overwrite."""
    set_snapshot(t, 2, operation="append")


def _delete_added_data(t: Table) -> None:
    """partition-evolution, snapshot 2, which adds new.parquet, labelled delete instead of append."""
    set_snapshot(t, 2, operation="delete")


def _new_manifest_old_sequence_number(t: Table) -> None:
    """position-deletes, snapshot 3 (sequence number 3): its new delete manifest is listed with
    sequence number 2 (its ADDED entry inherits 2)."""
    path = t.path("m3-4-deletes.avro")
    edit_list(
        t,
        3,
        lambda rows: [
            r.update(sequence_number=2, min_sequence_number=2) or r if r["manifest_path"] == path else r for r in rows
        ],
    )


def _v3_position_delete_file(t: Table) -> None:
    """dv-replaced, snapshot 3 (a v3 snapshot): the new deletes of a.parquet are a Parquet
    position-delete file instead of a deletion vector."""

    def as_parquet(records: list[dict], _: dict) -> None:
        df = records[0]["data_file"]
        df.update(file_path=df["file_path"].replace("dv3.puffin", "d3.parquet"), file_format="PARQUET")
        df.update(content_offset=None, content_size_in_bytes=None)

    edit_manifest(t, 3, "m3-4-deletes.avro", as_parquet)


def _dv_left_live(t: Table) -> None:
    """dv-replaced, snapshot 3: it also removes a.parquet (its data manifest rewritten with the
    entry DELETED), but the new DV of a.parquet stays live."""

    def remove(entries: list[dict]) -> None:
        entries[0].update(status=DELETED, snapshot_id=3)

    rewrite_manifest(t, 3, "m1-1-data.avro", "m3-9-data.avro", remove)


def _row_ids_reassigned(t: Table) -> None:
    """dv-replaced, snapshot 3: the data manifest rewritten with a.parquet EXISTING and a null
    first_row_id, so that it reads new row ids from the manifest's first_row_id 10 (it inherited 0);
    next-row-id raised to cover them."""

    def reassign(entries: list[dict]) -> None:
        entries[0]["data_file"]["first_row_id"] = None

    rewrite_manifest(t, 3, "m1-1-data.avro", "m3-9-data.avro", reassign)
    path = t.path("m3-9-data.avro")
    edit_list(t, 3, lambda rows: [r.update(first_row_id=10) or r if r["manifest_path"] == path else r for r in rows])
    set_snapshot(t, 3, added_rows=10)
    document = t.metadata
    document["next-row-id"] = 20
    t.set_metadata(document)


# (rule id, slug, golden table, edit): each edit's docstring is the case's description.
VIOLATIONS: list[tuple[str, str, str, Callable[[Table], None]]] = [
    (
        "history.data-sequence-number",
        "existing-entry-data-sequence-number-changed",
        "position-deletes",
        _sequence_number_changed,
    ),
    (
        "history.file-sequence-number",
        "existing-entry-file-sequence-number-changed",
        "position-deletes",
        _file_sequence_number_changed,
    ),
    ("history.deleted-were-live", "deleted-entry-for-a-file-never-live", "position-deletes", _deleted_not_live),
    ("history.append", "append-removed-a-file", "partition-evolution", _append_removed_file),
    ("history.append", "append-added-a-delete-file", "position-deletes", _append_added_deletes),
    ("history.delete", "delete-added-a-data-file", "partition-evolution", _delete_added_data),
    (
        "history.new-manifest-sequence-number",
        "new-manifest-with-an-older-sequence-number",
        "position-deletes",
        _new_manifest_old_sequence_number,
    ),
    (
        "history.v3-no-position-deletes",
        "v3-snapshot-added-a-position-delete-file",
        "dv-replaced",
        _v3_position_delete_file,
    ),
    ("history.dv-removed-with-data-file", "dv-live-after-its-data-file-was-removed", "dv-replaced", _dv_left_live),
    ("history.row-ids-kept", "existing-entry-reassigned-row-ids", "dv-replaced", _row_ids_reassigned),
]


def _added_entry_wrong_snapshot(t: Table) -> None:
    """dv-replaced, snapshot 3: the ADDED entry of its new DV stores snapshot id 2 (the parent's)."""
    edit_manifest(t, 3, "m3-4-deletes.avro", lambda records, _: records[0].update(snapshot_id=2))


def _deleted_entry_wrong_snapshot(t: Table) -> None:
    """dv-replaced, snapshot 3: the DELETED entry of the DV it replaces stores snapshot id 2, not 3."""
    edit_manifest(t, 3, "m3-3-deletes.avro", lambda records, _: records[0].update(snapshot_id=2))


def _new_entry_file_sequence_number(t: Table) -> None:
    """position-deletes, snapshot 3 (sequence number 3): its new position-delete file is written
    with file_sequence_number 3 instead of null."""
    edit_manifest(t, 3, "m3-4-deletes.avro", lambda records, _: records[0].update(file_sequence_number=3))


def _new_file_row_id(t: Table) -> None:
    """evolved-schema, snapshot 3 (first-row-id 3): its new data file b.parquet is written with
    first_row_id 3 (the id it would inherit) instead of null."""
    edit_manifest(t, 3, "m3-3-data.avro", lambda records, _: records[0]["data_file"].update(first_row_id=3))
    path, length = t.path("m3-3-data.avro"), len(t.files[t.path("m3-3-data.avro")])
    edit_list(
        t, 4, lambda rows: [r.update(manifest_length=length) or r if r["manifest_path"] == path else r for r in rows]
    )


def _added_rows_too_small(t: Table) -> None:
    """evolved-schema, snapshot 3 (first-row-id 3): added-rows 1, while its new manifest of 2 rows
    is assigned the row ids 3 and 4."""
    set_snapshot(t, 3, added_rows=1)


def _summary_added_dvs(t: Table) -> None:
    """spark-v3-avro-data-files, the snapshot that adds 2 DVs: its summary says added-dvs 3."""
    snapshot_id = next(s["snapshot-id"] for s in t.metadata["snapshots"] if "added-dvs" in s["summary"])
    document = t.metadata
    for s in document["snapshots"]:
        if s["snapshot-id"] == snapshot_id:
            s["summary"]["added-dvs"] = "3"
    t.set_metadata(document)


def _dv_not_merged(t: Table) -> None:
    """dv-replaced, snapshot 3: its new DV of a.parquet (replacing the DV of position 1) deletes
    positions 2 and 9 only: position 1 of the old DV is lost."""
    from spec_impl.deletes.deletion_vectors import dv_blob, manifest_fields
    from spec_impl.deletes.puffin import read_puffin, write_puffin

    path = next(p for p in t.files if p.endswith("/dv3.puffin"))

    def replace(records: list[dict], _: dict) -> None:
        df = records[0]["data_file"]
        t.files[path] = write_puffin([dv_blob([2, 9], df["referenced_data_file"])])
        fields = manifest_fields(read_puffin(t.files[path]).blobs[0])
        df.update(
            record_count=fields["record_count"],
            content_offset=fields["content_offset"],
            content_size_in_bytes=fields["content_size_in_bytes"],
            file_size_in_bytes=len(t.files[path]),
        )

    edit_manifest(t, 3, "m3-4-deletes.avro", replace)


def _dv_size_of_the_blob(t: Table) -> None:
    """dv-replaced, snapshot 3: its new DV's file_size_in_bytes is the blob's length
    (content_size_in_bytes), not the Puffin file's."""
    edit_manifest(
        t,
        3,
        "m3-4-deletes.avro",
        lambda records, _: records[0]["data_file"].update(
            file_size_in_bytes=records[0]["data_file"]["content_size_in_bytes"]
        ),
    )


def _position_file_not_merged(t: Table) -> None:
    """dv-and-position-file, unedited (written so on purpose): snapshot 3 (v3) adds a DV for
    a.parquet of position 1 only, without position 0 that the live position-delete file d2.parquet
    deletes in it."""


def _position_file_removed(t: Table) -> None:
    """dv-and-position-file, snapshot 3 (v3): it adds a DV for a.parquet and removes d2.parquet, the
    position-delete file of a.parquet and b.parquet; b.parquet's delete is not replaced."""
    rewrite_manifest(
        t, 3, "m2-2-deletes.avro", "m3-9-deletes.avro", lambda es: es[0].update(status=DELETED, snapshot_id=3)
    )


def _new_entry_data_sequence_number(t: Table) -> None:
    """position-deletes, snapshot 3 (sequence number 3): its new position-delete file is written
    with sequence_number 3 (the snapshot's own, not an older one) instead of null."""
    edit_manifest(t, 3, "m3-4-deletes.avro", lambda records, _: records[0].update(sequence_number=3))


def _manifest_row_id_changed(t: Table) -> None:
    """dv-replaced, snapshot 3: its manifest list gives the data manifest of snapshot 1 first_row_id
    10 (it had 0); next-row-id raised to cover the ids. (a.parquet's entry is ADDED, written by
    snapshot 1: history.row-ids-kept judges EXISTING and DELETED entries.)"""
    path = t.path("m1-1-data.avro")
    edit_list(t, 3, lambda rows: [r.update(first_row_id=10) or r if r["manifest_path"] == path else r for r in rows])
    document = t.metadata
    document["next-row-id"] = 20
    t.set_metadata(document)


def _dv_added_back(t: Table) -> None:
    """dv-replaced plus a snapshot 4 (an overwrite) that replaces the DV dv3 by dv2 again: dv2,
    which snapshot 3 deleted (its DELETED entry is still listed), is added back."""
    s3 = t.snapshot(3)
    old = t.path("m3-4-deletes.avro")
    f = read_avro(t.files[old], old)
    entry = f.records[0]
    dv3 = dict(entry, status=DELETED, snapshot_id=4, sequence_number=3, file_sequence_number=3)
    dv2_entry = read_avro(t.files[t.path("m3-3-deletes.avro")]).records[0]
    dv2 = dict(entry, snapshot_id=None, sequence_number=None, file_sequence_number=None)
    dv2["data_file"] = dv2_entry["data_file"]
    new = t.path("m4-5-deletes.avro")
    t.files[new] = write_avro(f.schema, [dv3, dv2], f.metadata)
    rows = [dict(r) for r in read_avro(t.files[s3["manifest-list"]]).records]
    for r in rows:
        if r["manifest_path"] == old:
            r.update(_counts([dv3, dict(dv2, status=1)]), manifest_path=new, manifest_length=len(t.files[new]))
            r.update(added_snapshot_id=4, sequence_number=4, min_sequence_number=4)
    list_path = t.path("snap-4.avro")
    listing = read_avro(t.files[s3["manifest-list"]])
    t.files[list_path] = write_avro(
        listing.schema,
        rows,
        dict(listing.metadata, **{"snapshot-id": "4", "parent-snapshot-id": "3", "sequence-number": "4"}),
    )
    document = t.metadata
    s4 = dict(s3, **{"snapshot-id": 4, "parent-snapshot-id": 3, "sequence-number": 4, "manifest-list": list_path})
    s4["timestamp-ms"] = s3["timestamp-ms"] + 1000
    s4["summary"] = {"operation": "overwrite"}
    document["snapshots"].append(s4)
    document.update({"current-snapshot-id": 4, "last-sequence-number": 4})
    document["last-updated-ms"] = s4["timestamp-ms"]
    document["snapshot-log"].append({"timestamp-ms": s4["timestamp-ms"], "snapshot-id": 4})
    document.get("refs", {}).get("main", {})["snapshot-id"] = 4
    t.set_metadata(document)


def _edit_json(t: Table, name: str, change: Callable[[dict], None]) -> None:
    """Edit a metadata file of the table (`name` under metadata/) as JSON."""
    path = t.path(name)
    document = json.loads(t.files[path])
    change(document)
    t.files[path] = json.dumps(document, indent=2).encode()


def _metadata_log_gap(t: Table) -> None:
    """spark-v3-statistics, its metadata files v1 to v7: the metadata-log of v6 ends with v4, not
    with v5, the file before it."""
    _edit_json(t, "v6.metadata.json", lambda d: d["metadata-log"].pop())


def _snapshot_log_gap(t: Table) -> None:
    """spark-v3-avro-data-files, its metadata files v1 to v6: v6 commits a new current snapshot but
    its snapshot-log has no entry for it (its last entry is the previous current snapshot)."""
    document = t.metadata
    document["snapshot-log"].pop()
    t.set_metadata(document)


def _first_row_id_not_next_row_id(t: Table) -> None:
    """spark-v3-avro-data-files, its metadata files v1 to v6: v5 says next-row-id 11, and v6 adds a
    snapshot with first-row-id 10."""
    _edit_json(t, "v5.metadata.json", lambda d: d.update({"next-row-id": 11}))


def _sequence_number_reused(t: Table) -> None:
    """spark-v2-avro-data-files, its metadata files v1 to v6: v5 says last-sequence-number 5 (one
    above its highest snapshot's, 4), and v6 adds a snapshot with sequence number 5, not the next, 6."""
    _edit_json(t, "v5.metadata.json", lambda d: d.update({"last-sequence-number": d["last-sequence-number"] + 1}))


def _delete_labelled_replace(t: Table) -> None:
    """position-deletes, snapshot 3, which adds a position-delete file (2 rows fewer), labelled
    replace instead of delete."""
    set_snapshot(t, 3, operation="replace")


def _compaction_inherits(t: Table) -> None:
    """data-sequence-number-kept, snapshot 3 (a replace planned before the equality delete of
    snapshot 2): its rewritten data file inherits the new data sequence number 3 instead of keeping
    its input's 1 ("the data sequence number must be provided explicitly and not inherited"), so
    the delete of sequence number 2 stops applying to it and the deleted row comes back."""

    def inherit(records: list[dict], _: dict) -> None:
        for r in records:
            if r["status"] == 1:
                r["sequence_number"] = None

    edit_manifest(t, 3, "m3-3-data.avro", inherit)
    path = t.path("m3-3-data.avro")

    def min_sequence_number_inherited(rows: list[dict]) -> list[dict]:
        for r in rows:
            if r["manifest_path"] == path:
                r["min_sequence_number"] = r["sequence_number"]  # the file's sequence number is now the manifest's
        return rows

    edit_list(t, 3, min_sequence_number_inherited)


def _rewritten(update: bool, lineage: Callable[[int, bool], dict[int, int | None]] | None) -> Table:
    """A v3 table written by the reference: an append of a.parquet (4 rows, ids 0 to 3, sequence
    number 1), then a snapshot that replaces a.parquet by a2.parquet: a replace of the same rows, or
    (`update`) an overwrite that changes row 2's data. `lineage(i, changed)` gives the row lineage
    columns a2.parquet stores for row i (None: the columns are not written)."""
    from spec_impl.metadata.schema import parse_schema
    from spec_impl.scan.reader import LAST_UPDATED, ROW_ID
    from spec_impl.scan.table_writer import TableBuilder
    from spec_impl.vectors import tables

    t = TableBuilder(f"{tables.PLACEHOLDER}/rewritten-rows", 3, tables.SCHEMA)
    values = [(i, f"v{i}", "x") for i in range(1, 5)]
    a = t.data("a.parquet", tables.rows(*values))
    first = t.added([a])
    t.commit("append", [first])
    rows = tables.rows(*[(i, "changed" if update and i == 2 else d, c) for i, d, c in values])
    schema = None
    if lineage is not None:
        lineage_fields = [
            {"id": ROW_ID, "name": "_row_id", "required": False, "type": "long"},
            {"id": LAST_UPDATED, "name": "_last_updated_sequence_number", "required": False, "type": "long"},
        ]
        schema = parse_schema({**tables.SCHEMA, "fields": tables.FIELDS + lineage_fields}, 3)
        rows = [{**r, **lineage(n, update and r[tables.ID] == 2)} for n, r in enumerate(rows)]
    a2 = t.data("a2.parquet", rows, schema=schema)
    t.commit(
        "overwrite" if update else "replace",
        [t.removed([({**a, "first_row_id": 0}, 1)]), t.added([a2])],
        t.without(first),
    )
    return Table(dict(t.files), t.tree.metadata_location)


def _ids_and_sequence_numbers_copied(n: int, changed: bool) -> dict[int, int | None]:
    from spec_impl.scan.reader import LAST_UPDATED, ROW_ID

    return {ROW_ID: n, LAST_UPDATED: None if changed else 1}


def _sequence_number_copied_for_a_change(n: int, changed: bool) -> dict[int, int | None]:
    from spec_impl.scan.reader import LAST_UPDATED, ROW_ID

    return {ROW_ID: n, LAST_UPDATED: 1}


# Cases on tables the reference writes for them (not golden tables): (rule, slug, description, table).
BUILT: list[tuple[str, str, str, Callable[[], Table]]] = [
    (
        "history.moved-row-lineage",
        "compaction-keeps-row-ids",
        "a replace rewrites a.parquet as a2.parquet storing each row's _row_id and "
        "_last_updated_sequence_number: no violation",
        lambda: _rewritten(False, _ids_and_sequence_numbers_copied),
    ),
    (
        "history.moved-row-lineage",
        "compaction-drops-row-ids",
        "a replace rewrites a.parquet as a2.parquet without the row lineage columns: the rows get new ids",
        lambda: _rewritten(False, None),
    ),
    (
        "history.moved-row-lineage",
        "update-keeps-ids-nulls-modified-sequence-number",
        "an overwrite rewrites a.parquet, changing row 2, with the rows' _row_id and a null "
        "_last_updated_sequence_number for row 2 only: no violation",
        lambda: _rewritten(True, _ids_and_sequence_numbers_copied),
    ),
    (
        "history.moved-row-lineage",
        "update-copies-modified-sequence-number",
        "an overwrite rewrites a.parquet, changing row 2, and copies row 2's _last_updated_sequence_number 1 "
        "instead of writing null",
        lambda: _rewritten(True, _sequence_number_copied_for_a_change),
    ),
]


# Rules over what a snapshot writes and over deletion vectors (history_writes, history_deletes).
WRITES: list[tuple[str, str, str, Callable[[Table], None]]] = [
    (
        "history.added-entry-snapshot",
        "added-entry-stores-the-parent-snapshot",
        "dv-replaced",
        _added_entry_wrong_snapshot,
    ),
    (
        "history.deleted-entry-snapshot",
        "deleted-entry-stores-the-parent-snapshot",
        "dv-replaced",
        _deleted_entry_wrong_snapshot,
    ),
    (
        "history.new-entry-sequence-numbers",
        "new-entry-with-file-sequence-number",
        "position-deletes",
        _new_entry_file_sequence_number,
    ),
    (
        "history.new-entry-sequence-numbers",
        "new-entry-with-the-snapshots-sequence-number",
        "position-deletes",
        _new_entry_data_sequence_number,
    ),
    ("history.manifest-row-id-kept", "manifest-first-row-id-changed", "dv-replaced", _manifest_row_id_changed),
    ("history.new-file-row-id-null", "new-data-file-with-first-row-id", "evolved-schema", _new_file_row_id),
    ("history.assigned-row-ids-in-range", "row-ids-beyond-added-rows", "evolved-schema", _added_rows_too_small),
    ("history.summary-delete-counts", "summary-added-dvs-wrong", "spark-v3-avro-data-files", _summary_added_dvs),
    ("history.deleted-file-re-added", "deleted-dv-added-back", "dv-replaced", _dv_added_back),
    ("history.dv-merged", "new-dv-lost-a-position", "dv-replaced", _dv_not_merged),
    ("history.dv-merged", "new-dv-without-the-position-file", "dv-and-position-file", _position_file_not_merged),
    (
        "history.position-file-kept",
        "multi-file-position-deletes-removed",
        "dv-and-position-file",
        _position_file_removed,
    ),
    ("history.dv-file-size", "dv-size-of-the-blob", "dv-replaced", _dv_size_of_the_blob),
    ("history.replace-rows", "replace-deleted-rows", "position-deletes", _delete_labelled_replace),
    (
        "history.replace-rows",
        "compaction-inherits-a-newer-sequence-number",
        "data-sequence-number-kept",
        _compaction_inherits,
    ),
    ("history.metadata-log-entry", "metadata-log-misses-the-previous-file", "spark-v3-statistics", _metadata_log_gap),
    (
        "history.snapshot-log-entry",
        "snapshot-log-misses-the-new-snapshot",
        "spark-v3-avro-data-files",
        _snapshot_log_gap,
    ),
    (
        "history.snapshot-first-row-id",
        "first-row-id-is-not-the-next-row-id",
        "spark-v3-avro-data-files",
        _first_row_id_not_next_row_id,
    ),
    (
        "history.next-sequence-number",
        "new-snapshot-reuses-an-assigned-sequence-number",
        "spark-v2-avro-data-files",
        _sequence_number_reused,
    ),
]
VIOLATIONS += WRITES
# Cases of a golden table that breaks the rule as it was written (the edit changes nothing).
UNEDITED = {"new-dv-without-the-position-file"}
# The other files a case carries (by slug): delete files whose positions the rules read, earlier metadata files.
CARRIED_FILES = {
    "new-dv-lost-a-position": ("dv2.puffin", "dv3.puffin"),
    "multi-file-position-deletes-removed": ("d2.parquet",),
    "new-dv-without-the-position-file": ("d2.parquet", "dv3.puffin"),
    "golden-dv-replaced": ("dv2.puffin", "dv3.puffin"),
    "replace-deleted-rows": ALL_FILES,
    "compaction-inherits-a-newer-sequence-number": ALL_FILES,
    "dv-size-of-the-blob": ("dv3.puffin",),
    "golden-spark-v3-compaction-after-upgrade": ALL_FILES,
    "metadata-log-misses-the-previous-file": tuple(f"v{i}.metadata.json" for i in range(1, 7)),
    "golden-spark-v3-statistics": tuple(f"v{i}.metadata.json" for i in range(1, 7)),
    "snapshot-log-misses-the-new-snapshot": tuple(f"v{i}.metadata.json" for i in range(1, 6)),
    "first-row-id-is-not-the-next-row-id": tuple(f"v{i}.metadata.json" for i in range(1, 6)),
    "new-snapshot-reuses-an-assigned-sequence-number": tuple(f"v{i}.metadata.json" for i in range(1, 6)),
    "golden-spark-v2-avro-data-files": tuple(f"v{i}.metadata.json" for i in range(1, 6)),
}

# Unedited golden tables: every snapshot passes against its parent (tests/test_history.py checks all of them).
VALID = [
    ("history.data-sequence-number", "position-deletes"),
    ("history.append", "partition-evolution"),
    ("history.row-ids-kept", "upgrade-v1-v2-v3"),
    ("history.dv-removed-with-data-file", "dv-replaced"),
    ("history.dv-merged", "dv-replaced"),
    ("history.summary-delete-counts", "spark-v3-position-both-specs-equality-one-dv-both"),
    ("history.new-file-row-id-null", "spark-v3-avro-data-files"),
    ("history.deleted-entry-snapshot", "spark-v1-copy-on-write-two-specs"),
    ("history.metadata-log-entry", "spark-v3-statistics"),
    ("history.replace-rows", "spark-v3-compaction-after-upgrade"),
    ("history.next-sequence-number", "spark-v2-avro-data-files"),
]


def table_for(slug: str, table_id: str) -> Table:
    """The golden table a case starts from, with the other files the case carries."""
    return golden(table_id, CARRIED_FILES.get(slug, ()))


def specs() -> Iterator[CaseSpec]:
    for rule_id, table_id in VALID:
        slug = f"golden-{table_id}"
        t = table_for(slug, table_id)
        yield case(rule_id, slug, f"the golden table {table_id}, unedited: no violation", OP, **t.inputs())
    for rule_id, slug, description, build in BUILT:
        yield case(rule_id, slug, description, OP, **build().inputs())
    for rule_id, slug, table_id, edit in VIOLATIONS:
        t = table_for(slug, table_id)
        edit(t)
        description = " ".join((edit.__doc__ or "").split())
        yield case(rule_id, slug, f"{table_id} edited: {description}", OP, **t.inputs())
