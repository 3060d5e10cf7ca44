"""The table format versions the reference reads, checked wherever a version is given: in a
document's `format-version` or as a caller's argument (parse_schema(obj, format_version), ...).

Spec: "Table Metadata Fields" (format-version: "An integer version number for the format ...
Implementations must throw an exception if a table's version is higher than the supported
version"), Appendix E.
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.rules import Rule, register, implements

MAX_FORMAT_VERSION = 3

register(
    Rule(
        "table.format-version",
        "Table Metadata Fields; Appendix C; Appendix E",
        "format-version is 1, 2 or 3; a reader must throw for a version above the one it supports",
    ),
)


@implements("table.format-version")
def check_format_version(fv: Any) -> int:
    """`fv` as a format version (rule table.format-version): an integer 1..3, not a bool or a string."""
    if not isinstance(fv, int) or isinstance(fv, bool):
        raise InvalidInput(
            "table.format-version",
            "format-version must be an integer",
            fv if isinstance(fv, (str, float, type(None))) else type(fv).__name__,
        )
    if not 1 <= fv <= MAX_FORMAT_VERSION:
        raise InvalidInput(
            "table.format-version",
            f"format-version must be 1 to {MAX_FORMAT_VERSION}; a reader must throw above what it supports",
            fv,
        )
    return fv
