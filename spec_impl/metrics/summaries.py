"""Manifest-list partition field summaries from a manifest's partition tuples, and their checker.

Spec: "Manifest Lists" (field 507 `partitions`, the `field_summary` struct and its notes). One
summary per partition field of the manifest's spec, in spec order:

- `contains_null` (required): whether at least one partition value of the field is null
  (rule partition-summary.contains-null);
- `contains_nan` (optional): whether at least one is NaN (partition-summary.contains-nan); false for
  fields whose type has no NaN;
- `lower_bound` / `upper_bound` (optional): Appendix D bytes of the partition field's type, a lower
  (upper) bound "for the non-null, non-NaN values in the partition field, or null if all values are
  null or NaN" (partition-summary.lower-bound, partition-summary.upper-bound), in the type's order
  (floats in totalOrder);
- note 2 (partition-summary.signed-zero): "If -0.0 is a value of the partition field, the
  lower_bound must not be +0.0, and if +0.0 is a value of the partition field, the upper_bound must
  not be -0.0."

Reading taken here (stated, since the bounds are optional): a bound is null exactly when every
value is null or NaN, as the text says and as Iceberg Java's manifest evaluator relies on (it reads
a null lower bound as "only nulls and NaNs"). So the checker rejects a missing bound when the field
has a non-null, non-NaN value, and a present one when it has none. The reference writes exact
bounds (the partition values are already transformed; the spec allows no truncation here beyond
the inequalities, which the checker enforces). The list must have one summary per field
(partition-summary.fields).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.expressions.predicates import FLOATING, compare
from spec_impl.metadata.partitioning import Finding
from spec_impl.metrics.column_metrics import read_bound, value_range
from spec_impl.rules import Rule, register, implements
from spec_impl.serde.binary import to_binary
from spec_impl.types import IcebergType
from spec_impl.values import is_nan

_ML = "Manifest Lists: field_summary"
register(
    Rule(
        "partition-summary.fields",
        _ML,
        "partitions: one field_summary per partition field of the manifest's spec, in spec order",
    ),
    Rule(
        "partition-summary.contains-null",
        _ML,
        "contains_null: whether the manifest contains at least one partition with a null value for the field",
    ),
    Rule(
        "partition-summary.contains-nan",
        _ML,
        "contains_nan: whether the manifest contains at least one partition with a NaN value for the field",
    ),
    Rule(
        "partition-summary.lower-bound",
        _ML,
        "lower_bound: a lower bound (Appendix D) of the non-null, non-NaN values of the field, null if all "
        "values are null or NaN",
    ),
    Rule(
        "partition-summary.upper-bound",
        _ML,
        "upper_bound: an upper bound (Appendix D) of the non-null, non-NaN values of the field, null if all "
        "values are null or NaN",
    ),
    Rule(
        "partition-summary.signed-zero",
        _ML + " (note 2)",
        "If -0.0 is a value of the field the lower_bound must not be +0.0; if +0.0 is, the upper_bound must not "
        "be -0.0",
    ),
)


@dataclass(frozen=True)
class FieldSummary:
    """One `field_summary`; `contains_nan` None when absent (it is optional)."""

    contains_null: bool
    contains_nan: bool | None = None
    lower_bound: bytes | None = None
    upper_bound: bytes | None = None


def field_summary(t: IcebergType, values: Sequence[Any]) -> FieldSummary:
    """The summary of one partition field over the manifest's partition values of that field."""
    extremes = value_range(t, values)
    lower, upper = (None, None) if extremes is None else (to_binary(t, extremes[0]), to_binary(t, extremes[1]))
    return FieldSummary(any(v is None for v in values), any(is_nan(v) for v in values), lower, upper)


@implements("partition-summary.fields")
def partition_summaries(types: Sequence[IcebergType], tuples: Sequence[Sequence[Any]]) -> list[FieldSummary]:
    """The `partitions` list of a manifest whose entries have these partition tuples (values in
    spec order)."""
    for tup in tuples:
        if len(tup) != len(types):
            raise InvalidInput(
                "partition-summary.fields", f"a partition tuple must have {len(types)} values", list(tup)
            )
    return [field_summary(t, [tup[i] for tup in tuples]) for i, t in enumerate(types)]


@implements("partition-summary.contains-nan", "partition-summary.contains-null", "partition-summary.fields")
def check_partition_summaries(
    types: Sequence[IcebergType],
    tuples: Sequence[Sequence[Any]],
    claimed: Sequence[FieldSummary],
    revision: str = revisions.DEFAULT,
) -> list[Finding]:
    """What is wrong with the summaries a manifest-list row claims for a manifest with these tuples."""
    if len(claimed) != len(types):
        return [
            Finding(
                "partition-summary.fields", f"{len(types)} partition fields need {len(types)} summaries", len(claimed)
            )
        ]
    actual = partition_summaries(types, tuples)
    found: list[Finding] = []
    for i, (t, want, got) in enumerate(zip(types, actual, claimed)):
        if got.contains_null != want.contains_null:
            found.append(
                Finding(
                    "partition-summary.contains-null",
                    f"field {i}: contains_null is {want.contains_null}",
                    got.contains_null,
                )
            )
        if got.contains_nan is not None and got.contains_nan != want.contains_nan:
            found.append(
                Finding(
                    "partition-summary.contains-nan",
                    f"field {i}: contains_nan is {want.contains_nan}",
                    got.contains_nan,
                )
            )
        extremes = value_range(t, [tup[i] for tup in tuples])
        for side, data in (("lower", got.lower_bound), ("upper", got.upper_bound)):
            found += _check_bound(t, i, side, data, extremes, revision)
    return found


@implements("partition-summary.lower-bound", "partition-summary.signed-zero", "partition-summary.upper-bound")
def _check_bound(
    t: IcebergType, i: int, side: str, data: bytes | None, extremes: tuple | None, revision: str
) -> list[Finding]:
    rule_id = f"partition-summary.{side}-bound"
    if (data is None) != (extremes is None):
        what = (
            "missing although the field has non-null, non-NaN values"
            if data is None
            else "set although every value is null or NaN"
        )
        return [Finding(rule_id, f"field {i}: the {side} bound is {what}", None if data is None else data.hex())]
    if data is None:
        return []
    try:
        bound = read_bound(t, data, revision)
    except InvalidInput as e:
        return [Finding(rule_id, f"field {i}: {e}", data.hex())]
    if is_nan(bound):
        return [Finding(rule_id, f"field {i}: a NaN {side} bound", data.hex())]
    extreme = extremes[0] if side == "lower" else extremes[1]  # type: ignore[index]
    c = compare(t, bound, extreme)
    if (side == "lower" and c <= 0) or (side == "upper" and c >= 0):
        return []
    if getattr(t, "name", None) in FLOATING and bound == 0.0 and extreme == 0.0:
        rule_id = "partition-summary.signed-zero"
    return [
        Finding(
            rule_id,
            f"field {i}: the {side} bound {bound!r} is "
            f"{'above the minimum' if side == 'lower' else 'below the maximum'} {extreme!r}",
            data.hex(),
        )
    ]
