"""The writer harness: hypothesis generates table histories, Iceberg Java writes them through
PySpark (or PyIceberg does, as a second writer), and after every step the table is checked against
the harness's own model of its rows, Spark's reads, the reference reader, the tree validator,
partition tuples recomputed from the data, and the other readers (PyIceberg, DuckDB, Polars).

Modules: `values` (types and value forms), `predicates` (generated predicates, SQL and truth),
`model` (the independent model), `strategies` (hypothesis strategies for histories), `writers` (the
writer interface), `spark_steps` (steps as Spark SQL and procedures), `pyiceberg_steps` (steps
through PyIceberg's API), `checks` (the comparisons), `runner` (one history), `harness`
(the session, known findings, search), `scenario` (replayable scenario files), `cli`
(`iceberg-writer-harness`).
"""
