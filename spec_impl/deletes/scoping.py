"""Delete scoping in scan planning: which delete files apply to which data files of a snapshot.

Spec: "Scan Planning" (seed text: position and equality deletes; adopted v3 digest §2, the table
of deletion vectors, position-delete files and equality-delete files, and §1.5).

A delete file applies to a data file when:

- deletion vector (adopted): its `referenced_data_file` is the data file; data sequence number <= the DV's; same spec
  and partition
- position-delete file: data sequence number <= the delete's; same spec and partition; (adopted) its
  `referenced_data_file`, when set, is the data file; and no DV applies to the data file
- equality-delete file: data sequence number < the delete's; same spec and partition, or the delete's spec is
  unpartitioned (a global delete)

Sequence numbers are data sequence numbers after inheritance. Partition values compare by value,
floating-point ones by their canonical bits (note 3 of "Scan Planning"). A spec is unpartitioned
when it has no field other than `void` ones (how Iceberg Java reads "unpartitioned"). A position
delete file whose lower and upper bounds of `file_path` (field 2147483546) are equal targets that
one file, as if it named it in `referenced_data_file` (metrics pruning, which the spec allows).

The sequence-number rules are written once, `position_delete_applies` and
`equality_delete_applies`; speed comes from the index, not from copies of them. `DeleteIndex`
keeps the deletes in sorted runs (`spec_impl.deletes.runs`): per partition, per named data file,
and the global equality deletes. Each rule is a threshold on the delete's sequence number, so the
deletes of a run that apply to a data file are a tail of it, found by binary search: planning n
data files against k delete files costs O((n + k) log k), not O(n · k). `for_data_file` answers
one data file; `plan_batch` answers many with one numpy search per partition, with the same
answers, and the deletes of each answer are views of runs shared between the files of a partition.
"""

from __future__ import annotations

import math
import struct
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

import numpy as np

from spec_impl import revisions
from spec_impl.deletes.runs import NONE, Run, Runs
from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, implements, register

_PLANNING = "Scan Planning"
register(
    Rule(
        "deletes.position-scope",
        _PLANNING,
        "A position delete applies to a data file with data sequence number <= its own, in the same spec and "
        "partition; (adopted) only to its referenced_data_file when set, and not when a DV applies",
    ),
    Rule(
        "deletes.equality-scope",
        _PLANNING,
        "An equality delete applies to a data file with data sequence number < its own, in the same spec and "
        "partition, or to every partition when its spec is unpartitioned",
    ),
    Rule(
        "deletes.dv-scope",
        "adopted 2 Delete scoping; 1.5",
        "A deletion vector applies to its referenced_data_file, with data sequence number <= its own, in the "
        "same spec and partition",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "deletes.one-dv",
        "adopted 1.5 Deletion vectors",
        "At most one deletion vector per data file in a snapshot",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "deletes.partition-equality",
        "Scan Planning (note 3)",
        "Partition values are equal when their values are; floating-point values when their canonical bits "
        "are (NaNs normalized)",
    ),
    Rule(
        "deletes.file",
        _PLANNING,
        "A planned file has a path, content 0 (data), 1 (position deletes) or 2 (equality deletes), a spec "
        "id, a partition tuple and a data sequence number",
    ),
)

DATA, POSITION, EQUALITY = 0, 1, 2
FILE_PATH_FIELD_ID = 2147483546


@dataclass(frozen=True, slots=True)
class ScanFile:
    """A live data or delete file of a snapshot, as planning sees it (after inheritance)."""

    path: str
    content: int
    spec_id: int
    partition: tuple
    sequence_number: int
    file_format: str = "parquet"
    referenced_data_file: str | None = None
    file_path_lower: str | None = None
    file_path_upper: str | None = None

    @property
    def is_dv(self) -> bool:
        return self.content == POSITION and self.file_format.lower() == "puffin"

    @property
    def bounds_target(self) -> str | None:
        """The one data file equal lower and upper file_path bounds name (metrics pruning)."""
        if self.file_path_lower is not None and self.file_path_lower == self.file_path_upper:
            return self.file_path_lower
        return None

    def target(self, revision: str) -> str | None:
        """The one data file a position delete targets: (adopted) referenced_data_file, or equal
        file_path bounds. The seed text has no referenced_data_file."""
        if revisions.has(revision, revisions.V3_ADOPTED) and self.referenced_data_file is not None:
            return self.referenced_data_file
        return self.bounds_target


