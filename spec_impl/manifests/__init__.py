"""Manifests and manifest lists: reading with version defaults and inheritance (more to come:
Avro schemas, the metadata-tree validator). Importing this package registers its rules."""

from spec_impl.manifests import inheritance  # noqa: F401
