"""View metadata: the adopted view spec and the early draft (`001_7d950bd0efa94146.txt`)."""

from __future__ import annotations

import copy
import json

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.metadata.view_metadata import SqlRepresentation, UnknownRepresentation, parse_view_metadata
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.rules import RULES

SCHEMA_1 = {
    "schema-id": 1,
    "type": "struct",
    "fields": [
        {"id": 1, "name": "event_count", "required": False, "type": "int", "doc": "Count of events"},
        {"id": 2, "name": "event_date", "required": False, "type": "date"},
    ],
}


def _version(vid, ts, sql):
    return {
        "version-id": vid,
        "timestamp-ms": ts,
        "schema-id": 1,
        "default-catalog": "prod",
        "default-namespace": ["default"],
        "summary": {"engine-name": "Spark", "engine-version": "3.3.2"},
        "representations": [{"type": "sql", "sql": sql, "dialect": "spark"}],
    }


# The adopted view spec's Appendix A example after the second CREATE OR REPLACE.
ADOPTED = {
    "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
    "format-version": 1,
    "location": "s3://bucket/warehouse/default.db/event_agg",
    "current-version-id": 2,
    "properties": {"comment": "Daily event counts"},
    "versions": [
        _version(1, 1573518431292, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2"),
        _version(
            2, 1573518981593, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM prod.default.events\nGROUP BY 2"
        ),
    ],
    "schemas": [SCHEMA_1],
    "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}, {"timestamp-ms": 1573518981593, "version-id": 2}],
}


def _draft_schema(sid, *names):
    return {
        "schema-id": sid,
        "type": "struct",
        "fields": [{"id": i, "name": n, "required": False, "type": "int", "doc": ""} for i, n in enumerate(names)],
    }


def _draft_repr(sql, dialect, sid):
    return {
        "type": "sql",
        "sql": sql,
        "dialect": dialect,
        "schema-id": sid,
        "default-catalog": "iceberg",
        "default-namespace": ["anorwood"],
    }


# The draft's second example (end of step 4), corrected: trailing commas and "=>" notes removed.
# parent-version-id and the version-level "properties" are kept as printed (they are ignored).
DRAFT = {
    "format-version": 1,
    "location": "s3n://my_company/my/warehouse/anorwood.db/common_view",
    "current-version-id": 2,
    "properties": {"comment": "View captures count of the data from the table"},
    "versions": [
        {
            "version-id": 1,
            "parent-version-id": -1,
            "timestamp-ms": 1573518431292,
            "summary": {"operation": "create", "engineVersion": "presto-350"},
            "representations": [_draft_repr("SELECT *\nFROM\n  base_tab\n", "presto", 1)],
            "properties": {},
        },
        {
            "version-id": 2,
            "parent-version-id": 1,
            "timestamp-ms": 1573518440265,
            "summary": {"operation": "replace", "engineVersion": "spark-2.4.4"},
            "representations": [_draft_repr('SELECT "count"(*) my_cnt\nFROM\n  base_tab\n', "spark", 2)],
        },
    ],
    "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}, {"timestamp-ms": 1573518440265, "version-id": 2}],
    "schemas": [_draft_schema(1, "c1", "c2"), _draft_schema(2, "my_cnt")],
    "current-schema-id": 2,
}


def _err(rule, obj, revision=V3_ADOPTED):
    with pytest.raises(InvalidInput) as e:
        parse_view_metadata(obj, revision)
    assert e.value.rule == rule and rule in RULES
    return e.value


def _with(base, **changes):
    out = copy.deepcopy(base)
    for key, value in changes.items():
        out[key.replace("_", "-")] = value
    return out


def _without(base, key):
    out = copy.deepcopy(base)
    del out[key]
    return out


def test_adopted_example_round_trips():
    m = parse_view_metadata(ADOPTED, V3_ADOPTED)
    assert m.view_uuid == ADOPTED["view-uuid"] and m.current_version.version_id == 2
    assert m.current_version.default_namespace == ("default",) and m.current_version.schema_id == 1
    assert m.current_version.representations == (
        SqlRepresentation(ADOPTED["versions"][1]["representations"][0]["sql"], "spark"),
    )
    assert m.to_json() == ADOPTED and parse_view_metadata(m.to_json()) == m


def test_draft_example_as_printed_is_not_json():
    """Finding: the draft's example has trailing commas (and a parent-version-id field)."""
    printed = '{"summary" : {"operation" : "create", "engineVersion" : "presto-350",}, "parent-version-id" : -1}'
    with pytest.raises(json.JSONDecodeError):
        json.loads(printed)


def test_draft_example_corrected_round_trips():
    m = parse_view_metadata(DRAFT, SEED_2024)
    assert m.view_uuid is None and m.current_schema_id == 2 and len(m.schemas) == 2
    rep = m.current_version.representations[0]
    assert rep.schema_id == 2 and rep.default_namespace == ("anorwood",) and rep.default_catalog == "iceberg"
    out = m.to_json()
    expected = copy.deepcopy(DRAFT)
    for v in expected["versions"]:
        v.pop("parent-version-id")
        v.pop("properties", None)
    assert out == expected


def test_revisions_differ():
    """view.uuid / view.summary-operation: each example breaks the other revision's rules."""
    _err("view.uuid", DRAFT, V3_ADOPTED)
    _err("view.summary-operation", ADOPTED, SEED_2024)
    draft = parse_view_metadata(DRAFT, SEED_2024)
    with pytest.raises(InvalidInput) as e:
        draft.to_json(V3_ADOPTED)
    assert e.value.rule == "view.uuid"


def test_format_version():
    """view.format-version"""
    for bad in (2, 0, "1", True, None):
        _err("view.format-version", _with(ADOPTED, format_version=bad))
        _err("view.format-version", _with(DRAFT, format_version=bad), SEED_2024)


def test_view_uuid():
    """view.uuid"""
    _err("view.uuid", _without(ADOPTED, "view-uuid"))
    _err("view.uuid", _with(ADOPTED, view_uuid="not-a-uuid"))


def test_json_shape():
    """view.json"""
    _err("view.json", [ADOPTED])
    _err("view.json", _without(ADOPTED, "location"))
    _err("view.json", _with(ADOPTED, properties={"a": 1}))
    bad = copy.deepcopy(ADOPTED)
    bad["versions"][0]["timestamp-ms"] = "yesterday"
    _err("view.json", bad)
    bad = copy.deepcopy(DRAFT)
    bad["versions"][0]["representations"][0]["default-namespace"] = "anorwood"
    _err("view.json", bad, SEED_2024)


def test_schemas():
    """view.schemas: required in the adopted spec; unique integer schema ids."""
    _err("view.schemas", _without(ADOPTED, "schemas"))
    _err("view.schemas", _with(ADOPTED, schemas=[SCHEMA_1, SCHEMA_1]))
    _err("view.schemas", _with(ADOPTED, schemas=[{"type": "struct", "fields": []}]))
    _err("view.schemas", _with(ADOPTED, schemas={"schema-id": 1}))
    draft = _without(_without(DRAFT, "schemas"), "current-schema-id")
    for v in draft["versions"]:
        del v["representations"][0]["schema-id"]
    assert parse_view_metadata(draft, SEED_2024).schemas is None  # optional in the draft


def test_current_version():
    """view.current-version"""
    _err("view.current-version", _with(ADOPTED, current_version_id=3))
    _err("view.current-version", _without(ADOPTED, "current-version-id"))
    _err("view.current-version", _with(DRAFT, current_version_id=7), SEED_2024)
    assert parse_view_metadata(_with(ADOPTED, current_version_id=1)).current_version.version_id == 1


def test_version_ids_unique():
    """view.version-unique"""
    bad = copy.deepcopy(ADOPTED)
    bad["versions"][1]["version-id"] = 1
    _err("view.version-unique", bad)
    _err("view.version-unique", _with(ADOPTED, versions=[]))


def test_version_schema_id():
    """view.schema-id: adopted versions need a known schema-id; draft ids must be in schemas."""
    bad = copy.deepcopy(ADOPTED)
    bad["versions"][0]["schema-id"] = 9
    assert _err("view.schema-id", bad).value == 9
    del bad["versions"][0]["schema-id"]
    _err("view.schema-id", bad)
    _err("view.schema-id", _with(DRAFT, current_schema_id=5), SEED_2024)
    bad = copy.deepcopy(DRAFT)
    bad["versions"][0]["representations"][0]["schema-id"] = 5
    _err("view.schema-id", bad, SEED_2024)
    _err("view.schema-id", _without(DRAFT, "schemas"), SEED_2024)


def test_default_namespace():
    """view.default-namespace: required list of strings; default-catalog optional (null = the view's catalog)."""
    bad = copy.deepcopy(ADOPTED)
    del bad["versions"][0]["default-namespace"]
    _err("view.default-namespace", bad)
    bad["versions"][0]["default-namespace"] = "default"
    _err("view.default-namespace", bad)
    ok = copy.deepcopy(ADOPTED)
    ok["versions"][0]["default-catalog"] = None
    ok["versions"][0]["default-namespace"] = []
    v = parse_view_metadata(ok).versions[0]
    assert v.default_catalog is None and v.default_namespace == ()
    ok["versions"][0]["default-catalog"] = 3
    _err("view.default-namespace", ok)


def test_summary():
    """view.summary: a required string map."""
    bad = copy.deepcopy(ADOPTED)
    del bad["versions"][0]["summary"]
    _err("view.summary", bad)
    bad["versions"][0]["summary"] = {"engine-version": 3}
    _err("view.summary", bad)
    ok = copy.deepcopy(ADOPTED)
    ok["versions"][0]["summary"] = {}
    assert parse_view_metadata(ok).versions[0].summary == ()


@pytest.mark.parametrize("summary", [{}, {"operation": "drop"}, {"engine-version": "x"}])
def test_draft_summary_operation(summary):
    """view.summary-operation: required, create or replace (draft only)."""
    bad = copy.deepcopy(DRAFT)
    bad["versions"][1]["summary"] = summary
    _err("view.summary-operation", bad, SEED_2024)


def test_representations():
    """view.representation: sql needs sql and dialect; other types are kept verbatim."""
    for broken in (
        {"type": "sql", "dialect": "spark"},
        {"type": "sql", "sql": "select 1"},
        {"sql": "select 1"},
        "select 1",
    ):
        bad = copy.deepcopy(ADOPTED)
        bad["versions"][0]["representations"] = [broken]
        _err("view.representation", bad)
    bad = copy.deepcopy(ADOPTED)
    bad["versions"][0]["representations"] = None
    _err("view.representation", bad)
    ok = copy.deepcopy(ADOPTED)
    other = {"type": "substrait", "plan": "AAEC"}
    ok["versions"][0]["representations"].append(other)
    m = parse_view_metadata(ok)
    assert m.versions[0].representations[1] == UnknownRepresentation("substrait", other)
    assert m.to_json() == ok


def test_one_representation_per_dialect():
    """view.dialect-unique: compared case-insensitively (as Java does)."""
    ok = copy.deepcopy(ADOPTED)
    ok["versions"][0]["representations"].append({"type": "sql", "sql": "SELECT 1", "dialect": "trino"})
    parse_view_metadata(ok)
    for dialect in ("spark", "Spark"):
        bad = copy.deepcopy(ADOPTED)
        bad["versions"][0]["representations"].append({"type": "sql", "sql": "SELECT 1", "dialect": dialect})
        assert _err("view.dialect-unique", bad).value == dialect
    bad = copy.deepcopy(DRAFT)
    bad["versions"][0]["representations"].append(_draft_repr("SELECT 1", "PRESTO", 1))
    _err("view.dialect-unique", bad, SEED_2024)


def test_draft_field_aliases_and_docs():
    """view.field-aliases: as long as the schema's top-level fields; docs may be null."""
    ok = copy.deepcopy(DRAFT)
    ok["versions"][0]["representations"][0].update({"field-aliases": ["a", "b"], "field-docs": ["docs", None]})
    rep = parse_view_metadata(ok, SEED_2024).versions[0].representations[0]
    assert rep.field_aliases == ("a", "b") and rep.field_docs == ("docs", None)
    assert parse_view_metadata(ok, SEED_2024).to_json()["versions"][0]["representations"][0]["field-docs"] == [
        "docs",
        None,
    ]
    for key, value in (
        ("field-aliases", ["a"]),
        ("field-docs", ["d", None, None]),
        ("field-aliases", ["a", None]),
        ("field-aliases", "a"),
    ):
        bad = copy.deepcopy(DRAFT)
        bad["versions"][0]["representations"][0][key] = value
        _err("view.field-aliases", bad, SEED_2024)


def test_version_log():
    """view.version-log: required; entries may name versions that were trimmed (expired)."""
    _err("view.version-log", _without(ADOPTED, "version-log"))
    _err("view.version-log", _with(ADOPTED, version_log=[{"timestamp-ms": 1}]))
    _err("view.version-log", _with(ADOPTED, version_log=[3]))
    _err("view.version-log", _without(DRAFT, "version-log"), SEED_2024)
    rolled_back = _with(
        ADOPTED,
        version_log=[{"timestamp-ms": 1, "version-id": 0}]
        + ADOPTED["version-log"]
        + [{"timestamp-ms": 1573518990000, "version-id": 1}],
    )
    m = parse_view_metadata(rolled_back)
    assert [e.version_id for e in m.version_log] == [0, 1, 2, 1]


def test_unknown_revision():
    with pytest.raises(ValueError):
        parse_view_metadata(ADOPTED, "2022-draft")
