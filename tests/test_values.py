"""The physical value model (rule value.range, value.decimal): what counts as a value of a type."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.types import parse_type
from spec_impl.values import normalize


@pytest.mark.parametrize(
    ("type_", "value"),
    [
        ("int", 2**31),
        ("int", True),
        ("long", 2**63),
        ("date", -(2**31) - 1),
        ("time", 86_400_000_000),
        ("time", -1),
        ("float", 1e39),
        ("string", "\ud800"),
        ("uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7"),
        ("fixed[2]", b"\x00"),
        ("binary", "00"),
        ("unknown", 1),
        ("boolean", 1),
    ],
)
def test_out_of_range_or_wrong_kind(type_, value):
    """value.range: the range and the Python representation of each type."""
    with pytest.raises(InvalidInput, match=r"value\.range"):
        normalize(parse_type(type_), value)


def test_decimal_scale_and_precision():
    """value.decimal: exact at the type's scale, never rounded; at most P digits."""
    t = parse_type("decimal(4,2)")
    assert str(normalize(t, Decimal("14.2"))) == "14.20"
    with pytest.raises(InvalidInput, match=r"value\.decimal"):
        normalize(t, Decimal("14.205"))
    with pytest.raises(InvalidInput, match=r"value\.decimal"):
        normalize(t, Decimal("114.20"))
    assert normalize(parse_type("decimal(38,0)"), Decimal("9" * 38)) == Decimal(
        "9" * 38
    )  # no 28-digit context rounding


def test_float_values_round_to_32_bits():
    assert normalize(parse_type("float"), 0.1) == 0.10000000149011612
    assert normalize(parse_type("uuid"), uuid.UUID(int=0)) == uuid.UUID(int=0)
