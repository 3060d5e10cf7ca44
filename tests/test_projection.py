"""Column projection and name mapping (Column Projection; Appendix C; adopted digest §1.2)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec_impl import strategies as ist
from spec_impl.errors import InvalidInput
from spec_impl.metadata.projection import NameMapping, parse_name_mapping, project, promote_value
from spec_impl.metadata.schema import Schema
from spec_impl.revisions import SEED_2024
from spec_impl.types import ABSENT, ListType, MapType, NestedField, StructType, parse_type
from spec_impl.values import to_float32
from test_schema import schemas


def field(fid, name, type_, required=False, initial=ABSENT, write=ABSENT):
    return NestedField(fid, name, parse_type(type_), required, None, initial, write)


def raises(rule_id, fn, *args, **kwargs):
    with pytest.raises(InvalidInput) as e:
        fn(*args, **kwargs)
    assert e.value.rule == rule_id, str(e.value)
    return e.value


# Column Projection: "a file may be written with schema 1: a int, 2: b string, 3: c double and read
# using projection schema 3: measurement, 2: name, 4: a".
FILE = Schema.of(field(1, "a", "int"), field(2, "b", "string"), field(3, "c", "double"))
READ = Schema.of(field(3, "measurement", "double"), field(2, "name", "string"), field(4, "a", "int"))


def test_spec_example():
    """projection.by-id, projection.missing.null: c renamed measurement, b renamed name, a new null column a."""
    out = project([{1: 34, 2: "x", 3: 1.5}, {1: None, 2: None, 3: None}], FILE, READ)
    assert out == [{3: 1.5, 2: "x", 4: None}, {3: None, 2: None, 4: None}]
    assert list(out[0]) == [3, 2, 4]  # the read schema's order; file column 1 (a) is dropped


def test_selection_is_by_id_within_each_struct():
    """projection.by-id: nested structs, lists and maps; ids of list elements and map values must match."""
    file = Schema.of(
        field(
            1,
            "s",
            {
                "type": "struct",
                "fields": [
                    {"id": 2, "name": "x", "required": False, "type": "int"},
                    {"id": 3, "name": "y", "required": False, "type": "string"},
                ],
            },
        ),
        field(4, "l", {"type": "list", "element-id": 5, "element-required": False, "element": "int"}),
        field(
            6,
            "m",
            {"type": "map", "key-id": 7, "key": "string", "value-id": 8, "value-required": False, "value": "int"},
        ),
    )
    read = Schema.of(
        field(
            6,
            "m2",
            {"type": "map", "key-id": 7, "key": "string", "value-id": 8, "value-required": False, "value": "long"},
        ),
        field(1, "s2", {"type": "struct", "fields": [{"id": 3, "name": "y2", "required": False, "type": "string"}]}),
        field(4, "l", {"type": "list", "element-id": 5, "element-required": False, "element": "long"}),
    )
    row = {1: {2: 1, 3: "y"}, 4: [1, None], 6: {"k": 2}}
    assert project([row], file, read) == [{6: {"k": 2}, 1: {3: "y"}, 4: [1, None]}]
    assert project([{1: None, 4: None, 6: None}], file, read) == [{6: None, 1: None, 4: None}]
    wrong_element = Schema.of(
        field(4, "l", {"type": "list", "element-id": 9, "element-required": False, "element": "int"})
    )
    raises("projection.by-id", project, [row], file, wrong_element)
    wrong_value = Schema.of(
        field(
            6,
            "m",
            {"type": "map", "key-id": 7, "key": "string", "value-id": 9, "value-required": False, "value": "int"},
        )
    )
    raises("projection.by-id", project, [row], file, wrong_value)
    raises("projection.by-id", project, [[1, 2]], FILE, READ)


def test_missing_fields_use_initial_default():
    """projection.missing.default: the decoded initial-default, not the write-default."""
    read = Schema.of(
        field(1, "a", "int"),
        field(5, "d", "decimal(9,2)", True, initial="1.50", write="2.00"),
        field(6, "o", "date", initial="2024-01-02"),
        field(7, "n", "string", initial=None),
    )
    assert project([{1: 3}], FILE, read) == [{1: 3, 5: Decimal("1.50"), 6: 19724, 7: None}]


def test_missing_struct_defaults_come_from_sub_fields():
    """projection.missing.default: a struct default {} reads its sub-fields' own defaults; the seed's
    struct default values are used where given."""
    sub = [
        {"id": 6, "name": "x", "required": True, "type": "int", "initial-default": 7, "write-default": 7},
        {"id": 7, "name": "y", "required": False, "type": "string"},
    ]
    empty = Schema.of(field(1, "a", "int"), field(5, "s", {"type": "struct", "fields": sub}, initial={}))
    assert project([{1: 1}], FILE, empty) == [{1: 1, 5: {6: 7, 7: None}}]
    seed = Schema.of(field(5, "s", {"type": "struct", "fields": sub}, initial={"7": "given"}))
    assert project([{}], FILE, seed, revision=SEED_2024) == [{5: {6: 7, 7: "given"}}]
    null = Schema.of(field(5, "s", {"type": "struct", "fields": sub}))
    assert project([{}], FILE, null) == [{5: None}]


def test_missing_fields_use_identity_partition_values_first():
    """projection.missing.partition: identity-partition value, then initial-default, then null (adopted only)."""
    read = Schema.of(field(1, "a", "int"), field(8, "region", "string", initial="eu"), field(9, "day", "date"))
    parts = {8: "us", 9: 19000}
    assert project([{1: 1}], FILE, read, partition_values=parts) == [{1: 1, 8: "us", 9: 19000}]
    assert project([{1: 1}], FILE, read, partition_values=parts, revision=SEED_2024) == [{1: 1, 8: "eu", 9: None}]
    assert project([{1: 1}], FILE, read, partition_values={1: 99}) == [{1: 1, 8: "eu", 9: None}]  # present in the file


def test_required_missing_field_without_a_value():
    """projection.required"""
    read = Schema.of(field(1, "a", "int"), field(4, "r", "long", True))
    e = raises("projection.required", project, [{1: 1}], FILE, read)
    assert "r" in str(e)
    assert project([{1: 1}], FILE, read, partition_values={4: 5}) == [{1: 1, 4: 5}]
    assert project([], FILE, read) == []


@pytest.mark.parametrize(
    ("src", "dst", "value", "expected", "version"),
    [
        ("int", "long", 2**31 - 1, 2**31 - 1, 1),
        ("float", "double", to_float32(0.1), to_float32(0.1), 2),
        ("decimal(9,2)", "decimal(18,2)", Decimal("-1.25"), Decimal("-1.25"), 2),
        ("date", "timestamp", 1, 86_400_000_000, 3),
        ("date", "timestamp_ns", -1, -86_400_000_000_000, 3),
        ("unknown", "string", None, None, 3),
    ],
)
def test_promotions(src, dst, value, expected, version):
    """projection.promotion: values of the file's type read as the read type."""
    file, read = Schema.of(field(1, "x", src)), Schema.of(field(1, "x", dst))
    assert project([{1: value}], file, read, format_version=version) == [{1: expected}]


