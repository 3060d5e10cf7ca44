"""Geometry and geography bounds (spec_impl/serde/geo_bounds.py; adopted v3 digest §3, Appendix D
"Bound serialization" and "Geo bounds"). Rules: metrics.geo-bound, metrics.geo-bound-order."""

from __future__ import annotations

import struct

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.serde.geo_bounds import read_bound, read_bounds

NAN = float("nan")


def _le(*xs: float) -> bytes:
    return struct.pack(f"<{len(xs)}d", *xs)


@pytest.mark.parametrize(
    ("data", "coordinates"),
    [
        (_le(1, 2), {"x": 1.0, "y": 2.0, "z": None, "m": None}),  # x:y
        (_le(1, 2, 3), {"x": 1.0, "y": 2.0, "z": 3.0, "m": None}),  # x:y:z
        (_le(1, 2, NAN, 4), {"x": 1.0, "y": 2.0, "z": None, "m": 4.0}),  # x:y:NaN:m
        (_le(1, 2, 3, 4), {"x": 1.0, "y": 2.0, "z": 3.0, "m": 4.0}),  # x:y:z:m
    ],
)
def test_the_four_forms_of_a_geo_bound(data, coordinates):
    assert read_bound("geometry", data) == coordinates == read_bound("geography", data)


@pytest.mark.parametrize("data", [_le(1), _le(1, 2)[:-1], _le(1, 2, 3, 4, 5), _le(NAN, 2), _le(1, NAN)])
def test_other_lengths_and_nan_x_or_y_are_no_geo_bound(data):
    with pytest.raises(InvalidInput, match="metrics.geo-bound"):
        read_bound("geometry", data)


def test_only_a_geography_wraps_across_the_antimeridian():
    """ "Only geography may have xmin > xmax (antimeridian wrap)"."""
    lower, upper = _le(170, -10), _le(-170, 10)
    assert read_bounds("geography", lower, upper)["lower"]["x"] == 170.0
    with pytest.raises(InvalidInput, match="metrics.geo-bound-order"):
        read_bounds("geometry", lower, upper)
    with pytest.raises(InvalidInput, match="metrics.geo-bound-order"):
        read_bounds("geography", _le(1, 10), _le(3, -10))  # ymin > ymax wraps nowhere


def test_geo_bounds_belong_to_geo_columns():
    with pytest.raises(InvalidInput, match="metrics.geo-bound"):
        read_bound("binary", _le(1, 2))
