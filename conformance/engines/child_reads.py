"""Table reads in child processes, for engines whose native code can crash the process reading a
table (DuckDB's and ClickHouse's Iceberg readers): a crash becomes the error of the case being
read, and a new child takes the remaining cases. Plumbing only: no spec rule is applied here.

An adapter subclasses `ChildProcessReads`. The parent sends every request as one JSON list on the
child's stdin (`run`); the child (`serve`, the adapter module's `__main__`) answers one prefixed
line per request, flushed, in order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from conformance.engines import golden_tables
from conformance.engines.base import Engine, EngineAnswer

OP = "read-table"
ANSWER = "read-table answer: "  # the prefix of a child's answer lines
RESTART = 3  # a child's exit code meaning "start a new child for the rest", without blaming the case it stopped at


class ChildProcessReads(Engine):
    """An engine that answers read-table in child processes: `python -m` the adapter's module,
    whose `__main__` calls `serve` with the engine class. The parent turns each case into a JSON
    request (`table_request`); the child answers it (`read_request`)."""

    crash_label: ClassVar[str]  # the engine as a crash message names it

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        if op != OP:
            return super().run_batch(op, cases)
        inputs = [c["input"] for c in cases]
        return run(type(self).__module__, inputs, self.table_request, self.crash_label, self.child_directory)

    def table_request(self, table: golden_tables.GoldenTable, snapshot_id: int) -> dict[str, Any]:
        """What a child reads for one case (JSON)."""
        raise NotImplementedError

    def read_request(self, request: dict[str, Any]) -> EngineAnswer:
        """In the child: one request's answer."""
        raise NotImplementedError

    def restart_after(self, answer: EngineAnswer) -> bool:
        """In the child: whether a new child should take the requests after this answer."""
        return False

    def child_directory(self, requests: list[dict[str, Any]]) -> str | None:
        """The working directory of a child reading `requests` (None: the parent's)."""
        return None


def run(
    module: str,
    inputs: list[dict[str, Any]],
    request: Callable[[Any, int], dict[str, Any]],
    label: str,
    cwd: Callable[[list[dict[str, Any]]], str] | None = None,
) -> list[EngineAnswer]:
    """Answer read-table `inputs` with `python -m module` children: each input's golden table is
    written to disk (`golden_tables.table`) and `request(table, snapshot id)` is what a child reads.
    `cwd` chooses a child's working directory from its requests; `label` names the engine in crash messages."""
    answers: list[EngineAnswer | None] = [None] * len(inputs)
    requests = []  # (index of the input, what the child reads)
    for i, inp in enumerate(inputs):
        try:
            requests.append((i, request(golden_tables.table(inp["table"]), inp["snapshot-id"])))
        except Exception as e:
            answers[i] = EngineAnswer(False, error=f"the adapter cannot write the table: {type(e).__name__}: {e}")
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    while requests:
        batch = [r for _, r in requests]
        child = subprocess.run(
            [sys.executable, "-m", module],
            input=json.dumps(batch),
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd(batch) if cwd else None,
            check=False,
        )
        lines = [json.loads(line[len(ANSWER) :]) for line in child.stdout.splitlines() if line.startswith(ANSWER)]
        for (i, _), line in zip(requests, lines):
            answers[i] = EngineAnswer(line["ok"], line["output"], line["error"])
        done = len(lines)
        if done < len(requests) and child.returncode != RESTART:
            how = f"signal {-child.returncode}" if child.returncode < 0 else f"exit code {child.returncode}"
            stderr = " ".join(child.stderr.split())[-500:]
            answers[requests[done][0]] = EngineAnswer(
                False, error=f"{label} crashed reading the table ({how}) {stderr}".strip()
            )
            done += 1
        requests = requests[done:]
    return answers  # type: ignore[return-value]


def serve(engine_class: type[ChildProcessReads]) -> None:
    """The child side: a started engine reads every request on stdin, each answer printed as it
    comes; exits with RESTART after an answer for which the engine's `restart_after` is true."""
    engine = engine_class()
    engine.start()
    try:
        for request in json.load(sys.stdin):
            answer = engine.read_request(request)
            print(ANSWER + json.dumps({"ok": answer.ok, "output": answer.output, "error": answer.error}), flush=True)
            if engine.restart_after(answer):
                sys.exit(RESTART)
    finally:
        engine.stop()
