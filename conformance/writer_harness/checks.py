"""The checks made after every step of a history, each against the model.

1. `spark-rows`: the rows Spark returns for a snapshot, branch or tag equal the model's.
2. `reference-rows`: the reference reader (`spec_impl.scan.reader.read_table`) returns the model's
   rows; `row-lineage` (v3): its `_row_id` / `_last_updated_sequence_number` equal Spark's, row ids
   are unique, rows the commit inserted or updated carry the snapshot's sequence number, updated
   rows keep their row id, and untouched rows keep both (adopted v3 digest §1.4).
3. `validator`: the tree validator (`spec_impl.manifests.validate`) finds no violation.
4. `audit`: the data-level audit (`conformance.audit`) of every live file: its partition tuple
   recomputed from its rows ("the partition tuple ... must be the same for all rows in a data
   file"), its column metrics, record count and size, the manifest list's partition summaries,
   position delete files sorted and in range, deletion vector cardinality.
5. `reader:<engine>`: the other readers (`runner.OTHER_READERS`: PyIceberg, DuckDB, Polars, chDB,
   Daft, iceberg-rust), through their conformance adapters, return the model's rows. A snapshot an
   adapter declines for a stated limit of its own (iceberg-rust's table provider reads only the
   current snapshot of a metadata file, so no snapshot of a branch) is listed as declined in the
   outcome and the CLI's summary, not made a finding.

Each returns messages (empty when it holds); the runner makes findings of them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import values
from .model import Column

LINEAGE = ("_row_id", "_last_updated_sequence_number")


def compare_rows(
    columns: tuple[Column, ...] | list[Column], expected: list[tuple], names: list[str], rows: list[dict[str, Any]]
) -> str | None:
    """None when a reader's columns and rows (any order) equal the model's, else what differs."""
    want_names = [c.name for c in columns]
    if names != want_names:
        return f"columns {names}; the model has {want_names}"
    try:
        got = [tuple(values.from_reader(c.type, r.get(c.name)) for c in columns) for r in rows]
    except Exception as e:  # a value the reader returned in a form no type allows
        return f"a value of the reader has no {type(e).__name__}-free reading: {e}"
    key = lambda row: tuple(values.comparable(c.type, v) for c, v in zip(columns, row))  # noqa: E731
    want_count, got_count = Counter(map(key, expected)), Counter(map(key, got))
    if want_count == got_count:
        return None
    missing, extra = want_count - got_count, got_count - want_count
    first = lambda c: [_show_row(columns, r) for r in list(c.elements())[:3]]  # noqa: E731
    return (
        f"{len(got)} rows; the model has {len(expected)}: {sum(missing.values())} missing {first(missing)}, "
        f"{sum(extra.values())} unexpected {first(extra)}"
    )


def _show_row(columns: tuple[Column, ...] | list[Column], key: tuple) -> str:
    return "{" + ", ".join(f"{c.name}={v!r}"[:50] for c, v in zip(columns, key)) + "}"


def lineage_messages(
    rows: dict[int, tuple[int | None, int | None]],
    spark: dict[int, tuple[int | None, int | None]],
    sequence_number: int,
    parent: dict[int, tuple] | None,
    inserted: frozenset[int],
    updated: frozenset[int],
) -> list[str]:
    """Row lineage of one v3 snapshot, by row id (`rows`: the reference's, `spark`: Spark's)."""
    out = []
    if rows != spark:
        differ = sorted(i for i in rows.keys() | spark.keys() if rows.get(i) != spark.get(i))
        repeated = [r for r, n in Counter(r for r, _ in spark.values() if r is not None).items() if n > 1]
        out.append(
            f"the reference's (_row_id, _last_updated_sequence_number) differ from Spark's for ids {differ[:5]}: "
            f"{[(i, rows.get(i), spark.get(i)) for i in differ[:3]]}"
            + (f"; Spark's own _row_id values repeat: {sorted(repeated)[:5]}" if repeated else "")
        )
    row_ids = [r for r, _ in rows.values()]
    if None in row_ids:
        out.append(f"{row_ids.count(None)} rows without _row_id")
    dupes = [r for r, n in Counter(r for r in row_ids if r is not None).items() if n > 1]
    if dupes:
        out.append(f"_row_id values shared by several rows: {dupes[:5]}")
    if parent is None or any(v[0] is None for v in parent.values()):
        return out
    parent_ids = {v[0] for v in parent.values()}
    for i, (row_id, seq) in sorted(rows.items()):
        if i in inserted or i in updated:
            if seq != sequence_number:
                out.append(
                    f"id {i}, written by this commit, has _last_updated_sequence_number {seq}; "
                    f"the snapshot's is {sequence_number}"
                )
            if i in updated and i in parent and row_id != parent[i][0]:
                out.append(f"id {i} was updated and its _row_id changed from {parent[i][0]} to {row_id}")
            if i in inserted and i not in updated and row_id in parent_ids:
                out.append(f"id {i} was inserted with _row_id {row_id}, which the parent snapshot already used")
        elif i in parent and (row_id, seq) != parent[i]:
            out.append(f"id {i} was not touched, yet its lineage changed from {parent[i]} to {(row_id, seq)}")
        if len(out) > 6:
            break
    return out


def audit_messages(metadata_location: str, snapshot_id: int, seen: set[str]) -> list[str]:
    """Check 4 on a snapshot: the table audit (`conformance.audit`, the data-level rules of
    `spec_impl.metrics`) run in this process on the live files not audited before (`seen` collects
    their paths). Every finding is reported, recorded ones and recommendations (should rules)
    included: the harness's own known findings decide which are known, and at which level. Files
    are read only under the table's location (rule tree.file-location: the audit's plan bounds
    them)."""
    from conformance.audit.job import run_local
    from conformance.audit.plan import plan
    from spec_impl.manifests.locations import ContainedFiles
    from spec_impl.manifests.tree import LocalFiles

    planned = plan(ContainedFiles.for_table(LocalFiles(), metadata_location), metadata_location, snapshot_id)
    if planned is None:
        return []
    result = run_local(planned, seen)
    # recommendations too: the harness's own ledger labels a should rule's findings (level allowed)
    found = result.violations + [v for v, _ in result.known] + result.recommendations + result.errors
    return [f"[{v.rule}] {v.path.rsplit('/', 1)[-1]}: {v.message}" for v in found]
