"""Every op of the case contract by name (value, metadata, planning, content-file and file ops):
the same table drives the generator (expected outputs) and the reference engine of the suite."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec_impl.ops.file_ops import FILE_OPS
from spec_impl.ops.metadata_ops import METADATA_OPS
from spec_impl.ops.value_ops import VALUE_OPS

OPS: dict[str, Callable[[dict, str], Any]] = {**VALUE_OPS, **METADATA_OPS, **FILE_OPS}


def run(op: str, inp: dict, revision: str) -> Any:
    """Run one op on a case input with the reference; raises SpecError on rejection."""
    return OPS[op](inp, revision)
