"""Validating a whole table, the top of the reference: the command-line validator (`cli`,
`iceberg-validate-table`), the history validator over consecutive snapshots (`history` and its
checks `history_rows`, `history_deletes`, `history_writes`, `history_metadata`, `history_pairs`),
statistics and partition-statistics files (`statistics_files`, `partition_counts`) and the progress
lines of long runs (`progress`). They read every lower package; nothing below imports them."""
