"""Every transform and the Appendix B hash over every primitive type they take, at the type's edge
values: negative, zero, extreme, null, NaN and empty (the rule × type table,
`spec_impl/vectors/type_table.py`)."""

from __future__ import annotations

from spec_impl import revisions, transforms
from spec_impl.errors import SpecError
from spec_impl.hashing import rule_for as hash_rule
from spec_impl.types import parse_type
from spec_impl.vectors.cases import case
from spec_impl.vectors.families._type_edges import edges, slug

NAME = "type-edges"
DESCRIPTION = (
    "Partition Transforms and Appendix B over every source type, at its negative, zero, extreme, null, NaN "
    "and empty values"
)

TRANSFORMS = ("identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void")


def _hash_rule(type_text: str) -> str | None:
    try:
        return hash_rule(parse_type(type_text), revisions.V3_ADOPTED)
    except SpecError:
        return None


def specs():
    for transform in TRANSFORMS:
        name = transform.split("[")[0]
        for t, kind, i, value in edges():
            if not transforms.accepts(transform, t, revisions.V3_ADOPTED):
                continue
            rule = "transform.null" if value is None else transforms.rule_for(transform, t)
            yield case(
                rule,
                f"{name}-{slug(t, kind, i)}",
                f"{transform} of the {kind} {t} value {value!r}",
                "transform",
                transform=transform,
                type=t,
                value=value,
            )
    for t, kind, i, value in edges():
        rule = _hash_rule(t)
        if rule is not None and value is not None:  # Appendix B hashes values; a null is never hashed
            yield case(
                rule,
                f"hash-{slug(t, kind, i)}",
                f"the Appendix B hash of the {kind} {t} value {value!r}",
                "hash",
                type=t,
                value=value,
            )
