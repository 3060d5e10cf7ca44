"""The vector release read by a consumer in another language: `tests/consumers/node/validate_release.mjs`
(Node with Ajv from the npm registry, pinned by its package-lock.json) checks the manifest's hashes,
validates every file against the release's JSON Schemas, and reads the json-safe copies with
JSON.parse. A release with a broken case must fail it."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from spec_impl.vectors.export import export

CONSUMER = Path(__file__).resolve().parent / "consumers" / "node"


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        if os.environ.get("CI"):
            pytest.fail("node and npm are needed for the release consumer test")
        pytest.skip("node and npm are not installed; CI runs this test")
    return node, npm


@pytest.fixture(scope="module")
def consumer(tmp_path_factory) -> tuple[str, Path]:
    node, npm = _tools()
    work = tmp_path_factory.mktemp("consumer")
    for name in ("package.json", "package-lock.json", "validate_release.mjs"):
        shutil.copy(CONSUMER / name, work / name)
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=work, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return node, work


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("release"))


def _run(consumer, tarball: Path) -> subprocess.CompletedProcess:
    node, work = consumer
    return subprocess.run(
        [node, str(work / "validate_release.mjs"), str(tarball)], capture_output=True, text=True, timeout=300
    )


def test_node_reads_and_validates_the_release(consumer, release):
    done = _run(consumer, release)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    counts = json.loads(done.stdout)
    assert counts["problems"] == 0 and counts["cases"] > 3000 and counts["table-case.schema.json"] >= 20
    assert counts["json-safe"] > 0 and counts["manifest"] == counts["files"] - 1


def _tampered(release: Path, target: Path, change) -> Path:
    """The release with one member's JSON changed (the manifest left as it was)."""
    with tarfile.open(release) as src, tarfile.open(target, "w:gz") as out:
        for member in src.getmembers():
            data = src.extractfile(member).read() if member.isfile() else None
            if member.name.endswith("/vectors/values/bucket.json"):
                data = json.dumps(change(json.loads(data))).encode()
                member.size = len(data)
            out.addfile(member, io.BytesIO(data) if data is not None else None)
    return target


def test_node_rejects_a_broken_release(consumer, release, tmp_path):
    def drop_expected(doc):
        del doc["cases"][0]["expected"]
        return doc

    done = _run(consumer, _tampered(release, tmp_path / "broken.tar.gz", drop_expected))
    assert done.returncode == 1
    assert "vectors/values/bucket.json: SHA-256 differs" in done.stderr and "expected" in done.stderr
