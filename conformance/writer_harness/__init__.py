"""The writer harness: hypothesis generates table histories, Iceberg Java writes them through
PySpark (or PyIceberg does, as a second writer), and after every step the table is checked against
the harness's own model of its rows, Spark's reads, the reference reader, the tree validator,
partition tuples recomputed from the data, and the other readers (PyIceberg, DuckDB, Polars).

Modules: `values` (types and value forms), `predicates` (generated predicates, SQL and truth),
`model` (the independent model), `drawing` and `strategies` (hypothesis strategies for histories),
`steps` (the step table, with `step` and `step_*`: each op's arguments, and how it runs on the writer and the model),
`writer_base` (the writer interface, every step refused by default), `sql_writer` (what the SQL
writers share), `writers` (the registry of writers), `writers.spark`, `writers.pyiceberg`,
`writers.chdb`, `writers.duckdb` (the writers), `spark_wire` (Spark's reads, rows in wire form),
`checks` (the comparisons), `runner` (one history), `harness` (the session, known findings,
search), `scenario` (replayable scenario files), `cli` (`iceberg-writer-harness`).
"""
