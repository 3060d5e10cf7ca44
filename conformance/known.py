"""Known discrepancies: engine behaviour that differs from the spec, recorded as data.

Each engine's entries live in its own ledger file, `vectors/known/engines/<engine>.json`, in the
ledger's format (`conformance.ledger`): the file names the engine (any engine, built-in or
third-party, by the name it runs under) and each entry's `where` the case id; the entry says what
the spec expects and what the engine does (`expected`, `observed`), the spec text that decides it
(`spec`, `document`, `quote`), an upstream issue when one exists, and what the engine was observed
to answer, pinned: `returned` (its output) or `raised` (a regular expression its error message
must match, since messages carry paths; in a pinned output, `{"$any": "why"}` stands for a part
that changes from run to run, such as a generated UUID). A case is reported as known only while
the engine answers exactly what was pinned; a different wrong answer to the same case is a
failure, reported with both observations, and a correct answer means the entry is stale (`fixed`:
remove it).

`pytest conformance/ --record-observations OBS.json` saves what the engines answered, and
`python -m conformance.known_pin OBS.json` writes it into the entries (a deliberate step: the suite
itself never rewrites the files).

An engine's own project keeps its expected outcomes in a file of the same format
(`--expectations FILE`, `conformance.expectations`), which takes the place of the built-in file of
that engine. Its entries are lighter: a case id or a rule id (either a glob), a level and a
`reason`. An expected violation is known while the engine's verdict is a violation, whatever it
answers, and `fixed` once the engine passes, which is listed without failing the run; an expected
divergence or allowed difference excuses nothing (a violation of such a case still fails).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineAnswer
from conformance import ledger
from spec_impl.resources import known_engine_file, known_engine_files
from conformance.judge import ALLOWED, CREDITED, DIVERGENCE, FIXED, KNOWN, PASS, UNSUPPORTED, FAIL, Verdict, same_output

_MISSING = object()


@dataclass(frozen=True)
class Discrepancy:
    engine: str
    case: str
    expected: str
    observed: str
    decided_by: str
    version: str | None = None
    upstream: str | None = None
    document: str | None = None  # the spec text whose sentence the answer contradicts
    quote: str | None = None  # that sentence, verbatim
    returned: Any = _MISSING  # the output the engine was observed to return
    raised: str | None = None  # a pattern of the error message it was observed to raise
    intermittent: str | None = None  # why the engine answers right on some runs only (a race in it)
    failure: bool = False  # the pinned error is the engine's own failure (crash, internal error), not a refusal
    level: str = "violation"  # an expectation's level (ledger.LEVELS); a recorded finding is a violation
    reason: str | None = None  # an expectation's reason: set for an expectation, None for a recorded finding
    where: tuple[tuple[str, str], ...] = ()  # an expectation's scope: its engine, a case or a rule (globs)
    rule: str = ""  # the rule the entry's case tests (written, or derived from the case: `rule_of_case`)

    @property
    def is_expectation(self) -> bool:
        """An expected outcome of a project's file (a level and a reason), not a pinned finding."""
        return self.reason is not None

    @property
    def is_pinned(self) -> bool:
        return self.returned is not _MISSING or self.raised is not None

    @property
    def pinned(self) -> Any:
        """The pinned observation as reports show it: the output, or {"error": pattern}, or None."""
        if self.returned is not _MISSING:
            return self.returned
        return {"error": self.raised} if self.raised is not None else None

    def answer(self) -> EngineAnswer:
        """The pinned observation as an answer (an error for a `raised` pattern)."""
        if self.returned is not _MISSING:
            return EngineAnswer(True, output=self.returned)
        if self.failure:
            return EngineAnswer.failure(self.raised or "")
        return EngineAnswer(False, error=self.raised or "")

    def reproduces(self, case: dict[str, Any], answer: EngineAnswer) -> bool:
        """Whether the engine's answer is the pinned observation."""
        if self.returned is not _MISSING:
            return answer.ok and matches_pinned(case, self.returned, answer.output)
        if self.raised is not None:
            return (
                not answer.ok
                and answer.unsupported is None
                and re.search(self.raised, answer.error or "", re.S) is not None
            )
        return False

    def known_message(self) -> str:
        up = f" upstream: {self.upstream}." if self.upstream else ""
        if self.is_expectation:
            return f"expected {self.level}: {self.reason}.{up}"
        return f"known discrepancy: {self.observed} (spec: {self.decided_by}).{up}"


