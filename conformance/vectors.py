"""Loading the golden vectors (every set under vectors/) for the conformance suite."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

VECTORS_DIR = Path(__file__).resolve().parents[1] / "vectors"


@lru_cache(maxsize=None)
def load_families(root: Path = VECTORS_DIR) -> dict[str, list[dict[str, Any]]]:
    """family name -> its cases, in file order, from every set directory under `root`."""
    families = {}
    for path in sorted(root.glob("*/*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "cases" in doc:
            families[doc["family"]] = doc["cases"]
    if not families:
        raise FileNotFoundError(f"no vectors under {root}: run `iceberg-vectors generate`")
    return families
