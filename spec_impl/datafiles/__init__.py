"""Data files checked against Appendix A (format-specific requirements): the Parquet rules
(`parquet_rules`), the known fields of the schema a file was written with (`known_fields`), the
physical schema they read (`parquet_schema`) and their pass over a table's live files
(`table_files`)."""

from spec_impl.datafiles import known_fields, parquet_rules  # noqa: F401  (registers the rules)
