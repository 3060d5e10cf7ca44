"""Table statistics and partition statistics: the metadata entries (`read-table-metadata`, valid and
invalid documents) and the files they name (`validate-statistics`: a Puffin statistics file and a
Parquet partition statistics file written by the reference, then corrupted one part at a time).

Spec: "Table Statistics", "Partition Statistics", "Partition Statistics File"; adopted v3 digest §3
and §4. The blobs hold placeholder bytes: no text here defines the theta sketch's own layout.
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from spec_impl.deletes.puffin import Blob, write_puffin
from spec_impl.metadata.schema import Schema
from spec_impl.metadata.statistics import THETA
from spec_impl.revisions import ADOPTED
from spec_impl.scan.arrow_values import read_parquet, write_parquet
from spec_impl.types import NestedField, StructType, parse_type
from spec_impl.vectors.cases import case
from spec_impl.vectors.families.table_metadata import S1, S2, SCHEMA, SPEC, v1_with_snapshot, v2, v3

NAME = "statistics"
DESCRIPTION = (
    "Table Statistics, Partition Statistics, Partition Statistics File: the metadata entries and the files they name"
)

LOCATION = "s3://b/wh/data.db/table"
METADATA = f"{LOCATION}/metadata/v3.metadata.json"
STATS = f"{LOCATION}/metadata/{S2}-stats.stats"
PARTITION_STATS = f"{LOCATION}/metadata/partition-stats-{S2}.parquet"
CREATED_BY = {"created-by": "iceberg-conformance reference"}


def _blobs(ndv: str = "4") -> list[Blob]:
    """Theta sketch blobs of snapshot S2 (sequence number 2) over columns 1 and 2."""
    return [
        Blob(THETA, bytes(range(16)), (1,), S2, 2, "zstd", {"ndv": ndv}),
        Blob(THETA, bytes(range(8)), (2,), S2, 2, None, {"ndv": "2"}),
    ]


def _blob_metadata(blob: Blob) -> dict:
    return {
        "type": blob.type,
        "snapshot-id": blob.snapshot_id,
        "sequence-number": blob.sequence_number,
        "fields": list(blob.fields),
        "properties": dict(blob.properties),
    }


def _puffin_entry(data: bytes, blobs: list[Blob], sid: int = S2) -> dict:
    footer = 4 + int.from_bytes(data[-12:-8], "little", signed=True) + 12
    return {
        "snapshot-id": sid,
        "statistics-path": STATS,
        "file-size-in-bytes": len(data),
        "file-footer-size-in-bytes": footer,
        "blob-metadata": [_blob_metadata(b) for b in blobs],
    }


def _partition_entry(data: bytes, sid: int = S2) -> dict:
    return {"snapshot-id": sid, "statistics-path": PARTITION_STATS, "file-size-in-bytes": len(data)}


# --- metadata documents -------------------------------------------------------------------------


def with_statistics(doc: dict | None = None) -> dict:
    """v2() with one statistics file and one partition statistics file for the current snapshot."""
    doc = copy.deepcopy(doc or v2())
    puffin = write_puffin(_blobs(), CREATED_BY)
    doc["statistics"] = [_puffin_entry(puffin, _blobs())]
    doc["partition-statistics"] = [_partition_entry(partition_stats_file())]
    return doc


def _read(rule_id: str, slug: str, description: str, document: dict, **kw: Any):
    return case(rule_id, slug, description, "read-table-metadata", document=document, **kw)


def _edited(edit) -> dict:
    doc = with_statistics()
    edit(doc)
    return doc


def _metadata_cases():
    yield _read("table.statistics", "v2-with-statistics", "statistics and partition-statistics read", with_statistics())
    v1 = v1_with_snapshot()  # with the deprecated fields and the lists, as v1 writers write it
    for field, field_id in zip(v1["partition-spec"], (1000, 1001)):
        field["field-id"] = field_id
    v1.update(
        {
            "schemas": [copy.deepcopy(SCHEMA)],
            "current-schema-id": 0,
            "partition-specs": [copy.deepcopy(SPEC)],
            "default-spec-id": 0,
            "last-partition-id": 1001,
        }
    )
    v1["statistics"] = [{**with_statistics()["statistics"][0], "snapshot-id": S1}]
    for blob in v1["statistics"][0]["blob-metadata"]:
        blob.update({"snapshot-id": S1, "sequence-number": 0})
    yield _read("table.statistics", "v1-with-statistics", "v1: a blob of a v1 snapshot has sequence number 0", v1)
    yield _read(
        "table.statistics",
        "snapshot-id-string",
        "a statistics entry's snapshot-id as a string: the seed's field table says string, the adopted spec "
        "corrected it to long",
        _edited(lambda d: d["statistics"][0].update({"snapshot-id": str(S2)})),
    )
    for key in ("snapshot-id", "statistics-path", "file-size-in-bytes", "file-footer-size-in-bytes", "blob-metadata"):
        yield _read(
            "table.statistics",
            f"statistics-without-{key}",
            f"a statistics entry requires {key}",
            _edited(lambda d, key=key: d["statistics"][0].pop(key)),
        )
    for key in ("snapshot-id", "statistics-path", "file-size-in-bytes"):
        yield _read(
            "table.statistics",
            f"partition-statistics-without-{key}",
            f"a partition-statistics entry requires {key}",
            _edited(lambda d, key=key: d["partition-statistics"][0].pop(key)),
        )
    yield _read(
        "table.statistics",
        "key-metadata-not-string",
        "key-metadata is base64-encoded: a string",
        _edited(lambda d: d["statistics"][0].update({"key-metadata": 7})),
    )
    yield _read(
        "table.statistics",
        "key-metadata",
        "a statistics entry with key-metadata",
        _edited(lambda d: d["statistics"][0].update({"key-metadata": "AAECAw=="})),
    )
    yield _read(
        "table.statistics",
        "file-size-string",
        "file-size-in-bytes is a long",
        _edited(lambda d: d["partition-statistics"][0].update({"file-size-in-bytes": "4553"})),
    )
    yield from _blob_metadata_cases()
    yield from _snapshot_cases()


def _blob_metadata_cases():
    rule = "table.statistics.blob-metadata"
    for key in ("type", "snapshot-id", "sequence-number", "fields"):
        yield _read(
            rule,
            f"blob-without-{key}",
            f"blob metadata requires {key}",
            _edited(lambda d, key=key: d["statistics"][0]["blob-metadata"][0].pop(key)),
        )
    bad = {"fields": ["1"], "properties": {"ndv": 4}, "sequence-number": "2", "type": 1}
    for key, value in bad.items():
        yield _read(
            rule,
            f"blob-{key}-wrong-type",
            f"blob metadata {key} of the wrong type: {json.dumps(value)}",
            _edited(lambda d, key=key, value=value: d["statistics"][0]["blob-metadata"][0].update({key: value})),
        )
    yield _read(
        rule,
        "blob-without-properties",
        "blob metadata properties are optional",
        _edited(lambda d: d["statistics"][0]["blob-metadata"][0].pop("properties")),
    )
    yield _read(
        "puffin.theta-sketch",
        "ndv-not-decimal",
        "a theta sketch's ndv property is a decimal integer (adopted §4): 4.0 is not",
        _edited(lambda d: d["statistics"][0]["blob-metadata"][0]["properties"].update({"ndv": "4.0"})),
    )


def _snapshot_cases():
    yield _read(
        "table.statistics.snapshot",
        "statistics-unknown-snapshot",
        "a statistics entry for a snapshot the table does not have",
        _edited(lambda d: d["statistics"][0].update({"snapshot-id": 7})),
    )
    yield _read(
        "table.statistics.snapshot",
        "partition-statistics-unknown-snapshot",
        "a partition-statistics entry for a snapshot the table does not have",
        _edited(lambda d: d["partition-statistics"][0].update({"snapshot-id": 7})),
    )
    yield _read(
        "table.statistics.blob-snapshot",
        "blob-sequence-number-wrong",
        "a blob of snapshot S2 (sequence number 2) that claims sequence number 1",
        _edited(lambda d: d["statistics"][0]["blob-metadata"][0].update({"sequence-number": 1})),
    )
    yield _read(
        "table.statistics.blob-snapshot",
        "blob-of-older-snapshot",
        "a blob computed from the older snapshot S1, with its sequence number 1, in the file of S2",
        _edited(lambda d: d["statistics"][0]["blob-metadata"][0].update({"snapshot-id": S1, "sequence-number": 1})),
    )
    yield _read(
        "table.statistics.blob-snapshot",
        "blob-of-expired-snapshot",
        "a blob computed from a snapshot no longer in the table: its sequence number cannot be compared",
        _edited(lambda d: d["statistics"][0]["blob-metadata"][0].update({"snapshot-id": 11, "sequence-number": 9})),
    )
    yield _read(
        "partition-statistics.one-per-snapshot",
        "two-for-one-snapshot",
        "two partition statistics files for snapshot S2",
        _edited(lambda d: d["partition-statistics"].append({**d["partition-statistics"][0], "file-size-in-bytes": 1})),
    )
    yield _read(
        "partition-statistics.one-per-snapshot",
        "one-per-snapshot",
        "partition statistics files for two snapshots, one each",
        _edited(lambda d: d["partition-statistics"].append({**d["partition-statistics"][0], "snapshot-id": S1})),
    )


# --- the files ----------------------------------------------------------------------------------

UNIFIED = StructType(
    (NestedField(1000, "ts_day", parse_type("date"), False), NestedField(1001, "id_bucket", parse_type("int"), False))
)
_COLUMNS = (
    (2, "spec_id", "int"),
    (3, "data_record_count", "long"),
    (4, "data_file_count", "int"),
    (5, "total_data_file_size_in_bytes", "long"),
    (6, "position_delete_record_count", "long"),
    (7, "position_delete_file_count", "int"),
    (8, "equality_delete_record_count", "long"),
    (9, "equality_delete_file_count", "int"),
    (10, "total_record_count", "long"),
    (11, "last_updated_at", "long"),
    (12, "last_updated_snapshot_id", "long"),
    (13, "dv_count", "int"),
)
PARTITIONS = ({1000: None, 1001: 3}, {1000: 17000, 1001: None}, {1000: 17000, 1001: 1}, {1000: 17001, 1001: 0})


def stats_schema(partition: StructType = UNIFIED, change: dict | None = None, drop: tuple = ()) -> Schema:
    """The partition statistics schema as Iceberg Java 1.10 writes it for a v3 table (fields 1-9 and
    13 required); `change` maps a field id to (type, required)."""
    change = change or {}
    fields = [NestedField(1, "partition", partition, True)]
    for fid, name, t in _COLUMNS:
        if fid in drop:
            continue
        t, required = change.get(fid, (t, fid <= 9 or fid == 13))
        fields.append(NestedField(fid, name, parse_type(t) if isinstance(t, str) else t, required))
    return Schema.of(*fields)


def stats_rows(partitions=PARTITIONS) -> list[dict]:
    rows = []
    for i, p in enumerate(partitions):
        counts = {2: 0, 3: 10 + i, 4: 1, 5: 1000 + i, 6: 0, 7: 0, 8: 0, 9: 0, 10: None, 11: 1555100955770, 12: S2}
        rows.append({1: dict(p), **counts, 13: 0})
    return rows


def partition_stats_file(schema: Schema | None = None, rows: list[dict] | None = None) -> bytes:
    schema = schema or stats_schema()
    ids = {f.id for f in schema.fields}
    rows = [{k: v for k, v in r.items() if k in ids} for r in (stats_rows() if rows is None else rows)]
    return write_parquet(rows, schema)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _files(doc: dict, puffin: bytes, partition: bytes | None) -> dict:
    files = {METADATA: _b64(json.dumps(doc, sort_keys=True).encode()), STATS: _b64(puffin)}
    if partition is not None:
        files[PARTITION_STATS] = _b64(partition)
    return files


def _tree(
    rule_id: str,
    slug: str,
    description: str,
    *,
    puffin: bytes | None = None,
    partition: bytes | None = None,
    edit=None,
    doc: dict | None = None,
    **kw,
):
    """A validate-statistics case: the v2 table (`doc`: another) with its statistics files; `puffin`
    and `partition` replace a file's bytes (the entries are those of the correct files), `edit`
    changes the document."""
    doc = copy.deepcopy(doc or v2())
    good_puffin = write_puffin(_blobs(), CREATED_BY)
    doc["statistics"] = [_puffin_entry(good_puffin, _blobs())]
    doc["partition-statistics"] = [_partition_entry(partition_stats_file())]
    if edit is not None:
        edit(doc)
    files = _files(
        doc, good_puffin if puffin is None else puffin, partition_stats_file() if partition is None else partition
    )
    return case(rule_id, slug, description, "validate-statistics", files=files, metadata_location=METADATA, **kw)


def _puffin_cases():
    yield _tree(
        "table.statistics.puffin",
        "correct-files",
        "a Puffin statistics file and a partition statistics file as their entries say",
    )
    good = write_puffin(_blobs(), CREATED_BY)
    yield _tree(
        "table.statistics.puffin",
        "not-puffin",
        "the statistics file does not start with the Puffin magic",
        puffin=b"PAR1" + good[4:],
    )
    yield _tree(
        "table.statistics.file-size",
        "statistics-file-size",
        "file-size-in-bytes one byte more than the statistics file",
        edit=lambda d: d["statistics"][0].update({"file-size-in-bytes": len(good) + 1}),
    )
    yield _tree(
        "table.statistics.file-size",
        "partition-statistics-file-size",
        "file-size-in-bytes one byte less than the partition statistics file",
        edit=lambda d: d["partition-statistics"][0].update(
            {"file-size-in-bytes": d["partition-statistics"][0]["file-size-in-bytes"] - 1}
        ),
    )
    payload = int.from_bytes(good[-12:-8], "little")
    yield _tree(
        "table.statistics.footer-size",
        "footer-payload-size",
        "file-footer-size-in-bytes given as the footer payload size (the text: not the footer payload size)",
        edit=lambda d: d["statistics"][0].update({"file-footer-size-in-bytes": payload}),
    )
    yield _tree(
        "table.statistics.blobs",
        "blob-not-in-file",
        "blob metadata for column 3, which the file has no blob for",
        edit=lambda d: d["statistics"][0]["blob-metadata"][1].update({"fields": [3]}),
    )
    yield _tree(
        "table.statistics.blobs",
        "blob-unlisted",
        "a blob of the file that blob-metadata does not list",
        edit=lambda d: d["statistics"][0]["blob-metadata"].pop(),
    )
    yield _tree(
        "table.statistics.blobs",
        "properties-not-subset",
        "blob metadata properties with a value the Puffin blob does not have",
        edit=lambda d: d["statistics"][0]["blob-metadata"][0]["properties"].update({"ndv": "5"}),
    )
    yield _tree(
        "table.statistics.blobs",
        "properties-subset",
        "blob metadata listing fewer properties than the Puffin blob: a subset",
        edit=lambda d: d["statistics"][0]["blob-metadata"][0].pop("properties"),
    )
    bad_ndv = write_puffin(_blobs("four"), CREATED_BY)

    def unlisted_ndv(d: dict) -> None:
        d["statistics"][0] = _puffin_entry(bad_ndv, _blobs())
        d["statistics"][0]["blob-metadata"][0].pop("properties")

    yield _tree(
        "puffin.theta-sketch",
        "file-ndv-not-decimal",
        "the Puffin file's theta sketch blob has ndv 'four' (the blob metadata lists no properties)",
        puffin=bad_ndv,
        edit=unlisted_ndv,
    )
    yield _tree(
        "tree.file-exists",
        "statistics-file-missing",
        "a statistics entry naming a file that is not there",
        edit=lambda d: d["statistics"][0].update({"statistics-path": f"{LOCATION}/metadata/missing.stats"}),
    )


def _sized(data: bytes):
    return lambda d: d["partition-statistics"][0].update({"file-size-in-bytes": len(data)})


def _partition_file_cases():
    rule = "partition-statistics.file-schema"
    schema_cases = {
        "without-data-record-count": ("the required column 3 data_record_count is missing", {}, (3,)),
        "data-file-count-long": ("column 4 data_file_count written as long, not int", {4: ("long", True)}, ()),
        "spec-id-optional": ("the required column 2 spec_id written optional", {2: ("int", False)}, ()),
        "without-optional-fields": ("a file without the optional fields 10-12", {}, (10, 11, 12)),
    }
    for slug, (description, change, drop) in schema_cases.items():
        data = partition_stats_file(stats_schema(change=change, drop=drop))
        yield _tree(rule, slug, description, partition=data, edit=_sized(data))
    data = partition_stats_file(stats_schema(drop=(6, 7, 8, 9)))
    v3_doc = v3()
    yield _tree(
        rule,
        "v3-without-delete-counts",
        "a v3 table's file without fields 6-9 (adopted §3: required in v3)",
        partition=data,
        doc=v3_doc,
        edit=_sized(data),
        revisions=ADOPTED,
    )
    yield _tree(
        "table.statistics.puffin",
        "v3-correct-files",
        "a v3 table's statistics files as Iceberg Java 1.10 writes them",
        doc=v3_doc,
        revisions=ADOPTED,
    )
    day_int = StructType((NestedField(1000, "ts_day", parse_type("int"), False), UNIFIED.fields[1]))
    data = partition_stats_file(stats_schema(partition=day_int))
    yield _tree(
        rule,
        "v3-day-partition-as-int",
        "a v3 table's file whose day partition field ts_day is int, as writers before the adopted spec wrote it "
        "(adopted §3: day now produces date, and readers must also accept int)",
        partition=data,
        doc=v3_doc,
        edit=_sized(data),
        revisions=ADOPTED,
    )
    wrong_ids = StructType((UNIFIED.fields[0], NestedField(1002, "id_bucket", parse_type("int"), False)))
    data = partition_stats_file(
        stats_schema(partition=wrong_ids), [{**r, 1: {1000: r[1][1000], 1002: r[1][1001]}} for r in stats_rows()]
    )
    yield _tree(
        rule,
        "partition-field-ids",
        "the partition struct names field 1002, not the unified type's 1001",
        partition=data,
        edit=_sized(data),
    )
    data = b"not a parquet file"
    yield _tree(rule, "not-parquet", "the partition statistics file is not Parquet", partition=data, edit=_sized(data))
    v2_file = partition_stats_file(
        stats_schema(change={f: ("long" if f in (6, 8) else "int", False) for f in (6, 7, 8, 9)}, drop=(13,))
    )
    yield _tree(
        rule,
        "v2-optional-delete-counts",
        "a v2 table's file with fields 6-9 optional and no dv_count",
        partition=v2_file,
        edit=_sized(v2_file),
    )
    for slug, description, partitions in (
        ("unsorted", "rows not sorted by partition", (PARTITIONS[2], PARTITIONS[1], PARTITIONS[0], PARTITIONS[3])),
        ("nulls-last", "the row with a null partition value last (nulls sort first)", (*PARTITIONS[1:], PARTITIONS[0])),
    ):
        data = partition_stats_file(rows=stats_rows(partitions))
        yield _tree("partition-statistics.sorted", slug, description, partition=data, edit=_sized(data))
    data = partition_stats_file(rows=stats_rows((*PARTITIONS[:3], PARTITIONS[2])))
    yield _tree(
        "partition-statistics.unique-partition",
        "repeated-partition",
        "one partition tuple in two rows",
        partition=data,
        edit=_sized(data),
    )


GOLDEN = "spark-v3-statistics"


def _golden(rule_id: str, slug: str, description: str, change=None):
    """A validate-statistics case over the golden table written by Iceberg Java through Spark (its
    metadata tree and statistics files, data files left out); `change` edits the partition
    statistics file's rows (records by field id), whose entry then gets the new file size."""
    from spec_impl.vectors import tables  # late: the table corpus imports the reader and writer

    files, metadata_location, _ = tables.table_files(GOLDEN)
    doc = json.loads(files[metadata_location])
    kept = {p: d for p, d in files.items() if p == metadata_location or "/metadata/" in p and not p.endswith(".json")}
    if change is not None:
        entry = doc["partition-statistics"][0]
        schema, rows = read_parquet(kept[entry["statistics-path"]])
        data = write_parquet(change(rows), schema)
        kept[entry["statistics-path"]] = data
        entry["file-size-in-bytes"] = len(data)
        kept[metadata_location] = json.dumps(doc, indent=2).encode()
    inline = {p: _b64(d) for p, d in sorted(kept.items())}
    return case(  # a v3 table as Iceberg Java 1.10 writes it: the adopted revision (the seed's v3 is a draft)
        rule_id,
        slug,
        description,
        "validate-statistics",
        revisions=ADOPTED,
        files=inline,
        metadata_location=metadata_location,
    )


