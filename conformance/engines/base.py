"""The engine adapter interface: what the conformance suite asks of an implementation.

An adapter is a small class with a name, a version, the spec revision it claims, and the
capabilities (vector ops) it supports. The suite hands it whole batches of cases; it answers each
with an `EngineAnswer`: an output, or the error the engine raised. Judging the answers against the
expectations is the suite's job (`conformance.judge`), not the adapter's.

To add an engine without editing the project, subclass `Engine` and pass
`--engine package.module:Class` to pytest.
"""

from __future__ import annotations

import importlib
import inspect
import traceback
from dataclasses import dataclass
from importlib import metadata
from types import ModuleType
from typing import Any, ClassVar

from spec_impl import revisions

from conformance.engines import golden_tables, tree_files


@dataclass(frozen=True)
class EngineAnswer:
    """What an engine said about one case. Four kinds, kept apart by the judge:

    - an output (`ok`);
    - a rejection (`not ok`): the engine refused the input, with its `error` message and, when it
      says, the `rule` id it rejected under;
    - a failure (`failed`): the engine crashed, timed out, broke the protocol or raised an internal
      error; never credited, not even on a case that expects a rejection;
    - `unsupported`: the engine declines the case, with its reason (reported as a skip).
    """

    ok: bool
    output: Any = None
    error: str | None = None
    rule: str | None = None
    failed: bool = False
    unsupported: str | None = None

    @classmethod
    def rejection(cls, message: str, rule: str | None = None) -> EngineAnswer:
        return cls(False, error=message, rule=rule)

    @classmethod
    def failure(cls, message: str) -> EngineAnswer:
        return cls(False, error=message, failed=True)

    @classmethod
    def declined(cls, reason: str) -> EngineAnswer:
        return cls(False, error=reason, unsupported=reason)

    def observed(self) -> Any:
        """The answer as reports show it and known discrepancies pin it: the output, or an object
        with `error` (plus `rule`, `failed`) or `unsupported`."""
        if self.ok:
            return self.output
        if self.unsupported is not None:
            return {"unsupported": self.unsupported}
        out: dict[str, Any] = {"error": self.error or ""}
        if self.rule:
            out["rule"] = self.rule
        if self.failed:
            out["failed"] = True
        return out


class EngineUnavailable(RuntimeError):
    """The engine cannot run here (a package, a JVM, a build step is missing); the message says why."""


class EngineFailure(RuntimeError):
    """The engine failed while answering a batch: it died, hung past its timeout or broke the
    protocol. `restart` says whether starting it again may help (a crash or a hang) or not (an
    answer that breaks the protocol, which a restart would repeat)."""

    def __init__(self, message: str, restart: bool = True):
        super().__init__(message)
        self.restart = restart


