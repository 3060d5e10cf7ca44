"""Manifest entry inheritance: sequence numbers, snapshot ids and v3 row ids, as a reader sees them."""

from __future__ import annotations

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import case

NAME = "manifest-inheritance"
DESCRIPTION = "Manifests and Manifest Lists, Appendix E, adopted v3 row lineage: inherited entry metadata"

SNAP, OLD_SNAP = 8000, 7000
ROW = {
    "manifest_path": "s3://b/t/metadata/m1.avro",
    "manifest_length": 1000,
    "partition_spec_id": 0,
    "content": 0,
    "sequence_number": 5,
    "min_sequence_number": 3,
    "added_snapshot_id": SNAP,
}


def _file(path: str, records: int = 10, content: int = 0, first_row_id: int | None = None) -> dict:
    f = {"content": content, "file_path": path, "file_format": "PARQUET", "record_count": records}
    if first_row_id is not None:
        f["first_row_id"] = first_row_id
    return f


def _entry(
    status: int,
    path: str,
    snapshot_id: int | None = None,
    seq: int | None = None,
    file_seq: int | None = None,
    **file_kw,
) -> dict:
    e = {"status": status, "data_file": _file(path, **file_kw)}
    for key, value in (("snapshot_id", snapshot_id), ("sequence_number", seq), ("file_sequence_number", file_seq)):
        if value is not None:
            e[key] = value
    return e


def _inherit(rule_id: str, slug: str, description: str, entries: list, fv: int = 2, manifest: dict | None = None, **kw):
    return case(
        rule_id,
        slug,
        description,
        "inherit-manifest-entries",
        manifest=manifest or ROW,
        entries=entries,
        format_version=fv,
        **kw,
    )


