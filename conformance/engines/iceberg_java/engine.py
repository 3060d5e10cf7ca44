"""The Iceberg Java 1.10 value engine as a conformance adapter (through the line protocol)."""

from __future__ import annotations

from conformance.engines.base import EngineUnavailable
from conformance.engines.protocol import ProtocolEngine


class IcebergJavaEngine(ProtocolEngine):
    """Iceberg's own Java classes (Transforms, Conversions, SingleValueParser, the metadata parsers
    and the manifest readers), no Spark session.

    The ops it answers come from its start reply (IcebergValueEngine.CAPABILITIES)."""

    name = "iceberg-java"

    def command(self) -> list[str]:
        from conformance.engines.iceberg_java.build import BuildError, engine_command

        try:
            return engine_command()
        except BuildError as e:
            raise EngineUnavailable(f"iceberg-java: {e}") from None
