"""Value-level robustness: range checks of promoted bounds, exact float bits, equivalent decimal
inputs, transform strings, and hostile inputs that must end in a SpecError naming a rule.

Spec: Appendix D (binary and JSON single values), Schema Evolution / adopted 1.1 (promoted bounds),
Primitive Types (ranges, decimal scale), Partition Transforms and Appendix C (transform strings).
"""

from __future__ import annotations

import decimal
import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.hashing import hash_value
from spec_impl.serde import binary, json_value
from spec_impl.transforms import apply_transform, parse_transform
from spec_impl.types import MAX_NESTING_DEPTH, DecimalType, parse_type
from spec_impl.values import float32_bits, float32_from_bits, normalize
from spec_impl.ops.encoding import decode, encode
from spec_impl.ops.registry import run

LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


# --- promoted bounds (rule value.range) ------------------------------------------------------


@pytest.mark.parametrize("name, per_day", [("timestamp", 86_400_000_000), ("timestamp_ns", 86_400_000_000_000)])
@given(days=st.integers(-(2**31), 2**31 - 1))
def test_promoted_date_bound_is_in_range_or_rejected(name: str, per_day: int, days: int) -> None:
    """A 4-byte timestamp(_ns) bound is a date (adopted 1.1); its promoted value fits a long or
    the bound is rejected with value.range naming the day count, never returned out of range."""
    data = struct.pack("<i", days)
    exact = days * per_day
    if LONG_MIN <= exact <= LONG_MAX:
        assert binary.from_binary(parse_type(name), data, revisions.V3_ADOPTED) == exact
    else:
        with pytest.raises(SpecError) as e:
            binary.from_binary(parse_type(name), data, revisions.V3_ADOPTED)
        assert e.value.rule == "value.range" and e.value.value == days and str(days) in str(e.value)


@pytest.mark.parametrize(
    "hexed, name", [("c606f5ff", "timestamp_ns"), ("ffffff7f", "timestamp"), ("00000080", "timestamp")]
)
def test_reported_out_of_range_promoted_bounds(hexed: str, name: str) -> None:
    with pytest.raises(SpecError, match=r"value\.range"):
        binary.from_binary(parse_type(name), bytes.fromhex(hexed), revisions.V3_ADOPTED)


@given(st.integers(-(2**31), 2**31 - 1))
def test_promoted_int_bound_reads_every_int(v: int) -> None:
    assert binary.from_binary(parse_type("long"), struct.pack("<i", v)) == v


# --- float bits (rule binary.fixed-width) -----------------------------------------------------


@given(st.integers(0, 2**32 - 1))
def test_every_float_bit_pattern_survives_a_round_trip(bits: int) -> None:
    """Appendix D: a float is stored as its 4 IEEE 754 bytes, so bytes read are written back as
    they were, NaN payloads and the signalling bit included (binary.fixed-width)."""
    data = struct.pack("<I", bits)
    t = parse_type("float")
    assert binary.to_binary(t, binary.from_binary(t, data)) == data
    assert float32_bits(float32_from_bits(bits)) == bits


@given(st.integers(0, 2**64 - 1))
def test_every_double_bit_pattern_survives_a_round_trip(bits: int) -> None:
    data = struct.pack("<Q", bits)
    t = parse_type("double")
    assert binary.to_binary(t, binary.from_binary(t, data)) == data


def test_signalling_nan_keeps_its_bits() -> None:
    t = parse_type("float")
    value = binary.from_binary(t, bytes.fromhex("0100807f"))
    assert math.isnan(value) and binary.to_binary(t, value).hex() == "0100807f"
    assert encode("float", value) == {"ieee754": "7f800001"}
    assert float32_bits(decode("float", {"ieee754": "7f800001"})) == 0x7F800001


@given(st.floats(allow_nan=False))
def test_float32_rounding_of_non_nan_values_is_ieee_narrowing(x: float) -> None:
    try:
        expected = struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        with pytest.raises(SpecError):
            float32_bits(x)
        return
    assert float32_bits(x) == expected


# --- equivalent decimal inputs ----------------------------------------------------------------


