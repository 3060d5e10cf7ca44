"""The native engines' build (`conformance/engines/native_programs.py`): cached by a key over the
folder's files and the toolchain, never rebuilt for the same key, and failing loudly, with the
build's own words, when what it needs cannot be had."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from conformance.engines import native_programs as native
from conformance.engines.base import EngineUnavailable

GO = native.RECIPES["iceberg-go"]
needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")

HELLO = """package main

import "fmt"

func main() { fmt.Println(`{"engine": "tiny", "version": "1", "protocol": 2, "capabilities": []}`) }
"""


def _folder(tmp_path, requires: str = ""):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "go.mod").write_text(f"module tiny\n\ngo 1.21\n{requires}")
    (folder / "go.sum").write_text("")
    (folder / "main.go").write_text(HELLO)
    (folder / "README.md").write_text("a tiny engine\n")
    return replace(GO, engine="tiny", folder="tiny", root=tmp_path, binary="tiny-engine")


@needs_go
def test_the_key_follows_the_programs_files_and_not_its_readme(tmp_path):
    recipe = _folder(tmp_path)
    key = native.build_key(recipe)
    (recipe.directory / "README.md").write_text("another text\n")
    assert native.build_key(recipe) == key
    (recipe.directory / "main.go").write_text(HELLO.replace('"1"', '"2"'))
    assert native.build_key(recipe) != key


@needs_go
def test_a_build_is_cached_and_found_again_without_building(tmp_path, monkeypatch):
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    recipe = _folder(tmp_path)
    said: list[str] = []
    binary = native.build(recipe, progress=said.append)
    assert binary.is_file() and binary.parent.name == native.build_key(recipe)
    assert any(line.startswith("building tiny") for line in said)
    said.clear()
    assert native.build(recipe, progress=said.append) == binary and said == []


@needs_go
def test_two_builds_of_one_key_racing_end_with_the_first_ones_binary(tmp_path, monkeypatch):
    """Two runs building the same key at once (a CI job beside a developer's run): the second to
    finish finds the key's directory taken and uses it, instead of failing on the rename."""
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    recipe = _folder(tmp_path)
    final = tmp_path / "cache" / "tiny" / native.build_key(recipe)
    real_run = native.subprocess.run

    def run_then_finish_the_other_build(*args, **kwargs):
        done = real_run(*args, **kwargs)
        if args and "build" in args[0]:
            final.mkdir(parents=True)
            (final / recipe.binary).write_text("the other build's binary")
        return done

    monkeypatch.setattr(native.subprocess, "run", run_then_finish_the_other_build)
    said: list[str] = []
    assert native.build(recipe, progress=said.append) == final / recipe.binary
    assert (final / recipe.binary).read_text() == "the other build's binary"
    assert any("another build of the same key finished first" in line for line in said)
    assert [p.name for p in final.parent.iterdir()] == [final.name]  # no temporary directory left


@needs_go
def test_a_module_that_cannot_be_fetched_fails_the_build_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("GOPROXY", "off")  # no registry is asked: the module cannot be had
    monkeypatch.setenv("GOMODCACHE", str(tmp_path / "modcache"))
    recipe = _folder(tmp_path, "\nrequire example.com/not-served v1.0.0\n")
    (recipe.directory / "main.go").write_text('package main\n\nimport _ "example.com/not-served"\n\nfunc main() {}\n')
    with pytest.raises(native.BuildFailed) as raised:
        native.build(recipe, progress=lambda line: None)
    assert "example.com/not-served" in str(raised.value) and "tiny" in str(raised.value)
    assert not any(p.name == native.build_key(recipe) for p in (tmp_path / "cache" / "tiny").iterdir())


def test_a_folder_without_its_lock_file_is_no_build(tmp_path):
    recipe = replace(GO, engine="tiny", folder="tiny", root=tmp_path)
    (tmp_path / "tiny").mkdir()
    with pytest.raises(native.BuildFailed, match="go.sum is missing"):
        native.build(recipe)


def test_a_missing_toolchain_makes_the_engine_unavailable_with_what_to_install(tmp_path):
    recipe = replace(_bare(tmp_path), tool="no-such-toolchain", version_command=("no-such-toolchain",))
    with pytest.raises(EngineUnavailable, match="no-such-toolchain is not installed"):
        native.build(recipe)


def _bare(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "go.sum").write_text("")
    return replace(GO, engine="tiny", folder="tiny", root=tmp_path)


def test_every_native_engine_folder_is_self_contained():
    """Its program, its lock file and a README; no Python of the suite inside."""
    for recipe in native.RECIPES.values():
        files = {p.name for p in recipe.directory.iterdir()}
        assert {recipe.lock_file, "README.md"} <= files, (recipe.engine, files)
        assert not list(recipe.directory.rglob("*.py")), recipe.engine
