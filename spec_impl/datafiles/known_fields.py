"""A data file holds every field of the schema it was written with ("Default values": "Omitting a
known field when writing a data file is never allowed."; a field a write does not supply is written
with its write-default, rule write.default).

The check walks the written schema's struct fields (top level and inside structs, lists and maps)
and reports each field id no node of the file carries. Fields of type `unknown` are exempt (adopted
§1.1: "Never stored: Parquet and ORC omit it"), and so is a file without any field id, read through
the table's name mapping (rule parquet.field-ids judges it).
"""

from __future__ import annotations

from spec_impl.datafiles.parquet_schema import Node
from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.schema import walk
from spec_impl.rules import Rule, implements, register
from spec_impl.types import UNKNOWN, StructType

KNOWN_FIELDS = "content-file.known-fields"
register(
    Rule(
        KNOWN_FIELDS,
        "Default values",
        "A data file holds a column for every field of the schema it was written with (unknown-typed fields "
        "excepted): a known field is never omitted",
        (3,),
    ),
)


@implements(KNOWN_FIELDS)
def missing_known_fields(nodes: list[Node], written: StructType) -> list[Finding]:
    """A finding for each field of `written` (ids of struct fields, list elements, map keys and
    values) that no node of the file (`parquet_schema.read_schema`) carries."""
    present = {n.field_id for n in _all(nodes)}
    if present == {None}:
        return []  # no field ids at all: a name-mapped file
    found = []
    for info in walk(written):
        if info.id not in present and info.type != UNKNOWN:
            found.append(Finding(KNOWN_FIELDS, f"the file has no column for field {info.id} ({info.dotted})", info.id))
    return found


def _all(nodes):
    for n in nodes:
        yield n
        yield from _all(n.children)
