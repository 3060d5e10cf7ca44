"""Schema JSON cases (Schemas and Data Types, Appendix C): field ids, identifier fields, reserved ids
and default values."""

from __future__ import annotations

from typing import Any

from spec_impl import revisions
from spec_impl.vectors.cases import case
from spec_impl.vectors.families._schema_blocks import APPENDIX_C, IDENT_FIELDS, f, lst, mp, sch, struct


def _parse(rule_id: str, slug: str, description: str, schema: Any, fv: int, **kw):
    return case(rule_id, slug, description, "parse-schema", schema=schema, format_version=fv, **kw)


def _schema_json():
    r = "schema.json"
    yield _parse(
        r,
        "appendix-c-example-v3",
        "the Appendix C schema example (uuid id with initial-default and write-default, a list, a map) "
        "is a valid v3 schema and is written back unchanged",
        APPENDIX_C,
        3,
    )
    yield _parse(
        r,
        "field-doc-kept",
        "a field's doc is part of the schema JSON",
        sch(f(1, "id", "long", True, doc="unique id")),
        2,
    )
    yield _parse(
        r,
        "nested-v2",
        "nested struct, list of structs and map with struct values in a v2 schema",
        sch(
            f(1, "s", struct(f(2, "x", "int", True), f(3, "y", "string"))),
            f(4, "pts", lst(5, struct(f(6, "lat", "double"), f(7, "long", "double")))),
            f(8, "props", mp(9, "string", 10, struct(f(11, "v", "long")), True)),
            schema_id=3,
        ),
        2,
    )
    yield _parse(r, "empty-schema", "a schema without fields is valid", sch(schema_id=1), 2)
    yield _parse(r, "not-an-object", "a schema must be a JSON object", [f(1, "a", "int")], 2)
    yield _parse(
        r, "type-missing", 'a schema object needs "type": "struct"', {"schema-id": 0, "fields": [f(1, "a", "int")]}, 2
    )
    yield _parse(r, "type-list", "a schema is a struct, not a list type", dict(lst(1, "int"), **{"schema-id": 0}), 2)
    yield _parse(
        r,
        "identifier-ids-not-a-list",
        "identifier-field-ids must be a JSON list, not a single int",
        {"type": "struct", "schema-id": 0, "identifier-field-ids": 1, "fields": [f(1, "a", "int", True)]},
        2,
    )
    yield _parse(
        r,
        "identifier-ids-boolean",
        "identifier-field-ids holds JSON ints: true is not the id 1",
        {"type": "struct", "schema-id": 0, "identifier-field-ids": [True], "fields": [f(1, "a", "int", True)]},
        2,
    )
    yield _parse(
        r,
        "identifier-ids-strings",
        "identifier-field-ids holds JSON ints, not strings",
        {"type": "struct", "schema-id": 0, "identifier-field-ids": ["1"], "fields": [f(1, "a", "int", True)]},
        2,
    )

    r = "schema.schema-id"
    no_id = {"type": "struct", "fields": [f(1, "a", "int", True)]}
    yield _parse(
        r, "v1-absent-reads-0", "v1: a schema without schema-id reads as schema 0 (written with schema-id 0)", no_id, 1
    )
    yield _parse(r, "v2-absent", "v2 requires schema-id", no_id, 2)
    yield _parse(r, "v3-absent", "v3 requires schema-id", no_id, 3)
    yield _parse(r, "v2-present", "v2 schema-id 7 is kept", dict(no_id, **{"schema-id": 7}), 2)
    yield _parse(r, "string", 'schema-id must be a JSON int, not the string "1"', dict(no_id, **{"schema-id": "1"}), 1)
    yield _parse(r, "fraction", "schema-id must be a JSON int, not 1.5", dict(no_id, **{"schema-id": 1.5}), 2)
    yield _parse(r, "boolean", "schema-id must be a JSON int, not true", dict(no_id, **{"schema-id": True}), 2)


