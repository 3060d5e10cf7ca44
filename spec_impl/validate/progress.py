"""Progress lines for the long commands (`iceberg-validate-table`, `iceberg-audit`), on stderr.

    progress = Progress.for_terminal("iceberg-validate-table", forced=args.progress, quiet=args.json)
    progress.say("history: every snapshot against its parent")
    files = progress.counting(files, metadata)  # a FileSource reporting the files it reads, throttled

Lines are shown when stderr is a terminal (and the command was not asked for machine output) or when
`--progress` forces them; otherwise nothing is printed. Counters are reported at most once per
`INTERVAL` seconds, never once per file. Progress never touches stdout.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from spec_impl.manifests.tree import FileSource


INTERVAL = 1.0  # seconds between two counter lines


class Progress:
    """Timestamped lines `[PROG HH:MM:SS] message` on `stream`, when `enabled`."""

    def __init__(
        self,
        prog: str,
        enabled: bool,
        stream: TextIO | None = None,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.prog, self.enabled, self.clock = prog, enabled, clock
        self.interval = INTERVAL if interval is None else interval
        self.stream = stream
        self._last: float | None = None

    @classmethod
    def for_terminal(cls, prog: str, *, forced: bool = False, quiet: bool = False, **kwargs) -> Progress:
        """Enabled when `forced` (`--progress`), or when stderr is a terminal and not `quiet` (`--json`)."""
        stream = kwargs.pop("stream", None) or sys.stderr
        enabled = forced or (not quiet and _is_terminal(stream))
        return cls(prog, enabled, stream, **kwargs)

    def say(self, message: str) -> None:
        """One line now (when enabled)."""
        if self.enabled:
            stream = self.stream or sys.stderr
            print(f"[{self.prog} {time.strftime('%H:%M:%S')}] {message}", file=stream, flush=True)

    __call__ = say  # a Progress is a `report_progress` callable

    def tick(self, describe: Callable[[], str]) -> None:
        """`describe()` as a line, at most once per interval (the first tick after the interval)."""
        if not self.enabled:
            return
        now = self.clock()
        if self._last is None:
            self._last = now  # the first line waits one interval: short runs print no counters
        elif now - self._last >= self.interval:
            self._last = now
            self.say(describe())

    @contextmanager
    def watching(self, describe: Callable[[], str]) -> Iterator[None]:
        """While the block runs (a blocking call, such as a Spark job), `describe()` as a counter line
        at most once per interval, from a thread of its own."""
        if not self.enabled:
            yield
            return
        stop = threading.Event()

        def watch() -> None:
            while not stop.wait(min(self.interval, 0.25) or 0.05):
                self.tick(describe)

        watcher = threading.Thread(target=watch, name=f"{self.prog}-progress", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            watcher.join()

    def counting(self, files: FileSource, metadata_location: str | None = None) -> FileSource:
        """`files`, reporting the distinct files read through it (a tick per read); given the table's
        metadata file, how many of its manifest lists are read: `manifest lists 120/800, other files
        3,400 (45.1 MB read)`. `files` itself when disabled."""
        if not self.enabled:
            return files
        lists = manifest_lists(files, metadata_location) if metadata_location else frozenset()
        return CountingFiles(files, self, lists)


class CountingFiles:
    """A FileSource that counts the distinct files read through it and ticks a Progress."""

    def __init__(self, files: FileSource, progress: Progress, manifest_lists: frozenset[str] = frozenset()):
        self.files, self.progress, self.manifest_lists = files, progress, manifest_lists
        self.seen: set[str] = set()
        self.lists_read = self.bytes = 0

    def read(self, path: str) -> bytes:
        data = self.files.read(path)
        if path not in self.seen:
            self.seen.add(path)
            self.lists_read += path in self.manifest_lists
            self.bytes += len(data)
        self.progress.tick(self.describe)
        return data

    def describe(self) -> str:
        size = f"{self.bytes / 1e6:,.1f} MB read"
        if not self.manifest_lists:
            return f"files {len(self.seen):,} ({size})"
        others = len(self.seen) - self.lists_read
        return f"manifest lists {self.lists_read:,}/{len(self.manifest_lists):,}, other files {others:,} ({size})"

    def __getattr__(self, name: str):  # the rest of the source's interface (ContainedFiles' checks)
        return getattr(self.files, name)


def manifest_lists(files: FileSource, metadata_location: str) -> frozenset[str]:
    """The manifest lists the table's snapshots name (the totals of a progress line), empty when the
    metadata cannot be read here (the command reports why)."""
    from spec_impl.metadata.table_metadata import read_metadata_file

    try:
        md = read_metadata_file(files.read(metadata_location))
    except Exception:  # noqa: BLE001  (progress only: the command itself reports a bad metadata file)
        return frozenset()
    return frozenset(s.manifest_list for s in md.snapshots if s.manifest_list)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False
