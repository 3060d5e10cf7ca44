"""Schemas, schema evolution, column projection and name mapping: Appendix C schemas (ids, identifier
fields, reserved ids, default values), the evolution rules, reading a data file with the table's
schema (by id, defaults, identity-partition values, promotions) and files without ids through a
name mapping. Built by hand from the spec's examples: Appendix C's schema and name mapping, the
Column Projection example, the grouping and map<string, int> examples of Schema Evolution."""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.cases import case

NAME = "schemas"
DESCRIPTION = (
    "Schemas, Schema Evolution, Column Projection, Appendix C: schemas, evolution, projection and name mapping"
)


# --- building blocks --------------------------------------------------------------------------------


def f(fid: int, name: str, type_: Any, required: bool = False, **extra: Any) -> dict:
    """A struct field's JSON; `initial=` / `write=` set initial-default / write-default, `doc=` the doc."""
    out: dict[str, Any] = {"id": fid, "name": name, "required": required, "type": type_}
    if "doc" in extra:
        out["doc"] = extra["doc"]
    if "initial" in extra:
        out["initial-default"] = extra["initial"]
    if "write" in extra:
        out["write-default"] = extra["write"]
    return out


def struct(*fields: dict) -> dict:
    return {"type": "struct", "fields": list(fields)}


def lst(element_id: int, element: Any, required: bool = False) -> dict:
    return {"type": "list", "element-id": element_id, "element-required": required, "element": element}


def mp(key_id: int, key: Any, value_id: int, value: Any, value_required: bool = False) -> dict:
    return {
        "type": "map",
        "key-id": key_id,
        "key": key,
        "value-id": value_id,
        "value-required": value_required,
        "value": value,
    }


def sch(*fields: dict, schema_id: int = 0, ids: list[int] | None = None) -> dict:
    out: dict[str, Any] = {"type": "struct", "schema-id": schema_id}
    if ids is not None:
        out["identifier-field-ids"] = ids
    out["fields"] = list(fields)
    return out


# Appendix C, "Schemas": the struct example (a uuid with both defaults, so a v3 schema) completed
# with the list and map examples of the same table (the seed text's example elides them with "...").
APPENDIX_C = sch(
    f(
        1,
        "id",
        "uuid",
        True,
        initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
        write="ec5911be-b0a7-458c-8438-c9a3e53cffae",
    ),
    f(2, "data", lst(3, "string", True)),
    f(4, "m", mp(5, "string", 6, "double")),
    ids=[1],
)

# Column Projection: "a file may be written with schema 1: a int, 2: b string, 3: c double and read
# using projection schema 3: measurement, 2: name, 4: a".
FILE_ABC = sch(f(1, "a", "int"), f(2, "b", "string"), f(3, "c", "double"))
READ_EXAMPLE = sch(f(3, "measurement", "double"), f(2, "name", "string"), f(4, "a", "int"))

# Appendix C, "Name Mapping Serialization", the example, and a table schema it maps to.
MAPPING_EXAMPLE = [
    {"field-id": 1, "names": ["id", "record_id"]},
    {"field-id": 2, "names": ["data"]},
    {
        "field-id": 3,
        "names": ["location"],
        "fields": [{"field-id": 4, "names": ["latitude", "lat"]}, {"field-id": 5, "names": ["longitude", "long"]}],
    },
]
MAPPED_TABLE = sch(
    f(1, "id", "long", True),
    f(2, "data", "string"),
    f(3, "location", struct(f(4, "lat", "double"), f(5, "long", "double"))),
)

# Identifier fields: one candidate of each kind (ids are what the cases name).
IDENT_FIELDS = [
    f(1, "id", "long", True),
    f(2, "score", "double", True),
    f(3, "opt", "string"),
    f(4, "req_struct", struct(f(5, "k", "string", True)), True),
    f(6, "opt_struct", struct(f(7, "k", "string", True))),
    f(8, "l", lst(9, "int", True), True),
    f(10, "m", mp(11, "string", 12, struct(f(13, "v", "int", True)), True), True),
    f(14, "v", "variant", True),
    f(15, "ratio", "float", True),
    f(16, "outer", struct(f(17, "inner", struct(f(18, "k", "int", True)), True))),
    f(19, "ts", "timestamptz", True),
    f(20, "r1", struct(f(21, "r2", struct(f(22, "k", "int", True)), True)), True),
]


