"""Column metrics of a data file from its values, bound truncation, and a checker of claimed metrics.

Spec: "Manifests" (data_file fields 109 value_counts, 110 null_value_counts, 137 nan_value_counts,
125 lower_bounds, 128 upper_bounds, and their notes [1] and [2]); Appendix D for the bound bytes.

- `value_counts`: the number of values in the column "including null and NaN values"
  (rule metrics.value-count);
- `null_value_counts`: the number of nulls (metrics.null-value-count);
- `nan_value_counts`: the number of NaNs (metrics.nan-value-count); only float and double have
  NaNs, so the reference writes it for those types only, and a count claimed for another type must
  be 0;
- `lower_bounds` / `upper_bounds`: a value "less than or equal to" (greater than or equal to) "all
  non-null, non-NaN values in the column" (metrics.lower-bound, metrics.upper-bound), compared in
  the type's order: floats by IEEE 754 totalOrder, -0.0 before +0.0 (note 2; rule
  metrics.bound.signed-zero names the case where only the zero's sign is wrong), strings by code
  point, binary and fixed by unsigned bytes, uuids as unsigned 128-bit numbers. "NaNs are not
  permitted as lower or upper bounds" (metrics.bound.nan). Bounds are Appendix D bytes of the
  column's type (metrics.bound.encoding: a string bound must be valid UTF-8, a fixed[L] bound L
  bytes, an int bound 4 bytes, ...).

Bound truncation (rule metrics.bound.truncation). The spec has no truncation rule of its own; it
follows from the two inequalities above, and this is the rule the reference states and enforces:

    A lower bound may be any valid value <= the column's minimum; an upper bound any valid value
    >= its maximum. For strings and binary a writer truncates to L code points (strings) or bytes
    (binary): the lower bound is the minimum's prefix of length L; the upper bound is the maximum's
    prefix of length L with its last code point (byte) that can be incremented incremented by one
    and everything after it dropped, skipping the surrogate range (U+D7FF + 1 is U+E000, since
    surrogates have no UTF-8 form) and never past U+10FFFF (byte 0xFF); when no code point (byte)
    of the prefix can be incremented there is no upper bound (it is omitted). A string bound is
    cut at code points, never inside a UTF-8 sequence. An upper bound that is a shorter prefix of
    the maximum (truncated but not incremented) is below the maximum and is rejected.

With no non-null, non-NaN value the inequalities hold for any bound (the reference writes none and
accepts any valid one). Fixed values are never truncated: their Appendix D form has exactly L bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

from spec_impl import revisions
from spec_impl.errors import InvalidInput, SpecError
from spec_impl.expressions.predicates import FLOATING, compare
from spec_impl.metadata.partitioning import Finding
from spec_impl.rules import Rule, register, implements
from spec_impl.serde.binary import from_binary, to_binary
from spec_impl.types import IcebergType
from spec_impl.values import is_nan, normalize

_DF = "Manifests: data_file fields"
register(
    Rule("metrics.value-count", _DF, "value_counts: the number of values in the column, including null and NaN values"),
    Rule("metrics.null-value-count", _DF, "null_value_counts: the number of null values in the column"),
    Rule(
        "metrics.nan-value-count",
        _DF,
        "nan_value_counts: the number of NaN values in the column (0 for types without NaN)",
    ),
    Rule(
        "metrics.lower-bound",
        _DF,
        "lower_bounds: less than or equal to all non-null, non-NaN values of the column, in the type's order",
    ),
    Rule(
        "metrics.upper-bound",
        _DF,
        "upper_bounds: greater than or equal to all non-null, non-NaN values of the column, in the type's order",
    ),
    Rule("metrics.bound.nan", _DF + " (note 2)", "NaNs are not permitted as lower or upper bounds"),
    Rule(
        "metrics.bound.signed-zero",
        _DF + " (note 2)",
        "For float and double, -0.0 precedes +0.0 (IEEE 754 totalOrder): a lower bound +0.0 is wrong when -0.0 "
        "is a value, an upper bound -0.0 when +0.0 is",
    ),
    Rule(
        "metrics.bound.encoding",
        _DF + " (note 1); Appendix D",
        "Bounds are Appendix D binary single values of the column's type (a string bound is valid UTF-8)",
    ),
    Rule(
        "metrics.bound.truncation",
        _DF,
        "String and binary bounds may be truncated: the lower bound to a prefix of the minimum, the upper bound "
        "to a prefix of the maximum incremented at its last incrementable code point (skipping surrogates) or "
        "byte",
    ),
)

TRUNCATABLE = ("string", "binary")
_MAX_CODE_POINT = 0x10FFFF
_SURROGATES = (0xD800, 0xDFFF)


@dataclass(frozen=True)
class ColumnMetrics:
    """The metrics of one column of one file; None where the file does not carry the metric."""

    value_count: int | None = None
    null_value_count: int | None = None
    nan_value_count: int | None = None
    lower_bound: bytes | None = None
    upper_bound: bytes | None = None


def _type_name(t: IcebergType) -> str | None:
    return getattr(t, "name", None)


@implements("metrics.bound.truncation")
def truncate_lower(t: IcebergType, value: Any, length: int) -> Any:
    """The lower bound of `value` truncated to `length` code points or bytes: its prefix
    (rule metrics.bound.truncation)."""
    _check_truncatable(t, length)
    return value[:length]


@implements("metrics.bound.truncation")
def truncate_upper(t: IcebergType, value: Any, length: int) -> Any:
    """The upper bound of `value` truncated to `length` code points or bytes: the prefix with its
    last incrementable code point (byte) incremented; None when none can be (rule
    metrics.bound.truncation)."""
    _check_truncatable(t, length)
    if len(value) <= length:
        return value
    prefix = value[:length]
    for i in range(len(prefix) - 1, -1, -1):
        if _type_name(t) == "binary":
            if prefix[i] < 0xFF:
                return prefix[:i] + bytes([prefix[i] + 1])
            continue
        nxt = ord(prefix[i]) + 1
        if _SURROGATES[0] <= nxt <= _SURROGATES[1]:
            nxt = _SURROGATES[1] + 1
        if nxt <= _MAX_CODE_POINT:
            return prefix[:i] + chr(nxt)
    return None


@implements("metrics.bound.truncation")
def _check_truncatable(t: IcebergType, length: int) -> None:
    if _type_name(t) not in TRUNCATABLE:
        raise InvalidInput("metrics.bound.truncation", "only string and binary bounds may be truncated", str(t))
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise InvalidInput(
            "metrics.bound.truncation", "a truncation length is a positive number of code points or bytes", length
        )


def value_range(t: IcebergType, values: Sequence[Any]) -> tuple[Any, Any] | None:
    """(minimum, maximum) of the non-null, non-NaN values in the type's order; None if there are none."""
    present = [normalize(t, v) for v in values if v is not None and not is_nan(v)]
    if not present:
        return None
    low = high = present[0]
    for v in present[1:]:
        if compare(t, v, low) < 0:
            low = v
        if compare(t, v, high) > 0:
            high = v
    return low, high


