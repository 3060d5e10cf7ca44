"""Bounds of geometry and geography columns (adopted v3 digest §3, "Appendix D binary" and "Geo
bounds"): a bound is `x:y`, `x:y:z`, `x:y:NaN:m` or `x:y:z:m`, each coordinate a little-endian
double; only a geography may have xmin > xmax (a box across the antimeridian).

    >>> read_bound("geometry", bytes.fromhex("000000000000f03f0000000000000040"))
    {'x': 1.0, 'y': 2.0, 'z': None, 'm': None}
"""

from __future__ import annotations

import math
import struct
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, implements, register

_V3 = ((3,), revisions.ADOPTED)
register(
    Rule(
        "metrics.geo-bound",
        "adopted 3 Appendix D",
        "A geometry or geography bound is x:y, x:y:z, x:y:NaN:m or x:y:z:m as little-endian doubles (16, 24 or 32 "
        "bytes; a 32-byte bound without z has z NaN); x and y are numbers",
        *_V3,
    ),
    Rule(
        "metrics.geo-bound-order",
        "adopted 3 Appendix D",
        "Only a geography may have a lower bound's x above the upper bound's (xmin > xmax, across the antimeridian); "
        "for both types ymin <= ymax, zmin <= zmax and mmin <= mmax where both are present",
        *_V3,
    ),
)
_SIZES = {16: 2, 24: 3, 32: 4}


@implements("metrics.geo-bound")
def read_bound(type_name: str, data: bytes) -> dict[str, float | None]:
    """The coordinates of one bound: x, y, and z and m or None where the bound has none."""
    if type_name not in ("geometry", "geography"):
        raise InvalidInput("metrics.geo-bound", "geo bounds are for geometry and geography columns", type_name)
    count = _SIZES.get(len(data))
    if count is None:
        raise InvalidInput(
            "metrics.geo-bound", "a geo bound is 16 (x:y), 24 (x:y:z) or 32 bytes (x:y:z:m, x:y:NaN:m)", len(data)
        )
    values = struct.unpack(f"<{count}d", data)
    x, y = values[0], values[1]
    if math.isnan(x) or math.isnan(y):
        raise InvalidInput("metrics.geo-bound", "x and y of a geo bound are numbers, not NaN", data.hex())
    z = values[2] if count > 2 and not math.isnan(values[2]) else None
    m = values[3] if count == 4 else None
    return {"x": x, "y": y, "z": z, "m": m}


@implements("metrics.geo-bound-order")
def read_bounds(type_name: str, lower: bytes, upper: bytes) -> dict[str, Any]:
    """A column's lower and upper geo bounds, checked against each other."""
    low, high = read_bound(type_name, lower), read_bound(type_name, upper)
    if low["x"] > high["x"] and type_name != "geography":
        raise InvalidInput(
            "metrics.geo-bound-order",
            f"xmin {low['x']} > xmax {high['x']}: only a geography bound may wrap across the antimeridian",
            type_name,
        )
    for axis in ("y", "z", "m"):
        if low[axis] is not None and high[axis] is not None and low[axis] > high[axis]:
            raise InvalidInput("metrics.geo-bound-order", f"{axis}min {low[axis]} > {axis}max {high[axis]}", type_name)
    return {"lower": low, "upper": high}
