"""Schemas (Appendix C), the id index, identifier fields, reserved ids and default values."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec_impl import strategies as ist
from spec_impl.errors import InvalidInput
from spec_impl.metadata.schema import (
    MAX_TABLE_FIELD_ID,
    METADATA_COLUMNS,
    Schema,
    initial_default,
    metadata_column,
    parse_schema,
    validate_schema,
    walk,
    write_default,
)
from spec_impl.revisions import ADOPTED, SEED_2024, V3_ADOPTED
from spec_impl.rules import RULES
from spec_impl.types import ABSENT, ListType, MapType, NestedField, StructType, parse_type

# Appendix C: the struct example (with its defaults), completed with the list and map examples.
APPENDIX_C_SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "identifier-field-ids": [1],
    "fields": [
        {
            "id": 1,
            "name": "id",
            "required": True,
            "type": "uuid",
            "initial-default": "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
            "write-default": "ec5911be-b0a7-458c-8438-c9a3e53cffae",
        },
        {
            "id": 2,
            "name": "data",
            "required": False,
            "type": {"type": "list", "element-id": 3, "element-required": True, "element": "string"},
        },
        {
            "id": 4,
            "name": "m",
            "required": False,
            "type": {
                "type": "map",
                "key-id": 5,
                "key": "string",
                "value-id": 6,
                "value-required": False,
                "value": "double",
            },
        },
    ],
}


def field(fid, name, type_, required=False, **defaults):
    """A NestedField; `initial=` / `write=` set the defaults' JSON (ABSENT when not given)."""
    return NestedField(
        fid, name, parse_type(type_), required, None, defaults.get("initial", ABSENT), defaults.get("write", ABSENT)
    )


def raises(rule_id, fn, *args, **kwargs):
    with pytest.raises(InvalidInput) as e:
        fn(*args, **kwargs)
    assert e.value.rule == rule_id, str(e.value)
    return e.value


# --- Appendix C JSON ---------------------------------------------------------------------------------


def test_appendix_c_example_parses_validates_and_round_trips():
    """schema.json: the Appendix C example; its defaults make it a v3 schema."""
    s = parse_schema(APPENDIX_C_SCHEMA, 3)
    validate_schema(s, 3)
    assert s.schema_id == 0 and s.identifier_field_ids == (1,)
    assert s.to_json(3) == APPENDIX_C_SCHEMA
    assert parse_schema(s.to_json(3), 3) == s
    assert str(initial_default(s.fields[0])) == "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb"
    assert str(write_default(s.fields[0])) == "ec5911be-b0a7-458c-8438-c9a3e53cffae"


def test_id_index_covers_elements_keys_and_values():
    s = parse_schema(APPENDIX_C_SCHEMA, 3)
    assert s.ids == {1, 2, 3, 4, 5, 6} and s.highest_field_id() == 6
    element, key, value = s.field_by_id(3), s.field_by_id(5), s.field_by_id(6)
    assert (element.kind, element.parent_id, element.path, element.required) == (
        "element",
        2,
        ("data", "element"),
        True,
    )
    assert (key.kind, key.required, value.kind, value.required) == ("key", True, "value", False)
    assert s.field_by_id(1).field is s.fields[0]
    with pytest.raises(KeyError):
        s.field_by_id(7)
    assert Schema.of().highest_field_id() == 0


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"fields": []},
        {"type": "list", "element-id": 1, "element-required": True, "element": "int", "schema-id": 0},
        {"type": "struct", "schema-id": 0, "fields": [], "identifier-field-ids": 1},
        {"type": "struct", "schema-id": 0, "fields": [], "identifier-field-ids": [True]},
    ],
)
def test_malformed_schema_json(bad):
    """schema.json"""
    raises("schema.json", parse_schema, bad, 2)