def _parse(rule_id: str, slug: str, description: str, schema: Any, fv: int, **kw):
    return case(rule_id, slug, description, "parse-schema", schema=schema, format_version=fv, **kw)


def _evolve(rule_id: str, slug: str, description: str, old: dict, new: dict, fv: int, **kw):
    return case(rule_id, slug, description, "check-evolution", format_version=fv, **{"from": old, "to": new}, **kw)


def _project(rule_id: str, slug: str, description: str, file_schema: dict | None, read_schema: dict, rows: list, **kw):
    return case(
        rule_id, slug, description, "project", file_schema=file_schema, read_schema=read_schema, rows=rows, **kw
    )


def _mapping(rule_id: str, slug: str, description: str, mapping: Any, **kw):
    return case(rule_id, slug, description, "parse-name-mapping", mapping=mapping, **kw)


def _last_column_id():
    one = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "required": False, "type": "int"}]}
    readd = {
        "type": "struct",
        "schema-id": 1,
        "fields": [
            {"id": 1, "name": "a", "required": False, "type": "int"},
            {"id": 2, "name": "b", "required": False, "type": "string"},
        ],
    }
    yield case(
        "evolution.field-id.new",
        "readds-dropped-id",
        "id 2 was assigned before (last-column-id 5) and dropped: a new field must not reuse it",
        "check-evolution",
        format_version=2,
        **{"from": one, "to": readd, "last-column-id": 5},
    )
    yield case(
        "evolution.field-id.new",
        "above-last-column-id",
        "a new field with an id above last-column-id is a fresh id",
        "check-evolution",
        format_version=2,
        **{"from": one, "to": readd, "last-column-id": 1},
    )
    dates = {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {"id": 1, "name": "d", "required": False, "type": "date"},
            {"id": 2, "name": "amount", "required": False, "type": "decimal(9,2)"},
        ],
    }
    yield case(
        "name-mapping.lookup",
        "typed-values-by-name",
        "a file without field ids: values of date and decimal columns found through the mapping",
        "project",
        **{
            "file-schema": None,
            "read-schema": dates,
            "rows": [{"d": "2017-11-16", "amount": "14.20", "extra": 1}],
            "name-mapping": [{"field-id": 1, "names": ["d", "day"]}, {"field-id": 2, "names": ["amount"]}],
        },
    )


def _promotion_under_partitions():
    d = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "d", "required": False, "type": "date"}]}
    ts = {"type": "struct", "schema-id": 1, "fields": [{"id": 1, "name": "d", "required": False, "type": "timestamp"}]}
    for transform, what in (
        ("day", "day keeps its value (days from 1970 either way)"),
        ("identity", "identity would give microseconds, not days"),
        ("bucket[16]", "bucket would hash microseconds, not days"),
    ):
        spec = {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "p", "transform": transform}]}
        yield case(
            "evolution.type.partition-transform",
            f"date-to-timestamp-under-{transform}",
            f"v3: date promoted to timestamp while partitioned by {transform}: {what}",
            "check-evolution",
            format_version=3,
            revisions=("v3-adopted",),
            **{"from": d, "to": ts, "partition-specs": [spec]},
        )


def specs():
    yield from _promotion_under_partitions()
    yield from _last_column_id()
    yield from _schema_json()
    yield from _field_ids()
    yield from _identifiers()
    yield from _defaults()
    yield from _evolution()
    yield from _projection()
    yield from _name_mapping()


# --- schemas ----------------------------------------------------------------------------------------


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
        revisions=("2024-seed",),
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


# --- schema evolution -------------------------------------------------------------------------------

BASE = sch(f(1, "a", "int", True), f(2, "b", "string"), f(3, "c", "double"))


