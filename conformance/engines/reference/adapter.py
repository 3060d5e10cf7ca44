"""The reference engine: `spec_impl` itself, the embedded default that always runs.

Run against the golden vectors it proves that the committed files match the current reference
(the per-case twin of `iceberg-vectors check`). Subclass it to wrap an implementation that is
mostly the reference with a few rules replaced.
"""

from __future__ import annotations

from typing import Any

import spec_impl
from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.scan.metadata_columns import NAMES as METADATA_COLUMN_NAMES
from spec_impl.ops.registry import OPS, run

from conformance.engines.base import Engine


class ReferenceEngine(Engine):
    """spec_impl under the adopted v3 revision."""

    name = "reference"
    capabilities = frozenset(OPS)
    metadata_columns = frozenset(METADATA_COLUMN_NAMES)
    revision = revisions.V3_ADOPTED
    case_errors = (SpecError, ArithmeticError, ValueError, TypeError)  # anything else is a bug of the reference

    @property
    def version(self) -> str:
        return f"spec_impl {getattr(spec_impl, '__version__', '0.1.0')} ({self.revision})"

    def answer(self, op: str, inp: dict[str, Any]) -> Any:
        """The output for one case input (vector form); raise to reject it. Override to model an engine."""
        return run(op, inp, self.revision)


class SeedReferenceEngine(ReferenceEngine):
    """spec_impl under the 2024 seed text, for the cases whose expectation belongs to it."""

    name = "reference-seed"
    revision = revisions.SEED_2024
