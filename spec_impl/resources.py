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


def known_dir() -> Path:
    """The ledger of known deviations (`vectors/known/`): one file per engine under `engines/`, the
    audit's (`audit.json`) and the writer harness's (`writers.json`), and their schema."""
    return vectors_dir() / "known"


def known_engine_files() -> list[Path]:
    """The judge's ledger files, one per engine (`known/engines/<engine>.json`), sorted by name."""
    folder = known_dir() / "engines"
    return sorted(p for p in folder.iterdir() if p.suffix == ".json") if folder.is_dir() else []


def known_engine_file(engine: str) -> Path:
    """The judge's ledger file of one engine, named as the engine registry spells the engine."""
    return known_dir() / "engines" / (engine + ".json")


def audit_ledger_file() -> Path:
    """The known findings of the table audit."""
    return known_dir() / "audit.json"


def writers_ledger_file() -> Path:
    """The known findings of the writer harness."""
    return known_dir() / "writers.json"


def ledger_schema_file() -> Path:
    """The JSON Schema of the ledger files."""
    return known_dir() / "ledger.schema.json"


def schema_file(name: str) -> Path:
    """A JSON Schema shipped with the vectors (`vectors/schemas/<name>`): the engine protocol's and
    the spec-gaps report's."""
    return vectors_dir() / "schemas" / name