def _evolution():
    r = "evolution.field-id.kept"
    yield _evolve(r, "unchanged", "a schema evolves into itself", BASE, BASE, 2)
    yield _evolve(
        r,
        "rename-reorder-add",
        "the Column Projection example as an evolution: c renamed measurement, b renamed name, "
        "a dropped and a new column 4: a added",
        FILE_ABC,
        dict(READ_EXAMPLE, **{"schema-id": 1}),
        2,
    )
    yield _evolve(
        r, "drop", "dropping a field (even a required one) is allowed", BASE, sch(f(2, "b", "string"), schema_id=1), 2
    )
    yield _evolve(
        r,
        "same-name-new-id",
        "a column dropped and re-added under the same name with a new id and another type: "
        "fields match by id, so this is a drop and an add, not a type change",
        sch(f(1, "a", "int")),
        sch(f(2, "a", "string"), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-rename",
        "renaming and reordering fields of a nested struct",
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "int")))),
        sch(f(1, "point", struct(f(3, "lat", "int"), f(2, "lon", "int"))), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "list-element-id-changed",
        "a list keeps its element id",
        sch(f(1, "l", lst(2, "int"))),
        sch(f(1, "l", lst(3, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "map-value-id-changed",
        "a map keeps its value id",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(2, "string", 4, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "map-key-id-changed",
        "a map keeps its key id",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(4, "string", 3, "int")), schema_id=1),
        2,
    )

    r = "evolution.field-id.new"
    yield _evolve(
        r,
        "fresh-ids",
        "an added struct gets new ids for itself and its fields, above every existing id",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int"), f(6, "l", lst(7, "long")))), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "below-highest",
        "an added field's id 5 is below the highest existing id 10: ids are never reused",
        sch(f(10, "a", "int")),
        sch(f(10, "a", "int"), f(5, "b", "int"), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-element-below-highest",
        "an added list whose element id 5 is below the highest existing id 10",
        sch(f(1, "a", "int"), f(10, "b", "int")),
        sch(f(1, "a", "int"), f(10, "b", "int"), f(11, "l", lst(5, "int")), schema_id=1),
        2,
    )

    r = "evolution.type.promotion"
    for old, new, fv, why in (
        ("int", "long", 1, "int to long"),
        ("float", "double", 2, "float to double"),
        ("decimal(9,2)", "decimal(18,2)", 2, "decimal precision widening, same scale"),
        ("decimal(9,2)", "decimal(38,2)", 1, "decimal widening to the maximum precision"),
        ("decimal(9,2)", "decimal(18,3)", 2, "decimal: the scale cannot change"),
        ("decimal(18,2)", "decimal(9,2)", 2, "decimal: precision cannot narrow"),
        ("long", "int", 2, "long to int narrows"),
        ("double", "float", 2, "double to float narrows"),
        ("int", "double", 2, "int to double is not a promotion"),
        ("int", "string", 2, "int to string is not a promotion"),
        ("string", "binary", 2, "string to binary is not a promotion"),
        ("fixed[4]", "fixed[8]", 2, "fixed lengths cannot change"),
        ("fixed[4]", "binary", 2, "fixed to binary is not a promotion"),
        ("timestamp", "timestamptz", 2, "timestamp to timestamptz is not a promotion"),
        ("date", "timestamp", 2, "date to timestamp needs v3"),
        ("date", "timestamp", 3, "date to timestamp: a v3 promotion of the adopted spec, not in the seed text"),
        ("date", "timestamp_ns", 3, "date to timestamp_ns: a v3 promotion of the adopted spec, not in the seed text"),
        ("date", "timestamptz", 3, "date to timestamptz is not a promotion"),
        ("timestamp", "timestamp_ns", 3, "timestamp to timestamp_ns is not a promotion"),
        ("unknown", "string", 3, "unknown to any type: a v3 promotion of the adopted spec"),
        ("unknown", "decimal(9,2)", 3, "unknown to decimal(9,2): a v3 promotion of the adopted spec"),
        ("long", "unknown", 3, "no type can become unknown"),
    ):
        slug = (
            f"{old}-to-{new}-v{fv}".replace("(", "")
            .replace(")", "")
            .replace(",", "-")
            .replace("[", "")
            .replace("]", "")
        )
        yield _evolve(r, slug, why, sch(f(1, "x", old)), sch(f(1, "x", new), schema_id=1), fv)
    old = sch(f(1, "l", lst(2, "int")), f(3, "m", mp(4, "int", 5, "float")))
    yield _evolve(
        r,
        "list-and-map-members",
        "list element int to long, map key int to long and value float to double",
        old,
        sch(f(1, "l", lst(2, "long")), f(3, "m", mp(4, "long", 5, "double")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "list-and-map-members-invalid",
        "list element int to string and map value float to int: both reported",
        old,
        sch(f(1, "l", lst(2, "string")), f(3, "m", mp(4, "int", 5, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-struct-field",
        "a nested struct field's type is checked by its id",
        sch(f(1, "s", struct(f(2, "x", "long")))),
        sch(f(1, "s", struct(f(2, "x", "int"))), schema_id=1),
        2,
    )

    r = "evolution.type.nested"
    flat = sch(f(1, "m", mp(2, "string", 3, "int")))
    wrapped = sch(f(1, "m", mp(2, "string", 3, struct(f(4, "v", "int")))), schema_id=1)
    yield _evolve(
        r, "primitive-to-struct", "the spec's example: map<string, int> to map<string, struct<int>>", flat, wrapped, 2
    )
    yield _evolve(
        r, "struct-to-primitive", "the spec's example: map<string, struct<int>> to map<string, int>", wrapped, flat, 2
    )
    yield _evolve(r, "map-to-list", "a map field becomes a list", flat, sch(f(1, "m", lst(5, "int")), schema_id=1), 2)
    yield _evolve(
        r,
        "list-to-primitive",
        "a list field becomes a string",
        sch(f(1, "l", lst(2, "string"))),
        sch(f(1, "l", "string")),
        2,
    )
    yield _evolve(
        r,
        "primitive-to-list",
        "an int field becomes a list of int",
        sch(f(1, "x", "int")),
        sch(f(1, "x", lst(2, "int"))),
        2,
    )

    r = "evolution.move"
    abc = sch(f(1, "a", "int"), f(2, "b", "int"), f(3, "c", "int"))
    grouped = sch(f(1, "a", "int"), f(4, "s", struct(f(2, "b", "int"), f(3, "c", "int"))), schema_id=1)
    yield _evolve(
        r,
        "grouping",
        "the spec's example: struct<a, b, c> to struct<a, struct<b, c>> (b and c keep their ids)",
        abc,
        grouped,
        2,
    )
    yield _evolve(r, "ungrouping", "the spec's example: struct<a, struct<b, c>> to struct<a, b, c>", grouped, abc, 2)
    yield _evolve(
        r,
        "between-structs",
        "a field moved from one nested struct to another",
        sch(f(1, "s", struct(f(3, "x", "int"))), f(2, "t", struct())),
        sch(f(1, "s", struct()), f(2, "t", struct(f(3, "x", "int")))),
        2,
    )
    yield _evolve(
        r,
        "field-to-list-element",
        "an existing id reused as the element of a new list: a move, not a new id",
        sch(f(1, "a", "int"), f(2, "b", "int")),
        sch(f(1, "a", "int"), f(3, "l", lst(2, "int"))),
        2,
    )

    r = "evolution.required"
    yield _evolve(
        r,
        "optional-to-required",
        "optional b becomes required",
        BASE,
        sch(f(1, "a", "int", True), f(2, "b", "string", True), f(3, "c", "double")),
        2,
    )
    yield _evolve(
        r,
        "required-to-optional",
        "required a becomes optional: allowed",
        BASE,
        sch(f(1, "a", "int"), f(2, "b", "string"), f(3, "c", "double")),
        2,
    )
    yield _evolve(
        r,
        "list-element",
        "an optional list element becomes required",
        sch(f(1, "l", lst(2, "int"))),
        sch(f(1, "l", lst(2, "int", True))),
        2,
    )
    yield _evolve(
        r,
        "map-value",
        "an optional map value becomes required",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(2, "string", 3, "int", True))),
        2,
    )
    yield _evolve(
        r,
        "v3-with-defaults",
        "v3: an optional field cannot become required even when it has non-null defaults",
        sch(f(1, "a", "int", initial=1, write=1)),
        sch(f(1, "a", "int", True, initial=1, write=1)),
        3,
    )

    r = "evolution.add-required"
    plain = sch(*BASE["fields"], f(4, "d", "int", True), schema_id=1)
    yield _evolve(r, "v1", "v1: a required field cannot be added", BASE, plain, 1)
    yield _evolve(r, "v2", "v2: a required field cannot be added", BASE, plain, 2)
    yield _evolve(r, "v3-no-defaults", "v3: a required field added without defaults", BASE, plain, 3)
    yield _evolve(
        r,
        "v3-initial-only",
        "v3: a required field added with initial-default but no write-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, initial=1)),
        3,
    )
    yield _evolve(
        r,
        "v3-write-only",
        "v3: a required field added with write-default but no initial-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, write=1)),
        3,
    )
    yield _evolve(
        r,
        "v3-both-defaults",
        "v3: a required field added with non-null initial-default and write-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, initial=1, write=2)),
        3,
    )
    yield _evolve(
        r,
        "optional-with-defaults",
        "v3: an optional field added with null or non-null defaults",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", initial=None, write=None), f(5, "e", "int", initial=7, write=7)),
        3,
    )
    yield _evolve(
        r,
        "into-existing-struct",
        "v2: a required field added inside an existing struct",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "int", True)))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-optional-struct",
        "v2: a new optional struct with a required field (old rows read the struct as null)",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int", True)))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-list",
        "v2: a new list of structs with a required field (old rows have no elements)",
        BASE,
        sch(*BASE["fields"], f(4, "l", lst(5, struct(f(6, "x", "int", True)), True))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-required-struct",
        "v3: a new required struct defaulting to {} whose required field 5 has no defaults",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int", True)), True, initial={}, write={})),
        3,
    )

    r = "evolution.default.initial"
    old = sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=1, write=1))
    yield _evolve(
        r,
        "write-default-changes",
        "write-default may change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=1, write=5)),
        3,
    )
    yield _evolve(
        r,
        "initial-default-changes",
        "initial-default cannot change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=2, write=1)),
        3,
    )
    yield _evolve(
        r,
        "initial-default-removed",
        "initial-default cannot be removed from an existing field",
        sch(f(1, "d", "int", initial=1, write=1)),
        sch(f(1, "d", "int", write=1)),
        3,
    )
    yield _evolve(
        r,
        "initial-default-set-later",
        "initial-default cannot be set on an existing field",
        sch(f(1, "x", "int")),
        sch(f(1, "x", "int", initial=4)),
        3,
    )
    yield _evolve(
        r,
        "absent-to-null",
        "an absent initial-default and an explicit null are the same",
        sch(f(1, "x", "int")),
        sch(f(1, "x", "int", initial=None)),
        3,
    )
    yield _evolve(
        r,
        "promoted-same-value",
        "int to long keeps the initial-default 1: the value did not change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "long", True, initial=1, write=1)),
        3,
    )
    yield _evolve(
        r,
        "decimal-widened-same-value",
        "decimal(9,2) to decimal(18,2) with the same initial-default 1.50",
        sch(f(1, "x", "decimal(9,2)", initial="1.50")),
        sch(f(1, "x", "decimal(18,2)", initial="1.50")),
        3,
    )
    yield _evolve(
        r,
        "same-uuid-other-spelling",
        "the same UUID initial-default in uppercase: the value did not change",
        sch(f(1, "x", "uuid", initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb")),
        sch(f(1, "x", "uuid", initial="0DB3E2A8-9D1D-42B9-AA7B-74EBE558DCEB")),
        3,
        note="Defaults compare as values of their type (Appendix D), not as JSON text; "
        "uppercase UUIDs are accepted on read (see vectors/README.md).",
    )
    yield _evolve(
        "evolution.type.promotion",
        "all-violations-reported",
        "every violation is reported: type change, optional to required, struct to primitive, "
        "required field added without defaults",
        BASE,
        sch(f(1, "a", "string", True), f(2, "b", "string", True), f(3, "c", struct()), f(4, "d", "int", True)),
        3,
    )


# --- column projection ------------------------------------------------------------------------------


def _projection():
    rows = [{"1": 34, "2": "x", "3": 1.5}, {"1": None, "2": None, "3": None}]
    r = "projection.by-id"
    yield _project(
        r,
        "spec-example",
        "the Column Projection example: file 1: a int, 2: b string, 3: c double read with "
        "3: measurement, 2: name, 4: a selects c, b and a column of nulls called a, in that order "
        "(file column 1 a is not read field 4 a)",
        FILE_ABC,
        READ_EXAMPLE,
        rows,
    )
    yield _project(
        r, "same-schema", "reading with the file's own schema returns the rows unchanged", FILE_ABC, FILE_ABC, rows
    )
    yield _project(r, "no-rows", "a file without rows reads as no rows", FILE_ABC, READ_EXAMPLE, [])
    nested_file = sch(
        f(1, "s", struct(f(2, "x", "int"), f(3, "y", "string"))),
        f(4, "l", lst(5, "int")),
        f(6, "m", mp(7, "string", 8, "int")),
    )
    nested_read = sch(
        f(6, "m2", mp(7, "string", 8, "long")), f(1, "s2", struct(f(3, "y2", "string"))), f(4, "l", lst(5, "long"))
    )
    nested_row = {"1": {"2": 1, "3": "y"}, "4": [1, None], "6": {"keys": ["k"], "values": [2]}}
    yield _project(
        r,
        "nested",
        "a nested struct field is selected by id within its struct (x dropped, y renamed); "
        "list elements and map values are read through their ids (int promoted to long)",
        nested_file,
        nested_read,
        [nested_row, {"1": None, "4": None, "6": None}],
    )
    yield _project(
        r,
        "list-element-id-differs",
        "the read list's element id (9) is not the file's (5)",
        nested_file,
        sch(f(4, "l", lst(9, "int"))),
        [nested_row],
    )
    yield _project(
        r,
        "map-value-id-differs",
        "the read map's value id (9) is not the file's (8)",
        nested_file,
        sch(f(6, "m", mp(7, "string", 9, "int"))),
        [nested_row],
    )
    yield _project(
        r,
        "map-key-id-differs",
        "the read map's key id (9) is not the file's (7)",
        nested_file,
        sch(f(6, "m", mp(9, "string", 8, "int"))),
        [nested_row],
    )

    r = "projection.missing.null"
    yield _project(
        r,
        "same-name-other-id",
        "file column 1: a is not read field 4: a (ids, not names, select columns): a reads as null",
        FILE_ABC,
        sch(f(4, "a", "int")),
        rows[:1],
    )
    yield _project(
        r,
        "nested-field",
        "a field added to a nested struct reads as null",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "string")))),
        [{"1": {"2": 5}}, {"1": None}],
    )
    yield _project(
        r,
        "null-default",
        "a missing optional field whose initial-default is null reads as null",
        FILE_ABC,
        sch(f(1, "a", "int"), f(7, "n", "string", initial=None, write="w")),
        rows[:1],
        format_version=3,
    )

    r = "projection.missing.default"
    defaults = sch(
        f(1, "a", "int"),
        f(5, "d", "decimal(9,2)", True, initial="1.50", write="2.00"),
        f(6, "o", "date", initial="2024-01-02"),
        f(
            8,
            "id",
            "uuid",
            initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
            write="ec5911be-b0a7-458c-8438-c9a3e53cffae",
        ),
    )
    yield _project(
        r,
        "initial-not-write",
        "missing fields read as their initial-default, not their write-default "
        "(the Appendix C uuid defaults among them)",
        FILE_ABC,
        defaults,
        rows,
    )
    sub = [f(6, "x", "int", True, initial=7, write=7), f(7, "y", "string")]
    yield _project(
        r,
        "struct-empty-default",
        "a missing struct defaulting to {} reads its sub-fields' own defaults (7, null)",
        FILE_ABC,
        sch(f(1, "a", "int"), f(5, "s", struct(*sub), initial={})),
        rows[:1],
    )
    yield _project(
        r,
        "struct-null-default",
        "a missing optional struct without a default reads as null",
        FILE_ABC,
        sch(f(5, "s", struct(*sub))),
        rows[:1],
    )
    yield _project(
        r,
        "struct-seed-values",
        "seed: a struct default's values are used where given, sub-field defaults elsewhere",
        FILE_ABC,
        sch(f(5, "s", struct(*sub), initial={"7": "given"})),
        rows[:1],
        revisions=("2024-seed",),
    )
    yield _project(
        r,
        "nested-sub-field-default",
        "a field added to an existing struct reads as its initial-default where the struct is "
        "present, and the struct stays null where it is null",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "long", initial=42)))),
        [{"1": {"2": 5}}, {"1": None}],
    )
    parted = sch(f(1, "a", "int"), f(8, "region", "string", initial="eu"), f(9, "day", "date"))
    yield _project(
        r,
        "partition-value-or-default",
        "identity-partition values of fields missing from the file: used by the adopted "
        "spec before initial-default; the seed text reads initial-default, then null",
        FILE_ABC,
        parted,
        rows[:1],
        partition_values={"8": "us", "9": "2022-01-08"},
    )

    r = "projection.missing.partition"
    yield _project(
        r,
        "before-default",
        "adopted: a missing field's identity-partition value comes before its initial-default and null",
        FILE_ABC,
        parted,
        rows,
        partition_values={"8": "us", "9": "2022-01-08"},
        format_version=3,
    )
    yield _project(
        r,
        "file-value-wins",
        "a column present in the file is read from the file even when a partition value is given",
        FILE_ABC,
        parted,
        rows,
        partition_values={"1": 99},
        format_version=3,
    )

    r = "projection.required"
    req = sch(f(1, "a", "int"), f(4, "r", "long", True))
    yield _project(
        r,
        "missing-required",
        "a required field missing from the file, without initial-default, cannot be read",
        FILE_ABC,
        req,
        rows[:1],
    )
    yield _project(r, "missing-required-no-rows", "a file without rows still reads as no rows", FILE_ABC, req, [])
    yield _project(
        r,
        "missing-required-with-default",
        "a required field missing from the file reads as its initial-default",
        FILE_ABC,
        sch(f(1, "a", "int"), f(4, "r", "long", True, initial=5, write=5)),
        rows[:1],
        format_version=3,
    )
    yield _project(
        r,
        "missing-required-partition-value",
        "a required field missing from the file with an identity-partition value: "
        "readable in the adopted spec, not in the seed text",
        FILE_ABC,
        req,
        rows[:1],
        partition_values={"4": 5},
    )

    r = "projection.promotion"
    for src, dst, fv, values, why in (
        ("int", "long", 1, [2147483647, -2147483648, None], "int column read as long"),
        (
            "float",
            "double",
            2,
            [1.5, 0.1],
            "float column read as double: the float's value, 0.1 as a float is 0.100000001490116...",
        ),
        ("decimal(9,2)", "decimal(18,2)", 2, ["-1.25", "9999999.99"], "decimal(9,2) read as decimal(18,2)"),
        ("date", "timestamp", 3, ["1970-01-02", "1969-12-31"], "date read as timestamp (midnight): adopted v3 only"),
        ("date", "timestamp_ns", 3, ["2017-11-16"], "date read as timestamp_ns (midnight): adopted v3 only"),
        (
            "date",
            "timestamp_ns",
            3,
            ["2262-04-11", "1677-09-22"],
            "the first and last dates whose midnight fits timestamp_ns",
        ),
        ("date", "timestamp_ns", 3, ["2262-04-12"], "2262-04-12 as timestamp_ns leaves the long range: cannot be read"),
        ("date", "timestamp_ns", 3, ["1677-09-21"], "1677-09-21 as timestamp_ns leaves the long range: cannot be read"),
        ("date", "timestamp", 2, ["1970-01-02"], "date read as timestamp in a v2 table: not a promotion"),
        ("unknown", "string", 3, [None], "an unknown column (always null) read as string: adopted v3"),
        ("string", "int", 2, ["1"], "a string column cannot be read as int"),
        ("long", "int", 2, [1], "a long column cannot be read as int"),
        ("decimal(9,2)", "decimal(9,3)", 2, ["1.25"], "decimal scale change: not a promotion"),
        ("timestamp", "timestamptz", 2, ["2017-11-16T22:31:08"], "timestamp cannot be read as timestamptz"),
    ):
        slug = f"{src}-to-{dst}-v{fv}-{values[0]}".replace("(", "").replace(")", "").replace(",", "-")
        yield _project(
            r, slug, why, sch(f(1, "x", src)), sch(f(1, "x", dst)), [{"1": v} for v in values], format_version=fv
        )
    point = sch(f(1, "x", struct(f(2, "y", "int"))))
    yield _project(
        r, "struct-as-int", "a struct column cannot be read as an int", point, sch(f(1, "x", "int")), [{"1": {"2": 1}}]
    )
    yield _project(
        r, "int-as-struct", "an int column cannot be read as a struct", sch(f(1, "x", "int")), point, [{"1": 1}]
    )
    yield _project(
        r,
        "list-as-map",
        "a list column cannot be read as a map",
        sch(f(1, "x", lst(2, "int"))),
        sch(f(1, "x", mp(2, "int", 3, "int"))),
        [{"1": [1]}],
    )


