"""A local Spark 3.5 session with Iceberg Java, for tests where Iceberg Java writes real tables.

    from conformance.engines.iceberg_java.spark import local_spark_session

    spark = local_spark_session(tmp_path / "warehouse")
    spark.sql("CREATE TABLE local.db.t (id bigint, ts timestamp) USING iceberg PARTITIONED BY (bucket(16, id))")

This is the entry point of the writer harness: PySpark drives Iceberg's own Java code, which
writes data files, manifests and `metadata/vN.metadata.json` under the warehouse, and other
engines (or the reference) then read those files.

Spark comes from `pyspark`; Iceberg's `iceberg-spark-runtime-3.5_2.12` jar from Maven Central, the
release the value engine is built with (`build.locate_inputs()`: `ICEBERG_JAVA_VERSION`, else the
newest of `build.RELEASES`), fetched once by Maven into the build cache. The jar goes on the
classpath through `spark.jars` (Spark itself downloads nothing: no `spark.jars.packages`). A JDK 11
or newer must be on `JAVA_HOME` or `PATH`.

The session:

* runs `local[2]`, bound to 127.0.0.1 only (`spark.driver.host`, `spark.driver.bindAddress`,
  and `SPARK_LOCAL_IP` when unset), with the web UI off and 2 shuffle partitions;
* has Iceberg's SQL extensions (`MERGE`, `DELETE` with delete files, `ALTER TABLE ... ADD
  PARTITION FIELD`, the `CALL` procedures) and a Hadoop catalog named `local` whose warehouse
  is the given directory: table `local.db.t` lives in `<warehouse>/db/t/`;
* uses UTC as the session time zone, and logs only errors (a log4j2 configuration of its own).

Spark allows one session per process: a second call with the same warehouse returns the running
session; with another warehouse it raises, since the catalog is fixed when the session starts.
Call `stop_local_spark_session()` to end it (the JVM stays up, so a new session starts faster).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import build

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

CATALOG = "local"
LOOPBACK = "127.0.0.1"
EXTENSIONS = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"


def log4j2_properties(level: str) -> str:
    """Spark's log4j2 configuration: everything at `level` and above on stderr, one line each."""
    return f"""\
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{HH:mm:ss}} %p %c{{1}}: %m%n
"""


# Spark compares the level of the class that starts it (PySpark's gateway) with the root's, and
# announces a difference on stderr.
_LOG4J2 = (
    log4j2_properties("error")
    + """\
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = error
"""
)

_session: Any = None
_warehouse: Path | None = None
_log_dir: tempfile.TemporaryDirectory[str] | None = None
startup_seconds: float | None = None  # how long the last start took


def missing_requirement() -> str | None:
    """Why a local Spark session cannot start here (pyspark or java missing), or None."""
    import importlib.util
    import shutil

    if importlib.util.find_spec("pyspark") is None:
        return "pyspark is not installed"
    java_home = os.environ.get("JAVA_HOME")
    if (java_home and (Path(java_home) / "bin" / "java").is_file()) or shutil.which("java"):
        return None
    return f"java is not installed (JAVA_HOME={java_home or 'unset'}, no java on PATH)"


def spark_jars() -> list[Path]:
    """The jar Iceberg needs in Spark: its runtime jar, fetched from Maven Central if needed."""
    return [build.locate_inputs().iceberg_jar]


def _log_config() -> Path:
    global _log_dir
    if _log_dir is None:
        _log_dir = tempfile.TemporaryDirectory(prefix="iceberg-conformance-spark-")
    path = Path(_log_dir.name) / "log4j2.properties"
    path.write_text(_LOG4J2)
    return path


MASTER_VARIABLE = "ICEBERG_CONFORMANCE_SPARK_MASTER"


def local_spark_session(
    warehouse: Path, *, app_name: str = "iceberg-conformance", master: str | None = None
) -> SparkSession:
    """The process's local Spark session with Iceberg and the Hadoop catalog `local` on `warehouse`.

    `master` is Spark's master URL (default: the environment variable ICEBERG_CONFORMANCE_SPARK_MASTER,
    else `local[2]`): `local-cluster[2,1,1024]` runs executors in JVMs of their own, and a cluster's
    URL works when `warehouse` is storage that driver and executors share at the same path.

    Raises `build.BuildError` when the Iceberg jars cannot be found or prepared, ImportError when
    pyspark is missing, and RuntimeError when a session on another warehouse is already running.
    """
    global _session, _warehouse, startup_seconds
    warehouse = Path(warehouse).resolve()
    if _session is not None:
        if _session._jsc is not None and not _session._jsc.sc().isStopped():
            if warehouse != _warehouse:
                raise RuntimeError(
                    f"a local Spark session on the warehouse {_warehouse} is already running in this process; "
                    "Spark allows one session per process: call stop_local_spark_session() first"
                )
            return _session
        _session = _warehouse = None

    from pyspark.sql import SparkSession

    if SparkSession.getActiveSession() is not None:
        raise RuntimeError("a Spark session not started by local_spark_session() is running in this process")
    started = time.monotonic()
    jars = spark_jars()
    warehouse.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SPARK_LOCAL_IP", LOOPBACK)
    java_options = f"-Dlog4j.configurationFile={_log_config().as_uri()} -Duser.timezone=UTC"
    conf = {
        "spark.master": master or os.environ.get(MASTER_VARIABLE) or "local[2]",
        "spark.app.name": app_name,
        "spark.jars": ",".join(str(j) for j in jars),
        "spark.driver.host": LOOPBACK,
        "spark.driver.bindAddress": LOOPBACK,
        "spark.driver.extraJavaOptions": java_options,
        "spark.executor.extraJavaOptions": java_options,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.default.parallelism": "2",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.extensions": EXTENSIONS,
        f"spark.sql.catalog.{CATALOG}": "org.apache.iceberg.spark.SparkCatalog",
        f"spark.sql.catalog.{CATALOG}.type": "hadoop",
        f"spark.sql.catalog.{CATALOG}.warehouse": warehouse.as_uri(),
    }
    builder = SparkSession.builder
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    _session, _warehouse = session, warehouse
    startup_seconds = time.monotonic() - started
    return session


def stop_local_spark_session() -> None:
    """Stop the process's session, if one is running."""
    global _session, _warehouse
    if _session is not None:
        _session.stop()
    _session = _warehouse = None
