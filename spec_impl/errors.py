"""The one exception family of the reference: every rejection names the spec rule it enforces.

A `SpecError` carries the rule id (see `spec_impl.rules`), a message that names the offending
value, and the value itself. Callers catch `SpecError`; the subclasses say *why*:

- `InvalidInput`: the input breaks a rule of the spec (a `+01:00` timestamptz, width 0 truncate).
- `NotDefined`: the spec defines no result for this input (binary serialization of a struct,
  a transform the reference does not know, bucketing a float).
"""

from __future__ import annotations

from typing import Any

_NO_VALUE = object()


class SpecError(Exception):
    """Base of every error the reference raises on purpose."""

    def __init__(self, rule: str, message: str, value: Any = _NO_VALUE):
        from spec_impl.rules import RULES  # late import: rules imports nothing from here

        if rule not in RULES:
            raise KeyError(f"SpecError raised with unregistered rule id {rule!r}")
        self.rule = rule
        self.value = None if value is _NO_VALUE else value
        detail = "" if value is _NO_VALUE else f" (got {describe(value)})"
        super().__init__(f"[{rule}] {message}{detail}")


MAX_SHOWN = 2_000  # characters of an offending value shown in a message


def describe(value: Any) -> str:
    """repr(value) for an error message, never an exception of its own.

    Hostile inputs must still get their SpecError: an int beyond Python's int-to-str limit
    (4,300 digits) or a value nested so deep that repr() exhausts the stack is described by its
    size instead, and a long repr is shortened to MAX_SHOWN characters.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 10_000:
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except (ValueError, RecursionError, MemoryError) as e:
        return f"<a {type(value).__name__} that cannot be shown: {type(e).__name__}>"
    if len(text) > MAX_SHOWN:
        return f"{text[:MAX_SHOWN]}... ({len(text)} characters)"
    return text


class InvalidInput(SpecError, ValueError):
    """The input violates a rule of the spec."""


class NotDefined(SpecError, TypeError):
    """The spec defines no result for this input."""