# --- name mapping -----------------------------------------------------------------------------------


def _name_mapping():
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
    yield _project(
        r,
        "appendix-c-example",
        "a file without field ids read through the Appendix C mapping: any listed name (record_id, "
        "id; latitude, long) maps to the id; unmapped file columns (extra) are dropped; missing fields read as null",
        None,
        MAPPED_TABLE,
        rows,
        name_mapping=MAPPING_EXAMPLE,
    )
    yield _project(
        r,
        "mapping-as-text",
        "the mapping as the JSON text of the table property",
        None,
        MAPPED_TABLE,
        rows[1:],
        name_mapping='[{"field-id": 1, "names": ["id"]}, {"field-id": 2, "names": ["data"]}]',
    )
    yield _project(
        r, "no-mapping", "a file without field ids cannot be read without a name mapping", None, MAPPED_TABLE, rows
    )
    yield _project(
        r,
        "two-aliases-in-one-file",
        "a file with both id and record_id: two columns for field 1",
        None,
        MAPPED_TABLE,
        [{"id": 1, "record_id": 2}],
        name_mapping=MAPPING_EXAMPLE,
    )
    yield _project(
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
    yield _project(
        r,
        "dot-is-literal",
        "the name a.b is the file column named a.b, not child b of a",
        None,
        dotted_read,
        [{"a.b": 1, "a": {"b": 2}}],
        name_mapping=dotted_map,
    )
    yield _project(
        r,
        "nested-names-not-top-level",
        "lat is mapped only under location: a top-level column lat is dropped",
        None,
        MAPPED_TABLE,
        [{"id": 1, "lat": 9.5, "location": {"lat": 1.5}}],
        name_mapping=MAPPING_EXAMPLE,
    )
    no_id = [{"field-id": 1, "names": ["id"]}, {"names": ["legacy"], "fields": [{"field-id": 2, "names": ["data"]}]}]
    yield _project(
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
    yield _project(
        r,
        "list-element-and-map-value",
        "lists map their element and maps their key and value under fields",
        None,
        coll_read,
        [{"points": [{"x": 1}, None], "m": {"k": {"y": 2}}}],
        name_mapping=coll_map,
    )
    yield _project(
        r,
        "not-in-read-schema",
        "a mapped id that the read schema does not have is dropped",
        None,
        sch(f(2, "data", "string")),
        [{"id": 1, "data": "x"}],
        name_mapping=MAPPING_EXAMPLE,
    )
    yield _project(
        r,
        "ignored-with-ids",
        "a file with field ids is read by its ids; the mapping is not used",
        sch(f(1, "id", "long", True)),
        sch(f(1, "id", "long", True)),
        [{"1": 5}],
        name_mapping=[{"names": []}],
    )
