"""Manifests and manifest lists: their Avro schemas per format version (`avro_schemas`), Avro files
(`avro_files`), inheritance of entry metadata (`inheritance`), reading a snapshot's tree (`tree`),
writing trees (`writer`), the metadata-tree validator (`validate`) and the history validator
(`history`: rules over consecutive snapshots). Importing this package
registers its rules."""

from spec_impl.manifests import avro_files, avro_schemas, inheritance, tree, validate, writer  # noqa: F401
