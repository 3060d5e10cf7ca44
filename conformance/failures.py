"""A failed case as a person reads it: a few lines naming the case, its input, the expected and the
observed answer, the sentence of the spec that decides it, and the command that judges it alone."""

from __future__ import annotations

import json
import shlex
from typing import Any

SHOWN_CHARS = 300  # longer values are cut; compliance.json has them whole


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= SHOWN_CHARS else f"{text[:SHOWN_CHARS]}... ({len(text)} characters)"


def plugin_command(engine_spec: str, keyword: str, options: tuple[str, ...] = ()) -> str:
    """The pytest command that runs the installed suite's tests whose id contains `keyword` (the
    end of a case's test id, `my-engine:transform.bucket/int-34]`) against one engine."""
    words = ["pytest", "-p", "iceberg_conformance", "--pyargs", "conformance", "--engine", engine_spec]
    return shlex.join([*words, *options, "-k", keyword])


def rerun_command(config, engine_spec: str, keyword: str, seed: int | str | None) -> str:
    """`plugin_command` for one test of this run, with the run's `--expectations`, and its seed
    where `--random-seed` chose one."""
    options: list[str] = []
    for path in config.getoption("--expectations"):
        options += ["--expectations", str(path)]
    if config.getoption("--random-seed") is not None:
        options += ["--random-seed", str(seed)]
    return plugin_command(engine_spec, keyword, tuple(options))


def failure_text(case: dict[str, Any], outcome: str, message: str, observed: Any, rerun: str) -> str:
    """The lines of a failed case."""
    obligation = case.get("obligation") or {}
    lines = [
        f"{outcome.upper()} {case['id']} [{case['rule']}]: {case['description']}",
        f"  input:    {_shown(case['input'])}",
        f"  expected: {_shown(case['expected'].get('output', case['expected']))}",
        f"  observed: {_shown(observed)}",
        f"  verdict:  {message}",
    ]
    if obligation.get("quote"):
        lines.append(f"  spec:     {obligation['quote']!r} ({obligation.get('section') or case['section']})")
        if obligation.get("table-row"):
            lines.append(f"  row:      {obligation['table-row']!r}")
    else:
        lines.append(f"  spec:     {case['section']}")
    return "\n".join(lines + [f"  rerun:    {rerun}"])