class Engine:
    """Base class of engine adapters.

    Subclasses set `name` and `capabilities` (the vector ops they answer, see
    `spec_impl.ops.registry`) and answer each op with a method `answer_<op>` (dashes as
    underscores: `answer_transform`, `answer_read_table_metadata`) that takes a case's input and
    returns its output (or an `EngineAnswer`, say a decline, or `EngineAnswer.rejection`); what it
    raises of `case_errors` (the engine's own error classes, declared by the adapter) is the case's
    rejection, worded by `rejection`, and any other exception an error of the adapter (E) naming
    the line that raised it. They may override `start`/`stop` to manage a
    process, and `run_batch` to answer a whole batch at once (a column engine, a remote program).

    `revision` is the spec revision the engine claims to follow; cases of other revisions are not
    run against it. `distribution` names the installed package whose version `version` reports;
    `require` is the start-up check of a pinned Python package. An engine that reads golden tables
    implements `read_table`; `reads_row_lineage` says whether its rows carry the row lineage
    columns, `tree_keys` which keys of a manifest tree it reports when not all of them.
    """

    name: ClassVar[str]
    capabilities: ClassVar[frozenset[str]] = frozenset()
    revision: ClassVar[str] = revisions.V3_ADOPTED
    distribution: ClassVar[str | None] = None
    reads_row_lineage: ClassVar[bool] = True
    # the (top-level, manifest, entry) keys of a read-manifest-tree output the engine reports; None: all
    tree_keys: ClassVar[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None] = None
    # the formats of data and delete files the engine reads (Appendix A), and why not the others
    data_file_formats: ClassVar[frozenset[str]] = frozenset({"avro", "orc", "parquet"})
    format_limit: ClassVar[str] = ""
    # the metadata columns ("Reserved Field IDs": _file, _pos, ...) a read-table case may ask it for
    metadata_columns: ClassVar[frozenset[str]] = frozenset()
    # the exceptions by which the engine rejects a case's input (pyo3's PanicException is a
    # BaseException); any other exception an answer raises is the adapter's own error (E), never a rejection
    case_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    def start(self) -> None:
        """Acquire resources (raise EngineUnavailable with the reason when the engine cannot run)."""

    def stop(self) -> None:
        """Release resources."""

    def configure(self, timeout: float | None = None, validate_protocol: bool = False) -> None:
        """Session options, set before `start`: the seconds one batch may take, and whether every
        message is checked against the protocol schema. Engines in this process ignore both."""

    def restart(self) -> None:
        """Start afresh after a failure (a crash or a timeout), so that the remaining cases can be replayed."""
        self.stop()
        self.start()

    @property
    def version(self) -> str:
        return installed_version(self.distribution) if self.distribution else "unknown"

    def require(self, module: str, pin: str, install: str, why_pinned: str = "") -> ModuleType:
        """The start-up check: import `module` and check its version (its `__version__`, else the
        installed `distribution`'s) is `pin`, else raise
        EngineUnavailable saying what is wrong and the `install` command that fixes it."""
        try:
            imported = importlib.import_module(module)
        except ImportError as e:
            raise EngineUnavailable(f"{self.name}: cannot import it ({e}); install it with: {install}") from None
        found = getattr(imported, "__version__", None) or installed_version(self.distribution or module)
        if found != pin:
            raise EngineUnavailable(
                f"{self.name}: version {found} is installed, the adapter "
                f"{'needs' if why_pinned else 'was written against'} {pin}{why_pinned}: {install}"
            )
        return imported

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        """Why this engine cannot answer a case, or None when it can.

        By default an engine answers every case of the ops in `capabilities`, but a `read-table`
        case whose snapshot has data or delete files in a format outside `data_file_formats`
        (`unread_formats`); override to narrow an op (say, only some transforms). Cases it cannot
        answer are reported as skipped with this reason, never judged.
        """
        if op not in self.capabilities:
            return f"{self.name} lacks the capability {op!r}"
        if op == "read-table":
            missing = sorted(set(inp.get("metadata-columns", ())) - self.metadata_columns)
            if missing:
                return f"{self.name}: the adapter cannot ask it for the metadata column(s) {', '.join(missing)}"
            return self.unread_formats(inp)
        return None

    def unread_formats(self, inp: dict[str, Any]) -> str | None:
        """Why the engine declines a table read: the snapshot's files in a format it does not read
        (`data_file_formats`, with the engine's own words in `format_limit`). The spec names three
        formats for data and delete files (Appendix A) and obliges no reader to read every one."""
        if self.data_file_formats >= ALL_FORMATS:
            return None
        files = golden_tables.snapshot_files(inp["table"], inp["snapshot-id"])
        missing = files.formats - self.data_file_formats if files is not None else None
        if not missing:
            return None
        return f"{self.name} reads no {' or '.join(sorted(f.upper() for f in missing))} files: {self.format_limit}"

    def validates(self, op: str) -> bool:
        """Whether the engine's answers to this op reject invalid inputs. A partial reader (see
        `partial_view`) does not validate what it does not read; its rejection cases are skipped."""
        return True

    @property
    def omitted_columns(self) -> tuple[str, ...]:
        """The columns of a read-table output the engine does not return: the row lineage columns
        unless `reads_row_lineage`."""
        return () if self.reads_row_lineage else golden_tables.LINEAGE_COLUMNS

    def partial_view(self, op: str, output: Any) -> Any:
        """The part of an expected output this engine reports, compared instead of the whole.

        The identity, but for the `omitted_columns` of read-table and the `tree_keys` of
        read-manifest-tree. An engine that can read only part of another document (DuckDB reads
        the snapshots of a metadata file, nothing else) overrides it, and says so.
        """
        if op == "read-table" and self.omitted_columns:
            return golden_tables.without_columns(output, self.omitted_columns)
        if op == tree_files.OP and self.tree_keys is not None:
            return tree_files.tree_view(output, *self.tree_keys)
        return output

    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        """Answer every case (each has `id` and `input`) of one op, in order, in one round trip:
        by default each case in turn by `answer`.

        Raise `EngineFailure` when the engine itself failed (the runner restarts it and replays the
        batch in halves to find the case that broke it); any other exception errors the batch."""
        return [self._answer_case(op, c["input"]) for c in cases]

    def answer(self, op: str, inp: dict[str, Any]) -> Any:
        """One case's output, or an EngineAnswer; raise to reject it. By default `answer_<op>`."""
        method = getattr(self, "answer_" + op.replace("-", "_"), None)
        if method is None:
            raise EngineFailure(f"{self.name} claims the op {op!r} but has no method for it", restart=False)
        return method(inp)

    def answer_read_table(self, inp: dict[str, Any]) -> Any:
        """read-table: the case's golden table, written to local disk once per run (`golden_tables`),
        read at the case's snapshot by `read_table`, or by `read_table_columns` when the case asks
        for metadata columns (their `_file` mapped back to the vectors' paths)."""
        table, columns = golden_tables.table(inp["table"]), tuple(inp.get("metadata-columns", ()))
        if columns:
            return golden_tables.at_placeholder(self.read_table_columns(table, inp["snapshot-id"], columns))
        return self.read_table(table, inp["snapshot-id"])

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        """The rows of one snapshot of a golden table (`spec_impl.ops.golden_tables.table_rows` of the
        engine's Arrow table), or an EngineAnswer (a decline)."""
        raise EngineFailure(f"{self.name} reads no tables", restart=False)

    def read_table_columns(self, table: golden_tables.GoldenTable, snapshot_id: int, columns: tuple[str, ...]) -> Any:
        """As `read_table`, with the requested `metadata_columns` after the table's columns (and no
        row lineage columns); `_file` as the engine reports it."""
        raise EngineFailure(f"{self.name} reads no metadata columns", restart=False)

    def rejection(self, error: BaseException) -> EngineAnswer:
        """The answer of a case whose answer raised `error` (one of `case_errors`)."""
        return EngineAnswer.rejection(f"{type(error).__name__}: {error}")

    def _answer_case(self, op: str, inp: dict[str, Any]) -> EngineAnswer:
        try:
            answer = self.answer(op, inp)
        except (KeyboardInterrupt, SystemExit, EngineFailure):
            raise
        except self.case_errors as e:
            return self.rejection(e)
        except Exception as e:  # not declared as the engine's rejection: a bug of the adapter
            return EngineAnswer.failure(adapter_error(e, type(self)))
        return answer if isinstance(answer, EngineAnswer) else EngineAnswer(True, answer)


def adapter_error(error: BaseException, adapter: type) -> str:
    """An exception the adapter did not declare (`case_errors`), named with the line of the
    adapter's module that raised it (else the innermost line): an error, never a rejection."""
    frames = traceback.extract_tb(error.__traceback__)
    try:
        own = inspect.getsourcefile(adapter)
    except TypeError:
        own = None
    mine = [f for f in frames if own is not None and f.filename == own] or frames[-1:]
    where = f" at {mine[-1].filename}:{mine[-1].lineno} ({mine[-1].name})" if mine else ""
    return (
        f"the adapter raised {type(error).__name__}: {error}{where}; an exception is a rejection only "
        "when the adapter declares it in case_errors"
    )


ALL_FORMATS = frozenset({"avro", "orc", "parquet"})


def installed_version(distribution: str) -> str:
    """The version of an installed package, or "unknown"."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "unknown"
