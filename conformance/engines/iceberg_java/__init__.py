"""Iceberg Java value engine: Iceberg 1.10's own Java classes behind a JSON-lines protocol.

``engine_command()`` returns the argv that starts the engine, building it into
the cache first if needed; see README.md.
"""

from typing import Any

__all__ = ["BuildError", "engine_command", "ensure_built"]


def __getattr__(name: str) -> Any:
    # Imported lazily so that ``python -m conformance.engines.iceberg_java.build``
    # does not import the build module twice.
    if name in __all__:
        from . import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