@implements("deletes.file")
def scan_files(items: Any) -> list[ScanFile]:
    """ScanFiles from a JSON list of their forms (rule deletes.file)."""
    if not isinstance(items, list):
        raise InvalidInput("deletes.file", "the files are a JSON list", brief(items))
    return [scan_file(obj) for obj in items]


@implements("deletes.file")
def scan_file(obj: dict[str, Any]) -> ScanFile:
    """A ScanFile from its JSON form (the vectors' `data-files` / `delete-files` items), checked (rule deletes.file)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("file_path"), str):
        raise InvalidInput("deletes.file", "a file is an object with a string file_path", brief(obj))
    content, seq, spec_id = obj.get("content", DATA), obj.get("sequence_number"), obj.get("spec_id", 0)
    if content not in (DATA, POSITION, EQUALITY):
        raise InvalidInput("deletes.file", f"{obj['file_path']}: content must be 0, 1 or 2", content)
    for name, value in (("sequence_number", seq), ("spec_id", spec_id)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidInput("deletes.file", f"{obj['file_path']}: {name} must be a non-negative integer", value)
    partition = obj.get("partition", [])
    if not isinstance(partition, list):
        raise InvalidInput("deletes.file", f"{obj['file_path']}: partition must be a list of values", brief(partition))
    if not isinstance(obj.get("file_format", "parquet"), str):
        raise InvalidInput(
            "deletes.file", f"{obj['file_path']}: file_format must be a string", brief(obj.get("file_format"))
        )
    for key in ("referenced_data_file", "file_path_lower", "file_path_upper"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise InvalidInput("deletes.file", f"{obj['file_path']}: {key} must be a string or null", brief(obj[key]))
    partition_key(spec_id, partition)  # values a partition can hold
    return ScanFile(
        obj["file_path"],
        content,
        spec_id,
        tuple(partition),
        seq,
        obj.get("file_format", "parquet"),
        obj.get("referenced_data_file"),
        obj.get("file_path_lower"),
        obj.get("file_path_upper"),
    )


_PLAIN_VALUES = frozenset({type(None), bool, int, str, bytes})
_TUPLE = frozenset({tuple})
_SPEC_ID, _PARTITION = attrgetter("spec_id"), attrgetter("partition")
_SEQUENCE_NUMBER, _PATH = attrgetter("sequence_number"), attrgetter("path")


@implements("deletes.file", "deletes.partition-equality")
def partition_key(spec_id: int, values: Iterable[Any]) -> tuple:
    """The key under which partitions are equal (rule deletes.partition-equality): floats by their
    canonical bits (every NaN alike; -0.0 and 0.0 differ), other values by value."""
    values = values if type(values) is tuple else tuple(values)
    if _PLAIN_VALUES.issuperset(map(type, values)):
        return (spec_id, values)  # no float: the values are their own key
    key = (spec_id, tuple(_canonical(v) for v in values))
    try:
        hash(key)
    except TypeError:
        raise InvalidInput(
            "deletes.file",
            "partition values are single values (null, booleans, numbers, strings, bytes), not lists or objects",
            brief(values),
        ) from None
    return key


def partition_keys(spec_ids: list[int], partitions: list[tuple]) -> list[tuple]:
    """`partition_key` of many partitions: when no value among them is a float, every partition
    (a tuple) is its own key."""
    if _all_plain(partitions):
        return list(zip(spec_ids, partitions))
    return list(map(partition_key, spec_ids, partitions))


def _all_plain(partitions: list[tuple]) -> bool:
    """Whether every partition is a tuple without floats, and so its own key's values."""
    return _TUPLE.issuperset(map(type, partitions)) and _PLAIN_VALUES.issuperset(
        map(type, chain.from_iterable(partitions))
    )


def _canonical(v: Any) -> Any:
    if isinstance(v, float):
        return ("nan",) if math.isnan(v) else ("float", struct.pack(">d", v))
    return v


