"""Metadata rules of the table spec: schemas, partition specs, sort orders, snapshots and refs,
retention, table metadata and view metadata. Each module registers its rule ids with
`spec_impl.rules.register` when imported; importing this package registers them all."""

from spec_impl.metadata import (
    evolution,
    json_document,
    partitioning,
    projection,
    retention,
    schema,
    snapshots,
    sorting,  # noqa: F401
    table_metadata,
    versions,
    view_history,
    view_metadata,
)
