"""Loading the golden value vectors (vectors/values/*.json) for the conformance suite."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

VALUES_DIR = Path(__file__).resolve().parents[1] / "vectors" / "values"


@lru_cache(maxsize=None)
def load_families(directory: Path = VALUES_DIR) -> dict[str, list[dict[str, Any]]]:
    """family name -> its cases, in file order."""
    families = {}
    for path in sorted(directory.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "cases" in doc:
            families[doc["family"]] = doc["cases"]
    if not families:
        raise FileNotFoundError(f"no value vectors in {directory}: run `iceberg-vectors generate`")
    return families
