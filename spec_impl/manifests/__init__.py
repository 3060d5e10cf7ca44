"""Manifests and manifest lists: their Avro schemas per format version (`avro_schemas`), Avro files
(`avro_files`), inheritance of entry metadata (`inheritance`), reading a snapshot's tree (`tree`),
writing trees (`writer`) and the metadata-tree validator (`validate`). Importing this package
registers its rules."""

from spec_impl.manifests import avro_files, avro_schemas, inheritance, tree, validate, writer  # noqa: F401