def test_invalid_promotions_and_out_of_range_values():
    """projection.promotion: not a valid promotion, a nested/primitive mismatch, or out of range."""
    raises(
        "projection.promotion", project, [{1: "x"}], Schema.of(field(1, "x", "string")), Schema.of(field(1, "x", "int"))
    )
    raises(
        "projection.promotion",
        project,
        [{1: 1}],
        Schema.of(field(1, "x", "date")),
        Schema.of(field(1, "x", "timestamp")),
        format_version=2,
    )
    raises(
        "projection.promotion",
        project,
        [{1: 1}],
        Schema.of(field(1, "x", "date")),
        Schema.of(field(1, "x", "timestamp")),
        revision=SEED_2024,
    )
    struct = Schema.of(
        field(1, "x", {"type": "struct", "fields": [{"id": 2, "name": "y", "required": False, "type": "int"}]})
    )
    raises("projection.promotion", project, [{1: {2: 1}}], struct, Schema.of(field(1, "x", "int")))
    raises("projection.promotion", project, [{1: 1}], Schema.of(field(1, "x", "int")), struct)
    date, ts, ts_ns = parse_type("date"), parse_type("timestamp"), parse_type("timestamp_ns")
    assert promote_value(106_751_991, date, ts) == 106_751_991 * 86_400_000_000  # 292278-12-31 still fits
    raises("projection.promotion", promote_value, 2**31 - 1, date, ts)
    assert promote_value(106_751, date, ts_ns) == 106_751 * 86_400_000_000_000  # 2262-04-10
    raises("projection.promotion", promote_value, 106_752, date, ts_ns)
    raises("projection.promotion", promote_value, -106_752, date, ts_ns)


