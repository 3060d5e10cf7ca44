"""View metadata cases: the adopted view spec's Appendix A example and the early draft's example,
corrected into valid JSON, each with its revision's rules."""

from __future__ import annotations

import copy
from typing import Any

from spec_impl import revisions
from spec_impl.vectors.cases import case
from spec_impl.vectors.families._snapshot_tables import with_changes

ADOPTED = revisions.ADOPTED
SEED = revisions.before(revisions.V3_ADOPTED)

VIEW_SCHEMA = {
    "schema-id": 1,
    "type": "struct",
    "fields": [
        {"id": 1, "name": "event_count", "required": False, "type": "int", "doc": "Count of events"},
        {"id": 2, "name": "event_date", "required": False, "type": "date"},
    ],
}


def _view_version(vid: int, ts: int, sql: str) -> dict:
    return {
        "version-id": vid,
        "timestamp-ms": ts,
        "schema-id": 1,
        "default-catalog": "prod",
        "default-namespace": ["default"],
        "summary": {"engine-name": "Spark", "engine-version": "3.3.2"},
        "representations": [{"type": "sql", "sql": sql, "dialect": "spark"}],
    }


def adopted_view() -> dict:
    """The adopted view spec's Appendix A example after the second CREATE OR REPLACE."""
    return {
        "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
        "format-version": 1,
        "location": "s3://bucket/warehouse/default.db/event_agg",
        "current-version-id": 2,
        "properties": {"comment": "Daily event counts"},
        "versions": [
            _view_version(1, 1573518431292, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2"),
            _view_version(
                2, 1573518981593, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM prod.default.events\nGROUP BY 2"
            ),
        ],
        "schemas": [copy.deepcopy(VIEW_SCHEMA)],
        "version-log": [
            {"timestamp-ms": 1573518431292, "version-id": 1},
            {"timestamp-ms": 1573518981593, "version-id": 2},
        ],
    }


def adopted_view_first() -> dict:
    """The adopted Appendix A's first metadata file (after the CREATE)."""
    doc = adopted_view()
    doc["current-version-id"] = 1
    doc["versions"] = doc["versions"][:1]
    doc["version-log"] = doc["version-log"][:1]
    return doc


def _draft_schema(sid: int, *fields: tuple[str, str]) -> dict:
    return {
        "schema-id": sid,
        "type": "struct",
        "fields": [{"id": i, "name": n, "required": False, "type": t, "doc": ""} for i, (n, t) in enumerate(fields)],
    }


def _draft_rep(sql: str, dialect: str, sid: int) -> dict:
    return {
        "type": "sql",
        "sql": sql,
        "dialect": dialect,
        "schema-id": sid,
        "default-catalog": "iceberg",
        "default-namespace": ["anorwood"],
    }


DRAFT_FIX = (
    'the early draft\'s Appendix A example, made valid JSON: the trailing commas (after "engineVersion", after a '
    'representation object and after the representations list) and the "=>" annotations removed, the final brace added'
)


def draft_view_first() -> dict:
    """The draft's example at the end of step 3 (CREATE VIEW), corrected into valid JSON."""
    return {
        "format-version": 1,
        "location": "s3n://my_company/my/warehouse/anorwood.db/common_view",
        "current-version-id": 1,
        "properties": {"comment": "View captures all the data from the table"},
        "versions": [
            {
                "version-id": 1,
                "parent-version-id": -1,
                "timestamp-ms": 1573518431292,
                "summary": {"operation": "create", "engineVersion": "presto-350"},
                "representations": [_draft_rep("SELECT *\nFROM\n  base_tab\n", "presto", 1)],
            }
        ],
        "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}],
        "schemas": [_draft_schema(1, ("c1", "int"), ("c2", "string"))],
        "current-schema-id": 1,
    }


def draft_view() -> dict:
    """The draft's example at the end of step 4 (CREATE OR REPLACE VIEW), corrected into valid JSON."""
    doc = draft_view_first()
    doc["current-version-id"] = 2
    doc["properties"] = {"comment": "View captures count of the data from the table"}
    doc["versions"][0]["properties"] = {}
    doc["versions"].append(
        {
            "version-id": 2,
            "parent-version-id": 1,
            "timestamp-ms": 1573518440265,
            "summary": {"operation": "replace", "engineVersion": "spark-2.4.4"},
            "representations": [_draft_rep('SELECT "count"(*) my_cnt\nFROM\n  base_tab\n', "spark", 2)],
        }
    )
    doc["version-log"].append({"timestamp-ms": 1573518440265, "version-id": 2})
    doc["schemas"].append(_draft_schema(2, ("my_cnt", "long")))
    doc["current-schema-id"] = 2
    return doc


def _view(rule_id: str, slug: str, description: str, document: Any, revisions: tuple[str, ...], **kw):
    return case(rule_id, slug, description, "read-view-metadata", revisions=revisions, document=document, **kw)


def _a(rule_id: str, slug: str, description: str, document: Any, **kw):
    return _view(rule_id, slug, description, document, ADOPTED, **kw)


def _d(rule_id: str, slug: str, description: str, document: Any, **kw):
    return _view(rule_id, f"draft-{slug}", f"early draft: {description}", document, SEED, **kw)


def _vwith(doc: dict, **changes: Any) -> dict:
    """A copy of a view document with top-level changes (as `with_changes`)."""
    return with_changes(doc, **changes)


def _version_with(doc: dict, index: int, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            doc["versions"][index].pop(key, None)
        else:
            doc["versions"][index][key] = value
    return doc


def _rep_with(doc: dict, index: int, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    rep = doc["versions"][index]["representations"][0]
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            rep.pop(key, None)
        else:
            rep[key] = value
    return doc


def adopted_specs():
    a = adopted_view()
    r = "view.json"
    yield _a(
        r,
        "appendix-a-create",
        "the adopted view spec's Appendix A example after CREATE (one version)",
        adopted_view_first(),
    )
    yield _a(
        r, "appendix-a-replace", "the adopted view spec's Appendix A example after CREATE OR REPLACE (two versions)", a
    )
    yield _a(r, "not-an-object", "view metadata is a JSON object", [a])
    yield _a(r, "missing-location", "location is required", _vwith(a, location=None))
    yield _a(r, "properties-not-strings", "properties is a string-to-string map", _vwith(a, properties={"comment": 1}))
    yield _a(r, "no-properties", "properties is optional", _vwith(a, properties=None))
    yield _a(r, "version-missing-version-id", "a version needs version-id", _version_with(a, 0, version_id=None))
    yield _a(
        r,
        "version-timestamp-string",
        "a version's timestamp-ms is a long",
        _version_with(a, 0, timestamp_ms="2019-11-12T00:27:11.292Z"),
    )
    yield _a(r, "version-not-object", "a version is a JSON object", _vwith(a, versions=[a["versions"][0], 2]))
    yield _a(
        r,
        "draft-fields-ignored",
        "draft-only fields (current-schema-id, parent-version-id) are not adopted fields: ignored and not written",
        _version_with(_vwith(a, current_schema_id=1), 1, parent_version_id=1),
    )

    r = "view.format-version"
    for slug, value, why in (
        ("two", 2, "2 is above the supported version"),
        ("zero", 0, "0 is not 1"),
        ("string", "1", '"1" is a string'),
        ("missing", None, "it is required"),
    ):
        yield _a(r, slug, f"format-version must be 1: {why}", _vwith(a, format_version=value))

    r = "view.uuid"
    yield _a(r, "missing", "view-uuid is required in the adopted spec", _vwith(a, view_uuid=None))
    yield _a(r, "not-a-uuid", "view-uuid must be a UUID", _vwith(a, view_uuid="event_agg"))
    yield _a(
        r,
        "draft-example",
        "the early draft's example (corrected) has no view-uuid: rejected by the adopted spec",
        draft_view(),
    )

    r = "view.schemas"
    yield _a(r, "missing", "schemas is required in the adopted spec", _vwith(a, schemas=None))
    yield _a(r, "duplicate-id", "two schemas with schema-id 1", _vwith(a, schemas=[VIEW_SCHEMA, VIEW_SCHEMA]))
    yield _a(
        r,
        "no-schema-id",
        "a schema needs schema-id",
        _vwith(a, schemas=[{k: v for k, v in VIEW_SCHEMA.items() if k != "schema-id"}]),
    )
    yield _a(r, "not-a-list", "schemas is a list", _vwith(a, schemas=VIEW_SCHEMA))
    second = dict(copy.deepcopy(VIEW_SCHEMA), **{"schema-id": 2})
    second["fields"].append({"id": 3, "name": "event_type", "required": False, "type": "string"})
    doc = _version_with(_vwith(a, schemas=[VIEW_SCHEMA, second]), 1, schema_id=2)
    yield _a(r, "two-schemas", "two schemas, version 2 using schema 2 (a column added by the replace)", doc)

    r = "view.current-version"
    yield _a(r, "unknown", "current-version-id 3 names no version", _vwith(a, current_version_id=3))
    yield _a(r, "missing", "current-version-id is required", _vwith(a, current_version_id=None))
    yield _a(
        r,
        "not-latest",
        "current-version-id 1 (a rollback): the current version need not be the newest",
        _vwith(a, current_version_id=1),
    )

    r = "view.version-unique"
    yield _a(r, "duplicate", "two versions with version-id 1", _version_with(a, 1, version_id=1))
    yield _a(r, "empty", "versions must not be empty", _vwith(a, versions=[]))
    yield _a(r, "missing", "versions is required", _vwith(a, versions=None))

    r = "view.schema-id"
    yield _a(r, "unknown", "version 1's schema-id 9 names no schema", _version_with(a, 0, schema_id=9))
    yield _a(r, "missing", "a version's schema-id is required in the adopted spec", _version_with(a, 0, schema_id=None))

    r = "view.default-namespace"
    yield _a(r, "missing", "a version's default-namespace is required", _version_with(a, 0, default_namespace=None))
    yield _a(
        r,
        "string",
        "default-namespace is a list of strings, not one string",
        _version_with(a, 0, default_namespace="default"),
    )
    yield _a(
        r, "multi-level", "a namespace of two levels", _version_with(a, 1, default_namespace=["prod_db", "default"])
    )
    doc = _version_with(a, 0, default_namespace=[], default_catalog=None)
    yield _a(r, "empty-no-catalog", "an empty default-namespace and no default-catalog (the view's own catalog)", doc)
    yield _a(r, "catalog-number", "default-catalog is a string", _version_with(a, 0, default_catalog=3))

    r = "view.summary"
    yield _a(r, "missing", "a version's summary is required", _version_with(a, 0, summary=None))
    yield _a(
        r,
        "non-string-value",
        "summary values are strings",
        _version_with(a, 0, summary={"engine-name": "Spark", "engine-version": 3.3}),
    )
    yield _a(
        r,
        "empty",
        "an empty summary: engine-name and engine-version are optional, and there is no operation in the adopted spec",
        _version_with(a, 0, summary={}),
    )

    r = "view.representation"
    for slug, rep, why in (
        ("no-sql", {"type": "sql", "dialect": "spark"}, "a sql representation needs sql"),
        ("no-dialect", {"type": "sql", "sql": "SELECT 1"}, "a sql representation needs dialect"),
        ("no-type", {"sql": "SELECT 1", "dialect": "spark"}, "a representation needs type"),
        ("string", "SELECT 1", "a representation is an object"),
    ):
        yield _a(r, slug, why, _version_with(a, 0, representations=[rep]))
    yield _a(
        r,
        "not-a-list",
        "representations is a list",
        _version_with(a, 0, representations={"type": "sql", "sql": "SELECT 1", "dialect": "spark"}),
    )
    other = {"type": "substrait", "plan": "AAEC"}
    yield _a(
        r,
        "unknown-type-kept",
        "a representation of a type other than sql is kept as it is",
        _version_with(a, 1, representations=a["versions"][1]["representations"] + [other]),
    )

    r = "view.dialect-unique"
    trino = {
        "type": "sql",
        "sql": "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2",
        "dialect": "trino",
    }
    yield _a(
        r,
        "two-dialects",
        "one spark and one trino representation",
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [trino]),
    )
    same = {"type": "sql", "sql": "SELECT 1", "dialect": "spark"}
    yield _a(
        r,
        "same-dialect",
        "two spark representations in one version",
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [same]),
    )
    yield _a(
        r,
        "case-insensitive",
        'dialects "spark" and "Spark" are the same dialect',
        _version_with(a, 0, representations=a["versions"][0]["representations"] + [dict(same, dialect="Spark")]),
        note="The adopted text does not say how dialects compare; Iceberg Java, PyIceberg and iceberg-rust compare "
        "them case-insensitively.",
    )

    r = "view.version-log"
    yield _a(r, "missing", "version-log is required", _vwith(a, version_log=None))
    yield _a(
        r,
        "entry-no-version-id",
        "a version-log entry needs version-id",
        _vwith(a, version_log=[{"timestamp-ms": 1573518431292}]),
    )
    yield _a(r, "entry-not-object", "a version-log entry is an object", _vwith(a, version_log=[1]))
    yield _a(
        r,
        "entry-no-timestamp-ms",
        "a version-log entry needs timestamp-ms",
        _vwith(a, version_log=[{"version-id": 1}]),
    )
    log = (
        [{"timestamp-ms": 1573518000000, "version-id": 0}]
        + a["version-log"]
        + [{"timestamp-ms": 1573519000000, "version-id": 1}]
    )
    yield _a(
        r,
        "expired-and-rollback",
        "the log names version 0, no longer in versions, and version 1 again after a rollback",
        _vwith(a, version_log=log, current_version_id=1),
    )


def draft_specs():
    d = draft_view()
    r = "view.json"
    yield _d(
        r,
        "appendix-a-create",
        f"{DRAFT_FIX}, after step 3 (CREATE VIEW); parent-version-id, which the field tables do not define, is ignored",
        draft_view_first(),
    )
    yield _d(
        r,
        "appendix-a-replace",
        f"{DRAFT_FIX}, after step 4 (CREATE OR REPLACE VIEW); parent-version-id and the version-level properties "
        "are ignored",
        d,
    )
    yield _d(
        r,
        "namespace-string",
        "a representation's default-namespace is a list of strings",
        _rep_with(d, 0, default_namespace="anorwood"),
    )
    yield _d(r, "missing-location", "location is required", _vwith(d, location=None))
    yield _d(r, "catalog-number", "a representation's default-catalog is a string", _rep_with(d, 0, default_catalog=1))

    r = "view.format-version"
    yield _d(r, "two", "format-version must be 1: 2 is above the supported version", _vwith(d, format_version=2))
    r = "view.current-version"
    yield _d(r, "unknown", "current-version-id 7 names no version", _vwith(d, current_version_id=7))
    r = "view.version-unique"
    yield _d(r, "duplicate", "two versions with version-id 1", _version_with(d, 1, version_id=1))
    r = "view.version-log"
    yield _d(r, "missing", "version-log is required", _vwith(d, version_log=None))
    r = "view.summary"
    yield _d(r, "missing", "a version's summary is required", _version_with(d, 0, summary=None))
    r = "view.representation"
    yield _d(r, "no-sql", "a sql representation needs sql", _rep_with(d, 0, sql=None))

    r = "view.schemas"
    doc = _vwith(d, schemas=None, current_schema_id=None)
    for i in range(2):
        doc = _rep_with(doc, i, schema_id=None)
    yield _d(r, "optional", "schemas, current-schema-id and the representations' schema-id are all optional", doc)
    yield _d(
        r,
        "duplicate-id",
        "two schemas with schema-id 1",
        _vwith(d, schemas=[d["schemas"][0], d["schemas"][0]], current_schema_id=1),
    )

    r = "view.schema-id"
    yield _d(r, "current-unknown", "current-schema-id 5 names no schema", _vwith(d, current_schema_id=5))
    yield _d(
        r, "representation-unknown", "a representation's schema-id 5 names no schema", _rep_with(d, 0, schema_id=5)
    )
    yield _d(
        r,
        "without-schemas",
        "a representation names schema 2 but there is no schemas list",
        _vwith(d, schemas=None, current_schema_id=None),
    )
    yield _d(
        r,
        "adopted-version-schema-id",
        "a version-level schema-id (an adopted field) is ignored; the draft's are on representations",
        _version_with(d, 1, schema_id=99),
    )

    r = "view.summary-operation"
    yield _d(
        r, "missing", "summary.operation is required", _version_with(d, 1, summary={"engineVersion": "spark-2.4.4"})
    )
    yield _d(
        r,
        "drop",
        "summary.operation is create or replace, not drop",
        _version_with(d, 1, summary={"operation": "drop"}),
    )
    yield _d(
        r,
        "uppercase",
        'summary.operation "Replace": the allowed values are lowercase',
        _version_with(d, 1, summary={"operation": "Replace"}),
    )
    yield _d(
        r,
        "adopted-example",
        "the adopted spec's Appendix A example has no summary.operation: rejected by the draft",
        adopted_view(),
    )

    r = "view.field-aliases"
    doc = _rep_with(d, 0, field_aliases=["alias_name", "alias_name2"], field_docs=["docs", None])
    yield _d(
        r,
        "aliases-and-docs",
        "CREATE VIEW v (alias_name COMMENT 'docs', alias_name2) on schema 1's two fields: field-docs may hold null",
        doc,
    )
    yield _d(
        r,
        "aliases-too-short",
        "one alias for schema 1's two top-level fields",
        _rep_with(d, 0, field_aliases=["alias_name"]),
    )
    yield _d(
        r,
        "docs-too-long",
        "three docs for schema 1's two top-level fields",
        _rep_with(d, 0, field_docs=["docs", None, None]),
    )
    yield _d(r, "alias-null", "field-aliases holds strings only", _rep_with(d, 0, field_aliases=["alias_name", None]))
    yield _d(r, "aliases-string", "field-aliases is a list", _rep_with(d, 0, field_aliases="alias_name"))

    r = "view.dialect-unique"
    rep = _draft_rep("SELECT * FROM base_tab", "PRESTO", 1)
    doc = copy.deepcopy(d)
    doc["versions"][0]["representations"].append(rep)
    yield _d(
        r,
        "case-insensitive",
        'dialects "presto" and "PRESTO" in one version',
        doc,
        note="The draft states no such rule; the adopted spec's one-per-dialect rule is applied to both revisions.",
    )
    doc = copy.deepcopy(d)
    doc["versions"][0]["representations"].append(_draft_rep("SELECT * FROM base_tab", "spark", 1))
    yield _d(r, "two-dialects", "a presto and a spark representation in one version", doc)


def specs():
    yield from adopted_specs()
    yield from draft_specs()
