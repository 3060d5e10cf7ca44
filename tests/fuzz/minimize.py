"""Shrinking a reproducer while it still escapes the same way (same outcome signature).

Bytes: remove chunks of halving sizes (a simple delta debugging). JSON values: replace the whole
by one of its children, drop object keys and list items, shrink strings and byte leaves; trees of
files: drop files first. Every candidate runs in the pool, so a candidate that hangs or blows the
memory bound is judged like any input. The number of runs is bounded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import codec

Still = Callable[[Any], bool]


def minimize(value: Any, still_escapes: Still, budget: int = 300) -> Any:
    runs = [0]

    def check(candidate: Any) -> bool:
        if runs[0] >= budget:
            return False
        runs[0] += 1
        return still_escapes(candidate)

    with codec.deep():
        if isinstance(value, (bytes, bytearray)):
            return _bytes(bytes(value), check)
        return _json(value, check)


def _bytes(data: bytes, check: Still) -> bytes:
    chunk = max(1, len(data) // 2)
    while chunk >= 1:
        at, changed = 0, False
        while at < len(data):
            candidate = data[:at] + data[at + chunk :]
            if check(candidate):
                data, changed = candidate, True
            else:
                at += chunk
        if not changed:
            chunk //= 2
    return data


def _json(value: Any, check: Still) -> Any:
    progress = True
    while progress:
        progress = False
        for candidate in _smaller(value):
            if check(candidate):
                value, progress = candidate, True
                break
    return value


def _smaller(value: Any):
    """Candidates smaller than `value`, the most aggressive first."""
    if isinstance(value, dict):
        for k in list(value):
            yield {key: v for key, v in value.items() if key != k}
        for k, v in value.items():
            if isinstance(v, (dict, list)) and len(v) == 1 and not (isinstance(v, dict) and "$b64" in v):
                yield dict(value, **{k: next(iter(v.values())) if isinstance(v, dict) else v[0]})
        for k, v in value.items():
            for smaller in _smaller(v):
                yield dict(value, **{k: smaller})
    elif isinstance(value, list):
        for i in range(len(value)):
            yield value[:i] + value[i + 1 :]
        for i, v in enumerate(value):
            for smaller in _smaller(v):
                yield value[:i] + [smaller] + value[i + 1 :]
    elif isinstance(value, str) and len(value) > 1:
        yield value[: len(value) // 2]
    elif isinstance(value, (bytes, bytearray)) and len(value) > 1:
        for size in (len(value) // 2, len(value) // 8, 1):
            for at in range(0, len(value), max(1, size)):
                yield value[:at] + value[at + max(1, size) :]
