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

`DeleteIndex` answers each data file in O(log n) from sorted runs per partition, so planning n
data files against k delete files costs O((n + k) log k), not O(n · k): a data file's position
and equality deletes are returned as views of runs shared between the files of a partition.
"""

from __future__ import annotations

import bisect
import math
import struct
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata.json_document import brief
from spec_impl.rules import Rule, register, implements

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
        (revisions.V3_ADOPTED,),
    ),
    Rule(
        "deletes.one-dv",
        "adopted 1.5 Deletion vectors",
        "At most one deletion vector per data file in a snapshot",
        (3,),
        (revisions.V3_ADOPTED,),
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


@dataclass(frozen=True)
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
        if revision == revisions.V3_ADOPTED and self.referenced_data_file is not None:
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


@implements("deletes.file", "deletes.partition-equality")
def partition_key(spec_id: int, values: Iterable[Any]) -> tuple:
    """The key under which partitions are equal (rule deletes.partition-equality): floats by their
    canonical bits (every NaN alike; -0.0 and 0.0 differ), other values by value."""
    key = (spec_id, *(_canonical(v) for v in values))
    try:
        hash(key)
    except TypeError:
        raise InvalidInput(
            "deletes.file",
            "partition values are single values (null, booleans, numbers, strings, bytes), not lists or objects",
            brief(values),
        ) from None
    return key


def _canonical(v: Any) -> Any:
    if isinstance(v, float):
        return ("nan",) if math.isnan(v) else ("float", struct.pack(">d", v))
    return v


class _Run:
    """Delete files of one kind and partition, sorted by data sequence number."""

    def __init__(self, files: list[ScanFile]):
        self.files = sorted(files, key=lambda f: (f.sequence_number, f.path))
        self.seqs = [f.sequence_number for f in self.files]

    def at_least(self, seq: int) -> Sequence[ScanFile]:
        return _View(self.files, bisect.bisect_left(self.seqs, seq))

    def above(self, seq: int) -> Sequence[ScanFile]:
        return _View(self.files, bisect.bisect_right(self.seqs, seq))


class _View(Sequence):
    """files[start:] without copying: the tail of a run shared by the data files of a partition."""

    __slots__ = ("_files", "_start")

    def __init__(self, files: list[ScanFile], start: int):
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

    def __iter__(self) -> Iterator[ScanFile]:
        return iter(self._files[self._start :])


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


_NONE: Sequence[ScanFile] = ()


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
        self.dvs: dict[str, ScanFile] = {}
        position: dict[tuple, list[ScanFile]] = defaultdict(list)
        targeted: dict[str, list[ScanFile]] = defaultdict(list)
        equality: dict[tuple, list[ScanFile]] = defaultdict(list)
        global_equality: list[ScanFile] = []
        for f in deletes:
            if f.content == DATA:
                raise InvalidInput("deletes.file", "a data file among the delete files", f.path)
            if f.content == EQUALITY:
                (
                    global_equality if f.spec_id in unpartitioned else equality[partition_key(f.spec_id, f.partition)]
                ).append(f)
            elif f.is_dv and revision == revisions.V3_ADOPTED:
                if f.referenced_data_file is None:
                    raise InvalidInput(
                        "deletes.dv-scope", "a deletion vector must name its referenced_data_file", f.path
                    )
                if f.referenced_data_file in self.dvs:
                    raise InvalidInput(
                        "deletes.one-dv",
                        f"two deletion vectors for {f.referenced_data_file}: "
                        f"{self.dvs[f.referenced_data_file].path} and {f.path}",
                        f.referenced_data_file,
                    )
                self.dvs[f.referenced_data_file] = f
            else:
                target = f.target(revision)
                if target is not None:
                    targeted[target].append(f)
                else:
                    position[partition_key(f.spec_id, f.partition)].append(f)
        self.position = {k: _Run(v) for k, v in position.items()}
        self.targeted = {k: _Run(v) for k, v in targeted.items()}
        self.equality = {k: _Run(v) for k, v in equality.items()}
        self.global_equality = _Run(global_equality)

    @implements("deletes.dv-scope", "deletes.equality-scope", "deletes.position-scope")
    def for_data_file(self, f: ScanFile) -> AppliedDeletes:
        """The deletes that apply to the data file `f` (rules deletes.*-scope)."""
        key = partition_key(f.spec_id, f.partition)
        seq = f.sequence_number
        dv = self.dvs.get(f.path)
        if dv is not None and not (seq <= dv.sequence_number and partition_key(dv.spec_id, dv.partition) == key):
            dv = None
        position: Sequence[ScanFile] = _NONE
        if dv is None:
            in_partition = self.position[key].at_least(seq) if key in self.position else _NONE
            targeted = (
                [d for d in self.targeted[f.path].at_least(seq) if partition_key(d.spec_id, d.partition) == key]
                if f.path in self.targeted
                else []
            )
            position = _chain(in_partition, targeted)
        equality = self.equality[key].above(seq) if key in self.equality else _NONE
        return AppliedDeletes(dv, position, equality, self.global_equality.above(seq))


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
    out = {}
    for f in data_files:
        if f.content != DATA:
            raise InvalidInput("deletes.file", "a delete file among the data files", f.path)
        out[f.path] = index.for_data_file(f)
    return out


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