# --- name mapping ---------------------------------------------------------------------------------

# Appendix C, "Name Mapping Serialization", the example.
MAPPING_EXAMPLE = [
    {"field-id": 1, "names": ["id", "record_id"]},
    {"field-id": 2, "names": ["data"]},
    {
        "field-id": 3,
        "names": ["location"],
        "fields": [{"field-id": 4, "names": ["latitude", "lat"]}, {"field-id": 5, "names": ["longitude", "long"]}],
    },
]
TABLE = Schema.of(
    field(1, "id", "long", True),
    field(2, "data", "string"),
    field(
        3,
        "location",
        {
            "type": "struct",
            "fields": [
                {"id": 4, "name": "lat", "required": False, "type": "double"},
                {"id": 5, "name": "long", "required": False, "type": "double"},
            ],
        },
    ),
)


def test_name_mapping_example():
    """name-mapping.json: the Appendix C example parses and serializes back unchanged."""
    m = parse_name_mapping(MAPPING_EXAMPLE)
    assert isinstance(m, NameMapping) and m.to_json() == MAPPING_EXAMPLE
    assert parse_name_mapping(json.dumps(MAPPING_EXAMPLE)) == m  # the table property holds JSON text
    assert m.find("record_id").field_id == m.find("id").field_id == 1
    assert m.find("location", "lat").field_id == 4 and m.find("lat") is None and m.find("nope") is None


def test_files_without_ids_are_read_through_the_mapping():
    """name-mapping.lookup: any listed name maps to the id; unmapped file columns are dropped;
    fields missing from the file are filled as usual."""
    rows = [
        {"record_id": 7, "location": {"long": 2.5, "latitude": 1.5}, "extra": True},
        {"record_id": 8, "location": None},
    ]
    assert project(rows, None, TABLE, MAPPING_EXAMPLE) == [
        {1: 7, 2: None, 3: {4: 1.5, 5: 2.5}},
        {1: 8, 2: None, 3: None},
    ]
    raises("name-mapping.lookup", project, rows, None, TABLE)  # no mapping
    raises(
        "name-mapping.lookup", project, [{"id": 1, "record_id": 2}], None, TABLE, MAPPING_EXAMPLE
    )  # two aliases at once
    raises("projection.required", project, [{"data": "x"}], None, TABLE, MAPPING_EXAMPLE)
    assert project(
        [{1: 5}], Schema.of(field(1, "id", "long", True)), Schema.of(field(1, "id", "long", True)), [{"names": []}]
    ) == [{1: 5}]


def test_names_with_dots_are_literal():
    """name-mapping.lookup: 'a.b' names a field called a.b, not child b of a."""
    mapping = [
        {"field-id": 1, "names": ["a.b"]},
        {"field-id": 2, "names": ["a"], "fields": [{"field-id": 3, "names": ["b"]}]},
    ]
    read = Schema.of(
        field(1, "ab", "int"),
        field(2, "a", {"type": "struct", "fields": [{"id": 3, "name": "b", "required": False, "type": "int"}]}),
    )
    assert project([{"a.b": 1, "a": {"b": 2}}], None, read, mapping) == [{1: 1, 2: {3: 2}}]
    m = parse_name_mapping(mapping)
    assert m.find("a.b").field_id == 1 and m.find("a", "b").field_id == 3


