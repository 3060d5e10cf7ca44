"""`iceberg-spark4`: Iceberg 1.12 reading golden tables through Spark 4.1, a protocol program
(`engine.py`) run by the Python of `.venv-spark4` (`make .venv-spark4`: PySpark 4.1.4 and this
project), with Iceberg's runtime jar for Spark 4.1 from Maven Central."""

from __future__ import annotations

import os
from pathlib import Path

from conformance.engines.base import EngineUnavailable
from conformance.engines.protocol import ProtocolEngine

ROOT = Path(__file__).resolve().parents[3]
PYTHON_ENV = "ICEBERG_SPARK4_PYTHON"  # another interpreter with PySpark 4 and this project
DEFAULT_PYTHON = ROOT / ".venv-spark4" / "bin" / "python"
RUNTIME = "org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0"


class IcebergSpark4Engine(ProtocolEngine):
    """Iceberg's Spark 4.1 source, reading golden tables at a snapshot (`read-table`)."""

    name = "iceberg-spark4"

    def command(self) -> list[str]:
        from conformance.engines.iceberg_java.build import BuildError, maven_artifact

        python = Path(os.environ.get(PYTHON_ENV) or DEFAULT_PYTHON)
        if not python.is_file():
            raise EngineUnavailable(
                f"iceberg-spark4: no Python with PySpark 4 at {python}: make .venv-spark4 (or set {PYTHON_ENV})"
            )
        try:
            jar = maven_artifact(RUNTIME)
        except BuildError as e:
            raise EngineUnavailable(f"iceberg-spark4: {e}") from None
        return [str(python), "-m", "conformance.engines.iceberg_spark4.engine", str(jar)]
