"""Random planning inputs (projection, metrics and manifest evaluation) that exposed a finding,
adopted from a conformance run (`spec_impl.vectors.random_findings`)."""

from __future__ import annotations

from spec_impl.vectors import random_findings
from spec_impl.vectors.random_cases import PLANNING_OPS

NAME = "random-planning-findings"
DESCRIPTION = "Random planning inputs on which an engine broke a property the spec forces, adopted as vectors"


def specs():
    yield from random_findings.specs(PLANNING_OPS)
