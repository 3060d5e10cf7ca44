"""The content-file JSON form (Content File (Data and Delete) Serialization) against the manifest
data_file it serializes: both directions agree on every pair of the vectors."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.vectors.content_file_ops import CONTENT_FILE_OPS
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
