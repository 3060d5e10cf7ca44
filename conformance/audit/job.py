"""The audit as a PySpark job: manifests read in parallel, files checked where they are read.

    stage 1  RDD of manifest-list rows --flatMap--> (kind, path, payload) items: a pickled
             `FileTask` per live file, and the violations of the manifest's summaries
    stage 2  those items --repartition (round robin)--> mapPartitions: each task's file read with
             pyarrow in the executor and checked (`file_checks.check_file`)

Only violations and one counter row per partition (files, rows, bytes checked) come back to the
driver: rows never leave the executors. The stages are RDD operations rather than
`DataFrame.mapInArrow`, which PySpark 3.5 only offers with pandas installed; the work per file is
the same (pyarrow reads and checks whole columns in the executor). Files are read through `LocalFiles` (local paths and
`file:` URIs), so on a cluster the table must be on storage every executor mounts at the same path, and only under the
table's location (the context's `ContainedFiles`, rule tree.file-location: a path elsewhere is a violation, never read).
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterable, Iterator

from spec_impl.errors import SpecError
from spec_impl.validate.history import validate_history
from spec_impl.validate.statistics_files import validate_statistics
from spec_impl.manifests.tree import FileSource, FileUnreadable
from spec_impl.rules import split_recommendations

from .file_checks import check_file
from .known import known_findings, split
from .model import Violation
from .plan import Plan, manifest_items

TASK, VIOLATION, ERROR = "task", "violation", "error"


@dataclass
class AuditResult:
    snapshot_id: int | None
    manifests: int = 0
    files: int = 0
    rows: int = 0
    bytes: int = 0
    seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)
    errors: list[Violation] = field(default_factory=list)  # files the audit could not check (not spec rules)
    known: list[tuple[Violation, str]] = field(default_factory=list)  # recorded writer findings, with their entry id
    recommendations: list[Violation] = field(default_factory=list)  # findings of a should rule, never violations


def manifest_stage(ctx: Any, row: dict[str, Any]) -> list[tuple[str, Any]]:
    """Stage 1, in an executor: one manifest's file tasks and summary violations."""
    try:
        tasks, violations = manifest_items(ctx, ctx.files, row)
    except FileUnreadable as e:  # a manifest that exists but cannot be read here (a directory, no permission)
        return [(ERROR, Violation("audit.error", row.get("manifest_path", "?"), str(e)))]
    return [(TASK, t) for t in tasks] + [(VIOLATION, v) for v in violations]


def file_stage(ctx: Any, items: Iterator[tuple[str, Any]]) -> Iterator[tuple]:
    """Stage 2, in an executor: the violations of each task's file, then one counter tuple
    ("count", files, rows, bytes) for the partition."""
    files = ctx.files
    checked = rows = size = 0
    for kind, item in items:
        if kind == VIOLATION:
            yield VIOLATION, item
            continue
        try:
            violations, n = check_file(ctx, files, item)
        except SpecError as e:  # a file the tree references that cannot be read (tree.file-exists, ...)
            violations, n = [Violation(e.rule, item.path, str(e))], 0
        except Exception as e:  # noqa: BLE001  (a file the audit cannot check: reported, never a crash)
            yield ERROR, Violation("audit.error", item.path, f"{type(e).__name__}: {e}")
            continue
        yield from ((VIOLATION, v) for v in violations)
        checked, rows, size = checked + 1, rows + n, size + int(item.data_file.get("file_size_in_bytes") or 0)
    yield "count", (checked, rows, size)


def run(spark: Any, plan: Plan, progress: Callable[[str], None] = lambda _: None) -> AuditResult:
    """Run both stages on `spark` and gather the violations."""
    started = time.monotonic()
    sc = spark.sparkContext
    ctx, rows = plan.context, plan.manifest_rows
    result = AuditResult(ctx.snapshot_id, manifests=len(rows))
    if not rows:
        return result
    slots = sc.defaultParallelism
    counts = sc.accumulator((0, 0, 0), _Sums())  # manifests read, live files found, files checked
    progress(f"reading {len(rows)} manifests over {min(len(rows), slots * 2)} tasks")
    items = sc.parallelize(rows, min(len(rows), slots * 2)).flatMap(
        lambda row: _counted_manifest(counts, manifest_stage(ctx, row))
    )
    checked = items.repartition(slots * 4).mapPartitions(lambda part: _counted_files(counts, file_stage(ctx, part)))
    progress(f"checking the live files in {slots * 4} partitions")
    watching = getattr(
        progress, "watching", None
    )  # a spec_impl.validate.progress.Progress: counters while the job runs
    with watching(lambda: _describe(counts.value, len(rows))) if watching else contextlib.nullcontext():
        outputs = checked.collect()
    return _gather(result, outputs, started)


