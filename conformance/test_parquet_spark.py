"""Appendix A (Parquet) on files Iceberg Java writes through Spark: a table of every type Spark
can write (decimals of each physical width, timestamps with and without zone, nested lists, maps
and structs), in format versions 2 and 3, its data and delete files checked by the Parquet rules
(`spec_impl.datafiles`): no violation and no recommendation left unfollowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spec_impl.datafiles.table_files import live_parquet_files, validate_data_files
from spec_impl.metadata.table_metadata import read_metadata_file
from spec_impl.manifests.tree import LocalFiles

pytestmark = pytest.mark.spark

_MOR = "'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read'"
_COLUMNS = (
    "id bigint, i int, ok boolean, f float, d double, d5 decimal(5, 2), d15 decimal(15, 3), d38 decimal(38, 10), "
    "dt date, ts timestamp, ntz timestamp_ntz, s string, b binary, tags array<string>, "
    "nested array<array<struct<x: int, y: string>>>, props map<string, array<int>>, "
    "point struct<x: double, labels: map<int, string>>"
)
_ROW = (
    "({id}, 2, true, float(1.5), 2.5, 123.45, 123456789012.345, 1234567890123456789012345678.0123456789, "
    "DATE '2024-02-29', TIMESTAMP '2024-02-29 10:00:00', TIMESTAMP_NTZ '2024-02-29 10:00:00', 'a', X'00FF', "
    "array('x', NULL), array(array(named_struct('x', 1, 'y', 'z'))), map('k', array(1, NULL)), "
    "named_struct('x', 0.5, 'labels', map(1, 'one')))"
)


@pytest.mark.parametrize("version", [2, 3])
def test_files_iceberg_java_writes_follow_appendix_a(spark, version):
    from conformance.engines.iceberg_java.spark import _warehouse

    t = f"local.db.parquet_types_v{version}"
    spark.sql(f"CREATE TABLE {t} ({_COLUMNS}) USING iceberg TBLPROPERTIES ('format-version' = '{version}', {_MOR})")
    spark.sql(f"INSERT INTO {t} VALUES {_ROW.format(id=1)}, {_ROW.format(id=10)}")
    spark.sql(
        f"INSERT INTO {t} SELECT id + 1, i, ok, f, d, d5, d15, d38, dt, ts, ntz, s, b, tags, nested, props, "
        f"point FROM {t}"
    )
    spark.sql(f"DELETE FROM {t} WHERE id = 1")
    table_dir = Path(_warehouse) / "db" / f"parquet_types_v{version}" / "metadata"
    latest = max(table_dir.glob("v*.metadata.json"), key=lambda p: int(re.findall(r"\d+", p.name)[0]))
    md = read_metadata_file(latest.read_bytes())
    assert len(live_parquet_files(LocalFiles(), md)) >= 2
    violations, recommendations = validate_data_files(LocalFiles(), str(latest))
    assert violations + recommendations == []
