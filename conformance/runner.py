"""The session's engines and their answers: started once, asked once per (family, op) batch.

An engine that fails while answering a batch (it crashes or hangs past its timeout) is restarted
and the batch replayed in halves, so that only the case that broke it is errored and the remaining
cases are judged; after `MAX_TIMEOUTS` timeouts or `MAX_RESTARTS` restarts the engine is taken out
of service and its remaining cases are errored with the reason. An engine that fails to start at
all (no hello, a bad hello) is *broken*: its cases are skipped and one test reports the failure.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from conformance import known
from conformance.engines.base import Engine, EngineAnswer, EngineFailure, EngineUnavailable, adapter_error
from conformance.judge import ERRORED, Verdict, judge

MAX_RESTARTS = 24
MAX_TIMEOUTS = 2


@dataclass
class EngineSlot:
    """One engine of the session: its adapter, or the reason it cannot run (`unavailable`: it is
    not installed here; `broken`: it started but failed the handshake or was taken out of service)."""

    spec: str
    engine: Engine | None = None
    unavailable: str | None = None
    broken: str | None = None
    seconds: float = 0.0
    restarts: int = 0
    timeouts: int = 0
    answers: dict[str, dict[str, EngineAnswer]] = field(default_factory=dict)  # batch key -> case id -> answer
    started: bool = False  # whether the engine answered its handshake

    @property
    def name(self) -> str:
        return self.engine.name if self.engine else self.spec


class Runner:
    def __init__(
        self, engine_classes: dict[str, type[Engine]], timeout: float | None = None, validate_protocol: bool = False
    ):
        self.slots: dict[str, EngineSlot] = {}
        for spec, cls in engine_classes.items():
            slot = EngineSlot(spec)
            started = time.monotonic()
            engine = None
            try:
                engine = cls()
                engine.configure(timeout=timeout, validate_protocol=validate_protocol)
                engine.start()
                slot.engine, slot.started = engine, True
            except EngineUnavailable as e:
                slot.unavailable = str(e)
            except EngineFailure as e:
                slot.engine, slot.broken = engine, f"the engine failed to start: {e}"
            slot.seconds = time.monotonic() - started
            name = slot.name if slot.name not in self.slots else spec
            self.slots[name] = slot

    def verdict(self, engine_name: str, family: str, case: dict[str, Any], batch: list[dict[str, Any]]) -> Verdict:
        """Judge one case; the first request of a (family, op) batch sends the whole batch. A
        recorded known discrepancy decides between known, fixed and fail (`known.decide`)."""
        slot = self.slots[engine_name]
        assert slot.engine is not None
        key = f"{family}/{case['op']}"
        if key not in slot.answers:
            answers = self.ask(engine_name, case["op"], batch)
            slot.answers[key] = {c["id"]: a for c, a in zip(batch, answers)}
        answer = slot.answers[key].get(case["id"])
        if answer is None:
            return Verdict(ERRORED, "the engine gave no answer for this case")
        verdict = judge(case, answer, slot.engine.revision, slot.engine.partial_view)
        return known.decide(verdict, known.entry_for(engine_name, case), case, answer)

    def ask(self, engine_name: str, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        """One batch, timed into the engine's wall time; never raises: a failure errors the cases
        it took down."""
        slot = self.slots[engine_name]
        assert slot.engine is not None
        started = time.monotonic()
        try:
            return self._ask(slot, op, cases) if cases else []
        finally:
            slot.seconds += time.monotonic() - started

    def _ask(self, slot: EngineSlot, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        if slot.broken:
            return [EngineAnswer.failure(f"{slot.name} is out of service: {slot.broken}")] * len(cases)
        assert slot.engine is not None
        try:
            answers = slot.engine.run_batch(op, cases)
        except EngineFailure as e:
            return self._recover(slot, op, cases, e)
        except Exception as e:  # an adapter's own bug: it errors the batch, not the session
            return [EngineAnswer.failure(adapter_error(e, type(slot.engine)))] * len(cases)
        if len(answers) != len(cases):
            return [EngineAnswer.failure(f"the adapter answered {len(answers)} of {len(cases)} cases")] * len(cases)
        return answers

    def _recover(
        self, slot: EngineSlot, op: str, cases: list[dict[str, Any]], failure: EngineFailure
    ) -> list[EngineAnswer]:
        """After a crash or a timeout: restart the engine and replay the batch in halves."""
        message = str(failure)
        if not failure.restart:
            return [EngineAnswer.failure(message)] * len(cases)
        assert slot.engine is not None
        slot.timeouts += message.startswith("timeout")
        if slot.timeouts > MAX_TIMEOUTS or slot.restarts >= MAX_RESTARTS:
            slot.broken = (
                f"taken out of service after {slot.timeouts} timeouts and {slot.restarts} restarts; last "
                f"failure: {message}"
            )
            slot.engine.stop()
            return [EngineAnswer.failure(message)] * len(cases)
        slot.restarts += 1
        try:
            slot.engine.restart()
        except (EngineFailure, EngineUnavailable) as e:
            slot.broken = f"could not be restarted after: {message}; restart: {e}"
            return [EngineAnswer.failure(message)] * len(cases)
        if len(cases) == 1:
            return [EngineAnswer.failure(message)]
        half = len(cases) // 2
        return self._ask(slot, op, cases[:half]) + self._ask(slot, op, cases[half:])

    def answer(self, engine_name: str, family: str, case: dict[str, Any]) -> EngineAnswer | None:
        """The engine's answer to a case already judged."""
        return self.slots[engine_name].answers.get(f"{family}/{case['op']}", {}).get(case["id"])

    def observed(self, engine_name: str, family: str, case: dict[str, Any]) -> Any:
        """What the engine answered for a case already judged: its output, or {"error": message}."""
        answer = self.answer(engine_name, family, case)
        return None if answer is None else answer.observed()

    def stop(self) -> None:
        for slot in self.slots.values():
            if slot.engine is not None:
                try:
                    slot.engine.stop()
                except Exception:  # noqa: BLE001 - stopping must reach every engine
                    pass
