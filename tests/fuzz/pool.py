"""The parent side of the workers: forked processes fed tasks over pipes, each task with a hard
deadline after which the worker is killed (by its pid) and replaced.

A worker that dies (a hard deadline, a crash, a memory failure it exits after) is replaced
transparently; the task it held is reported with outcome "timeout" (deadline passed) or "crash".
Single inputs (`run`, used to minimize an escape in the middle of a campaign) go to a worker of
their own, so that they never take the result of a campaign task.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any

from .worker import Outcome, serve

_CTX = multiprocessing.get_context("fork")


class _Worker:
    def __init__(self, memory_mb: int, timeout: float):
        self.conn, child = _CTX.Pipe()
        self.process = _CTX.Process(target=serve, args=(child, memory_mb, timeout), daemon=True)
        self.process.start()
        child.close()
        self.task: Any = None
        self.started = 0.0

    def kill(self) -> None:
        if self.process.is_alive():
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.join()
        self.conn.close()


class Pool:
    """`workers` processes; `timeout` is the soft bound per input, the hard one is 3x + 5 s."""

    def __init__(self, workers: int = 1, timeout: float = 10.0, memory_mb: int = 1024):
        self.size, self.timeout, self.memory_mb = workers, timeout, memory_mb
        self.hard = timeout * 3 + 5
        self.workers = [_Worker(memory_mb, timeout) for _ in range(workers)]
        self._single: Pool | None = None

    def close(self) -> None:
        if self._single is not None:
            self._single.close()
            self._single = None
        for w in self.workers:
            try:
                w.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            w.process.join(timeout=2)
            if w.process.is_alive():
                w.kill()
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _replace(self, w: _Worker) -> _Worker:
        w.kill()
        fresh = _Worker(self.memory_mb, self.timeout)
        self.workers[self.workers.index(w)] = fresh
        return fresh

    def map(self, tasks: Iterable[tuple]) -> Iterator[tuple[tuple, Outcome, tuple[bytes, str] | None]]:
        """Run tasks, yielding (task, outcome, reproducer) in completion order."""
        pending = iter(tasks)
        exhausted = False
        while True:
            for w in list(self.workers):
                if w.task is None and not exhausted:
                    task = next(pending, None)
                    if task is None:
                        exhausted = True
                        break
                    w.task, w.started = task, time.monotonic()
                    w.conn.send(task)
            busy = [w for w in self.workers if w.task is not None]
            if not busy:
                return
            deadline = min(w.started for w in busy) + self.hard
            ready = wait([w.conn for w in busy], timeout=max(0.0, deadline - time.monotonic()))
            for w in busy:
                if w.conn in ready:
                    try:
                        outcome, reproducer = w.conn.recv()
                    except (EOFError, OSError):
                        task, w.task = w.task, None
                        code = w.process.exitcode
                        self._replace(w)
                        yield task, Outcome("crash", f"worker died (exit code {code})"), None
                        continue
                    task, w.task = w.task, None
                    if outcome.kind == "memory":
                        self._replace(w)
                    yield task, outcome, reproducer
                elif time.monotonic() - w.started >= self.hard:
                    task, w.task = w.task, None
                    self._replace(w)
                    yield task, Outcome("timeout", f"hard deadline {self.hard:g} s"), None

    def run(self, family: str, data: bytes, ext: str) -> Outcome:
        """One given input (a reproducer), synchronously, on the pool's single-input worker."""
        if self._single is None:
            self._single = Pool(1, self.timeout, self.memory_mb)
        for _, outcome, _ in self._single.map([("run", family, data, ext)]):
            return outcome
        raise RuntimeError("no outcome")
