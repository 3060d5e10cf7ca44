"""The language-neutral engine protocol: one JSON object per line over a child's stdin/stdout.

Version 2 (see conformance/engines/PROTOCOL.md; version 1 engines are still read):

    -> {"cmd": "start", "protocol": 2}
    <- {"engine": NAME, "version": V, "protocol": 2, "capabilities": [OP, ...]}
    -> {"cmd": "run", "cases": [{"id": ID, "op": OP, **input}, ...]}
    <- {"results": [{"id": ID, "status": "ok", "output": ...}
                    | {"id": ID, "status": "rejected", "error": MSG, "rule": RULE?}
                    | {"id": ID, "status": "error", "error": MSG}
                    | {"id": ID, "status": "unsupported", "reason": MSG}, ...]}
    -> {"cmd": "stop"}

A `read-table` case also carries the table written to disk: `metadata-location` and
`table-location` (`case_message`).

`EngineProcess` is the client: every reply has a deadline, the hello is checked, and each answer
must carry the id of the case it answers, in order. `ProtocolEngine` adapts any program that speaks
it; `CommandEngine` (`--engine 'cmd:NAME=COMMAND ARGS'`) any command line.
"""

from __future__ import annotations

import json
import os
import queue
import re
import reprlib
import shlex
import signal
import subprocess
import tempfile
import threading
from typing import Any
from collections.abc import Callable

from conformance.engines import DEFAULT_TIMEOUT, golden_tables
from conformance.engines.base import Engine, EngineAnswer, EngineUnavailable
from conformance.engines.protocol_errors import ProtocolError

PROTOCOL_VERSION = 2
READABLE_VERSIONS = (1, 2)


Validator = Callable[[str, dict[str, Any]], None]  # (schema definition name, message) -> raise ProtocolError


def check_hello(hello: Any) -> dict[str, Any]:
    """The start reply, checked: a non-empty engine name and version, a protocol version this
    client reads, and a list of ops. Raises ProtocolError naming what is wrong."""
    if not isinstance(hello, dict):
        raise ProtocolError(f"the start reply is not a JSON object: {_short(hello)}", restart=False)
    if "error" in hello and "engine" not in hello:
        raise ProtocolError(f"the engine refused to start: {hello['error']}", restart=False)
    problems = []
    for key in ("engine", "version"):
        if not isinstance(hello.get(key), str) or not hello[key].strip():
            problems.append(f"{key!r} must be a non-empty string (got {_short(hello.get(key))})")
    if hello.get("protocol") not in READABLE_VERSIONS:
        problems.append(f"'protocol' must be one of {list(READABLE_VERSIONS)} (got {_short(hello.get('protocol'))})")
    caps = hello.get("capabilities")
    if not isinstance(caps, list) or not all(isinstance(c, str) for c in caps):
        problems.append(f"'capabilities' must be a list of op names (got {_short(caps)})")
    omits = hello.get("omits-columns", [])
    if not isinstance(omits, list) or not set(omits) <= set(golden_tables.LINEAGE_COLUMNS):
        problems.append(
            f"'omits-columns' may name only the row lineage columns {list(golden_tables.LINEAGE_COLUMNS)} "
            f"(got {_short(omits)})"
        )
    if problems:
        raise ProtocolError("bad start reply: " + "; ".join(problems), restart=False)
    return hello


