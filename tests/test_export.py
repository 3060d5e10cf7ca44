"""The vector release (`spec_impl/vectors/export.py`): complete, checked by its own schemas,
reproducible, and readable by a JSON parser that turns numbers into doubles."""

from __future__ import annotations

import hashlib
import json
import tarfile
from pathlib import Path

import jsonschema
import pytest

from spec_impl.resources import vectors_dir
from spec_impl.vectors.export import SAFE_INT, export, json_safe, restore_ints, version
from spec_impl.vectors.versions import vectors_version


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    path = export(tmp_path_factory.mktemp("release"))
    with tarfile.open(path) as tar:
        files = {m.name.split("/", 1)[1]: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    return path, files


def _schema(files: dict[str, bytes], name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(files[f"schemas/{name}"]))


def test_release_is_named_by_version_and_lists_every_file(release):
    path, files = release
    assert path.name == f"iceberg-conformance-vectors-{vectors_version()}.tar.gz"
    manifest = json.loads(files["MANIFEST.json"])
    assert manifest["version"] == vectors_version() and manifest["case-format"] == 1
    assert manifest["suite-version"] == version()
    assert set(manifest["files"]) == set(files) - {"MANIFEST.json"}
    assert all(hashlib.sha256(files[n]).hexdigest() == digest for n, digest in manifest["files"].items())
    for name in (
        "README.md",
        "FORMAT.md",
        "CHANGELOG.md",
        "known/engines/pyiceberg.json",
        "known/audit.json",
        "known/writers.json",
        "schemas/ledger.schema.json",
        "vectors/values/bucket.json",
        "vectors/tables/SHA256SUMS",
    ):
        assert name in files, name
    shipped = {n.removeprefix("vectors/") for n in files if n.startswith("vectors/")}
    generated = {
        p.relative_to(vectors_dir()).as_posix()
        for p in vectors_dir().rglob("*")
        if p.is_file()
        and p.relative_to(vectors_dir()).parts[0] not in ("sources", "known", "schemas")
        and len(p.relative_to(vectors_dir()).parts) > 1
    }
    assert shipped == generated


def test_every_file_follows_its_schema(release):
    _, files = release
    cases = _schema(files, "value-vectors.schema.json")
    family_files = [
        n for n in files if n.startswith("vectors/") and n.count("/") == 2 and n.endswith(".json") and "schema" not in n
    ]
    assert len(family_files) > 20
    for name in family_files:
        cases.validate(json.loads(files[name]))
    tables = _schema(files, "table-case.schema.json")
    table_cases = [n for n in files if n.startswith("vectors/tables/") and n.endswith("/case.json")]
    assert len(table_cases) >= 20
    for name in table_cases:
        tables.validate(json.loads(files[name]))
    ledger = _schema(files, "ledger.schema.json")
    ledger_files = [n for n in files if n.startswith("known/")]
    assert len(ledger_files) >= 10
    for name in ledger_files:
        ledger.validate(json.loads(files[name]))
    for version_ in (1, 2, 3):
        assert f"schemas/table-metadata-v{version_}.schema.json" in files
    if "rules.json" in files:
        _schema(files, "rules.schema.json").validate(json.loads(files["rules.json"]))
    if "requirements.json" in files:
        _schema(files, "requirements.schema.json").validate(json.loads(files["requirements.json"]))


def test_the_release_is_reproducible(release, tmp_path):
    path, _ = release
    assert export(tmp_path).read_bytes() == path.read_bytes()


def test_json_safe_files_survive_a_parser_of_doubles(release):
    _, files = release
    safe = {n.removeprefix("json-safe/"): d for n, d in files.items() if n.startswith("json-safe/")}
    assert safe, "the vectors hold 64-bit values beyond 2^53"
    for name, data in safe.items():
        as_doubles = json.loads(data, parse_int=float)  # what JSON.parse does
        exact = json.loads(files[f"vectors/{name}"])
        assert restore_ints(_ints_back(as_doubles)) == exact, name
    unsafe = [
        n
        for n, d in files.items()
        if n.startswith("vectors/")
        and n.endswith(".json")
        and n.removeprefix("vectors/") not in safe
        and (n.count("/") == 2 or n.endswith("/case.json"))
        and json_safe(json.loads(d))[1]
    ]
    assert unsafe == []


def _ints_back(value):
    """Doubles that hold whole numbers within 2^53 back to ints (what a consumer's numbers compare as)."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= SAFE_INT:
        return int(value)
    if isinstance(value, list):
        return [_ints_back(v) for v in value]
    if isinstance(value, dict):
        return {k: _ints_back(v) for k, v in value.items()}
    return value


def test_json_safe_marks_only_unsafe_integers():
    value = {"a": [2**53 - 1, 2**53, -(2**63)], "b": True, "c": 1.5, "d": "9007199254740993"}
    safe, changed = json_safe(value)
    assert changed and safe == {
        "a": [2**53 - 1, {"$int": str(2**53)}, {"$int": str(-(2**63))}],
        "b": True,
        "c": 1.5,
        "d": "9007199254740993",
    }
    assert restore_ints(safe) == value and json_safe({"x": [1, 2]}) == ({"x": [1, 2]}, False)
