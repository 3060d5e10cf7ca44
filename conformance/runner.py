"""The session's engines and their answers: started once, asked once per (family, op) batch."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from conformance.engines.base import Engine, EngineAnswer, EngineUnavailable
from conformance.engines.protocol import ProtocolError
from conformance.judge import ERRORED, Verdict, judge


@dataclass
class EngineSlot:
    """One engine of the session: its adapter, or the reason it cannot run."""

    spec: str
    engine: Engine | None = None
    unavailable: str | None = None
    seconds: float = 0.0
    answers: dict[str, dict[str, EngineAnswer]] = field(default_factory=dict)  # batch key -> case id -> answer

    @property
    def name(self) -> str:
        return self.engine.name if self.engine else self.spec


class Runner:
    def __init__(self, engine_classes: dict[str, type[Engine]]):
        self.slots: dict[str, EngineSlot] = {}
        for spec, cls in engine_classes.items():
            slot = EngineSlot(spec)
            started = time.monotonic()
            try:
                engine = cls()
                engine.start()
                slot.engine = engine
            except EngineUnavailable as e:
                slot.unavailable = str(e)
            slot.seconds = time.monotonic() - started
            self.slots[slot.name] = slot

    def verdict(self, engine_name: str, family: str, case: dict[str, Any], batch: list[dict[str, Any]]) -> Verdict:
        """Judge one case; the first request of a (family, op) batch sends the whole batch."""
        slot = self.slots[engine_name]
        assert slot.engine is not None
        key = f"{family}/{case['op']}"
        if key not in slot.answers:
            answers = self.ask(engine_name, case["op"], batch)
            slot.answers[key] = {c["id"]: a for c, a in zip(batch, answers)}
        answer = slot.answers[key].get(case["id"])
        if answer is None:
            return Verdict(ERRORED, "the engine gave no answer for this case")
        return judge(case, answer, slot.engine.revision, slot.engine.partial_view)

    def ask(self, engine_name: str, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        """One batch round trip, timed into the engine's wall time; a dead engine errors every case."""
        slot = self.slots[engine_name]
        assert slot.engine is not None
        started = time.monotonic()
        try:
            return slot.engine.run_batch(op, cases)
        except ProtocolError as e:
            return [EngineAnswer(False, error=f"engine failure: {e}") for _ in cases]
        finally:
            slot.seconds += time.monotonic() - started

    def observed(self, engine_name: str, family: str, case: dict[str, Any]) -> Any:
        """What the engine answered for a case already judged: its output, or {"error": message}."""
        answer = self.slots[engine_name].answers.get(f"{family}/{case['op']}", {}).get(case["id"])
        if answer is None:
            return None
        return answer.output if answer.ok else {"error": answer.error}

    def stop(self) -> None:
        for slot in self.slots.values():
            if slot.engine is not None:
                slot.engine.stop()
