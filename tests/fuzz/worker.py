"""Running one input of a family under a time bound and a memory bound, and classifying it.

Bounds, chosen to be robust rather than exact:
- memory: before each input the worker sets `RLIMIT_AS` to its address space at that moment plus
  the bound (default 1 GiB), so an allocation beyond it fails with MemoryError (numpy's and
  Arrow's allocation errors derive from it) instead of taking the machine; the worker then
  restarts. The bound is set per input, not once at start: the address space grows as a worker
  imports Arrow and its allocators keep arenas, and a bound fixed at start left less room to each
  later input (a 95 KB gzip stream that inflates to 98 MB failed after 80 scans, not in a fresh
  worker).
- time: an interval timer (`signal.setitimer`) raises a BaseException at the soft deadline, which
  interrupts Python code; C code that does not return (a decompressor, a regex) is caught by the
  parent's hard deadline, which kills the worker by its pid (see `pool`).
- recursion: inputs run with Python's default recursion limit (1000), as callers have it.

Outcomes: accepted | spec (rule id) | other (exception class and the innermost frame of the
reference) | timeout | memory | crash (the worker died: a signal, the hard deadline).
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import traceback
from dataclasses import dataclass
from typing import Any

from . import codec
from .families import FAMILIES, generate

ESCAPES = ("other", "timeout", "memory", "crash")


@dataclass(frozen=True)
class Outcome:
    kind: str  # accepted | spec | other | timeout | memory | crash
    detail: str = ""  # rule id; or "ExceptionClass at file:line in function"
    message: str = ""

    @property
    def escape(self) -> bool:
        return self.kind in ESCAPES

    @property
    def signature(self) -> tuple[str, str]:
        """What makes two escapes "the same" (for corpus deduplication and minimization)."""
        return (self.kind, self.detail)


class _Deadline(BaseException):
    """Raised by the interval timer; a BaseException so that `except Exception` cannot swallow it."""


def _alarm(signum, frame):
    raise _Deadline()


def set_memory_bound(megabytes: int) -> None:
    """RLIMIT_AS = the current address space + `megabytes`."""
    with open("/proc/self/status") as f:
        size_kb = next(int(line.split()[1]) for line in f if line.startswith("VmSize:"))
    limit = (size_kb * 1024) + megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))


def site(tb) -> str:
    """The innermost frame in the project (spec_impl/, conformance/), else the innermost frame."""
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "/spec_impl/" in f.filename or "/conformance/" in f.filename]
    f = (ours or frames or [None])[-1]
    if f is None:
        return "?"
    path = f.filename.split("/work/main/")[-1] if "/work/main/" in f.filename else os.path.basename(f.filename)
    return f"{path}:{f.lineno} in {f.name}"


def run_input(family: str, value: Any, timeout: float) -> Outcome:
    """Run `value` through `family` within `timeout` seconds; classify what happened."""
    from spec_impl.errors import SpecError

    fam = FAMILIES[family]
    rejections = fam.rejections()
    previous = signal.signal(signal.SIGALRM, _alarm)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(codec.READER_RECURSION_LIMIT)
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            fam.run(value)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return Outcome("accepted")
    except _Deadline:
        return Outcome("timeout", f"over {timeout:g} s")
    except MemoryError as e:
        return Outcome("memory", type(e).__name__)
    except SpecError as e:
        return Outcome("spec", e.rule)
    except rejections as e:
        return Outcome("spec", type(e).__name__)
    except Exception as e:  # the escapes this campaign looks for
        return Outcome("other", f"{type(e).__name__} at {site(e.__traceback__)}", _short(str(e)))
    finally:
        sys.setrecursionlimit(limit)
        signal.signal(signal.SIGALRM, previous)


def _short(text: str, limit: int = 160) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "..."


def serve(conn, memory_mb: int, timeout: float) -> None:
    """The worker loop: ("gen", family, index, seed) runs a generated input, ("run", family,
    data, ext) a given one; replies (outcome, reproducer bytes and extension when it escaped)."""
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        kind, family = task[0], task[1]
        with codec.deep():
            value = generate(FAMILIES[family], task[2], task[3]) if kind == "gen" else codec.decode(task[2], task[3])
        set_memory_bound(memory_mb)  # this input's room: the same whatever the worker ran before
        outcome = run_input(family, value, timeout)
        reproducer = codec.encode(value) if outcome.escape and kind == "gen" else None
        conn.send((outcome, reproducer))
        if outcome.kind == "memory":
            return  # a fresh worker after an allocation failure
