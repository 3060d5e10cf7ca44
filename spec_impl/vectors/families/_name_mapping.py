"""Name mapping cases (Column Projection, Appendix C): the mapping's JSON and files without field ids
read through it."""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.cases import case
from spec_impl.vectors.families._schema_blocks import (
    MAPPED_TABLE,
    MAPPING_EXAMPLE,
    project_case,
    f,
    lst,
    mp,
    sch,
    struct,
)


def _mapping(rule_id: str, slug: str, description: str, mapping: Any, **kw):
    return case(rule_id, slug, description, "parse-name-mapping", mapping=mapping, **kw)


def specs():
    r = "name-mapping.json"
    yield _mapping(
        r,
        "appendix-c-example",
        "the Appendix C name mapping example parses and is written back unchanged",
        MAPPING_EXAMPLE,
    )
    yield _mapping(
        r,
        "table-property-text",
        "the table property schema.name-mapping.default holds the mapping as JSON text",
        '[{"field-id": 1, "names": ["id", "record_id"]}, {"field-id": 2, "names": ["data"]}]',
    )
    yield _mapping(
        r,
        "empty-names-no-id",
        "an empty names list (field only in the table) and a mapping without field-id (field only in files) are valid",
        [{"field-id": 1, "names": []}, {"names": ["legacy"]}],
    )
    yield _mapping(r, "empty", "an empty mapping", [])
    yield _mapping(
        r, "not-a-list", "a name mapping is a JSON list, not a single object", {"field-id": 1, "names": ["a"]}
    )
    yield _mapping(r, "names-missing", "names is required", [{"field-id": 1}])
    yield _mapping(r, "names-string", "names is a list of strings, not a string", [{"field-id": 1, "names": "a"}])
    yield _mapping(r, "names-number", "names holds strings", [{"field-id": 1, "names": [1]}])
    yield _mapping(r, "field-id-string", "field-id is a JSON int", [{"field-id": "1", "names": ["a"]}])
    yield _mapping(r, "field-id-boolean", "field-id is a JSON int, not true", [{"field-id": True, "names": ["a"]}])
    yield _mapping(
        r,
        "field-underscore",
        "the key is field-id (the spec's example and readers), not field_id (its field table)",
        [{"field_id": 1, "names": ["a"]}],
        note="Spec inconsistency: Appendix C's table names the key field_id, its example uses field-id; "
        "the vectors follow the example.",
    )
    yield _mapping(
        r,
        "fields-object",
        "fields is a list of field mappings, not an object",
        [{"field-id": 1, "names": ["a"], "fields": {}}],
    )
    yield _mapping(
        r,
        "nested-bad",
        "nested field mappings are checked too",
        [{"field-id": 3, "names": ["location"], "fields": [{"field-id": 4}]}],
    )
    yield _mapping(r, "entry-not-object", "each field mapping is a JSON object", [7])
    yield _mapping(r, "invalid-json-text", "the property text must be valid JSON", "[{")

    r = "name-mapping.unique-names"
    yield _mapping(
        r,
        "duplicate-at-top-level",
        "the name a is mapped to two ids at one level",
        [{"field-id": 1, "names": ["a"]}, {"field-id": 2, "names": ["b", "a"]}],
    )
    yield _mapping(
        r,
        "duplicate-nested",
        "lat appears in two mappings under location",
        [
            {
                "field-id": 3,
                "names": ["location"],
                "fields": [{"field-id": 4, "names": ["latitude", "lat"]}, {"field-id": 5, "names": ["lat"]}],
            }
        ],
    )
    yield _mapping(
        r,
        "same-name-other-level",
        "the same name at different levels is fine",
        [{"field-id": 1, "names": ["a"], "fields": [{"field-id": 2, "names": ["a"]}]}],
    )

    r = "name-mapping.lookup"
    rows = [
        {"record_id": 7, "location": {"long": 2.5, "latitude": 1.5}, "extra": True},
        {"id": 8, "data": "d", "location": None},
    ]
    yield project_case(
        r,
        "appendix-c-example",
        "a file without field ids read through the Appendix C mapping: any listed name (record_id, "
        "id; latitude, long) maps to the id; unmapped file columns (extra) are dropped; missing fields read as null",
        None,
        MAPPED_TABLE,
        rows,
        name_mapping=MAPPING_EXAMPLE,
    )
    yield project_case(
        r,
        "mapping-as-text",
        "the mapping as the JSON text of the table property",
        None,
        MAPPED_TABLE,
        rows[1:],
        name_mapping='[{"field-id": 1, "names": ["id"]}, {"field-id": 2, "names": ["data"]}]',
    )
    yield project_case(
        r, "no-mapping", "a file without field ids cannot be read without a name mapping", None, MAPPED_TABLE, rows
    )
    yield project_case(
        r,
        "two-aliases-in-one-file",
        "a file with both id and record_id: two columns for field 1",
        None,
        MAPPED_TABLE,
        [{"id": 1, "record_id": 2}],
        name_mapping=MAPPING_EXAMPLE,
    )
    yield project_case(
        "projection.required",
        "mapped-file-missing-required",
        "a file without ids read through the Appendix C mapping has only data: the required id cannot be read",
        None,
        MAPPED_TABLE,
        [{"data": "x"}],
        name_mapping=MAPPING_EXAMPLE,
    )
    dotted_map = [
        {"field-id": 1, "names": ["a.b"]},
        {"field-id": 2, "names": ["a"], "fields": [{"field-id": 3, "names": ["b"]}]},
    ]
    dotted_read = sch(f(1, "ab", "int"), f(2, "a", struct(f(3, "b", "int"))))
    yield project_case(
        r,
        "dot-is-literal",
        "the name a.b is the file column named a.b, not child b of a",
        None,
        dotted_read,
        [{"a.b": 1, "a": {"b": 2}}],
        name_mapping=dotted_map,
    )
    yield project_case(
        r,
        "nested-names-not-top-level",
        "lat is mapped only under location: a top-level column lat is dropped",
        None,
        MAPPED_TABLE,
        [{"id": 1, "lat": 9.5, "location": {"lat": 1.5}}],
        name_mapping=MAPPING_EXAMPLE,
    )
    no_id = [{"field-id": 1, "names": ["id"]}, {"names": ["legacy"], "fields": [{"field-id": 2, "names": ["data"]}]}]
    yield project_case(
        r,
        "mapping-without-id-ignored",
        "a mapping without field-id is ignored, with its children: legacy.data is not "
        "field 2, and top-level data is not mapped",
        None,
        sch(f(1, "id", "long", True), f(2, "data", "string")),
        [{"id": 1, "legacy": {"data": "x"}, "data": "top"}],
        name_mapping=no_id,
    )
    coll_read = sch(
        f(1, "pts", lst(2, struct(f(5, "x", "int")))), f(3, "by_name", mp(4, "string", 6, struct(f(7, "y", "int"))))
    )
    coll_map = [
        {
            "field-id": 1,
            "names": ["points"],
            "fields": [{"field-id": 2, "names": ["element"], "fields": [{"field-id": 5, "names": ["x"]}]}],
        },
        {
            "field-id": 3,
            "names": ["m"],
            "fields": [
                {"field-id": 4, "names": ["key"]},
                {"field-id": 6, "names": ["value"], "fields": [{"field-id": 7, "names": ["y"]}]},
            ],
        },
    ]
    yield project_case(
        r,
        "list-element-and-map-value",
        "lists map their element and maps their key and value under fields",
        None,
        coll_read,
        [{"points": [{"x": 1}, None], "m": {"k": {"y": 2}}}],
        name_mapping=coll_map,
    )
    yield project_case(
        r,
        "not-in-read-schema",
        "a mapped id that the read schema does not have is dropped",
        None,
        sch(f(2, "data", "string")),
        [{"id": 1, "data": "x"}],
        name_mapping=MAPPING_EXAMPLE,
    )
    yield project_case(
        r,
        "ignored-with-ids",
        "a file with field ids is read by its ids; the mapping is not used",
        sch(f(1, "id", "long", True)),
        sch(f(1, "id", "long", True)),
        [{"1": 5}],
        name_mapping=[{"names": []}],
    )
