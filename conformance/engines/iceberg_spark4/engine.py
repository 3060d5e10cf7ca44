"""Iceberg 1.12 reading golden tables through Spark 4.1: a line-protocol program (PROTOCOL.md) run
by the Python of `.venv-spark4`, where PySpark 4 lives (the suite's own environment has PySpark
3.5, and one process holds one PySpark).

    .venv-spark4/bin/python -m conformance.engines.iceberg_spark4.engine ICEBERG_RUNTIME_JAR

It answers `read-table` only: the table at the case's `table-location` is loaded by path
(`spark.read.format("iceberg").option("snapshot-id", ...)`, Iceberg's `HadoopTables`), its
columns in schema order and, for a v3 table, the row lineage columns `_row_id` and
`_last_updated_sequence_number`; Spark's Arrow batches become the vectors' row form
(`spec_impl.ops.golden_tables.table_rows`). Deletes, projection and lineage are Iceberg's doing.
The session starts with the first batch (local[2], bound to 127.0.0.1, UTC) and lives until `stop`.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

NAME = "iceberg-spark4"
LOOPBACK = "127.0.0.1"
LINEAGE = ("_row_id", "_last_updated_sequence_number")
LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
"""


def session(jar: str) -> Any:
    from pyspark.sql import SparkSession

    log = Path(tempfile.mkdtemp(prefix="iceberg-spark4-")) / "log4j2.properties"
    log.write_text(LOG4J2)
    os.environ.setdefault("SPARK_LOCAL_IP", LOOPBACK)
    options = f"-Dlog4j.configurationFile={log.as_uri()} -Duser.timezone=UTC"
    conf = {
        "spark.master": "local[2]",
        "spark.app.name": "iceberg-conformance-spark4",
        "spark.jars": jar,
        "spark.driver.host": LOOPBACK,
        "spark.driver.bindAddress": LOOPBACK,
        "spark.driver.extraJavaOptions": options,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.session.timeZone": "UTC",
    }
    builder = SparkSession.builder
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def format_version(metadata_location: str) -> int:
    return int(json.loads(Path(metadata_location).read_text(encoding="utf-8"))["format-version"])


def read_table(spark: Any, case: dict[str, Any]) -> dict[str, Any]:
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    from spec_impl.ops.golden_tables import table_rows

    # Spark 4 time travel: `versionAsOf` (the `snapshot-id` option of Spark 3.5 is refused)
    frame = spark.read.format("iceberg").option("versionAsOf", case["snapshot-id"]).load(case["table-location"])
    extra = LINEAGE if format_version(case["metadata-location"]) >= 3 else ()
    selected = frame.select(*frame.columns, *extra)
    batches = selected._collect_as_arrow()
    arrow = pa.Table.from_batches(batches) if batches else to_arrow_schema(selected.schema).empty_table()
    return table_rows(arrow)


def message(e: BaseException) -> str:
    """The exception and its Java causes, without the stack traces."""
    lines = [line.strip() for line in str(e).splitlines()]
    kept = [line for line in lines if line and not line.startswith(("at ", "..."))]
    head = kept[:1] + [line for line in kept[1:] if line.startswith("Caused by")]
    return f"{type(e).__name__}: " + " | ".join(head)[:1500]


def answer(spark: Any, case: dict[str, Any]) -> dict[str, Any]:
    if case.get("op") != "read-table":
        return {"id": case["id"], "status": "unsupported", "reason": f"{NAME} reads tables only"}
    if case.get("metadata-columns"):
        reason = "metadata columns are not asked through the protocol"
        return {"id": case["id"], "status": "unsupported", "reason": reason}
    try:
        return {"id": case["id"], "status": "ok", "output": read_table(spark, case)}
    except Exception as e:  # py4j's and Spark's errors: this case's refusal
        return {"id": case["id"], "status": "rejected", "error": message(e)}


def main(argv: list[str]) -> int:
    jar = argv[0]
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but protocol messages on the real stdout
    spark = None
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("cmd") == "start":
            import pyspark

            reply = {
                "engine": NAME,
                "version": f"Iceberg {Path(jar).stem.rsplit('-', 1)[-1]} on Spark {pyspark.__version__}",
                "protocol": 2,
                "capabilities": ["read-table"],
            }
        elif request.get("cmd") == "run":
            spark = spark or session(jar)
            reply = {"results": [answer(spark, c) for c in request["cases"]]}
        else:
            break
        out.write(json.dumps(reply) + "\n")
        out.flush()
    if spark is not None:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
