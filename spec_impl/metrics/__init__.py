"""What metadata claims about data: column metrics of a data file (`column_metrics`), manifest-list
partition summaries (`summaries`), a file's partition tuple from its rows (`partition_values`) and
its record_count and file_size_in_bytes (`file_counts`), each computed from the data and checked
against claimed metadata; and whether a manifest's file counts let a reader skip it (`manifest_counts`)."""

from spec_impl.metrics import column_metrics, file_counts, manifest_counts, partition_values, summaries  # noqa: F401  (registers their rules)
