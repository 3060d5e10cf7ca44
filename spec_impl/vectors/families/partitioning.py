"""Partition specs and sort orders: the Appendix C examples, the source-id / source-ids forms of each
format version and spec revision, validation against a schema, partition field ids (v1 positions
from 1000, reuse and last-partition-id on evolution), the partition tuple type, partition value
equality, and the orders a sort produces (the floating-point chain, directions, null orders)."""

from __future__ import annotations

from spec_impl.vectors.families import _partition_sources, _partition_specs, _partition_types, _sort_orders

NAME = "partitioning"
DESCRIPTION = "Partitioning, Partition Evolution, Sorting, Appendix C partition specs and sort orders"


def specs():
    yield from _partition_specs.specs()
    yield from _partition_sources.specs()
    yield from _partition_types.specs()
    yield from _sort_orders.specs()
