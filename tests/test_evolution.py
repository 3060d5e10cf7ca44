"""Schema evolution (Schema Evolution, Default values; adopted digest §1.1-1.2)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

from spec_impl.metadata.evolution import Violation, check_evolution
from spec_impl.metadata.schema import Schema
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.types import ABSENT, NestedField, StructType, parse_type
from test_schema import schemas


def field(fid, name, type_, required=False, initial=ABSENT, write=ABSENT):
    return NestedField(fid, name, parse_type(type_), required, None, initial, write)


def struct(*fields):
    return {"type": "struct", "fields": [f.to_json() for f in fields]}


def rules(old, new, version=3, revision=V3_ADOPTED, **kw):
    return [v.rule for v in check_evolution(old, new, version, revision, **kw)]


BASE = Schema.of(field(1, "a", "int", True), field(2, "b", "string"), field(3, "c", "double"))


def test_unchanged_drop_reorder_and_rename_are_allowed():
    """evolution.field-id.kept: a rename keeps the id; dropping and reordering are allowed."""
    assert rules(BASE, BASE) == []
    renamed = Schema.of(field(3, "measurement", "double"), field(2, "name", "string"), field(1, "a", "int", True))
    assert rules(BASE, renamed) == []
    assert rules(BASE, Schema.of(field(2, "b", "string"))) == []


def test_violation_shape():
    v = check_evolution(BASE, Schema.of(field(1, "a", "string", True)), 2)[0]
    assert isinstance(v, Violation) and v.rule == "evolution.type.promotion" and v.field_id == 1 and "int" in v.message
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.rule = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("old", "new", "version", "revision", "ok"),
    [
        ("int", "long", 1, V3_ADOPTED, True),
        ("float", "double", 2, V3_ADOPTED, True),
        ("decimal(9,2)", "decimal(18,2)", 2, V3_ADOPTED, True),
        ("decimal(9,2)", "decimal(18,3)", 3, V3_ADOPTED, False),
        ("long", "int", 2, V3_ADOPTED, False),
        ("string", "binary", 2, V3_ADOPTED, False),
        ("date", "timestamp", 3, V3_ADOPTED, True),
        ("date", "timestamp_ns", 3, V3_ADOPTED, True),
        ("date", "timestamptz", 3, V3_ADOPTED, False),
        ("date", "timestamp", 2, V3_ADOPTED, False),
        ("date", "timestamp", 3, SEED_2024, False),
        ("unknown", "string", 3, V3_ADOPTED, True),
    ],
)
def test_primitive_promotions(old, new, version, revision, ok):
    """evolution.type.promotion: the promotion table of spec_impl.promotion."""
    before, after = Schema.of(field(1, "x", old)), Schema.of(field(1, "x", new))
    assert rules(before, after, version, revision) == ([] if ok else ["evolution.type.promotion"])


def test_promotions_inside_lists_and_maps():
    """evolution.type.promotion: element, key and value types are checked by their own ids."""
    old = Schema.of(
        field(1, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "int"}),
        field(
            3, "m", {"type": "map", "key-id": 4, "key": "int", "value-id": 5, "value-required": False, "value": "float"}
        ),
    )
    ok = Schema.of(
        field(1, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "long"}),
        field(
            3,
            "m",
            {"type": "map", "key-id": 4, "key": "long", "value-id": 5, "value-required": False, "value": "double"},
        ),
    )
    assert rules(old, ok, 2) == []
    bad = Schema.of(
        field(1, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "string"}),
        field(
            3, "m", {"type": "map", "key-id": 4, "key": "int", "value-id": 5, "value-required": False, "value": "int"}
        ),
    )
    assert [(v.rule, v.field_id) for v in check_evolution(old, bad, 2)] == [
        ("evolution.type.promotion", 2),
        ("evolution.type.promotion", 5),
    ]


def test_primitive_and_nested_types_do_not_interchange():
    """evolution.type.nested: map<string, int> <-> map<string, struct<int>> (the spec's example)."""
    flat = Schema.of(
        field(
            1,
            "m",
            {"type": "map", "key-id": 2, "key": "string", "value-id": 3, "value-required": False, "value": "int"},
        )
    )
    wrapped = Schema.of(
        field(
            1,
            "m",
            {
                "type": "map",
                "key-id": 2,
                "key": "string",
                "value-id": 3,
                "value-required": False,
                "value": struct(field(4, "v", "int")),
            },
        )
    )
    assert rules(flat, wrapped) == ["evolution.type.nested"]
    assert rules(wrapped, flat) == ["evolution.type.nested"]
    as_list = Schema.of(field(1, "m", {"type": "list", "element-id": 5, "element-required": False, "element": "int"}))
    assert rules(flat, as_list) == ["evolution.type.nested"]


def test_collection_member_ids_are_kept():
    """evolution.field-id.kept: a list element or map value cannot be swapped for a new id."""
    old = Schema.of(field(1, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "int"}))
    new = Schema.of(field(1, "l", {"type": "list", "element-id": 3, "element-required": False, "element": "int"}))
    assert rules(old, new) == ["evolution.field-id.kept"]
    old_map = Schema.of(
        field(
            1,
            "m",
            {"type": "map", "key-id": 2, "key": "string", "value-id": 3, "value-required": False, "value": "int"},
        )
    )
    new_map = Schema.of(
        field(
            1,
            "m",
            {"type": "map", "key-id": 2, "key": "string", "value-id": 4, "value-required": False, "value": "int"},
        )
    )
    assert rules(old_map, new_map) == ["evolution.field-id.kept"]


