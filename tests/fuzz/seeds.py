"""Seed inputs, read from the golden vectors (`vectors/**`) once per process.

Files: metadata documents, manifest lists and manifests (Avro), Puffin files and Parquet data
files of `vectors/tables/*/` and `vectors/sources/`; the inputs of vector cases by op (trees of
files in base64, DVs, v4 roots, documents); whole case objects of every case file.
"""

from __future__ import annotations

import base64
import functools
import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[2] / "vectors"
TABLE_ROOT = "file:/iceberg-conformance/tables/"


def _sorted_files(pattern: str) -> list[Path]:
    return sorted(VECTORS.glob(pattern))


@functools.cache
def case_files() -> tuple[tuple[str, dict], ...]:
    out = []
    for path in _sorted_files("*/*.json"):
        doc = json.loads(path.read_text())
        if isinstance(doc, dict) and isinstance(doc.get("cases"), list):
            out.append((path.relative_to(VECTORS).as_posix(), doc))
    return tuple(out)


def case_inputs(op: str) -> list[dict]:
    """The inputs of every vector case of `op`, files in base64 decoded to bytes."""
    out = []
    for _, doc in case_files():
        for c in doc["cases"]:
            if c.get("op") == op:
                out.append(_decoded(c["input"]))
    return out


def _decoded(inp: dict) -> dict:
    inp = dict(inp)
    if isinstance(inp.get("files"), dict):
        inp["files"] = {p: base64.b64decode(d) for p, d in inp["files"].items()}
    for key in ("file-base64", "puffin-base64"):
        if isinstance(inp.get(key), str):
            inp[key] = base64.b64decode(inp[key])
    return inp


def cases(limit_per_file: int = 40) -> list[dict]:
    """Whole case objects, the first `limit_per_file` of each case file."""
    return [c for _, doc in case_files() for c in doc["cases"][:limit_per_file]]


@functools.cache
def metadata_files() -> tuple[bytes, ...]:
    paths = _sorted_files("tables/*/metadata/*.metadata.json") + _sorted_files("sources/metadata/**/*.metadata.json")
    files = [p.read_bytes() for p in paths]
    files += [inp["file-base64"] for inp in case_inputs("read-metadata-file")]
    return tuple(files)


@functools.cache
def binary_files(suffix: str) -> tuple[bytes, ...]:
    return tuple(p.read_bytes() for p in _sorted_files(f"**/*.{suffix}"))


@functools.cache
def tables() -> tuple[dict, ...]:
    """Every golden table as a tree input: {files, metadata-location, snapshot-id}, one per snapshot."""
    out = []
    for case in _sorted_files("tables/*/case.json"):
        spec = json.loads(case.read_text())
        root = case.parent
        files = {
            TABLE_ROOT + root.name + "/" + p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "case.json"
        }
        for snap in spec.get("snapshots", []):
            out.append(
                {"files": files, "metadata-location": spec["metadata-location"], "snapshot-id": snap.get("snapshot-id")}
            )
    return tuple(out)


@functools.cache
def trees() -> tuple[dict, ...]:
    """Trees of the manifest-tree vectors and the golden tables."""
    inputs = case_inputs("read-manifest-tree") + case_inputs("validate-tree")
    return (
        tuple(
            {"files": i["files"], "metadata-location": i["metadata-location"], "snapshot-id": i.get("snapshot-id")}
            for i in inputs
        )
        + tables()
    )


@functools.cache
def v4_inputs() -> tuple[dict, ...]:
    return tuple(case_inputs("v4-replay") + case_inputs("v4-validate"))


@functools.cache
def v4_manifests() -> tuple[bytes, ...]:
    files = {data for inp in v4_inputs() for data in inp["files"].values() if data[:4] == b"Obj\x01"}
    return tuple(sorted(files)) + tuple(inp["file-base64"] for inp in case_inputs("v4-read-manifest"))


@functools.cache
def dv_blobs() -> tuple[bytes, ...]:
    """Every deletion-vector-v1 blob of the Puffin files of the vectors."""
    from spec_impl.deletes.puffin import read_puffin

    out = []
    puffins = list(binary_files("puffin")) + [i["puffin-base64"] for i in case_inputs("read-deletion-vector")]
    for data in puffins:
        try:
            f = read_puffin(data)
        except Exception:
            continue
        out += [f.payload(b) for b in f.blobs if b.type == "deletion-vector-v1"]
    return tuple(dict.fromkeys(out))


def json_documents(op: str, key: str) -> list[Any]:
    return [i[key] for i in case_inputs(op) if key in i]
