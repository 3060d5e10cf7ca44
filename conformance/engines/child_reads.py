"""Table reads in child processes, for engines whose native code can crash the process reading a
table (DuckDB's and ClickHouse's Iceberg readers): a crash becomes the error of the case being
read, and a new child takes the remaining cases. Plumbing only: no spec rule is applied here.

The parent sends every request as one JSON list on the child's stdin (`run`); the child (`serve`,
the engine module's `__main__`) answers one prefixed line per request, flushed, in order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineAnswer

ANSWER = "read-table answer: "  # the prefix of a child's answer lines
RESTART = 3  # a child's exit code meaning "start a new child for the rest", without blaming the case it stopped at


def run(
    module: str,
    inputs: list[dict[str, Any]],
    request: Callable[[Any, dict[str, Any]], dict[str, Any]],
    label: str,
    cwd: Callable[[list[dict[str, Any]]], str] | None = None,
) -> list[EngineAnswer]:
    """Answer read-table `inputs` with `python -m module` children: each input's golden table is
    written to disk (`golden_tables.table`) and `request(table, input)` is what a child reads.
    `cwd` chooses a child's working directory from its requests; `label` names the engine in crash messages."""
    from conformance.engines import golden_tables

    answers: list[EngineAnswer | None] = [None] * len(inputs)
    requests = []  # (index of the input, what the child reads)
    for i, inp in enumerate(inputs):
        try:
            requests.append((i, request(golden_tables.table(inp["table"]), inp)))
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


def serve(
    read: Callable[[dict[str, Any]], EngineAnswer], restart_after: Callable[[EngineAnswer], bool] = lambda _: False
) -> None:
    """The child side: every request on stdin read with `read`, each answer printed as it comes;
    exits with RESTART after an answer for which `restart_after` is true."""
    for request in json.load(sys.stdin):
        answer = read(request)
        print(ANSWER + json.dumps({"ok": answer.ok, "output": answer.output, "error": answer.error}), flush=True)
        if restart_after(answer):
            sys.exit(RESTART)
