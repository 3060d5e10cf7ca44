"""Adding an engine as conformance/engines/ADDING.md says: one new folder (the adapter and its
README) and one registry line, then the judge's verdicts on real vector cases.

The toy engine hashes `int` and `long` values (Appendix B: an int is hashed as the long of the
same value, 8 bytes little-endian, with 32-bit Murmur3 x86, seed 0) and declines everything else.
Its buggy twin hashes an int as 4 bytes, a classic mistake, and must fail those cases."""

from __future__ import annotations

import sys
import textwrap

import pytest

from conformance.engines import registry
from conformance.judge import FAIL, PASS
from conformance.runner import Runner
from conformance.vectors import load_families

ADAPTER = '''
"""A toy engine: the hash of int and long values, nothing else."""

from conformance.engines.base import Engine

MASK = 0xFFFFFFFF


def _rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & MASK


def murmur3_32(data: bytes) -> int:
    h = 0
    for i in range(0, len(data) - len(data) % 4, 4):
        k = int.from_bytes(data[i : i + 4], "little") * 0xCC9E2D51 & MASK
        h ^= _rotl(k, 15) * 0x1B873593 & MASK
        h = (_rotl(h, 13) * 5 + 0xE6546B64) & MASK
    h ^= len(data)
    for shift, factor in ((16, 0x85EBCA6B), (13, 0xC2B2AE35), (16, 1)):
        h = (h ^ (h >> shift)) * factor & MASK
    return h - (1 << 32) if h >= 1 << 31 else h


class ToyEngine(Engine):
    name = "toy"
    capabilities = frozenset({"hash"})
    int_bytes = 8

    def unsupported(self, op, inp):
        if inp.get("type") not in ("int", "long"):
            return f"toy hashes int and long only, not {inp.get('type')!r}"
        return super().unsupported(op, inp)

    def answer_hash(self, inp):
        size = self.int_bytes if inp["type"] == "int" else 8
        value = inp["value"] & ((1 << (8 * size)) - 1)
        return murmur3_32(value.to_bytes(size, "little"))


class FourByteIntToyEngine(ToyEngine):
    name = "toy-four-byte-int"
    int_bytes = 4
'''

HASHES = load_families()["hash"]
INTEGERS = [c for c in HASHES if c["input"].get("type") in ("int", "long")]


@pytest.fixture
def toy_registered(tmp_path, monkeypatch):
    """The new folder on sys.path, and one registry line per engine."""
    folder = tmp_path / "toy_engine"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "adapter.py").write_text(textwrap.dedent(ADAPTER))
    (folder / "README.md").write_text("# toy\n\nReads the hash of int and long values; declines the rest.\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.BUILTIN, "toy", "toy_engine.adapter:ToyEngine")
    monkeypatch.setitem(registry.BUILTIN, "toy-four-byte-int", "toy_engine.adapter:FourByteIntToyEngine")
    yield
    for name in [m for m in sys.modules if m == "toy_engine" or m.startswith("toy_engine.")]:
        del sys.modules[name]


def _verdicts(name: str) -> tuple[dict[str, str], set[str]]:
    """The verdicts on the hash cases the engine answers, and the ids of those it declines, as the
    suite's pytest plugin batches and skips them."""
    runner = Runner({name: registry.load(name)})
    try:
        engine = runner.slots[name].engine
        assert engine is not None, runner.slots[name].unavailable
        batch = [c for c in HASHES if engine.unsupported(c["op"], c["input"]) is None]
        declined = {c["id"] for c in HASHES} - {c["id"] for c in batch}
        return {c["id"]: runner.verdict(name, "hash", c, batch).outcome for c in batch}, declined
    finally:
        runner.stop()


def test_the_toy_engine_passes_the_integer_hashes_and_declines_the_rest(toy_registered):
    outcomes, declined = _verdicts("toy")
    assert len(INTEGERS) >= 10
    assert outcomes == {c["id"]: PASS for c in INTEGERS}
    assert declined == {c["id"] for c in HASHES} - set(outcomes)


def test_a_toy_engine_that_hashes_an_int_as_four_bytes_fails_the_int_cases(toy_registered):
    outcomes, _ = _verdicts("toy-four-byte-int")
    ints = [c["id"] for c in INTEGERS if c["input"]["type"] == "int"]
    longs = [c["id"] for c in INTEGERS if c["input"]["type"] == "long"]
    assert ints and {outcomes[i] for i in ints} == {FAIL}
    assert {outcomes[i] for i in longs} == {PASS}
