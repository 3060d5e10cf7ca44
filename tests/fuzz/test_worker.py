"""The worker's bounds: an input that allocates beyond the memory bound is a `memory` outcome,
and every input gets the same room whatever the worker ran before (worker.serve)."""

from __future__ import annotations

import pytest

from . import families
from .pool import Pool

pytestmark = pytest.mark.fuzz

_KEPT: list[bytes] = []  # what the "keep" input leaves allocated in the worker


def _allocate(inp: dict) -> None:
    block = bytearray(inp["mb"] * 1024 * 1024)
    if inp.get("keep"):
        _KEPT.append(block)


@pytest.fixture
def allocating_family(monkeypatch):
    """A family `allocate` registered before the pool forks its worker ({"mb": N, "keep": bool})."""
    monkeypatch.setitem(
        families.FAMILIES,
        "allocate",
        families.Family("allocate", "bytearray", lambda: [{}], lambda r, s, p: s, _allocate),
    )
    return "allocate"


def test_an_allocation_beyond_the_bound_is_a_memory_outcome(allocating_family):
    with Pool(1, timeout=10.0, memory_mb=1024) as pool:
        assert pool.run(allocating_family, b'{"mb": 64}', "json").kind == "accepted"
        assert pool.run(allocating_family, b'{"mb": 2000}', "json").kind == "memory"
        assert pool.run(allocating_family, b'{"mb": 64}', "json").kind == "accepted"  # a fresh worker after it


def test_each_input_has_the_whole_bound_whatever_ran_before(allocating_family):
    """A bound fixed when the worker started would leave less than 1024 - 700 MB to the second input."""
    with Pool(1, timeout=10.0, memory_mb=1024) as pool:
        assert pool.run(allocating_family, b'{"mb": 700, "keep": true}', "json").kind == "accepted"
        assert pool.run(allocating_family, b'{"mb": 700}', "json").kind == "accepted"
