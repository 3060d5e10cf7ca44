"""`iceberg-audit`: what a table's metadata claims about its data, checked against the data.

Given a metadata location (and optionally a snapshot id or a ref), the audit checks every live data
file and delete file of the snapshot with the reference's rules (`spec_impl.metrics`,
`spec_impl.deletes`), as a PySpark job distributed over files:

- `plan`: on the driver, the table metadata, the snapshot and its manifest-list rows; in executors,
  one manifest at a time, its entries (with inheritance, `spec_impl.manifests.tree`), the
  manifest-list partition summaries checked against them, and one task per live file;
- `file_checks`: in executors, one file at a time: record_count and file_size_in_bytes, the
  partition tuple recomputed from the rows, the column metrics recomputed from the rows
  (`columns`), position delete order and range, deletion vector cardinality and range;
- `job`: the Spark job (manifests in parallel, then the file tasks spread over the executors with
  `mapPartitions`; only violations and per-partition counters come back to the driver);
- `job.add_history`: on the driver, every snapshot of the table against its parent (the history
  rules of `spec_impl.validate.history`, metadata only);
- `report`: the terminal summary, JSON and HTML; `cli`: the command line (`submit` for
  spark-submit); `known`: the recorded writer findings (`vectors/known/audit.json`).

The rules the audit applies that `spec_impl` had no id for are registered in `rules`.
"""