@implements("deletes.position-scope", "deletes.dv-scope")
def position_delete_applies(data_seq: Any, delete_seq: Any) -> Any:
    """Scan Planning: "The data file's data sequence number is less than or equal to the delete
    file's data sequence number" (adopted §2: the same for a DV). On ints or numpy arrays."""
    return data_seq <= delete_seq


@implements("deletes.equality-scope")
def equality_delete_applies(data_seq: Any, delete_seq: Any) -> Any:
    """Scan Planning: "The data file's data sequence number is strictly less than the delete's data
    sequence number". On ints or numpy arrays."""
    return data_seq < delete_seq


@dataclass(frozen=True)
class AppliedDeletes:
    """The deletes that apply to one data file: at most one DV, position-delete files (only when
    no DV applies) and equality-delete files (partition-scoped, then global)."""

    dv: ScanFile | None
    position: Sequence[ScanFile]
    equality: Sequence[ScanFile]
    global_equality: Sequence[ScanFile]

    def files(self) -> list[ScanFile]:
        return ([self.dv] if self.dv else []) + list(self.position) + list(self.equality) + list(self.global_equality)

    def __len__(self) -> int:
        return (self.dv is not None) + len(self.position) + len(self.equality) + len(self.global_equality)


class _Partition:
    """The partition-scoped deletes of one spec and partition: a run of position-delete files and
    one of equality-delete files."""

    __slots__ = ("position", "equality")

    def __init__(self, position: list[ScanFile], equality: list[ScanFile]):
        self.position = Run(position, position_delete_applies)
        self.equality = Run(equality, equality_delete_applies)


_NO_PARTITION = _Partition([], [])


