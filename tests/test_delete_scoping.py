"""Delete scoping (spec_impl.deletes.scoping): the index against a pairwise transcription of the
spec's table, on random snapshots; and the errors.

Rules: deletes.position-scope, deletes.equality-scope, deletes.dv-scope, deletes.one-dv,
deletes.partition-equality, deletes.file.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spec_impl import revisions
from spec_impl.deletes.scoping import (
    DATA,
    EQUALITY,
    POSITION,
    AppliedDeletes,
    DeleteIndex,
    ScanFile,
    plan,
    scan_file,
    unpartitioned_spec_ids,
)
from spec_impl.errors import InvalidInput

UNPARTITIONED_SPECS = {0}


def _same_partition(a: ScanFile, b: ScanFile) -> bool:
    def same(x, y):
        if isinstance(x, float) and isinstance(y, float):
            return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
        return type(x) is type(y) and x == y

    return (
        a.spec_id == b.spec_id
        and len(a.partition) == len(b.partition)
        and all(same(x, y) for x, y in zip(a.partition, b.partition))
    )


def _pairwise(data: list[ScanFile], deletes: list[ScanFile], revision: str) -> dict[str, list[str]]:
    """The spec's table, one (data file, delete file) pair at a time."""
    adopted = revisions.has(revision, revisions.V3_ADOPTED)
    out = {}
    for d in data:
        dvs = [
            x
            for x in deletes
            if adopted
            and x.is_dv
            and x.referenced_data_file == d.path
            and d.sequence_number <= x.sequence_number
            and _same_partition(d, x)
        ]
        applied = list(dvs)
        for x in deletes:
            if x.content == EQUALITY:
                if d.sequence_number < x.sequence_number and (
                    _same_partition(d, x) or x.spec_id in UNPARTITIONED_SPECS
                ):
                    applied.append(x)
            elif x.content == POSITION and not (adopted and x.is_dv) and not dvs:
                target = x.referenced_data_file if adopted else None
                if target is None and x.file_path_lower is not None and x.file_path_lower == x.file_path_upper:
                    target = x.file_path_lower
                if d.sequence_number <= x.sequence_number and _same_partition(d, x) and target in (None, d.path):
                    applied.append(x)
        out[d.path] = sorted(f.path for f in applied)
    return out


partition_values = st.sampled_from([0, 1, None, 0.0, -0.0, float("nan"), "a"])


@st.composite
def snapshots(draw):
    n_data = draw(st.integers(1, 8))
    data = [
        ScanFile(f"d{i}", DATA, draw(st.sampled_from([0, 1, 2])), (draw(partition_values),), draw(st.integers(0, 5)))
        for i in range(n_data)
    ]
    deletes, dv_targets = [], set()
    for j in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["pos", "eq", "dv", "targeted", "bounds"]))
        spec = draw(st.sampled_from([0, 1, 2]))
        partition = (draw(partition_values),)
        seq = draw(st.integers(0, 6))
        target = draw(st.sampled_from([d.path for d in data]))
        if kind == "dv":
            if target in dv_targets:
                continue
            dv_targets.add(target)
            deletes.append(ScanFile(f"x{j}", POSITION, spec, partition, seq, "puffin", target))
        elif kind == "targeted":
            deletes.append(ScanFile(f"x{j}", POSITION, spec, partition, seq, referenced_data_file=target))
        elif kind == "bounds":
            deletes.append(
                ScanFile(f"x{j}", POSITION, spec, partition, seq, file_path_lower=target, file_path_upper=target)
            )
        else:
            deletes.append(ScanFile(f"x{j}", POSITION if kind == "pos" else EQUALITY, spec, partition, seq))
    return data, deletes


@settings(max_examples=300, deadline=None)
@given(snapshots(), st.sampled_from(revisions.ALL))
def test_index_agrees_with_the_pairwise_rules(snapshot, revision):
    data, deletes = snapshot
    planned = plan(data, deletes, UNPARTITIONED_SPECS, revision)
    assert {p: sorted(f.path for f in a.files()) for p, a in planned.items()} == _pairwise(data, deletes, revision)


def test_views_share_runs_and_have_lengths():
    data = [ScanFile(f"d{i}", DATA, 1, (0,), i % 3) for i in range(6)]
    deletes = [ScanFile(f"p{i}", POSITION, 1, (0,), i) for i in range(5)]
    planned = plan(data, deletes)
    assert [len(planned[f"d{i}"]) for i in range(6)] == [5, 4, 3, 5, 4, 3]
    assert [f.path for f in planned["d2"].position] == ["p2", "p3", "p4"] and planned["d2"].position[-1].path == "p4"