@st.composite
def decimal_spellings(draw) -> tuple[DecimalType, decimal.Decimal, decimal.Decimal]:
    """A decimal type, a value at its scale, and the same value written with another exponent."""
    precision = draw(st.integers(1, 38))
    scale = draw(st.integers(-5, precision))
    unscaled = draw(st.integers(-(10**precision) + 1, 10**precision - 1))
    canonical = decimal.Decimal((int(unscaled < 0), tuple(int(d) for d in str(abs(unscaled))), -scale))
    sign, digits, exponent = canonical.as_tuple()
    extra = draw(st.integers(0, 6))  # trailing zeros added (exponent lowered) ...
    digits = digits + (0,) * extra
    exponent -= extra
    while (
        digits[-1:] == (0,) and len(digits) > 1 and draw(st.booleans())
    ):  # ... or trailing zeros taken off (exponent raised)
        digits, exponent = digits[:-1], exponent + 1
    return DecimalType(precision, scale), canonical, decimal.Decimal((sign, digits, exponent))


@given(decimal_spellings())
@settings(max_examples=300)
def test_equivalent_decimal_inputs_give_identical_results(case: tuple) -> None:
    """Primitive Types: the scale of a decimal type is fixed, so a value written with another
    exponent is the same value; binary, JSON, hash and transforms must not see the spelling."""
    t, canonical, other = case
    assert canonical == other
    assert normalize(t, other).as_tuple() == canonical.as_tuple()
    assert binary.to_binary(t, other) == binary.to_binary(t, canonical)
    assert json_value.to_json(t, other) == json_value.to_json(t, canonical)
    assert hash_value(t, other) == hash_value(t, canonical)
    for transform in (
        "identity",
        "bucket[16]",
        "bucket[2147483647]",
        "truncate[1]",
        "truncate[7]",
        "truncate[2147483647]",
    ):
        try:
            expected = apply_transform(transform, t, canonical)
        except SpecError as e:
            with pytest.raises(SpecError) as again:
                apply_transform(transform, t, other)
            assert again.value.rule == e.rule
            continue
        got = apply_transform(transform, t, other)
        assert got == expected and (not isinstance(got, decimal.Decimal) or got.as_tuple() == expected.as_tuple())


def test_decimal_vector_form_keeps_the_exponent_for_engines() -> None:
    """The `{"decimal": text}` input form decodes to the Decimal as written; the ops normalize it."""
    value = decode("decimal(10,2)", {"decimal": "1E+2"})
    assert value.as_tuple().exponent == 2
    assert (
        run("to-binary", {"type": "decimal(10,2)", "value": {"decimal": "1E+2"}}, revisions.DEFAULT)
        == (10000).to_bytes(2, "big").hex()
    )
    assert run("to-json", {"type": "decimal(10,2)", "value": {"decimal": "1E+2"}}, revisions.DEFAULT) == "100.00"
    for bad in ({"decimal": 1}, {"decimal": "NaN"}, {"decimal": "1", "x": 1}, {"decimal": "Infinity"}):
        with pytest.raises(SpecError, match=r"json\.decimal"):
            decode("decimal(10,2)", bad)


@pytest.mark.parametrize("text", ["1.001", "1E+9", "1E-999999999", "1E+999999999", "9" * 5000], ids=lambda v: v[:12])
def test_decimal_inputs_that_are_not_values_are_rejected_cheaply(text: str) -> None:
    with pytest.raises(SpecError) as e:
        normalize(DecimalType(10, 2), decimal.Decimal(text))
    assert e.value.rule == "value.decimal"


def test_smallest_decimal_at_largest_scale_is_plain_json() -> None:
    t = DecimalType(38, 38)
    value = decimal.Decimal("1E-38")
    assert json_value.to_json(t, value) == "0." + "0" * 37 + "1"
    assert json_value.to_json(t, -value) == "-0." + "0" * 37 + "1"


# --- transform strings (rules transform.parse, transform.unknown, transform.bucket.n) -----------


