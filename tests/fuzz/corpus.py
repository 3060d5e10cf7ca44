"""The corpus of reproducers: `corpus/<family>/<hash>.{json,bin}`, one per escape found, kept
forever as regression tests (`test_corpus.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import codec

CORPUS = Path(__file__).resolve().parent / "corpus"


def save(family: str, value: Any) -> Path:
    data, ext = codec.encode(value)
    path = CORPUS / family / f"{codec.digest(value)}.{ext}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def entries() -> list[tuple[str, Path]]:
    """(family, file) of every reproducer, sorted."""
    return [(p.parent.name, p) for p in sorted(CORPUS.glob("*/*")) if p.suffix in (".json", ".bin")]


def load(path: Path) -> tuple[bytes, str]:
    return path.read_bytes(), path.suffix[1:]
