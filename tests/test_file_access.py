"""Reads stay inside the table: rule tree.file-location (`spec_impl.manifests.locations`), a safety
rule of this suite (the spec lets a table track files anywhere: "Overview", "Table Metadata
Fields" `location`). The validator CLI, the reference reader and the audit read a table's files
only under its location and write paths (and --allow-outside prefixes); any other path a metadata
file, manifest list, manifest, position delete row or DV names is reported and never opened.
Missing, directory and unreadable files are not violations of that rule: the CLIs exit 2 on them.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.validate import cli
from spec_impl.manifests.locations import FILE_LOCATION, ContainedFiles, canonical, contain, table_prefixes
from spec_impl.manifests.tree import FileUnreadable, InMemoryFiles, LocalFiles
from spec_impl.manifests.writer import TreeWriter, data_file, edit_avro, entry, fix_manifest_lengths
from spec_impl.scan.reader import read_table
from spec_impl.scan.table_writer import TableBuilder
from spec_impl.vectors import tables
from spec_impl.vectors.families import manifest_trees as trees

# --- every open of this process, while a test watches -------------------------------------------------
_OPENED: list[str] = []
_WATCHING = [False]


def _hook(event: str, args: tuple) -> None:
    if _WATCHING[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_hook)


class _Watch:
    """The paths opened inside the block (Python's `open` audit event: every file read)."""

    def __enter__(self) -> list[str]:
        _OPENED.clear()
        _WATCHING[0] = True
        return _OPENED

    def __exit__(self, *exc) -> None:
        _WATCHING[0] = False


def _opened_under(opened: list[str], directory: Path) -> list[str]:
    return [p for p in opened if os.path.realpath(p).startswith(os.path.realpath(directory) + os.sep)]


# --- tables on disk -----------------------------------------------------------------------------------


def _materialize(files: dict[str, bytes]) -> None:
    for path, data in files.items():
        local = Path(canonical(path)[1])
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)


def _tree(tmp_path: Path) -> TreeWriter:
    """A v2 table at file:<tmp>/t with two snapshots (manifests m1, m2)."""
    w = TreeWriter(f"file:{tmp_path}/t", 2, trees.SCHEMA)
    rows = w.commit(
        1, "append", [w.write_manifest("m1.avro", [entry(1, data_file(f"file:{tmp_path}/t/data/a.parquet", 3))])]
    )
    w.commit(
        2, "append", [w.write_manifest("m2.avro", [entry(1, data_file(f"file:{tmp_path}/t/data/b.parquet", 4))])], rows
    )
    return w


def _validate(capsys, *args: str) -> tuple[int, str]:
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