def matches_pinned(case: dict[str, Any], pinned: Any, got: Any) -> bool:
    """Whether an output is the pinned one, where `{"$any": reason}` in the pin matches anything."""
    if not _has_wildcard(pinned):
        return same_output(case, pinned, got)
    if isinstance(pinned, dict) and set(pinned) == {"$any"}:
        return True
    if isinstance(pinned, dict):
        return (
            isinstance(got, dict)
            and set(got) == set(pinned)
            and all(matches_pinned(case, pinned[k], got[k]) for k in pinned)
        )
    if isinstance(pinned, list):
        return (
            isinstance(got, list)
            and len(got) == len(pinned)
            and all(matches_pinned(case, p, g) for p, g in zip(pinned, got))
        )
    return False


def _has_wildcard(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == {"$any"} or any(_has_wildcard(v) for v in value.values())
    return isinstance(value, list) and any(_has_wildcard(v) for v in value)


def decide(verdict: Verdict, entry: Discrepancy | None, case: dict[str, Any], answer: EngineAnswer | None) -> Verdict:
    """The verdict once the recorded discrepancy of this (engine, case), if any, is taken into
    account: known when the pinned observation reproduces, fixed when the engine now answers
    correctly (a pass for an entry marked `intermittent`: an engine's race, right on some runs
    only), fail (with both observations) when it answers something else."""
    if entry is None or answer is None or verdict.outcome == UNSUPPORTED:
        return verdict
    if entry.is_expectation:
        return _against_expectation(verdict, entry)
    if verdict.outcome in CREDITED and entry.intermittent:
        return Verdict(verdict.outcome, f"{verdict.message} (recorded as intermittent: {entry.intermittent})".strip())
    if verdict.outcome in (DIVERGENCE, ALLOWED):
        return Verdict(
            FIXED,
            f"recorded as a known discrepancy, but the spec does not require the reference's answer here "
            f"({verdict.outcome}: {verdict.message}): remove the entry for {entry.engine} {entry.case} "
            f"from {ledger_name(entry.engine)}",
            verdict.question,
        )
    if verdict.outcome in CREDITED:
        return Verdict(
            FIXED,
            f"recorded as a known discrepancy, but the engine now answers correctly: remove the entry "
            f"for {entry.engine} {entry.case} from {ledger_name(entry.engine)}",
        )
    if entry.reproduces(case, answer):
        return Verdict(KNOWN, entry.known_message())
    if not entry.is_pinned:
        return Verdict(
            FAIL,
            f"{verdict.message} (a known discrepancy is recorded, but without the observation it pins: "
            "record it with `--record-observations` and `python -m conformance.known_pin`)",
        )
    return Verdict(
        FAIL,
        f"{verdict.message} (a different answer from the known discrepancy recorded for this case, "
        f"which pinned {_show(entry.pinned)})",
    )


def _against_expectation(verdict: Verdict, entry: Discrepancy) -> Verdict:
    """An expected violation: known while the verdict is a violation, fixed (not a failure) once
    credited when the entry names the case (an entry scoped by a pattern leaves a credited case
    credited: `conformance.expectations` lists a pattern that no longer matches a violation). An
    expected divergence or allowed difference leaves the verdict as it is, a violation
    named as unexpected."""
    violated = verdict.outcome not in CREDITED
    if entry.level != "violation":
        if not violated:
            return verdict
        return Verdict(verdict.outcome, f"{verdict.message} (expected {entry.level}, not a violation: {entry.reason})")
    if violated:
        return Verdict(KNOWN, f"{entry.known_message()} ({verdict.outcome}: {verdict.message})", verdict.question)
    if not is_exact(dict(entry.where)):
        return verdict  # a pattern names no case that failed: a credited case under it is just credited
    return Verdict(
        FIXED,
        f"expected a violation ({entry.reason}), but the engine is now credited ({verdict.outcome}): "
        "trim the expectation (--update-expectations FILE)",
        verdict.question,
    )


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."


def ledger_name(engine: str) -> str:
    """How messages name an engine's ledger file: `known/engines/<engine>.json`."""
    return f"known/engines/{known_engine_file(engine).name}"


_PROJECT_FILES: list[Path] = []  # a project's own files (`--expectations`), see use_files


def use_files(paths: list[Path]) -> None:
    """Judge with these files too: each takes the place of the built-in file of its engine."""
    _PROJECT_FILES[:] = paths
    for cached in (load, patterns, scopes):
        cached.cache_clear()


def active_files() -> list[Path]:
    """The engine files the judge reads: the built-in ones (`known/engines/`), but for an engine a
    project's file (`use_files`) names, that file. Both are read by the one loader, `ledger.read`."""
    theirs = {ledger.read(p)["engine"] for p in _PROJECT_FILES}
    return [p for p in known_engine_files() if ledger.read(p)["engine"] not in theirs] + _PROJECT_FILES


def _document(path: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """The judge's ledger as one document: the entries and scopes of every active engine file (or
    of the one file `path`), read by `conformance.ledger` (each scope gets its file's engine)."""
    merged: dict[str, list] = {"entries": [], "random-value-scopes": []}
    for doc in ledger.engine_documents(active_files() if path is None else [path]):
        merged["entries"] += doc.get("entries", [])
        merged["random-value-scopes"] += [{"engine": doc["engine"], **s} for s in doc.get("random-value-scopes", [])]
    return merged


def is_exact(where: dict[str, Any]) -> bool:
    """Whether a scope names one engine and one case id (no glob, no prefix, no rule)."""
    case = where.get("case")
    return set(where) == {"engine", "case"} and isinstance(case, str) and "*" not in case and not case.endswith(":")


def from_entry(e: dict[str, Any]) -> Discrepancy:
    """An engine file's entry: an expectation (a `reason`, see `_expectation`), or a recorded finding,
    scoped by exactly its engine and case (`where`) and a violation."""
    if "reason" in e:
        return _expectation(e)
    where = e["where"]
    if set(where) != {"engine", "case"} or e["level"] != "violation":
        raise ValueError(f"entry {where}: the judge's entries are violations scoped by exactly an engine and a case")
    if "returned" in e and "raised" in e:
        raise ValueError(f"entry {where['engine']} {where['case']}: pin either 'returned' or 'raised', not both")
    return Discrepancy(
        where["engine"],
        where["case"],
        e["expected"],
        e["observed"],
        e["spec"],
        e.get("version"),
        e.get("upstream"),
        e.get("document"),
        e.get("quote"),
        e.get("returned", _MISSING),
        e.get("raised"),
        e.get("intermittent"),
        bool(e.get("failure")),
        rule=e.get("rule") or rule_of_case(where["case"]),
    )


@cache
def _case_rules() -> dict[str, str]:
    from conformance.vectors import load_families

    return {c["id"]: c["rule"] for cases in load_families().values() for c in cases}


def rule_of_case(case_id: str) -> str:
    """The rule a vector case tests (its `rule`; a case no longer in the vectors: the id's prefix)."""
    return _case_rules().get(case_id) or case_id.split("/", 1)[0]


def _expectation(e: dict[str, Any]) -> Discrepancy:
    """A project's expected outcome: an engine and a case id or a rule id (globs), a level, a reason."""
    where = e["where"]
    if not set(where) <= {"engine", "case", "rule"} or not ({"case", "rule"} & set(where)):
        raise ValueError(f"expectation {where}: scoped by an engine and a case or a rule id")
    return Discrepancy(
        where["engine"],
        where.get("case", ""),
        "",
        "",
        e.get("spec", e["reason"]),
        upstream=e.get("upstream"),
        document=e.get("document"),
        quote=e.get("quote"),
        level=e["level"],
        reason=e["reason"],
        where=tuple(sorted(where.items())),
    )


@cache
def load(path: Path | None = None) -> dict[tuple[str, str], Discrepancy]:
    """The entries of one engine and one case id, by (engine, case id)."""
    table = {}
    for e in _document(path)["entries"]:
        if not is_exact(e["where"]) and "reason" in e:
            continue  # a pattern: see patterns()
        d = from_entry(e)
        if (d.engine, d.case) in table:
            raise ValueError(f"{path or 'known/engines'}: duplicate entry for {d.engine} {d.case}")
        table[(d.engine, d.case)] = d
    return table


@cache
def patterns(path: Path | None = None) -> tuple[Discrepancy, ...]:
    """The expectations scoped by a glob of case ids or by a rule id, in file order."""
    return tuple(from_entry(e) for e in _document(path)["entries"] if "reason" in e and not is_exact(e["where"]))


def builtin() -> dict[tuple[str, str], Discrepancy]:
    """The suite's own recorded findings (`known/engines/*.json`), whatever `--expectations` a run
    was given: a project's expectations file is held to the expectations format only."""
    return {key: d for path in known_engine_files() for key, d in load(path).items()}


def random_test_id(op: str) -> str:
    """The id by which an expectations file names a random test of an op (`random/transform`):
    an expected violation there makes the test an xfail while it disagrees, fixed once it agrees."""
    return f"random/{op}"


def random_verdict(engine: str, op: str, disagreements: int) -> tuple[str, Discrepancy | None]:
    """A random test's outcome against the engine's expectations: fail or pass, known (an xfail)
    when an expected violation names the test, fixed when the test it names now agrees."""
    entry = entry_for(engine, {"id": random_test_id(op), "rule": ""})
    expected = entry is not None and entry.is_expectation and entry.level == "violation"
    if disagreements:
        return (KNOWN if expected else FAIL), entry
    return (FIXED if expected and is_exact(dict(entry.where)) else PASS), entry  # type: ignore[union-attr]


def entry_for(engine: str, case: dict[str, Any]) -> Discrepancy | None:
    """The entry that decides this (engine, case): the one naming the case, else the first pattern
    that covers it (its case id or its rule)."""
    exact = load().get((engine, case["id"]))
    if exact is not None:
        return exact
    seen = {"engine": engine, "case": case["id"], "rule": case["rule"]}
    return next((d for d in patterns() if d.engine == engine and ledger.applies(dict(d.where), seen)), None)


# --- scopes of the random-value tests ----------------------------------------------------------
# A scope names a class of inputs (engine, ops, types or `*`, and optionally a named condition) on which
# an engine's disagreement is already recorded by golden cases. Random inputs in a scope are still
# sent and judged; their disagreements are reported as known instead of failing the test.

_YEAR = re.compile(r"([+-]?\d+)-")


def _year_outside_1_9999(inp: dict) -> bool:
    text = inp.get("value", inp.get("json"))
    m = _YEAR.match(text) if isinstance(text, str) else None
    return m is not None and (m[1][0] in "+-" or not 1 <= int(m[1]) <= 9999)


def _before_1970(inp: dict) -> bool:
    text = inp.get("value", inp.get("json"))
    m = _YEAR.match(text) if isinstance(text, str) else None
    return m is not None and int(m[1]) < 1970


def _planning_leaves(inp: dict) -> list:
    """The leaf predicates of a planning input's `predicate`, bound to its columns."""
    from spec_impl.expressions.predicates import leaves
    from spec_impl.ops.planning_ops import parse_predicate
    from spec_impl.types import parse_type

    if "predicate" not in inp:
        return []
    types = {f["name"]: parse_type(f["type"]) for f in _planning_fields(inp)}
    return list(leaves(parse_predicate(inp["predicate"], types)))


def _planning_fields(inp: dict) -> list[dict]:
    return (inp.get("schema") or {"fields": inp.get("fields") or []})["fields"]


def _starts_with_beyond_bmp(inp: dict) -> bool:
    """A starts-with literal whose UTF-16 length is not its length in code points."""
    return any(
        p.op.endswith("starts-with") and len(p.literal.encode("utf-16-le")) // 2 != len(p.literal)
        for p in _planning_leaves(inp)
    )


def _strict_without_null_count(inp: dict) -> bool:
    metrics = inp.get("metrics") or {}
    return inp.get("mode") == "strict" and any("null_value_count" not in m for m in metrics.values())


def _infinite_literal(inp: dict) -> bool:
    return any(isinstance(v, float) and math.isinf(v) for p in _planning_leaves(inp) for v in p.literals)


CONDITIONS = {
    "year-outside-1-9999": _year_outside_1_9999,
    "before-1970": _before_1970,
    "starts-with-beyond-bmp": _starts_with_beyond_bmp,
    "strict-without-null-count": _strict_without_null_count,
    "infinite-literal": _infinite_literal,
}
ANY_TYPE = "*"


def input_type(inp: dict) -> str | None:
    """The type a random input is drawn for: its `type`, or a planning input's first column's."""
    if isinstance(inp.get("type"), str):
        return inp["type"]
    fields = _planning_fields(inp)
    return fields[0]["type"] if fields and isinstance(fields[0].get("type"), str) else None


@dataclass(frozen=True)
class Scope:
    engine: str
    ops: tuple[str, ...]
    types: tuple[str, ...]
    decided_by: str
    when: str | None = None

    def covers(self, engine: str, op: str, inp: dict) -> bool:
        return (
            engine == self.engine
            and op in self.ops
            and (ANY_TYPE in self.types or input_type(inp) in self.types)
            and (self.when is None or CONDITIONS[self.when](inp))
        )


@cache
def scopes(path: Path | None = None) -> tuple[Scope, ...]:
    out = []
    for e in _document(path)["random-value-scopes"]:
        if e.get("when") is not None and e["when"] not in CONDITIONS:
            raise ValueError(
                f"{path or 'known/engines'}: unknown condition {e['when']!r} (known: {', '.join(CONDITIONS)})"
            )
        out.append(Scope(e["engine"], tuple(e["ops"]), tuple(e["types"]), e["spec"], e.get("when")))
    return tuple(out)


def scope_for(engine: str, op: str, inp: dict) -> Scope | None:
    """The recorded scope that covers this random input, if any."""
    return next((s for s in scopes() if s.covers(engine, op, inp)), None)
