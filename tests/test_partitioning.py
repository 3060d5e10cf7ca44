"""Partition specs: the Appendix C examples, every version/revision JSON form, validation against a
schema, field-id assignment on evolution, partition types and partition value equality."""

from __future__ import annotations

import math
import struct
from contextlib import contextmanager

import pytest
from hypothesis import given, strategies as st

from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.metadata.partitioning import (
    PartitionField,
    PartitionSpec,
    assign_field_ids,
    check_new_spec,
    equivalent,
    parse_partition_fields,
    parse_partition_spec,
    partition_type,
    partition_values_equal,
    unified_partition_type,
    v1_evolution_warnings,
    validate_partition_spec,
    validate_partition_specs,
    writer_violations,
)
from spec_impl.revisions import SEED_2024, V3_ADOPTED
from spec_impl.rules import RULES
from spec_impl.types import DATE, DOUBLE, INT, LONG, STRING, StructType, parse_type

SCHEMA = parse_type(
    {
        "type": "struct",
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 2, "name": "data", "required": False, "type": "string"},
            {"id": 3, "name": "category", "required": False, "type": "string"},
            {"id": 4, "name": "ts", "required": False, "type": "timestamp"},
            {
                "id": 5,
                "name": "loc",
                "required": False,
                "type": {
                    "type": "struct",
                    "fields": [
                        {"id": 6, "name": "lat", "required": False, "type": "double"},
                        {"id": 7, "name": "day", "required": False, "type": "date"},
                    ],
                },
            },
            {
                "id": 8,
                "name": "tags",
                "required": False,
                "type": {"type": "list", "element-id": 9, "element": "string", "element-required": False},
            },
            {
                "id": 10,
                "name": "props",
                "required": False,
                "type": {
                    "type": "map",
                    "key-id": 11,
                    "key": "string",
                    "value-id": 12,
                    "value": "string",
                    "value-required": False,
                },
            },
            {"id": 13, "name": "v", "required": False, "type": "variant"},
            {"id": 14, "name": "price", "required": False, "type": "float"},
        ],
    }
)

