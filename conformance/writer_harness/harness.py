"""The harness: one Spark session per process, the readers, the known writer findings, and
hypothesis driving generated histories through `runner.HistoryRun`.

    h = Harness(warehouse)                   # starts Spark (local[2] unless told otherwise)
    outcome = h.run(history)                 # one history, every check after every step
    h.search(examples=20, max_steps=8, seed=1, on_outcome=print)   # generated ones, findings reduced
    Harness(warehouse, writer="pyiceberg")   # PyIceberg writes the histories, Spark still reads them

A history that names its writer (`"writer": "pyiceberg"`, or a scenario's description of it) runs on
that writer whatever the harness's default.

Known findings (the ledger file `vectors/known/writers.json`, `conformance.ledger`) are findings of
a writer (Iceberg Java through Spark, PyIceberg) or a reader that are recorded with the rule that
decides them: they are reported, but do not fail a run. Each entry's `where` names a check (or a
list of checks) and a regular expression of the message, optionally only after a step of one op
(`step-op`), on tables of one writer (`writer`: "spark", "pyiceberg", "chdb" or "duckdb"), of one
format version (`format-version`), or with or without an evolved partition spec (`evolved-spec`).

Every finding names what it is judged against (`rule`): the meaning of the operation (kind
"operation": a DELETE removes exactly the rows whose condition is TRUE under SQL three-valued
logic, an UPDATE changes exactly those, MERGE likewise; a read returns the snapshot's rows) or a
must of the spec (kind "spec": section, spec file and a verbatim quote). A known entry says so in
its `rule`; a new finding gets the rule of its check (`judged_against`). A known entry also has a
`level`: "violation" (contradicts a must of the spec or the operation's meaning on a valid input),
"divergence" (the spec is silent or ambiguous) or "allowed" (the spec permits it). `tally` counts
violations (new and known) apart from the known findings that are not violations, which never fail
a run.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import ledger
from spec_impl.resources import writers_ledger_file

from .runner import OTHER_READERS, Finding, HistoryRun, Outcome, Readers
from .writers import WRITERS, describe, kind_of

KNOWN_PATH = writers_ledger_file()
LEVELS = ledger.LEVELS
RULE_KINDS = ("operation", "spec")


@dataclass(frozen=True, eq=False)
class KnownFinding:
    id: str
    # the scope (conformance.ledger.applies): check (a name, a prefix ending in ':' such as reader:, or
    # a list of them), message (a regular expression), and optionally step-op, writer ("spark",
    # "pyiceberg", "chdb", "duckdb"), format-version, evolved-spec (more than one partition spec)
    where: dict = field(repr=False)
    reason: str
    spec: str
    upstream: str | None = None
    # what it is judged against: {"kind": "operation", "operation", "meaning"} or
    # {"kind": "spec", "section", "file", "quote"}
    rule: dict | None = None
    level: str = "violation"  # "violation", "divergence" (the spec is silent or ambiguous) or "allowed"
    level_reason: str = ""  # why that level, from the spec text

    @property
    def violation(self) -> bool:
        return self.level == "violation"

    def matches(self, f: Finding) -> bool:
        return ledger.applies(self.where, observation(f))


def observation(f: Finding) -> dict[str, Any]:
    """What a known finding's `where` is matched against."""
    return {
        "check": f.check,
        "message": f.message,
        "step-op": f.op,
        "writer": f.writer,
        "format-version": f.format_version,
        "evolved-spec": (f.specs or 0) > 1,
    }


_FIELDS = ("id", "where", "reason", "spec", "upstream", "rule", "level", "level_reason")


def known_findings(path: Path | None = None) -> list[KnownFinding]:
    entries = [KnownFinding(**ledger.fields(entry, _FIELDS)) for entry in ledger.writer_entries(path)]
    for e in entries:
        if e.rule is not None and e.rule.get("kind") not in RULE_KINDS:
            raise ValueError(f"{path or KNOWN_PATH}: {e.id}: rule kind {e.rule.get('kind')!r} (one of {RULE_KINDS})")
    return entries