def test_grouping_and_ungrouping_are_forbidden():
    """evolution.move: struct<a, b, c> <-> struct<a, struct<b, c>> (the spec's example)."""
    flat = Schema.of(field(1, "a", "int"), field(2, "b", "int"), field(3, "c", "int"))
    grouped = Schema.of(field(1, "a", "int"), field(4, "s", struct(field(2, "b", "int"), field(3, "c", "int"))))
    assert [(v.rule, v.field_id) for v in check_evolution(flat, grouped, 3)] == [
        ("evolution.move", 2),
        ("evolution.move", 3),
    ]
    assert rules(grouped, flat) == ["evolution.move", "evolution.move"]


def test_new_ids_must_be_fresh():
    """evolution.field-id.new: above the old highest id and the table's last-column-id; nested ids too."""
    assert rules(BASE, Schema.of(*BASE.fields, field(4, "d", "int"))) == []
    assert rules(BASE, Schema.of(field(1, "a", "int", True), field(2, "b", "string"), field(3, "d", "int"))) == [
        "evolution.type.promotion"
    ]
    dropped = Schema.of(field(1, "a", "int", True), field(2, "b", "string"))
    reuse = Schema.of(*dropped.fields, field(3, "d", "int"))
    assert rules(dropped, reuse) == []  # 3 is free as far as the old schema shows
    assert rules(dropped, reuse, last_column_id=3) == ["evolution.field-id.new"]
    nested = Schema.of(
        *dropped.fields, field(4, "l", {"type": "list", "element-id": 3, "element-required": False, "element": "int"})
    )
    assert [(v.rule, v.field_id) for v in check_evolution(dropped, nested, 3, last_column_id=3)] == [
        ("evolution.field-id.new", 3)
    ]
    reused_live_id = Schema.of(
        field(1, "a", "int", True),
        field(3, "c", "double"),
        field(5, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "int"}),
    )
    assert rules(BASE, reused_live_id) == ["evolution.move", "evolution.type.promotion"]  # id 2 is b's: not new, moved
    low = Schema.of(field(10, "a", "int"))
    assert rules(low, Schema.of(field(10, "a", "int"), field(5, "b", "int"))) == ["evolution.field-id.new"]


def test_adding_required_fields():
    """evolution.add-required: never in v1/v2; in v3 with non-null initial-default and write-default."""
    plain = Schema.of(*BASE.fields, field(4, "d", "int", True))
    for v in (1, 2):
        assert rules(BASE, plain, v) == ["evolution.add-required"]
    assert rules(BASE, plain, 3) == ["evolution.add-required"]
    half = Schema.of(*BASE.fields, field(4, "d", "int", True, initial=1))
    assert rules(BASE, half, 3) == ["evolution.add-required"]
    nulls = Schema.of(*BASE.fields, field(4, "d", "int", True, initial=None, write=None))
    assert rules(BASE, nulls, 3) == ["evolution.add-required"]
    full = Schema.of(*BASE.fields, field(4, "d", "int", True, initial=1, write=1))
    assert rules(BASE, full, 3) == []
    differing = Schema.of(*BASE.fields, field(4, "d", "int", True, initial=1, write=2))
    assert rules(BASE, differing, 3) == ["evolution.default.initial"]  # write-default starts as initial-default


