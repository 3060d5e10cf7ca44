"""Sorted runs of delete files: the data structure under delete scoping (`spec_impl.deletes.scoping`).

A run holds the delete files of one kind and partition, sorted by data sequence number, with the
rule that says from two sequence numbers whether a delete applies to a data file. Every scoping
rule is a threshold on the delete's sequence number, so the deletes that apply to a data file are
a tail of the run: the answer for a data file is where its tail starts, found by binary search
(`bisect` for one data file, `numpy.searchsorted` for many at once): the length of its tail. Its
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
    """Where the applying tail starts in a run sorted by sequence number, as a `searchsorted` side.

    A rule is a threshold on the delete's sequence number, inclusive (`<=`) or strict (`<`); an
    equal pair tells which. Inclusive: the tail starts at the first delete whose sequence number
    equals the data file's ("left"); strict: after the last one ("right")."""
    return "left" if applies(0, 0) else "right"


_ORDER = attrgetter("sequence_number", "path")


class Run:
    """Delete files of one kind and partition, sorted by data sequence number (then path)."""

    __slots__ = ("files", "seqs", "side", "_bisect", "_array")

    def __init__(self, files: Sequence[_Sequenced], applies: Applies):
        self.files = sorted(files, key=_ORDER)
        self.seqs = [f.sequence_number for f in self.files]
        self.side = tail_side(applies)
        self._bisect = bisect.bisect_left if self.side == "left" else bisect.bisect_right
        self._array: np.ndarray | None = None  # the sequence numbers for numpy, made when first searched

    def __len__(self) -> int:
        return len(self.files)

    def applying_count(self, seq: int) -> int:
        """How many deletes of the run apply to a data file with data sequence number `seq` (the tail's length)."""
        return len(self.files) - self._bisect(self.seqs, seq)

    def applying_counts(self, seqs: np.ndarray) -> np.ndarray:
        """For many data sequence numbers at once, how many deletes of the run apply (the tail's length)."""
        if self._array is None:
            self._array = np.array(self.seqs)
        return len(self.files) - np.searchsorted(self._array, seqs, side=self.side)

    def tail(self, count: int) -> Sequence:
        """The last `count` deletes of the run, as a view (the answer `applying_counts` gave)."""
        return View(self.files, len(self.files) - count)


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