def classify(
    findings: list[Finding], known: list[KnownFinding]
) -> tuple[list[Finding], list[tuple[Finding, KnownFinding]]]:
    """(new findings, known ones with their entry). A finding of a rule whose sentence is a should
    (strength should in the rule index) that no entry records is a recommendation not followed:
    known, at level allowed (`recommendation`)."""
    new, old = [], []
    for f in findings:
        entry = next((k for k in known if k.matches(f)), None) or recommendation(f)
        (new.append(f) if entry is None else old.append((f, entry)))
    return new, old


def recommendation(f: Finding) -> KnownFinding | None:
    """The entry of a validator's or audit's finding whose rule is a should (its strength in the rule
    index, `vectors/rules.json`), at level allowed; None for any other finding."""
    found = re.match(r"\[([a-z0-9][a-z0-9_.-]*)\]", f.message) if f.check in ("validator", "audit") else None
    if found is None or _rule_index().get(found.group(1), {}).get("strength") != "should":
        return None
    return KnownFinding(
        id=f"should:{found.group(1)}",
        where={"check": f.check, "message": re.escape(f"[{found.group(1)}]")},
        reason="A recommendation of the spec not followed: the rule's sentence says should, not must.",
        spec=f"rule {found.group(1)} (strength should in the rule index)",
        rule=judged_against(f),
        level="allowed",
        level_reason="A should is a recommendation: not following it is never a violation.",
    )


@dataclass(frozen=True)
class Tally:
    """Findings counted by what they mean for a run: violations (new ones, which fail it, and known
    ones) apart from known findings that are not violations (divergences and allowed behaviour),
    which never fail a run and are never counted among the violations."""

    new: int = 0
    known_violations: int = 0
    divergences: int = 0
    allowed: int = 0

    @property
    def violations(self) -> int:
        return self.new + self.known_violations

    @property
    def not_violations(self) -> int:
        return self.divergences + self.allowed

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.new + other.new,
            self.known_violations + other.known_violations,
            self.divergences + other.divergences,
            self.allowed + other.allowed,
        )

    def __str__(self) -> str:
        return (
            f"{self.violations} violations ({self.new} new, {self.known_violations} known); "
            f"not violations, apart: {self.divergences} divergences, {self.allowed} allowed"
        )


def tally(findings: list[Finding], known: list[KnownFinding]) -> Tally:
    new, old = classify(findings, known)
    levels = [entry.level for _, entry in old]
    return Tally(len(new), levels.count("violation"), levels.count("divergence"), levels.count("allowed"))


# What a new finding is judged against, by its check. Rows compared with the model are judged
# against the meaning of the operations the model applies (model.py: SQL three-valued logic for
# conditions); the validator's and the audit's messages name a rule of the rule index, whose spec
# section and quote are in vectors/rules.json.
_ROWS = {
    "kind": "operation",
    "operation": "the history's steps, as the model applies them",
    "meaning": "INSERT adds exactly its rows; a DELETE removes exactly the rows whose condition is TRUE under SQL "
    "three-valued logic; an UPDATE changes exactly those rows; MERGE likewise for its matched rows; "
    "schema and partition changes keep every row's values; a read of a snapshot returns exactly its rows",
}
_CRASH = {
    "kind": "operation",
    "operation": "the step",
    "meaning": "a valid step either commits what it means or is refused with a validation error; "
    "an internal error is neither",
}
_LINEAGE = [  # (message pattern, the quote of §1.4 Row lineage it breaks); the last is the default
    (
        "_row_id values shared|_row_id changed|was not touched|which the parent snapshot already used",
        "Copy a non-null `_row_id`.",
    ),
    ("without _row_id|differ from Spark's", "a null or missing value becomes the file's data sequence number."),
    ("", "If the row was modified, write `_last_updated_sequence_number` as null; otherwise copy it."),
]
_HARNESS = {
    "kind": "harness",
    "meaning": "not a finding of the writer: the harness itself failed (a bug to fix in the harness)",
}


