"""Manifests and manifest lists: their Avro schemas per format version, and reading with version
defaults and inheritance (the metadata-tree validator is to come). Importing this package
registers its rules."""

from spec_impl.manifests import avro_schemas, inheritance  # noqa: F401
