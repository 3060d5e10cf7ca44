"""The edge values of every primitive type, by kind (spec_impl/vectors/type_table.py): the values
the type-edge families give every rule that takes a source type.

A kind the type has not (a string has no negative, a time no value before midnight) is absent.
Floats that JSON cannot carry are in the vectors' `{"ieee754": ...}` form; the extreme dates and
timestamps are years 1 and 9999 (inside Appendix D's four-digit years), and a nanosecond
timestamp's extremes are those of its long.
"""

from __future__ import annotations

from typing import Any

_TS, _TS_NS = "T00:00:00.000000", "T00:00:00.000000000"
_LAST, _LAST_NS = "T23:59:59.999999", "T23:59:59.999999999"


def _temporal(ts: str, last: str, zone: str, low: str, high: str) -> dict[str, list[Any]]:
    return {
        "null": [None],
        "negative": [f"1969-12-31{last}{zone}"],
        "zero": [f"1970-01-01{ts}{zone}"],
        "extreme": [f"{low}{zone}", f"{high}{zone}"],
    }


def _micro(zone: str) -> dict[str, list[Any]]:
    return _temporal(_TS, _LAST, zone, f"0001-01-01{_TS}", f"9999-12-31{_LAST}")


def _nano(zone: str) -> dict[str, list[Any]]:  # the long's limits: -2^63 and 2^63 - 1 nanoseconds
    return _temporal(_TS_NS, _LAST_NS, zone, "1677-09-21T00:12:43.145224192", "2262-04-11T23:47:16.854775807")


def _floating(width: int) -> dict[str, list[Any]]:
    def bits(sign: int, exponent_and_rest: str) -> dict[str, str]:
        return {"ieee754": f"{sign:x}{exponent_and_rest}"}

    rest = {8: ("f800000", "fc00000", "0000000"), 16: ("ff0000000000000", "ff8000000000000", "000000000000000")}
    inf, nan, zero = rest[width]
    return {
        "null": [None],
        "negative": [-1.5],
        "zero": [0.0, bits(8, zero)],
        "extreme": [bits(7, inf), bits(0xF, inf)],
        "nan": [bits(7, nan)],
    }


EDGES: dict[str, dict[str, list[Any]]] = {
    "boolean": {"null": [None], "false": [False], "true": [True]},
    "int": {"null": [None], "negative": [-7], "zero": [0], "extreme": [-(2**31), 2**31 - 1]},
    "long": {"null": [None], "negative": [-7], "zero": [0], "extreme": [-(2**63), 2**63 - 1]},
    "float": _floating(8),
    "double": _floating(16),
    "decimal(9,2)": {"null": [None], "negative": ["-1.50"], "zero": ["0.00"], "extreme": ["-9999999.99", "9999999.99"]},
    "date": {
        "null": [None],
        "negative": ["1969-12-31"],
        "zero": ["1970-01-01"],
        "extreme": ["0001-01-01", "9999-12-31"],
    },
    "time": {"null": [None], "zero": ["00:00:00.000000"], "extreme": ["23:59:59.999999"]},
    "timestamp": _micro(""),
    "timestamptz": _micro("+00:00"),
    "timestamp_ns": _nano(""),
    "timestamptz_ns": _nano("+00:00"),
    "string": {"null": [None], "empty": [""], "multi-byte": ["\u65e5\u672c\U0001f600"]},
    "uuid": {
        "null": [None],
        "zero": ["00000000-0000-0000-0000-000000000000"],
        "extreme": ["ffffffff-ffff-ffff-ffff-ffffffffffff"],
    },
    "fixed[4]": {"null": [None], "zero": ["00000000"], "extreme": ["ffffffff"]},
    "binary": {"null": [None], "empty": [""], "extreme": ["ffffffff"]},
}

# An ordinary value of each type, beside an edge value where a rule needs two (bounds, pruning).
ORDINARY: dict[str, Any] = {
    "boolean": True,
    "int": 5,
    "long": 5,
    "float": 2.5,
    "double": 2.5,
    "decimal(9,2)": "3.25",
    "date": "2017-11-16",
    "time": "22:31:08.000000",
    "timestamp": "2017-11-16T22:31:08.000001",
    "timestamptz": "2017-11-16T22:31:08.000001+00:00",
    "timestamp_ns": "2017-11-16T22:31:08.000001001",
    "timestamptz_ns": "2017-11-16T22:31:08.000001001+00:00",
    "string": "iceberg",
    "uuid": "f79c3e09-677c-4bbd-a479-3f349cb785e7",
    "fixed[4]": "00010203",
    "binary": "00010203",
}


def edges() -> list[tuple[str, str, int, Any]]:
    """(type, kind, index, vector value) for every edge value."""
    return [
        (t, kind, i, v) for t, kinds in EDGES.items() for kind, values in kinds.items() for i, v in enumerate(values)
    ]


def slug(type_text: str, kind: str, index: int) -> str:
    base = type_text.split("(")[0].split("[")[0]
    return f"edge-{base}-{kind}" + (f"-{index + 1}" if index else "")
