"""Outcomes against a baseline: what changed between a previous run's `compliance.json` and this one.

Every (engine, case) of the current run is one of

- `unchanged`: the same outcome, or another outcome of the same standing (see `standing`);
- `regressed`: credited or skipped before, a violation now (a must broken that was kept);
- `fixed`: a violation before, credited now (its expectation entry can go);
- `new`: a case the baseline did not have (a newer release of the vectors, another engine);

and a case of the baseline that this run no longer has is `removed`. A CI job fails on regressions,
never on new cases unless it asks to (`--strict-new`): a suite release that adds cases must not turn
an engine's CI red for cases it never passed.

    python -m conformance.baseline BASELINE.json CURRENT.json   # exit 1 on a regression
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VIOLATION_OUTCOMES = frozenset({"fail", "errored", "known"})
CREDITED_OUTCOMES = frozenset({"pass", "rejected", "rejected-other-rule", "divergence", "allowed", "fixed"})
CHANGES = ("regressed", "fixed", "new", "removed")


def standing(outcome: str) -> str:
    """`violation`, `credited` or `not-judged` (unsupported, skipped): what a change is measured in."""
    if outcome in VIOLATION_OUTCOMES:
        return "violation"
    return "credited" if outcome in CREDITED_OUTCOMES else "not-judged"


def case_outcomes(doc: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(engine, case id) -> outcome, from a compliance report's `outcomes` block."""
    found: dict[tuple[str, str], str] = {}
    for engine, families in doc.get("outcomes", {}).items():
        for by_outcome in families.values():
            for outcome, case_ids in by_outcome.items():
                for case_id in case_ids:
                    found[(engine, case_id)] = outcome
    return found


@dataclass
class Change:
    engine: str
    case: str
    change: str  # one of CHANGES
    before: str | None
    after: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "case": self.case,
            "change": self.change,
            "before": self.before,
            "after": self.after,
        }


@dataclass
class Comparison:
    changes: list[Change] = field(default_factory=list)
    unchanged: int = 0

    def of(self, kind: str) -> list[Change]:
        return [c for c in self.changes if c.change == kind]

    def counts(self) -> dict[str, int]:
        counted = Counter(c.change for c in self.changes)
        return {"unchanged": self.unchanged, **{k: counted.get(k, 0) for k in CHANGES}}

    def new_violations(self) -> list[Change]:
        return [c for c in self.of("new") if c.after is not None and standing(c.after) == "violation"]

    def failed(self, strict_new: bool = False) -> bool:
        """Whether a gating run fails: on a regression, or (`strict_new`) on a new case that is a violation."""
        return bool(self.of("regressed")) or (strict_new and bool(self.new_violations()))


def change_of(before: str | None, after: str | None) -> str:
    """The change between two outcomes of one (engine, case): `unchanged` or one of CHANGES."""
    if before is None:
        return "new"
    if after is None:
        return "removed"
    was, now = standing(before), standing(after)
    if now == "violation" and was != "violation":
        return "regressed"
    if was == "violation" and now == "credited":
        return "fixed"
    return "unchanged"


def compare(baseline: dict[str, Any], current: dict[str, Any]) -> Comparison:
    """Every (engine, case) of either report, classified; engines the current run did not judge are
    left out (a run of one engine against a baseline of many removes nothing)."""
    before, after = case_outcomes(baseline), case_outcomes(current)
    engines = {engine for engine, _ in after}
    result = Comparison()
    for key in sorted(set(before) | set(after)):
        if key[0] not in engines:
            continue
        kind = change_of(before.get(key), after.get(key))
        if kind == "unchanged":
            result.unchanged += 1
        else:
            result.changes.append(Change(key[0], key[1], kind, before.get(key), after.get(key)))
    return result


def differing(baseline: dict[str, Any], current: dict[str, Any]) -> list[Change]:
    """Every (engine, case) of the current run's engines whose outcome is not exactly the baseline's
    (a refactoring's check: the same verdicts before and after)."""
    before, after = case_outcomes(baseline), case_outcomes(current)
    engines = {engine for engine, _ in after}
    keys = sorted(k for k in set(before) | set(after) if k[0] in engines and before.get(k) != after.get(k))
    return [
        Change(e, c, change_of(before.get((e, c)), after.get((e, c))), before.get((e, c)), after.get((e, c)))
        for e, c in keys
    ]


def load_report(path: Path) -> dict[str, Any]:
    """A compliance report, with a clear error for a file that is not one."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a readable compliance report ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("outcomes"), dict):
        raise ValueError(f"{path}: not a compliance report (no `outcomes` block; write one with --compliance-report)")
    return doc


def text_lines(comparison: Comparison, limit: int = 20) -> list[str]:
    """The comparison for a terminal: the counts, then up to `limit` cases of each change."""
    counts = comparison.counts()
    lines = [", ".join(f"{n} {k}" for k, n in counts.items())]
    for kind in CHANGES:
        listed = comparison.of(kind)
        for c in listed[:limit]:
            lines.append(f"  {kind:9} {c.engine} {c.case}: {c.before or '-'} -> {c.after or '-'}")
        if len(listed) > limit:
            lines.append(f"  {kind:9} ... and {len(listed) - limit} more")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.baseline",
        description="Compare two compliance reports case by case: unchanged, regressed, fixed, new, removed.",
    )
    parser.add_argument("baseline", type=Path, help="the earlier run's compliance.json")
    parser.add_argument("current", type=Path, help="this run's compliance.json")
    parser.add_argument("--strict-new", action="store_true", help="also fail on a new case that is a violation")
    parser.add_argument("--json", action="store_true", help="print every change as JSON")
    parser.add_argument(
        "--exact", action="store_true", help="list every case whose outcome differs at all (exit 1 if any)"
    )
    args = parser.parse_args(argv)
    try:
        baseline, current = load_report(args.baseline), load_report(args.current)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.exact:
        changed = differing(baseline, current)
        for c in changed:
            print(f"{c.engine} {c.case}: {c.before or '-'} -> {c.after or '-'}")
        print(f"{len(changed)} cases with another outcome")
        return 1 if changed else 0
    comparison = compare(baseline, current)
    if args.json:
        print(
            json.dumps({"counts": comparison.counts(), "changes": [c.as_json() for c in comparison.changes]}, indent=1)
        )
    else:
        print("\n".join(text_lines(comparison)))
    return 1 if comparison.failed(args.strict_new) else 0


if __name__ == "__main__":
    sys.exit(main())