class EngineProcess:
    """A running engine program and its line-delimited JSON conversation.

    `timeout` bounds every reply; `validate` (a schema check, see protocol_schema) is applied to
    every message in both directions when given."""

    def __init__(self, command: list[str], timeout: float = DEFAULT_TIMEOUT, validate: Validator | None = None):
        self.timeout = timeout
        self._validate = validate
        # stderr goes to a file so a chatty process can never block on a full pipe; the process
        # gets a session of its own so that a hung engine is killed with its children.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
            start_new_session=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, name=f"engine-stdout-{self.process.pid}", daemon=True).start()
        try:
            self.hello = self._handshake()
        except BaseException:
            self.close()
            raise
        self.protocol: int = self.hello["protocol"]

    def _pump(self) -> None:
        assert self.process.stdout
        try:
            for line in self.process.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _handshake(self) -> dict[str, Any]:
        """Offer version 2; an engine that refuses it (a version 1 engine) is asked again in version 1."""
        reply = self.request({"cmd": "start", "protocol": PROTOCOL_VERSION}, "start-reply")
        if isinstance(reply, dict) and "engine" not in reply and ("error" in reply or reply.get("ok") is False):
            reply = self.request({"cmd": "start", "protocol": 1}, "start-reply")
        return check_hello(reply)

    def _stderr_text(self) -> str:
        try:
            self._stderr.seek(0)
            return self._stderr.read().strip()[-4000:]
        except (OSError, ValueError):
            return ""

    def _check(self, definition: str, message: Any) -> None:
        if self._validate is not None:
            self._validate(definition, message)

    def request(self, message: dict[str, Any], reply_definition: str) -> Any:
        """Send one message and wait, at most `timeout` seconds, for the one-line reply."""
        assert self.process.stdin
        self._check(f"{message['cmd']}-request", message)
        try:
            self.process.stdin.write(json.dumps(message, allow_nan=False) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolError(f"the engine exited: {self._stderr_text()}") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.kill()
            what = "start" if message["cmd"] == "start" else f"a batch of {len(message.get('cases', []))} cases"
            raise ProtocolError(
                f"timeout: no reply to {what} within {self.timeout:g} s; the engine was stopped"
            ) from None
        if line is None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            raise ProtocolError(f"the engine exited with code {self.process.returncode}: {self._stderr_text()}")
        try:
            reply = json.loads(line)
        except json.JSONDecodeError as e:
            raise ProtocolError(
                f"the engine wrote a line that is not JSON ({e}): {line[:200]!r}", restart=False
            ) from None
        except RecursionError:
            raise ProtocolError(
                f"the engine wrote a line nested too deeply to read: {line[:200]!r}", restart=False
            ) from None
        if not (message["cmd"] == "start" and isinstance(reply, dict) and "engine" not in reply):
            self._check(reply_definition if message["cmd"] != "run" else f"run-reply-v{self.protocol}", reply)
        return reply

    def run(self, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers to one batch, each checked to carry the id of its case, in order."""
        response = self.request({"cmd": "run", "cases": cases}, "run-reply")
        results = response.get("results") if isinstance(response, dict) else None
        if not isinstance(results, list) or len(results) != len(cases):
            raise ProtocolError(
                f"the engine answered a batch of {len(cases)} with: {_short(response, 300)}", restart=False
            )
        for i, (c, r) in enumerate(zip(cases, results)):
            rid = r.get("id") if isinstance(r, dict) else None
            if rid != c["id"]:
                raise ProtocolError(
                    f"answer {i} carries the id {_short(rid)} where case {c['id']!r} was asked: answers "
                    "must carry their case's id, in the order of the cases",
                    restart=False,
                )
        return results

    def kill(self) -> None:
        """Stop the process (and its children) at once."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> int | None:
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
                self.kill()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        self._stderr.close()
        return self.process.returncode

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def to_answer(result: Any, protocol: int) -> EngineAnswer:
    """One protocol result as an EngineAnswer. Version 1 could not tell a rejection from an
    internal error: its `ok: false` counts as a rejection (and as an error on a computed case).
    Anything else, whatever its shape, is a failure quoting it."""
    if not isinstance(result, dict):
        return EngineAnswer.failure(f"not a protocol {protocol} answer (not an object): {_short(result)}")
    status = result.get("status")
    if status is None and "ok" in result:  # the version 1 form
        status = "ok" if result["ok"] is True else "rejected"
    if status == "ok" and "output" in result:
        return EngineAnswer(True, result["output"])
    if status == "rejected":
        rule = result.get("rule") if isinstance(result.get("rule"), str) else None
        return EngineAnswer.rejection(_text(result.get("error")) or "rejected", rule)
    if status == "error":
        return EngineAnswer.failure(f"the engine reported an error: {_text(result.get('error')) or '(no message)'}")
    if status == "unsupported":
        return EngineAnswer.declined(_text(result.get("reason")) or "unsupported (no reason given)")
    return EngineAnswer.failure(f"not a protocol {protocol} answer: {_short(result)}")


class ProtocolEngine(Engine):
    """An engine reached through the line protocol. Subclasses provide `command()`; the engine's
    hello must carry the adapter's `name`."""

    name = "protocol"

    def __init__(self) -> None:
        self._process: EngineProcess | None = None
        self.timeout = DEFAULT_TIMEOUT
        self.validate: Validator | None = None

    def configure(self, timeout: float | None = None, validate_protocol: bool = False) -> None:
        if timeout is not None:
            self.timeout = timeout
        if validate_protocol:
            from conformance.engines.protocol_schema import validate  # here: it needs jsonschema

            self.validate = validate

    def command(self) -> list[str]:
        raise NotImplementedError

    def start(self) -> None:
        command = self.command()
        try:
            process = EngineProcess(command, self.timeout, self.validate)
        except OSError as e:
            raise EngineUnavailable(f"{self.name}: cannot start {shlex.join(command)}: {e}") from None
        except ProtocolError as e:
            raise ProtocolError(f"{self.name}: {e}", restart=False) from None
        self._process = process
        try:
            self._adopt(process.hello)
        except ProtocolError:
            self.stop()
            raise
        self.capabilities = frozenset(process.hello["capabilities"])  # type: ignore[misc]

    def _adopt(self, hello: dict[str, Any]) -> None:
        """Check the name the engine gives itself against the adapter's."""
        if hello["engine"] != self.name:
            raise ProtocolError(
                f"the engine introduced itself as {hello['engine']!r}, but was started as {self.name!r}", restart=False
            )

    def stop(self) -> None:
        if self._process is not None:
            self._process.close()
            self._process = None

    @property
    def protocol(self) -> int | None:
        return self._process.protocol if self._process else None

    @property
    def omitted_columns(self) -> tuple[str, ...]:
        """The columns the hello says the engine does not read (`omits-columns`)."""
        return tuple(self._process.hello.get("omits-columns", ())) if self._process else ()

    @property
    def version(self) -> str:
        return self._process.hello["version"] if self._process else "not started"

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        if self._process is None:
            raise ProtocolError(f"{self.name} is not running")
        process = self._process
        results = process.run([case_message(op, c) for c in cases])
        return [to_answer(r, process.protocol) for r in results]


def case_message(op: str, case: dict[str, Any]) -> dict[str, Any]:
    """A case as it is sent: its id, its op and its input keys, flattened. A `read-table` case
    names a golden table by id; the table is written to local disk (`golden_tables.table`) and the
    case also carries `metadata-location` (the path of its latest metadata file) and
    `table-location` (its directory), so that an engine in any language can read it."""
    message = {"id": case["id"], "op": op, **case["input"]}
    if op == "read-table" and "table" in case["input"]:
        table = golden_tables.table(case["input"]["table"])
        message["metadata-location"] = table.metadata_path
        message["table-location"] = str(table.directory)
    return message


_NAMED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)=(.+)$", re.S)


class CommandEngine(ProtocolEngine):
    """Any program that speaks the protocol, from a command line: `cmd:NAME=COMMAND ARGS`, or
    `cmd:COMMAND ARGS` to take the name from the engine's hello. Built by `command_engine`."""

    argv: list[str] = []
    named = False

    def command(self) -> list[str]:
        return list(self.argv)

    def _adopt(self, hello: dict[str, Any]) -> None:
        if self.named:
            super()._adopt(hello)
        else:
            self.name = hello["engine"]  # type: ignore[misc]


def command_engine(spec: str) -> type[CommandEngine]:
    """The engine class of `cmd:NAME=COMMAND ARGS` (ValueError with the reason when malformed)."""
    text = spec.removeprefix("cmd:").strip()
    m = _NAMED.match(text)
    name, line = (m[1], m[2]) if m and " " not in m[1] else (None, text)
    try:
        argv = shlex.split(line)
    except ValueError as e:
        raise ValueError(f"engine {spec!r}: cannot split the command line: {e}") from None
    if not argv:
        raise ValueError(f"engine {spec!r}: no command given (use cmd:NAME=COMMAND ARGS)")
    attrs = {
        "argv": argv,
        "named": name is not None,
        "name": name or os.path.basename(argv[0]),
        "__doc__": f"The engine program `{shlex.join(argv)}`.",
    }
    return type(f"CommandEngine[{name or argv[0]}]", (CommandEngine,), attrs)


def _short(value: Any, limit: int = 200) -> str:
    """A value quoted in a message: its JSON, cut at `limit` (a value too deep for JSON: its outline)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (RecursionError, ValueError):
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _text(value: Any) -> str:
    """A message the engine sent: a string as it is, anything else quoted."""
    return value if isinstance(value, str) else "" if not value else _short(value)
