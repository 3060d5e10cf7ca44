"""Reading JSON documents (metadata files, Puffin footers, manifest key-value metadata) strictly
and within resource limits, and describing bad values briefly in error messages.

Spec: the table spec stores metadata as JSON (RFC 8259); "Table Metadata Fields", adopted v3
digest §3 (gzip-compressed metadata files). The reference rejects, under rule `json.document`:

- documents above `MAX_BYTES` bytes (also after gzip decompression: no gzip bombs) and nesting
  deeper than `MAX_DEPTH` arrays/objects. These are resource limits of the reference, not spec
  rules; legitimate metadata stays far below them (a schema nested 100 levels is about 300 JSON
  levels deep). Jackson, which Iceberg Java reads metadata with, limits nesting to 1000 levels.
- integers of more than `MAX_INTEGER_DIGITS` digits (a resource limit), and numbers with a
  fraction or exponent outside the range of a double (`1e400`), which would otherwise read as
  infinity: RFC 8259 §6 lets implementations set such limits, and no metadata field holds them.
- the tokens NaN, Infinity and -Infinity: RFC 8259 §6 allows no such numbers ("Numeric values
  that cannot be represented ... such as Infinity and NaN are not permitted"), and Jackson
  rejects them by default (`ALLOW_NON_NUMERIC_NUMBERS` is off; Iceberg's JsonUtil keeps it off).
- duplicate keys in one object: RFC 8259 §4 says names "SHOULD be unique" and that with
  duplicates "the behavior of software that receives such an object is unpredictable" (some
  report the last value, some the first, some fail). Iceberg Java's JsonUtil does not enable
  Jackson's STRICT_DUPLICATE_DETECTION, so it reads the last value silently; a conformance
  reference must not pick one reading of an ambiguous document, so it rejects it.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import zlib
from typing import Any

from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, register, implements

MAX_BYTES = 256 * 1024 * 1024
MAX_DEPTH = 256
MAX_INTEGER_DIGITS = 1000  # far beyond any field's 64 bits; Python itself refuses to convert above 4300 digits

register(
    Rule(
        "json.document",
        "Table Metadata Fields (JSON, RFC 8259); adopted 3 Table metadata",
        "A metadata JSON document is RFC 8259 JSON: no NaN or Infinity tokens, no duplicate keys in an object "
        "(RFC 8259 §4: unpredictable; Iceberg Java reads the last value, the reference rejects); the reference "
        f"also bounds documents to {MAX_BYTES} bytes (after gzip decompression), {MAX_DEPTH} levels of nesting "
        f"and integers of {MAX_INTEGER_DIGITS} digits, and rejects numbers beyond a double's range",
    ),
)

_brief = reprlib.Repr()
_brief.maxlevel, _brief.maxstring, _brief.maxother, _brief.maxlong = 3, 60, 60, 60
_brief.maxlist = _brief.maxtuple = _brief.maxdict = _brief.maxset = 4


def brief(value: Any) -> str:
    """A short, bounded description of any value for error messages (deep or huge values are cut)."""
    try:
        return _brief.repr(value)
    except RecursionError:
        return f"<a deeply nested {type(value).__name__}>"


@implements("json.document")
def loads(data: bytes | str, what: str = "the document", syntax_rule: str = "json.document") -> Any:
    """Parse JSON text strictly (rule json.document): bounded size and depth, UTF-8, RFC 8259 numbers,
    unique keys. Text that is not JSON at all (not UTF-8, a syntax error) is `syntax_rule`."""
    if len(data) > MAX_BYTES:
        raise InvalidInput("json.document", f"{what} has {len(data)} bytes, above the limit of {MAX_BYTES}", len(data))
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidInput(syntax_rule, f"{what} is not UTF-8: {e.reason} at byte {e.start}", e.start) from None
    check_text_depth(data, what)
    try:
        return json.loads(
            data,
            object_pairs_hook=_unique_keys(what),
            parse_constant=_no_constant(what),
            parse_int=_bounded_int(what),
            parse_float=_finite_float(what),
        )
    except json.JSONDecodeError as e:
        raise InvalidInput(
            syntax_rule, f"{what} is not JSON: {e.msg} at line {e.lineno} column {e.colno}", e.pos
        ) from None
    except RecursionError:  # a guard: check_text_depth keeps nesting below what json can parse
        raise InvalidInput("json.document", f"{what} nests too deeply", MAX_DEPTH) from None


# A JSON string (escapes included; an unterminated one runs to the end of the text) or a bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{}]', re.S)


@implements("json.document")
def check_text_depth(text: str, what: str = "the document") -> None:
    """Reject nesting deeper than MAX_DEPTH before parsing (brackets inside strings do not count)."""
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        c = token.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                i = token.start()
                raise InvalidInput(
                    "json.document", f"{what} nests deeper than {MAX_DEPTH} levels (at character {i})", i
                )
        elif c in "]}":
            depth -= 1


@implements("json.document")
def check_depth(value: Any, what: str = "the document") -> None:
    """Reject a parsed value nested deeper than MAX_DEPTH lists/objects (iteratively, no recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list, tuple)):
            if depth > MAX_DEPTH:
                raise InvalidInput("json.document", f"{what} nests deeper than {MAX_DEPTH} levels", MAX_DEPTH)
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))


@implements("json.document")
def gunzip(data: bytes, what: str, rule: str) -> bytes:
    """Decompress a gzip stream, at most MAX_BYTES of output; a damaged stream is `rule`."""
    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(data, MAX_BYTES + 1)
    except zlib.error as e:
        raise InvalidInput(rule, f"{what} is not a valid gzip stream: {e}", len(data)) from None
    if len(out) > MAX_BYTES:
        raise InvalidInput("json.document", f"{what} decompresses to more than {MAX_BYTES} bytes", MAX_BYTES)
    if not d.eof:
        raise InvalidInput(
            rule, f"{what} is not a valid gzip stream: it ends before the end of the compressed data", len(data)
        )
    if d.unused_data:
        raise InvalidInput(rule, f"{what}: {len(d.unused_data)} bytes follow the gzip stream", len(d.unused_data))
    return out


@implements("json.document")
def _unique_keys(what: str):
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise InvalidInput(
                    "json.document", f"{what} has the key {key!r} twice in one object (RFC 8259 §4)", key
                )
            out[key] = value
        return out

    return hook


@implements("json.document")
def _bounded_int(what: str):
    def parse(text: str) -> int:
        if len(text) <= MAX_INTEGER_DIGITS:  # short enough to hold no more digits than allowed
            return int(text)
        return bounded_int(text, MAX_INTEGER_DIGITS, "json.document", f"an integer of {what}", brief(text))

    return parse


@implements("json.document")
def _finite_float(what: str):
    def parse(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise InvalidInput(
                "json.document", f"{what} has the number {brief(text)}, outside the range of a double", brief(text)
            )
        return value

    return parse


@implements("json.document")
def _no_constant(what: str):
    def reject(token: str) -> Any:
        raise InvalidInput("json.document", f"{what} has the token {token}, which is not JSON (RFC 8259 §6)", token)

    return reject
