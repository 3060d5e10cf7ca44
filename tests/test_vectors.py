"""Sanity of the golden value vectors: schema-valid, unique ids, every rule covered, reproducible."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from spec_impl.rules import RULES
from spec_impl.vectors import golden
from spec_impl.vectors.cli import DEFAULT_ROOT, main
from spec_impl.vectors.families import SETS
from spec_impl.vectors.schema import CASE_FILE_SCHEMA


def _render_all() -> dict[str, dict[str, bytes]]:
    seen: set[str] = set()
    return {name: golden.render(name, seen=seen) for name in sorted(SETS)}


@pytest.fixture(scope="module")
def rendered() -> dict[str, dict[str, bytes]]:
    return _render_all()


@pytest.fixture(scope="module")
def families() -> dict[str, dict]:
    """Every family file of the sets (`<set>/<family>.json`); the ledger (known/), the schemas and the
    recorded releases are other data."""
    return {
        f"{p.parent.name}/{p.name}": json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(DEFAULT_ROOT.glob("*/*.json"))
        if not p.name.endswith(".schema.json") and p.parent.name not in ("known", "schemas", "releases")
    }


def test_committed_goldens_match_the_generator(rendered):
    """The check mode: regenerate in memory and compare byte for byte."""
    for name, files in rendered.items():
        assert golden.differences(DEFAULT_ROOT / name, files) == [], name


def test_generation_is_deterministic(rendered):
    assert _render_all() == rendered


def test_every_file_validates_against_the_shipped_schema(families):
    for name in (n for n in SETS if n != "tables"):  # tables/ holds whole tables, not case files
        assert json.loads((DEFAULT_ROOT / name / golden.SCHEMA_NAME).read_text()) == CASE_FILE_SCHEMA
    validator = jsonschema.Draft202012Validator(CASE_FILE_SCHEMA)
    for name, doc in families.items():
        errors = sorted(validator.iter_errors(doc), key=str)
        assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_schema_rejects_a_broken_case(families):
    doc = next(iter(families.values()))
    broken = dict(doc, cases=[dict(doc["cases"][0], expected={})])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, CASE_FILE_SCHEMA)


def test_case_ids_are_unique_and_rules_registered(families):
    ids = [c["id"] for doc in families.values() for c in doc["cases"]]
    assert len(ids) == len(set(ids))
    for doc in families.values():
        for c in doc["cases"]:
            assert c["rule"] in RULES, c["id"]
            assert c["id"].startswith(c["rule"] + "/")
            assert "error" not in c["expected"] or c["expected"]["error"] in RULES


def test_every_rule_has_a_vector(families):
    covered = {c["rule"] for doc in families.values() for c in doc["cases"]}
    covered |= {c["expected"]["error"] for doc in families.values() for c in doc["cases"] if "error" in c["expected"]}
    covered |= {r for p in DEFAULT_ROOT.glob("tables/*/case.json") for r in json.loads(p.read_text())["rules"]}
    assert sorted(set(RULES) - covered) == []


def test_golden_tables_name_registered_rules_and_every_snapshot():
    for path in DEFAULT_ROOT.glob("tables/*/case.json"):
        doc = json.loads(path.read_text())
        assert doc["id"] == path.parent.name and set(doc["rules"]) <= set(RULES), path
        metadata = json.loads((path.parent / doc["metadata-location"].removeprefix(doc["location"] + "/")).read_text())
        assert [s["snapshot-id"] for s in doc["snapshots"]] == [s["snapshot-id"] for s in metadata["snapshots"]]


def test_every_rule_is_named_by_a_test():
    """Each rule id appears in some test of tests/ (a docstring, a match= or a parameter)."""
    text = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    assert sorted(r for r in RULES if r not in text) == []


def test_checksum_manifest_lists_every_file(rendered):
    for files in rendered.values():
        listed = dict(line.split("  ")[::-1] for line in files[golden.CHECKSUMS].decode().splitlines())
        assert set(listed) == set(files) - {golden.CHECKSUMS}


def test_cli_check_and_atomic_generate(tmp_path, capsys, monkeypatch):
    target = tmp_path / "values"
    args = ["--root", str(tmp_path), "--set", "values", "-q"]
    assert main(args + ["check"]) == 1  # nothing there yet
    assert main(args + ["generate"]) == 0
    assert main(args + ["check"]) == 0
    (target / "hash.json").write_text("{}")
    assert main(args + ["check"]) == 1
    assert "values/differs: hash.json" in capsys.readouterr().out

    def fail(*args, **kwargs):
        raise OSError("disk full")

    before = {p.name: p.read_bytes() for p in target.iterdir()}
    monkeypatch.setattr(Path, "write_bytes", fail)
    with pytest.raises(OSError):
        main(args + ["generate"])
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before  # the old set is intact
    assert [p.name for p in tmp_path.iterdir()] == ["values"]  # no staging directory left behind


def test_cli_help(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    assert "generate" in capsys.readouterr().out


def test_a_colliding_new_case_is_refused_and_released_ids_stay():
    """Ids are stable: the committed suffixed ids of colliding slugs are kept; a new collision is an
    error instead of a rename of the case that exists."""
    from spec_impl.vectors.cases import build_all, case, released_ids

    collided = sorted(i for i in released_ids() if i.startswith("type.decimal/") and len(i.rsplit("-", 1)[-1]) == 8)
    spec = case("transform.identity", "one slug", "a case", "transform", transform="identity", type="int", value=1)
    twin = case("transform.identity", "one slug", "its twin", "transform", transform="identity", type="int", value=2)
    assert [c["id"] for c in build_all([spec])] == ["transform.identity/one-slug"]
    with pytest.raises(ValueError, match="give the new one a slug of its own"):
        build_all([spec, twin])
    families = {f.NAME: f for group in SETS.values() for f in group}
    assert set(collided) <= {c["id"] for c in build_all(families["types"].specs())}