class _Sums:
    """A Spark accumulator's parameter (pyspark's AccumulatorParam interface, without importing
    pyspark here): a tuple of counts, added element by element."""

    def zero(self, value: tuple) -> tuple:
        return (0,) * len(value)

    def addInPlace(self, a: tuple, b: tuple) -> tuple:
        return tuple(x + y for x, y in zip(a, b))


def _counted_manifest(counts: Any, items: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    counts.add((1, sum(kind == TASK for kind, _ in items), 0))
    return items


def _counted_files(counts: Any, outputs: Iterator[tuple]) -> Iterator[tuple]:
    for kind, item in outputs:
        if kind == "count":
            counts.add((0, 0, item[0]))
        yield kind, item


def _describe(counts: tuple[int, int, int], manifests: int) -> str:
    """The job's counters so far (Spark adds a task's counts when the task ends)."""
    return f"manifests {counts[0]:,}/{manifests:,}, live files {counts[1]:,}, files checked {counts[2]:,}"


def run_local(plan: Plan, skip: set[str] | None = None) -> AuditResult:
    """Both stages in this process, file after file (the writer harness's check 4, where a Spark job
    per snapshot would cost more than the checks). Files whose path is in `skip` are not checked
    again; the paths checked are added to it."""
    started = time.monotonic()
    result = AuditResult(plan.context.snapshot_id, manifests=len(plan.manifest_rows))
    items = [item for row in plan.manifest_rows for item in manifest_stage(plan.context, row)]
    if skip is not None:
        items = [(kind, x) for kind, x in items if kind != TASK or x.path not in skip]
        skip.update(x.path for kind, x in items if kind == TASK)
    return _gather(result, file_stage(plan.context, iter(items)), started)


def _gather(result: AuditResult, outputs: Iterable[tuple], started: float) -> AuditResult:
    """The stages' outputs into `result`: counts added, findings sorted (`add_findings`)."""
    found: list[Violation] = []
    for kind, item in outputs:
        if kind == "count":
            result.files, result.rows, result.bytes = (
                result.files + item[0],
                result.rows + item[1],
                result.bytes + item[2],
            )
        elif kind == ERROR:
            result.errors.append(item)
        else:
            found.append(item)
    add_findings(result, found)
    result.seconds = time.monotonic() - started
    return result


def add_findings(result: AuditResult, found: list[Violation]) -> AuditResult:
    """Findings into `result`: those of a should rule apart as recommendations
    (`spec_impl.rules.split_recommendations`), recorded writer findings apart as known, the rest as
    violations; each list sorted."""
    musts, shoulds = split_recommendations(found)
    new, known = split(musts, known_findings())
    result.violations = sorted(result.violations + new, key=_order)
    result.recommendations = sorted(result.recommendations + shoulds, key=_order)
    result.known += [(v, entry.id) for v, entry in known]
    return result


def _order(v: Violation) -> tuple[str, str, str]:
    return (v.rule, v.path, v.message)


def add_history(result: AuditResult, files: FileSource, metadata_location: str) -> AuditResult:
    """The history pass, on the driver (metadata only): every snapshot of the table against its
    parent (`spec_impl.validate.history`), its violations added to `result`, recorded findings apart."""
    return add_findings(result, validate_history(files, metadata_location))


def add_statistics(result: AuditResult, files: FileSource, metadata_location: str) -> AuditResult:
    """The statistics pass, on the driver: the statistics and partition statistics files the
    metadata registers (`spec_impl.validate.statistics_files`), violations added, recorded findings apart."""
    return add_findings(result, validate_statistics(files, metadata_location))
