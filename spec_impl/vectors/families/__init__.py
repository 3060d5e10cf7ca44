"""The rule families of the vectors: one module, and one golden file, per family, grouped in sets
(one generated directory under vectors/ per set)."""

from __future__ import annotations

from types import ModuleType

from spec_impl.vectors.families import binary, bucket, hashing, json, temporal, transform_rules, truncate, types

SETS: dict[str, tuple[ModuleType, ...]] = {
    "values": (types, hashing, bucket, truncate, temporal, transform_rules, binary, json),
}
