"""The column types the harness writes, their values, and the forms values take on the way.

Types are Spark SQL type strings (`decimal(9,2)`, `timestamp_ntz`, `struct<a:int,b:string>`), the
language the histories speak. A value is kept in one *model form*, the physical value of the spec
("Primitive Types"): bool, int (int, bigint, date as days, timestamp and timestamp_ntz as
microseconds from the epoch), float, `Decimal` at the column's scale, str, bytes, dict (struct), list,
and dict (map). This module is the harness's own: it shares no code with `spec_impl`, so that the
model stays an independent oracle.

Three conversions:
* `to_json` / `from_json`: the scenario file form (floats that JSON lacks as "NaN", "Infinity",
  "-Infinity"; decimals as strings; binary as hex; maps as {"keys": [...], "values": [...]}).
* `from_reader`: what a reader returned (Spark rows, Arrow's Python values, the vectors' JSON row
  form) back to the model form.
* `comparable`: a hashable key under which equal values compare equal (NaN equals NaN, -0.0 and
  0.0 stay apart, decimals by value).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
import struct
from decimal import Decimal
from typing import Any

PRIMITIVES = ("boolean", "int", "bigint", "float", "double", "date", "timestamp", "timestamp_ntz", "string", "binary")
NESTED = ("struct<a:int,b:string>", "array<int>", "map<string,int>")
_DECIMAL = re.compile(r"decimal\((\d+),\s*(\d+)\)")
EPOCH = dt.datetime(1970, 1, 1)
EPOCH_DATE = dt.date(1970, 1, 1)
MIN_MICROS, MAX_MICROS = -62135596800000000, 253402300799999999  # 0001-01-01 .. 9999-12-31T23:59:59.999999
MIN_DAY, MAX_DAY = -719162, 2932896
DECIMALS = decimal.Context(prec=80)  # exact for decimal(38, S): the default context rounds to 28 digits


class ValueError_(ValueError):
    """A value the harness cannot convert, naming the type and the value."""


def decimal_of(t: str) -> tuple[int, int] | None:
    """(precision, scale) of a decimal type string, else None."""
    m = _DECIMAL.fullmatch(t.replace(" ", ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def is_numeric(t: str) -> bool:
    return t in ("int", "bigint", "float", "double") or decimal_of(t) is not None


def struct_fields(t: str) -> list[tuple[str, str]]:
    """The (name, type) pairs of one of the harness's struct types."""
    inner = t[len("struct<") : -1]
    return [tuple(part.split(":", 1)) for part in inner.split(",")]  # type: ignore[misc]


def element_type(t: str) -> str:
    return t[len("array<") : -1]


def map_types(t: str) -> tuple[str, str]:
    key, value = t[len("map<") : -1].split(",", 1)
    return key, value


def kind(t: str) -> str:
    """The family of a type string: a primitive's own name, 'decimal', 'struct', 'array' or 'map'."""
    if decimal_of(t):
        return "decimal"
    for nested in ("struct", "array", "map"):
        if t.startswith(nested + "<"):
            return nested
    if t not in PRIMITIVES:
        raise ValueError_(f"the harness has no column type {t!r}")
    return t


def float32(x: float) -> float:
    """`x` rounded to the nearest float32, as Spark stores a FloatType value."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# --- scenario-file JSON --------------------------------------------------------------------------


def float_text(v: float, nan: str = "nan", infinity: str = "inf") -> str:
    """A float as SQL dialects spell it in a string cast: NaN and the infinities by name."""
    if math.isnan(v):
        return nan
    return infinity if v == math.inf else "-" + infinity if v == -math.inf else repr(v)


def to_json(t: str, v: Any) -> Any:
    if v is None:
        return None
    k = kind(t)
    if k in ("float", "double"):
        if math.isnan(v):
            return "NaN"
        return ("Infinity" if v > 0 else "-Infinity") if math.isinf(v) else v
    if k == "decimal":
        return str(v)
    if k == "binary":
        return v.hex()
    if k == "struct":
        return {name: to_json(ft, v.get(name)) for name, ft in struct_fields(t)}
    if k == "array":
        return [to_json(element_type(t), x) for x in v]
    if k == "map":
        kt, vt = map_types(t)
        return {"keys": [to_json(kt, x) for x in v], "values": [to_json(vt, x) for x in v.values()]}
    return v


def from_json(t: str, v: Any) -> Any:
    if v is None:
        return None
    k = kind(t)
    if k in ("float", "double"):
        x = float(v) if isinstance(v, str) else float(v)
        return float32(x) if k == "float" else x
    if k == "decimal":
        precision, scale = decimal_of(t)
        d = Decimal(v).quantize(Decimal(1).scaleb(-scale, DECIMALS), context=DECIMALS)
        if len(d.as_tuple().digits) > precision or d.as_tuple().exponent != -scale:
            raise ValueError_(f"{v!r} is no value of {t}: it needs more than {precision} digits at scale {scale}")
        return d
    if k == "binary":
        return bytes.fromhex(v)
    if k == "struct":
        return {name: from_json(ft, v.get(name)) for name, ft in struct_fields(t)}
    if k == "array":
        return [from_json(element_type(t), x) for x in v]
    if k == "map":
        kt, vt = map_types(t)
        return {from_json(kt, a): from_json(vt, b) for a, b in zip(v["keys"], v["values"])}
    return v


def to_row_json(t: str, v: Any) -> Any:
    """A model value in the golden tables' JSON row form (vectors/README.md, `tables/`): decimals as
    plain strings at their scale, dates and timestamps in ISO form (`timestamp` in UTC with
    `+00:00`), binary as hex, NaN and the infinities as `{"ieee754": <hex of the double>}`, structs
    as objects, maps as {"keys": [...], "values": [...]} in the order of their keys' JSON."""
    if v is None:
        return None
    k = kind(t)
    if k in ("float", "double"):
        return v if math.isfinite(v) else {"ieee754": struct.pack(">d", v).hex()}
    if k == "decimal":
        return format(v, "f")
    if k == "date":
        return (EPOCH_DATE + dt.timedelta(days=v)).isoformat()
    if k in ("timestamp", "timestamp_ntz"):
        text = (EPOCH + dt.timedelta(microseconds=v)).isoformat(timespec="microseconds")
        return text + "+00:00" if k == "timestamp" else text
    if k == "binary":
        return v.hex()
    if k == "struct":
        return {name: to_row_json(ft, v.get(name)) for name, ft in struct_fields(t)}
    if k == "array":
        return [to_row_json(element_type(t), x) for x in v]
    if k == "map":  # unordered: entries in the order of their keys' JSON
        kt, vt = map_types(t)
        pairs = sorted(
            ((to_row_json(kt, a), to_row_json(vt, b)) for a, b in v.items()),
            key=lambda kv: json.dumps(kv[0], sort_keys=True),
        )
        return {"keys": [a for a, _ in pairs], "values": [b for _, b in pairs]}
    return v


