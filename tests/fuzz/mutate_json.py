"""JSON mutators: structure mutations of documents and raw-text mutations of their bytes.

Structure: type swaps, missing and extra keys, huge and negative numbers, deep nesting, duplicate
list items (duplicate ids), unknown versions, odd Unicode, subtrees swapped between places.
Raw text (metadata files): truncation, an opening of 100,000 `[`, duplicate keys, the non-JSON
tokens NaN and Infinity, gzip wrapping and gzip corruption.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import re
import zlib
from typing import Any

HUGE = [2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -1, -2, 0, 10**400]
ODD_TEXT = [
    "",
    " ",
    "\u0000",
    "\ud800",
    "\uffff",
    "\U0001f600",
    "e\u0301",
    "\u202e",
    "a" * 300,
    "ＩＤ",
    "null",
    "1",
    "-0",
    "s3://b/t/../x",
    "file:/etc/passwd",
    "NaN",
]
VERSION_KEYS = (
    "format-version",
    "version-id",
    "schema-id",
    "spec-id",
    "order-id",
    "current-schema-id",
    "default-spec-id",
)


def scalar(rng: random.Random) -> Any:
    """A JSON scalar chosen to break a reader."""
    pick = rng.randrange(8)
    if pick == 0:
        return rng.choice(HUGE)
    if pick == 1:
        return rng.choice(ODD_TEXT)
    if pick == 2:
        return rng.choice([None, True, False])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, float("inf"), float("nan"), 3.0])
    if pick == 4:
        return rng.randint(-5, 2000)
    if pick == 5:
        return rng.choice(
            [
                "int",
                "long",
                "struct",
                "list",
                "map",
                "bucket[0]",
                "truncate[-1]",
                "decimal(39,0)",
                "fixed[0]",
                "identity",
                "void",
                "asc",
                "nulls-first",
                "root",
                "data",
                "puffin",
                "PARQUET",
            ]
        )
    if pick == 6:
        return rng.choice([[], {}, [None], {"": None}])
    return "".join(rng.choice("abc-_.:/{}[]") for _ in range(rng.randint(0, 12)))


def value(rng: random.Random, depth: int = 0) -> Any:
    """A small arbitrary JSON value."""
    if depth > 2 or rng.random() < 0.6:
        return scalar(rng)
    if rng.random() < 0.5:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {
        rng.choice(["id", "type", "name", "x", "fields", "snapshot-id", ""]): value(rng, depth + 1)
        for _ in range(rng.randint(0, 3))
    }


def nested(rng: random.Random, inner: Any, depth: int) -> Any:
    for _ in range(depth):
        inner = [inner] if rng.random() < 0.5 else {"a": inner}
    return inner


def _paths(doc: Any, limit: int = 4000) -> list[tuple]:
    """Paths (tuples of keys / indexes) of the document's nodes, the root first."""
    out, stack = [], [()]
    while stack and len(out) < limit:
        path = stack.pop()
        out.append(path)
        node = _get(doc, path)
        if isinstance(node, dict):
            stack.extend(path + (k,) for k in node)
        elif isinstance(node, list):
            stack.extend(path + (i,) for i in range(len(node)))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def mutate(rng: random.Random, doc: Any, pool: list[Any] = ()) -> Any:
    """`doc` with 1-3 structure mutations; `pool` holds other documents to take subtrees from."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        doc = _mutate_once(rng, doc, pool)
    return doc


def _mutate_once(rng: random.Random, doc: Any, pool: list[Any]) -> Any:
    paths = _paths(doc)
    path = rng.choice(paths)
    node = _get(doc, path)
    op = rng.randrange(11)
    if op == 0 and path:  # remove a key / an item
        parent = _get(doc, path[:-1])
        del parent[path[-1]]
        return doc
    if op == 1 and isinstance(node, dict):  # an extra key
        node[rng.choice(list(node) + ["extra", "", "x" * 40]) + rng.choice(["", "-2"])] = value(rng)
        return doc
    if op == 2 and isinstance(node, list) and node:  # a duplicate item (duplicate ids)
        node.insert(rng.randrange(len(node) + 1), copy.deepcopy(rng.choice(node)))
        return doc
    if op == 3:  # deep nesting
        return _replace(doc, path, nested(rng, node, rng.choice([10, 100, 1000, 1500])))
    if op == 4 and isinstance(node, int) and not isinstance(node, bool):  # a huge, negative or neighbouring number
        return _replace(doc, path, rng.choice(HUGE + [node + 1, node - 1, -node]))
    if op == 5 and isinstance(node, dict):  # unknown versions and ids
        keys = [k for k in node if k in VERSION_KEYS] or list(node)
        if keys:
            node[rng.choice(keys)] = rng.choice([0, 4, 5, 99, -1, "2", 2.0, None])
        return doc
    if op == 6 and isinstance(node, str):  # odd Unicode
        return _replace(
            doc,
            path,
            rng.choice([node + rng.choice(ODD_TEXT), rng.choice(ODD_TEXT), node.upper(), node[: len(node) // 2]]),
        )
    if op == 7 and isinstance(node, list):  # an object where a list belongs
        return _replace(doc, path, {str(i): v for i, v in enumerate(node)})
    if op == 8 and isinstance(node, dict):  # a list where an object belongs
        return _replace(doc, path, list(node.values()))
    if op == 9:  # a subtree of this or another document
        source = rng.choice(list(pool) + [doc]) if pool else doc
        return _replace(doc, path, copy.deepcopy(_get(source, rng.choice(_paths(source)))))
    return _replace(doc, path, value(rng))  # a type swap


def long_digit_run(rng: random.Random, doc: Any) -> Any | None:
    """`doc` with one run of digits inside one of its strings (a type's parameter, a year, a
    fraction) made thousands of digits long, or just past 64 bits: Python's int() of a string
    refuses more than 4,300 digits. None when no string of `doc` has a digit."""
    paths = [p for p in _paths(doc) if isinstance(_get(doc, p), str) and _DIGITS.search(_get(doc, p))]
    if not paths:
        return None
    doc = copy.deepcopy(doc)
    path = rng.choice(paths)
    text = _get(doc, path)
    runs = list(_DIGITS.finditer(text))
    run = rng.choice(runs)
    digits = rng.choice(["9" * 5000, "1" + "0" * 4400, "0" * 5000, "18446744073709551617", "9" * 19])
    return _replace(doc, path, text[: run.start()] + digits + text[run.end() :])


_DIGITS = re.compile(r"\d+")


def _replace(doc: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    _get(doc, path[:-1])[path[-1]] = new
    return doc


# --- raw text ------------------------------------------------------------------------------------


def mutate_text(rng: random.Random, data: bytes) -> bytes:
    """Raw-text mutations of a JSON file's bytes (gzip-compressed files are unwrapped first and
    compressed again, sometimes corrupted)."""
    gz = data[:2] == b"\x1f\x8b"
    try:
        text = gzip.decompress(data) if gz else data
    except (OSError, EOFError, zlib.error):  # a seed that is a damaged gzip stream on purpose
        gz, text = False, data
    op = rng.randrange(10)
    if op == 0:
        text = text[: rng.randrange(len(text) + 1)]
    elif op == 1:
        text = b'{"a":' + b"[" * 100_000
    elif op == 2:  # a duplicate key: the first key of the object again, with another value
        at = text.find(b"{") + 1
        key = rng.choice([b"format-version", b"location", b"table-uuid", b"current-schema-id", b"schemas"])
        text = text[:at] + b'"' + key + b'": ' + json.dumps(scalar(rng)).encode() + b", " + text[at:]
    elif op == 3:  # non-JSON number tokens
        digits = [i for i, c in enumerate(text) if 0x30 <= c <= 0x39 and text[i - 1 : i] in (b" ", b":")]
        if digits:
            at = rng.choice(digits)
            text = (
                text[:at]
                + rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"0x10", b"01", b"9" * 5000, b"1.5e400"])
                + text[at:]
            )
    elif op == 4:
        text = text + rng.choice([b"}", b" garbage", b"\x00", b"{}"])
    elif op == 5:  # one byte changed
        if text:
            at = rng.randrange(len(text))
            text = text[:at] + bytes([rng.randrange(256)]) + text[at + 1 :]
    elif op == 6:
        text = b"\xef\xbb\xbf" + text if rng.random() < 0.5 else text.decode("utf-8", "replace").encode("utf-16")
    elif op == 7:  # structure mutation, serialized again
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        if doc is not None:
            text = json.dumps(mutate(rng, doc)).encode()
    elif op == 8:
        text = b"[" * rng.choice([500, 5000]) + b"]" * rng.choice([0, 500])
    if gz or op == 9:
        wrapped = gzip.compress(text, mtime=0)
        if op == 9 or rng.random() < 0.5:  # corrupt the stream: a byte, the CRC, the length, truncation
            at = rng.randrange(10, len(wrapped))
            wrapped = rng.choice(
                [
                    wrapped[:at],
                    wrapped[:at] + bytes([wrapped[at] ^ 0xFF]) + wrapped[at + 1 :],
                    wrapped[:-8] + bytes(8),
                    wrapped + b"\x1f\x8b\x08",
                ]
            )
        return wrapped
    return text
