"""File pruning with column metrics and manifest pruning with partition summaries.

Spec: "Scan Planning": "Scan predicates are also used to filter data and delete files using column
bounds and counts"; "Manifests that contain no matching files, determined using either file counts
or partition summaries, may be skipped"; "Data files that match the query filter must be read".

- `might_match` (rule file-pruning.inclusive-metrics): false only when no row that the metrics
  allow can match: a file may then be skipped;
- `must_match` (rule file-pruning.strict-metrics): true only when every row that the metrics allow
  matches (residual-free files, deletes of whole files);
- `manifest_might_match` (rule file-pruning.manifest-summaries): false only when no partition tuple
  that the summaries allow can match a predicate on partition fields.

Row truth is that of `expressions.predicates`. Every metric may be missing (then nothing is known
of it), bounds may be truncated (they are only inequalities: `lower <= v <= upper` for every
non-null, non-NaN value v), and a NaN bound, which the spec forbids but some writers produce, is
treated as missing. Value counts of the flat columns here equal the record count when absent.
A file without rows matches nothing and every row of it matches. Both evaluators reduce a column's
metrics, or a field's summary, to what is known (`Known`), and `not` is pushed to the leaves first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from spec_impl import revisions
from spec_impl.expressions.predicates import FLOATING, Const, Expr, Pred, compare, rewrite_not, And
from spec_impl.metrics.column_metrics import ColumnMetrics, read_bound
from spec_impl.metrics.summaries import FieldSummary
from spec_impl.rules import Rule, register, implements
from spec_impl.types import IcebergType
from spec_impl.values import is_nan

_SCAN = "Scan Planning"
register(
    Rule(
        "file-pruning.inclusive-metrics",
        _SCAN,
        "A data or delete file may be skipped only when its column bounds and counts show that no row can match "
        "the scan predicate",
    ),
    Rule(
        "file-pruning.strict-metrics",
        _SCAN,
        "A file's rows all match the scan predicate only when its column bounds and counts show it (strict "
        "metrics evaluation)",
    ),
    Rule(
        "file-pruning.manifest-summaries",
        _SCAN + "; Manifest Lists: field_summary",
        "A manifest may be skipped only when its partition summaries show that no partition tuple in it can "
        "match the partition predicate",
    ),
)

_NEGATIVE = ("not-eq", "not-in", "not-starts-with")  # the leaves that null and NaN values match


@dataclass(frozen=True)
class Known:
    """What the metrics of one column (or the summary of one partition field) establish."""

    may_null: bool  # a null may be present
    may_nan: bool  # a NaN may be present
    may_value: bool  # a non-null, non-NaN value may be present
    lower: Any = None  # bounds of the non-null, non-NaN values, None when unknown
    upper: Any = None

    @property
    def only_null(self) -> bool:
        return not (self.may_nan or self.may_value)

    @property
    def only_nan(self) -> bool:
        return not (self.may_null or self.may_value)


def _bound(t: IcebergType, data: bytes | None, revision: str) -> Any:
    value = None if data is None else read_bound(t, data, revision)
    return None if is_nan(value) else value


def known_from_metrics(
    t: IcebergType, m: ColumnMetrics | None, record_count: int, revision: str = revisions.DEFAULT
) -> Known:
    """What a column's metrics establish (each metric may be missing)."""
    m = m or ColumnMetrics()
    total = m.value_count if m.value_count is not None else record_count
    floating = getattr(t, "name", None) in FLOATING
    nulls, nans = m.null_value_count, (m.nan_value_count if floating else 0)
    may_value = nulls is None or nans is None or nulls + nans < total
    return Known(
        nulls is None or nulls > 0,
        nans is None or nans > 0,
        may_value,
        _bound(t, m.lower_bound, revision),
        _bound(t, m.upper_bound, revision),
    )


def known_from_summary(t: IcebergType, s: FieldSummary, revision: str = revisions.DEFAULT) -> Known:
    """What a partition field summary establishes; a null lower bound means only nulls and NaNs
    (see `metrics.summaries`)."""
    floating = getattr(t, "name", None) in FLOATING
    may_nan = floating and s.contains_nan is not False
    lower, upper = _bound(t, s.lower_bound, revision), _bound(t, s.upper_bound, revision)
    return Known(s.contains_null, may_nan, s.lower_bound is not None, lower, upper)


def inclusive_leaf(p: Pred, t: IcebergType, k: Known) -> bool:
    """Whether a row matching the leaf may exist under what is known."""
    op = p.op
    if op in ("is-null", "not-null", "is-nan", "not-nan"):
        return {"is-null": k.may_null, "not-null": not k.only_null, "is-nan": k.may_nan, "not-nan": not k.only_nan}[op]
    low, high = k.lower, k.upper
    if op in _NEGATIVE:
        if k.may_null or k.may_nan or not k.may_value:
            return True
        return not _all_rows_excluded(p, t, low, high)
    if not k.may_value:
        return False
    cmp = lambda a, b: compare(t, a, b)  # noqa: E731
    if op == "lt":
        return low is None or cmp(low, p.literal) < 0
    if op == "lt-eq":
        return low is None or cmp(low, p.literal) <= 0
    if op == "gt":
        return high is None or cmp(high, p.literal) > 0
    if op == "gt-eq":
        return high is None or cmp(high, p.literal) >= 0
    if op in ("eq", "in"):
        return any((low is None or cmp(low, a) <= 0) and (high is None or cmp(a, high) <= 0) for a in p.literals)
    return not _prefix_outside(p.literal, low, high)  # starts-with


