"""Bounds, counts, partition summaries and tuples, row evaluation, metrics pruning and predicate
projection and equality deletes over every primitive type, at its negative, zero, extreme, null, NaN and empty values
(the rule × type table, `spec_impl/vectors/type_table.py`).

Each edge value stands beside an ordinary value of its type where the rule needs two (a column's
bounds, a file to prune); a predicate on it is `eq` (and `lt` for ordered types), `is-null` for the
null and `is-nan` for the NaN. A float or double column cannot be an equality delete column: its
cases are rejections.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spec_impl import revisions, transforms
from spec_impl.errors import SpecError
from spec_impl.vectors.cases import CaseSpec, case
from spec_impl.vectors.families._type_edges import ORDINARY, edges, slug
from spec_impl.vectors.families.predicate_projection import truth_on_rows, v3_only
from spec_impl.ops.registry import run

NAME = "type-edges-planning"
DESCRIPTION = (
    "Manifests and Scan Planning over every primitive type, at its negative, zero, extreme, null, NaN and "
    "empty values: bounds and counts, partition summaries and tuples, row evaluation, pruning, projection"
)

_ORDERED = ("int", "long", "float", "double", "decimal", "date", "time", "timestamp")
PROJECTED = ("identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour")


def _schema(t: str) -> dict[str, Any]:
    return {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": t}]}


def _predicates(t: str, kind: str, value: Any) -> list[tuple[str, dict[str, Any]]]:
    if kind == "null":
        return [("is-null", {"term": "x", "type": "is-null"})]
    if kind == "nan":
        return [("is-nan", {"term": "x", "type": "is-nan"})]
    out = [("eq", {"term": "x", "type": "eq", "value": value})]
    if t.startswith(_ORDERED):
        out.append(("lt", {"term": "x", "type": "lt", "value": value}))
    return out


def _by_kind(kind: str, null: str, nan: str, other: str) -> str:
    return {"null": null, "nan": nan}.get(kind, other)


def specs():
    for t, kind, i, value in edges():
        name, pair = slug(t, kind, i), [value, ORDINARY[t]]
        yield case(
            _by_kind(kind, "metrics.null-value-count", "metrics.nan-value-count", "metrics.lower-bound"),
            f"metrics-{name}",
            f"counts and bounds of a {t} column of the {kind} value {value!r} and an ordinary one",
            "column-metrics",
            type=t,
            values=pair,
        )
        yield case(
            _by_kind(
                kind,
                "partition-summary.contains-null",
                "partition-summary.contains-nan",
                "partition-summary.lower-bound",
            ),
            f"summary-{name}",
            f"the partition summary of a {t} partition field with the {kind} value {value!r} and an ordinary one",
            "partition-summaries",
            types=[t],
            partitions=[[v] for v in pair],
            **v3_only(t),
        )
        yield case(
            "data-file.partition-tuple",
            f"tuple-{name}",
            f"the identity partition tuple of a row whose {t} column is the {kind} value {value!r}",
            "partition-tuple",
            schema=_schema(t),
            spec=[{"name": "p", "source": "x", "transform": "identity"}],
            rows=[{"x": value}],
            **v3_only(t),
        )
        yield from _pruning(t, kind, name, value, pair)
        yield case(
            "deletes.equality-columns" if t in ("float", "double") else "deletes.equality-rows",
            f"equality-delete-{name}",
            f"an equality delete of the {kind} {t} value {value!r} over rows of it, an ordinary value and null",
            "apply-equality-deletes",
            schema=_schema(t),
            equality_ids=[1],
            delete_rows=[{"x": value}],
            rows=[{"x": v} for v in (*pair, None)],
            **v3_only(t),
        )


def _pruning(t: str, kind: str, name: str, value: Any, pair: list[Any]):
    metrics = run("column-metrics", {"type": t, "values": pair}, revisions.V3_ADOPTED)
    metrics = {k: v for k, v in metrics.items() if v is not None}
    for op_name, predicate in _predicates(t, kind, value):
        yield case(
            "expression.evaluate",
            f"rows-{name}-{op_name}",
            f"{op_name} of the {kind} {t} value {value!r} over rows of it, an ordinary value and null",
            "evaluate-predicate",
            schema=_schema(t),
            predicate=predicate,
            rows=[{"x": v} for v in (*pair, None)],
            **v3_only(t),
        )
        for mode in ("inclusive", "strict"):
            yield case(
                f"file-pruning.{mode}-metrics",
                f"metrics-{name}-{op_name}-{mode}",
                f"{mode} metrics of a file of the {kind} {t} value {value!r} and an ordinary one, {op_name} that value",
                "evaluate-metrics",
                schema=_schema(t),
                metrics={"x": metrics},
                mode=mode,
                predicate=predicate,
                record_count=len(pair),
                **v3_only(t),
            )
            yield from _projections(t, kind, name, value, pair, op_name, predicate, mode)


def _projections(
    t: str, kind: str, name: str, value: Any, pair: list[Any], op_name: str, predicate: dict, mode: str
) -> Iterator[CaseSpec]:
    """As predicate-projection.json: an inclusive case holds the rows that match the predicate, a
    strict one those that do not, so the answer is forced (every row true, every row false)."""
    keep = mode == "inclusive"
    try:
        truth = truth_on_rows(t, predicate, [*pair, None])
    except SpecError:
        return
    rows = [{"x": v} for v, matches in zip([*pair, None], truth) if matches == keep]
    for transform in PROJECTED:
        if rows and transforms.accepts(transform, t, revisions.V3_ADOPTED):
            yield case(
                f"predicate-projection.{mode}",
                f"{transform.split('[')[0]}-{name}-{op_name}-{mode}",
                f"{mode} projection through {transform} of {op_name} the {kind} {t} value {value!r}: every row "
                f"{'matches' if keep else 'does not match'} the predicate",
                "project-predicate",
                schema=_schema(t),
                spec=[{"name": "p", "source": "x", "transform": transform}],
                mode=mode,
                predicate=predicate,
                rows=rows,
                **v3_only(t),
            )