def specs():
    for fv in (1, 2, 3):
        yield case(
            "manifest.avro-schema",
            f"v{fv}",
            f"the Avro schemas of a v{fv} manifest list and manifest (field ids, names, types; "
            "optional fields as unions with null; maps as arrays of key/value records)",
            "manifest-avro-schema",
            format_version=fv,
        )
    r = "manifest.inherit.sequence-number"
    yield _inherit(
        r,
        "added-inherits",
        "an ADDED entry without sequence numbers inherits the manifest's (5 and 5)",
        [_entry(1, "a.parquet")],
    )
    yield _inherit(
        r,
        "added-explicit-kept",
        "an ADDED entry with explicit sequence numbers keeps them (a manifest reused by a retried commit)",
        [_entry(1, "a.parquet", seq=4, file_seq=4)],
    )
    yield _inherit(
        r,
        "existing-explicit",
        "an EXISTING entry keeps its explicit data sequence number 3 and file sequence number 4",
        [_entry(0, "b.parquet", OLD_SNAP, seq=3, file_seq=4)],
    )
    yield _inherit(
        r,
        "existing-without",
        "an EXISTING entry without sequence numbers is an error: only ADDED entries inherit",
        [_entry(0, "b.parquet", OLD_SNAP)],
    )
    yield _inherit(
        r, "deleted-without", "a DELETED entry without sequence numbers is an error", [_entry(2, "c.parquet", SNAP)]
    )
    yield _inherit(
        r,
        "retried-commit",
        "a manifest written for a commit that was retried gets the new sequence number 6 from the new manifest list",
        [_entry(1, "a.parquet")],
        manifest=dict(ROW, sequence_number=6),
    )
    yield _inherit(
        "manifest.inherit.snapshot-id",
        "null-snapshot-id",
        "a null snapshot_id is the manifest's added_snapshot_id; explicit ones are kept",
        [_entry(1, "a.parquet"), _entry(0, "b.parquet", OLD_SNAP, seq=3, file_seq=3)],
    )
    yield _inherit(
        "manifest.status",
        "bad-status",
        "status 3 is not a manifest entry status",
        [_entry(3, "a.parquet", seq=1, file_seq=1)],
    )
    v1_row = {k: v for k, v in ROW.items() if k not in ("content", "sequence_number", "min_sequence_number")}
    yield _inherit(
        "manifest.v1-defaults",
        "v1-manifest",
        "a v1 manifest in a v1 manifest list: every entry reads sequence numbers 0 and content 0, EXISTING ones too",
        [_entry(1, "a.parquet", SNAP), _entry(0, "b.parquet", OLD_SNAP)],
        fv=1,
        manifest=v1_row,
    )
    mixed = [
        _entry(1, "a.parquet"),
        _entry(0, "b.parquet", OLD_SNAP, seq=0, file_seq=0),
        _entry(2, "c.parquet", SNAP, seq=1, file_seq=1),
    ]
    yield _inherit(
        "manifest.min-sequence-number",
        "zero-is-legitimate",
        "min_sequence_number over live entries: 0 (a file from v1) is the minimum; the DELETED entry does not count",
        mixed,
    )
    yield _inherit(
        "manifest.min-sequence-number",
        "only-deleted",
        "a manifest whose entries are all DELETED has no live minimum (null)",
        [_entry(2, "c.parquet", SNAP, seq=1, file_seq=1)],
    )

    lineage_row = dict(ROW, first_row_id=1000)
    files = [
        _entry(1, "a.parquet", records=10),
        _entry(0, "b.parquet", OLD_SNAP, seq=3, file_seq=3, records=20, first_row_id=50),
        _entry(2, "c.parquet", SNAP, seq=4, file_seq=4, records=5),
        _entry(0, "d.parquet", OLD_SNAP, seq=3, file_seq=3, records=7),
    ]
    yield _inherit(
        "lineage.file-first-row-id",
        "derived-and-kept",
        "v3: a.parquet 1000; b.parquet keeps 50; the DELETED c.parquet is skipped (null); "
        "d.parquet (EXISTING, null) 1000 + 10 = 1010",
        files,
        fv=3,
        manifest=lineage_row,
        revisions=ADOPTED,
    )
    yield _inherit(
        "lineage.file-first-row-id",
        "manifest-without-first-row-id",
        "v3: a manifest without first_row_id (written before the upgrade) gives null first row ids",
        files,
        fv=3,
        revisions=ADOPTED,
    )

    manifests = [
        dict(ROW, manifest_path="m1", added_rows_count=10, existing_rows_count=5),
        dict(ROW, manifest_path="m2", content=1, added_rows_count=3, existing_rows_count=0),
        dict(ROW, manifest_path="m3", first_row_id=40, added_rows_count=1, existing_rows_count=0),
        dict(ROW, manifest_path="m4", added_rows_count=2, existing_rows_count=8),
    ]
    yield case(
        "lineage.manifest-first-row-id",
        "assignment",
        "v3: m1 gets 100 and the next id grows by 10 + 5; the delete manifest m2 gets null; "
        "m3 keeps 40; m4 gets 115; next-row-id 125",
        "assign-manifest-first-row-ids",
        manifests=manifests,
        revisions=ADOPTED,
        **{"snapshot-first-row-id": 100},
    )

    rows = [
        {},
        {"_row_id": 7},
        {"_last_updated_sequence_number": 2},
        {"_row_id": None, "_last_updated_sequence_number": None},
    ]
    yield case(
        "lineage.row-values",
        "derived",
        "v3: null _row_id is first_row_id + _pos (500, 502, 503; the stored 7 kept); null "
        "_last_updated_sequence_number is the data sequence number 9 (the stored 2 kept)",
        "row-lineage",
        rows=rows,
        revisions=ADOPTED,
        **{"first-row-id": 500, "data-sequence-number": 9},
    )
    yield case(
        "lineage.row-values",
        "no-first-row-id",
        "v3: a file without first_row_id reads both columns as null",
        "row-lineage",
        rows=rows,
        revisions=ADOPTED,
        **{"first-row-id": None, "data-sequence-number": 9},
    )