def test_schema_id_optional_in_v1_only():
    """schema.schema-id: v1 reads a missing schema-id as 0; v2 and v3 require it."""
    obj = {"type": "struct", "fields": [{"id": 1, "name": "a", "required": True, "type": "int"}]}
    assert parse_schema(obj, 1).schema_id == 0
    for v in (2, 3):
        raises("schema.schema-id", parse_schema, obj, v)
    raises("schema.schema-id", parse_schema, dict(obj, **{"schema-id": "1"}), 1)
    assert parse_schema(dict(obj, **{"schema-id": 7}), 2).schema_id == 7
    assert parse_schema(obj, 1).to_json(1)["schema-id"] == 0  # always written


def test_fields_are_checked_by_the_type_parser():
    """type.nested: field objects come from the type parser."""
    with pytest.raises(InvalidInput, match="type.nested"):
        parse_schema({"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "type": "int"}]}, 2)


# --- field ids -------------------------------------------------------------------------------------


def test_duplicate_ids_anywhere_in_the_tree():
    """schema.field-id.unique: struct fields, elements, keys and values share one id space."""
    dup_element = Schema.of(field(1, "a", "int"), NestedField(2, "l", ListType(1, parse_type("int"), True), False))
    e = raises("schema.field-id.unique", validate_schema, dup_element, 2)
    assert "a" in str(e) and "l.element" in str(e)
    nested = Schema.of(
        field(
            1,
            "s",
            {
                "type": "struct",
                "fields": [
                    {"id": 2, "name": "x", "required": False, "type": "int"},
                    {"id": 2, "name": "y", "required": False, "type": "int"},
                ],
            },
        )
    )
    raises("schema.field-id.unique", validate_schema, nested, 2)
    validate_schema(Schema.of(field(1, "a", "int"), field(2, "b", "int")), 2)


def test_reserved_ids():
    """schema.field-id.reserved: ids above Integer.MAX_VALUE - 200 belong to metadata columns."""
    assert MAX_TABLE_FIELD_ID == 2147483447
    validate_schema(Schema.of(field(2147483447, "last", "int")), 2)
    raises("schema.field-id.reserved", validate_schema, Schema.of(field(2147483448, "x", "int")), 2)
    raises(
        "schema.field-id.reserved",
        validate_schema,
        Schema.of(
            field(
                1,
                "m",
                {
                    "type": "map",
                    "key-id": 2,
                    "key": "string",
                    "value-id": 2147483600,
                    "value-required": False,
                    "value": "int",
                },
            )
        ),
        2,
    )
    file_column = Schema.of(field(2147483646, "_file", "string", True), field(1, "a", "int"))
    raises("schema.field-id.reserved", validate_schema, file_column, 2)
    validate_schema(file_column, 2, allow_metadata_columns=True)
    raises(
        "schema.field-id.reserved",
        validate_schema,
        Schema.of(field(2147483646, "not_file", "string")),
        2,
        allow_metadata_columns=True,
    )


def test_metadata_columns_table():
    """The seed's metadata columns and the adopted v3 lineage and changelog columns."""
    assert (
        metadata_column("_row_id").id == 2147483540
        and metadata_column(2147483539).name == "_last_updated_sequence_number"
    )
    assert metadata_column("_pos", SEED_2024).type == "long"
    with pytest.raises(KeyError):
        metadata_column("_row_id", SEED_2024)
    assert all(c.id > MAX_TABLE_FIELD_ID for c in METADATA_COLUMNS)
    assert len({c.id for c in METADATA_COLUMNS}) == len({c.name for c in METADATA_COLUMNS}) == len(METADATA_COLUMNS)
    lineage = Schema.of(field(1, "a", "int"), field(2147483540, "_row_id", "long"))
    validate_schema(lineage, 3, allow_metadata_columns=True)
    raises("schema.field-id.reserved", validate_schema, lineage, 3, SEED_2024, allow_metadata_columns=True)


# --- identifier fields ------------------------------------------------------------------------------

NESTED = [
    field(1, "id", "long", True),
    field(2, "f", "double", True),
    field(3, "opt", "string"),
    field(
        4,
        "req_struct",
        {"type": "struct", "fields": [{"id": 5, "name": "k", "required": True, "type": "string"}]},
        True,
    ),
    field(6, "opt_struct", {"type": "struct", "fields": [{"id": 7, "name": "k", "required": True, "type": "string"}]}),
    field(8, "l", {"type": "list", "element-id": 9, "element-required": True, "element": "int"}, True),
    field(
        10,
        "m",
        {
            "type": "map",
            "key-id": 11,
            "key": "string",
            "value-id": 12,
            "value-required": True,
            "value": {"type": "struct", "fields": [{"id": 13, "name": "v", "required": True, "type": "int"}]},
        },
        True,
    ),
    field(14, "v", "variant", True),
]


@pytest.mark.parametrize(
    ("ids", "rule_id"),
    [
        ((1, 5), None),
        ((99,), "schema.identifier.exists"),
        ((9,), "schema.identifier.collection"),
        ((11,), "schema.identifier.collection"),
        ((13,), "schema.identifier.collection"),
        ((4,), "schema.identifier.primitive"),
        ((14,), "schema.identifier.primitive"),
        ((2,), "schema.identifier.floating"),
        ((3,), "schema.identifier.required"),
        ((7,), "schema.identifier.optional-struct"),
    ],
)
def test_identifier_fields(ids, rule_id):
    """schema.identifier.*: primitive, not float/double, required, not in a list/map or optional struct."""
    s = Schema.of(*NESTED, identifier_field_ids=ids)
    if rule_id is None:
        validate_schema(s, 3)
    else:
        raises(rule_id, validate_schema, s, 3)


# --- types and default values -----------------------------------------------------------------------


def test_v3_types_need_v3():
    """type.version: the error names the field."""
    s = Schema.of(
        field(
            1, "s", {"type": "struct", "fields": [{"id": 2, "name": "ts", "required": False, "type": "timestamp_ns"}]}
        )
    )
    e = raises("type.version", validate_schema, s, 2)
    assert "s.ts" in str(e)
    raises("type.version", s.to_json, 2)
    validate_schema(s, 3)


def test_defaults_only_in_v3():
    """schema.default.version: even a null default is a v3 feature."""
    for d in ({"initial": None}, {"write": 5}):
        s = Schema.of(field(1, "a", "int", **d))
        for v in (1, 2):
            raises("schema.default.version", validate_schema, s, v)
            raises("schema.default.version", s.to_json, v)
        validate_schema(s, 3)
    raises("schema.default.version", validate_schema, parse_schema(APPENDIX_C_SCHEMA, 2), 2)


@pytest.mark.parametrize(
    ("type_", "default"),
    [
        ("int", "5"),
        ("int", 2**31),
        ("date", "2017-02-30"),
        ("uuid", "nope"),
        ("decimal(9,2)", "1.5"),
        ("timestamptz", "2017-11-16T22:31:08+01:00"),
    ],
)
def test_undecodable_defaults(type_, default):
    """schema.default.decode: Appendix D JSON of the field type; the error names the field."""
    for key in ("initial", "write"):
        e = raises("schema.default.decode", validate_schema, Schema.of(field(1, "col", type_, **{key: default})), 3)
        assert "col" in str(e)


def test_decoded_defaults():
    f = field(1, "d", "decimal(9,2)", initial="1.50", write="-0.25")
    validate_schema(Schema.of(f), 3)
    assert str(initial_default(f)) == "1.50" and str(write_default(f)) == "-0.25"
    assert initial_default(field(2, "x", "int")) is None


def test_required_defaults_not_null():
    """schema.default.required"""
    raises("schema.default.required", validate_schema, Schema.of(field(1, "a", "int", True, initial=None)), 3)
    raises("schema.default.required", validate_schema, Schema.of(field(1, "a", "int", True, initial=1, write=None)), 3)
    validate_schema(Schema.of(field(1, "a", "int", True, initial=1, write=2)), 3)
    validate_schema(Schema.of(field(1, "a", "int", False, initial=None, write=None)), 3)


def test_struct_defaults_null_or_empty_in_the_adopted_spec():
    """schema.default.struct: the adopted spec allows only null or {}; the seed reads any struct value."""
    struct = {
        "type": "struct",
        "fields": [{"id": 2, "name": "x", "required": False, "type": "int", "initial-default": 3}],
    }
    for ok in (None, {}):
        validate_schema(Schema.of(field(1, "s", struct, initial=ok)), 3)
    filled = Schema.of(field(1, "s", struct, initial={"2": 4}))
    raises("schema.default.struct", validate_schema, filled, 3, V3_ADOPTED)
    validate_schema(filled, 3, SEED_2024)
    raises("schema.default.decode", validate_schema, Schema.of(field(1, "s", struct, initial={"9": 4})), 3, SEED_2024)


@pytest.mark.parametrize(
    ("type_", "default"), [("unknown", 1), ("variant", {}), ("geometry", "POINT (1 2)"), ("geography", "POINT (1 2)")]
)
def test_new_types_default_to_null(type_, default):
    """schema.default.null-only (adopted)"""
    raises("schema.default.null-only", validate_schema, Schema.of(field(1, "g", type_, initial=default)), 3)
    validate_schema(Schema.of(field(1, "g", type_, initial=None, write=None)), 3)


def test_nested_defaults_are_checked():
    s = Schema.of(
        field(
            1,
            "s",
            {
                "type": "struct",
                "fields": [{"id": 2, "name": "x", "required": True, "type": "int", "write-default": None}],
            },
        )
    )
    raises("schema.default.required", validate_schema, s, 3)


def test_rules_registered():
    for rule_id in (
        "schema.json",
        "schema.schema-id",
        "schema.field-id.unique",
        "schema.field-id.reserved",
        "schema.default.version",
        "schema.default.decode",
        "schema.default.required",
        "schema.default.struct",
        "schema.default.null-only",
    ):
        assert rule_id in RULES
    assert RULES["schema.default.struct"].revisions == ADOPTED


# --- properties -------------------------------------------------------------------------------------

NAMES = st.text(alphabet="abcdefgh._", min_size=1, max_size=4)


def _shapes():
    prim = ist.primitive_types().map(lambda t: ("p", t))
    return st.recursive(
        prim,
        lambda ch: st.one_of(
            st.lists(st.tuples(NAMES, st.booleans(), ch), min_size=1, max_size=3, unique_by=lambda x: x[0]).map(
                lambda fs: ("s", fs)
            ),
            st.tuples(st.booleans(), ch).map(lambda x: ("l",) + x),
            st.tuples(ist.primitive_types(), st.booleans(), ch).map(lambda x: ("m",) + x),
        ),
        max_leaves=6,
    )


def _build(shape, ids):
    kind = shape[0]
    if kind == "p":
        return shape[1]
    if kind == "s":
        return StructType(tuple(NestedField(next(ids), n, _build(s, ids), r) for n, r, s in shape[1]))
    if kind == "l":
        return ListType(next(ids), _build(shape[2], ids), shape[1])
    key_id, value_id = next(ids), next(ids)
    return MapType(key_id, shape[1], value_id, _build(shape[3], ids), shape[2])


def schemas() -> st.SearchStrategy[Schema]:
    """Valid v3 schemas (no defaults) with unique ids and nested structs, lists and maps."""
    top = st.lists(st.tuples(NAMES, st.booleans(), _shapes()), min_size=1, max_size=4, unique_by=lambda x: x[0])
    return st.tuples(top, st.integers(0, 2**31 - 1), st.integers(1, 1000)).map(
        lambda a: Schema(_build(("s", a[0]), itertools.count(a[2])), a[1])
    )


@given(schemas())
def test_to_json_parse_round_trip(s):
    """schema.json: parse_schema(to_json) is the identity; generated schemas validate."""
    validate_schema(s, 3)
    assert parse_schema(s.to_json(3), 3) == s
    assert s.highest_field_id() == max(s.ids) and len(s.ids) == sum(1 for _ in walk(s.struct))