def test_two_dvs_for_one_file_is_an_error_only_in_the_adopted_revision():
    deletes = [ScanFile("a", POSITION, 1, (0,), 2, "puffin", "d"), ScanFile("b", POSITION, 1, (0,), 3, "puffin", "d")]
    with pytest.raises(InvalidInput) as e:
        plan([ScanFile("d", DATA, 1, (0,), 1)], deletes)
    assert e.value.rule == "deletes.one-dv"
    seed = plan([ScanFile("d", DATA, 1, (0,), 1)], deletes, revision=revisions.SEED_2024)
    assert len(seed["d"]) == 2  # no DVs in the seed text: Puffin files are position deletes there


def test_scan_file_errors_name_the_file():
    with pytest.raises(InvalidInput) as e:
        scan_file({"file_path": "x", "content": 0, "sequence_number": None})
    assert e.value.rule == "deletes.file" and "x" in str(e.value)
    with pytest.raises(InvalidInput):
        plan([ScanFile("p", POSITION, 0, (), 1)], [])


def test_unpartitioned_spec_ids():
    specs = [
        {"spec-id": 0, "fields": []},
        {"spec-id": 1, "fields": [{"transform": "void"}]},
        {"spec-id": 2, "fields": [{"transform": "bucket[2]"}]},
    ]
    assert unpartitioned_spec_ids(specs) == {0, 1}


batch_partition_values = st.sampled_from([0, 1, True, 1.0, None, 0.0, -0.0, float("nan"), "a", b"a"])


@st.composite
def batches(draw):
    """Snapshots whose partitions hold values equal across types (1, True, 1.0; 0, 0.0, -0.0), with
    or without floats, and with one or two values per partition."""
    data, deletes = draw(snapshots())
    width = draw(st.integers(1, 2))

    def repartition(f: ScanFile) -> ScanFile:
        values = tuple(draw(batch_partition_values) for _ in range(width)) if f.spec_id else ()
        return dataclasses.replace(f, partition=values)

    return [repartition(f) for f in data], [repartition(f) for f in deletes]


def _parts(a: AppliedDeletes) -> tuple:
    return a.dv, list(a.position), list(a.equality), list(a.global_equality)


@settings(max_examples=300, deadline=None)
@given(st.one_of(snapshots(), batches()), st.sampled_from(revisions.ALL))
def test_batch_planner_gives_the_per_file_answers(snapshot, revision):
    data, deletes = snapshot
    index = DeleteIndex(deletes, UNPARTITIONED_SPECS, revision)
    batch = index.plan_batch(data)
    assert len(batch) == len(data)
    assert [_parts(batch.applied(i)) for i in range(len(data))] == [_parts(index.for_data_file(f)) for f in data]
    assert batch.counts().tolist() == [len(index.for_data_file(f)) for f in data]


def test_batch_planner_edge_cases():
    """Equal sequence numbers (a position delete applies, an equality delete does not), global
    equality deletes of the unpartitioned spec, a DV (replacing the position deletes) and one of
    another partition (ignored), and files of another spec."""
    data = [
        ScanFile("d1", DATA, 1, (0,), 3),
        ScanFile("d2", DATA, 1, (0,), 3),
        ScanFile("d3", DATA, 2, (0,), 3),
        ScanFile("d4", DATA, 1, (1.0,), 2),
    ]
    deletes = [
        ScanFile("pos", POSITION, 1, (0,), 3),
        ScanFile("eq-same", EQUALITY, 1, (0,), 3),
        ScanFile("eq-later", EQUALITY, 1, (0,), 4),
        ScanFile("global", EQUALITY, 0, (), 4),
        ScanFile("dv", POSITION, 1, (0,), 3, "puffin", "d2"),
        ScanFile("dv-elsewhere", POSITION, 1, (1,), 5, "puffin", "d1"),
        ScanFile("other-spec", POSITION, 2, (0,), 2),
        ScanFile("float-part", POSITION, 1, (1.0,), 2),
    ]
    index = DeleteIndex(deletes, UNPARTITIONED_SPECS, revisions.V3_ADOPTED)
    batch = index.plan_batch(data)
    expected = {
        "d1": ["eq-later", "global", "pos"],
        "d2": ["dv", "eq-later", "global"],
        "d3": ["global"],
        "d4": ["float-part", "global"],
    }
    for i, f in enumerate(data):
        assert sorted(x.path for x in batch.applied(i).files()) == expected[f.path]
        assert _parts(batch.applied(i)) == _parts(index.for_data_file(f))
    assert batch.counts().tolist() == [3, 3, 1, 2]
    assert DeleteIndex([], UNPARTITIONED_SPECS).plan_batch([]).counts().tolist() == []