def _prefix_outside(prefix: str, low: Any, high: Any) -> bool:
    """Whether no string between the bounds starts with `prefix` (a bound's first len(prefix) code
    points above / below the prefix excludes every value)."""
    n = len(prefix)
    return (low is not None and low[:n] > prefix) or (high is not None and high[:n] < prefix)


def _all_rows_excluded(p: Pred, t: IcebergType, low: Any, high: Any) -> bool:
    """For not-eq / not-in / not-starts-with over only non-null, non-NaN values: whether the bounds
    show that every value is excluded (equals the literal, lies in the set, starts with the prefix)."""
    if low is None or high is None:
        return False
    if p.op == "not-starts-with":
        return low.startswith(p.literal) and high.startswith(p.literal)
    return compare(t, low, high) == 0 and any(compare(t, low, a) == 0 for a in p.literals)


def strict_leaf(p: Pred, t: IcebergType, k: Known) -> bool:
    """Whether every row allowed by what is known matches the leaf."""
    op = p.op
    if op in ("is-null", "not-null", "is-nan", "not-nan"):
        return {"is-null": k.only_null, "not-null": not k.may_null, "is-nan": k.only_nan, "not-nan": not k.may_nan}[op]
    low, high = k.lower, k.upper
    if op in _NEGATIVE:
        if not k.may_value:
            return True  # only nulls and NaNs, which these leaves match
        if low is None or high is None:
            return False
        if op == "not-starts-with":
            return _prefix_outside(p.literal, low, high)
        return all(compare(t, a, low) < 0 or compare(t, a, high) > 0 for a in p.literals)
    if k.may_null or k.may_nan or low is None or high is None:
        return False
    cmp = lambda a, b: compare(t, a, b)  # noqa: E731
    if op == "lt":
        return cmp(high, p.literal) < 0
    if op == "lt-eq":
        return cmp(high, p.literal) <= 0
    if op == "gt":
        return cmp(low, p.literal) > 0
    if op == "gt-eq":
        return cmp(low, p.literal) >= 0
    if op in ("eq", "in"):
        return cmp(low, high) == 0 and any(cmp(low, a) == 0 for a in p.literals)
    return low.startswith(p.literal) and high.startswith(p.literal)  # starts-with


def _walk(e: Expr, leaf: Callable[[Pred], bool]) -> bool:
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Pred):
        return leaf(e)
    left, right = _walk(e.left, leaf), _walk(e.right, leaf)  # type: ignore[attr-defined]
    return (left and right) if isinstance(e, And) else (left or right)


@implements("file-pruning.inclusive-metrics")
def might_match(
    e: Expr,
    types: Mapping[str, IcebergType],
    record_count: int,
    metrics: Mapping[str, ColumnMetrics],
    revision: str = revisions.DEFAULT,
) -> bool:
    """Inclusive metrics evaluation of a bound expression (rule file-pruning.inclusive-metrics):
    False means the file holds no matching row and may be skipped."""
    if record_count == 0:
        return False
    return _walk(
        rewrite_not(e),
        lambda p: inclusive_leaf(
            p, types[p.term], known_from_metrics(types[p.term], metrics.get(p.term), record_count, revision)
        ),
    )


@implements("file-pruning.strict-metrics")
def must_match(
    e: Expr,
    types: Mapping[str, IcebergType],
    record_count: int,
    metrics: Mapping[str, ColumnMetrics],
    revision: str = revisions.DEFAULT,
) -> bool:
    """Strict metrics evaluation (rule file-pruning.strict-metrics): True means every row matches."""
    if record_count == 0:
        return True
    return _walk(
        rewrite_not(e),
        lambda p: strict_leaf(
            p, types[p.term], known_from_metrics(types[p.term], metrics.get(p.term), record_count, revision)
        ),
    )


@implements("file-pruning.manifest-summaries")
def manifest_might_match(
    e: Expr,
    fields: Sequence[tuple[str, IcebergType]],
    summaries: Sequence[FieldSummary] | None,
    revision: str = revisions.DEFAULT,
) -> bool:
    """Manifest evaluation of a bound expression on partition fields (name, type) over the
    manifest's summaries (rule file-pruning.manifest-summaries); None (no `partitions` list)
    proves nothing. False means the manifest holds no matching file and may be skipped."""
    if summaries is None:
        return True
    by_name = {name: (t, s) for (name, t), s in zip(fields, summaries)}
    return _walk(
        rewrite_not(e), lambda p: inclusive_leaf(p, by_name[p.term][0], known_from_summary(*by_name[p.term], revision))
    )
