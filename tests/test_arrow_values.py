"""Arrow and Parquet as carriers of the physical value model (spec_impl.scan.arrow_values).

Rules: scan.arrow-type (Appendix A type mapping, uuid, UTC timestamps, unmapped types),
scan.field-ids (ids on every field or none), scan.required (no nulls in required positions),
scan.map-keys (distinct map keys). Checked against pyarrow.parquet and PyIceberg's own reading of
Parquet field ids (pyiceberg.io.pyarrow.pyarrow_to_schema).
"""

from __future__ import annotations

import io
import json
import math
import uuid
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from spec_impl import strategies as ist
from spec_impl import types as T
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.metadata.schema import Schema, parse_schema, walk
from spec_impl.scan.arrow_values import (
    FIELD_ID_KEY,
    HAS_UUID_EXTENSION,
    arrow_schema,
    arrow_table,
    arrow_type,
    iceberg_schema,
    read_parquet,
    rows_from_arrow,
    write_parquet,
)
from spec_impl.types import NestedField as F

# --- helpers --------------------------------------------------------------------------------------


def same(a, b) -> bool:
    """Equality of physical values, NaN equal to NaN and 0.0 distinct from -0.0."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _arrow_ids(arrow: pa.Schema | pa.DataType, prefix: str = ""):
    fields = (
        list(arrow)
        if isinstance(arrow, pa.Schema)
        else [arrow.field(i) for i in range(arrow.num_fields)]
        if pa.types.is_struct(arrow)
        else [arrow.key_field, arrow.item_field]
        if pa.types.is_map(arrow)
        else [arrow.value_field]
        if pa.types.is_list(arrow)
        else []
    )
    for f in fields:
        path = f"{prefix}.{f.name}" if prefix else f.name
        yield path, int(f.metadata[FIELD_ID_KEY]) if f.metadata and FIELD_ID_KEY in f.metadata else None
        yield from _arrow_ids(f.type, path)


def with_ids_stripped(t: pa.DataType) -> pa.DataType:
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, with_ids_stripped(f.type), f.nullable) for f in t])
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", with_ids_stripped(t.value_type), t.value_field.nullable))
    if pa.types.is_map(t):
        return pa.map_(
            pa.field("key", with_ids_stripped(t.key_type), False),
            pa.field("value", with_ids_stripped(t.item_type), t.item_field.nullable),
        )
    return t


# --- strategies -----------------------------------------------------------------------------------

ARROW_PRIMITIVES = ist.primitive_types().filter(lambda t: not (isinstance(t, T.FixedType) and t.length == 0))
KEY_PRIMITIVES = ARROW_PRIMITIVES.filter(lambda t: getattr(t, "name", None) not in ("float", "double"))


@st.composite
def nested_types(draw, next_id, depth: int = 0):
    """A type Arrow carries, nested up to two levels, with fresh ids from `next_id`."""
    kind = draw(st.sampled_from(["primitive"] * 3 + (["struct", "list", "map"] if depth < 2 else [])))
    if kind == "primitive":
        return draw(ARROW_PRIMITIVES)
    if kind == "list":
        eid = next_id()
        return T.ListType(eid, draw(nested_types(next_id, depth + 1)), draw(st.booleans()))
    if kind == "map":
        kid, vid = next_id(), next_id()
        return T.MapType(kid, draw(KEY_PRIMITIVES), vid, draw(nested_types(next_id, depth + 1)), draw(st.booleans()))
    fields = []
    for _i in range(draw(st.integers(0, 3))):
        fid = next_id()
        fields.append(F(fid, f"f{fid}", draw(nested_types(next_id, depth + 1)), draw(st.booleans())))
    return T.StructType(tuple(fields))


@st.composite
def schemas(draw):
    counter = iter(range(1, 10_000))
    next_id = lambda: next(counter)
    fields = []
    for _ in range(draw(st.integers(1, 4))):
        fid = next_id()
        fields.append(F(fid, f"c{fid}", draw(nested_types(next_id)), draw(st.booleans())))
    return Schema.of(*fields)


def values_of(t: T.IcebergType, required: bool) -> st.SearchStrategy:
    if isinstance(t, T.StructType):
        inner = st.fixed_dictionaries({f.id: values_of(f.type, f.required) for f in t.fields})
    elif isinstance(t, T.ListType):
        inner = st.lists(values_of(t.element, t.element_required), max_size=3)
    elif isinstance(t, T.MapType):
        inner = st.dictionaries(ist.values(t.key), values_of(t.value, t.value_required), max_size=3)
    else:
        inner = ist.values(t)
    return inner if required else st.none() | inner


def rows_of(schema: Schema) -> st.SearchStrategy[list[dict]]:
    return st.lists(values_of(schema.struct, True), max_size=5)


EVERY_PRIMITIVE = [
    (T.BOOLEAN, [True, False], pa.bool_()),
    (T.INT, [-(2**31), 2**31 - 1, 0], pa.int32()),
    (T.LONG, [-(2**63), 2**63 - 1], pa.int64()),
    (T.FLOAT, [1.5, float("inf"), -0.0], pa.float32()),
    (T.DOUBLE, [0.1, float("-inf"), float("nan")], pa.float64()),
    (T.DecimalType(9, 2), [Decimal("-9999999.99"), Decimal("0.00")], pa.decimal128(9, 2)),
    (T.DecimalType(38, 10), [Decimal("9" * 28 + "." + "9" * 10), Decimal("0E-10")], pa.decimal128(38, 10)),
    (T.DATE, [-(2**31), 0, 19000], pa.date32()),
    (T.TIME, [0, 86_399_999_999], pa.time64("us")),
    (T.TIMESTAMP, [-(2**63), 1510871468000001], pa.timestamp("us")),
    (T.TIMESTAMPTZ, [1510871468000001, -1], pa.timestamp("us", tz="UTC")),
    (T.TIMESTAMP_NS, [2**63 - 1, 1510871468000000001], pa.timestamp("ns")),
    (T.TIMESTAMPTZ_NS, [-(2**63), 1], pa.timestamp("ns", tz="UTC")),
    (T.STRING, ["", "iceberg ❄", "\x00"], pa.string()),
    (T.UUID, [uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7"), uuid.UUID(int=0)], pa.binary(16)),
    (T.FixedType(3), [b"abc", b"\x00\x00\x00"], pa.binary(3)),
    (T.BINARY, [b"", b"\xff\x00"], pa.binary()),
]

# --- schemas --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "t, values, arrow", EVERY_PRIMITIVE, ids=lambda p: str(p) if isinstance(p, T.IcebergType) else ""
)
def test_every_primitive_type(t, values, arrow):
    """scan.arrow-type: the Appendix A mapping, written to Parquet and read back, values included."""
    schema = Schema.of(F(1, "req", t, True), F(2, "opt", t, False))
    assert arrow_schema(schema).field("req").type == arrow and not arrow_schema(schema).field("req").nullable
    rows = [{1: v, 2: v} for v in values] + [{1: values[0], 2: None}]
    assert same(rows_from_arrow(arrow_table(rows, schema), schema=schema), rows)
    assert same(
        rows_from_arrow(arrow_table(rows, schema), by_id=False, schema=schema),
        [{"req": r[1], "opt": r[2]} for r in rows],
    )
    read_schema, read_rows = read_parquet(write_parquet(rows, schema))
    assert read_schema == schema and same(read_rows, rows)


def test_nested_field_ids_in_arrow_metadata():
    schema = Schema.of(
        F(1, "s", T.StructType((F(2, "x", T.INT, True),)), False),
        F(3, "l", T.ListType(4, T.STRING, True), True),
        F(5, "m", T.MapType(6, T.STRING, 7, T.ListType(8, T.LONG, False), False), False),
    )
    arrow = arrow_schema(schema)
    assert dict(_arrow_ids(arrow)) == {
        "s": 1,
        "s.x": 2,
        "l": 3,
        "l.element": 4,
        "m": 5,
        "m.key": 6,
        "m.value": 7,
        "m.value.element": 8,
    }
    assert not arrow.field("l").type.value_field.nullable and not arrow.field("m").type.key_field.nullable
    assert arrow.field("m").type.item_field.nullable and arrow.field("l").nullable is False
    assert iceberg_schema(arrow) == schema


@pytest.mark.parametrize(
    "t", [T.UNKNOWN, T.VARIANT, T.GeometryType(), T.GeographyType(), T.FixedType(0), T.DecimalType(0, 0)]
)
def test_types_without_an_arrow_mapping(t):
    """scan.arrow-type: unknown, variant and the geo types have no Arrow/Parquet type here."""
    with pytest.raises(NotDefined, match=r"\[scan.arrow-type\]"):
        arrow_schema(Schema.of(F(1, "x", T.StructType((F(2, "y", t, False),)), False)))


@pytest.mark.parametrize(
    "arrow, expected",
    [
        (pa.large_string(), T.STRING),
        (pa.large_binary(), T.BINARY),
        (pa.int16(), T.INT),
        (pa.uint32(), T.LONG),
        (pa.dictionary(pa.int32(), pa.string()), T.STRING),
        (pa.timestamp("us", tz="+00:00"), T.TIMESTAMPTZ),
        (pa.timestamp("ns", tz="Etc/UTC"), T.TIMESTAMPTZ_NS),
        (pa.large_list(pa.field("e", pa.int32(), metadata={FIELD_ID_KEY: b"2"})), T.ListType(2, T.INT, False)),
    ],
)
def test_arrow_types_accepted_on_read(arrow, expected):
    field = pa.field("x", arrow, metadata={FIELD_ID_KEY: b"1"})
    assert iceberg_schema(pa.schema([field])) == Schema.of(F(1, "x", expected, False))


@pytest.mark.parametrize(
    "arrow",
    [
        pa.timestamp("ms"),
        pa.timestamp("us", tz="America/New_York"),
        pa.time32("ms"),
        pa.uint64(),
        pa.null(),
        pa.float16(),
        pa.date64(),
    ],
)
def test_arrow_types_without_an_iceberg_type(arrow):
    with pytest.raises(NotDefined, match=r"\[scan.arrow-type\]"):
        iceberg_schema(pa.schema([pa.field("x", arrow, metadata={FIELD_ID_KEY: b"1"})]))


def test_partial_field_ids_are_an_error():
    """scan.field-ids: ids on every field or on none, nested fields included."""
    with_id = {FIELD_ID_KEY: b"1"}
    partial = pa.schema([pa.field("a", pa.list_(pa.field("element", pa.int32())), metadata=with_id)])
    with pytest.raises(InvalidInput, match=r"\[scan.field-ids\].*a\.element"):
        iceberg_schema(partial)
    with pytest.raises(InvalidInput, match=r"\[scan.field-ids\]"):
        iceberg_schema(pa.schema([pa.field("a", pa.int32(), metadata=with_id), pa.field("b", pa.int32())]))
    with pytest.raises(InvalidInput, match=r"\[scan.field-ids\].*not an integer"):
        iceberg_schema(pa.schema([pa.field("a", pa.int32(), metadata={FIELD_ID_KEY: b"one"})]))
    with pytest.raises(InvalidInput, match=r"\[schema.field-id.unique\]"):
        iceberg_schema(
            pa.schema([pa.field("a", pa.int32(), metadata=with_id), pa.field("b", pa.int32(), metadata=with_id)])
        )
    assert iceberg_schema(pa.schema([pa.field("a", pa.int32())])) is None
    with pytest.raises(InvalidInput, match=r"\[scan.field-ids\].*read by names"):
        rows_from_arrow(pa.table({"a": [1]}))


def test_partial_field_ids_in_a_parquet_file():
    table = pa.table({"a": pa.array([1], pa.int32()), "b": pa.array([2], pa.int32())})
    table = table.cast(pa.schema([pa.field("a", pa.int32(), metadata={FIELD_ID_KEY: b"1"}), pa.field("b", pa.int32())]))
    buf = io.BytesIO()
    pq.write_table(table, buf)
    with pytest.raises(InvalidInput, match=r"\[scan.field-ids\]"):
        read_parquet(buf.getvalue())


# --- values ---------------------------------------------------------------------------------------


def test_nulls_at_every_level():
    schema = Schema.of(
        F(1, "s", T.StructType((F(2, "a", T.INT, True), F(3, "b", T.STRING, False))), False),
        F(4, "l", T.ListType(5, T.StructType((F(6, "x", T.LONG, False),)), False), False),
        F(7, "m", T.MapType(8, T.STRING, 9, T.ListType(10, T.DATE, False), False), False),
    )
    rows = [
        {1: None, 4: None, 7: None},
        {1: {2: 1, 3: None}, 4: [None, {6: None}, {6: 5}], 7: {"a": None, "b": [None, 3], "c": []}},
        {1: {2: 2, 3: "x"}, 4: [], 7: {}},
    ]
    expected = rows
    table = arrow_table(rows, schema)
    assert rows_from_arrow(table) == expected
    for start in range(3):  # sliced arrays: offsets and validity bitmaps of the slice
        assert rows_from_arrow(table.slice(start)) == expected[start:]
        assert rows_from_arrow(table.slice(start, 1)) == expected[start : start + 1]
    assert rows_from_arrow(pa.concat_tables([table, table])) == expected * 2  # several chunks
    assert read_parquet(write_parquet(rows, schema)) == (schema, expected)


def test_null_list_slots_with_hidden_children():
    """A null list may cover child values in Arrow; they are not part of any row."""
    elem = pa.field("element", pa.int64(), metadata={FIELD_ID_KEY: b"2"})
    arr = pa.ListArray.from_arrays(
        pa.array([0, 2, 4], pa.int32()), pa.array([1, 2, 3, 4]), type=pa.list_(elem), mask=pa.array([False, True])
    )
    table = pa.Table.from_arrays([arr], schema=pa.schema([pa.field("l", arr.type, metadata={FIELD_ID_KEY: b"1"})]))
    assert rows_from_arrow(table) == [{1: [1, 2]}, {1: None}]
    assert rows_from_arrow(table.slice(1)) == [{1: None}]


def test_required_nulls_are_rejected():
    """scan.required: a required field, element or value is not null where its parent is present."""
    struct = T.StructType((F(2, "a", T.INT, True),))
    schema = Schema.of(
        F(1, "s", struct, False),
        F(3, "l", T.ListType(4, T.INT, True), False),
        F(5, "m", T.MapType(6, T.INT, 7, T.INT, True), False),
    )
    assert arrow_table([{1: None, 3: None, 5: None}], schema).num_rows == 1  # absent parents: fine
    for row in ({1: {2: None}}, {3: [1, None]}, {5: {1: None}}):
        with pytest.raises(InvalidInput, match=r"\[scan.required\]"):
            arrow_table([row], schema)
    with pytest.raises(InvalidInput, match=r"\[scan.required\]"):
        arrow_table([{}], Schema.of(F(1, "id", T.LONG, True)))


def test_invalid_values_are_rejected_on_write():
    with pytest.raises(InvalidInput, match=r"\[value.range\]"):
        arrow_table([{1: 2**31}], Schema.of(F(1, "x", T.INT, True)))
    with pytest.raises(InvalidInput, match=r"\[value.decimal\]"):
        arrow_table([{1: Decimal("1.234")}], Schema.of(F(1, "x", T.DecimalType(9, 2), True)))


def test_duplicate_map_keys_are_rejected():
    """scan.map-keys: Arrow does not enforce distinct keys; the dict form of a map needs them."""
    mtype = pa.map_(
        pa.field("key", pa.string(), False, {FIELD_ID_KEY: b"2"}),
        pa.field("value", pa.int32(), True, {FIELD_ID_KEY: b"3"}),
    )
    table = pa.table({"m": pa.array([[("a", 1), ("a", 2)]], mtype)})
    table = table.cast(pa.schema([pa.field("m", mtype, metadata={FIELD_ID_KEY: b"1"})]))
    with pytest.raises(InvalidInput, match=r"\[scan.map-keys\]"):
        rows_from_arrow(table)


def test_uuid_needs_the_iceberg_type_or_the_extension():
    """scan.arrow-type: fixed_size_binary(16) is fixed[16] unless the schema says uuid."""
    u = uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7")
    schema = Schema.of(F(1, "u", T.UUID, False), F(2, "l", T.ListType(3, T.UUID, False), False))
    table = arrow_table([{1: u, 2: [u, None]}], schema)
    assert table.schema.field("u").type == pa.binary(16)
    assert rows_from_arrow(table) == [{1: u.bytes, 2: [u.bytes, None]}]
    assert rows_from_arrow(table, schema=schema) == [{1: u, 2: [u, None]}]
    assert iceberg_schema(table.schema) == Schema.of(
        F(1, "u", T.FixedType(16), False), F(2, "l", T.ListType(3, T.FixedType(16), False), False)
    )
    with pytest.raises(NotDefined, match=r"\[scan.arrow-type\]"):
        rows_from_arrow(table, schema=Schema.of(F(1, "u", T.STRING, False)))
    data = write_parquet([{1: u, 2: [u, None]}], schema)
    if HAS_UUID_EXTENSION:
        assert arrow_type(T.UUID, uuid_extension=True) == pa.uuid()
        assert "(UUID)" in str(pq.ParquetFile(io.BytesIO(data)).schema)  # Appendix A: the UUID annotation
        assert rows_from_arrow(arrow_table([{1: u}], schema, uuid_extension=True)) == [{1: u, 2: None}]
    assert read_parquet(data) == (schema, [{1: u, 2: [u, None]}])


def test_timestamptz_is_utc():
    """scan.arrow-type: timestamptz is UTC-adjusted in Arrow (tz 'UTC') and in Parquet (isAdjustedToUTC)."""
    schema = Schema.of(
        F(1, "tz", T.TIMESTAMPTZ, False), F(2, "ntz", T.TIMESTAMP, False), F(3, "tzns", T.TIMESTAMPTZ_NS, False)
    )
    assert [arrow_schema(schema).field(i).type.tz for i in range(3)] == ["UTC", None, "UTC"]
    rows = [{1: 1510871468000001, 2: 1510871468000001, 3: -1}]
    data = write_parquet(rows, schema)
    parquet = str(pq.ParquetFile(io.BytesIO(data)).schema)
    assert parquet.count("isAdjustedToUTC=true") == 2 and parquet.count("isAdjustedToUTC=false") == 1
    assert read_parquet(data) == (schema, rows)
    # Another spelling of UTC reads the same instants; a non-UTC zone is not a timestamptz here.
    plus = pa.table({"t": pa.array([5], pa.timestamp("us", tz="+00:00"))})
    assert rows_from_arrow(plus, by_id=False) == [{"t": 5}]
    with pytest.raises(NotDefined, match=r"\[scan.arrow-type\]"):
        rows_from_arrow(pa.table({"t": pa.array([5], pa.timestamp("us", tz="Europe/Paris"))}), by_id=False)


def test_parquet_without_field_ids_is_read_by_names():
    table = pa.table(
        {
            "id": pa.array([1, None], pa.int64()),
            "s": pa.array(
                [{"a": "x", "l": [1, None]}, None], pa.struct([("a", pa.string()), ("l", pa.list_(pa.int32()))])
            ),
            "m": pa.array([[("k", 1.5)], None], pa.map_(pa.string(), pa.float32())),
            "d": pa.array([19000, None], pa.date32()),
        }
    )
    buf = io.BytesIO()
    pq.write_table(table, buf)
    schema, rows = read_parquet(buf.getvalue())
    assert schema is None
    assert rows == [
        {"id": 1, "s": {"a": "x", "l": [1, None]}, "m": {"k": 1.5}, "d": 19000},
        {"id": None, "s": None, "m": None, "d": None},
    ]


def test_written_parquet_carries_field_ids_and_is_deterministic():
    schema = Schema.of(
        F(10, "id", T.LONG, True),
        F(11, "s", T.StructType((F(12, "d", T.DecimalType(20, 3), False),)), False),
        F(13, "m", T.MapType(14, T.STRING, 15, T.ListType(16, T.DOUBLE, False), False), False),
    )
    rows = [{10: 1, 11: {12: Decimal("1.500")}, 13: {"a": [1.0, None]}}, {10: 2}]
    data = write_parquet(rows, schema)
    assert data == write_parquet(rows, schema)
    parquet = pq.ParquetFile(io.BytesIO(data)).schema
    assert [parquet.column(i).path for i in range(len(parquet))] == [
        "id",
        "s.d",
        "m.key_value.key",
        "m.key_value.value.list.element",
    ]
    assert dict(_arrow_ids(pq.read_schema(io.BytesIO(data)))) == {
        "id": 10,
        "s": 11,
        "s.d": 12,
        "m": 13,
        "m.key": 14,
        "m.value": 15,
        "m.value.element": 16,
    }
    assert "field_id=16 element" in str(parquet) and "field_id=14 key" in str(parquet)
    assert "int64 field_id=10 id" in str(parquet)
    assert read_parquet(write_parquet(rows, schema, compression="none"))[1] == read_parquet(data)[1]


def test_pyiceberg_reads_our_field_ids_and_types():
    """Independent check: PyIceberg's pyarrow_to_schema of the Arrow schema pyarrow reads from our
    Parquet gives the same ids, names, types and requiredness as the Iceberg schema we wrote."""
    pyarrow_io = pytest.importorskip("pyiceberg.io.pyarrow")
    fields, next_id = [], iter(range(1, 200))
    for t, _values, _arrow in EVERY_PRIMITIVE:
        fid = next(next_id)
        fields.append(F(fid, f"c{fid}", t, fid % 2 == 0))
    fields.append(
        F(100, "s", T.StructType((F(101, "x", T.INT, True), F(102, "l", T.ListType(103, T.UUID, True), False))), False)
    )
    fields.append(F(104, "m", T.MapType(105, T.STRING, 106, T.TIMESTAMPTZ_NS, False), True))
    schema = Schema.of(*fields)
    data = write_parquet([], schema)
    theirs = pyarrow_io.pyarrow_to_schema(pq.read_schema(io.BytesIO(data)), format_version=3)
    if not HAS_UUID_EXTENSION:  # without the UUID annotation a reader sees fixed[16]
        pytest.skip("pyarrow without pa.uuid(): uuid is written as plain fixed[16]")
    assert parse_schema(json.loads(theirs.model_dump_json()), 3) == schema


# --- round trips ----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_round_trip_arrow_and_parquet(data):
    schema = data.draw(schemas())
    rows = data.draw(rows_of(schema))
    table = arrow_table(rows, schema)
    assert table.schema == arrow_schema(schema)
    if HAS_UUID_EXTENSION:  # plain Arrow says fixed[16] for uuid; the extension type says uuid
        assert iceberg_schema(arrow_schema(schema, uuid_extension=True)) == schema
        assert same(rows_from_arrow(arrow_table(rows, schema, uuid_extension=True)), rows)
    assert same(rows_from_arrow(table, schema=schema), rows)
    if has_empty_struct(schema):
        with pytest.raises(NotDefined, match=r"\[scan.arrow-type\].*without fields"):
            write_parquet(rows, schema)
        return
    read_schema, read_rows = read_parquet(write_parquet(rows, schema))
    assert read_schema == schema and same(read_rows, rows)


def has_empty_struct(schema: Schema) -> bool:
    return any(isinstance(i.type, T.StructType) and not i.type.fields for i in walk(schema.struct))


def by_names(t: T.IcebergType, value):
    """An id-keyed physical value with its struct records keyed by field name instead."""
    if value is None:
        return None
    if isinstance(t, T.StructType):
        return {f.name: by_names(f.type, value.get(f.id)) for f in t.fields}
    if isinstance(t, T.ListType):
        return [by_names(t.element, v) for v in value]
    if isinstance(t, T.MapType):
        return {k: by_names(t.value, v) for k, v in value.items()}
    return value


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_round_trip_without_field_ids(data):
    """The same columns without ids: Parquet read by names, nested struct records keyed by name too."""
    schema = data.draw(schemas())
    rows = data.draw(rows_of(schema))
    table = arrow_table(rows, schema)
    plain = pa.schema([pa.field(f.name, with_ids_stripped(f.type), f.nullable) for f in table.schema])
    table = table.cast(plain)
    assert iceberg_schema(plain) is None
    expected = [by_names(schema.struct, r) for r in rows]
    assert same(rows_from_arrow(table, by_id=False, schema=schema), expected)
    if has_empty_struct(schema):
        return
    buf = io.BytesIO()
    pq.write_table(table, buf)
    read_schema, read_rows = read_parquet(buf.getvalue())
    assert read_schema is None
    assert same(read_rows, [by_names(schema.struct, r) for r in rows_from_arrow(arrow_table(rows, schema))])


@settings(max_examples=100, deadline=None)
@given(ist.typed_values(ARROW_PRIMITIVES))
def test_round_trip_primitive_values(tv):
    t, v = tv
    schema = Schema.of(F(1, "x", t, False))
    rows = [{1: v}, {1: None}]
    assert same(rows_from_arrow(arrow_table(rows, schema), schema=schema), rows)
    assert same(read_parquet(write_parquet(rows, schema))[1], rows)
