"""Reading table data: the reference table reader and its building blocks.

- `arrow_values`: the bridge between Arrow/Parquet and the physical value model (Iceberg schema
  <-> Arrow schema with Parquet field ids, Arrow tables <-> records, Parquet bytes).
- `avro_data`, `orc_data`: Avro and ORC data and delete files (Appendix A) as records;
  `data_files` reads a file in the format its manifest entry names.
- `reader`: table metadata and a snapshot to the rows a correct reader returns.
- `table_writer`: writing whole tables (data, delete files, DVs, metadata) for the golden corpus.

Importing the package registers the rules of its modules.
"""

from spec_impl.scan import (  # noqa: F401  (registers their rules)
    arrow_values,
    avro_data,
    data_files,
    orc_data,
    reader,
    table_writer,
    write_defaults,
)
