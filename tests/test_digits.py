"""spec_impl.digits.bounded_int: one guard for numbers read from text, before int()."""

from __future__ import annotations

import pytest

from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput
import spec_impl
from spec_impl.metadata import json_document, retention


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


@pytest.mark.parametrize(
    "read, rule",
    [
        (lambda text: json_document.loads(text), "json.document"),
        (lambda text: spec_impl.parse_type(f"fixed[{text}]"), "type.fixed"),
        (lambda text: spec_impl.from_json("date", f"+{text}-01-01"), "json.date"),
        (
            lambda text: retention._positive(
                {"history.expire.max-ref-age-ms": text}, "history.expire.max-ref-age-ms", 1
            ),
            "retention.property",
        ),
    ],
    ids=["json-document", "type-parameter", "year", "retention-property"],
)
def test_the_four_readers_of_numbers_refuse_through_the_one_guard(read, rule):
    """JSON documents, type parameters, years and retention properties: one guard, one message form."""
    with pytest.raises(InvalidInput, match=r"has 5000 digits, more than any valid value \(\d+\)") as error:
        read("9" * 5000)
    assert error.value.rule == rule