def _set(rows: list[dict], partition: dict, fid: int, value: int) -> list[dict]:
    return [{**r, fid: value} if r[1] == partition else r for r in rows]


def _golden_cases():
    yield _golden(
        "partition-statistics.counts",
        "spark-written",
        "statistics files written by Iceberg Java 1.10 through Spark 3.5 (CALL compute_table_stats and "
        "compute_partition_stats) on the golden table spark-v3-statistics: no violation",
    )
    yield _golden(
        "partition-statistics.counts",
        "data-record-count-off",
        "a row whose data_record_count is one more than the records of its partition's live data files",
        lambda rows: _set(rows, {1000: "b", 1001: 0}, 3, 2),
    )
    yield _golden(
        "partition-statistics.counts",
        "dv-count-off",
        "a row claiming a deletion vector its partition does not have",
        lambda rows: _set(rows, {1000: "c", 1001: 1}, 13, 1),
    )
    for slug, description, fid, value in (
        ("spec-id-off", "the row of partition (b, 0), whose live file has spec 1, says spec_id 0", 2, 0),
        (
            "last-updated-snapshot-too-old",
            "the row of partition (b, 0) says it was last updated by the first snapshot, before the second "
            "snapshot added its file",
            12,
            8983315547959670441,
        ),
        (
            "last-updated-snapshot-too-new",
            "the row of partition (b, 0) says it was last updated by the third snapshot, whose manifests add and "
            "delete no file of that partition",
            12,
            8032296112399504844,
        ),
        (
            "total-record-count-off",
            "the row of partition (b, 0), one data file of 1 record and no delete file, says total_record_count 2",
            10,
            2,
        ),
        (
            "last-updated-at-off",
            "the row of partition (b, 0) says last_updated_at one millisecond after its last_updated_snapshot_id's "
            "timestamp-ms",
            11,
            1795734231070,
        ),
    ):
        yield _golden(
            "partition-statistics.counts",
            slug,
            description,
            lambda rows, f=fid, v=value: _set(rows, {1000: "b", 1001: 0}, f, v),
        )
    yield _golden(
        "partition-statistics.unique-partition",
        "partition-without-row",
        "the row of a partition with a live data file is missing",
        lambda rows: [r for r in rows if r[1] != {1000: "c", 1001: 1}],
    )


def specs():
    yield from _golden_cases()
    yield from _metadata_cases()
    yield from _puffin_cases()
    yield from _partition_file_cases()
