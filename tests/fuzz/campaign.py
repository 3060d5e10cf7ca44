"""A campaign: N generated inputs per family from a fixed seed, every outcome counted; each new
escape (a signature not seen before in this campaign) minimized and saved to the corpus.

Per family the summary counts inputs, accepted, SpecError (by rule id), other exceptions,
timeouts and memory overruns ("crash" is counted with the timeouts: a worker killed or dead).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import codec, corpus
from .families import FAMILIES, generate
from .minimize import minimize
from .pool import Pool
from .worker import Outcome


@dataclass
class Stats:
    family: str
    inputs: int = 0
    kinds: Counter = field(default_factory=Counter)
    rules: Counter = field(default_factory=Counter)
    escapes: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # signature -> first example
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.inputs += 1
        self.kinds["timeout" if outcome.kind == "crash" else outcome.kind] += 1
        if outcome.kind == "spec":
            self.rules[outcome.detail] += 1

    def row(self) -> list[Any]:
        k = self.kinds
        return [self.family, self.inputs, k["accepted"], k["spec"], k["other"], k["timeout"], k["memory"]]


HEADER = ["family", "inputs", "accepted", "SpecError", "other", "timeouts", "memory"]


def table(rows: list[list[Any]]) -> str:
    """A Markdown table."""
    text = [[str(c) for c in r] for r in [HEADER] + rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(HEADER))]
    line = lambda r: (
        "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) + " |"
    )  # noqa: E731
    sep = "|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|"
    return "\n".join([line(text[0]), sep] + [line(r) for r in text[1:]])


def run(
    families: list[str],
    inputs: int,
    seed: int,
    pool: Pool,
    *,
    save: bool = True,
    minimize_budget: int = 300,
    progress: Callable[[str], None] = lambda _: None,
    every: float = 10.0,
) -> dict[str, Stats]:
    """Run `inputs` inputs of each family; returns the stats per family."""
    out: dict[str, Stats] = {}
    for name in families:
        stats = out[name] = Stats(name)
        start = last = time.monotonic()
        tasks = (("gen", name, i, seed) for i in range(inputs))
        for task, outcome, reproducer in pool.map(tasks):
            stats.add(outcome)
            if outcome.escape and outcome.signature not in stats.escapes:
                stats.escapes[outcome.signature] = _escape(
                    name, task, outcome, reproducer, seed, pool, save, minimize_budget, progress
                )
            now = time.monotonic()
            if now - last >= every:
                last = now
                progress(
                    f"{name}: {stats.inputs}/{inputs} inputs, {stats.inputs / (now - start):.0f}/s, "
                    f"{sum(stats.kinds[k] for k in ('other', 'timeout', 'memory'))} escapes"
                )
        stats.seconds = time.monotonic() - start
        progress(
            f"{name}: done, {stats.inputs} inputs in {stats.seconds:.0f} s; "
            + ", ".join(f"{k} {v}" for k, v in sorted(stats.kinds.items()))
        )
    return out


def _escape(name, task, outcome, reproducer, seed, pool, save, budget, progress) -> dict[str, Any]:
    if reproducer is None:  # the worker died: make the input again here
        with codec.deep():
            value = generate(FAMILIES[name], task[2], seed)
    else:
        value = codec.decode(*reproducer)
    example: dict[str, Any] = {"index": task[2], "outcome": outcome}
    progress(f"{name}: new escape {outcome.kind} {outcome.detail} {outcome.message} (input {task[2]})")
    if save:

        def still(candidate: Any) -> bool:
            data, ext = codec.encode(candidate)
            return pool.run(name, data, ext).signature == outcome.signature

        small = minimize(value, still, budget)
        example["path"] = corpus.save(name, small)
        progress(f"{name}: reproducer {example['path']} ({len(codec.encode(small)[0])} bytes)")
    return example