HOSTILE = [
    "../../etc/passwd",
    "/etc/hostname",
    "file:///etc/hostname",
    "file:/etc/hostname",
    "file://localhost/etc/hostname",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_validator_reports_a_manifest_outside_the_location_and_never_opens_it(tmp_path, capsys, hostile):
    """tree.file-location: relative traversal, absolute paths and file: URIs of system files."""
    w = _tree(tmp_path)
    trees._edit_list(w, 2, lambda rows: rows[0].update(manifest_path=hostile))
    _materialize(w.files)
    with _Watch() as opened:
        code, out = _validate(capsys, w.metadata_location, "--json")
    assert code == 1
    [v] = [v for v in json.loads(out[: out.rindex("]") + 1]) if v["rule"] == FILE_LOCATION]
    assert v["path"] == hostile and hostile in v["message"] and "lies outside the table's location" in v["message"]
    assert not [p for p in opened if "etc" in Path(p).parts], opened
    assert [p for p in opened if p.endswith(".avro") or p.endswith(".json")]  # the watch does see the table's own reads


def test_outside_file_is_refused_the_same_whether_it_exists_or_not(tmp_path, capsys):
    """A `..` escaping the location after normalization names a valid manifest (a copy of m2): were
    it read, the tree would have no violation; allowed with --allow-outside, it is read."""
    w = _tree(tmp_path)
    escape = f"file:{tmp_path}/t/metadata/../../outside/m2.avro"
    trees._edit_list(w, 2, lambda rows: rows[0].update(manifest_path=escape))
    _materialize(w.files)
    sentinel = tmp_path / "outside" / "m2.avro"
    refused_missing = _validate(capsys, w.metadata_location)
    sentinel.parent.mkdir()
    shutil.copy(tmp_path / "t" / "metadata" / "m2.avro", sentinel)
    with _Watch() as opened:
        refused_present = _validate(capsys, w.metadata_location)
    assert refused_missing == refused_present  # the answer does not depend on the file: it is never looked at
    code, out = refused_present
    assert code == 1 and f"[{FILE_LOCATION}] {escape}" in out and "lies outside the table's location" in out
    assert _opened_under(opened, sentinel.parent) == []
    with _Watch() as opened:
        assert _validate(capsys, w.metadata_location, "--allow-outside", f"{tmp_path}/outside")[0] == 0
    assert {os.path.realpath(p) for p in _opened_under(opened, sentinel.parent)} == {
        os.path.realpath(sentinel)
    }  # allowed: read (by each pass that needs it: no file is kept between passes)
    sentinel.unlink()
    code, out = _validate(capsys, w.metadata_location, "--allow-outside", f"file://{tmp_path}/outside")
    assert code == 1 and "[tree.file-exists]" in out  # allowed, read, and not there


def test_symlink_out_of_the_table_is_not_followed(tmp_path, capsys):
    """A link inside the table to a file outside is refused; a link to a file inside reads."""
    w = _tree(tmp_path)
    _materialize(w.files)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(tmp_path / "t" / "metadata" / "m2.avro", outside / "m2.avro")
    link = tmp_path / "t" / "metadata" / "m2.avro"
    link.unlink()
    link.symlink_to(outside / "m2.avro")
    with _Watch() as opened:
        code, out = _validate(capsys, w.metadata_location)
    assert code == 1 and "resolves through a symbolic link" in out and FILE_LOCATION in out
    assert _opened_under(opened, outside) == []
    link.unlink()
    (tmp_path / "t" / "metadata" / "copy.avro").write_bytes((outside / "m2.avro").read_bytes())
    link.symlink_to(tmp_path / "t" / "metadata" / "copy.avro")
    assert _validate(capsys, w.metadata_location)[0] == 0
    # a symlinked table directory reads: prefixes are resolved too
    (tmp_path / "alias").symlink_to(tmp_path / "t")
    assert ContainedFiles.for_table(
        LocalFiles(), str(tmp_path / "alias" / "metadata" / Path(w.metadata_location).name)
    ).read(f"file:{tmp_path}/t/metadata/m1.avro")


def test_write_paths_of_the_properties_are_inside(tmp_path, capsys):
    """write.metadata.path (and write.data.path, write.object-storage.path) are allowed prefixes."""
    w = _tree(tmp_path)
    moved = f"file://{tmp_path}/elsewhere/m2.avro"  # the other URI spelling Spark writes
    trees._edit_list(w, 2, lambda rows: rows[0].update(manifest_path=moved))
    w.files[moved] = w.files.pop(f"file:{tmp_path}/t/metadata/m2.avro")
    _materialize(w.files)
    assert _validate(capsys, w.metadata_location)[0] == 1
    for prop in ("write.metadata.path", "write.data.path", "write.object-storage.path"):
        doc = json.loads(w.files[w.metadata_location])
        doc["properties"] = {prop: f"file:{tmp_path}/elsewhere"}
        Path(canonical(w.metadata_location)[1]).write_text(json.dumps(doc))
        assert _validate(capsys, w.metadata_location) == (
            0,
            f"ok: no violation in the tree of {w.metadata_location}\n",
        ), prop


def test_missing_directory_and_unreadable_files_exit_2(tmp_path, capsys):
    w = _tree(tmp_path)
    _materialize(w.files)
    code, out = _validate(capsys, str(tmp_path / "t" / "metadata" / "v9.metadata.json"))
    assert code == 2 and "no such file" in out and "v9.metadata.json" in out
    code, out = _validate(capsys, str(tmp_path / "t" / "metadata"))
    assert code == 2 and "is a directory" in out
    code, out = _validate(capsys, "/proc/self/mem")  # exists, cannot be read (EIO)
    assert code == 2 and "cannot read" in out
    m2 = tmp_path / "t" / "metadata" / "m2.avro"
    m2.unlink()
    m2.mkdir()  # a file of the tree that is a directory: not a verdict on the table
    code, out = _validate(capsys, w.metadata_location)
    assert code == 2 and "m2.avro" in out and "is a directory" in out
    m2.rmdir()  # a file of the tree that is not there: rule tree.file-exists
    code, out = _validate(capsys, w.metadata_location)
    assert code == 1 and "[tree.file-exists]" in out


def test_help_documents_the_exit_codes_and_allow_outside(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "Exit status" in out and "--allow-outside PREFIX" in out and FILE_LOCATION in out
    assert (
        "0  the tree has no violation" in out
        and "1  it has violations" in out
        and "2  bad arguments, or a file that cannot be read" in out
    )


# --- normalization ----------------------------------------------------------------------------------


def test_spellings_of_one_file_are_one_path_and_prefixes_end_at_a_segment(tmp_path):
    assert (
        canonical("file:/a/b")
        == canonical("file:///a/b")
        == canonical("file://localhost/a/b")
        == canonical("/a/b")
        == ("", "/a/b")
    )
    assert canonical("/a/t/data/../../b") == ("", "/a/b")
    assert canonical("s3://bucket/t/../x") == ("s3://bucket", "/x")
    files = ContainedFiles(InMemoryFiles({}), ["file:/w/t"])
    files.check("file:///w/t/data/a.parquet")
    files.check("/w/t")
    for outside in (
        "/w/t2/a.parquet",
        "file:/w/t/../t2/a",
        "file://otherhost/w/t/a",
        "s3://w/t/a",
        "relative/w/t/a",
        "",
        "/w/t/\x00",
    ):
        with pytest.raises(InvalidInput) as e:
            files.check(outside)
        assert e.value.rule == FILE_LOCATION
    with pytest.raises(InvalidInput, match="lies outside the table's location"):
        ContainedFiles(InMemoryFiles({}), ["s3://b/t"]).check("s3://b/t/../../etc/passwd")


def test_a_metadata_file_without_a_location_allows_only_itself():
    assert table_prefixes(b"\x1f\x8b\x08\x00 not deflate") == table_prefixes(b"[1]") == table_prefixes(b"{") == []
    assert table_prefixes(
        json.dumps({"location": "s3://b/t", "properties": {"write.data.path": "s3://b/d", "other": "x"}}).encode()
    ) == ["s3://b/t", "s3://b/d"]
    files = contain(InMemoryFiles({"m.json": b"{", "x": b""}), "m.json")
    assert files.read("m.json") == b"{"
    with pytest.raises(InvalidInput, match=FILE_LOCATION):
        files.read("x")


# --- the reference reader ---------------------------------------------------------------------------------


def _reader_table(
    tmp_path: Path, *, outside_data: bool = False, position_row: str | None = None, dv_target: str | None = None
) -> TableBuilder:
    fv = 3 if dv_target else 2
    t = TableBuilder(f"file:{tmp_path}/t", fv, tables.SCHEMA)
    a = t.data("a.parquet", tables.rows((1, "a", "x"), (2, "b", "x")))
    if outside_data:
        moved = f"file:{tmp_path}/outside/a.parquet"
        t.files[moved] = t.files.pop(a["file_path"])
        a = dict(a, file_path=moved)
    t.commit("append", [t.added([a])])
    if position_row is not None:
        t.commit(
            "delete",
            [t.added([t.position_deletes("d.parquet", [(position_row, 0), (a["file_path"], 1)], referenced=None)])],
        )
    if dv_target is not None:
        t.commit("delete", [t.added([t.deletion_vector("dv.puffin", a["file_path"], [0])])])
        manifest = next(r["manifest_path"] for r in t.current if r.get("content") == 1)
        edit_avro(
            t.files, manifest, lambda records, meta: records[0]["data_file"].update(referenced_data_file=dv_target)
        )
        fix_manifest_lengths(t.files, [s["manifest-list"] for s in t.tree.snapshots], manifest)
    _materialize(t.files)
    return t


def test_reader_refuses_a_data_file_outside_and_reads_it_when_allowed(tmp_path):
    t = _reader_table(tmp_path, outside_data=True)
    with _Watch() as opened, pytest.raises(InvalidInput) as e:
        read_table(LocalFiles(), t.tree.metadata_location)
    assert e.value.rule == FILE_LOCATION and f"file:{tmp_path}/outside/a.parquet" in str(e.value)
    assert _opened_under(opened, tmp_path / "outside") == []
    rows = read_table(LocalFiles(), t.tree.metadata_location, allow_outside=[f"{tmp_path}/outside"]).to_pylist()
    assert sorted(r["id"] for r in rows) == [1, 2]


def test_reader_refuses_a_position_delete_row_naming_a_file_outside(tmp_path):
    t = _reader_table(tmp_path, position_row="/etc/hostname")
    with _Watch() as opened, pytest.raises(InvalidInput) as e:
        read_table(LocalFiles(), t.tree.metadata_location)
    assert (
        e.value.rule == FILE_LOCATION and "'/etc/hostname'" in str(e.value) and "position delete file" in str(e.value)
    )
    assert "/etc/hostname" not in opened
    rows = read_table(
        LocalFiles(), t.tree.metadata_location, allow_outside=["/etc"]
    ).to_pylist()  # a row elsewhere: deletes nothing here
    assert [r["id"] for r in rows] == [1]


def test_reader_refuses_a_dv_whose_referenced_data_file_is_outside(tmp_path):
    t = _reader_table(tmp_path, dv_target="file:///etc/hostname")
    with pytest.raises(InvalidInput) as e:
        read_table(LocalFiles(), t.tree.metadata_location)
    assert (
        e.value.rule == FILE_LOCATION
        and "referenced_data_file" in str(e.value)
        and "file:///etc/hostname" in str(e.value)
    )


def test_golden_tables_read_at_their_relocated_locations(tmp_path):
    """Relocated golden tables (spec_impl.ops.relocate), Spark's captured ones included, read
    under the policy: every file is inside."""
    for case_id in ("position-deletes", next(i for i in tables.captured_ids() if i.startswith("spark-v3"))):
        metadata, doc = tables.materialize(case_id, tmp_path / case_id)
        last = doc["snapshots"][-1]
        with _Watch() as opened:
            got = tables.table_rows(
                read_table(LocalFiles(), metadata, last["snapshot-id"], with_lineage=doc["format-version"] >= 3)
            )
        assert got == {"columns": last["columns"], "rows": last["rows"]}, case_id
        assert all(
            os.path.realpath(p).startswith(os.path.realpath(tmp_path / case_id))
            for p in opened
            if p.startswith(str(tmp_path))
        )


# --- the audit (without Spark: the plan and the local run) -------------------------------------------------


def test_audit_reports_files_outside_and_never_reads_them(tmp_path):
    from conformance.audit.job import run_local
    from conformance.audit.plan import plan

    t = _reader_table(tmp_path, outside_data=True)
    with _Watch() as opened:
        result = run_local(plan(LocalFiles(), t.tree.metadata_location))
    assert [(v.rule, v.path) for v in result.violations] == [(FILE_LOCATION, f"file:{tmp_path}/outside/a.parquet")]
    assert _opened_under(opened, tmp_path / "outside") == []
    allowed = run_local(
        plan(
            ContainedFiles.for_table(LocalFiles(), t.tree.metadata_location, [f"{tmp_path}/outside"]),
            t.tree.metadata_location,
        )
    )
    assert [v.rule for v in allowed.violations] == [] and allowed.files == 1

    shutil.rmtree(tmp_path / "t")
    t = _reader_table(tmp_path, position_row=f"file:{tmp_path}/t/../secret.parquet")
    (tmp_path / "secret.parquet").write_bytes(b"PAR1 not read")
    with _Watch() as opened:
        result = run_local(plan(LocalFiles(), t.tree.metadata_location))
    assert FILE_LOCATION in {v.rule for v in result.violations}
    assert str(tmp_path / "secret.parquet") not in opened

    shutil.rmtree(tmp_path / "t")
    t = _reader_table(tmp_path, dv_target="/etc/hostname")
    with _Watch() as opened:
        result = run_local(plan(LocalFiles(), t.tree.metadata_location))
    assert any(v.rule == FILE_LOCATION and "/etc/hostname" in v.message for v in result.violations)
    assert "/etc/hostname" not in opened


def test_audit_cli_exit_codes_before_spark_starts(tmp_path, capsys):
    """A manifest list outside the location: exit 1 (a violation), found while planning, so no
    Spark session starts; a missing or directory metadata file: exit 2."""
    from conformance.audit import cli as audit_cli

    w = _tree(tmp_path)
    doc = json.loads(w.files[w.metadata_location])
    doc["snapshots"][-1]["manifest-list"] = "file:///etc/hostname"
    w.files[w.metadata_location] = json.dumps(doc).encode()
    _materialize(w.files)
    assert audit_cli.main([w.metadata_location]) == 1
    err = capsys.readouterr().err
    assert FILE_LOCATION in err and "file:///etc/hostname" in err and "lies outside the table's location" in err
    assert audit_cli.main([str(tmp_path / "nope.metadata.json")]) == 2
    assert audit_cli.main([str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_unreadable_is_not_a_spec_violation(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(FileUnreadable, match="is a directory"):
        LocalFiles().read(f"file:{tmp_path}/d")
    with pytest.raises(FileUnreadable, match="another host|of host"):
        LocalFiles().read("file://otherhost/etc/hostname")