# --- readers' values to the model form -----------------------------------------------------------


def from_reader(t: str, v: Any) -> Any:
    """A value as a reader returned it (Spark's converted columns, Arrow's `to_pylist`, or the
    vectors' JSON row form of `spec_impl.ops.golden_tables.table_rows`) in the model form."""
    if v is None:
        return None
    k = kind(t)
    if k in ("int", "bigint", "boolean", "string"):
        return v
    if k in ("float", "double"):
        if isinstance(v, dict) and "ieee754" in v:  # the vectors' form of NaN and the infinities
            raw = bytes.fromhex(v["ieee754"])
            return struct.unpack(">d" if len(raw) == 8 else ">f", raw)[0]
        return float(v)
    if k == "decimal":
        return Decimal(v) if isinstance(v, (str, int)) else v
    if k == "binary":
        return bytes.fromhex(v) if isinstance(v, str) else bytes(v)
    if k == "date":
        if isinstance(v, str):
            v = dt.date.fromisoformat(v)
        return (v - EPOCH_DATE).days if isinstance(v, dt.date) else int(v)
    if k in ("timestamp", "timestamp_ntz"):
        if isinstance(v, str):
            v = dt.datetime.fromisoformat(v)
        if isinstance(v, dt.datetime):
            if v.tzinfo is not None:
                v = v.astimezone(dt.UTC).replace(tzinfo=None)
            delta = v - EPOCH
            return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return int(v)
    if k == "struct":
        get = v.get if isinstance(v, dict) else (lambda name: getattr(v, name))
        return {name: from_reader(ft, get(name)) for name, ft in struct_fields(t)}
    if k == "array":
        return [from_reader(element_type(t), x) for x in v]
    kt, vt = map_types(t)
    if isinstance(v, dict) and set(v) == {"keys", "values"}:
        pairs = zip(v["keys"], v["values"])
    else:
        pairs = v.items() if isinstance(v, dict) else v  # Arrow gives a list of (key, value)
    return {from_reader(kt, a): from_reader(vt, b) for a, b in pairs}


# --- comparison ----------------------------------------------------------------------------------


def comparable(t: str, v: Any) -> Any:
    """A hashable key: equal keys for the same value (NaN = NaN; -0.0 ≠ 0.0; decimals by value)."""
    if v is None:
        return None
    k = kind(t)
    if k in ("float", "double"):
        return ("nan",) if math.isnan(v) else (v, math.copysign(1.0, v))
    if k == "decimal":
        # by value: the column's type fixes the scale, and readers' Python forms differ in exponent (-1E-7 vs -1.00E-7)
        return v
    if k == "struct":
        return tuple(comparable(ft, v.get(name)) for name, ft in struct_fields(t))
    if k == "array":
        return tuple(comparable(element_type(t), x) for x in v)
    if k == "map":
        kt, vt = map_types(t)
        return tuple(sorted(((comparable(kt, a), comparable(vt, b)) for a, b in v.items()), key=repr))
    return v


def shown(t: str, v: Any) -> str:
    """A short human form of a value, for failure messages."""
    text = repr(to_json(t, v))
    return text if len(text) <= 60 else text[:57] + "..."