class DeleteIndex:
    """The live delete files of a snapshot, indexed for scoping (see the module docstring).

    `unpartitioned_specs`: ids of the specs with no non-void field (their equality deletes are
    global). Under the seed revision there are no DVs and `referenced_data_file` does not exist:
    every position delete is partition-scoped (pruning by equal file_path bounds still applies).
    """

    @implements("deletes.dv-scope", "deletes.file", "deletes.one-dv")
    def __init__(
        self, deletes: Iterable[ScanFile], unpartitioned_specs: Iterable[int] = (), revision: str = revisions.DEFAULT
    ):
        revisions.check(revision)
        self.revision = revision
        unpartitioned = set(unpartitioned_specs)
        self.dvs: dict[str, tuple[ScanFile, tuple]] = {}  # by referenced data file: the DV, its partition key
        targeted: dict[tuple[str, tuple], list[ScanFile]] = defaultdict(list)  # by target and partition key
        position: dict[tuple, list[ScanFile]] = defaultdict(list)
        equality: dict[tuple, list[ScanFile]] = defaultdict(list)
        global_equality: list[ScanFile] = []
        deletes = list(deletes)
        keys = partition_keys(list(map(_SPEC_ID, deletes)), list(map(_PARTITION, deletes)))
        for f, key in zip(deletes, keys):
            if f.content == DATA:
                raise InvalidInput("deletes.file", "a data file among the delete files", f.path)
            if f.content == EQUALITY:
                (global_equality if f.spec_id in unpartitioned else equality[key]).append(f)
            elif f.is_dv and revisions.has(revision, revisions.V3_ADOPTED):
                self._add_dv(f, key)
            elif (target := f.target(revision)) is not None:
                targeted[target, key].append(f)
            else:
                position[key].append(f)
        self.targeted = {k: Run(v, position_delete_applies) for k, v in targeted.items()}
        self.named = self.dvs.keys() | {path for path, _ in self.targeted}  # data files that deletes name
        self.partitions = {k: _Partition(position.get(k, []), equality.get(k, [])) for k in {*position, *equality}}
        self.global_equality = Run(global_equality, equality_delete_applies)
        self._groups = list(self.partitions.values())  # the partitions by number, for plan_batch
        self._group_of = {k: g for g, k in enumerate(self.partitions)}
        self._group_of_values: dict[int, dict[tuple, int]] = defaultdict(dict)  # by spec id, then values
        for (spec_id, values), g in self._group_of.items():
            self._group_of_values[spec_id][values] = g
        self._position_runs = Runs([p.position for p in self._groups], position_delete_applies)
        self._equality_runs = Runs([p.equality for p in self._groups], equality_delete_applies)
        self._global_runs = Runs([self.global_equality], equality_delete_applies)

    def _add_dv(self, f: ScanFile, key: tuple) -> None:
        if f.referenced_data_file is None:
            raise InvalidInput("deletes.dv-scope", "a deletion vector must name its referenced_data_file", f.path)
        if f.referenced_data_file in self.dvs:
            raise InvalidInput(
                "deletes.one-dv",
                f"two deletion vectors for {f.referenced_data_file}: "
                f"{self.dvs[f.referenced_data_file][0].path} and {f.path}",
                f.referenced_data_file,
            )
        self.dvs[f.referenced_data_file] = (f, key)

    @implements("deletes.dv-scope", "deletes.equality-scope", "deletes.position-scope")
    def for_data_file(self, f: ScanFile) -> AppliedDeletes:
        """The deletes that apply to the data file `f` (rules deletes.*-scope)."""
        key, seq = partition_key(f.spec_id, f.partition), f.sequence_number
        part = self.partitions.get(key, _NO_PARTITION)
        dv, targeted = self._file_scoped(f.path, key, seq)
        counts = (
            part.position.applying_count(seq),
            part.equality.applying_count(seq),
            self.global_equality.applying_count(seq),
        )
        return self._answer(part, dv, targeted, *counts)

    @implements("deletes.dv-scope", "deletes.position-scope")
    def _file_scoped(self, path: str, key: tuple, seq: int) -> tuple[ScanFile | None, list[ScanFile]]:
        """The DV that applies to the data file (same partition, sequence rule of position deletes)
        and, when none does, its targeted position-delete files in its partition."""
        if path not in self.named:
            return None, []
        dv, dv_key = self.dvs.get(path, (None, None))
        if dv is not None and dv_key == key and position_delete_applies(seq, dv.sequence_number):
            return dv, []
        run = self.targeted.get((path, key))
        return None, [] if run is None else list(run.tail(run.applying_count(seq)))

    def _answer(
        self, part: _Partition, dv: ScanFile | None, targeted: list[ScanFile], position: int, equality: int, glob: int
    ) -> AppliedDeletes:
        """A data file's answer from the number of applying deletes at the tail of each run."""
        in_partition = NONE if dv is not None else _chain(part.position.tail(position), targeted)
        return AppliedDeletes(dv, in_partition, part.equality.tail(equality), self.global_equality.tail(glob))

    @implements("deletes.dv-scope", "deletes.equality-scope", "deletes.position-scope")
    def plan_batch(self, files: Sequence[ScanFile]) -> PlannedDeletes:
        """`for_data_file` for many data files at once, with the same answers: the partition-scoped
        and global deletes by a binary search vectorised over the data files (numpy), the
        file-scoped deletes (DVs, targeted position deletes) file by file as `for_data_file` finds
        them."""
        n = len(files)
        seqs = _sequence_numbers(files)
        groups = self._group_numbers(files)
        position = self._position_runs.applying_counts(groups, seqs)
        equality = self._equality_runs.applying_counts(groups, seqs)
        global_equality = self._global_runs.applying_counts(np.zeros(n, np.intp), seqs)
        plan = PlannedDeletes(self, files, groups, position, equality, global_equality)
        if not self.named:  # no DV and no targeted position delete: no data file to answer one by one
            return plan
        named = np.fromiter(map(self.named.__contains__, map(_PATH, files)), bool, n)
        for i in np.flatnonzero(named).tolist():
            f = files[i]
            dv, targeted = self._file_scoped(f.path, partition_key(f.spec_id, f.partition), f.sequence_number)
            if dv is not None:
                plan.dvs[i] = dv
            elif targeted:
                plan.targeted[i] = targeted
        return plan

    def _group_numbers(self, files: Sequence[ScanFile]) -> np.ndarray:
        """The number of each data file's partition among the index's (-1: no delete is in it)."""
        spec_ids, partitions = list(map(_SPEC_ID, files)), list(map(_PARTITION, files))
        if spec_ids and spec_ids.count(spec_ids[0]) == len(spec_ids) and _all_plain(partitions):
            by_values = self._group_of_values.get(spec_ids[0], {})  # one spec: look up the values alone
            return np.fromiter(map(by_values.get, partitions, repeat(-1)), np.intp, len(files))
        keys = partition_keys(spec_ids, partitions)
        return np.fromiter(map(self._group_of.get, keys, repeat(-1)), np.intp, len(files))


