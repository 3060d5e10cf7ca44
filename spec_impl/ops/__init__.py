"""The case contract: every op a vector case names, computed by the reference (`registry`), and
the vectors' value codec (`encoding`), below the generator (`spec_impl.vectors`) and beside
nothing of it. The suite and the reference engine import this package; judging loads vector files
through `regeneration.recover`, and golden tables through `golden_tables`.

| module             | ops                                                                 |
|--------------------|---------------------------------------------------------------------|
| `value_ops`        | types, promotion, hashes, transforms, binary and JSON single values |
| `metadata_ops`     | table and view metadata, schemas, specs, evolution, manifests       |
| `planning_ops`     | predicates, pruning, deletes, metrics (listed through metadata_ops) |
| `content_file_ops` | content files in JSON (listed through metadata_ops)                 |
| `file_ops`         | Avro, Parquet, Puffin, manifest trees, golden tables, v4 trees      |
"""
