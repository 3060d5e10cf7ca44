"""Table statistics and partition statistics: the metadata entries and the files they name.

Rules: table.statistics, table.statistics.blob-metadata, table.statistics.snapshot,
table.statistics.blob-snapshot, partition-statistics.one-per-snapshot, puffin.theta-sketch (the
entries, `spec_impl.metadata.statistics`); table.statistics.puffin, table.statistics.file-size,
table.statistics.footer-size, table.statistics.blobs, partition-statistics.file-schema,
partition-statistics.sorted, partition-statistics.unique-partition (the files,
`spec_impl.validate.statistics_files`); partition-statistics.counts (the counts against the
snapshot's live files, `spec_impl.validate.partition_counts`).
"""

from __future__ import annotations

import base64
import json
import copy

import pytest

from spec_impl import revisions
from spec_impl.deletes.puffin import write_puffin
from spec_impl.errors import InvalidInput
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.validate.statistics_files import expected_columns, validate_statistics
from spec_impl.metadata.table_metadata import parse_table_metadata
from spec_impl.vectors.families import statistics as family
from spec_impl.vectors.families.table_metadata import S1, S2, v2, v3


def _rules(case_spec) -> list[str]:
    files = InMemoryFiles({p: base64.b64decode(d) for p, d in case_spec.input["files"].items()})
    return sorted({v.rule for v in validate_statistics(files, case_spec.input["metadata-location"])})


def _spec(slug: str):
    return next(s for s in family.specs() if s.slug == slug)


def test_statistics_entries_are_read():
    md = parse_table_metadata(family.with_statistics())
    assert len(md.statistics) == 1 and len(md.partition_statistics) == 1


@pytest.mark.parametrize(
    "edit, rule",
    [
        (lambda d: d["statistics"][0].pop("file-footer-size-in-bytes"), "table.statistics"),
        (lambda d: d["statistics"][0]["blob-metadata"][0].pop("fields"), "table.statistics.blob-metadata"),
        (lambda d: d["statistics"][0].update({"snapshot-id": 7}), "table.statistics.snapshot"),
        (
            lambda d: d["statistics"][0]["blob-metadata"][0].update({"sequence-number": 5}),
            "table.statistics.blob-snapshot",
        ),
        (
            lambda d: d["partition-statistics"].append(dict(d["partition-statistics"][0])),
            "partition-statistics.one-per-snapshot",
        ),
        (lambda d: d["statistics"][0]["blob-metadata"][0]["properties"].update({"ndv": "x"}), "puffin.theta-sketch"),
    ],
)
def test_broken_entries_are_rejected(edit, rule):
    doc = family.with_statistics()
    edit(doc)
    with pytest.raises(InvalidInput) as e:
        parse_table_metadata(doc)
    assert e.value.rule == rule


def test_snapshot_id_string_by_revision():
    """The seed's field table types snapshot-id as string; the adopted spec corrected it to long."""
    doc = family.with_statistics()
    doc["statistics"][0]["snapshot-id"] = str(S2)
    assert parse_table_metadata(doc, revisions.SEED_2024).statistics
    with pytest.raises(InvalidInput, match="long"):
        parse_table_metadata(doc, revisions.V3_ADOPTED)


@pytest.mark.parametrize(
    "slug, rules",
    [
        ("correct-files", []),
        ("not-puffin", ["table.statistics.puffin"]),
        ("statistics-file-size", ["table.statistics.file-size"]),
        ("footer-payload-size", ["table.statistics.footer-size"]),
        ("blob-unlisted", ["table.statistics.blobs"]),
        ("file-ndv-not-decimal", ["puffin.theta-sketch"]),
        ("spec-id-optional", ["partition-statistics.file-schema"]),
        ("unsorted", ["partition-statistics.sorted"]),
        ("repeated-partition", ["partition-statistics.unique-partition"]),
    ],
)
def test_statistics_files(slug, rules):
    assert _rules(_spec(slug)) == rules


