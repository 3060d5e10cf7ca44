"""Decimal inputs whose exponent differs from their type's scale, shared by the value families.

Spec: Primitive Types ("decimal(P,S) Fixed-point decimal; precision P, scale S. Scale is fixed"):
a decimal(10,2) value is a number with scale 2, so `1E+2`, `100`, `100.0` and `100.000` (as
`decimal.Decimal` / `java.math.BigDecimal` spell them) all stand for the one value 100.00, and
every operation (Appendix D bytes and JSON, the Appendix B hash, bucket, truncate, identity)
must give the result it gives for 100.00. A value that needs rounding to reach the scale
(`1.001`) or has more than P digits once scaled (`1E+9`) is not a value of the type (rule
value.decimal). The vector form is `{"decimal": "<text>"}` (`spec_impl/ops/encoding.py`).
"""

from __future__ import annotations

TYPE = "decimal(10,2)"

EQUIVALENT = (  # text, what: each is a decimal(10,2) value written with another exponent
    ("1E+2", "100 in scientific notation: exponent +2, scale 2"),
    ("100", "100 with exponent 0"),
    ("100.0", "100 with one fraction digit"),
    ("100.000", "100 with three fraction digits (trailing zeros only)"),
    ("-1.5", "-1.50 with one fraction digit"),
    ("-25E-1", "-2.50 as -25E-1"),
    ("0E+5", "zero with exponent +5"),
    ("0E-7", "zero with exponent -7"),
    ("99999999.99000", "the largest decimal(10,2) value with extra zeros"),
)
REJECTED = (  # text, what: not a decimal(10,2) value (rule value.decimal)
    ("1.001", "needs rounding to reach scale 2"),
    ("1E+9", "1000000000.00 has 12 digits, more than precision 10"),
    ("1.2345678901E+8", "123456789.01 needs 11 digits"),
)


def form(text: str) -> dict:
    return {"decimal": text}
