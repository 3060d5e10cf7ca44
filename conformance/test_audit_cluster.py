"""`iceberg-audit --master spark://127.0.0.1:PORT` on a Spark standalone cluster (a master and two
workers started from the installed PySpark, `conformance.engines.iceberg_java.standalone`): a golden
table and a corrupted copy get the same verdicts as under `local[*]`, and executors ran on both workers.

    pytest conformance/test_audit_cluster.py      # or: pytest conformance/ -m spark_cluster

Skipped, with the reason, only when the cluster cannot start here (no Java, a port, a timeout).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.engines.iceberg_java.standalone import ClusterUnavailable, StandaloneCluster
from conformance.test_audit import CORRUPTED, Table

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the code the executors import

pytestmark = [pytest.mark.spark, pytest.mark.spark_cluster]


def _audit(location: str, master: str, report: Path, *options: str) -> tuple[int, dict]:
    """`iceberg-audit LOCATION --master MASTER --json REPORT` in a process of its own: exit code and
    report. Its progress lines are on stderr exactly when `--progress` is given (stderr is a pipe)."""
    script = Path(sys.executable).with_name("iceberg-audit")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "conformance.audit.cli"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run(
        [*command, location, "--master", master, "--json", str(report), *options],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode in (0, 1), run.stdout + run.stderr[-3000:]
    assert ("history: every snapshot against its parent" in run.stderr) == ("--progress" in options), run.stderr
    return run.returncode, json.loads(report.read_text())


def _verdict(code: int, doc: dict) -> tuple:
    """What must not depend on the master: exit code, counts checked, violations, errors, known findings."""
    checked = {k: v for k, v in doc["checked"].items() if k != "seconds"}
    return code, doc["snapshot-id"], checked, doc["violations"], doc["errors"], doc["known"]


def test_audit_on_a_standalone_cluster_gives_the_verdicts_of_local(tmp_path):
    golden = Table(tmp_path / "golden", CORRUPTED)
    corrupted = Table(tmp_path / "corrupted", CORRUPTED)
    corrupted.edit_entry(0, lambda f: f.update(record_count=f["record_count"] + 1))
    tables = {"golden": golden.location, "corrupted": corrupted.location}
    try:
        cluster = StandaloneCluster(tmp_path / "cluster", workers=2, python_path=[PROJECT_ROOT]).start()
    except ClusterUnavailable as e:
        pytest.skip(f"the standalone cluster cannot start here: {e}")
    try:
        on_cluster = {
            name: _audit(loc, cluster.url, tmp_path / f"{name}-cluster.json", "--progress")
            for name, loc in tables.items()
        }
        completed = [app["name"] for app in (cluster.state() or {}).get("completedapps", [])]
    finally:
        cluster.stop()
    assert completed.count("iceberg-audit") == 2, completed
    for i in range(2):  # each worker launched an executor for the audits
        assert list(cluster.work_dir(i).glob("app-*")), f"worker {i} ran no executor"
    local = {name: _audit(loc, "local[*]", tmp_path / f"{name}-local.json") for name, loc in tables.items()}
    for name in tables:
        assert _verdict(*on_cluster[name]) == _verdict(*local[name]), name
    assert on_cluster["golden"][0] == 0 and on_cluster["golden"][1]["violations"] == []
    assert on_cluster["corrupted"][0] == 1
    assert {v["rule"] for v in on_cluster["corrupted"][1]["violations"]} == {"file.record-count"}


def test_a_cluster_that_cannot_start_says_why(tmp_path, monkeypatch):
    """What the test above skips on: no Java, and a master port taken (the master exits, no retry)."""
    from conformance.engines.iceberg_java import standalone

    with monkeypatch.context() as m:
        m.setattr(standalone, "missing_requirement", lambda: "java is not installed")
        with pytest.raises(ClusterUnavailable, match="java is not installed"):
            StandaloneCluster(tmp_path / "no-java").start()
    if (reason := standalone.missing_requirement()) is not None:
        pytest.skip(reason)
    cluster = StandaloneCluster(tmp_path / "taken", workers=1, timeout=60)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", cluster.port))
        taken.listen()
        with pytest.raises(ClusterUnavailable, match="the master exited"):
            cluster.start()
    assert cluster.processes == []  # stopped