def test_mappings_without_field_id_are_ignored():
    """name-mapping.lookup: 'Fields that exist in imported files but not in the Iceberg schema may omit field-id'."""
    mapping = [{"field-id": 1, "names": ["id"]}, {"names": ["legacy"], "fields": [{"field-id": 2, "names": ["data"]}]}]
    assert project(
        [{"id": 1, "legacy": {"data": "x"}, "data": "top"}], None, Schema.of(*TABLE.fields[:2]), mapping
    ) == [{1: 1, 2: None}]


def test_lists_and_maps_map_their_element_key_and_value():
    """name-mapping.lookup: 'element', 'key' and 'value' mappings under fields."""
    point = {"type": "struct", "fields": [{"id": 5, "name": "x", "required": False, "type": "int"}]}
    read = Schema.of(
        field(1, "pts", {"type": "list", "element-id": 2, "element-required": False, "element": point}),
        field(
            3,
            "by_name",
            {
                "type": "map",
                "key-id": 4,
                "key": "string",
                "value-id": 6,
                "value-required": False,
                "value": {"type": "struct", "fields": [{"id": 7, "name": "y", "required": False, "type": "int"}]},
            },
        ),
    )
    mapping = [
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
    rows = [{"points": [{"x": 1}, None], "m": {"k": {"y": 2}}}]
    assert project(rows, None, read, mapping) == [{1: [{5: 1}, None], 3: {"k": {7: 2}}}]


@pytest.mark.parametrize(
    "bad",
    [
        {"field-id": 1, "names": ["a"]},
        [{"field-id": 1}],
        [{"field-id": 1, "names": "a"}],
        [{"field-id": "1", "names": ["a"]}],
        [{"field-id": True, "names": ["a"]}],
        [{"field_id": 1, "names": ["a"]}],
        [{"field-id": 1, "names": ["a"], "fields": {}}],
        [7],
        "[{",
    ],
)
def test_malformed_name_mappings(bad):
    """name-mapping.json (including the spec table's 'field_id' spelling, which its example does not use)."""
    raises("name-mapping.json", parse_name_mapping, bad)


def test_names_are_unique_per_level():
    """name-mapping.unique-names: one name, one id at each level; the same name may recur deeper."""
    raises(
        "name-mapping.unique-names",
        parse_name_mapping,
        [{"field-id": 1, "names": ["a"]}, {"field-id": 2, "names": ["b", "a"]}],
    )
    parse_name_mapping([{"field-id": 1, "names": ["a"], "fields": [{"field-id": 2, "names": ["a"]}]}])


# --- properties -------------------------------------------------------------------------------------


def _values(t, required):
    if isinstance(t, StructType):
        base = st.fixed_dictionaries({f.id: _values(f.type, f.required) for f in t.fields})
    elif isinstance(t, ListType):
        base = st.lists(_values(t.element, t.element_required), max_size=3)
    elif isinstance(t, MapType):
        base = st.dictionaries(ist.values(t.key, allow_nan=False), _values(t.value, t.value_required), max_size=3)
    else:
        base = ist.values(t, allow_nan=False)
    return base if required else st.one_of(st.none(), base)


schema_and_rows = schemas().flatmap(lambda s: st.tuples(st.just(s), st.lists(_values(s.struct, True), max_size=3)))


@given(schema_and_rows)
def test_projecting_with_the_files_own_schema_is_the_identity(sr):
    """projection.by-id"""
    s, rows = sr
    assert project(rows, s, s) == rows


@given(schema_and_rows, st.data())
def test_projecting_a_subset_drops_the_other_columns(sr, data):
    """projection.by-id: dropped and reordered top-level columns."""
    s, rows = sr
    kept = data.draw(st.permutations(s.fields).flatmap(lambda fs: st.lists(st.sampled_from(fs), unique=True)))
    assert project(rows, s, Schema.of(*kept)) == [{f.id: r[f.id] for f in kept} for r in rows]
