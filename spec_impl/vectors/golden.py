"""Rendering and checking the golden vectors: deterministic bytes for every generated set.

Each set (`values`, `metadata`, ...) is one directory under `vectors/`: one JSON file per rule
family, the JSON Schema of those files, and `SHA256SUMS` (in `sha256sum -c` format) listing every
other file.

The sets are replaced atomically, and a kill mid-way undone, by `spec_impl.ops.regeneration`
(its names are re-exported here for the readers that import them from this module).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from spec_impl.ops.golden_tables import built_by
from spec_impl.vectors import tables
from spec_impl.vectors.cases import build_all
from spec_impl.vectors.families import SETS
from spec_impl.vectors.metadata_schemas import SCHEMA_FILES as METADATA_SCHEMA_FILES
from spec_impl.ops.regeneration import (  # noqa: F401  (re-exported)
    JOURNAL,
    RETIRED,
    STAGING,
    SWAP_DELAY_ENV,
    differences,
    dumps,
    recover,
    write,
    write_sets,
)
from spec_impl.vectors.schema import CASE_FILE_SCHEMA, FORMAT_VERSION  # noqa: F401  (re-exported)

SCHEMA_NAME = "value-vectors.schema.json"
CHECKSUMS = "SHA256SUMS"


def render(
    set_name: str = "values", progress: Callable[[str], None] = lambda _: None, seen: set[str] | None = None
) -> dict[str, bytes]:
    """Every file of one generated set, by name. `seen` collects case ids across sets (they must be unique)."""
    if set_name == "tables":  # whole tables, not case files (spec_impl/vectors/tables.py)
        files = tables.render()
        progress(
            f"tables: {len(tables.all_ids())} tables ({len(tables.captured_ids())} captured from Spark), "
            f"{len(files)} files"
        )
        files[CHECKSUMS] = "".join(
            f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())
        ).encode()
        return files
    files: dict[str, bytes] = {SCHEMA_NAME: dumps(CASE_FILE_SCHEMA)}
    if set_name == "metadata":
        files.update({name: dumps(schema) for name, schema in METADATA_SCHEMA_FILES.items()})
    seen = set() if seen is None else seen
    for family in SETS[set_name]:
        with built_by(tables.table_files):  # the golden tables as this run builds them, not as on disk
            cases = build_all(family.specs())
        clashes = seen & {c["id"] for c in cases}
        if clashes:
            raise ValueError(f"case ids of family {family.NAME} already used by another family: {sorted(clashes)}")
        seen |= {c["id"] for c in cases}
        progress(f"{family.NAME}: {len(cases)} cases")
        files[f"{family.NAME}.json"] = dumps(
            {
                "$schema": f"./{SCHEMA_NAME}",
                "format": FORMAT_VERSION,
                "family": family.NAME,
                "description": family.DESCRIPTION,
                "cases": cases,
            }
        )
    files[CHECKSUMS] = "".join(
        f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())
    ).encode()
    return files
