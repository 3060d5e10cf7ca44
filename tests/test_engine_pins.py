"""`spec_impl/vectors/engine_pins.json` (the engines whose confirmations the vectors record, with
their pinned versions) kept equal to the suite's registry and pins, and the staleness check of
`iceberg-vectors check` (spec_impl/vectors/engine_pins.py)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from conformance.engines.registry import BUILTIN
from spec_impl.vectors import engine_pins

REPO_ROOT = Path(__file__).resolve().parents[1]
PINS = engine_pins.pins()


def _pyproject_pins() -> dict[str, str]:
    """distribution -> version, from the `==` pins of pyproject.toml's `engines` extra."""
    doc = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    out = {}
    for requirement in doc["project"]["optional-dependencies"]["engines"]:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?==(\S+)", requirement.strip())
        if m:
            out[m.group(1).lower()] = m.group(2)
    return out


def test_the_pinned_engines_are_the_registry_without_the_reference():
    assert set(PINS["engines"]) | set(PINS["reference"]) == set(BUILTIN)
    assert not set(PINS["engines"]) & set(PINS["reference"])


@pytest.mark.parametrize("engine", sorted(PINS["engines"]))
def test_each_pin_is_the_version_the_suite_installs(engine):
    pin = PINS["engines"][engine]
    kind, _, name = pin["pinned-by"].partition(":")
    if kind == "pyproject":
        assert _pyproject_pins()[name] == pin["version"], engine
    elif kind == "npm":
        package = json.loads((REPO_ROOT / "conformance/examples/icebird_engine/package.json").read_text())
        assert package["dependencies"][name] == pin["version"], engine
    elif kind == "go":  # the native Go engine's go.mod
        go_mod = (REPO_ROOT / "conformance/engines/iceberg_go/go.mod").read_text(encoding="utf-8")
        assert re.search(rf"^\s*(require\s+)?{re.escape(name)} v{re.escape(pin['version'])}$", go_mod, re.M), engine
    elif kind == "cargo":  # the native Rust engine's Cargo.lock
        lock = (REPO_ROOT / "conformance/engines/iceberg_rust/Cargo.lock").read_text(encoding="utf-8")
        assert f'name = "{name}"\nversion = "{pin["version"]}"' in lock, engine
    elif name == "org.apache.iceberg:iceberg-spark-runtime-4.1_2.13":
        from conformance.engines.iceberg_spark4.adapter import RUNTIME

        assert (kind, RUNTIME) == ("maven", f"{name}:{pin['version']}"), engine
    else:
        assert (kind, name) == ("maven", "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12"), pin
        from conformance.engines.iceberg_java import build

        pom = (REPO_ROOT / "conformance/engines/iceberg_java/pom.xml").read_text(encoding="utf-8")
        assert f"<iceberg.version>{pin['version']}</iceberg.version>" in pom, engine
        assert build.RELEASES[-1] == pin["version"], engine


def _write(tmp_path: Path, engines: dict[str, str]) -> tuple[Path, Path]:
    pins = tmp_path / "pins.json"
    pins.write_text(json.dumps({"reference": [], "engines": {"a": {"version": "1.10.2", "pinned-by": "pyproject:a"}}}))
    confirmations = tmp_path / "confirmations.json"
    confirmations.write_text(json.dumps({"format": 1, "engines": {e: {"version": v} for e, v in engines.items()}}))
    return pins, confirmations


@pytest.mark.parametrize(
    "recorded, stale",
    [
        ({"a": "1.10.2"}, False),
        ({"a": "Iceberg 1.10.2 on Spark 3.5.9"}, False),
        ({"a": "1.11.0 (avro extension f9d5902)"}, False),
        ({"a": "1.9.9"}, True),
        ({"a": "unknown"}, True),
        ({"b": "1.10.2"}, True),
    ],
)
def test_confirmations_older_than_the_pin_or_missing_are_stale(tmp_path, recorded, stale):
    messages = engine_pins.stale_confirmations(*_write(tmp_path, recorded))
    assert bool(messages) == stale
    for m in messages:
        assert m.startswith("stale confirmations: a: ") and "--engine a" in m and "provenance record" in m


def test_iceberg_vectors_check_fails_while_confirmations_are_stale(monkeypatch, capsys, tmp_path):
    """`iceberg-vectors check` of every set in a checkout: the golden files match, yet it fails
    and prints each stale engine; a check of some sets only does not look at confirmations."""
    from spec_impl.vectors import cli

    monkeypatch.setattr(cli.rule_index, "render", lambda root: {})
    monkeypatch.setattr(cli, "_requirement_index", lambda root, write: [])
    monkeypatch.setattr(cli, "is_checkout", lambda: True)
    monkeypatch.setattr(cli, "stale_confirmations", lambda: ["stale confirmations: daft: none recorded"])
    assert cli._check(tmp_path, {}, whole=True) == 1
    assert "stale confirmations: daft" in capsys.readouterr().out
    assert cli._check(tmp_path, {}, whole=False) == 0
    monkeypatch.setattr(cli, "is_checkout", lambda: False)  # an installed package records nothing
    assert cli._check(tmp_path, {}, whole=True) == 0
