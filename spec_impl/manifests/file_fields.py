"""Checks of single data_file fields of a manifest entry against the table metadata: split_offsets,
sort_order_id and equality_ids. Each returns the findings of one data_file as (rule, message) pairs;
the tree validator (`spec_impl.manifests.validate`) reports them.

Spec: "Manifests" (the data_file field table: 132 split_offsets "Must be sorted ascending"; note 3
on 140 sort_order_id), "Sorting" ("the table must declare all the sort orders for lookup"),
"Equality Delete Files" ("Float and double columns cannot be used as delete columns").
"""

from __future__ import annotations

from typing import Any

from spec_impl.manifests.inheritance import DATA
from spec_impl.metadata.schema import walk
from spec_impl.metadata.table_metadata import TableMetadata
from spec_impl.rules import SHOULD, Rule, implements, register
from spec_impl.types import DOUBLE, FLOAT

POSITION_DELETES, EQUALITY_DELETES = 1, 2
register(
    Rule("tree.split-offsets", "Manifests", "split_offsets, when written, is sorted ascending"),
    Rule(
        "tree.sort-order-id",
        "Sorting",
        "A data or equality delete file's sort_order_id, when written, names a sort order the table declares in "
        "sort-orders",
    ),
    Rule(
        "tree.position-delete-sort-order",
        "Manifests",
        "A should: position delete files are written with a null sort_order_id (readers ignore it); a "
        "recommendation, reported apart from the violations",
        (2, 3),
        strength=SHOULD,
    ),
    Rule(
        "tree.equality-delete-columns",
        "Equality Delete Files",
        "equality_ids name no float or double column of the table's schemas",
        (2, 3),
    ),
)


@implements("tree.split-offsets")
def unsorted_split_offsets(offsets: Any) -> str | None:
    """Why `offsets` (a data file's split_offsets) is not sorted ascending, or None when it is (or
    is null). Shared by the v1-v3 tree validator and the v4 one."""
    if not isinstance(offsets, (list, tuple)):
        return None
    for a, b in zip(offsets, offsets[1:]):
        if isinstance(a, int) and isinstance(b, int) and b < a:
            return f"split_offsets {list(offsets)} are not sorted ascending ({b} after {a})"
    return None


@implements("tree.sort-order-id", "tree.position-delete-sort-order")
def sort_order_findings(df: dict, md: TableMetadata) -> list[tuple[str, str]]:
    """A position delete file should have a null sort_order_id (readers ignore it, so it is not
    looked up); another file's sort_order_id must name an order of sort-orders."""
    order_id = df.get("sort_order_id")
    if order_id is None:
        return []
    if df.get("content", DATA) == POSITION_DELETES:
        return [("tree.position-delete-sort-order", f"a position delete file has sort_order_id {order_id}")]
    if order_id not in {o.order_id for o in md.sort_orders}:
        declared = sorted(o.order_id for o in md.sort_orders)
        return [("tree.sort-order-id", f"sort_order_id {order_id} is not an order of sort-orders {declared}")]
    return []


@implements("tree.equality-delete-columns")
def float_equality_ids(df: dict, md: TableMetadata) -> list[tuple[str, str]]:
    """The equality_ids of an equality delete file that name a float or double column in any of
    the table's schemas."""
    ids = df.get("equality_ids")
    if df.get("content") != EQUALITY_DELETES or not isinstance(ids, list):
        return []
    floating = {info.id for schema in md.schemas for info in walk(schema.struct) if info.type in (FLOAT, DOUBLE)}
    return [
        ("tree.equality-delete-columns", f"equality_ids names the float or double column {field_id}")
        for field_id in ids
        if field_id in floating
    ]


def data_file_findings(df: dict, md: TableMetadata) -> list[tuple[str, str]]:
    """Every finding of this module for one data_file record."""
    found = sort_order_findings(df, md) + float_equality_ids(df, md)
    why = unsorted_split_offsets(df.get("split_offsets"))
    return found + ([("tree.split-offsets", why)] if why else [])
