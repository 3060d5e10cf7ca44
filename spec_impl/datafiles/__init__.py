"""Data files checked against Appendix A (format-specific requirements): the Parquet rules
(`parquet_rules`), the physical schema they read (`parquet_schema`) and their pass over a table's
live files (`table_files`)."""

from spec_impl.datafiles import parquet_rules  # noqa: F401  (registers the rules)
