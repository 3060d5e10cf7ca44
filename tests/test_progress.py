"""Progress lines (spec_impl/validate/progress.py) and `iceberg-validate-table`'s use of them: on stderr only
when it is a terminal (without --json) or with --progress, throttled, and stdout byte-identical."""

from __future__ import annotations

import io
import re
import sys

import pytest

from spec_impl.validate import progress as progress_module
from spec_impl.validate.cli import main
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.validate.progress import Progress
from spec_impl.vectors.tables import captured_ids, materialize

TABLE = next(c for c in captured_ids() if c.startswith("spark-v2"))


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_only_when_a_terminal_and_not_quiet_or_when_forced():
    assert Progress.for_terminal("p", stream=Terminal()).enabled
    assert not Progress.for_terminal("p", stream=Terminal(), quiet=True).enabled
    assert not Progress.for_terminal("p", stream=io.StringIO()).enabled
    assert Progress.for_terminal("p", stream=io.StringIO(), quiet=True, forced=True).enabled
    silent = io.StringIO()
    Progress("p", enabled=False, stream=silent).say("nothing")
    assert silent.getvalue() == ""


def test_counters_are_throttled_to_one_line_per_interval():
    out, clock = io.StringIO(), Clock()
    p = Progress("p", enabled=True, stream=out, interval=1.0, clock=clock)
    files = p.counting(InMemoryFiles({f"m{i}.avro": b"x" * 1000 for i in range(50)}))
    for i in range(50):  # 50 reads over 2.45 s
        clock.now = i * 0.05
        files.read(f"m{i}.avro")
    files.read("m0.avro")  # read again: not counted twice
    lines = out.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("[p ") and lines[0].endswith("files 21 (0.0 MB read)")
    assert lines[1].endswith("files 41 (0.0 MB read)")
    assert p.counting(files) is not files and Progress("p", enabled=False).counting(files) is files


def _run(capsys, monkeypatch, argv: list[str], terminal: bool) -> tuple[int, str, str]:
    err = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    return code, capsys.readouterr().out, err.getvalue()


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_validate_table_progress_goes_to_stderr_and_leaves_stdout_alone(tmp_path, capsys, monkeypatch, json_flag):
    metadata, _ = materialize(TABLE, tmp_path)
    monkeypatch.setattr(progress_module, "INTERVAL", 0.0)  # a counter line per file read
    plain = _run(capsys, monkeypatch, [metadata, *json_flag], terminal=False)
    assert plain[2] == ""  # not a terminal: nothing on stderr
    on_terminal = _run(capsys, monkeypatch, [metadata, *json_flag], terminal=True)
    forced = _run(capsys, monkeypatch, [metadata, *json_flag, "--progress"], terminal=False)
    assert plain[:2] == on_terminal[:2] == forced[:2]  # exit code and stdout byte-identical
    if json_flag:
        assert on_terminal[2] == ""  # --json: quiet on a terminal too
    for err in [forced[2]] + ([] if json_flag else [on_terminal[2]]):
        assert "[iceberg-validate-table " in err and "history: every snapshot against its parent" in err
        assert "manifest lists 1/" in err and "other files" in err


def test_watching_reports_counters_while_a_blocking_call_runs():
    import time

    out, done = io.StringIO(), []
    p = Progress("p", enabled=True, stream=out, interval=0.05)
    with p.watching(lambda: f"done {len(done)}"):
        for i in range(6):
            time.sleep(0.05)
            done.append(i)
    lines = out.getvalue().splitlines()
    assert lines and all(re.search(r"\] done \d$", line) for line in lines), lines
    with Progress("p", enabled=False, stream=out).watching(lambda: "never"):
        time.sleep(0.1)
    assert "never" not in out.getvalue()
