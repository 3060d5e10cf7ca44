"""The language-neutral engine protocol: one JSON object per line over a child's stdin/stdout.

Version 1 (see conformance/engines/PROTOCOL.md):

    -> {"cmd": "start", "protocol": 1}
    <- {"engine": NAME, "version": V, "protocol": 1, "capabilities": [OP, ...]}
    -> {"cmd": "run", "cases": [{"id": ID, "op": OP, **input}, ...]}
    <- {"results": [{"id": ID, "ok": true, "output": ...} | {"id": ID, "ok": false, "error": MSG}, ...]}
    -> {"cmd": "stop"}

`EngineProcess` is the client; `ProtocolEngine` adapts any program that speaks it.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from typing import Any

from conformance.engines.base import Engine, EngineAnswer, EngineUnavailable

PROTOCOL_VERSION = 1


class ProtocolError(RuntimeError):
    """The engine process broke the protocol or died; the message carries its stderr."""


class EngineProcess:
    """A running engine program and its line-delimited JSON conversation."""

    def __init__(self, command: list[str]):
        # stderr goes to a file so a chatty process can never block on a full pipe.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                        text=True, encoding="utf-8")  # fmt: skip
        self.hello = self.request({"cmd": "start", "protocol": PROTOCOL_VERSION})

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().strip()[-4000:]

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        try:
            self.process.stdin.write(json.dumps(message, allow_nan=False) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise ProtocolError(f"the engine exited: {self._stderr_text()}") from None
        line = self.process.stdout.readline()
        if not line:
            self.process.wait(timeout=10)
            raise ProtocolError(f"the engine exited with code {self.process.returncode}: {self._stderr_text()}")
        try:
            return json.loads(line)
        except json.JSONDecodeError as e:
            raise ProtocolError(f"the engine wrote a line that is not JSON ({e}): {line[:200]!r}") from None

    def run(self, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        response = self.request({"cmd": "run", "cases": cases})
        results = response.get("results")
        if not isinstance(results, list) or len(results) != len(cases):
            raise ProtocolError(f"the engine answered a batch of {len(cases)} with: {str(response)[:300]}")
        return results

    def close(self) -> int:
        if self.process.poll() is None:
            try:
                assert self.process.stdin
                self.process.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()
        self._stderr.close()
        return self.process.returncode

    def __enter__(self) -> "EngineProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ProtocolEngine(Engine):
    """An engine reached through the line protocol. Subclasses provide `command()`."""

    name = "protocol"

    def __init__(self) -> None:
        self._process: EngineProcess | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def start(self) -> None:
        try:
            self._process = EngineProcess(self.command())
        except (OSError, ProtocolError) as e:
            raise EngineUnavailable(f"{self.name}: cannot start the engine process: {e}") from None
        self.capabilities = frozenset(self._process.hello.get("capabilities", ()))  # type: ignore[misc]

    def stop(self) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None

    @property
    def version(self) -> str:
        return self._process.hello.get("version", "unknown") if self._process else "not started"

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        assert self._process is not None, "start() the engine first"
        results = self._process.run([{"id": c["id"], "op": op, **c["input"]} for c in cases])
        return [EngineAnswer(True, r.get("output")) if r.get("ok") else EngineAnswer(False, error=r.get("error") or "error")
                for r in results]  # fmt: skip
