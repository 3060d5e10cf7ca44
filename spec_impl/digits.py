"""One guard for integers read from untrusted text: the digits are counted before `int()`.

Python's `int()` refuses strings of more than 4,300 digits with a ValueError, and a long string
costs quadratic time before that; every reader of a number written as text (JSON documents, type
parameters, years, table properties) goes through `bounded_int`, which refuses a number with more
digits than any valid value of its field under the rule that field belongs to.
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput


def bounded_int(text: str, max_digits: int, rule: str, what: str, value: Any = None) -> int:
    """`int(text)` for a decimal integer (an optional sign, then digits), refused under `rule` when
    it has more than `max_digits` digits (leading zeros not counted); `value` is the offending
    value the error names (default: the text, shortened)."""
    sign = "-" if text.startswith("-") else ""
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > max_digits:
        shown = value if value is not None else (text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)")
        raise InvalidInput(rule, f"{what} has {len(digits)} digits, more than any valid value ({max_digits})", shown)
    return int(sign + (digits or "0"))  # leading zeros dropped: int() counts them against its 4,300-digit limit
