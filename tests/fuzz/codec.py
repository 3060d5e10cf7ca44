"""Inputs as JSON-able values and as reproducer files.

A family's input is a JSON value in which bytes are spelled {"$b64": "<base64>"} (so that a
tree of files, a document and a Puffin file travel the same way), or raw bytes. Reproducers are
stored as `.bin` when the input is bytes, `.json` otherwise.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from contextlib import contextmanager
from typing import Any

READER_RECURSION_LIMIT = 1000  # what the code under test runs with: Python's default
HARNESS_RECURSION_LIMIT = 20000  # deep nesting is made on purpose; copying and encoding it must not fail


@contextmanager
def deep():
    """The harness's own work on deeply nested values, with a high recursion limit."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(HARNESS_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def to_jsonable(value: Any) -> Any:
    """bytes -> {"$b64": ...}, recursively (tuples become lists)."""
    if isinstance(value, (bytes, bytearray)):
        return {"$b64": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def from_jsonable(value: Any) -> Any:
    """The inverse of `to_jsonable`."""
    if isinstance(value, dict):
        if set(value) == {"$b64"} and isinstance(value["$b64"], str):
            return base64.b64decode(value["$b64"])
        return {k: from_jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_jsonable(v) for v in value]
    return value


def encode(value: Any) -> tuple[bytes, str]:
    """A reproducer file's bytes and extension."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value), "bin"
    with deep():
        return json.dumps(to_jsonable(value), sort_keys=True, ensure_ascii=True).encode(), "json"


def decode(data: bytes, ext: str) -> Any:
    if ext == "bin":
        return data
    with deep():
        return from_jsonable(json.loads(data))


def digest(value: Any) -> str:
    data, _ = encode(value)
    return hashlib.sha256(data).hexdigest()[:16]
