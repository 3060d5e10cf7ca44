"""Reading table data: the reference table reader and its building blocks.

- `arrow_values`: the bridge between Arrow/Parquet and the physical value model (Iceberg schema
  <-> Arrow schema with Parquet field ids, Arrow tables <-> records, Parquet bytes).
- `reader`: table metadata and a snapshot to the rows a correct reader returns.
- `table_writer`: writing whole tables (data, delete files, DVs, metadata) for the golden corpus.

Importing the package registers the rules of its modules.
"""

from spec_impl.scan import arrow_values, reader, table_writer, write_defaults  # noqa: F401  (registers their rules)
