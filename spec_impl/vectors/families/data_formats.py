"""Avro and ORC data files as the reference reads them (Appendix A "Avro" and "ORC"), and the
dispatch on a manifest entry's `file_format`: op `read-data-file`, a file and its format name."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.orc as orc

from spec_impl.manifests.avro_files import write_avro
from spec_impl.vectors.cases import CaseSpec, case

NAME = "data-file-formats"
DESCRIPTION = (
    "Appendix A (Avro, ORC), Manifests (file_format): reading Avro and ORC data files by field id, and a "
    "data file in the format its file_format names"
)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _opt(t: Any) -> list:
    return ["null", t]


def _field(name: str, t: Any, fid: int | None, optional: bool = True) -> dict:
    out: dict[str, Any] = {"name": name, "type": _opt(t) if optional else t}
    if optional:
        out["default"] = None
    if fid is not None:
        out["field-id"] = fid
    return out


def _avro(fields: list[dict], records: list[dict]) -> str:
    return _b64(write_avro({"type": "record", "name": "table", "fields": fields}, records, {}))


_MAP_RECORD = {
    "type": "record",
    "name": "k14_v15",
    "fields": [
        {"name": "key", "type": "int", "field-id": 14},
        {"name": "value", "type": _opt("string"), "field-id": 15},
    ],
}
AVRO_TYPES = [
    _field("id", "long", 1, optional=False),
    _field("i", "int", 2),
    _field("day", {"type": "int", "logicalType": "date"}, 3),
    _field("t", {"type": "long", "logicalType": "time-micros"}, 4),
    _field("tz", {"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": True}, 5),
    _field("ts", {"type": "long", "logicalType": "timestamp-micros"}, 6),
    _field("ts_ns", {"type": "long", "logicalType": "timestamp-nanos", "adjust-to-utc": False}, 22),
    _field("tz_ns", {"type": "long", "logicalType": "timestamp-nanos", "adjust-to-utc": True}, 23),
    _field(
        "dec", {"type": "fixed", "name": "fixed_7", "size": 4, "logicalType": "decimal", "precision": 9, "scale": 2}, 7
    ),
    _field("u", {"type": "fixed", "name": "uuid_fixed", "size": 16, "logicalType": "uuid"}, 8),
    _field("f", {"type": "fixed", "name": "fixed_3", "size": 3}, 9),
    _field("b", "bytes", 10),
    _field("s", "string", 11),
    _field("st", {"type": "record", "name": "r12", "fields": [_field("a", "boolean", 13)]}, 12),
    _field("m", {"type": "array", "logicalType": "map", "items": _MAP_RECORD}, 16),
    _field("l", {"type": "array", "items": _opt("double"), "element-id": 18}, 17),
    _field("sm", {"type": "map", "values": _opt("float"), "key-id": 20, "value-id": 21}, 19),
]
AVRO_ROWS = [
    {
        "id": 1,
        "i": -7,
        "day": -1,
        "t": 1,
        "tz": -1,
        "ts": 1700000000123456,
        "ts_ns": -1,
        "tz_ns": 1700000000123456789,
        "dec": (-10125).to_bytes(4, "big", signed=True),
        "u": bytes(range(16)),
        "f": b"abc",
        "b": b"\x00\xff",
        "s": "😀",
        "st": {"a": True},
        "m": [{"key": 1, "value": "x"}, {"key": 2, "value": None}],
        "l": [1.5, None],
        "sm": {"k": 0.5, "n": None},
    },
    {"id": 2},
]


def _orc(table: pa.Table) -> str:
    buf = io.BytesIO()
    orc.write_table(table, buf)
    return _b64(buf.getvalue())


def _attrs(fid: int | None, **more: str) -> dict[bytes, bytes]:
    out = {} if fid is None else {b"iceberg.id": str(fid).encode()}
    out.update({f"iceberg.{k.replace('_', '-')}".encode(): v.encode() for k, v in more.items()})
    return out


def _orc_table(columns: list[tuple[str, pa.DataType, dict, list]]) -> pa.Table:
    schema = pa.schema([pa.field(n, t, metadata=m) for n, t, m, _ in columns])
    return pa.Table.from_arrays([pa.array(v, t) for _, t, _, v in columns], schema=schema)


_ORC_STRUCT = pa.struct([pa.field("a", pa.int32(), metadata=_attrs(13))])
_ORC_LIST = pa.list_(pa.field("element", pa.float64(), metadata=_attrs(15)))
_ORC_MAP = pa.map_(
    pa.field("key", pa.string(), False, metadata=_attrs(17)), pa.field("value", pa.int64(), metadata=_attrs(18))
)
ORC_TYPES = [
    ("id", pa.int64(), _attrs(1, required="true"), [1, 2]),
    ("small", pa.int16(), _attrs(2), [-3, None]),
    ("day", pa.date32(), _attrs(3), [-1, None]),
    ("t", pa.int64(), _attrs(4, long_type="TIME"), [86399999999, None]),
    ("tz", pa.timestamp("us", tz="UTC"), _attrs(5, timestamp_unit="MICROS"), [-1, None]),
    ("ts", pa.timestamp("us"), _attrs(6), [1700000000123456, None]),
    ("ts_ns", pa.timestamp("ns"), _attrs(7, timestamp_unit="NANOS"), [-1, None]),
    ("tz_ns", pa.timestamp("ns", tz="UTC"), _attrs(19, timestamp_unit="NANOS"), [1700000000123456789, None]),
    ("dec", pa.decimal128(9, 2), _attrs(8), [None, None]),
    ("u", pa.binary(), _attrs(9, binary_type="UUID"), [bytes(range(16)), None]),
    ("f", pa.binary(), _attrs(10, binary_type="FIXED", length="3"), [b"abc", None]),
    ("s", pa.string(), _attrs(11), ["😀", None]),
    ("st", _ORC_STRUCT, _attrs(12), [{"a": 5}, None]),
    ("l", _ORC_LIST, _attrs(14), [[1.5, None], None]),
    ("m", _ORC_MAP, _attrs(16), [[("k", 1)], None]),
]


def specs() -> Iterator[CaseSpec]:
    yield from _avro_specs()
    yield from _orc_specs()
    yield from _format_specs()


def _avro_specs() -> Iterator[CaseSpec]:
    read = "read-data-file"
    yield case(
        "scan.avro-data",
        "avro-all-types",
        "an Avro data file with every Appendix A mapping: date, time-micros, timestamp-micros with and without "
        "adjust-to-utc (absent: false), timestamp-nanos, decimal and uuid as fixed, fixed, bytes, a record, an "
        "int-keyed map as an array of key/value records with logical type map, a list, a string-keyed Avro map",
        read,
        file_format="avro",
        file_base64=_avro(AVRO_TYPES, AVRO_ROWS),
    )
    yield case(
        "scan.avro-data",
        "avro-without-ids",
        "an Avro data file without field ids: no schema, records by field name (read through a name mapping)",
        read,
        file_format="avro",
        file_base64=_avro([_field("id", "long", None, False), _field("s", "string", None)], [{"id": 1, "s": "a"}]),
    )
    yield case(
        "scan.avro-data",
        "avro-some-ids",
        "field ids on some fields only",
        read,
        file_format="avro",
        file_base64=_avro([_field("id", "long", 1, False), _field("s", "string", None)], [{"id": 1, "s": "a"}]),
    )
    yield case(
        "scan.avro-data",
        "avro-union-not-with-null",
        "a union of int and string: the only union allowed in Iceberg data files is one with null",
        read,
        file_format="avro",
        file_base64=_avro([{"name": "x", "type": ["int", "string"], "field-id": 1}], [{"x": 1}]),
    )
    yield case(
        "scan.avro-data",
        "avro-optional-without-default",
        "an optional field (a union with null) whose Avro field default is not null",
        read,
        file_format="avro",
        file_base64=_avro([{"name": "x", "type": ["null", "int"], "field-id": 1}], [{"x": 1}]),
    )
    yield case(
        "scan.avro-data",
        "avro-map-array-not-records",
        "an array with the logical type map whose elements are ints, not 2-field key/value records",
        read,
        file_format="avro",
        file_base64=_avro(
            [{"name": "m", "type": {"type": "array", "logicalType": "map", "items": "int"}, "field-id": 1}],
            [{"m": [1]}],
        ),
    )


def _orc_specs() -> Iterator[CaseSpec]:
    read = "read-data-file"
    yield case(
        "scan.orc-data",
        "orc-all-types",
        "an ORC data file with the Appendix A attributes: iceberg.id on every field, iceberg.required, "
        "iceberg.long-type=TIME, iceberg.timestamp-unit MICROS (absent: MICROS) and NANOS (timestamp and "
        "timestamp_instant), iceberg.binary-type "
        "UUID and FIXED with iceberg.length, smallint as int, a struct, a list and a map",
        read,
        file_format="orc",
        file_base64=_orc(_orc_table(ORC_TYPES)),
    )
    plain = [("id", pa.int64(), {}, [1]), ("s", pa.string(), {}, ["a"])]
    yield case(
        "scan.orc-data",
        "orc-without-ids",
        "an ORC data file without iceberg.id: no schema, records by column name (read through a name mapping)",
        read,
        file_format="orc",
        file_base64=_orc(_orc_table(plain)),
    )
    yield case(
        "scan.orc-data",
        "orc-some-ids",
        "iceberg.id on some columns only",
        read,
        file_format="orc",
        file_base64=_orc(_orc_table([("id", pa.int64(), _attrs(1), [1]), ("s", pa.string(), {}, ["a"])])),
    )
    yield case(
        "scan.orc-data",
        "orc-micros-with-nanoseconds",
        "a timestamp column of unit MICROS holding 1001 ns: writers must truncate nanoseconds to microseconds",
        read,
        file_format="orc",
        file_base64=_orc(_orc_table([("ts", pa.timestamp("ns"), _attrs(1, timestamp_unit="MICROS"), [1001])])),
    )
    yield case(
        "scan.orc-data",
        "orc-fixed-wrong-length",
        "a fixed[4] column (iceberg.binary-type=FIXED, iceberg.length=4) holding 3 bytes: the length is checked",
        read,
        file_format="orc",
        file_base64=_orc(_orc_table([("f", pa.binary(), _attrs(1, binary_type="FIXED", length="4"), [b"abc"])])),
    )


def _format_specs() -> Iterator[CaseSpec]:
    read = "read-data-file"
    one_row = _avro([_field("id", "long", 1, False)], [{"id": 7}])
    yield case(
        "scan.file-format",
        "upper-case-name",
        "file_format AVRO, as Iceberg Java writes it: the names of the spec in another case",
        read,
        file_format="AVRO",
        file_base64=one_row,
    )
    yield case(
        "scan.file-format",
        "unknown-format",
        "file_format csv: not avro, orc or parquet",
        read,
        file_format="csv",
        file_base64=one_row,
    )
    yield case(
        "scan.file-format",
        "avro-named-but-orc",
        "an ORC file whose file_format says avro: no Avro object container file",
        read,
        file_format="avro",
        file_base64=_orc(_orc_table([("id", pa.int64(), _attrs(1), [1])])),
    )
    yield case(
        "scan.file-format",
        "orc-named-but-avro",
        "an Avro file whose file_format says orc: no ORC file",
        read,
        file_format="orc",
        file_base64=one_row,
    )
