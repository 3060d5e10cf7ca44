"""Delete scoping: for each data file of a snapshot, the delete files that apply, on both sides of
every boundary (sequence numbers equal, lower and higher; same and other partition; same and other
spec; partitioned and unpartitioned; DVs beside position-delete files)."""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import CaseSpec, case

NAME = "delete-scoping"
DESCRIPTION = "Scan Planning and adopted v3 §2: which delete files apply to which data files"

NAN = {"ieee754": "7ff8000000000000"}  # the vectors' form of a float JSON cannot carry
UNPARTITIONED = {"spec-id": 0, "fields": []}
BY_BUCKET = {"spec-id": 1, "fields": [{"source-id": 1, "field-id": 1000, "name": "b", "transform": "bucket[4]"}]}
BY_FLOAT = {"spec-id": 2, "fields": [{"source-id": 3, "field-id": 1001, "name": "f", "transform": "identity"}]}
ALL_VOID = {"spec-id": 3, "fields": [{"source-id": 1, "field-id": 1000, "name": "b", "transform": "void"}]}
SPECS = [UNPARTITIONED, BY_BUCKET, BY_FLOAT, ALL_VOID]


def data(path: str, seq: int, spec: int = 1, partition: list | None = None) -> dict:
    return {
        "file_path": path,
        "content": 0,
        "spec_id": spec,
        "partition": [0] if partition is None else partition,
        "sequence_number": seq,
    }


def pos(path: str, seq: int, spec: int = 1, partition: list | None = None, **kw) -> dict:
    return dict(data(path, seq, spec, partition), content=1, **kw)


def eq(path: str, seq: int, spec: int = 1, partition: list | None = None) -> dict:
    return dict(data(path, seq, spec, partition), content=2)


def dv(path: str, seq: int, target: str, spec: int = 1, partition: list | None = None) -> dict:
    return dict(data(path, seq, spec, partition), content=1, file_format="puffin", referenced_data_file=target)


def _plan(
    rule: str, slug: str, description: str, data_files: list, delete_files: list, revisions: tuple | None = None
) -> CaseSpec:
    return case(
        rule,
        slug,
        description,
        "plan-deletes",
        specs=SPECS,
        data_files=data_files,
        delete_files=delete_files,
        revisions=revisions,
    )


