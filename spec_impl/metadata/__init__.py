"""Metadata rules of the table spec: schemas, partition specs, sort orders, snapshots and refs,
retention, table metadata and view metadata. Each module registers its rule ids with
`spec_impl.rules.register` when imported."""
