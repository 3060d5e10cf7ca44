"""Which engines exist: the built-in adapters by name, third-party ones by import path, and any
program that speaks the line protocol by its command line (`cmd:NAME=COMMAND ARGS`)."""

from __future__ import annotations

import importlib

BUILTIN: dict[str, str] = {
    "reference": "conformance.engines.reference.adapter:ReferenceEngine",
    "reference-seed": "conformance.engines.reference.adapter:SeedReferenceEngine",
    "iceberg-java": "conformance.engines.iceberg_java.engine:IcebergJavaEngine",
    "pyiceberg-core": "conformance.engines.pyiceberg_core.adapter:PyIcebergCoreEngine",
    "pyiceberg": "conformance.engines.pyiceberg.adapter:PyIcebergEngine",
    "duckdb": "conformance.engines.duckdb.adapter:DuckDBEngine",
    "polars": "conformance.engines.polars.adapter:PolarsEngine",
    "daft": "conformance.engines.daft.adapter:DaftEngine",
    "chdb": "conformance.engines.chdb.adapter:ChdbEngine",
    # Sail's own Rust Iceberg reader, behind a Spark Connect server on loopback.
    "sail": "conformance.engines.sail.adapter:SailEngine",
    # A JavaScript reader: a node program speaking the line protocol (engines/icebird/).
    "icebird": "conformance.engines.icebird.adapter:IcebirdEngine",
    # Native programs built from their own folder and lock file (engines/iceberg_go/, engines/iceberg_rust/).
    "iceberg-go": "conformance.engines.native_programs:IcebergGoEngine",
    "iceberg-rust": "conformance.engines.native_programs:IcebergRustEngine",
    # Iceberg Java reading whole tables through Spark; its session starts only while it answers a batch.
    "iceberg-spark": "conformance.engines.iceberg_spark.adapter:IcebergSparkEngine",
    # Iceberg 1.12 through Spark 4.1, a protocol program in an environment of its own (.venv-spark4).
    "iceberg-spark4": "conformance.engines.iceberg_spark4.adapter:IcebergSpark4Engine",
}
DEFAULT = tuple(BUILTIN)


def load(spec: str) -> type:
    """An engine class from a built-in name, a `package.module:Class` path or `cmd:NAME=COMMAND ARGS`."""
    from conformance.engines.base import Engine  # here, so that the pytest plugin's options load nothing heavy

    if spec.startswith("cmd:"):
        from conformance.engines.protocol import command_engine

        return command_engine(spec)
    path = BUILTIN.get(spec, spec)
    module_name, sep, class_name = path.partition(":")
    if not sep:
        raise ValueError(
            f"unknown engine {spec!r}: use one of {', '.join(BUILTIN)}, package.module:Class or 'cmd:NAME=COMMAND ARGS'"
        )
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"cannot load engine {spec!r}: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise ValueError(f"engine {spec!r} is not a subclass of conformance.engines.base.Engine")
    return cls
