"""What metadata claims about data: column metrics of a data file (`column_metrics`), manifest-list
partition summaries (`summaries`) and a file's partition tuple from its rows (`partition_values`),
each computed from the values and checked against claimed metadata."""

from spec_impl.metrics import column_metrics, partition_values, summaries  # noqa: F401  (registers their rules)
