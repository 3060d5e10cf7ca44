"""Random value inputs (hash, transform, binary and JSON single values) that exposed a finding,
adopted from a conformance run (`spec_impl.vectors.random_findings`)."""

from __future__ import annotations

from spec_impl.vectors import random_findings
from spec_impl.vectors.random_cases import VALUE_OPS

NAME = "random-value-findings"
DESCRIPTION = "Random value inputs on which an engine disagreed with the reference, adopted as vectors"


def specs():
    yield from random_findings.specs(VALUE_OPS)