# Appendix C, "Partition Specs": the example of the `fields` row.
APPENDIX_C_FIELDS = [
    {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
    {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
]
APPENDIX_C_SPEC = {"spec-id": 0, "fields": APPENDIX_C_FIELDS}
BOTH = (SEED_2024, V3_ADOPTED)


@contextmanager
def raises(rule_id: str):
    """Expect an InvalidInput whose `rule` is exactly `rule_id`."""
    with pytest.raises(InvalidInput) as info:
        yield info
    assert info.value.rule == rule_id, str(info.value)


def field(source_ids, field_id, name, transform) -> PartitionField:
    return PartitionField(source_ids, field_id, name, transform)


# --- Appendix C examples and JSON forms ---------------------------------------------------------


@pytest.mark.parametrize("fv", [1, 2])
@pytest.mark.parametrize("revision", BOTH)
def test_appendix_c_example_reads_and_writes_back(fv, revision):
    """partition-spec.json: the Appendix C example, object and field-list forms."""
    spec = parse_partition_spec(APPENDIX_C_SPEC, fv, revision)
    assert spec == PartitionSpec(0, (field(4, 1000, "ts_day", "day"), field(1, 1001, "id_bucket", "bucket[16]")))
    assert spec.to_json(fv, revision) == APPENDIX_C_SPEC
    assert parse_partition_fields(APPENDIX_C_FIELDS, fv, revision) == spec
    assert spec.fields_to_json(fv, revision) == APPENDIX_C_FIELDS
    validate_partition_spec(spec, SCHEMA, fv, revision, last_partition_id=1001)


def test_v1_field_list_without_field_ids_gets_ids_from_1000():
    """partition-spec.field-id.v1-assignment: as the reference implementation did, in field order."""
    fields = [{k: v for k, v in f.items() if k != "field-id"} for f in APPENDIX_C_FIELDS]
    spec = parse_partition_fields(fields, 1)
    assert [f.field_id for f in spec.fields] == [1000, 1001]
    assert [f.field_id for f in parse_partition_fields(fields[::-1], 1).fields] == [1000, 1001]
    mixed = parse_partition_fields([fields[0], APPENDIX_C_FIELDS[1]], 1)  # a missing id is 1000 + position
    assert [f.field_id for f in mixed.fields] == [1000, 1001]


@pytest.mark.parametrize("fv", [2, 3])
def test_field_id_is_required_from_v2(fv):
    """partition-spec.field-id.required."""
    with raises("partition-spec.field-id.required"):
        parse_partition_fields([{"source-id": 1, "name": "x", "transform": "identity"}], fv)
    with raises("partition-spec.field-id.required"):
        PartitionSpec(0, (field(1, None, "x", "identity"),)).to_json(fv)
    with raises("partition-spec.field-id.required"):
        validate_partition_spec(PartitionSpec(0, (field(1, None, "x", "identity"),)), SCHEMA, fv)


@pytest.mark.parametrize(
    ("fv", "revision", "ids", "expected"),
    [
        (1, SEED_2024, (4,), {"source-id": 4}),
        (2, SEED_2024, (4,), {"source-id": 4}),
        (1, SEED_2024, (1, 2), {"source-id": 1, "source-ids": [1, 2]}),
        (2, SEED_2024, (1, 2), {"source-id": 1, "source-ids": [1, 2]}),
        (1, V3_ADOPTED, (4,), {"source-id": 4}),
        (2, V3_ADOPTED, (4,), {"source-id": 4}),
        (3, SEED_2024, (4,), {"source-ids": [4]}),
        (3, SEED_2024, (1, 2), {"source-ids": [1, 2]}),
        (3, V3_ADOPTED, (4,), {"source-id": 4}),
        (3, V3_ADOPTED, (1, 2), {"source-ids": [1, 2]}),
    ],
)
def test_write_form_per_version_and_revision(fv, revision, ids, expected):
    """partition-spec.source-id (v1/v2), partition-spec.source-ids (v3): exactly the keys each writes."""
    out = field(ids, 1000, "p", "identity" if len(ids) == 1 else "zorder").to_json(fv, revision)
    assert out == {**expected, "field-id": 1000, "name": "p", "transform": "identity" if len(ids) == 1 else "zorder"}
    assert list(out)[-3:] == ["field-id", "name", "transform"]
    assert parse_partition_fields([out], fv, revision).fields[0].source_ids == ids


@pytest.mark.parametrize("fv", [1, 2])
def test_adopted_v1_v2_cannot_write_multi_argument_fields(fv):
    """partition-spec.source-id: the adopted v1/v2 never write source-ids, so there is no form."""
    with raises("partition-spec.source-id"):
        field((1, 2), 1000, "z", "zorder").to_json(fv, V3_ADOPTED)


@pytest.mark.parametrize(
    ("fv", "revision", "keys", "rule", "ids"),
    [
        (1, SEED_2024, {"source-ids": [4]}, "partition-spec.source-id", None),
        (2, V3_ADOPTED, {"source-ids": [4]}, "partition-spec.source-id", None),
        (2, V3_ADOPTED, {"source-id": 4, "source-ids": [4]}, None, (4,)),  # tolerated when it agrees
        (2, SEED_2024, {"source-id": 1, "source-ids": [1, 2]}, None, (1, 2)),
        (2, SEED_2024, {"source-id": 2, "source-ids": [1, 2]}, "partition-spec.source-ids.agree", None),
        (3, SEED_2024, {"source-id": 4}, "partition-spec.source-ids", None),
        (3, SEED_2024, {"source-ids": [4]}, None, (4,)),
        (3, SEED_2024, {"source-id": 4, "source-ids": [4]}, None, (4,)),
        (3, SEED_2024, {"source-id": 5, "source-ids": [4]}, "partition-spec.source-ids.agree", None),
        (3, V3_ADOPTED, {"source-id": 4}, None, (4,)),
        (3, V3_ADOPTED, {"source-ids": [1, 2]}, None, (1, 2)),
        (3, V3_ADOPTED, {"source-ids": [4]}, None, (4,)),  # a seed-era v3 writer
        (3, V3_ADOPTED, {}, "partition-spec.source-ids", None),
        (3, V3_ADOPTED, {"source-id": 2, "source-ids": [1, 2]}, "partition-spec.source-ids.agree", None),
        (3, V3_ADOPTED, {"source-ids": []}, "partition-spec.json", None),
        (2, SEED_2024, {"source-id": "4"}, "partition-spec.json", None),
        (3, SEED_2024, {"source-ids": [1, True]}, "partition-spec.json", None),
    ],
)
def test_read_source_keys(fv, revision, keys, rule, ids):
    """partition-spec.source-id, partition-spec.source-ids, partition-spec.source-ids.agree."""
    obj = {**keys, "field-id": 1000, "name": "p", "transform": "identity"}
    if rule is None:
        assert parse_partition_fields([obj], fv, revision).fields[0].source_ids == ids
    else:
        with raises(rule):
            parse_partition_fields([obj], fv, revision)


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"fields": []},
        {"spec-id": "0", "fields": []},
        {"spec-id": 0},
        {"spec-id": 0, "fields": {}},
        {"spec-id": 0, "fields": [1]},
        {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "transform": "identity"}]},
        {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": 7, "transform": "identity"}]},
        {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "x"}]},
        {"spec-id": 0, "fields": [{"source-id": 1, "field-id": "1000", "name": "x", "transform": "identity"}]},
    ],
)
def test_malformed_json_is_rejected(doc):
    """partition-spec.json."""
    with raises("partition-spec.json"):
        parse_partition_spec(doc, 2)