def test_required_fields_inside_new_optional_structs_and_collections():
    """evolution.add-required: old rows read a new optional struct (or a new list) as null, so its
    required sub-fields need no default; a new required struct passes the requirement down."""
    opt = Schema.of(*BASE.fields, field(4, "s", struct(field(5, "x", "int", True))))
    assert rules(BASE, opt, 2) == []
    in_list = Schema.of(
        *BASE.fields,
        field(
            4,
            "l",
            {"type": "list", "element-id": 5, "element-required": True, "element": struct(field(6, "x", "int", True))},
        ),
    )
    assert rules(BASE, in_list, 2) == []
    req = Schema.of(*BASE.fields, field(4, "s", struct(field(5, "x", "int", True)), True, initial={}, write={}))
    assert [(v.rule, v.field_id) for v in check_evolution(BASE, req, 3)] == [("evolution.add-required", 5)]
    existing = Schema.of(field(1, "s", struct(field(2, "x", "int"))))
    added_inside = Schema.of(field(1, "s", struct(field(2, "x", "int"), field(3, "y", "int", True))))
    assert rules(existing, added_inside, 2) == ["evolution.add-required"]


def test_optional_fields_may_be_added_with_null_defaults():
    """An added optional field may have null (or no) defaults."""
    assert rules(BASE, Schema.of(*BASE.fields, field(4, "d", "int", initial=None, write=None)), 3) == []
    assert rules(BASE, Schema.of(*BASE.fields, field(4, "d", "int", initial=7, write=7)), 3) == []


def test_optional_to_required_is_forbidden():
    """evolution.required: also for list elements and map values; required -> optional is fine."""
    assert rules(
        BASE, Schema.of(field(1, "a", "int", True), field(2, "b", "string", True), field(3, "c", "double"))
    ) == ["evolution.required"]
    assert rules(BASE, Schema.of(field(1, "a", "int"), field(2, "b", "string"), field(3, "c", "double"))) == []
    old = Schema.of(field(1, "l", {"type": "list", "element-id": 2, "element-required": False, "element": "int"}))
    new = Schema.of(field(1, "l", {"type": "list", "element-id": 2, "element-required": True, "element": "int"}))
    assert [(v.rule, v.field_id) for v in check_evolution(old, new, 2)] == [("evolution.required", 2)]


def test_initial_default_never_changes():
    """evolution.default.initial: set when added, then fixed; write-default may change."""
    old = Schema.of(field(1, "a", "int", True), field(2, "d", "int", True, initial=1, write=1))
    assert rules(old, Schema.of(field(1, "a", "int", True), field(2, "d", "int", True, initial=1, write=5))) == []
    assert rules(old, Schema.of(field(1, "a", "int", True), field(2, "d", "int", True, initial=2, write=1))) == [
        "evolution.default.initial"
    ]
    promoted = Schema.of(field(1, "a", "int", True), field(2, "d", "long", True, initial=1, write=1))
    assert rules(old, promoted) == []
    no_default = Schema.of(field(1, "x", "int"))
    assert rules(no_default, Schema.of(field(1, "x", "int", initial=None))) == []
    assert rules(no_default, Schema.of(field(1, "x", "int", initial=4))) == ["evolution.default.initial"]
    dec = Schema.of(field(1, "x", "decimal(9,2)", initial="1.50"))
    assert rules(dec, Schema.of(field(1, "x", "decimal(18,2)", initial="1.50"))) == []


def test_every_violation_is_reported():
    new = Schema.of(
        field(1, "a", "string"),
        field(2, "b", "string", True),
        field(3, "c", StructType(())),
        field(4, "d", "int", True),
    )
    assert sorted(rules(BASE, new, 2)) == [
        "evolution.add-required",
        "evolution.required",
        "evolution.type.nested",
        "evolution.type.promotion",
    ]


@given(schemas())
def test_a_schema_evolves_into_itself(s):
    assert check_evolution(s, s, 3) == []
    renamed = Schema(
        StructType(tuple(dataclasses.replace(f, name=f.name + "_x") for f in reversed(s.fields))), s.schema_id + 1
    )
    assert check_evolution(s, renamed, 3) == []


def test_date_to_timestamp_is_refused_under_identity_and_bucket():
    """evolution.type.partition-transform (adopted v3): day keeps its value; identity and bucket do not."""
    from spec_impl.metadata.evolution import check_evolution
    from spec_impl.metadata.partitioning import parse_partition_spec
    from spec_impl.metadata.schema import parse_schema

    old = parse_schema(
        {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "d", "required": False, "type": "date"}]}, 3
    )
    new = parse_schema(
        {"type": "struct", "schema-id": 1, "fields": [{"id": 1, "name": "d", "required": False, "type": "timestamp"}]},
        3,
    )
    for transform, refused in (("day", False), ("month", False), ("identity", True), ("bucket[8]", True)):
        spec = parse_partition_spec(
            {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "p", "transform": transform}]}, 3
        )
        rules = {v.rule for v in check_evolution(old, new, 3, partition_specs=[spec])}
        assert ("evolution.type.partition-transform" in rules) is refused, transform