@implements(
    "metrics.bound.truncation",
    "metrics.lower-bound",
    "metrics.nan-value-count",
    "metrics.null-value-count",
    "metrics.upper-bound",
    "metrics.value-count",
)
def column_metrics(t: IcebergType, values: Sequence[Any], truncate_length: int | None = None) -> ColumnMetrics:
    """The metrics a writer computes from a column's values (rules metrics.value-count,
    metrics.null-value-count, metrics.nan-value-count, metrics.lower-bound, metrics.upper-bound;
    metrics.bound.truncation when `truncate_length` is given for a string or binary column)."""
    nulls = sum(v is None for v in values)
    nans = sum(is_nan(v) for v in values) if _type_name(t) in FLOATING else None
    lower = upper = None
    found = value_range(t, values)
    if found is not None:
        lower, upper = found
        if truncate_length is not None and _type_name(t) in TRUNCATABLE:
            lower, upper = truncate_lower(t, lower, truncate_length), truncate_upper(t, upper, truncate_length)
    return ColumnMetrics(
        len(values),
        nulls,
        nans,
        None if lower is None else to_binary(t, lower),
        None if upper is None else to_binary(t, upper),
    )


@implements("metrics.bound.encoding")
def read_bound(t: IcebergType, data: bytes, revision: str = revisions.DEFAULT) -> Any:
    """A bound's value from its Appendix D bytes (rule metrics.bound.encoding)."""
    try:
        return from_binary(t, data, revision)
    except SpecError as e:
        raise InvalidInput(
            "metrics.bound.encoding", f"a {t} bound must be its Appendix D bytes ({e})", data.hex()
        ) from None


@implements("metrics.nan-value-count", "metrics.null-value-count", "metrics.value-count")
def check_column_metrics(
    t: IcebergType, values: Sequence[Any], claimed: ColumnMetrics, revision: str = revisions.DEFAULT
) -> list[Finding]:
    """What is wrong with metrics claimed for a column whose values are `values` (absent metrics
    are never wrong: every metric is optional)."""
    found: list[Finding] = []
    actual = column_metrics(t, values)
    for rule_id, key in (("metrics.value-count", "value_count"), ("metrics.null-value-count", "null_value_count")):
        if getattr(claimed, key) is not None and getattr(claimed, key) != getattr(actual, key):
            found.append(Finding(rule_id, f"{key} is {getattr(actual, key)}", getattr(claimed, key)))
    if claimed.nan_value_count is not None and claimed.nan_value_count != (actual.nan_value_count or 0):
        found.append(
            Finding(
                "metrics.nan-value-count", f"nan_value_count is {actual.nan_value_count or 0}", claimed.nan_value_count
            )
        )
    extremes = value_range(t, values)
    for side, data in (("lower", claimed.lower_bound), ("upper", claimed.upper_bound)):
        if data is not None:
            found += _check_bound(t, side, data, extremes, revision)
    return found


@implements(
    "metrics.bound.nan",
    "metrics.bound.signed-zero",
    "metrics.bound.truncation",
    "metrics.lower-bound",
    "metrics.upper-bound",
)
def _check_bound(t: IcebergType, side: str, data: bytes, extremes: tuple | None, revision: str) -> list[Finding]:
    try:
        bound = read_bound(t, data, revision)
    except InvalidInput as e:
        return [Finding(e.rule, str(e), data.hex())]
    if is_nan(bound):
        return [Finding("metrics.bound.nan", f"a NaN {side} bound", data.hex())]
    if extremes is None:
        return []
    extreme = extremes[0] if side == "lower" else extremes[1]
    c = compare(t, bound, extreme)
    if (side == "lower" and c <= 0) or (side == "upper" and c >= 0):
        return []
    if _type_name(t) in FLOATING and bound == 0.0 and extreme == 0.0:
        rule_id = "metrics.bound.signed-zero"
    elif side == "upper" and _type_name(t) in TRUNCATABLE and extreme[: len(bound)] == bound:
        rule_id = "metrics.bound.truncation"  # a prefix of the maximum that was not incremented
    else:
        rule_id = f"metrics.{side}-bound"
    relation = "above the minimum" if side == "lower" else "below the maximum"
    return [Finding(rule_id, f"the {side} bound {bound!r} is {relation} {extreme!r}", data.hex())]