def test_unknown_transforms_are_read_verbatim_and_written_back():
    """transform.unknown: v3 readers must read them; the text survives a round trip."""
    obj = {"spec-id": 1, "fields": [{"source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}]}
    spec = parse_partition_spec(obj, 3, SEED_2024)
    assert spec.fields[0].transform.text == "zorder" and not spec.fields[0].transform.is_known
    assert spec.to_json(3, SEED_2024) == obj
    validate_partition_spec(spec, SCHEMA, 3, SEED_2024)  # tolerated by readers
    with raises("transform.bucket.n"):  # a known name with a bad parameter is not "unknown"
        parse_partition_fields([{"source-id": 1, "field-id": 1000, "name": "b", "transform": "bucket[0]"}], 2)


# --- validation against a schema ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("f", "rule"),
    [
        (field(99, 1000, "x", "identity"), "partition-spec.source.exists"),
        (field(5, 1000, "x", "identity"), "partition-spec.source.primitive"),
        (field(5, 1000, "x", "void"), "partition-spec.source.primitive"),
        (field(13, 1000, "x", "void"), "partition-spec.source.primitive"),
        (field(9, 1000, "x", "identity"), "partition-spec.source.nesting"),
        (field(11, 1000, "x", "identity"), "partition-spec.source.nesting"),
        (field(12, 1000, "x", "bucket[4]"), "partition-spec.source.nesting"),
        (field(14, 1000, "x", "bucket[4]"), "transform.source-type"),
        (field(7, 1000, "x", "hour"), "transform.source-type"),
        (field((1, 2), 1000, "x", "identity"), "partition-spec.transform.arity"),
        (field((1, 99), 1000, "x", "zorder"), "partition-spec.source.exists"),
    ],
)
def test_invalid_sources_are_rejected(f, rule):
    """partition-spec.source.exists, partition-spec.source.primitive, partition-spec.source.nesting,
    partition-spec.transform.arity and transform.source-type."""
    with raises(rule):
        validate_partition_spec(PartitionSpec(0, (f,)), SCHEMA, 2)


@pytest.mark.parametrize(
    "f",
    [
        field(6, 1000, "lat", "identity"),
        field(7, 1000, "d", "month"),
        field(14, 1000, "p", "void"),
        field(2, 1000, "t", "truncate[3]"),
        field((1, 2, 3), 1000, "z", "zorder"),
        field(4, 1000, "h", "hour"),
    ],
)
def test_valid_sources_pass(f):
    """Sources nested in structs are allowed; unknown transforms take any number of existing sources."""
    validate_partition_spec(PartitionSpec(0, (f,)), SCHEMA, 2)


def test_field_ids_are_unique_within_a_spec():
    """partition-spec.field-id.unique."""
    spec = PartitionSpec(0, (field(1, 1000, "a", "identity"), field(2, 1000, "b", "identity")))
    with raises("partition-spec.field-id.unique"):
        validate_partition_spec(spec, SCHEMA, 1)


def test_field_ids_are_not_above_last_partition_id():
    """partition-spec.field-id.last-partition-id."""
    spec = PartitionSpec(0, (field(1, 1000, "a", "identity"), field(2, 1001, "b", "identity")))
    validate_partition_spec(spec, SCHEMA, 2, last_partition_id=1001)
    with raises("partition-spec.field-id.last-partition-id"):
        validate_partition_spec(spec, SCHEMA, 2, last_partition_id=1000)


def test_partition_names_are_not_checked():
    """The spec is silent on duplicate names and names of schema columns: both pass."""
    spec = PartitionSpec(0, (field(1, 1000, "data", "bucket[2]"), field(2, 1001, "data", "identity")))
    validate_partition_spec(spec, SCHEMA, 2)


def test_writers_must_not_write_unknown_transforms():
    """partition-spec.transform.unknown-writer: flagged for writers, never raised for readers."""
    spec = PartitionSpec(0, (field(1, 1000, "a", "identity"), field((1, 2), 1001, "z", "zorder")))
    validate_partition_spec(spec, SCHEMA, 3)
    (finding,) = writer_violations(spec)
    assert (finding.rule, finding.value) == ("partition-spec.transform.unknown-writer", "zorder")
    assert writer_violations(parse_partition_spec(APPENDIX_C_SPEC, 2)) == []


def test_field_ids_across_specs():
    """partition-spec.field-id.table-unique and partition-spec.field-id.reuse (v2+)."""
    s0 = PartitionSpec(0, (field(1, 1000, "id_b", "bucket[16]"),))
    renamed = PartitionSpec(1, (field(1, 1000, "id_bucket", "bucket[16]"), field(2, 1001, "data", "identity")))
    validate_partition_specs([s0, renamed], 2)
    voided = PartitionSpec(2, (field(1, 1000, "id_b", "void"),))  # a v1 drop, kept after an upgrade
    validate_partition_specs([s0, voided], 2)
    other = PartitionSpec(1, (field(2, 1000, "data", "identity"),))
    with raises("partition-spec.field-id.table-unique"):
        validate_partition_specs([s0, other], 2)
    validate_partition_specs([s0, other], 1)  # v1 ids are positional
    fresh = PartitionSpec(1, (field(1, 1001, "id_b", "bucket[16]"),))
    with raises("partition-spec.field-id.reuse"):
        validate_partition_specs([s0, fresh], 3)


# --- equivalence and evolution -----------------------------------------------------------------


def test_equivalent_specs():
    """partition-spec.equivalent: same count and, per field, same source ids, transform and name."""
    a = parse_partition_spec(APPENDIX_C_SPEC, 2)
    b = PartitionSpec(7, (field(4, 2000, "ts_day", "day"), field(1, 2001, "id_bucket", "bucket[16]")))
    assert equivalent(a, b)
    assert not equivalent(a, PartitionSpec(1, (a.fields[0], field(1, 1001, "renamed", "bucket[16]"))))
    assert not equivalent(a, PartitionSpec(1, (a.fields[0], field(1, 1001, "id_bucket", "bucket[8]"))))
    assert not equivalent(a, PartitionSpec(1, a.fields[::-1]))
    assert not equivalent(a, PartitionSpec(1, a.fields[:1]))
    with raises("partition-spec.equivalent"):
        check_new_spec(b, [PartitionSpec(1, ()), a])
    check_new_spec(PartitionSpec(2, a.fields[:1]), [a])


def test_assign_field_ids_v2_reuses_equivalent_fields():
    """partition-spec.field-id.reuse: same source and transform (a rename keeps the id), else new ids."""
    s0 = parse_partition_spec(APPENDIX_C_SPEC, 2)
    dropped = PartitionSpec(1, (s0.fields[0],))
    new = PartitionSpec(
        2,
        (
            field(1, None, "bucket_id", "bucket[16]"),
            field(2, None, "data", "identity"),
            field(1, None, "id_b8", "bucket[8]"),
        ),
    )
    spec, last = assign_field_ids(new, [s0, dropped], 1001, 2)
    assert [f.field_id for f in spec.fields] == [1001, 1002, 1003]
    assert last == 1003
    validate_partition_specs([s0, dropped, spec], 2)
    validate_partition_spec(spec, SCHEMA, 2, last_partition_id=last)


def test_assign_field_ids_starts_after_last_partition_id():
    spec, last = assign_field_ids(PartitionSpec(0, (field(1, None, "a", "identity"),)), [], None, 2)
    assert (spec.fields[0].field_id, last) == (1000, 1000)
    spec, last = assign_field_ids(PartitionSpec(1, (field(2, None, "a", "identity"),)), [], 1005, 3)
    assert (spec.fields[0].field_id, last) == (1006, 1006)


def test_assign_field_ids_v1_is_positional():
    """partition-spec.field-id.v1-assignment: 1000 + position, no reuse."""
    s0 = PartitionSpec(0, (field(1, 1000, "a", "identity"), field(2, 1001, "b", "identity")))
    new = PartitionSpec(1, (field(2, None, "b", "identity"), field(3, None, "c", "identity")))
    spec, last = assign_field_ids(new, [s0], 1001, 1)
    assert [f.field_id for f in spec.fields] == [1000, 1001] and last == 1001


def test_v1_evolution_recommendations():
    """partition-spec.v1-evolution.reorder, partition-spec.v1-evolution.drop, partition-spec.v1-evolution.append."""
    old = PartitionSpec(0, (field(1, 1000, "a", "identity"), field(2, 1001, "b", "bucket[4]")))
    good = PartitionSpec(
        1, (field(1, 1000, "a2", "identity"), field(2, 1001, "b", "void"), field(3, 1002, "c", "identity"))
    )
    assert v1_evolution_warnings(old, good) == []
    reordered = PartitionSpec(1, old.fields[::-1])
    assert {w.rule for w in v1_evolution_warnings(old, reordered)} == {"partition-spec.v1-evolution.reorder"}
    dropped = PartitionSpec(1, old.fields[:1])
    assert [w.rule for w in v1_evolution_warnings(old, dropped)] == ["partition-spec.v1-evolution.drop"]
    inserted = PartitionSpec(1, (old.fields[0], field(3, 1001, "c", "identity"), old.fields[1]))
    rules = [w.rule for w in v1_evolution_warnings(old, inserted)]
    assert "partition-spec.v1-evolution.append" in rules and "partition-spec.v1-evolution.reorder" in rules


# --- partition types ---------------------------------------------------------------------------


def test_partition_type_of_the_appendix_c_example():
    """partition-spec.partition-type: ids and names of the partition fields, optional, result types."""
    spec = parse_partition_spec(APPENDIX_C_SPEC, 2)
    adopted = partition_type(spec, SCHEMA, V3_ADOPTED)
    assert [(f.id, f.name, f.type, f.required) for f in adopted.fields] == [
        (1000, "ts_day", DATE, False),
        (1001, "id_bucket", INT, False),
    ]
    assert partition_type(spec, SCHEMA, SEED_2024).fields[0].type == INT  # day is int in the seed text


def test_partition_type_of_void_nested_and_unknown_fields():
    spec = PartitionSpec(
        0, (field(6, 1000, "lat", "identity"), field(1, 1001, "gone", "void"), field(2, 1002, "t", "truncate[2]"))
    )
    assert [f.type for f in partition_type(spec, SCHEMA).fields] == [DOUBLE, LONG, STRING]
    unknown = PartitionSpec(1, (field((1, 2), 1000, "z", "zorder"),))
    with pytest.raises(NotDefined, match="transform.unknown"):
        partition_type(unknown, SCHEMA)
    assert partition_type(unknown, SCHEMA, unknown_result=LONG).fields[0].type == LONG


def _ids(t: StructType) -> list[int]:
    return [f.id for f in t.fields]


def test_unified_partition_type_spec_examples():
    """partition-statistics.unified-type, the two examples of "Partition Statistics"."""
    f1, f2, f3 = field(1, 1, "f1", "bucket[4]"), field(2, 2, "f2", "identity"), field(3, 3, "f3", "identity")
    assert _ids(unified_partition_type([PartitionSpec(0, (f1, f2)), PartitionSpec(1, (f1, f2, f3))], SCHEMA)) == [
        1,
        2,
        3,
    ]
    assert _ids(unified_partition_type([PartitionSpec(0, (f1, f2)), PartitionSpec(1, (f2,))], SCHEMA)) == [1, 2]
    assert _ids(unified_partition_type([PartitionSpec(1, (f3, f1)), PartitionSpec(0, (f2,))], SCHEMA)) == [1, 2, 3]


def test_unified_partition_type_names_types_and_conflicts():
    """partition-statistics.unified-type: the latest name, the non-void type, conflicting ids rejected."""
    s0 = PartitionSpec(0, (field(1, 1000, "id_b", "bucket[4]"),))
    s1 = PartitionSpec(1, (field(1, 1000, "id_bucket", "bucket[4]"),))
    s2 = PartitionSpec(2, (field(1, 1000, "id_dropped", "void"),))
    (only,) = unified_partition_type([s0, s1, s2], SCHEMA).fields
    assert (only.id, only.name, only.type) == (1000, "id_dropped", INT)
    with raises("partition-statistics.unified-type"):
        unified_partition_type([s0, PartitionSpec(1, (field(2, 1000, "data", "identity"),))], SCHEMA)


# --- partition values --------------------------------------------------------------------------


def _double(bits: int) -> float:
    return struct.unpack(">d", struct.pack(">Q", bits))[0]


def test_partition_values_compare_floats_by_canonical_bits():
    """partition-values.equality: Scan Planning note 3 (floatToIntBits / doubleToLongBits)."""
    t = parse_type(
        {
            "type": "struct",
            "fields": [
                {"id": 1000, "name": "d", "required": False, "type": "double"},
                {"id": 1001, "name": "f", "required": False, "type": "float"},
                {"id": 1002, "name": "s", "required": False, "type": "string"},
            ],
        }
    )
    assert partition_values_equal((1.5, 2.5, "a"), (1.5, 2.5, "a"), t)
    assert not partition_values_equal((0.0, 1.0, "a"), (-0.0, 1.0, "a"), t)
    assert not partition_values_equal((1.0, 0.0, "a"), (1.0, -0.0, "a"), t)
    assert partition_values_equal((math.nan, math.nan, None), (_double(0xFFF8000000000001), -math.nan, None), t)
    assert not partition_values_equal((None, 1.0, "a"), (0.0, 1.0, "a"), t)
    assert not partition_values_equal((1.0, 1.0, "a"), (1.0, 1.0, "b"), t)
    with raises("partition-values.equality"):
        partition_values_equal((1.0,), (1.0, 1.0, "a"), t)


# --- properties --------------------------------------------------------------------------------

_TRANSFORMS = st.sampled_from(
    ["identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void", "zorder", "custom[3]"]
)


@st.composite
def specs(draw, multi: bool) -> PartitionSpec:
    n = draw(st.integers(0, 5))
    ids = draw(st.lists(st.integers(1000, 3000), min_size=n, max_size=n, unique=True))
    fields = []
    for field_id in ids:
        count = draw(st.integers(1, 3)) if multi else 1
        sources = tuple(draw(st.lists(st.integers(1, 50), min_size=count, max_size=count)))
        fields.append(field(sources, field_id, draw(st.text(max_size=8)), draw(_TRANSFORMS)))
    return PartitionSpec(draw(st.integers(0, 2**31 - 1)), tuple(fields))


@given(specs(multi=True), st.sampled_from([(1, SEED_2024), (2, SEED_2024), (3, SEED_2024), (3, V3_ADOPTED)]))
def test_round_trip_with_multi_argument_fields(spec, form):
    fv, revision = form
    assert parse_partition_spec(spec.to_json(fv, revision), fv, revision) == spec


@given(specs(multi=False), st.sampled_from([1, 2, 3]), st.sampled_from(BOTH))
def test_round_trip_single_argument_fields(spec, fv, revision):
    doc = spec.to_json(fv, revision)
    assert parse_partition_spec(doc, fv, revision) == spec
    assert parse_partition_fields(doc["fields"], fv, revision, spec.spec_id) == spec


def test_every_registered_partition_rule_is_named_here():
    # tested in tests/test_statistics.py: partition-statistics.one-per-snapshot, partition-statistics.file-schema,
    # partition-statistics.sorted, partition-statistics.unique-partition, partition-statistics.counts
    text = open(__file__, encoding="utf-8").read()
    mine = [r for r in RULES if r.startswith(("partition-spec.", "partition-statistics.", "partition-values."))]
    assert mine and [r for r in mine if r not in text] == []
