"""An engine project's own expectations: `--expectations FILE` and `--update-expectations FILE`.

An expectations file is an engine file of the ledger (`conformance.ledger`, `ledger.schema.json`),
the format of the suite's own `known/engines/<engine>.json`, in JSON or TOML:

    {"engine": "my-engine",
     "entries": [{"where": {"case": "transform.bucket/int-*"}, "level": "violation",
                  "reason": "bucket hashes ints as longs", "upstream": "me/my-engine#12"},
                 {"where": {"rule": "json.date*"}, "level": "divergence", "reason": "..."}]}

A project's file takes the place of the built-in file of its engine, read by the same loader
(`conformance.known`, which decides each verdict against it). `--update-expectations FILE` writes
the run's outcomes into FILE: an entry whose cases still have its level is kept as it is (its reason
and link with it), an entry whose cases now pass is dropped and listed as fixed, and each other case
that is a violation, a divergence or an allowed difference gets an entry of its own, its reason the
verdict's message (edit it). A random test's disagreements on a rule with a case expected as a
violation are covered by it; a random test that disagrees on another rule gets an entry named
`random/<op>` (an xfail while it disagrees, fixed once it agrees). Entries scoped by a pattern come
first in their order, then one entry per case sorted by case id, so that the file's diffs stay small.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conformance import known, ledger
from conformance.known_pin import dumps

LEVEL_OF = {"fail": "violation", "errored": "violation", "known": "violation", "divergence": "divergence"}
LEVEL_OF["allowed"] = "allowed"
NOT_JUDGED = ("unsupported", "skipped")
REASON_CHARS = 300
UPDATED = pytest.StashKey[list]()  # lines about the written file, for the terminal


def configure(config: pytest.Config, engines: list[str]) -> None:
    """Check the files of `--expectations` and judge with them (usage errors)."""
    paths = check_files(config, engines)
    try:
        known.use_files(paths)
        known.load(), known.patterns()
    except ValueError as e:
        raise pytest.UsageError(f"--expectations: {e}") from None


def check_files(config: pytest.Config, engines: list[str]) -> list[Path]:
    """The files of `--expectations`, each checked against the expectations format and for naming
    an engine of the run, and the target of `--update-expectations` (usage errors)."""
    paths = [Path(p) for p in config.getoption("--expectations", default=None) or []]
    for path in paths:
        errors = file_errors(path)
        if errors:
            raise pytest.UsageError(f"--expectations {path}: " + "; ".join(errors[:5]))
        named = ledger.parse(path)["engine"]
        if named not in engines:
            raise pytest.UsageError(
                f"--expectations {path}: the file is about engine {named!r}, which this run does not judge "
                f"(engines of the run: {', '.join(engines)}); the name is the one the engine runs under"
            )
    target = config.getoption("--update-expectations", default=None)
    if target is not None:
        if Path(target).suffix == ".toml":
            raise pytest.UsageError("--update-expectations writes JSON: name a .json file")
        named = Path(target).is_file()
        if named and (errors := file_errors(Path(target))):
            raise pytest.UsageError(f"--update-expectations {target}: " + "; ".join(errors[:5]))
        if not named and len(engines) != 1:
            raise pytest.UsageError("--update-expectations: a new file is about one engine: run one --engine")
    return paths


def file_errors(path: Path) -> list[str]:
    """Why a file is not an engine file of the ledger (empty when it is one)."""
    try:
        raw = ledger.parse(path)
    except (OSError, ValueError) as e:
        return [f"not readable as {'TOML' if path.suffix == '.toml' else 'JSON'} ({e})"]
    errors = ledger.schema_errors(raw)
    if not errors and "engine" not in raw:
        errors = ["(top): an expectations file names its engine ('engine')"]
    return errors


def finish(config: pytest.Config, doc: dict[str, Any] | None) -> None:
    """After the run: write `--update-expectations` from the run's outcomes, starting from the
    engine's file the run was judged with if `--expectations` gave one, else from FILE if it
    exists, else from the built-in file of the engine."""
    target = config.getoption("--update-expectations", default=None)
    if target is None or doc is None:
        return
    target = Path(target)
    current = ledger.parse(target) if target.is_file() else None
    engine = current["engine"] if current else next(iter(doc["outcomes"]), None)
    if engine is None:
        return
    given = [Path(p) for p in config.getoption("--expectations", default=None) or []]
    if any(ledger.parse(p)["engine"] == engine for p in given) or current is None:
        current = {k: v for k, v in _in_effect(engine).items() if k != "$schema"}  # a path relative to another file
    written, lines = updated(current, engine, doc, _rules())
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(dumps(written), encoding="utf-8")
    config.stash[UPDATED] = [f"wrote {target}: {len(written['entries'])} entries for {engine}", *lines]


def _in_effect(engine: str) -> dict[str, Any]:
    """The engine's file the run judged with (a project's or the built-in one), as written."""
    for path in known.active_files():
        raw = ledger.parse(path)
        if raw.get("engine") == engine:
            return raw
    return {"engine": engine, "entries": []}


def _rules() -> dict[str, str]:
    from conformance.vectors import load_families

    return {c["id"]: c["rule"] for cases in load_families().values() for c in cases}


def updated(
    base: dict[str, Any], engine: str, doc: dict[str, Any], rules: dict[str, str]
) -> tuple[dict[str, Any], list[str]]:
    """The engine file `base` brought up to the run's outcomes (see the module's docstring), and a
    line for each entry dropped or added."""
    outcomes = {
        case_id: outcome
        for by_outcome in doc["outcomes"].get(engine, {}).values()
        for outcome, ids in by_outcome.items()
        for case_id in ids
        if outcome not in NOT_JUDGED
    }
    messages = {c["id"]: c.get("message") or "" for c in doc.get("cases", []) if c["engine"] == engine}
    violated = {rules.get(c) for c, o in outcomes.items() if LEVEL_OF.get(o) == "violation"}
    for r in doc.get("random-values", []):  # a random test is named random/<op> (known.random_test_id)
        if r["engine"] != engine or r["outcome"] in NOT_JUDGED:
            continue
        if r["outcome"] in ("fail", "errored") and violated >= set(r.get("disagreeing-rules", [])):
            continue  # every rule it disagrees on has a vector case expected as a violation: that covers it
        outcomes[known.random_test_id(r["op"])] = r["outcome"]
        messages[known.random_test_id(r["op"])] = r.get("message") or ""
    kept, lines, covered = [], [], set()
    for entry in base.get("entries", []):
        where = {k: v for k, v in entry["where"].items() if k != "engine"}
        cases = [c for c in outcomes if ledger.applies(where, {"case": c, "rule": rules.get(c, "")})]
        still = [c for c in cases if LEVEL_OF.get(outcomes[c]) == entry["level"]]
        if not still and len(cases) == 1 and "reason" in entry and outcomes[cases[0]] in LEVEL_OF:
            entry, still = {**entry, "level": LEVEL_OF[outcomes[cases[0]]]}, cases  # another level, same reason
            lines.append(f"  changed   {engine} {_scope(where)}: now {entry['level']}")
        if cases and not still:
            lines.append(f"  dropped   {engine} {_scope(where)}: now {outcomes[cases[0]]}")
            continue
        kept.append({**entry, "where": where})
        covered.update(still)
    added = []
    for case_id in sorted(outcomes):
        level = LEVEL_OF.get(outcomes[case_id])
        if level is None or case_id in covered:
            continue
        reason = re.sub(r"\s+", " ", f"{outcomes[case_id]}: {messages.get(case_id, '')}").strip()
        added.append({"where": {"case": case_id}, "level": level, "reason": reason[:REASON_CHARS]})
        lines.append(f"  added     {engine} {case_id}: {level}")
    exact = sorted(
        (e for e in kept + added if known.is_exact({"engine": engine, **e["where"]})), key=lambda e: e["where"]["case"]
    )
    patterns = [e for e in kept if not known.is_exact({"engine": engine, **e["where"]})]
    extra = {k: v for k, v in base.items() if k not in ("engine", "entries")}
    return {**extra, "engine": engine, "entries": patterns + exact}, lines


def _scope(where: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" if k != "case" else str(v) for k, v in where.items())


def terminal_lines(config: pytest.Config, doc: dict[str, Any] | None) -> list[str]:
    """The expected violations the engine now passes (fixed: the file can be trimmed), the
    entries scoped by a pattern under which no case of the run is a violation, and what
    `--update-expectations` wrote."""
    cases = (doc or {}).get("cases", [])
    lines = [
        f"  fixed     {c['engine']} {c['id']}: {(c.get('message') or '')[:200]}"
        for c in cases
        if c["outcome"] == "fixed"
    ]
    lines += [
        f"  fixed     {r['engine']} {known.random_test_id(r['op'])}: {r.get('message') or ''}"
        for r in (doc or {}).get("random-values", [])
        if r["outcome"] == "fixed"
    ]
    return (
        lines
        + [
            f"  unmatched {d.engine} {_scope({k: v for k, v in d.where if k != 'engine'})}: "
            "no case of this run is a violation under it (trim it)"
            for d in unmatched_patterns(doc)
        ]
        + config.stash.get(UPDATED, [])
    )


def unmatched_patterns(doc: dict[str, Any] | None) -> list[known.Discrepancy]:
    """The expected violations scoped by a pattern, of an engine of the run, that match no
    violation of the run."""
    if doc is None:
        return []
    known_cases = [c for c in doc.get("cases", []) if c["outcome"] == "known"]
    return [
        d
        for d in known.patterns()
        if d.is_expectation
        and d.level == "violation"
        and d.engine in doc["engines"]
        and not any(
            ledger.applies(dict(d.where), {"engine": c["engine"], "case": c["id"], "rule": c["rule"]})
            for c in known_cases
        )
    ]
