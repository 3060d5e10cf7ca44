"""WKB <-> WKT for the JSON single values of geometry and geography (adopted v3, Appendix D).

Physical geo values are ISO WKB (OGC Simple Features): a byte-order byte, a uint32 type code
(1..7 for Point..GeometryCollection, +1000 Z, +2000 M, +3000 ZM), then coordinates as doubles.
WKT is written as `POINT Z (1 2 3)`, `POINT EMPTY`, ...; an empty point is NaN coordinates in WKB.
Numbers print in their shortest round-trip form, integers without a fraction.
"""

from __future__ import annotations

import math
import re
import struct

from spec_impl.errors import InvalidInput
from spec_impl.rules import implements

_KINDS = ("POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION")
_DIMS = {0: "", 1000: "Z", 2000: "M", 3000: "ZM"}
_RULE = "json.geo"


@implements("json.geo")
def wkb_to_wkt(data: bytes) -> str:
    reader = _WkbReader(data)
    text = " ".join(reader.geometry())
    if reader.pos != len(data):
        raise InvalidInput(_RULE, f"{len(data) - reader.pos} trailing bytes after the WKB geometry", data.hex())
    return text


class _WkbReader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    @implements("json.geo")
    def _take(self, fmt: str):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise InvalidInput(_RULE, "truncated WKB", self.data.hex())
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return values

    @implements("json.geo")
    def geometry(self) -> tuple[str, str]:
        """(tagged kind such as 'POINT Z', body such as '(1 2 3)')."""
        (order,) = self._take("B")
        if order not in (0, 1):
            raise InvalidInput(_RULE, "WKB byte order must be 0 or 1", order)
        self.end = "<" if order == 1 else ">"
        (code,) = self._take(self.end + "I")
        kind, dim = code % 1000, code - code % 1000
        if not 1 <= kind <= 7 or dim not in _DIMS:
            raise InvalidInput(_RULE, "unsupported WKB geometry type code", code)
        self.ndim = 2 + len(_DIMS[dim])
        head = _KINDS[kind - 1] + (f" {_DIMS[dim]}" if _DIMS[dim] else "")
        return head, self._body(kind)

    def _coords(self) -> list[float]:
        return list(self._take(f"{self.end}{self.ndim}d"))

    def _count(self) -> int:
        return self._take(self.end + "I")[0]

    def _points(self) -> str:
        n = self._count()
        return "EMPTY" if n == 0 else "(" + ", ".join(_fmt(self._coords()) for _ in range(n)) + ")"

    def _body(self, kind: int) -> str:
        if kind == 1:
            c = self._coords()
            return "EMPTY" if all(math.isnan(x) for x in c) else f"({_fmt(c)})"
        if kind == 2:
            return self._points()
        if kind == 3:
            return _group([self._points() for _ in range(self._count())])
        parts = [self.geometry() for _ in range(self._count())]
        return _group([" ".join(p) if kind == 7 else p[1] for p in parts])


def _group(parts: list[str]) -> str:
    return "EMPTY" if not parts else "(" + ", ".join(parts) + ")"


def _fmt(coords: list[float]) -> str:
    return " ".join(_num(x) for x in coords)


def _num(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else repr(x)


# --- WKT -> WKB (little-endian ISO WKB) --------------------------------------------------------

_TOKEN = re.compile(r"\s*([A-Za-z]+|\(|\)|,|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


@implements("json.geo")
def wkt_to_wkb(text: str) -> bytes:
    tokens = _tokenize(text)
    parser = _WktParser(tokens, text)
    data = parser.geometry()
    if parser.i != len(tokens):
        raise InvalidInput(_RULE, "unexpected text after the WKT geometry", text)
    return data


@implements("json.geo")
def _tokenize(text: str) -> list[str]:
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip() == "":
                break
            raise InvalidInput(_RULE, f"unexpected character at {pos} in WKT", text)
        tokens.append(m[1])
        pos = m.end()
    return tokens


class _WktParser:
    def __init__(self, tokens: list[str], text: str):
        self.tokens, self.text, self.i = tokens, text, 0

    def _peek(self) -> str | None:
        return self.tokens[self.i].upper() if self.i < len(self.tokens) else None

    @implements("json.geo")
    def _next(self, expected: str | None = None) -> str:
        tok = self._peek()
        if tok is None or (expected is not None and tok != expected):
            raise InvalidInput(_RULE, f"expected {expected or 'more'} in WKT", self.text)
        self.i += 1
        return self.tokens[self.i - 1]

    @implements("json.geo")
    def geometry(self) -> bytes:
        kind_name = self._next().upper()
        if kind_name not in _KINDS:
            raise InvalidInput(_RULE, f"unknown WKT geometry {kind_name!r}", self.text)
        dim = {"Z": 1000, "M": 2000, "ZM": 3000}.get(self._peek() or "", 0)
        if dim:
            self.i += 1
        self.dim, self.ndim = dim, 2 + len(_DIMS[dim])
        kind = _KINDS.index(kind_name) + 1
        head = struct.pack("<BI", 1, kind + dim)
        if self._peek() == "EMPTY":
            self.i += 1
            return head + (
                struct.pack(f"<{self.ndim}d", *[math.nan] * self.ndim) if kind == 1 else struct.pack("<I", 0)
            )
        return head + self._body(kind, dim)

    def _list(self, item) -> list:
        self._next("(")
        items = [item()]
        while self._peek() == ",":
            self.i += 1
            items.append(item())
        self._next(")")
        return items

    @implements("json.geo")
    def _coord(self) -> bytes:
        try:
            values = [float(self._next()) for _ in range(self.ndim)]
        except ValueError:
            raise InvalidInput(_RULE, f"expected {self.ndim} numbers per coordinate in WKT", self.text) from None
        return struct.pack(f"<{self.ndim}d", *values)

    def _points(self) -> bytes:
        pts = self._list(self._coord)
        return struct.pack("<I", len(pts)) + b"".join(pts)

    def _body(self, kind: int, dim: int) -> bytes:
        if kind == 1:
            return b"".join(self._list(self._coord))
        if kind == 2:
            return self._points()
        if kind == 3:
            rings = self._list(self._points)
            return struct.pack("<I", len(rings)) + b"".join(rings)
        if kind == 7:
            parts = self._list(self.geometry)
        else:
            sub_kind = kind - 3
            bare = lambda: struct.pack("<BI", 1, sub_kind + dim) + self._body(sub_kind, dim)
            parts = self._list(bare if not (sub_kind == 1 and self._bare_point_list()) else self._bare_point)
        return struct.pack("<I", len(parts)) + b"".join(parts)

    def _bare_point_list(self) -> bool:
        """MULTIPOINT (1 2, 3 4) is also valid WKT: points without their own parentheses."""
        return self.i + 1 < len(self.tokens) and self.tokens[self.i + 1] != "("

    def _bare_point(self) -> bytes:
        return struct.pack("<BI", 1, 1 + self.dim) + self._coord()
