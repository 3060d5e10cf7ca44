"""Type promotion: which primitive type changes schema evolution allows.

Spec: "Schema Evolution" (int to long, float to double, decimal precision widening) for every
format version; the adopted v3 adds `unknown` to any type and `date` to `timestamp` /
`timestamp_ns` (digest §1.1). The seed text has no v3 promotions.

The context-dependent restriction of the adopted spec (no promotion that changes the value of a
partition transform on the column, e.g. date to timestamp under `day`) needs the table's partition
specs and belongs to the schema-evolution validator, not to this table.
"""

from __future__ import annotations

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.rules import implements
from spec_impl.types import DecimalType, IcebergType, PrimitiveType

_BASE = {("int", "long"), ("float", "double")}
_V3_ADOPTED_DATE = {("date", "timestamp"), ("date", "timestamp_ns")}


@implements("type.promotion", "type.promotion.v3")
def promotion_rule(
    source: IcebergType, target: IcebergType, format_version: int, revision: str = revisions.DEFAULT
) -> str | None:
    """The rule id that allows promoting `source` to `target`, or None when it is not allowed.

    An unchanged type is not a promotion and returns None.
    """
    revisions.check(revision)
    if not (isinstance(source, PrimitiveType) and isinstance(target, PrimitiveType)) or source == target:
        return None
    if (source.name, target.name) in _BASE:
        return "type.promotion"
    if isinstance(source, DecimalType) and isinstance(target, DecimalType):
        widened = target.scale == source.scale and target.precision > source.precision
        return "type.promotion" if widened else None
    if format_version >= 3 and revisions.has(revision, revisions.V3_ADOPTED):
        if source.name == "unknown" or (source.name, target.name) in _V3_ADOPTED_DATE:
            return "type.promotion.v3"
    return None


def can_promote(
    source: IcebergType, target: IcebergType, format_version: int, revision: str = revisions.DEFAULT
) -> bool:
    """True when the spec allows evolving a column of type `source` to `target`."""
    return promotion_rule(source, target, format_version, revision) is not None


@implements("type.promotion", "type.promotion.v3")
def check_promotion(
    source: IcebergType, target: IcebergType, format_version: int, revision: str = revisions.DEFAULT
) -> str:
    """Return the allowing rule id, or raise InvalidInput naming the promotion table."""
    found = promotion_rule(source, target, format_version, revision)
    if found is None:
        rule_id = (
            "type.promotion.v3"
            if format_version >= 3 and revisions.has(revision, revisions.V3_ADOPTED)
            else "type.promotion"
        )
        raise InvalidInput(rule_id, f"cannot promote {source} to {target} in format v{format_version} ({revision})")
    return found