def judged_against(f: Finding) -> dict:
    """The rule a finding is judged against: the operation's meaning or a must of the spec (for
    the validator and the audit, the rule their message names, from the rule index)."""
    if f.check in ("spark-rows", "reference-rows", "no-commit") or f.check.startswith("reader:"):
        return _ROWS
    if f.check in ("spark-crash", "writer-crash"):
        return _CRASH
    if f.check == "row-lineage":
        quote = next(q for pattern, q in _LINEAGE if re.search(pattern, f.message))
        return {"kind": "spec", "section": "§1.4 Row lineage", "file": "v3-adopted-digest.md", "quote": quote}
    if f.check in ("validator", "audit"):
        found = re.match(r"\[([a-z0-9][a-z0-9_.-]*)\]", f.message)
        rule = _rule_index().get(found.group(1)) if found else None
        if rule:
            cited = (rule.get("sections") or [{}])[0]
            return {
                "kind": "spec",
                "rule-id": rule["id"],
                "section": cited.get("cited") or rule.get("section"),
                "file": (cited.get("source") or {}).get("file"),
                "quote": cited.get("quote"),
            }
        return {
            "kind": "spec",
            "rule-id": found.group(1) if found else None,
            "section": None,
            "file": None,
            "quote": None,
        }
    return _HARNESS


def _rule_index() -> dict[str, dict]:
    global _RULES
    if _RULES is None:
        try:
            from spec_impl.vectors import rule_index

            doc = json.loads((rule_index.vectors_dir() / rule_index.INDEX_FILE).read_text(encoding="utf-8"))
            _RULES = {r["id"]: r for r in doc["rules"]}
        except (OSError, ValueError, KeyError, ImportError):  # no index here: the rule id alone is named
            _RULES = {}
    return _RULES


_RULES: dict[str, dict] | None = None


def signature(f: Finding) -> str:
    """What makes two findings the same: the check and the message with ids, paths and numbers blurred."""
    text = re.sub(r"file:\S+", "<path>", f.message)
    text = re.sub(r"\b[0-9a-f]{8}-[0-9a-f-]{27}\b", "<uuid>", text)
    text = re.sub(r"-?\d+(\.\d+)?", "N", text)
    return f"{f.check}: {text[:160]}"


