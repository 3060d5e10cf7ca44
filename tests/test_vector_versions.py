"""Versions of the vectors and their computed changelog (spec_impl.vectors.versions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_impl.resources import vectors_dir
from spec_impl.vectors import versions


def _vectors(root: Path, cases: list[dict], version: str = "1.0.0") -> Path:
    (root / "values").mkdir(parents=True, exist_ok=True)
    (root / "values" / "toy.json").write_text(json.dumps({"family": "toy", "cases": cases}))
    (root / "VERSION").write_text(version + "\n")
    return root


def _case(case_id: str, expected: object, description: str = "d") -> dict:
    return {
        "id": case_id,
        "op": "hash",
        "input": {"v": 1},
        "expected": {"output": expected},
        "description": description,
    }


def test_the_changelog_tells_added_changed_annotated_and_removed(tmp_path):
    root = _vectors(tmp_path / "v", [_case("a", 1), _case("b", 2), _case("c", 3)], "1.0.0")
    versions.record(root, into=root / "releases")
    _vectors(root, [_case("a", 1, "reworded"), _case("b", 20), _case("d", 4)], "1.1.0")
    log = versions.changelog(root)
    assert (log.since, log.added, log.changed, log.annotated, log.removed) == ("1.0.0", ("d",), ("b",), ("a",), ("c",))
    text = log.markdown("1.1.0")
    assert "1 cases added, 1 changed (question or answer), 0 extended to later revisions only, 1 annotated only" in text
    assert "- `d`" in text and "- `c`" in text


def test_a_case_that_only_gains_later_revisions_is_extended_not_changed(tmp_path):
    first = ["2024-seed", "v3-adopted"]
    root = _vectors(tmp_path / "v", [{**_case("a", 1), "revisions": first}, {**_case("b", 2), "revisions": first}])
    versions.record(root, into=root / "releases")
    later = first + ["upstream-2026-08"]
    _vectors(root, [{**_case("a", 1), "revisions": later}, {**_case("b", 3), "revisions": later}], "1.1.0")
    log = versions.changelog(root)
    assert (log.extended, log.changed) == (("a",), ("b",))  # b's answer changed too: a change, not an extension
    assert "1 changed (question or answer), 1 extended to later revisions only" in log.markdown("1.1.0")


def test_a_golden_table_changes_with_any_file_of_its_tree(tmp_path):
    root = _vectors(tmp_path / "v", [])
    table = root / "tables" / "t"
    (table / "data").mkdir(parents=True)
    (table / "case.json").write_text(json.dumps({"id": "t", "description": "x"}))
    (table / "data" / "f.parquet").write_bytes(b"one")
    before = versions.case_digests(root)["tables/t"]
    (table / "data" / "f.parquet").write_bytes(b"two")
    assert versions.case_digests(root)["tables/t"]["answer"] != before["answer"]


def test_the_first_release_lists_everything_as_added(tmp_path):
    root = _vectors(tmp_path / "v", [_case("a", 1)])
    log = versions.changelog(root)
    assert log.since.startswith("nothing") and log.added == ("a",)


def test_a_missing_version_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="VERSION is missing"):
        versions.vectors_version(tmp_path)


def test_the_committed_changelog_states_the_computed_changes_of_the_current_version():
    """vectors/CHANGELOG.md's section of VERSION says what `iceberg-vectors changelog` computes
    against the last recorded release (regenerate it when the vectors change)."""
    version = versions.vectors_version()
    log = versions.changelog()
    counts_line = log.markdown(version).splitlines()[2]
    changelog = (vectors_dir() / "CHANGELOG.md").read_text()
    section = changelog.split(f"## {version} ", 1)[1].split("\n## ", 1)[0]
    assert counts_line in section, f"CHANGELOG.md's {version} section should say: {counts_line}"


def test_every_recorded_release_names_itself():
    releases = versions.recorded_releases()
    assert releases, "no release recorded under vectors/releases"
    for version, path in releases.items():
        doc = json.loads(path.read_text())
        assert doc["version"] == version
        assert doc["digests"] and all(set(d) == {"answer", "case"} for d in doc["digests"].values())


def test_the_changelog_command(tmp_path, capsys):
    from spec_impl.vectors import cli

    root = _vectors(tmp_path / "v", [_case("a", 1)], "1.0.0")
    assert cli.main(["--root", str(root), "changelog", "--record"]) == 0
    assert (root / "releases" / "1.0.0" / "digests.json").is_file()
    _vectors(root, [_case("a", 2)], "1.1.0")
    capsys.readouterr()
    assert cli.main(["--root", str(root), "changelog", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "since": "1.0.0",
        "added": [],
        "changed": ["a"],
        "extended": [],
        "annotated": [],
        "removed": [],
    }