def _field_ids():
    r = "schema.field-id.unique"
    yield _parse(
        r,
        "distinct-ids",
        "ids of fields, list elements, map keys and values all distinct: valid",
        sch(f(1, "a", "int"), f(2, "l", lst(3, "int")), f(4, "m", mp(5, "string", 6, struct(f(7, "x", "int"))))),
        2,
    )
    yield _parse(r, "top-level", "two top-level fields with id 1", sch(f(1, "a", "int"), f(1, "b", "string")), 2)
    yield _parse(
        r,
        "list-element",
        "a list's element-id equals the id of another field (one id space for fields and elements)",
        sch(f(1, "a", "int"), f(2, "l", lst(1, "int"))),
        2,
    )
    yield _parse(
        r, "map-key-value", "a map's key-id and value-id are equal", sch(f(1, "m", mp(2, "string", 2, "int"))), 2
    )
    yield _parse(
        r,
        "map-key-is-parent",
        "a map's key-id equals the map field's own id",
        sch(f(1, "m", mp(1, "string", 2, "int"))),
        2,
    )
    yield _parse(
        r,
        "nested-vs-top-level",
        "a field nested in a struct reuses a top-level id",
        sch(f(1, "a", "int"), f(2, "s", struct(f(1, "x", "int")))),
        2,
    )
    yield _parse(
        r,
        "siblings-in-nested-struct",
        "two fields of a nested struct share an id",
        sch(f(1, "s", struct(f(2, "x", "int"), f(2, "y", "int")))),
        2,
    )
    yield _parse(
        r,
        "same-name-different-structs",
        "the same name in different structs is fine when the ids differ",
        sch(f(1, "x", "int"), f(2, "s", struct(f(3, "x", "int")))),
        2,
    )

    r = "schema.field-id.reserved"
    yield _parse(
        r,
        "highest-allowed",
        "2147483447 (Integer.MAX_VALUE - 200) is the highest id a table may use",
        sch(f(2147483447, "last", "int")),
        2,
    )
    yield _parse(r, "first-reserved", "2147483448 is reserved for metadata columns", sch(f(2147483448, "x", "int")), 2)
    yield _parse(r, "int-max", "2147483647 is reserved", sch(f(2147483647, "x", "int")), 2)
    yield _parse(
        r,
        "file-column-in-table",
        "the metadata column _file (2147483646) cannot be a column of a table schema",
        sch(f(1, "a", "int"), f(2147483646, "_file", "string", True)),
        2,
    )
    yield _parse(
        r,
        "row-id-in-table",
        "the row lineage column _row_id (2147483540) cannot be a column of a table schema",
        sch(f(1, "a", "int"), f(2147483540, "_row_id", "long")),
        3,
    )
    yield _parse(
        r, "map-value-id", "reserved ids apply to map values too", sch(f(1, "m", mp(2, "string", 2147483600, "int"))), 2
    )
    yield _parse(
        r, "list-element-id", "reserved ids apply to list elements too", sch(f(1, "l", lst(2147483500, "int"))), 2
    )


def _identifiers():
    def ident(rule_id: str, slug: str, description: str, ids: list[int]):
        return _parse(rule_id, slug, description, sch(*IDENT_FIELDS, ids=ids), 3)

    yield ident(
        "schema.identifier.exists",
        "valid-top-level-and-nested",
        "identifier fields 1 (required long) and 5 (required string in a required struct) are valid",
        [1, 5],
    )
    yield ident(
        "schema.identifier.exists", "valid-timestamptz", "19, a required timestamptz, is a valid identifier field", [19]
    )
    yield ident(
        "schema.identifier.exists",
        "valid-two-levels-down",
        "22, a required int in required struct 21 in required struct 20, is a valid identifier field",
        [22],
    )
    yield ident("schema.identifier.exists", "unknown-id", "identifier field 99 is not in the schema", [99])
    yield _parse(
        "schema.identifier.exists",
        "appendix-c-uuid",
        "the Appendix C example's identifier field is its required uuid id",
        APPENDIX_C,
        3,
    )
    yield ident(
        "schema.identifier.collection", "list-element", "9 is a list's element (required int): not allowed", [9]
    )
    yield ident("schema.identifier.collection", "map-key", "11 is a map key (a required string): not allowed", [11])
    yield ident(
        "schema.identifier.collection",
        "field-in-map-value",
        "13 is a required int field of a struct that is a map's value",
        [13],
    )
    yield ident("schema.identifier.primitive", "struct", "4 is a required struct, not a primitive field", [4])
    yield ident(
        "schema.identifier.primitive",
        "list-field",
        "8 is a required list field itself (not nested in one): not a primitive",
        [8],
    )
    yield ident("schema.identifier.primitive", "variant", "14 is a required variant: not a primitive field", [14])
    yield ident("schema.identifier.floating", "double", "2 is a required double", [2])
    yield ident("schema.identifier.floating", "float", "15 is a required float", [15])
    yield ident("schema.identifier.required", "optional", "3 is an optional string", [3])
    yield ident("schema.identifier.required", "one-of-two", "1 is valid but 3 is optional: the set is rejected", [1, 3])
    yield ident(
        "schema.identifier.optional-struct", "in-optional-struct", "7 is required but its struct 6 is optional", [7]
    )
    yield ident(
        "schema.identifier.optional-struct",
        "two-levels-down",
        "18 is required in required struct 17, but 17 lies in optional struct 16",
        [18],
    )


