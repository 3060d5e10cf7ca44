"""The ledger of known deviations (`conformance.ledger`): every file follows the one schema, and an
entry's `where` is matched the same way for the judge, the audit and the writer harness."""

from __future__ import annotations

import json

import jsonschema
import pytest

from conformance import ledger
from spec_impl.resources import (
    audit_ledger_file,
    known_engine_file,
    known_engine_files,
    ledger_schema_file,
    writers_ledger_file,
)


def test_every_ledger_file_follows_the_schema():
    validator = jsonschema.Draft202012Validator(json.loads(ledger_schema_file().read_text(encoding="utf-8")))
    files = [*known_engine_files(), audit_ledger_file(), writers_ledger_file()]
    assert len(files) >= 3
    for path in files:
        errors = [e.message for e in validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert not errors, (path.name, errors[:3])


def test_an_engine_file_is_named_as_its_engine_and_scopes_its_entries_to_it():
    for path in known_engine_files():
        doc = ledger.read(path)
        assert path == known_engine_file(doc["engine"])
        assert all(entry["where"]["engine"] == doc["engine"] for entry in doc["entries"])


@pytest.mark.parametrize(
    ("where", "observation", "applies"),
    [
        ({"engine": "duckdb", "case": "a/b"}, {"engine": "duckdb", "case": "a/b"}, True),
        ({"engine": "duckdb", "case": "a/b"}, {"engine": "chdb", "case": "a/b"}, False),
        ({"case": "transform.year/*"}, {"case": "transform.year/date-1969-12-31"}, True),
        ({"check": "reader:"}, {"check": "reader:duckdb"}, True),
        ({"check": ["validator", "audit"]}, {"check": "audit"}, True),
        ({"check": ["validator", "audit"]}, {"check": "reader:duckdb"}, False),
        ({"message": "^\\[x\\] bad"}, {"message": "[x] bad value"}, True),
        ({"message": "bad"}, {"message": None}, False),
        ({"format-version": 1}, {"format-version": 2}, False),
        ({"evolved-spec": False}, {"evolved-spec": False}, True),
        ({"evolved-spec": True}, {"evolved-spec": 1}, False),
        ({"step-op": "delete"}, {"step-op": None}, False),
        ({"writer": "spark"}, {}, False),
    ],
)
def test_where_matches_each_key_uniformly(where, observation, applies):
    assert ledger.applies(where, observation) is applies


def test_a_file_without_levels_or_scopes_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"engine": "x", "entries": [{"where": {"case": "a"}}]}))
    with pytest.raises(ValueError, match="level"):
        ledger.read(path)
    other = tmp_path / "y.json"
    other.write_text(json.dumps({"engine": "y", "entries": [{"where": {"engine": "z"}, "level": "violation"}]}))
    with pytest.raises(ValueError, match="another engine"):
        ledger.read(other)
