"""Engines that exist only to break the judge: each must get the right verdict, never a pass.

In this process (`--engine tests.judge_breakers.breaking_engines:RefuseAll`):

- `RefuseAll` rejects every input: it must score 0 on computed cases, its rejections counted apart;
- `Garbage` answers the string "garbage" to everything; `GarbageAsIcebergJava` does so under the
  name `iceberg-java`, whose known discrepancies must not absorb its wrong answers (F, not K);
- `KnownCaseAnsweredDifferently` is the reference under the name `iceberg-java`, except that it
  answers one known case exactly as pinned (K) and another with a different wrong answer (F).

Over the line protocol, `python -m tests.judge_breakers.misbehaving_engine MODE` (reversed order,
a hang, a crash in the middle of a batch). `tests/test_judge_breakers.py` runs them all.
"""

from __future__ import annotations

from typing import Any

from spec_impl.ops.registry import OPS

from conformance import known
from conformance.engines.base import Engine, EngineAnswer
from conformance.engines.reference.adapter import ReferenceEngine


class RefuseAll(Engine):
    """Rejects every case, naming no rule."""

    name = "refuse-all"
    capabilities = frozenset(OPS)

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        return [EngineAnswer.rejection("refused") for _ in cases]


class Garbage(Engine):
    """Answers "garbage" to every case."""

    name = "garbage"
    capabilities = frozenset(OPS)

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        return [EngineAnswer(True, "garbage") for _ in cases]


class GarbageAsIcebergJava(Garbage):
    """Garbage under the name of an engine with recorded known discrepancies."""

    name = "iceberg-java"


def known_pair(engine: str = "iceberg-java") -> tuple[known.Discrepancy, known.Discrepancy]:
    """Two recorded discrepancies of `engine` whose pins are outputs (the first two, by case id)."""
    entries = sorted(
        (d for (e, _), d in known.load().items() if e == engine and d.is_pinned and d.raised is None),
        key=lambda d: d.case,
    )
    return entries[0], entries[1]


class KnownCaseAnsweredDifferently(ReferenceEngine):
    """The reference as `iceberg-java`, but the first known case answered as pinned, the second not."""

    name = "iceberg-java"

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        same, other = known_pair(self.name)
        answers = super().run_batch(op, cases)
        for i, c in enumerate(cases):
            if c["id"] == same.case:
                answers[i] = EngineAnswer(True, same.returned)
            elif c["id"] == other.case:
                answers[i] = EngineAnswer(True, {"not": "what was pinned"})
        return answers
