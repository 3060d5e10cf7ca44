"""`iceberg-audit`'s progress (spec_impl/validate/progress.py): the job's counters and the history pass's
files on stderr when it is a terminal (without --json) or with --progress, nothing otherwise, and
the same summary on stdout either way.

    pytest conformance/test_audit_progress.py     # or: pytest conformance/ -m spark
"""

from __future__ import annotations

import io
import re
import sys

import pytest

from conformance.audit.cli import main
from conformance.test_audit import CORRUPTED
from spec_impl.validate import progress as progress_module
from spec_impl.vectors.tables import materialize

pytestmark = pytest.mark.spark
TIMING = re.compile(r"in [\d.]+ s \([\d,]+ rows/s\)")  # the one part of the summary that varies


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(capsys, monkeypatch, argv: list[str], terminal: bool) -> tuple[int, str, str]:
    err = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    return code, TIMING.sub("in - s", capsys.readouterr().out), err.getvalue()


def test_audit_progress_on_a_terminal_or_forced_and_quiet_otherwise(spark, tmp_path, capsys, monkeypatch):  # noqa: F811
    metadata, _ = materialize(CORRUPTED, tmp_path / "table")
    monkeypatch.setattr(progress_module, "INTERVAL", 0.0)  # a counter line at every watch
    report = ["--json", str(tmp_path / "audit.json")]
    plain = _run(capsys, monkeypatch, [metadata], terminal=False)
    quiet = _run(capsys, monkeypatch, [metadata, *report], terminal=True)
    shown = _run(capsys, monkeypatch, [metadata], terminal=True)
    forced = _run(capsys, monkeypatch, [metadata, *report, "--progress"], terminal=False)
    assert plain[0] == 0 and plain[:2] == quiet[:2] == shown[:2] == forced[:2]
    assert plain[2] == quiet[2] == ""
    for err in shown[2], forced[2]:
        assert "[iceberg-audit " in err and "history: every snapshot against its parent" in err
        assert re.search(r"manifests \d+/\d+, live files \d+, files checked \d+", err), err
        assert re.search(r"manifest lists \d+/\d+, other files", err), err
