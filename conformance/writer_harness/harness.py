"""The harness: one Spark session per process, the readers, the known writer findings, and
hypothesis driving generated histories through `runner.HistoryRun`.

    h = Harness(warehouse)                   # starts Spark (local[2] unless told otherwise)
    outcome = h.run(history)                 # one history, every check after every step
    h.search(examples=20, max_steps=8, seed=1, on_outcome=print)   # generated ones, shrunk on failure

Known findings (`known_findings.json`) are findings of Iceberg Java, Spark or a reader that are
recorded with the spec text that decides them: they are reported, but do not fail a run. Each
entry matches a check and a regular expression of the message.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .runner import Finding, HistoryRun, Outcome, Readers

KNOWN_PATH = Path(__file__).with_name("known_findings.json")


@dataclass(frozen=True)
class KnownFinding:
    id: str
    check: str  # a check name, or a prefix ending in ':' (reader:)
    match: str  # regular expression searched in the message
    reason: str
    spec: str
    upstream: str | None = None
    step_op: str | None = None  # when set, only findings seen after a step of this op

    def matches(self, f: Finding) -> bool:
        same_check = f.check == self.check or (self.check.endswith(":") and f.check.startswith(self.check))
        return same_check and self.step_op in (None, f.op) and re.search(self.match, f.message) is not None


def known_findings(path: Path = KNOWN_PATH) -> list[KnownFinding]:
    return [KnownFinding(**{k.replace("-", "_"): v for k, v in entry.items()}) for entry in json.loads(path.read_text())["findings"]]


def classify(findings: list[Finding], known: list[KnownFinding]) -> tuple[list[Finding], list[tuple[Finding, KnownFinding]]]:
    """(new findings, known ones with their entry)."""
    new, old = [], []
    for f in findings:
        entry = next((k for k in known if k.matches(f)), None)
        (new.append(f) if entry is None else old.append((f, entry)))
    return new, old


def signature(f: Finding) -> str:
    """What makes two findings the same: the check and the message with ids, paths and numbers blurred."""
    text = re.sub(r"file:\S+", "<path>", f.message)
    text = re.sub(r"\b[0-9a-f]{8}-[0-9a-f-]{27}\b", "<uuid>", text)
    text = re.sub(r"-?\d+(\.\d+)?", "N", text)
    return f"{f.check}: {text[:160]}"


class Harness:
    def __init__(self, warehouse: Path | None = None, *, master: str | None = None, readers: tuple[str, ...] = ("pyiceberg", "duckdb", "polars"),
                 reader_overrides: dict[str, Any] | None = None):  # fmt: skip
        from conformance.engines.iceberg_java.spark import local_spark_session

        self._tmp = None
        if warehouse is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="iceberg-writer-harness-")
            warehouse = Path(self._tmp.name)
        self.warehouse = Path(warehouse)
        self.spark = local_spark_session(self.warehouse, app_name="iceberg-writer-harness", master=master)
        self.engines = _start_engines(readers)
        self.readers = Readers(self.engines, **(reader_overrides or {}))
        self.known = known_findings()
        self.count = 0

    @property
    def writer(self) -> str:
        from importlib import metadata

        return f"Iceberg Java 1.10.2 through Spark {metadata.version('pyspark')}"

    def run(self, history: dict, progress: Callable[[int, dict], None] | None = None) -> Outcome:
        self.count += 1
        return HistoryRun(self.spark, self.warehouse, f"h{self.count}", history, self.readers).run(progress)

    def search(self, examples: int, max_steps: int, seed: int | None, on_outcome: Callable[[Outcome], None],
               min_steps: int = 1, shrink: bool = True) -> dict[str, tuple[dict, list[Finding]]]:  # fmt: skip
        """Run `examples` generated histories; every history with a new finding is shrunk by
        hypothesis. Returns, per finding signature, the smallest history that shows it."""
        from hypothesis import HealthCheck, Phase, given, seed as hseed, settings

        from .strategies import histories

        smallest: dict[str, tuple[dict, list[Finding]]] = {}

        def size(h: dict) -> tuple[int, int]:
            return (len(h["steps"]), len(json.dumps(h)))

        @settings(max_examples=examples, deadline=None, database=None, report_multiple_bugs=True,
                  phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate],
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(histories(min_steps=min_steps, max_steps=max_steps))
        def one(history: dict) -> None:
            outcome = self.run(history)
            on_outcome(outcome)
            new, _ = classify(outcome.findings, self.known)
            for f in new:
                sig = signature(f)
                if sig not in smallest or size(history) < size(smallest[sig][0]):
                    smallest[sig] = (history, [g for g in outcome.findings])
            if new:
                raise _failure(signature(new[0]))(f"{len(new)} new finding(s), first: {new[0].check} after step {new[0].step}: {new[0].message}")

        if seed is not None:
            one = hseed(seed)(one)
        try:
            one()
        except Exception:  # the failures are in `smallest`; hypothesis' report is not needed here
            pass
        return smallest

    def close(self) -> None:
        for engine in self.engines.values():
            engine.stop()
        if self._tmp is not None:
            self._tmp.cleanup()


_FAILURES: dict[str, type] = {}


def _failure(sig: str) -> type:
    """An exception class per finding signature, so that hypothesis shrinks each distinct finding
    on its own (it tells failures apart by exception type and place)."""
    if sig not in _FAILURES:
        _FAILURES[sig] = type(f"WriterFinding{len(_FAILURES)}", (AssertionError,), {"signature": sig})
    return _FAILURES[sig]


def _start_engines(names: tuple[str, ...]) -> dict[str, Any]:
    """The reader adapters, started; one that cannot run here raises with its reason (never skipped silently)."""
    from conformance.engines.registry import load

    engines = {}
    for name in names:
        engine = load(name)()
        engine.start()
        engines[name] = engine
    return engines
