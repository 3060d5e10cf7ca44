"""Writing and checking the golden vectors: deterministic bytes, atomic replacement.

Each set (`values`, `metadata`, ...) is one directory under `vectors/`: one JSON file per rule
family, the JSON Schema of those files, and `SHA256SUMS` (in `sha256sum -c` format) listing every
other file. Generation renders a set in memory, writes it to a fresh sibling directory, and swaps
the directories with renames, so an interrupted run leaves the previous set whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from spec_impl.vectors.cases import build_all
from spec_impl.vectors.families import SETS
from spec_impl.vectors.metadata_schemas import SCHEMA_FILES as METADATA_SCHEMA_FILES
from spec_impl.vectors.schema import CASE_FILE_SCHEMA

FORMAT_VERSION = 1
SCHEMA_NAME = "value-vectors.schema.json"
CHECKSUMS = "SHA256SUMS"


def dumps(obj) -> bytes:
    """Canonical JSON bytes: sorted keys, two-space indent, UTF-8, one trailing newline."""
    return (json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def render(set_name: str = "values", progress: Callable[[str], None] = lambda _: None, seen: set[str] | None = None) -> dict[str, bytes]:
    """Every file of one generated set, by name. `seen` collects case ids across sets (they must be unique)."""
    if set_name == "tables":  # whole tables, not case files (spec_impl/vectors/tables.py)
        from spec_impl.vectors import tables

        files = tables.render()
        progress(f"tables: {len(tables.all_ids())} tables ({len(tables.captured_ids())} captured from Spark), {len(files)} files")
        files[CHECKSUMS] = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())).encode()
        return files
    files: dict[str, bytes] = {SCHEMA_NAME: dumps(CASE_FILE_SCHEMA)}
    if set_name == "metadata":
        files.update({name: dumps(schema) for name, schema in METADATA_SCHEMA_FILES.items()})
    seen = set() if seen is None else seen
    for family in SETS[set_name]:
        cases = build_all(family.specs())
        clashes = seen & {c["id"] for c in cases}
        if clashes:
            raise ValueError(f"case ids of family {family.NAME} already used by another family: {sorted(clashes)}")
        seen |= {c["id"] for c in cases}
        progress(f"{family.NAME}: {len(cases)} cases")
        files[f"{family.NAME}.json"] = dumps({
            "$schema": f"./{SCHEMA_NAME}",
            "format": FORMAT_VERSION,
            "family": family.NAME,
            "description": family.DESCRIPTION,
            "cases": cases,
        })  # fmt: skip
    files[CHECKSUMS] = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())).encode()
    return files


def write(target: Path, files: dict[str, bytes]) -> None:
    """Replace the directory `target` by exactly `files`, atomically as seen by readers."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        for name, data in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_bytes(data)
        os.chmod(staging, 0o755)
        retired = target.parent / f".{target.name}.old-{os.getpid()}"
        if target.exists():
            os.rename(target, retired)
        os.rename(staging, target)
        shutil.rmtree(retired, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def differences(target: Path, files: dict[str, bytes]) -> list[str]:
    """What differs between the directory `target` and `files`: one line per file."""
    target = Path(target)
    present = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()} if target.is_dir() else set()
    out = [f"missing: {name}" for name in sorted(set(files) - present)]
    out += [f"not generated (stale): {name}" for name in sorted(present - set(files))]
    out += [f"differs: {name}" for name in sorted(set(files) & present) if (target / name).read_bytes() != files[name]]
    return out
