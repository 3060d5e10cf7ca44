"""Sorted runs of delete files: the data structure under delete scoping (`spec_impl.deletes.scoping`).

A run holds the delete files of one kind and partition, sorted by data sequence number, with the
rule that says from two sequence numbers whether a delete applies to a data file. Every scoping
rule is a threshold on the delete's sequence number, so the deletes that apply to a data file are
a tail of the run: the answer for a data file is the length of its tail, found by binary search
(`Run`: `bisect` for one data file; `Runs`: a binary search run in step by numpy for many data
files, over the runs of many partitions laid end to end, the rule itself its predicate). Its
deletes are a view of that tail, shared by the data files of the partition.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import Any, Protocol

import numpy as np


class _Sequenced(Protocol):
    path: str
    sequence_number: int


Applies = Callable[[Any, Any], Any]
"""A scoping rule on sequence numbers: applies(data_seq, delete_seq), on ints or numpy arrays."""


def tail_side(applies: Applies) -> str:
    """Where the applying tail starts in a run sorted by sequence number, as the side of `bisect`.

    A rule is a threshold on the delete's sequence number, inclusive (`<=`) or strict (`<`); an
    equal pair tells which. Inclusive: the tail starts at the first delete whose sequence number
    equals the data file's ("left"); strict: after the last one ("right")."""
    return "left" if applies(0, 0) else "right"


_ORDER = attrgetter("sequence_number", "path")


class Run:
    """Delete files of one kind and partition, sorted by data sequence number (then path)."""

    __slots__ = ("files", "seqs", "side", "_bisect")

    def __init__(self, files: Sequence[_Sequenced], applies: Applies):
        self.files = sorted(files, key=_ORDER)
        self.seqs = [f.sequence_number for f in self.files]
        self.side = tail_side(applies)
        self._bisect = bisect.bisect_left if self.side == "left" else bisect.bisect_right

    def __len__(self) -> int:
        return len(self.files)

    def applying_count(self, seq: int) -> int:
        """How many deletes of the run apply to a data file with data sequence number `seq` (the tail's length)."""
        return len(self.files) - self._bisect(self.seqs, seq)

    def tail(self, count: int) -> Sequence:
        """The last `count` deletes of the run, as a view (the answer `applying_counts` gave)."""
        return View(self.files, len(self.files) - count)


class Runs:
    """The runs of one kind of many groups (partitions), end to end, to search for many data files
    at once: one binary search, vectorised over the data files, each in its group's run."""

    def __init__(self, runs: Sequence[Run], applies: Applies):
        lengths = np.array([len(r) for r in runs] + [0], np.intp)  # group -1: none, an empty run
        self.ends = np.cumsum(lengths)
        self.starts = self.ends - lengths
        self.seqs = np.array([s for r in runs for s in r.seqs])
        self.applies = applies
        self.longest = int(lengths.max())

    def applying_counts(self, groups: np.ndarray, data_seqs: np.ndarray) -> np.ndarray:
        """For each data file (its group, its data sequence number), how many deletes at the tail
        of its group's run apply: a binary search, in step for all data files, for the first
        delete the rule holds for (as many steps as the longest run needs)."""
        if not len(self.seqs):
            return np.zeros(len(groups), np.intp)
        lo, hi = self.starts[groups], self.ends[groups]
        end = hi.copy()
        last = max(len(self.seqs) - 1, 0)
        for _ in range(self.longest.bit_length()):
            mid = (lo + hi) >> 1
            applies = self.applies(data_seqs, self.seqs[np.minimum(mid, last)]) | (lo == hi)
            hi = np.where(applies, mid, hi)
            lo = np.where(applies, lo, mid + 1)
        return end - lo


class View(Sequence):
    """files[start:] without copying: the tail of a run shared by the data files of a partition."""

    __slots__ = ("_files", "_start")

    def __init__(self, files: list, start: int):
        self._files, self._start = files, start

    def __len__(self) -> int:
        return len(self._files) - self._start

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self._files[self._start :][i]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._files[self._start + i]

    def __iter__(self) -> Iterator:
        return iter(self._files[self._start :])


NONE: Sequence = ()
