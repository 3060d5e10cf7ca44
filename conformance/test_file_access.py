"""`iceberg-audit` reads a table's files only under its location (rule tree.file-location, a safety
rule of this suite: `spec_impl.manifests.locations`), in the Spark executors too: the CLI, run as a
user runs it, on a Spark-written golden table whose metadata names a location that leaves its data
files outside. The cases without Spark (the plan, the local run, the validator and the reader) are
in tests/test_file_access.py.

    pytest conformance/test_file_access.py          # or: pytest conformance/ -m spark
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.conftest import ENGINES_EXTRA

from spec_impl.vectors.tables import captured_ids, materialize

pytestmark = pytest.mark.spark


def test_audit_cli_reports_data_files_outside_the_location_and_reads_them_when_allowed(tmp_path):
    from conformance.engines.iceberg_java import spark as spark_session

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(f"the audit runs on Spark, which the engines extra brings ({ENGINES_EXTRA}): {reason}")
    case_id = next(i for i in captured_ids() if i.startswith("spark-v2"))
    table = tmp_path / case_id
    metadata, _ = materialize(case_id, table)
    local = Path(metadata.removeprefix("file:"))
    doc = json.loads(local.read_text())
    doc["location"] = f"{doc['location']}/metadata"  # the manifests stay inside, the data files are now outside
    doc.get("properties", {}).pop("write.data.path", None)
    local.write_text(json.dumps(doc))
    data_files = {str(p) for p in (table / "data").rglob("*") if p.is_file()}  # Parquet, Avro or ORC
    assert data_files

    def audit(*extra: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "conformance.audit.cli", metadata, "--master", "local[1]", *extra]
        return subprocess.run(
            command, capture_output=True, text=True, timeout=600, cwd=Path(__file__).resolve().parents[1]
        )

    refused = audit()
    assert refused.returncode == 1, refused.stderr[-2000:]
    reported = set(re.findall(r"lies outside the table's location", refused.stdout))
    assert reported and "tree.file-location" in refused.stdout, refused.stdout[-2000:]
    named = {p for p in data_files if p in refused.stdout}
    assert named, refused.stdout[-2000:]  # the report names the refused files
    allowed = audit("--allow-outside", f"file:{table}/data")
    assert allowed.returncode == 0, (allowed.stdout[-2000:], allowed.stderr[-2000:])
    assert "tree.file-location" not in allowed.stdout
