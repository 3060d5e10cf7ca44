"""Gating another project's CI: a run judged against an earlier run's report (`--baseline`), and a
Markdown summary for a pull request (`--summary-md`).

With a baseline, a case the baseline did not have is `new`: its violation is reported (an xfail
naming it, and in the report) but fails the run only under `--strict-new`, so that a release of the
suite that adds cases never turns an engine's CI red for cases it never passed. A regression (a
case credited in the baseline, a violation now) fails the run; fixed cases are listed so that the
engine's expectations can be trimmed. See `conformance.baseline` for the classification.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance import baseline, summary_md

BASELINE = pytest.StashKey[dict]()
BASELINE_CASES = pytest.StashKey[frozenset]()  # (engine, case id) of the baseline
COMPARISON = pytest.StashKey[baseline.Comparison]()


def configure(config: pytest.Config) -> None:
    """Load the baseline given with `--baseline` (a usage error when it is not a compliance report)."""
    path = config.getoption("--baseline", default=None)
    if path is None:
        return
    try:
        config.stash[BASELINE] = baseline.load_report(path)
    except ValueError as e:
        raise pytest.UsageError(f"--baseline: {e}") from None
    config.stash[BASELINE_CASES] = frozenset(baseline.case_outcomes(config.stash[BASELINE]))


def new_case(config: pytest.Config, engine: str, case_id: str) -> bool:
    """Whether the case is new against the baseline and new cases do not gate (no `--strict-new`)."""
    cases = config.stash.get(BASELINE_CASES, None)
    if cases is None or config.getoption("--strict-new", default=False):
        return False
    return (engine, case_id) not in cases


def compare(config: pytest.Config, doc: dict[str, Any] | None) -> bool:
    """After the run: compare with the baseline. Whether the run must fail (a regression, or under
    `--strict-new` a new case that is a violation)."""
    if doc is None or BASELINE not in config.stash:
        return False
    comparison = baseline.compare(config.stash[BASELINE], doc)
    config.stash[COMPARISON] = comparison
    return comparison.failed(config.getoption("--strict-new", default=False))


def comparison(config: pytest.Config) -> baseline.Comparison | None:
    return config.stash.get(COMPARISON, None)


def write_summary(config: pytest.Config, doc: dict[str, Any] | None) -> None:
    """`--summary-md`: the finished run's summary (`conformance.summary_md`)."""
    target = config.getoption("--summary-md", default=None)
    if target is not None and doc is not None:
        summary_md.write(Path(target), doc, _links(), comparison(config))


def terminal_lines(config: pytest.Config) -> list[str]:
    comparison = config.stash.get(COMPARISON, None)
    return [] if comparison is None else baseline.text_lines(comparison)


def _links() -> dict[str, str]:
    """family -> the published spec section its cases cite most (from the rule index)."""
    import json

    from spec_impl.resources import vectors_dir

    from conformance.vectors import load_families

    rules_file = vectors_dir() / "rules.json"
    if not rules_file.is_file():
        return {}
    rules = {r["id"]: r for r in json.loads(rules_file.read_text(encoding="utf-8"))["rules"]}
    return summary_md.family_links(load_families(), rules)
