"""The content-file JSON form (Content File (Data and Delete) Serialization) against the manifest
data_file it serializes: both directions agree on every pair of the vectors."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.ops.content_file_ops import CONTENT_FILE_OPS
from spec_impl.vectors.families import content_files as F


@pytest.mark.parametrize("slug, what, doc, record", F.PAIRS, ids=[p[0] for p in F.PAIRS])
def test_reading_and_writing_are_inverse(slug, what, doc, record):
    spec = next(s for s in F.SPECS if s["spec-id"] == doc["spec-id"])
    parsed = CONTENT_FILE_OPS["parse-content-file"]({"schema": F.SCHEMA, "specs": F.SPECS, "json": doc}, "v3-adopted")
    assert parsed == {"spec-id": doc["spec-id"], "data-file": record}
    written = CONTENT_FILE_OPS["write-content-file"]({"schema": F.SCHEMA, "spec": spec, "data-file": record}, "")
    assert written == doc


def test_a_partition_keyed_by_name_is_not_a_content_file():
    doc = dict(F.DATA_FILE, partition={"category": "x"})
    with pytest.raises(InvalidInput) as e:
        CONTENT_FILE_OPS["parse-content-file"]({"schema": F.SCHEMA, "specs": F.SPECS, "json": doc}, "v3-adopted")
    assert e.value.rule == "content-file.json.partition"


def _rejected_under(doc: dict) -> str:
    with pytest.raises(InvalidInput) as e:
        CONTENT_FILE_OPS["parse-content-file"]({"schema": F.SCHEMA, "specs": F.SPECS, "json": doc}, "v3-adopted")
    return e.value.rule


def test_content_is_one_of_the_tables_strings():
    """content-file.json.content: DATA, POSITION_DELETES, EQUALITY_DELETES, not the REST spelling "data"."""
    assert _rejected_under(dict(F.DATA_FILE, content="data")) == "content-file.json.content"


def test_bounds_are_hex_of_either_case():
    """content-file.json.bounds: "0A" reads as "0a"; a bound given as its typed value is not hex."""
    upper = {"keys": [1], "values": ["0A00000000000000"]}
    out = CONTENT_FILE_OPS["parse-content-file"](
        {"schema": F.SCHEMA, "specs": F.SPECS, "json": dict(F.DATA_FILE, **{"upper-bounds": upper})}, "v3-adopted"
    )
    assert out["data-file"]["upper_bounds"] == {"1": "0a00000000000000"}
    typed = {"keys": [1], "values": [1]}
    assert _rejected_under(dict(F.DATA_FILE, **{"lower-bounds": typed})) == "content-file.json.bounds"


def test_a_file_scan_task_needs_a_data_file():
    """file-scan-task.json: schema, spec and data-file are required; the residual defaults to true."""
    task = {"schema": F.SCHEMA, "spec": F.PARTITIONED, "data-file": F.DATA_FILE}
    out = CONTENT_FILE_OPS["parse-file-scan-task"]({"task": task, "format-version": 2}, "v3-adopted")
    assert out["residual-filter"] is True and out["delete-files"] == []
    with pytest.raises(InvalidInput) as e:
        CONTENT_FILE_OPS["parse-file-scan-task"]({"task": dict(task, **{"data-file": None}), "format-version": 2}, "")
    assert e.value.rule == "file-scan-task.json"
