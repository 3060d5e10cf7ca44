"""spec_impl.digits.bounded_int: one guard for numbers read from text, before int()."""

from __future__ import annotations

import pytest

from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput
from spec_impl.metadata import retention


def test_values_within_the_bound_read_as_int():
    assert (
        bounded_int("42", 3, "type.fixed", "n") == 42
        and bounded_int("-007", 3, "type.fixed", "n") == -7
        and bounded_int("+0", 1, "type.fixed", "n") == 0
    )


def test_more_digits_than_the_bound_are_refused_under_the_rule():
    with pytest.raises(InvalidInput, match=r"\[type\.fixed\] the width has 4 digits, more than any valid value \(3\)"):
        bounded_int("1234", 3, "type.fixed", "the width")


def test_leading_zeros_neither_count_nor_reach_int():
    """int() counts leading zeros against its 4,300-digit limit: they are dropped first."""
    assert bounded_int("0" * 5000 + "9", 3, "type.fixed", "n") == 9
    assert bounded_int("-" + "0" * 5000, 3, "type.fixed", "n") == 0


def test_a_retention_property_with_thousands_of_leading_zeros_reads_as_its_value():
    props = {"history.expire.min-snapshots-to-keep": "+" + "0" * 5000 + "3"}
    assert retention._positive(props, "history.expire.min-snapshots-to-keep", None) == 3