def specs() -> Iterator[CaseSpec]:
    yield from _unknown_transform_cases()
    r = "deletes.position-scope"
    files = [data("d-seq4", 4), data("d-seq5", 5), data("d-seq6", 6)]
    yield _plan(
        r,
        "sequence-boundary",
        "a position delete with data sequence number 5 applies to data files 4 and 5 (same commit), not 6",
        files,
        [pos("p5", 5)],
    )
    yield _plan(
        r,
        "other-partition",
        "a position delete in partition b=1 does not apply to a data file in b=0",
        [data("d", 1)],
        [pos("p", 2, partition=[1])],
    )
    yield _plan(
        r,
        "other-spec",
        "a position delete under spec 2 does not apply to a data file of spec 1, whatever the values",
        [data("d", 1, partition=[0])],
        [pos("p", 2, spec=2, partition=[0])],
    )
    yield _plan(
        r,
        "unpartitioned-position-is-not-global",
        "a position delete under the unpartitioned spec applies only to unpartitioned data files",
        [data("d1", 1), data("d0", 1, spec=0, partition=[])],
        [pos("p", 2, spec=0, partition=[])],
    )
    yield _plan(
        r,
        "referenced-data-file",
        "adopted: a position delete file naming d1 in referenced_data_file applies to d1 only; the seed text "
        "has no such field, so it applies to every file of the partition",
        [data("d1", 1), data("d2", 1)],
        [pos("p", 2, referenced_data_file="d1")],
    )
    yield _plan(
        r,
        "file-path-bounds",
        "a position delete whose file_path lower and upper bounds are both d1 targets d1 only (metrics pruning)",
        [data("d1", 1), data("d2", 1)],
        [pos("p", 2, file_path_lower="d1", file_path_upper="d1")],
    )
    yield _plan(
        r,
        "referenced-file-other-partition",
        "adopted: a position delete naming d1 in referenced_data_file but written in partition "
        "b=1 does not apply to d1 in b=0",
        [data("d1", 1)],
        [pos("p", 2, partition=[1], referenced_data_file="d1")],
        ADOPTED,
    )
    yield _plan(
        r,
        "file-path-bounds-other-spec",
        "a position delete whose file_path bounds are both d1, written under another spec, does not apply to d1",
        [data("d1", 1)],
        [pos("p", 2, spec=2, partition=[0.0], file_path_lower="d1", file_path_upper="d1")],
    )
    yield _plan(
        r,
        "file-path-range",
        "file_path bounds d1..d3 that differ do not target one file: the delete stays partition-scoped",
        [data("d1", 1), data("d2", 1)],
        [pos("p", 2, file_path_lower="d1", file_path_upper="d3")],
    )

    r = "deletes.equality-scope"
    yield _plan(
        r,
        "sequence-boundary",
        "an equality delete with data sequence number 5 applies to data file 4 only: not to 5 (same commit) nor 6",
        files,
        [eq("e5", 5)],
    )
    yield _plan(
        r,
        "other-partition",
        "an equality delete in b=1 does not apply to b=0",
        [data("d", 1)],
        [eq("e", 2, partition=[1])],
    )
    yield _plan(
        r,
        "global",
        "an equality delete under the unpartitioned spec applies to older data files of every spec and partition",
        [data("d-b0", 1), data("d-b1", 1, partition=[1]), data("d-f", 1, spec=2, partition=[1.5]), data("d-new", 3)],
        [eq("g", 2, spec=0, partition=[])],
    )
    yield _plan(
        r,
        "all-void-spec-is-global",
        "a spec whose only field is void is unpartitioned: its equality deletes are global",
        [data("d", 1)],
        [eq("g", 2, spec=3, partition=[None])],
    )
    yield _plan(
        r,
        "other-partitioned-spec",
        "an equality delete under another partitioned spec never applies",
        [data("d", 1)],
        [eq("e", 2, spec=2, partition=[0.0])],
    )

    r = "deletes.partition-equality"
    floats = [
        data("d-pos0", 1, spec=2, partition=[0.0]),
        data("d-neg0", 1, spec=2, partition=[-0.0]),
        data("d-nan", 1, spec=2, partition=[NAN]),
    ]
    yield _plan(
        r,
        "float-bits",
        "float partition values are equal by canonical bits: a delete in f=-0.0 applies to -0.0 only, one in "
        "f=NaN to NaN",
        floats,
        [eq("e-neg0", 2, spec=2, partition=[-0.0]), eq("e-nan", 2, spec=2, partition=[NAN])],
    )
    yield _plan(
        r,
        "null-partition",
        "a null partition value equals null: a delete in b=null applies to the data file in b=null, not b=0",
        [data("d-null", 1, partition=[None]), data("d-0", 1)],
        [pos("p", 1, partition=[None])],
    )

    r, v3 = "deletes.dv-scope", ADOPTED
    yield _plan(
        r,
        "dv-replaces-position-deletes",
        "a DV for d1 applies, and the position delete file of the same partition is then ignored for d1 "
        "(it still applies to d2)",
        [data("d1", 1), data("d2", 1)],
        [dv("dv1", 2, "d1"), pos("p", 2)],
        v3,
    )
    yield _plan(
        r,
        "dv-sequence-boundary",
        "a DV with sequence number 3 applies to its data file with 3, not to one with 4 (then the position "
        "delete file applies)",
        [data("d3", 3), data("d4", 4)],
        [dv("dv3", 3, "d3"), dv("dv4", 3, "d4"), pos("p", 5)],
        v3,
    )
    yield _plan(
        r,
        "dv-other-partition",
        "a DV whose partition differs from its data file's does not apply",
        [data("d1", 1)],
        [dv("dv", 2, "d1", partition=[2])],
        v3,
    )
    yield _plan(
        "deletes.one-dv",
        "two-dvs-for-one-file",
        "two DVs for the same data file are an error",
        [data("d1", 1)],
        [dv("dv-a", 2, "d1"), dv("dv-b", 3, "d1")],
        v3,
    )
    yield _plan(
        "deletes.file", "bad-content", "content 3 is not a file content", [data("d", 1)], [dict(pos("p", 2), content=3)]
    )
    yield _plan("deletes.file", "negative-sequence-number", "a sequence number is not negative", [data("d", -1)], [])


# A v3 spec with a transform no reader knows: "Their values still count when testing partition equality."
BY_UNKNOWN = {"spec-id": 4, "fields": [{"source-id": 2, "field-id": 1002, "name": "z", "transform": "zorder"}]}


def _unknown_transform_cases() -> Iterator[CaseSpec]:
    """Rule deletes.partition-equality under a spec with an unknown transform (adopted 1.3)."""
    files = [data("d-z-a", 1, spec=4, partition=["a"]), data("d-z-b", 1, spec=4, partition=["b"])]
    for slug, delete, kind in (
        ("unknown-transform-equality", eq("e-z-a", 2, spec=4, partition=["a"]), "an equality"),
        ("unknown-transform-position", pos("p-z-a", 2, spec=4, partition=["a"]), "a position"),
    ):
        yield case(
            "deletes.partition-equality",
            slug,
            f"spec 4 partitions by the unknown transform zorder: {kind} delete in z='a' applies to the data file in "
            "z='a', not to the one in z='b' (an unknown transform's values still count for partition equality)",
            "plan-deletes",
            revisions=ADOPTED,
            specs=[*SPECS, BY_UNKNOWN],
            data_files=files,
            delete_files=[delete],
        )
