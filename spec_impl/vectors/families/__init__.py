"""The rule families of the value vectors: one module, and one golden file, per family."""

from __future__ import annotations

from types import ModuleType

from spec_impl.vectors.families import binary, bucket, hashing, json, temporal, transform_rules, truncate, types

FAMILIES: tuple[ModuleType, ...] = (types, hashing, bucket, truncate, temporal, transform_rules, binary, json)
