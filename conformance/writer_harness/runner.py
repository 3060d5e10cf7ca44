"""Running one history: each step on the writer (Iceberg Java through Spark, or PyIceberg: `writers`)
and on the model, then the checks (`checks`).

Which snapshots are checked when: a snapshot is checked by every reader when it appears (snapshots
are immutable); every branch and tag after every step; and every live snapshot again after a step
that removes or rewrites files (expire_snapshots and the rewrite procedures) and after the last
step. The validator runs on the whole table after every step.

A step the writer refuses with a validation error (Spark: `AnalysisException`, Iceberg's
`ValidationException`, `IllegalArgumentException`, `UnsupportedOperationException`; PyIceberg: the
`ValueError`, `ValidationError` or `CommitFailedException` it raises itself) leaves table and
model unchanged and is listed as refused; any other exception of the writer is a finding
(`spark-crash` for Iceberg Java through Spark, `writer-crash` for PyIceberg), and the history stops
there, since the table's state is then unknown. A step the writer does not offer (PyIceberg has no
UPDATE, MERGE, equality deletes, rewrite procedures or cherry-pick) is listed as skipped, and so
is one whose outcome the model cannot predict (`model.ModelLimit`: an equality delete whose rows
live in files of a non-identity or unknown partition).

Spark reads every table for check 1, whoever wrote it. When one step commits several snapshots
(PyIceberg's delete can drop whole files in one snapshot and rewrite others in the next), the
snapshots in between have no model: they are audited (check 4), and listed as skipped.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from . import checks, values
from .model import Change, ModelLimit, TableModel
from .spark_wire import java_error as _java_error
from .steps import BY_OP, FILE_REMOVING
from .writer_base import Unsupported
from .writers import open_table

# The other readers checked by default: the engines of the matrix that read a table by its metadata file
# (Iceberg Java is check 1 already; icebird and Sail can be named with --readers).
OTHER_READERS = ("pyiceberg", "duckdb", "polars", "chdb", "daft", "pyiceberg-core")


@dataclass(frozen=True)
class Finding:
    # spark-rows, reference-rows, row-lineage, validator, audit, reader:<engine>, spark-crash, writer-crash, no-commit
    check: str
    step: int  # index of the step after which it was seen (-1: creating the table)
    target: str  # "snapshot <id>", "branch <name>", "tag <name>", "table"
    message: str
    op: str = ""  # the op of that step
    writer: str = "spark"  # the writer of the table (`writers`)
    format_version: int | None = None  # the table's format version then
    specs: int | None = None  # how many partition specs the table had then (more than one: evolved)

    def to_json(self) -> dict:
        out = {"check": self.check, "step": self.step, "op": self.op, "target": self.target, "message": self.message}
        return out if self.writer == "spark" else {**out, "writer": self.writer}


@dataclass
class Outcome:
    history: dict
    findings: list[Finding] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (step, the writer's message)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (step, why the step did not apply)
    declined: list[tuple[int, str, str]] = field(
        default_factory=list
    )  # (step, reader, why its adapter cannot read the snapshot)
    steps_run: int = 0
    snapshots_checked: int = 0
    seconds: float = 0.0
    metadata_location: str | None = None
    checked: set[int] = field(default_factory=set)  # the snapshots checked so far
    # harness.Tally: violations (new, known) and, apart, known divergences and allowed findings (set by Harness.run)
    tally: Any = None


class Refused(Exception):
    pass


class Crashed(Exception):
    pass


class Skipped(Exception):
    pass


class Readers:
    """The readers checked against the model: Spark (always), the reference and the other engines,
    each replaceable (the harness's own tests swap in broken ones)."""

    def __init__(self, engines: dict[str, Any] | None = None, reference: Any = None, validator: Any = None):
        from spec_impl.manifests.tree import LocalFiles
        from spec_impl.manifests.validate import validate_table
        from spec_impl.scan.reader import read_table

        self.files = LocalFiles()
        self.engines = engines if engines is not None else {}
        self.read_table = reference or read_table
        self.validate = validator or validate_table

    def table_files(self, metadata_location: str) -> Any:
        """The files of the table at `metadata_location` as the reference reader and the validator
        may read them: only under the table's location (rule tree.file-location,
        `spec_impl.manifests.locations`)."""
        from spec_impl.manifests.locations import ContainedFiles

        return ContainedFiles.for_table(self.files, metadata_location)


class HistoryRun:
    def __init__(
        self,
        spark: Any,
        warehouse: Any,
        name: str,
        history: dict,
        readers: Readers,
        checking: bool = True,
        writer: str = "spark",
    ):
        self.table = open_table(writer, spark, warehouse, name)
        self.history, self.readers = history, readers
        self.model = TableModel(
            [(c["name"], c["type"]) for c in history["table"]["columns"]], history["table"]["partition"]
        )
        self.properties = dict(history["table"]["properties"])  # the table's properties as the steps set them
        self.outcome = Outcome(history)
        self.audited: set[str] = set()  # paths of the files check 4 has audited
        self.violations_seen: set[str] = set()
        self.lineage: dict[int, dict[int, tuple]] = {}  # snapshot id -> id -> (_row_id, seq), from the reference
        self.checking = checking  # False: the steps only (the benchmark's peer)
        self.unmodelled: set[int] = set()  # snapshots a step committed before its last one (audited only)

    # --- the loop -------------------------------------------------------------------------------
    def run(self, progress: Any = None) -> Outcome:
        started = time.monotonic()
        try:
            self._guard(-1, lambda: self.table.create(self.history["table"]))
        except (Refused, Crashed, Skipped):
            self.outcome.seconds = time.monotonic() - started
            return self.outcome
        steps = self.history["steps"]
        for i, step in enumerate(steps):
            before = self.table.metadata()
            try:
                change = self._guard(i, lambda: self._execute(i, step))  # noqa: B023 (called at once)
            except (Refused, Skipped):
                continue
            except Crashed:
                break
            self.outcome.steps_run += 1
            after = self.table.metadata()
            try:
                self._book(i, step, change, before, after)
            except Exception as e:  # a fault of the harness itself: a finding too, never a silent pass
                self._find(
                    "harness-error",
                    i,
                    "table",
                    f"{type(e).__name__}: {e} ({traceback.extract_tb(e.__traceback__)[-1].name})",
                )
                break
            if self.checking and not self.check_table(i, every=step["op"] in FILE_REMOVING or i == len(steps) - 1):
                break
            if progress:
                progress(i, step)
        self.outcome.metadata_location = self.table.metadata_location
        self.outcome.seconds = time.monotonic() - started
        return self.outcome

    def _guard(self, i: int, action: Any) -> Any:
        try:
            return action()
        except Unsupported as e:  # a step the writer does not offer
            self.outcome.skipped.append((i, f"{self.table.kind} does not offer this step: {e}"))
            raise Skipped from None
        except ModelLimit as e:  # raised before the writer is called: neither table nor model changed
            self.outcome.skipped.append((i, f"the model cannot predict this step: {e}"))
            raise Skipped from None
        except Exception as e:  # the writer's errors: sort refusals from crashes
            kind, text = self.table.classify(e)
            if kind == "harness":  # the harness's own fault
                self._find("harness-error", i, "table", f"{text} ({traceback.extract_tb(e.__traceback__)[-1].name})")
                raise Crashed from None
            if kind == "refused":
                self.outcome.refused.append((i, _first_line(text)))
                raise Refused from None
            self._find(
                self.table.crash_check,
                i,
                "table",
                f"{_first_line(text)} (step {_describe(self.history['steps'][i]) if i >= 0 else 'create'})",
            )
            raise Crashed from None

    def _find(self, check: str, step: int, target: str, message: str) -> None:
        op = self.history["steps"][step]["op"] if step >= 0 else "create"
        try:
            md = self.table.metadata()
            version, specs = md.get("format-version"), len(md.get("partition-specs") or [])
        except Exception:  # no metadata file (yet), or one that does not parse: the finding says why
            version = specs = None
        self.outcome.findings.append(Finding(check, step, target, message, op, self.table.kind, version, specs))

    # --- executing a step on the writer and on the model -------------------------------------------
    def _execute(self, i: int, step: dict) -> Change | None:
        """The step on the writer's table and on the model, as the step table runs it (`steps`). A
        step the writer does not offer raises `writer_base.Unsupported` before either changes (data
        steps compute the model's change without applying it; `_book` applies it once the writer
        committed)."""
        if step["op"] not in BY_OP:
            raise ValueError(f"unknown step {step['op']!r}")
        return BY_OP[step["op"]].run(self, i, step)

    def skip(self, i: int, reason: str) -> None:
        """Step `i` does not apply to the table as it is (listed as skipped; table and model unchanged)."""
        self.outcome.skipped.append((i, reason))

    def rewritten(self, op: str, change: Change) -> Change:
        """A copy-on-write delete, update or merge rewrites the data files it touches (v1 always;
        PyIceberg always: it writes no delete files)."""
        return self.model.files_rewritten(change) if self.table.copy_on_write(op, self.properties) else change

    # --- bookkeeping: which snapshot the writer made for which model state ---------------------------
    def _book(self, i: int, step: dict, change: Change | None, before: dict, after: dict) -> None:
        m = self.model
        heads_after = _heads(after)
        live = {s["snapshot-id"] for s in after.get("snapshots", [])}
        if change is not None:
            old, new = m.branches[change.branch], heads_after.get(change.branch)
            if new is not None and new != old:
                if new in m.versions:  # a fast-forward to a snapshot the model knows
                    m.branches[change.branch] = new
                else:
                    m.commit(change, new, step["op"])
            elif _key_rows(m, change.rows) != _key_rows(m, m.rows_of(change.branch)):
                self._find(
                    "no-commit",
                    i,
                    f"branch {change.branch}",
                    f"{_describe(step)} changes {_diff_size(m, change)} rows, but the writer committed no snapshot",
                )
        for name, head in heads_after.items():  # refs the step created or moved (branches, tags, rollbacks)
            if name in m.branches and m.branches[name] != head and head in m.versions:
                m.branches[name] = head
        known_before = {s["snapshot-id"] for s in before.get("snapshots", [])}
        unknown = sorted(live - known_before - set(m.versions))
        if unknown:
            self.unmodelled.update(unknown)
            self.outcome.skipped.append((i, f"snapshots {unknown} have no model (the step made more than one commit)"))
        for name, head in list(m.branches.items()):
            if head is not None and head not in live:
                self._find(
                    "spark-rows",
                    i,
                    f"branch {name}",
                    f"the head snapshot {head} of branch {name} is gone from the table",
                )
        m.forget(live)

    # --- checks -------------------------------------------------------------------------------------
    def check_table(self, i: int, every: bool = True) -> bool:
        """Every check on the table as it is now, as after step `i` (`every`: all live snapshots, not
        only new ones). False when the harness itself failed (then a `harness-error` finding says why)."""
        try:
            self._check(i, self.table.metadata(), every)
            return True
        except Exception as e:
            self._find(
                "harness-error",
                i,
                "table",
                f"{type(e).__name__}: {e} ({traceback.extract_tb(e.__traceback__)[-1].name})",
            )
            return False

    def _check(self, i: int, md: dict, every: bool) -> None:
        m = self.model
        seqs = {s["snapshot-id"]: s.get("sequence-number", 0) for s in md.get("snapshots", [])}
        fresh = [sid for sid in m.versions if sid not in self.outcome.checked]
        targets = list(m.versions) if every else fresh
        for sid in targets:
            self._check_snapshot(i, sid, md, seqs)
        for name, head in _heads(md).items():
            kind = "branch" if name == "main" or name in m.branches else "tag"
            self._check_ref(i, kind, name, head)
        location = self.table.metadata_location
        for v in self.readers.validate(self.readers.table_files(location), location):
            message = f"[{v.rule}] {v.path.rsplit('/', 1)[-1]}: {v.message}"
            if message not in self.violations_seen:  # a file's violation is reported once, when it appears
                self.violations_seen.add(message)
                self._find("validator", i, "table", message)
        live = {s["snapshot-id"] for s in md.get("snapshots", [])}
        for sid in targets + sorted(self.unmodelled & live):  # snapshots without a model are audited too
            for message in checks.audit_messages(location, sid, self.audited):
                if message not in self.violations_seen:  # a manifest's summary violation is reported once
                    self.violations_seen.add(message)
                    self._find("audit", i, f"snapshot {sid}", message)
        self._check_other_readers(i, targets, md)

    def _expected(self, sid: int) -> tuple[tuple, list[tuple]]:
        """The columns of a read that names snapshot `sid` (rule scan.read-schema: the snapshot's own
        schema) and the model's rows on them."""
        v = self.model.versions[sid]
        return v.columns, self.model.view(v.rows, v.columns)

    def _check_snapshot(self, i: int, sid: int, md: dict, seqs: dict[int, int]) -> None:
        from spec_impl.errors import SpecError

        v = self.model.versions[sid]
        snapshot = next((s for s in md.get("snapshots", []) if s["snapshot-id"] == sid), {})
        # row lineage exists from the first v3 snapshot on: older snapshots have no first-row-id and read null ids
        lineage = md.get("format-version", 1) >= 3 and snapshot.get("first-row-id") is not None
        self.outcome.checked.add(sid)
        self.outcome.snapshots_checked += 1
        # 1. Spark, by snapshot id: Iceberg's Spark source reads a snapshot with the snapshot's schema
        try:
            names, rows = self.table.read(snapshot_id=sid, lineage=lineage)
        except Exception as e:
            self._find(
                "spark-crash",
                i,
                f"snapshot {sid}",
                f"reading: {_first_line(_java_error(e) or f'{type(e).__name__}: {e}')}",
            )
            return
        message = checks.compare_rows(v.columns, self.model.view(v.rows, v.columns), names, rows)
        if message:
            self._find("spark-rows", i, f"snapshot {sid}", message)
        # 2. the reference reader
        columns, expected = self._expected(sid)
        try:
            table = self.readers.read_table(
                self.readers.table_files(self.table.metadata_location),
                self.table.metadata_location,
                sid,
                with_lineage=lineage,
            )
        except SpecError as e:
            self._find("reference-rows", i, f"snapshot {sid}", f"the reference rejects the snapshot: {e}")
            return
        ours = table.to_pylist()
        plain = [c for c in table.column_names if c not in checks.LINEAGE]
        message = checks.compare_rows(columns, expected, plain, ours)
        if message:
            self._find("reference-rows", i, f"snapshot {sid}", message)
        if lineage and "_row_id" in table.column_names and sid not in self.lineage:  # once: a snapshot is immutable
            mine = {r["id"]: (r["_row_id"], r["_last_updated_sequence_number"]) for r in ours}
            sparks = {r["id"]: (r["_row_id"], r["_last_updated_sequence_number"]) for r in rows}
            parent = self.lineage.get(v.parent) if v.parent is not None else None
            updated = frozenset(
                x
                for x in v.touched
                if v.parent in self.model.versions
                and x in self.model.versions[v.parent].rows
                and v.operation in ("update", "merge")
            )
            for message in checks.lineage_messages(
                mine, sparks, seqs.get(sid, 0), parent, v.touched - updated, updated
            ):
                self._find("row-lineage", i, f"snapshot {sid}", message)
            self.lineage[sid] = mine

    def _check_ref(self, i: int, kind: str, name: str, head: int) -> None:
        """A branch reads with the table's current schema, a tag with its snapshot's (scan.read-schema),
        by Spark (check 1) and by the reference (check 2)."""
        from spec_impl.errors import SpecError

        if head not in self.model.versions:
            return
        v = self.model.versions[head]
        columns = tuple(self.model.columns) if kind == "branch" else v.columns
        expected = self.model.view(v.rows, columns)
        try:
            names, rows = self.table.read(
                **({"branch": name} if kind == "branch" and name != "main" else {"tag": name} if kind == "tag" else {})
            )
        except Exception as e:
            self._find(
                "spark-crash",
                i,
                f"{kind} {name}",
                f"reading: {_first_line(_java_error(e) or f'{type(e).__name__}: {e}')}",
            )
            return
        if message := checks.compare_rows(columns, expected, names, rows):
            self._find("spark-rows", i, f"{kind} {name}", message)
        try:
            ours = self.readers.read_table(
                self.readers.table_files(self.table.metadata_location), self.table.metadata_location, ref=name
            )
        except SpecError as e:
            self._find("reference-rows", i, f"{kind} {name}", f"the reference rejects the ref: {e}")
            return
        if message := checks.compare_rows(columns, expected, ours.column_names, ours.to_pylist()):
            self._find("reference-rows", i, f"{kind} {name}", message)

    def _check_other_readers(self, i: int, snapshot_ids: list[int], md: dict) -> None:
        if not self.readers.engines or not snapshot_ids:
            return
        from conformance.engines import golden_tables

        table_id = f"{self.table.name}@{md.get('last-updated-ms')}-{i}"
        golden_tables.register(table_id, self.table.metadata_location, md.get("format-version", 1))
        cases = [
            {"id": f"{table_id}/{sid}", "op": "read-table", "input": {"table": table_id, "snapshot-id": sid}}
            for sid in snapshot_ids
        ]
        for engine_name, engine in self.readers.engines.items():
            try:
                answers = _answers(engine, cases)
            except Exception as e:
                self._find(f"reader:{engine_name}", i, "table", f"the adapter raised {type(e).__name__}: {e}")
                continue
            for sid, answer in zip(snapshot_ids, answers):
                if answer.unsupported is not None:  # a stated limit of the adapter (listed, not a finding)
                    self.outcome.declined.append((i, engine_name, f"snapshot {sid}: {_first_line(answer.unsupported)}"))
                    continue
                if not answer.ok:
                    self._find(
                        f"reader:{engine_name}", i, f"snapshot {sid}", f"error: {_first_line(answer.error or '')}"
                    )
                    continue
                output = engine.partial_view("read-table", answer.output)
                columns, expected = self._expected(sid)
                plain = [c for c in output["columns"] if c not in checks.LINEAGE]
                message = checks.compare_rows(columns, expected, plain, output["rows"])
                if message:
                    self._find(f"reader:{engine_name}", i, f"snapshot {sid}", message)


def _heads(md: dict) -> dict[str, int]:
    refs = {name: r["snapshot-id"] for name, r in (md.get("refs") or {}).items()}
    if md.get("current-snapshot-id") not in (None, -1):
        refs["main"] = md["current-snapshot-id"]
    return refs


def _key_rows(m: TableModel, rows: dict) -> Any:
    from collections import Counter

    return Counter(tuple(values.comparable(c.type, v) for c, v in zip(m.columns, r)) for r in m.view(rows, m.columns))


def _diff_size(m: TableModel, change: Change) -> int:
    a, b = _key_rows(m, change.rows), _key_rows(m, m.rows_of(change.branch))
    return sum(((a - b) + (b - a)).values())


def _answers(engine: Any, cases: list[dict]) -> list[Any]:
    """The engine's answers to the read-table `cases`: those its `unsupported` declines (a snapshot
    with files in a format it does not read, say) as declines, the others from one batch."""
    from conformance.engines.base import EngineAnswer

    why = [engine.unsupported("read-table", c["input"]) for c in cases]
    answered = iter(engine.run_batch("read-table", [c for c, w in zip(cases, why) if w is None]) if None in why else [])
    return [EngineAnswer.declined(w) if w is not None else next(answered) for w in why]


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 400 else line[:397] + "..."


def _describe(step: dict) -> str:
    shown = {k: v for k, v in step.items() if k not in ("rows",)}
    if "rows" in step:
        shown["rows"] = f"<{len(step['rows'])} rows>"
    return str(shown)