@pytest.mark.parametrize(
    "text",
    [
        "BUCKET[16]",
        "Bucket[16]",
        "Identity",
        "YEAR",
        "bucket[]",
        "bucket[-1]",
        "bucket[+5]",
        "bucket[abc]",
        "truncate[-3]",
        "truncate[ 4 ]",
        "bucket[1.5]",
        "bucket[\u0663]",
    ],
)
def test_strings_outside_appendix_c_are_unknown_transforms_kept_verbatim(text: str) -> None:
    t = parse_transform(text)
    assert t.name is None and t.text == text


@pytest.mark.parametrize(
    "text, rule",
    [
        ("bucket[0]", "transform.bucket.n"),
        ("bucket[2147483648]", "transform.bucket.n"),
        ("bucket[" + "9" * 5000 + "]", "transform.bucket.n"),
        ("truncate[0]", "transform.truncate.width"),
    ],
)
def test_impossible_parameters_of_known_transforms_are_rejected(text: str, rule: str) -> None:
    with pytest.raises(SpecError) as e:
        parse_transform(text)
    assert e.value.rule == rule


@given(st.text(max_size=20))
def test_parse_transform_never_raises_anything_but_spec_error(text: str) -> None:
    try:
        t = parse_transform(text)
    except SpecError as e:
        assert e.rule in ("transform.bucket.n", "transform.truncate.width")
        return
    assert t.name is not None or t.text == text


# --- hostile inputs: a SpecError with a rule, never another exception -------------------------


def _nest(depth: int) -> dict:
    t: object = "int"
    for i in range(depth):
        t = {"type": "list", "element-id": i + 1, "element-required": True, "element": t}
    return t  # type: ignore[return-value]


def test_nesting_beyond_the_limit_is_a_spec_error() -> None:
    with pytest.raises(SpecError) as e:
        parse_type(_nest(2000))
    assert e.value.rule == "type.nesting-limit"
    with pytest.raises(SpecError, match=r"type\.nesting-limit"):
        parse_type(_nest(MAX_NESTING_DEPTH + 1))


def test_nesting_at_the_limit_works_through_every_value_op() -> None:
    t = parse_type(_nest(MAX_NESTING_DEPTH))
    assert parse_type(t.to_json()) == t
    value: object = 7
    for _ in range(MAX_NESTING_DEPTH):
        value = [value]
    assert json_value.from_json(t, json_value.to_json(t, value)) == value
    with pytest.raises(SpecError, match=r"binary\.undefined"):
        binary.to_binary(t, value)


@pytest.mark.parametrize(
    "type_name, obj, rule",
    [
        ("double", 10**400, "json.floating"),
        ("double", -(10**400), "json.floating"),
        ("float", 10**400, "json.floating"),
        ("long", 10**5000, "json.integer"),
        ("int", -(10**5000), "json.integer"),
        ("decimal(38,0)", "1" * 5000, "json.decimal"),
        ("decimal(38,2)", "1E+999999999", "json.decimal"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 30 else type(v).__name__,
)
def test_huge_json_numbers_are_spec_errors(type_name: str, obj: object, rule: str) -> None:
    with pytest.raises(SpecError) as e:
        json_value.from_json(parse_type(type_name), obj)
    assert e.value.rule == rule
    assert len(str(e.value)) < 10_000


@pytest.mark.parametrize(
    "type_name, value", [("long", 10**5000), ("int", -(10**5000)), ("date", 10**5000)], ids=["long", "int", "date"]
)
def test_huge_ints_are_spec_errors_everywhere(type_name: str, value: int) -> None:
    for call in (
        lambda: binary.to_binary(parse_type(type_name), value),
        lambda: json_value.to_json(parse_type(type_name), value),
        lambda: hash_value(parse_type(type_name), value),
        lambda: apply_transform("identity", type_name, value),
    ):
        with pytest.raises(SpecError, match=r"value\.range"):
            call()


def test_huge_decimal_bytes_are_spec_errors() -> None:
    with pytest.raises(SpecError) as e:
        binary.from_binary(parse_type("decimal(38,0)"), b"\x7f" * 5000)
    assert e.value.rule == "value.decimal"
