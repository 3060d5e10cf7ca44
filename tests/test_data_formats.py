"""Avro and ORC data files (spec_impl.scan.avro_data, orc_data) and the dispatch on file_format
(spec_impl.scan.data_files). Rules scan.avro-data, scan.orc-data, scan.file-format; the vectors are
in vectors/data/data-file-formats.json, the Spark-written tables in vectors/tables/spark-v*-avro-*
and spark-v*-orc-*."""

from __future__ import annotations

import base64
import pytest

from spec_impl.errors import InvalidInput
from spec_impl.scan.arrow_values import write_parquet
from spec_impl.scan.avro_data import read_avro_data
from spec_impl.scan.data_files import read_arrow, read_data_file, row_count
from spec_impl.scan.orc_data import read_orc_data
from spec_impl.vectors.families import data_formats


def _case(slug: str) -> dict:
    return next(c.input for c in data_formats.specs() if c.slug == slug)


def _file(slug: str) -> bytes:
    return base64.b64decode(_case(slug)["file-base64"])


def test_avro_types_read_as_appendix_a_says():
    schema, rows = read_avro_data(_file("avro-all-types"))
    types = {f.name: str(f.type) for f in schema.fields}
    assert types["tz"] == "timestamptz" and types["ts"] == "timestamp"  # adjust-to-utc absent: false
    assert types["dec"] == "decimal(9,2)" and types["u"] == "uuid" and types["f"] == "fixed[3]"
    assert str(next(f for f in schema.fields if f.name == "m").type).startswith("map<int")  # an array of records
    assert rows[0][16] == {1: "x", 2: None} and rows[0][19] == {"k": 0.5, "n": None}
    assert str(rows[0][7]) == "-101.25" and rows[1][2] is None


def test_orc_attributes_give_the_iceberg_types():
    schema, rows = read_orc_data(_file("orc-all-types"))
    types = {f.name: str(f.type) for f in schema.fields}
    assert {k: v for k, v in types.items() if k not in ("st", "l", "m")} == {
        "id": "long",
        "small": "int",
        "day": "date",
        "t": "time",
        "tz": "timestamptz",
        "ts": "timestamp",
        "ts_ns": "timestamp_ns",
        "tz_ns": "timestamptz_ns",
        "dec": "decimal(9,2)",
        "u": "uuid",
        "f": "fixed[3]",
        "s": "string",
    }
    assert schema.fields[0].required and not schema.fields[1].required
    assert rows[0][6] == 1700000000123456 and rows[0][7] == -1 and rows[0][4] == 86399999999


@pytest.mark.parametrize(
    ("slug", "rule"),
    [
        ("avro-some-ids", "scan.avro-data"),
        ("avro-union-not-with-null", "scan.avro-data"),
        ("avro-map-array-not-records", "scan.avro-data"),
        ("avro-optional-without-default", "scan.avro-data"),
        ("orc-some-ids", "scan.orc-data"),
        ("orc-micros-with-nanoseconds", "scan.orc-data"),
        ("orc-fixed-wrong-length", "scan.orc-data"),
        ("unknown-format", "scan.file-format"),
        ("avro-named-but-orc", "scan.file-format"),
        ("orc-named-but-avro", "scan.file-format"),
    ],
)
def test_rejections_name_their_rule(slug, rule):
    inp = _case(slug)
    with pytest.raises(InvalidInput) as e:
        read_data_file(base64.b64decode(inp["file-base64"]), inp["file-format"], "f")
    assert e.value.rule == rule


def test_files_without_ids_read_by_name():
    for slug, fmt in (("avro-without-ids", "avro"), ("orc-without-ids", "orc")):
        assert read_data_file(_file(slug), fmt) == (None, [{"id": 1, "s": "a"}])


def test_avro_records_read_alike_from_parquet():
    """The records of the Avro file written as Parquet read back the same through the dispatch."""
    avro_schema, avro_rows = read_data_file(_file("avro-all-types"), "AVRO")
    parquet = write_parquet(avro_rows, avro_schema)
    assert read_data_file(parquet, "PARQUET") == (avro_schema, avro_rows)
    assert read_arrow(parquet, "parquet").num_rows == read_arrow(_file("avro-all-types"), "avro").num_rows == 2
    assert [row_count(d) for d in (parquet, _file("orc-all-types"), _file("avro-all-types"), b"nope")] == [
        2,
        2,
        2,
        None,
    ]


def test_an_engine_declines_the_formats_it_does_not_read():
    """Adapters name the formats they read (`data_file_formats`); a read-table case of a snapshot
    with files of another format is declined with the engine's reason, by the conformance suite
    and by the writer harness alike."""
    import json

    from conformance.engines.base import Engine, EngineAnswer
    from conformance.writer_harness.runner import _answers
    from spec_impl.vectors import cli

    class ParquetOnly(Engine):
        name = "parquet-only"
        capabilities = frozenset({"read-table"})
        data_file_formats = frozenset({"parquet"})
        format_limit = "a test engine"

        def run_batch(self, op, cases):
            return [EngineAnswer(True, output=c["id"]) for c in cases]

    def first(table: str) -> dict:
        doc = json.loads((cli.DEFAULT_ROOT / "tables" / table / "case.json").read_text())
        return {"table": table, "snapshot-id": doc["snapshots"][0]["snapshot-id"]}

    engine = ParquetOnly()
    avro, parquet = first("spark-v2-avro-data-files"), first("position-deletes")
    assert engine.unsupported("read-table", avro) == "parquet-only reads no AVRO files: a test engine"
    assert engine.unsupported("read-table", parquet) is None
    answers = _answers(engine, [{"id": "a", "input": avro}, {"id": "p", "input": parquet}])
    assert answers[0].unsupported and answers[1].output == "p"
