"""Where the project's data lives: the golden vectors beside the source in a checkout, inside the
installed package (`iceberg_conformance_vectors`, the wheel's copy of `vectors/`) otherwise.

Every reader of the vectors asks `vectors_dir()`, so the suite runs the same from a checkout, an
editable install and a wheel.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

VECTORS_PACKAGE = "iceberg_conformance_vectors"
CHECKOUT_VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def vectors_dir() -> Path:
    """The vectors directory: the checkout's when this source is a checkout's, else the installed copy."""
    if (CHECKOUT_VECTORS / "README.md").is_file():
        return CHECKOUT_VECTORS
    spec = importlib.util.find_spec(VECTORS_PACKAGE)  # a namespace package: a data directory, no __init__.py
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(location) / "README.md").is_file():
            return Path(location)
    raise FileNotFoundError(
        f"no vectors: neither {CHECKOUT_VECTORS} nor the package {VECTORS_PACKAGE} is here "
        "(install the project, or run from a checkout)"
    )


def is_checkout() -> bool:
    """Whether the vectors are a checkout's (where regeneration writes by default)."""
    return vectors_dir() == CHECKOUT_VECTORS
