"""Whether an output is an answer of its op at all: the guard before a divergence or an allowed
difference is credited.

An engine that reads an open question otherwise, or takes a latitude the spec grants, still
answers with a value of the op's kind: a bucket number in `[0, N)`, a row set with columns and
rows, a list of booleans. An output of another JSON kind than the expectation, an object with other
keys, or a value outside the op's own range is no reading of anything: the exact verdict (a
failure) stands at every level of obligation.
"""

from __future__ import annotations

import re
from typing import Any

from spec_impl import transforms
from spec_impl.errors import SpecError

INT32 = (-(2**31), 2**31 - 1)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)) or (isinstance(value, dict) and set(value) == {"ieee754"}):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def not_an_answer(case: dict[str, Any], want: Any, got: Any) -> str | None:
    """Why `got` is no answer of the case's op (None when it is one): see the module docstring."""
    if want is None or got is None:
        return None  # a null answer is one of every op's kinds where nulls are values
    if _kind(want) != _kind(got):
        return f"a {_kind(got)} where the op answers a {_kind(want)}"
    if isinstance(want, dict) and set(want) != {"ieee754"} and set(got) != set(want):
        return f"an object with the keys {sorted(got)} where the op answers {sorted(want)}"
    if isinstance(want, list) and want and all(isinstance(w, bool) for w in want):
        if not all(isinstance(g, bool) for g in got):
            return "a list of other values where the op answers a list of booleans"
    return _out_of_range(case, got)


def _out_of_range(case: dict[str, Any], got: Any) -> str | None:
    """The op's own invariants: a bucket lies in [0, N), a 32-bit hash in the int range."""
    op, inp = case["op"], case["input"]
    parsed = _transform(inp.get("transform")) if op == "transform" else None
    if parsed is not None and parsed.name == "bucket":
        n = parsed.param
        if not (isinstance(got, int) and 0 <= got < n):
            return f"{got!r} is no bucket of bucket[{n}] (a bucket lies in [0, {n}))"
    if op == "hash" and not (isinstance(got, int) and INT32[0] <= got <= INT32[1]):
        return f"{got!r} is no 32-bit hash"
    if op == "to-binary" and not (isinstance(got, str) and re.fullmatch(r"(?:[0-9a-fA-F]{2})*", got)):
        return f"{got!r} is no hex string of bytes"
    return None


def _transform(text: Any):
    """The case's transform as the reference parses it (`transforms.parse_transform`), or None."""
    try:
        return transforms.parse_transform(text) if isinstance(text, str) else None
    except SpecError:
        return None