class Harness:
    def __init__(
        self,
        warehouse: Path | None = None,
        *,
        master: str | None = None,
        readers: tuple[str, ...] = OTHER_READERS,
        reader_overrides: dict[str, Any] | None = None,
        writer: str = "spark",
    ):
        from conformance.engines.iceberg_java.spark import local_spark_session

        if writer not in WRITERS:
            raise ValueError(f"no writer {writer!r} (writers: {', '.join(WRITERS)})")
        self.writer_kind = writer  # the writer of generated histories and of those that name none

        self._tmp = None
        if warehouse is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="iceberg-writer-harness-")
            warehouse = Path(self._tmp.name)
        self.warehouse = Path(warehouse)
        self.spark = local_spark_session(self.warehouse, app_name="iceberg-writer-harness", master=master)
        self.engines = _start_engines(readers)
        self.readers = Readers(self.engines, **(reader_overrides or {}))
        self.known = known_findings()
        self.count = 0

    @property
    def writer(self) -> str:
        """The default writer as scenario files name it."""
        return describe(self.writer_kind)

    def writer_of(self, history: dict) -> str:
        """The writer a history runs on: the one it names, else the harness's."""
        return kind_of(history.get("writer")) or self.writer_kind

    def run(self, history: dict, progress: Callable[[int, dict], None] | None = None, checking: bool = True) -> Outcome:
        """Run one history; `checking=False` runs its steps with no check (for measuring)."""
        self.count += 1
        outcome = HistoryRun(
            self.spark,
            self.warehouse,
            f"h{self.count}",
            history,
            self.readers,
            checking,
            writer=self.writer_of(history),
        ).run(progress)
        outcome.tally = tally(outcome.findings, self.known)
        return outcome

    def generate(self, examples: int, max_steps: int, seed: int | None, min_steps: int = 1) -> list[dict]:
        """`examples` distinct histories drawn by hypothesis (reproducible for a given seed)."""
        from hypothesis import HealthCheck, Phase, given, seed as hseed, settings

        from .strategies import histories

        drawn: dict[str, dict] = {}

        @settings(
            max_examples=examples * 2,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(histories(min_steps=min_steps, max_steps=max_steps, writer=self.writer_kind))
        def draw(history: dict) -> None:
            if len(drawn) < examples:
                drawn.setdefault(json.dumps(history, sort_keys=True), history)

        (hseed(seed)(draw) if seed is not None else draw)()
        return list(drawn.values())

    def search(
        self,
        examples: int,
        max_steps: int,
        seed: int | None,
        on_outcome: Callable[[Outcome], None],
        min_steps: int = 1,
        shrink: bool = True,
        reduce_budget: int = 40,
    ) -> dict[str, tuple[dict, list[Finding]]]:
        """Run `examples` generated histories to the end (a finding does not stop the search) and
        return, per distinct new finding, the smallest history that shows it: reduced step by step
        (`reduce`) when `shrink`."""
        smallest: dict[str, tuple[dict, list[Finding]]] = {}
        for history in self.generate(examples, max_steps, seed, min_steps):
            outcome = self.run(history)
            on_outcome(outcome)
            for f in classify(outcome.findings, self.known)[0]:
                sig = signature(f)
                if sig not in smallest or _size(history) < _size(smallest[sig][0]):
                    smallest[sig] = (history, outcome.findings)
        if shrink:
            smallest = {
                sig: self.reduce(history, sig, findings, reduce_budget) for sig, (history, findings) in smallest.items()
            }
        return smallest

    def reduce(self, history: dict, sig: str, findings: list[Finding], budget: int = 40) -> tuple[dict, list[Finding]]:
        """A smaller history that still shows the finding `sig`: steps after the finding dropped,
        then each earlier step tried without, then each insert's rows cut to one. At most `budget` runs."""

        def shows(candidate: dict) -> list[Finding] | None:
            nonlocal budget
            budget -= 1
            outcome = self.run(candidate)
            return outcome.findings if any(signature(f) == sig for f in outcome.findings) else None

        last = min(f.step for f in findings if signature(f) == sig)
        best = {**history, "steps": history["steps"][: max(last, 0) + 1]}
        best_findings = shows(best) or findings
        if best_findings is findings:
            best = history
        for i in reversed(range(1, len(best["steps"]))):
            if budget <= 0:
                break
            candidate = {**best, "steps": best["steps"][:i] + best["steps"][i + 1 :]}
            if (got := shows(candidate)) is not None:
                best, best_findings = candidate, got
        for i, step in enumerate(best["steps"]):
            if budget <= 0:
                break
            if len(step.get("rows") or []) > 1:
                candidate = {
                    **best,
                    "steps": [*best["steps"][:i], {**step, "rows": step["rows"][:1]}, *best["steps"][i + 1 :]],
                }
                if (got := shows(candidate)) is not None:
                    best, best_findings = candidate, got
        return best, best_findings

    def close(self) -> None:
        from conformance.engines.iceberg_java.spark import stop_local_spark_session

        for engine in self.engines.values():
            engine.stop()
        stop_local_spark_session()
        if self._tmp is not None:
            self._tmp.cleanup()


def _size(history: dict) -> tuple[int, int]:
    return (len(history["steps"]), len(json.dumps(history)))


def _start_engines(names: tuple[str, ...]) -> dict[str, Any]:
    """The reader adapters, started; one that cannot run here raises with its reason (never skipped silently)."""
    from conformance.engines.registry import load

    engines = {}
    for name in names:
        engine = load(name)()
        engine.start()
        engines[name] = engine
    return engines
