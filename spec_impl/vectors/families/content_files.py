"""Content files (data and delete files) and file scan tasks as JSON: each JSON object paired with
the manifest data_file it serializes (read and written), and documents a reader must not take for
one (a content string of another spelling, bounds that are not hexadecimal, a partition keyed by
name or given as a list, a required field missing)."""

from __future__ import annotations

import copy
from collections.abc import Iterator

from spec_impl.vectors.cases import CaseSpec, case

NAME = "content-files"
DESCRIPTION = (
    "Content File (Data and Delete) Serialization, File Scan Task Serialization: the JSON forms of data and "
    "delete files and of file scan tasks (the REST scan-planning protocol)"
)

SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "category", "required": False, "type": "string"},
        {"id": 3, "name": "ts", "required": False, "type": "timestamp"},
    ],
}
UNPARTITIONED = {"spec-id": 0, "fields": []}
PARTITIONED = {
    "spec-id": 1,
    "fields": [
        {"source-id": 2, "field-id": 1000, "name": "category", "transform": "identity"},
        {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
        {"source-id": 3, "field-id": 1002, "name": "ts_day", "transform": "day"},
    ],
}
SPECS = [UNPARTITIONED, PARTITIONED]
PATH = "s3://b/wh/db.db/t/data"

# (slug, description, the content file's JSON, the data_file it serializes; spec-id is the JSON's)
DATA_FILE = {
    "spec-id": 1,
    "content": "DATA",
    "file-path": f"{PATH}/category=x/a.parquet",
    "file-format": "PARQUET",
    "partition": {"1000": "x", "1001": 3, "1002": "2024-03-01"},
    "record-count": 2,
    "file-size-in-bytes": 1024,
    "column-sizes": {"keys": [1, 2], "values": [100, 200]},
    "value-counts": {"keys": [1, 2], "values": [2, 2]},
    "null-value-counts": {"keys": [1, 2], "values": [0, 1]},
    "nan-value-counts": {"keys": [], "values": []},
    "lower-bounds": {"keys": [1, 2], "values": ["0100000000000000", "78"]},
    "upper-bounds": {"keys": [1, 2], "values": ["0900000000000000", "78"]},
    "split-offsets": [4],
    "sort-order-id": 0,
}
DATA_RECORD = {
    "content": 0,
    "file_path": f"{PATH}/category=x/a.parquet",
    "file_format": "PARQUET",
    "partition": {"1000": "x", "1001": 3, "1002": "2024-03-01"},
    "record_count": 2,
    "file_size_in_bytes": 1024,
    "column_sizes": {"1": 100, "2": 200},
    "value_counts": {"1": 2, "2": 2},
    "null_value_counts": {"1": 0, "2": 1},
    "nan_value_counts": {},
    "lower_bounds": {"1": "0100000000000000", "2": "78"},
    "upper_bounds": {"1": "0900000000000000", "2": "78"},
    "split_offsets": [4],
    "sort_order_id": 0,
}
POSITION_DELETES = {
    "spec-id": 1,
    "content": "POSITION_DELETES",
    "file-path": f"{PATH}/category=x/d.parquet",
    "file-format": "PARQUET",
    "partition": {"1000": "x", "1001": 3, "1002": "2024-03-01"},
    "record-count": 1,
    "file-size-in-bytes": 512,
}
EQUALITY_DELETES = {
    "spec-id": 0,
    "content": "EQUALITY_DELETES",
    "file-path": f"{PATH}/e.avro",
    "file-format": "AVRO",
    "partition": {},
    "record-count": 3,
    "file-size-in-bytes": 300,
    "equality-ids": [1],
    "key-metadata": "00000000000000000000000000000000",
    "sort-order-id": 0,
}
PAIRS = (
    (
        "data-file",
        "a partitioned data file with every metric map, split offsets and a sort order",
        DATA_FILE,
        DATA_RECORD,
    ),
    (
        "position-deletes",
        "a position delete file of the partitioned spec",
        POSITION_DELETES,
        {
            "content": 1,
            "file_path": f"{PATH}/category=x/d.parquet",
            "file_format": "PARQUET",
            "partition": {"1000": "x", "1001": 3, "1002": "2024-03-01"},
            "record_count": 1,
            "file_size_in_bytes": 512,
        },
    ),
    (
        "equality-deletes",
        "an unpartitioned equality delete file (partition {}) with equality ids and key metadata",
        EQUALITY_DELETES,
        {
            "content": 2,
            "file_path": f"{PATH}/e.avro",
            "file_format": "AVRO",
            "partition": {},
            "record_count": 3,
            "file_size_in_bytes": 300,
            "equality_ids": [1],
            "key_metadata": "00000000000000000000000000000000",
            "sort_order_id": 0,
        },
    ),
)

# (rule, slug, description, change to the data file's JSON)
_INVALID = (
    ("content-file.json.content", "content-lowercase", 'content "data" (not one of the table\'s strings)', "data"),
    ("content-file.json.content", "content-deletes", 'content "DELETES"', "DELETES"),
    ("content-file.json.content", "content-number", "content 0, the manifest's number", 0),
    ("content-file.json.content", "content-missing", "no content", None),
)


def _with(doc: dict, **changes) -> dict:
    """The document with keys replaced (a value None removes the key)."""
    out = copy.deepcopy(doc)
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _parse(rule: str, slug: str, description: str, doc: dict) -> CaseSpec:
    return case(rule, slug, description, "parse-content-file", schema=SCHEMA, specs=SPECS, json=doc)


def _pair_cases() -> Iterator[CaseSpec]:
    for slug, what, doc, record in PAIRS:
        spec = next(s for s in SPECS if s["spec-id"] == doc["spec-id"])
        yield _parse("content-file.json", f"read-{slug}", f"reading {what}", doc)
        yield case(
            "content-file.json",
            f"write-{slug}",
            f"writing {what}",
            "write-content-file",
            schema=SCHEMA,
            spec=spec,
            data_file=record,
        )
    yield _parse(
        "content-file.json",
        "read-orc-data-file",
        "reading a data file whose file-format is ORC",
        _with(DATA_FILE, file_format="ORC", file_path="s3://b/wh/db.db/t/data/category=x/a.orc"),
    )
    for content in ("DATA", "POSITION_DELETES", "EQUALITY_DELETES"):
        doc = _with(EQUALITY_DELETES, content=content, equality_ids=None)
        yield _parse(
            "content-file.json.content", f"content-{content.lower().replace('_', '-')}", f"content {content}", doc
        )


def _bounds_cases() -> Iterator[CaseSpec]:
    rule = "content-file.json.bounds"
    upper = {"keys": [1], "values": ["0A00000000000000"]}  # upper-case, as the section's example
    yield _parse(
        rule,
        "upper-case-hex",
        "bounds in upper-case hexadecimal, as the spec's example",
        _with(DATA_FILE, upper_bounds=upper),
    )
    for slug, what, values in (
        ("not-hex", "a bound that is not hexadecimal", ["zz00000000000000"]),
        ("odd-length", "a bound of an odd number of hex digits", ["010"]),
        ("typed-value", "a bound given as its JSON value 1, not as hex of its binary form", [1]),
    ):
        bad = _with(DATA_FILE, lower_bounds={"keys": [1], "values": values})
        yield _parse(rule, f"lower-bound-{slug}", what, bad)
    yield _parse(
        rule, "key-metadata-not-hex", "key-metadata that is not hex", _with(EQUALITY_DELETES, key_metadata="key")
    )


def _partition_cases() -> Iterator[CaseSpec]:
    rule = "content-file.json.partition"
    by_name = {"category": "x", "id_bucket": 3, "ts_day": "2024-03-01"}
    yield _parse(rule, "keyed-by-name", "partition keyed by partition field name", _with(DATA_FILE, partition=by_name))
    yield _parse(rule, "as-list", "partition as a list of values", _with(DATA_FILE, partition=["x", 3, "2024-03-01"]))
    wrong = {"1000": "x", "1001": "3", "1002": "2024-03-01"}
    yield _parse(rule, "value-of-other-type", "a bucket value given as a string", _with(DATA_FILE, partition=wrong))
    yield _parse(rule, "missing", "no partition", _with(POSITION_DELETES, partition=None))
    null = {"1000": None, "1001": 3, "1002": "2024-03-01"}
    yield _parse(rule, "null-value", "a null identity partition value", _with(POSITION_DELETES, partition=null))
    source_ids = {"2": "x", "1": 3, "3": "2024-03-01"}
    yield _parse(
        rule, "keyed-by-source-id", "partition keyed by the source column ids", _with(DATA_FILE, partition=source_ids)
    )


def _invalid_cases() -> Iterator[CaseSpec]:
    for rule, slug, what, content in _INVALID:
        yield _parse(rule, slug, what, _with(DATA_FILE, content=content))
    rule = "content-file.json"
    for key in ("file-path", "file-format", "record-count", "file-size-in-bytes", "spec-id"):
        yield _parse(rule, f"no-{key}", f"no {key}", _with(DATA_FILE, **{key: None}))
    yield _parse(rule, "unknown-spec-id", "spec-id 7, which the table does not have", _with(DATA_FILE, spec_id=7))
    uneven = {"keys": [1, 2], "values": [100]}
    yield _parse(rule, "uneven-map", "column-sizes with more keys than values", _with(DATA_FILE, column_sizes=uneven))
    yield _parse(rule, "record-count-string", 'record-count "2"', _with(DATA_FILE, record_count="2"))
    yield _parse(
        rule, "file-format-csv", 'file-format "CSV", none of AVRO, ORC, PARQUET', _with(DATA_FILE, file_format="CSV")
    )


def _task_cases() -> Iterator[CaseSpec]:
    rule = "file-scan-task.json"
    task = {
        "schema": SCHEMA,
        "spec": PARTITIONED,
        "data-file": DATA_FILE,
        "delete-files": [POSITION_DELETES, _with(EQUALITY_DELETES, spec_id=1, partition=POSITION_DELETES["partition"])],
        "residual-filter": {"type": "eq", "term": "id", "value": 1},
    }
    yield case(
        rule,
        "task",
        "a task with a data file, two delete files and a residual filter",
        "parse-file-scan-task",
        task=task,
        format_version=2,
    )
    bare = {k: task[k] for k in ("schema", "spec", "data-file")}
    yield case(
        rule,
        "task-without-deletes-or-filter",
        "a task without delete files or residual (residual true)",
        "parse-file-scan-task",
        task=bare,
        format_version=2,
    )
    for slug, what, changed in (
        ("no-data-file", "a task without data-file", {k: v for k, v in task.items() if k != "data-file"}),
        ("no-schema", "a task without schema", {k: v for k, v in task.items() if k != "schema"}),
        (
            "data-file-is-a-delete",
            "a task whose data-file is a position delete file",
            dict(task, **{"data-file": POSITION_DELETES}),
        ),
        (
            "delete-file-is-data",
            "a task listing a data file among its delete files",
            dict(task, **{"delete-files": [DATA_FILE]}),
        ),
        (
            "filter-on-unknown-column",
            "a residual filter on a column the schema lacks",
            dict(task, **{"residual-filter": {"type": "eq", "term": "nope", "value": 1}}),
        ),
    ):
        yield case(rule, slug, what, "parse-file-scan-task", task=changed, format_version=2)


def specs() -> Iterator[CaseSpec]:
    yield from _pair_cases()
    yield from _bounds_cases()
    yield from _partition_cases()
    yield from _invalid_cases()
    yield from _task_cases()
