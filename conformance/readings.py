"""The answers an open question's readings give, computed per case: a divergence is credited only
to an answer equal to one of them (`conformance.obligations`).

A question named here has a function that computes, for one of its cases, the case as each other
reading sees it and the reference's answer under that reading. A question not named here has its
readings in prose only; its divergences are held to the shape of the op's answers
(`conformance.answer_shape`), so that an output of no kind is never one.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.obligations import input_forms
from spec_impl.types import DecimalType, parse_type
from spec_impl.ops.registry import run

Reading = tuple[dict[str, Any], Any]  # (the case as a reading sees it, the answer under that reading)


def _decimal_readings(case: dict[str, Any], revision: str) -> list[Reading]:
    """input.decimal-scale: the op on the decimal as each reading takes it. "The result computed
    on the value as given": at the value's own scale (decimal(P, s) with the value's s and enough
    precision for its digits), as an engine that never rescales computes it; "the value rescaled
    to the type's scale": rounded half up or half even where the value has more digits (the
    question names no rounding). The third reading is an error (a rejection)."""
    inp = case["input"]
    try:
        t = parse_type(inp["type"])
        key = "json" if case["op"] == "from-json" else "value"  # the value, in its vector or JSON form
        raw = inp[key]
        given = Decimal(str(raw["decimal"] if isinstance(raw, dict) else raw))
    except (KeyError, TypeError, InvalidOperation, SpecError):
        return []
    if not isinstance(t, DecimalType) or not given.is_finite():
        return []
    scale = -given.as_tuple().exponent
    values = {(given, scale)}
    quantum = Decimal(1).scaleb(-t.scale)
    values |= {(given.quantize(quantum, rounding=r), t.scale) for r in (ROUND_HALF_UP, ROUND_HALF_EVEN)}
    out = []
    for value, s in sorted(values, key=str):
        digits = max(t.precision, len(value.as_tuple().digits), 1)
        shown = format(value, "f") if key == "json" else {"decimal": str(value)}
        seen_input = {**inp, "type": f"decimal({digits}, {s})", key: shown}
        seen = {**case, "input": seen_input}
        try:
            out.append((seen, run(case["op"], seen_input, revision)))
        except SpecError:
            continue  # no answer under that reading: its error
    return out


def _reference_or_error(case: dict[str, Any], revision: str) -> list[Reading]:
    """A question whose readings are the reference's answer or an error: value.calendar-range (every
    count is a value, or out of range), decimal.negative-scale (decimal(P,-S) is a type whose JSON
    the spec gives, or no type at all), json.null-element (JSON null, or no form). A null or any
    other value is neither."""
    return [(case, case["expected"]["output"])] if "output" in case["expected"] else []


QUIET_BIT = {"float": 1 << 22, "double": 1 << 51}


def _nan_readings(case: dict[str, Any], revision: str) -> list[Reading]:
    """float.nan-bits: the binary single value of a NaN under each reading: every bit kept (the
    reference), the NaN quieted (its quiet bit set, sign and payload kept, as a hardware
    conversion does), or the canonical NaN (0x7fc00000, 0x7ff8000000000000)."""
    inp, op = case["input"], case["op"]
    t = inp["type"]
    bits = input_forms.nan_bits(t, inp, op)
    if bits is None:
        return []
    width = len(bits)
    quieted = f"{int(bits, 16) | QUIET_BIT[t]:0{width}x}"
    out = [(case, case["expected"]["output"])]
    for other in dict.fromkeys((quieted, input_forms.CANONICAL_NAN[t])):
        as_bytes = bytes.fromhex(other)[::-1].hex()
        seen_input = {**inp, "value": {"ieee754": other}} if op == "to-binary" else {**inp, "hex": as_bytes}
        out.append((case, run(op, seen_input, revision)))  # that NaN written, or read
    return out


def _signed_zero_readings(case: dict[str, Any], revision: str) -> list[Reading]:
    """predicate.signed-zero: a pruning answer where the bounds keep the sign of a zero (-0.0
    before +0.0, the reference) and where -0.0 = +0.0 (every zero of bounds and literals made +0.0)."""
    seen_input = input_forms.zeros_as_positive(case["input"])
    try:
        equal = run(case["op"], seen_input, revision)
    except SpecError:
        return [(case, case["expected"]["output"])]
    return [(case, case["expected"]["output"]), (case, equal)]


def _uuid_readings(case: dict[str, Any], revision: str) -> list[Reading]:
    """uuid.order: the answer with uuids as unsigned 128-bit numbers (the reference) and with
    Java's order of two signed halves."""
    try:
        return [(case, case["expected"]["output"]), (case, input_forms.signed_uuid_answer(case))]
    except SpecError:
        return [(case, case["expected"]["output"])]


COMPUTED: dict[str, Callable[[dict[str, Any], str], list[Reading]]] = {
    "uuid.order": _uuid_readings,
    "float.nan-bits": _nan_readings,
    "predicate.signed-zero": _signed_zero_readings,
    "input.decimal-scale": _decimal_readings,
    "value.calendar-range": _reference_or_error,
    "decimal.negative-scale": _reference_or_error,
    "json.null-element": _reference_or_error,
}
# Questions none of whose readings is an error: the spec requires the input to be read ("All v3 readers
# are required to read tables with unknown transforms"), and what it leaves open is only how.
READ_REQUIRED = frozenset({"unknown-transform.verbatim"})


def same_decimal(case: dict[str, Any], a: Any, b: Any) -> bool:
    """Whether two decimal outputs (plain strings) are the same number, whatever their scale: a
    reading that computes on the value as given may show its result at the type's scale. Not for
    `to-json`, whose answer is a writer's and is held to the form Appendix D prescribes."""
    if case["op"] == "to-json":
        return False
    try:
        return isinstance(a, str) and isinstance(b, str) and Decimal(a) == Decimal(b)
    except InvalidOperation:
        return False


def other_readings(question: str, case: dict[str, Any], revision: str) -> list[Reading] | None:
    """The case's answers under the question's readings (an error reading gives none), or None
    when the question's readings are not computed."""
    compute = COMPUTED.get(question)
    return None if compute is None else compute(case, revision)
