"""Inclusive and strict projection of scan predicates through partition transforms.

Spec: "Scan Planning". A scan predicate on source columns becomes a predicate on partition values:

- inclusive (rule predicate-projection.inclusive): "if a scan predicate matches a row, then the
  partition predicate must match that row's partition", i.e. `pred(v) => proj(transform(v))`;
- strict (rule predicate-projection.strict, note 1): the partition predicate "will match a file if
  all of the rows in the file must match the scan predicate", i.e. `proj(transform(v)) => pred(v)`.

Row truth is that of `expressions.predicates` (null and NaN match no ordering leaf, `not` pushed to
the leaves first). The projections, per transform (W the width, T the transform, a the literal):

- identity: inclusive: the same predicate on the partition field; strict: the same
- void, unknown (adopted 1.3: "their inclusive projection is true"): inclusive: true; strict: false
- any but identity/void: inclusive: is-null / not-null as is; strict: as is
- bucket[N]: inclusive: eq, in: `p = T(a)`, `p in T(as)`; others true; strict: not-eq, not-in: `p != T(a)`, `p not-in
  T(as)`; others false
- truncate, year, month, day, hour (order-preserving): inclusive: eq, in as bucket; `x < a`: `p <= T(a - 1)`, `x <= a`:
  `p <= T(a)`, `x > a`: `p >= T(a + 1)`, `x >= a`: `p >= T(a)`; not-eq, not-in true; strict: not-eq, not-in as bucket;
  `x < a`: `p < T(a)`, `x <= a`: `p < T(a + 1)`, `x > a`: `p > T(a)`, `x >= a`: `p > T(a - 1)`; eq, in false
- truncate[W] of strings: inclusive: starts-with P: `p starts-with P[:W]`; not-starts-with P: `p not-starts-with P` when
  len(P) <= W, else true; strict: starts-with P: `p starts-with P` when len(P) <= W, else false; not-starts-with P: `p
  not-starts-with P[:W]`

`a - 1` and `a + 1` are the adjacent values of discrete types (int, long, decimal by one unit of
its scale, date, time and timestamps by one tick); strings and binary have none, so `T(a)` is used
(still inclusive, since truncation is monotone). When `a - 1` or `a + 1` leaves the type, `x < a` /
`x > a` match no row (inclusive: false) and `x <= a` / `x >= a` every non-null row (strict:
`p not-null`). When `T` of a boundary overflows its result type (`transform.overflow`), the leaf
projects to true (inclusive) or false (strict), which is always allowed.

A partition spec with several fields on one source column projects each leaf through every such
field: inclusive projections are combined with `and`, strict ones with `or` (each is a valid
projection on its own). Leaves on columns without a partition field project to true / false.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Sequence

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.expressions.predicates import FALSE, TRUE, Const, Expr, Pred, and_, or_, rewrite_not, And, Or
from spec_impl.rules import Rule, register, implements
from spec_impl.transforms import Transform, apply_transform, parse_transform
from spec_impl.types import IcebergType
from spec_impl.values import decimal_from_unscaled, normalize, unscaled_value

_SCAN = "Scan Planning"
register(
    Rule(
        "predicate-projection.inclusive",
        _SCAN,
        "Inclusive projection: if a scan predicate matches a row, the partition predicate matches that row's "
        "partition: pred(v) => proj(transform(v))",
    ),
    Rule(
        "predicate-projection.strict",
        _SCAN + " (note 1)",
        "Strict projection: the partition predicate matches a partition only if every row with that "
        "partition matches the scan predicate: proj(transform(v)) => pred(v)",
    ),
)

INCLUSIVE, STRICT = "inclusive", "strict"
MODES = (INCLUSIVE, STRICT)
_ORDERED = ("truncate", "year", "month", "day", "hour")
_DISCRETE = ("int", "long", "date", "time", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns")


@dataclass(frozen=True)
class PartitionField:
    """One field of a partition spec, by names: `name` of the partition field, `source` column."""

    name: str
    source: str
    transform: Transform

    @classmethod
    def of(cls, name: str, source: str, transform: str | Transform) -> PartitionField:
        return cls(name, source, transform if isinstance(transform, Transform) else parse_transform(transform))


@implements("predicate-projection.inclusive", "predicate-projection.strict")
def project(
    e: Expr,
    fields: Sequence[PartitionField],
    types: dict[str, IcebergType],
    mode: str,
    revision: str = revisions.DEFAULT,
) -> Expr:
    """The inclusive or strict projection of a bound expression onto the partition fields
    (rules predicate-projection.inclusive and predicate-projection.strict)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    return _project(rewrite_not(e), fields, types, mode == INCLUSIVE, revision)


