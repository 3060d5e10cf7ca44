"""A writer's statements run in a child process, one JSON object per line each way, so that an
abort inside the writer's engine ends the child and not the harness (`writers.chdb`, `writers.duckdb`).

The parent sends `{"sql": ...}`; the child answers with the reply dict its `run` makes of the
statement (a result, or the engine's error, for the writer to raise as its own exception class).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


class Died(Exception):
    """The child process ended while running a statement (an abort or a signal): the writer's crash."""


class ChildSession:
    """`python -m <module> <args>` in `cwd`, speaking the line protocol above; `label` names the
    engine in the message of a child that died."""

    def __init__(self, module: str, args: tuple[str, ...] = (), cwd: Path | None = None, label: str = "the writer"):
        self.label = label
        self.child = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=cwd,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": _project_path()},
        )

    def request(self, sql: str) -> dict[str, Any]:
        """The child's reply to one statement; `Died` when the child is gone."""
        try:
            self.child.stdin.write(json.dumps({"sql": sql}) + "\n")
            self.child.stdin.flush()
            line = self.child.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            code = self.child.wait()
            raise Died(f"the {self.label} process ended (exit code {code}) running: {sql[:300]}")
        return json.loads(line)

    def alive(self) -> bool:
        return self.child.poll() is None

    def close(self) -> None:
        if self.alive():
            self.child.stdin.close()
            try:
                self.child.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a child that does not end: this session's own
                self.child.kill()
                self.child.wait()


def serve(run: Callable[[str], dict[str, Any]]) -> None:
    """The child's loop: each statement read is answered with `run(statement)`."""
    for line in sys.stdin:
        sys.stdout.write(json.dumps(run(json.loads(line)["sql"])) + "\n")
        sys.stdout.flush()


def _project_path() -> str:
    """PYTHONPATH for the child: this checkout (or installed package) first."""
    root = str(Path(__file__).resolve().parents[2])
    return os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