def test_v3_schema_requires_delete_counts_and_adds_dv_count():
    """Adopted §3: v3 makes fields 6-9 required and adds field 13 dv_count; v2 keeps them optional."""
    v3_cols = {f.id: f for f in expected_columns(parse_table_metadata(v3()), revisions.V3_ADOPTED)}
    v2_cols = {f.id: f for f in expected_columns(parse_table_metadata(v2()), revisions.V3_ADOPTED)}
    assert all(v3_cols[i].required and not v2_cols[i].required for i in (6, 7, 8, 9))
    assert 13 in v3_cols and 13 not in v2_cols
    assert [f.id for f in v3_cols[1].type.fields] == [1000, 1001]  # the unified partition type


def test_a_statistics_file_of_another_snapshot_is_checked_too():
    doc = copy.deepcopy(family.with_statistics())
    puffin = write_puffin([], family.CREATED_BY)
    doc["statistics"].append({**family._puffin_entry(puffin, []), "snapshot-id": S1, "statistics-path": "s3://x.stats"})
    files = InMemoryFiles({family.METADATA: json.dumps(doc).encode(), family.STATS: b"", family.PARTITION_STATS: b""})
    found = {v.rule for v in validate_statistics(files, family.METADATA)}
    assert "tree.file-exists" in found and "table.statistics.puffin" in found


def _written(tmp_path, slug: str) -> str:
    """The files of a validate-statistics case on disk; returns the metadata file's path."""
    spec = _spec(slug)
    root = tmp_path / "table"
    for path, data in spec.input["files"].items():
        local = root / path.removeprefix(family.LOCATION + "/")
        local.parent.mkdir(parents=True, exist_ok=True)
        raw = base64.b64decode(data)
        if path == family.METADATA:  # the entries name the files where they now are
            raw = raw.replace(family.LOCATION.encode(), root.as_uri().removeprefix("file://").encode())
        local.write_bytes(raw)
    return str(root / "metadata" / "v3.metadata.json")


def test_iceberg_validate_table_reports_statistics_violations(tmp_path, capsys):
    from spec_impl.validate import cli

    cli.main([_written(tmp_path, "unsorted"), "--json"])
    found = {v["rule"] for v in json.loads(capsys.readouterr().out)}
    assert "partition-statistics.sorted" in found  # beside the tree's own (its manifest lists are not there)


def test_the_audit_reports_statistics_violations(tmp_path):
    from conformance.audit import job
    from spec_impl.manifests.tree import LocalFiles

    result = job.add_statistics(job.AuditResult(None), LocalFiles(), _written(tmp_path, "footer-payload-size"))
    assert [v.rule for v in result.violations] == ["table.statistics.footer-size"]


def test_spark_written_statistics_pass():
    """The golden table spark-v3-statistics: Iceberg Java 1.10 through Spark 3.5 (CALL
    compute_table_stats and compute_partition_stats) wrote a Puffin file of theta sketches and a
    partition statistics file over the unified partition type; the reference reads both, no violation."""
    from pathlib import Path

    from spec_impl.metadata.table_metadata import read_metadata_file
    from spec_impl.resources import vectors_dir

    root = vectors_dir() / "tables" / "spark-v3-statistics"
    location = "file:/iceberg-conformance/tables/spark-v3-statistics"
    files = InMemoryFiles({f"{location}/{p.relative_to(root)}": p.read_bytes() for p in root.rglob("*") if p.is_file()})
    names = [Path(p).name for p in files.files if p.endswith(".metadata.json")]
    latest = max(names, key=lambda n: int(n.removeprefix("v").split(".")[0]))
    metadata = f"{location}/metadata/{latest}"
    md = read_metadata_file(files.read(metadata))
    assert md.statistics and md.partition_statistics
    assert {b["type"] for b in md.statistics[0]["blob-metadata"]} == {"apache-datasketches-theta-v1"}
    assert validate_statistics(files, metadata) == []


@pytest.mark.parametrize(
    "slug, rules",
    [
        ("spark-written", []),
        ("data-record-count-off", ["partition-statistics.counts"]),
        ("dv-count-off", ["partition-statistics.counts"]),
        ("partition-without-row", ["partition-statistics.unique-partition"]),
    ],
)
def test_partition_counts_against_the_snapshot(slug, rules):
    assert _rules(_spec(slug)) == rules