def _project(e: Expr, fields: Sequence[PartitionField], types: dict, inclusive: bool, revision: str) -> Expr:
    if isinstance(e, Const):
        return e
    if isinstance(e, (And, Or)):
        combine = and_ if isinstance(e, And) else or_
        return combine(
            _project(e.left, fields, types, inclusive, revision), _project(e.right, fields, types, inclusive, revision)
        )
    assert isinstance(e, Pred)
    out: Expr = TRUE if inclusive else FALSE
    for f in fields:
        if f.source == e.term:
            leaf = project_leaf(e, types[e.term], f.transform, f.name, inclusive, revision)
            out = and_(out, leaf) if inclusive else or_(out, leaf)
    return out


@implements("transform.overflow")
def project_leaf(
    p: Pred, source: IcebergType, t: Transform, field: str, inclusive: bool, revision: str = revisions.DEFAULT
) -> Expr:
    """The projection of one bound leaf through one transform (see the module table)."""
    none = TRUE if inclusive else FALSE
    name, op = t.name, p.op
    if name is None or name == "void":
        return none
    if name == "identity":
        return Pred(op, field, p.literals)
    if op in ("is-null", "not-null"):
        return Pred(op, field)
    try:
        if name == "bucket":
            return _unordered(p, source, t, field, inclusive, revision) or none
        if name == "truncate" and op in ("starts-with", "not-starts-with"):
            return _prefix(p, t.param, field, inclusive)  # type: ignore[arg-type]
        if name in _ORDERED:
            return (
                _unordered(p, source, t, field, inclusive, revision)
                or _ordered(p, source, t, field, inclusive, revision)
                or none
            )
    except SpecError as e:
        if e.rule != "transform.overflow":
            raise
    return none


def _apply(t: Transform, source: IcebergType, revision: str) -> Callable[[Any], Any]:
    return lambda v: apply_transform(t, source, v, revision)


def _unordered(p: Pred, source: IcebergType, t: Transform, field: str, inclusive: bool, revision: str) -> Expr | None:
    """eq/in (inclusive) and not-eq/not-in (strict): the set of transformed literals."""
    wanted = ("eq", "in") if inclusive else ("not-eq", "not-in")
    if p.op not in wanted:
        return None
    f = _apply(t, source, revision)
    images = tuple(dict.fromkeys(f(v) for v in p.literals))
    if p.op in ("eq", "not-eq"):
        return Pred(p.op, field, images)
    return Pred(p.op, field, images) if images else (FALSE if inclusive else TRUE)


def _ordered(p: Pred, source: IcebergType, t: Transform, field: str, inclusive: bool, revision: str) -> Expr | None:
    """lt, lt-eq, gt, gt-eq through a monotone (order-preserving) transform."""
    if p.op not in ("lt", "lt-eq", "gt", "gt-eq"):
        return None
    f, a = _apply(t, source, revision), p.literal
    below = p.op in ("lt", "lt-eq")
    # the bound the projected comparison is taken at, and whether that bound is inclusive
    if inclusive:
        strict_side = p.op in ("lt", "gt")  # x < a: the rows go up to the value before a
        bound = _adjacent(source, a, -1 if below else 1) if strict_side else a
        if bound is _OUTSIDE:
            return FALSE  # x < MIN / x > MAX: no row matches
        return Pred("lt-eq" if below else "gt-eq", field, (f(bound),))
    closed_side = p.op in ("lt-eq", "gt-eq")  # x <= a: every partition below T(a + 1) matches
    bound = _adjacent(source, a, 1 if below else -1) if closed_side else a
    if bound is _OUTSIDE:
        return Pred("not-null", field)  # x <= MAX / x >= MIN: every non-null row matches
    return Pred("lt" if below else "gt", field, (f(bound),))


_OUTSIDE = object()


def _adjacent(source: IcebergType, a: Any, step: int) -> Any:
    """The value next to `a` in the discrete type `source`; `a` itself for strings and binary
    (no adjacent value; using `a` keeps the projection valid); _OUTSIDE past the type's range."""
    name = getattr(source, "name", None)
    try:
        if name in _DISCRETE:
            return normalize(source, a + step)
        if name == "decimal":
            return normalize(source, decimal_from_unscaled(unscaled_value(source, a) + step, source.scale))  # type: ignore[attr-defined]
    except SpecError:
        return _OUTSIDE
    return a


def _prefix(p: Pred, width: int, field: str, inclusive: bool) -> Expr:
    """starts-with / not-starts-with through truncate[W] of strings (W in code points)."""
    prefix = p.literal
    fits = len(prefix) <= width
    if p.op == "starts-with":
        if inclusive:
            return Pred("starts-with", field, (prefix[:width],))
        return Pred("starts-with", field, (prefix,)) if fits else FALSE
    if inclusive:
        return Pred("not-starts-with", field, (prefix,)) if fits else TRUE
    return Pred("not-starts-with", field, (prefix[:width],))