def _sequence_numbers(files: Sequence[ScanFile]) -> np.ndarray:
    try:
        return np.fromiter(map(_SEQUENCE_NUMBER, files), np.int64, len(files))
    except OverflowError:  # beyond a long: Python ints
        return np.array([f.sequence_number for f in files], object)


class PlannedDeletes:
    """The deletes that apply to each of a batch of data files (`DeleteIndex.plan_batch`), as
    columns: how many of the tail of each run apply, the DVs and targeted deletes by row."""

    def __init__(
        self,
        index: DeleteIndex,
        files: Sequence[ScanFile],
        groups: np.ndarray,
        position: np.ndarray,
        equality: np.ndarray,
        global_equality: np.ndarray,
    ):
        self.index, self.files, self.groups = index, files, groups
        self.position, self.equality, self.global_equality = position, equality, global_equality
        self.dvs: dict[int, ScanFile] = {}
        self.targeted: dict[int, list[ScanFile]] = {}

    def __len__(self) -> int:
        return len(self.files)

    def counts(self) -> np.ndarray:
        """The number of deletes that apply to each data file."""
        out = self.position + self.equality + self.global_equality
        for i in self.dvs:
            out[i] += 1 - self.position[i]  # a DV replaces the position deletes
        for i, targeted in self.targeted.items():
            out[i] += len(targeted)
        return out

    def applied(self, i: int) -> AppliedDeletes:
        """The answer for the data file at row `i`, as `DeleteIndex.for_data_file` gives it."""
        counts = self.position[i], self.equality[i], self.global_equality[i]
        g = int(self.groups[i])
        part = self.index._groups[g] if g >= 0 else _NO_PARTITION
        return self.index._answer(part, self.dvs.get(i), self.targeted.get(i, []), *map(int, counts))

    def items(self) -> Iterator[tuple[str, AppliedDeletes]]:
        return ((f.path, self.applied(i)) for i, f in enumerate(self.files))


def _chain(view: Sequence[ScanFile], extra: list[ScanFile]) -> Sequence[ScanFile]:
    if not extra:
        return view
    return list(view) + extra if len(view) else extra


@implements("deletes.file")
def plan(
    data_files: Iterable[ScanFile],
    delete_files: Iterable[ScanFile],
    unpartitioned_specs: Iterable[int] = (),
    revision: str = revisions.DEFAULT,
) -> dict[str, AppliedDeletes]:
    """For every live data file of a snapshot, the delete files that apply to it."""
    index = DeleteIndex(delete_files, unpartitioned_specs, revision)
    files = list(data_files)
    for f in files:
        if f.content != DATA:
            raise InvalidInput("deletes.file", "a delete file among the data files", f.path)
    return dict(index.plan_batch(files).items())


@implements("deletes.file")
def unpartitioned_spec_ids(specs: Iterable[dict]) -> set[int]:
    """Ids of the partition specs (JSON) whose fields are all `void`, or that have none (rule deletes.file:
    each spec an object with an int spec-id and a list of fields that have a transform)."""
    if not isinstance(specs, list):
        raise InvalidInput("deletes.file", "the partition specs are a JSON list", brief(specs))
    out = set()
    for s in specs:
        fields = s.get("fields", []) if isinstance(s, dict) else None
        if (
            type(s.get("spec-id") if isinstance(s, dict) else None) is not int
            or not isinstance(fields, list)
            or not all(isinstance(f, dict) for f in fields)
        ):
            raise InvalidInput(
                "deletes.file",
                "a partition spec is an object with an int spec-id and a list of field objects",
                brief(s),
            )
        if all(f.get("transform") == "void" for f in fields):
            out.add(s["spec-id"])
    return out
