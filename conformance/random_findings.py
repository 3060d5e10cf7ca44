"""The random inputs an engine disagreed on, written for adoption as vectors.

When a random or property test finds a disagreement (a finding, or a known disagreement inside a
recorded scope), it writes the inputs to `random-findings.json`: beside the compliance report
(`--compliance-report DIR`), else in the run's temporary directory (pytest's basetemp). Each
entry holds the op, the input, the engine (name, version, spec revision), its answer and the
verdict; the document holds the run's seed and date. The failure message names the file and the
command that adds its inputs to the vectors' sources: `iceberg-vectors adopt-random FILE`
(`spec_impl.vectors.random_findings`), after which they are ordinary vector cases.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from conformance.engines.base import EngineAnswer

FILE_NAME = "random-findings.json"
FORMAT = 1
_FOUND = pytest.StashKey[list]()


def finding(engine, op: str, inp: dict, answer: EngineAnswer, verdict: str, message: str, known: str | None) -> dict:
    """One disagreeing input: `engine` is the adapter (its name, version and revision)."""
    return {
        "engine": engine.name,
        "engine-version": str(getattr(engine, "version", "")),
        "revision": engine.revision,
        "op": op,
        "input": inp,
        "answer": answer.observed(),
        "verdict": verdict,
        "message": message[:500],
        "known": known,
    }


def path(request: pytest.FixtureRequest) -> Path:
    """Where the run's findings go: beside the compliance report, else in pytest's basetemp."""
    report = request.config.getoption("--compliance-report")
    if report is not None:
        return Path(report) / FILE_NAME
    return request.getfixturevalue("tmp_path_factory").getbasetemp() / FILE_NAME


def save(request: pytest.FixtureRequest, found: list[dict[str, Any]]) -> Path | None:
    """Add the findings to the run's file (rewritten whole) and return its path; None when none."""
    if not found:
        return None
    config = request.config
    config.stash.setdefault(_FOUND, []).extend(found)
    from conformance.conftest import RECORDER
    from spec_impl.vectors.export import version

    seed = config.stash[RECORDER].random_seed if RECORDER in config.stash else None
    doc = {
        "format": FORMAT,
        "suite-version": version(),
        "seed": seed,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "findings": config.stash[_FOUND],
    }
    target = path(request)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    return target


def adopt_hint(target: Path | None) -> str:
    """The sentence naming the file and the command that adopts its inputs as vectors."""
    if target is None:
        return ""
    return f"\nthe inputs are in {target}; make them vectors: iceberg-vectors adopt-random {target}"