def _defaults():
    r = "schema.default.version"
    yield _parse(r, "appendix-c-in-v2", "the Appendix C example has defaults, so it is not a v2 schema", APPENDIX_C, 2)
    yield _parse(
        r,
        "null-initial-in-v2",
        "even an explicit null initial-default is a v3 feature",
        sch(f(1, "a", "int", initial=None)),
        2,
    )
    yield _parse(r, "write-in-v1", "write-default in a v1 schema", sch(f(1, "a", "int", write=5)), 1)
    yield _parse(
        r,
        "nested-in-v2",
        "a default on a nested struct field in a v2 schema",
        sch(f(1, "s", struct(f(2, "x", "int", initial=1, write=1)))),
        2,
    )
    yield _parse(
        r,
        "v3-optional-null",
        "v3: an optional field with null defaults (the explicit form the spec recommends)",
        sch(f(1, "a", "int", initial=None, write=None)),
        3,
    )

    r = "schema.default.decode"
    good = sch(
        f(1, "d", "decimal(9,2)", initial="1.50", write="-0.25"),
        f(2, "day", "date", initial="2017-11-16", write="2017-11-16"),
        f(3, "ts", "timestamptz", initial="2017-11-16T22:31:08.000001+00:00", write="2017-11-16T22:31:08.000001+00:00"),
        f(4, "b", "binary", initial="0001ff", write="00"),
        f(5, "n", "long", initial=9223372036854775807, write=0),
        f(6, "flag", "boolean", True, initial=False, write=True),
        f(7, "fx", "fixed[2]", initial="abcd", write="0000"),
        f(8, "ns", "timestamp_ns", initial="2017-11-16T22:31:08.000000001", write="2017-11-16T22:31:08.000000001"),
    )
    yield _parse(
        r,
        "valid-defaults",
        "defaults in the Appendix D JSON form of their types (decimal with its scale, date, "
        "timestamptz with +00:00, hex binary and fixed, long maximum, boolean, timestamp_ns)",
        good,
        3,
    )
    for slug, type_, value, why in (
        ("int-as-string", "int", "5", "an int default is a JSON number, not a string"),
        ("int-out-of-range", "int", 2147483648, "2147483648 is not an int"),
        ("int-fraction", "int", 1.5, "1.5 is not an int"),
        ("invalid-date", "date", "2017-02-30", "2017-02-30 is not a date"),
        ("invalid-uuid", "uuid", "nope", "not a UUID"),
        ("decimal-wrong-scale", "decimal(9,2)", "1.5", "a decimal(9,2) value is written with 2 digits after the point"),
        ("decimal-too-many-digits", "decimal(4,2)", "123.45", "123.45 has 5 digits: not a decimal(4,2)"),
        (
            "timestamptz-other-offset",
            "timestamptz",
            "2017-11-16T22:31:08+01:00",
            "a timestamptz value must have the offset +00:00",
        ),
        (
            "timestamp-with-offset",
            "timestamp",
            "2017-11-16T22:31:08+00:00",
            "a timestamp (without zone) value has no offset",
        ),
        ("fixed-wrong-length", "fixed[2]", "abcdef", "3 bytes are not a fixed[2]"),
        ("boolean-as-string", "boolean", "true", "a boolean is a JSON boolean, not a string"),
        ("string-as-number", "string", 5, "a string default is a JSON string"),
    ):
        yield _parse(r, f"initial-{slug}", f"initial-default: {why}", sch(f(1, "col", type_, initial=value)), 3)
    yield _parse(
        r,
        "write-int-as-string",
        "write-default: an int default is a JSON number, not a string",
        sch(f(1, "col", "int", write="5")),
        3,
    )
    yield _parse(
        r, "write-invalid-uuid", "write-default: not a UUID", sch(f(1, "col", "uuid", initial=None, write="nope")), 3
    )
    yield _parse(
        r,
        "nested-field",
        "defaults of nested struct fields are checked too",
        sch(f(1, "s", struct(f(2, "x", "date", initial="yesterday")))),
        3,
    )
    yield _parse(
        r,
        "struct-default-with-values",
        "a struct field's initial-default that sets a sub-field value: the seed text reads it as a struct value, "
        "the adopted v3 spec allows only null or {} (schema.default.struct)",
        sch(f(1, "s", struct(f(2, "x", "int", initial=3)), initial={"2": 4})),
        3,
    )
    yield _parse(
        r,
        "struct-default-unknown-sub-field",
        "seed: a struct default naming a field id the struct does not have",
        sch(f(1, "s", struct(f(2, "x", "int")), initial={"9": 4})),
        3,
        revisions=revisions.before(revisions.V3_ADOPTED),
    )

    r = "schema.default.required"
    yield _parse(
        r,
        "null-initial",
        "a required field cannot have a null initial-default",
        sch(f(1, "a", "int", True, initial=None)),
        3,
    )
    yield _parse(
        r,
        "null-write",
        "a required field cannot have a null write-default",
        sch(f(1, "a", "int", True, initial=1, write=None)),
        3,
    )
    yield _parse(
        r,
        "nested-null-write",
        "a required nested field with a null write-default",
        sch(f(1, "s", struct(f(2, "x", "int", True, write=None)))),
        3,
    )
    yield _parse(
        r,
        "non-null",
        "a required field with non-null defaults is valid",
        sch(f(1, "a", "int", True, initial=1, write=2)),
        3,
    )
    yield _parse(
        r,
        "optional-null",
        "an optional field may default to null",
        sch(f(1, "a", "int", False, initial=None, write=None)),
        3,
    )

    r = "schema.default.struct"
    sub = struct(f(2, "x", "int", initial=3, write=3))
    yield _parse(
        r,
        "empty-object",
        "a struct field's default may be {}: sub-fields take their own defaults",
        sch(f(1, "s", sub, initial={}, write={})),
        3,
    )
    yield _parse(r, "null", "a struct field's default may be null", sch(f(1, "s", sub, initial=None, write=None)), 3)
    yield _parse(
        r,
        "with-values",
        "adopted: a struct default other than null or {} is invalid",
        sch(f(1, "s", sub, initial={"2": 4})),
        3,
    )
    yield _parse(
        r,
        "write-with-values",
        "adopted: a struct write-default other than null or {} is invalid",
        sch(f(1, "s", sub, write={"2": 4})),
        3,
    )

    r = "schema.default.null-only"
    for type_, value in (("unknown", 1), ("variant", {}), ("geometry", "POINT (1 2)"), ("geography", "POINT (1 2)")):
        yield _parse(
            r, f"{type_}-non-null", f"a {type_} field can only default to null", sch(f(1, "g", type_, initial=value)), 3
        )
        yield _parse(
            r,
            f"{type_}-null",
            f"a {type_} field with null defaults is valid",
            sch(f(1, "g", type_, initial=None, write=None)),
            3,
        )
    yield _parse(
        r, "unknown-write", "an unknown field's write-default must be null too", sch(f(1, "g", "unknown", write="x")), 3
    )


def specs():
    yield from _schema_json()
    yield from _field_ids()
    yield from _identifiers()
    yield from _defaults()
