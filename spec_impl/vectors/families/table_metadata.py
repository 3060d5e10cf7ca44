"""Table metadata documents: valid ones of each version with their normalized reading, and
invalid ones with the rule they break. Built by hand from Appendix C's examples."""

from __future__ import annotations

from spec_impl import revisions

import base64
import copy
import gzip
import json
from typing import Any

from spec_impl.resources import vectors_dir
from spec_impl.vectors.cases import case

NAME = "table-metadata"
DESCRIPTION = "Table Metadata Fields, Appendix C and E: reading table metadata of each format version"

UUID = "fb072c92-a02b-11e9-ae9c-1bb7bc9eca94"
S1, S2 = 3051729675574597004, 3055729675574597004
SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "identifier-field-ids": [1],
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "data", "required": False, "type": "string"},
        {"id": 3, "name": "ts", "required": False, "type": "timestamptz"},
    ],
}
SPEC = {
    "spec-id": 0,
    "fields": [
        {"source-id": 3, "field-id": 1000, "name": "ts_day", "transform": "day"},
        {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
    ],
}
ORDERS = [
    {"order-id": 0, "fields": []},
    {
        "order-id": 1,
        "fields": [
            {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
            {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"},
        ],
    },
]


def _snapshot(sid: int, parent: int | None, seq: int | None, ts: int, operation: str, **extra: Any) -> dict:
    snap = {
        "snapshot-id": sid,
        "timestamp-ms": ts,
        "summary": {"operation": operation},
        "manifest-list": f"s3://b/wh/data.db/table/metadata/snap-{sid}.avro",
        "schema-id": 0,
        **extra,
    }
    if parent is not None:
        snap["parent-snapshot-id"] = parent
    if seq is not None:
        snap["sequence-number"] = seq
    return snap


def v2() -> dict:
    """A complete v2 document: two snapshots, a branch and a tag, a bucket+day spec, a sort order."""
    return {
        "format-version": 2,
        "table-uuid": UUID,
        "location": "s3://b/wh/data.db/table",
        "last-sequence-number": 2,
        "last-updated-ms": 1555100955770,
        "last-column-id": 3,
        "current-schema-id": 0,
        "schemas": [copy.deepcopy(SCHEMA)],
        "default-spec-id": 0,
        "partition-specs": [copy.deepcopy(SPEC)],
        "last-partition-id": 1001,
        "default-sort-order-id": 1,
        "sort-orders": copy.deepcopy(ORDERS),
        "properties": {"write.format.default": "avro", "commit.retry.num-retries": "4"},
        "current-snapshot-id": S2,
        "snapshots": [
            _snapshot(S1, None, 1, 1515100955770, "append"),
            _snapshot(S2, S1, 2, 1555100955770, "overwrite"),
        ],
        "snapshot-log": [
            {"snapshot-id": S1, "timestamp-ms": 1515100955770},
            {"snapshot-id": S2, "timestamp-ms": 1555100955770},
        ],
        "metadata-log": [
            {"metadata-file": "s3://b/wh/data.db/table/metadata/v1.metadata.json", "timestamp-ms": 1515100955770}
        ],
        "refs": {
            "main": {"snapshot-id": S2, "type": "branch"},
            "test": {"snapshot-id": S1, "type": "tag", "max-ref-age-ms": 10000000},
        },
    }


def v1_legacy() -> dict:
    """v1 as early writers wrote it: schema and partition-spec only, no ids, no refs, -1 for no snapshot."""
    schema = {k: v for k, v in SCHEMA.items() if k not in ("schema-id", "identifier-field-ids")}
    return {
        "format-version": 1,
        "location": "s3://b/wh/data.db/table",
        "last-updated-ms": 1515100955770,
        "last-column-id": 3,
        "schema": schema,
        "partition-spec": [
            {"name": "ts_day", "transform": "day", "source-id": 3},
            {"name": "id_bucket", "transform": "bucket[16]", "source-id": 1},
        ],
        "properties": {},
        "current-snapshot-id": -1,
        "snapshots": [],
    }


def v1_with_snapshot() -> dict:
    doc = v1_legacy()
    doc.update(
        {
            "table-uuid": UUID,
            "current-snapshot-id": S1,
            "snapshots": [
                {
                    "snapshot-id": S1,
                    "timestamp-ms": 1515100955770,
                    "summary": {"operation": "append"},
                    "manifest-list": "s3://b/wh/data.db/table/metadata/snap-1.avro",
                }
            ],
        }
    )
    return doc


def v3() -> dict:
    """A v3 document: next-row-id, row lineage on snapshots, a timestamp_ns column with defaults."""
    doc = v2()
    doc["format-version"] = 3
    doc["schemas"][0]["fields"].append(
        {
            "id": 4,
            "name": "event_ns",
            "required": False,
            "type": "timestamp_ns",
            "initial-default": "2017-11-16T22:31:08.000000001",
            "write-default": "2017-11-16T22:31:08.000000001",
        }
    )
    doc["last-column-id"] = 4
    doc["next-row-id"] = 300
    doc["snapshots"][0].update({"first-row-id": 0, "added-rows": 100})
    doc["snapshots"][1].update({"first-row-id": 100, "added-rows": 200})
    return doc


def _without(doc: dict, key: str) -> dict:
    doc = copy.deepcopy(doc)
    del doc[key]
    return doc


def _with(doc: dict, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    doc.update({k.replace("_", "-"): v for k, v in changes.items()})
    return doc


def _read(rule_id: str, slug: str, description: str, document: dict, **kw):
    return case(rule_id, slug, description, "read-table-metadata", document=document, **kw)


def _file(doc: dict, compress: bool) -> str:
    data = json.dumps(doc, sort_keys=True).encode()
    return base64.b64encode(gzip.compress(data, mtime=0) if compress else data).decode()


def _raw(text: bytes) -> str:
    return base64.b64encode(text).decode()


def _strict_json():
    """Rule json.document: metadata files are RFC 8259 JSON (no NaN tokens, no duplicate keys), bounded in depth."""
    plain = json.dumps(v2(), sort_keys=True).encode()
    notes = {
        "duplicate-key": "RFC 8259 §4: with duplicate names the behavior is unpredictable; Iceberg Java (Jackson "
        "without STRICT_DUPLICATE_DETECTION) reads the last value, the reference rejects the ambiguous document",
        "nan-token": "RFC 8259 §6: NaN and Infinity are not JSON numbers; Jackson rejects them by default",
    }
    yield case(
        "json.document",
        "duplicate-key",
        "a metadata file with the key format-version twice",
        "read-metadata-file",
        note=notes["duplicate-key"],
        **{"file-base64": _raw(b'{"format-version": 1, ' + plain[1:])},
    )
    yield case(
        "json.document",
        "duplicate-reference-name",
        "a metadata file whose refs name the reference test twice (a branch, then a tag): "
        "the map keys are the unique snapshot reference names",
        "read-metadata-file",
        note=notes["duplicate-key"],
        **{
            "file-base64": _raw(
                plain.replace(
                    b'"refs": {', b'"refs": {"test": {"snapshot-id": 3055729675574597004, "type": "branch"}, ', 1
                )
            )
        },
    )
    yield case(
        "json.document",
        "nan-token",
        "a metadata file with the token NaN for last-updated-ms",
        "read-metadata-file",
        note=notes["nan-token"],
        **{"file-base64": _raw(plain.replace(b'"last-updated-ms": ', b'"last-updated-ms": NaN, "x": ', 1))},
    )
    yield case(
        "json.document",
        "infinity-token",
        "a metadata file with the token Infinity",
        "read-metadata-file",
        note=notes["nan-token"],
        **{"file-base64": _raw(plain.replace(b'"last-updated-ms": ', b'"last-updated-ms": Infinity, "x": ', 1))},
    )
    yield case(
        "json.document",
        "deep-nesting",
        "a metadata file opening 1,000 arrays: rejected by the nesting bound, not a crash",
        "read-metadata-file",
        **{"file-base64": _raw(b'{"a":' + b"[" * 1000)},
    )
    yield case(
        "table.gzip",
        "corrupt-gzip",
        "a gzip stream whose data is damaged",
        "read-metadata-file",
        **{"file-base64": _raw(gzip.compress(plain, mtime=0)[:40] + b"\xff" * 8)},
    )


def _optional_for_readers():
    """Fields a v1 writer must write that a reader can do without. Table Metadata Fields: v1 `schema`
    and `partition-spec` are required but "(Deprecated: use schemas and current-schema-id instead)"
    / "(Deprecated: use partition-specs and default-spec-id instead)", and Appendix C says "schema
    ... read schemas instead", "partition-spec ... read partition-specs instead": a reader reads the
    lists, so a v1 document carrying only the lists (as some catalogs write it) is read, with the
    same reading as the document carrying both."""
    lists_only = v1_with_snapshot()
    for key in ("schema", "partition-spec"):
        del lists_only[key]
    lists_only.update(
        {
            "schemas": [copy.deepcopy(SCHEMA)],
            "current-schema-id": 0,
            "partition-specs": [copy.deepcopy(SPEC)],
            "default-spec-id": 0,
            "last-partition-id": 1001,
        }
    )
    yield _read(
        "table.v1-defaults",
        "v1-lists-only",
        "v1 with schemas/current-schema-id and partition-specs/default-spec-id but no "
        "deprecated schema or partition-spec: a reader reads the lists (Appendix C: 'read schemas instead')",
        lists_only,
    )
    no_spec = copy.deepcopy(lists_only)
    for key in ("partition-specs", "default-spec-id"):
        del no_spec[key]
    no_spec["partition-spec"] = copy.deepcopy(SPEC["fields"])
    yield _read(
        "table.v1-defaults",
        "v1-schemas-with-partition-spec",
        "v1 with schemas (no schema) and only the deprecated "
        "partition-spec field list: each field read from the form present",
        no_spec,
    )


def _writes():
    for name, doc in (("v1", v1_with_snapshot()), ("v2", v2()), ("v3", v3())):
        yield case(
            "table.writer",
            f"write-{name}",
            f"a {name} document as a {name} writer writes it back (Appendix E writer requirements)",
            "write-table-metadata",
            document=doc,
        )
    yield case(
        "table.writer",
        "upgrade-v1-to-v2",
        "a v1 table written as v2: last-sequence-number 0 written, schema and partition-spec omitted",
        "write-table-metadata",
        document=v1_with_snapshot(),
        format_version=2,
    )
    yield case(
        "table.writer",
        "upgrade-v2-to-v3",
        "a v2 table written as v3: next-row-id 0, snapshots keep a null first-row-id",
        "write-table-metadata",
        document=v2(),
        format_version=3,
    )
    yield case(
        "table.writer",
        "no-downgrade",
        "a v2 table cannot be written as v1",
        "write-table-metadata",
        document=v2(),
        format_version=1,
    )


SOURCES = vectors_dir() / "sources" / "metadata"


def _engine_written():
    """Every metadata file of vectors/sources/metadata/: written by Iceberg Java (Spark), PyIceberg, DuckDB."""
    for path in sorted(SOURCES.glob("*/*/*.metadata.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        engine, scenario = path.parts[-3], path.parts[-2]
        rule_id = "table.v1-defaults" if doc.get("format-version") == 1 else "table.required-field"
        yield _read(
            rule_id,
            f"{engine}-{scenario}-{path.name.split('.')[0][:12]}",
            f"written by {engine} ({scenario}): {path.relative_to(SOURCES.parent.parent)}",
            doc,
        )


def _types_ids_and_keys():
    """Fields of another JSON type, duplicated spec and sort order ids, and encryption keys broken one
    field at a time (adopted 1.7)."""
    for key, value in (
        ("location", 5),
        ("last-column-id", "3"),
        ("last-partition-id", "1001"),
        ("last-updated-ms", "1515100955770"),
        ("current-schema-id", "0"),
        ("default-spec-id", "0"),
        ("default-sort-order-id", "1"),
    ):
        yield _read("table.field-type", f"{key}-wrong-type", f"{key} of another JSON type", _with(v2(), **{key: value}))
    yield _read(
        "schema.json",
        "v1-schema-a-list",
        "a v1 schema given as a JSON list, not an object",
        _with(v1_legacy(), schema=[]),
    )
    doc = v2()
    doc["partition-specs"].append(copy.deepcopy(SPEC))
    yield _read("table.unique-ids", "duplicate-spec-ids", "two partition specs with id 0", doc)
    doc = v2()
    doc["sort-orders"].append(copy.deepcopy(ORDERS[1]))
    yield _read("table.unique-ids", "duplicate-sort-order-ids", "two sort orders with id 1", doc)
    good = {"key-id": "k1", "encrypted-key-metadata": "AAAA", "encrypted-by-id": "k0", "properties": {"a": "b"}}
    keys = [good, {"key-id": "k0", "encrypted-key-metadata": "AAAA"}]
    yield _read(
        "table.encryption-keys",
        "encryption-keys-all-fields",
        "two keys, one encrypted by the other, with properties",
        _with(v3(), encryption_keys=keys),
    )
    for slug, description, change in (
        ("key-id-number", "key-id is a number (encrypted-key-metadata is valid)", {"key-id": 1}),
        (
            "key-metadata-missing",
            "encrypted-key-metadata is missing (key-id is valid)",
            {"encrypted-key-metadata": None},
        ),
        ("key-metadata-not-base64", "encrypted-key-metadata is not base64", {"encrypted-key-metadata": "not base64!"}),
        ("encrypted-by-id-number", "encrypted-by-id is a number, not a key id", {"encrypted-by-id": 0}),
        ("properties-not-map", "properties is a list, not a map", {"properties": ["a"]}),
        ("properties-not-strings", "a property value is a number", {"properties": {"a": 1}}),
    ):
        key = {k: v for k, v in {**good, **change}.items() if v is not None}
        yield _read(
            "table.encryption-keys", f"encryption-{slug}", description, _with(v3(), encryption_keys=[key, keys[1]])
        )
    for slug, description, key_id in (
        ("names-a-key", "a snapshot's key-id k1 names an entry of encryption-keys", "k1"),
        ("names-no-key", "a snapshot's key-id k9 names no entry of encryption-keys", "k9"),
    ):
        doc = _with(v3(), encryption_keys=keys)
        doc["snapshots"][-1]["key-id"] = key_id
        yield _read("snapshot.key-id", f"table-key-id-{slug}", description, doc)
    yield _read(
        "table.field-type",
        "encryption-keys-not-list",
        "encryption-keys is an object, not a list of objects",
        _with(v3(), encryption_keys=keys[1]),
        revisions=revisions.ADOPTED,
    )


def specs():
    yield from _engine_written()
    yield from _writes()
    yield case(
        "table.gzip",
        "gzip-file",
        "a gzip-compressed metadata file (the adopted spec allows it; the seed text knows only JSON)",
        "read-metadata-file",
        **{"file-base64": _file(v2(), True)},
    )
    yield case(
        "table.field-type",
        "plain-file",
        "an uncompressed metadata file",
        "read-metadata-file",
        **{"file-base64": _file(v2(), False)},
    )
    yield from _strict_json()
    yield from _optional_for_readers()
    yield from _types_ids_and_keys()
    yield _read("table.required-field", "v2-complete", "a complete v2 document (Appendix C's example fields)", v2())
    yield _read(
        "table.v1-defaults",
        "v1-legacy",
        "v1 with only schema and partition-spec: schemas, specs with ids from 1000, unsorted order, sequence number 0",
        v1_legacy(),
    )
    yield _read(
        "table.v1-defaults",
        "v1-with-snapshot",
        "v1 with a snapshot and no refs: main is synthesized, sequence numbers 0",
        v1_with_snapshot(),
    )
    yield _read("snapshot.row-lineage", "v3-complete", "a complete v3 document with row lineage", v3())
    both = _with(v2(), schema={"type": "struct", "fields": []}, partition_spec=[])
    yield _read(
        "table.deprecated-ignored",
        "v2-with-deprecated-fields",
        "schema and partition-spec are ignored when schemas and partition-specs are present",
        both,
    )
    yield _read(
        "table.format-version",
        "format-version-99",
        "a format version above the supported one must be rejected",
        _with(v2(), format_version=99),
    )
    yield _read(
        "table.format-version",
        "format-version-string",
        "format-version must be an integer",
        _with(v2(), format_version="2"),
    )
    for key in (
        "table-uuid",
        "last-sequence-number",
        "schemas",
        "current-schema-id",
        "partition-specs",
        "default-spec-id",
        "last-partition-id",
        "sort-orders",
        "default-sort-order-id",
        "location",
        "last-updated-ms",
        "last-column-id",
    ):
        yield _read("table.required-field", f"v2-without-{key}", f"v2 requires {key}", _without(v2(), key))
    yield _read(
        "table.required-field", "v3-without-next-row-id", "v3 requires next-row-id", _without(v3(), "next-row-id")
    )
    yield _read(
        "table.required-field", "v1-without-schema", "v1 needs schema or schemas", _without(v1_legacy(), "schema")
    )
    yield _read("table.table-uuid", "bad-uuid", "table-uuid must be a UUID", _with(v2(), table_uuid="not-a-uuid"))
    yield _read(
        "table.table-uuid",
        "null-in-v2",
        "table-uuid is required from v2: null is rejected (a writer must not invent one)",
        _with(v2(), table_uuid=None),
    )
    yield _read(
        "table.current-schema",
        "unknown-current-schema",
        "current-schema-id must name a schema",
        _with(v2(), current_schema_id=7),
    )
    yield _read(
        "table.default-spec", "unknown-default-spec", "default-spec-id must name a spec", _with(v2(), default_spec_id=3)
    )
    yield _read(
        "table.default-sort-order",
        "unknown-default-sort-order",
        "default-sort-order-id must name an order",
        _with(v2(), default_sort_order_id=9),
    )
    yield _read(
        "table.last-column-id",
        "last-column-id-too-low",
        "last-column-id below a field id",
        _with(v2(), last_column_id=2),
    )
    yield _read(
        "table.last-partition-id",
        "last-partition-id-too-low",
        "last-partition-id below a partition field id",
        _with(v2(), last_partition_id=1000),
    )
    yield _read(
        "snapshot.last-sequence-number",
        "snapshot-sequence-above-last",
        "a snapshot's sequence number above last-sequence-number",
        _with(v2(), last_sequence_number=1),
    )
    yield _read(
        "snapshot.next-row-id",
        "next-row-id-too-low",
        "next-row-id below first-row-id + added-rows of a snapshot",
        _with(v3(), next_row_id=250),
    )
    dup = v2()
    dup["schemas"].append(copy.deepcopy(SCHEMA))
    yield _read("table.unique-ids", "duplicate-schema-ids", "two schemas with id 0", dup)
    yield _read(
        "table.field-type", "properties-not-strings", "property values are strings", _with(v2(), properties={"a": 1})
    )
    yield _read(
        "snapshot-log.json",
        "bad-snapshot-log",
        "snapshot-log entries need snapshot-id and timestamp-ms",
        _with(v2(), snapshot_log=[{"snapshot-id": S1}]),
    )
    yield _read(
        "table.logs",
        "bad-metadata-log",
        "metadata-log entries need metadata-file and timestamp-ms",
        _with(v2(), metadata_log=[{"timestamp-ms": 1}]),
    )
    yield _read(
        "table.statistics",
        "bad-statistics",
        "a statistics entry needs its required fields",
        _with(v2(), statistics=[{"snapshot-id": S1}]),
    )
    yield _read(
        "table.encryption-keys",
        "bad-encryption-key",
        "an encryption key needs key-id and encrypted-key-metadata",
        _with(v3(), encryption_keys=[{"key-id": 1}]),
    )
