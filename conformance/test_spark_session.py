"""Smoke test of the local Spark session with Iceberg Java (`iceberg_java.spark`).

Iceberg 1.10 writes a partitioned format-version 2 table through PySpark, deletes a row
merge-on-read (so a position delete file is written), and the test reads the table's metadata
JSON straight from the warehouse. Skipped only when pyspark or Java is not installed; any other
failure to start fails the test.

    pytest conformance/test_spark_session.py            # or: pytest conformance/ -m spark
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.spark


def _latest_metadata(table_dir: Path) -> dict:
    versions = {
        int(m[1]): p
        for p in (table_dir / "metadata").iterdir()
        if (m := re.fullmatch(r"v(\d+)\.metadata\.json", p.name))
    }
    assert versions, f"no vN.metadata.json in {table_dir / 'metadata'}"
    return json.loads(versions[max(versions)].read_text())


def test_iceberg_java_writes_a_v2_table_with_deletes(tmp_path: Path) -> None:
    from conformance.engines.iceberg_java import spark as spark_session

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(reason)

    warehouse = tmp_path / "warehouse"
    spark = spark_session.local_spark_session(warehouse)
    try:
        assert spark_session.local_spark_session(warehouse) is spark
        spark.sql("""
            CREATE TABLE local.db.events (id bigint, ts timestamp, data string) USING iceberg
            PARTITIONED BY (bucket(16, id), days(ts))
            TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')
        """)
        spark.sql("""
            INSERT INTO local.db.events VALUES
                (1, TIMESTAMP '2024-01-01 10:00:00', 'a'),
                (2, TIMESTAMP '2024-01-01 11:00:00', 'b'),
                (3, TIMESTAMP '2024-01-02 12:00:00', 'c')
        """)
        spark.sql("DELETE FROM local.db.events WHERE id = 2")
        assert [r.id for r in spark.sql("SELECT id FROM local.db.events ORDER BY id").collect()] == [1, 3]
    finally:
        spark_session.stop_local_spark_session()

    metadata = _latest_metadata(warehouse / "db" / "events")
    assert metadata["format-version"] == 2
    ids = {
        f["name"]: f["id"]
        for s in metadata["schemas"]
        if s["schema-id"] == metadata["current-schema-id"]
        for f in s["fields"]
    }
    spec = next(s for s in metadata["partition-specs"] if s["spec-id"] == metadata["default-spec-id"])
    assert [(f["transform"], f["source-id"]) for f in spec["fields"]] == [("bucket[16]", ids["id"]), ("day", ids["ts"])]
    snapshots = metadata["snapshots"]
    assert len(snapshots) >= 2
    current = next(s for s in snapshots if s["snapshot-id"] == metadata["current-snapshot-id"])
    assert int(current["summary"].get("added-position-delete-files", 0)) >= 1, current["summary"]
    assert list((warehouse / "db" / "events" / "data").rglob("*-deletes.parquet")), "no position delete file written"
