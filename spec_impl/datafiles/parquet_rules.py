"""Appendix A, Parquet: the physical schema of a Parquet data or delete file checked against the
table's schemas.

- parquet.field-ids (must): "Column IDs are required to be stored as field IDs on the parquet
  schema." Every node that is an Iceberg field (struct fields, list elements, map keys and values)
  carries its id. A file with no field id at all is accepted in a table that has a name mapping
  (`schema.name-mapping.default`, "Column Projection": the mapping gives "fallback field ids to be
  used when a data file does not contain field id information"), and reported otherwise.
- parquet.list-3-level (must): "Lists must use the 3-level representation."
- parquet.decimal-fixed-size (must): a DECIMAL(P,S) stored as a FIXED_LEN_BYTE_ARRAY "must use the
  minimum number of bytes that can store P".
- parquet.type-mapping (a should: "Values should be stored in Parquet using the types and logical
  type annotations in the table below."): each column holds the physical type and logical
  annotation of the table's row for its field's type (decimal by precision: int32 for P <= 9,
  int64 for P <= 18, fixed otherwise; time and timestamps in micro- or nanoseconds with their UTC
  adjustment; string as UTF8 binary; uuid as fixed_len_byte_array[16] UUID; maps as MAP). A column
  may hold a type the field had in an earlier schema or one that promotes to it (Schema
  Evolution). Breaking it is reported apart from the violations: a recommendation, not a must
  (the rule's strength is should: `spec_impl.rules.split_recommendations`).

The schema is read with pyarrow (`spec_impl.datafiles.parquet_schema`); values are not read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from spec_impl.datafiles.parquet_schema import BARE_REPEATED, LIST, MAP, PRIMITIVE, STRUCT, THREE_LEVEL, Leaf, Node
from spec_impl.metadata.partitioning import Finding
from spec_impl.promotion import can_promote
from spec_impl.rules import SHOULD, Rule, implements, register
from spec_impl.types import (
    BINARY,
    BOOLEAN,
    DATE,
    DOUBLE,
    FLOAT,
    INT,
    LONG,
    STRING,
    TIME,
    TIMESTAMP,
    TIMESTAMP_NS,
    TIMESTAMPTZ,
    TIMESTAMPTZ_NS,
    UNKNOWN,
    UUID,
    VARIANT,
    DecimalType,
    FixedType,
    GeographyType,
    GeometryType,
    IcebergType,
    ListType,
    MapType,
    PrimitiveType,
    StructType,
)

_PARQUET = "Appendix A (Parquet)"
FIELD_IDS, LISTS, DECIMAL_SIZE, TYPE_MAPPING = (
    "parquet.field-ids",
    "parquet.list-3-level",
    "parquet.decimal-fixed-size",
    "parquet.type-mapping",
)
register(
    Rule(
        FIELD_IDS,
        _PARQUET,
        "Every Parquet node that is an Iceberg field (struct fields, list elements, map keys and values) stores "
        "its field id; a file without any field id only in a table with a name mapping (Column Projection)",
    ),
    Rule(LISTS, _PARQUET, "A list column uses the 3-level representation: a LIST group, a repeated group, the element"),
    Rule(
        DECIMAL_SIZE,
        _PARQUET,
        "A decimal(P,S) stored as fixed_len_byte_array uses the minimum number of bytes that can store P digits",
    ),
    Rule(
        TYPE_MAPPING,
        _PARQUET,
        "A recommendation (should): each column has the physical type and logical annotation of Appendix A's "
        "table for its field's type, or for a type the field had before or promotes from",
        strength=SHOULD,
    ),
)


_PLAIN = {"BOOLEAN": BOOLEAN, "FLOAT": FLOAT, "DOUBLE": DOUBLE, "INT32": INT, "INT64": LONG, "BYTE_ARRAY": BINARY}
_UNITS = {"microseconds": (TIMESTAMP, TIMESTAMPTZ), "nanoseconds": (TIMESTAMP_NS, TIMESTAMPTZ_NS)}
_DECIMAL_PHYSICAL = ((9, "INT32"), (18, "INT64"), (38, "FIXED_LEN_BYTE_ARRAY"))


@implements(TYPE_MAPPING)
def appendix_a_type(leaf: Leaf) -> PrimitiveType | None:
    """The Iceberg type whose row of Appendix A's Parquet table this column follows (physical type
    and logical annotation), or None when it follows none."""
    logical, physical = leaf.logical or {}, leaf.physical
    kind = logical.get("Type")
    if kind is None or (kind == "Int" and logical.get("isSigned") and physical == f"INT{logical.get('bitWidth')}"):
        if physical == "FIXED_LEN_BYTE_ARRAY":
            return FixedType(leaf.length) if leaf.length else None
        return _PLAIN.get(physical)
    if kind == "Decimal":
        p, s = int(logical["precision"]), int(logical["scale"])
        return DecimalType(p, s) if decimal_physical(p) == physical and 0 <= s <= p else None
    if kind == "Date" and physical == "INT32":
        return DATE
    if kind == "Time" and physical == "INT64" and logical.get("timeUnit") == "microseconds":
        return TIME if not logical.get("isAdjustedToUTC") else None
    if kind == "Timestamp" and physical == "INT64" and logical.get("timeUnit") in _UNITS:
        return _UNITS[logical["timeUnit"]][1 if logical.get("isAdjustedToUTC") else 0]
    if kind == "String" and physical == "BYTE_ARRAY":
        return STRING
    if kind == "UUID" and physical == "FIXED_LEN_BYTE_ARRAY" and leaf.length == 16:
        return UUID
    return None


def decimal_physical(precision: int) -> str | None:
    """Appendix A: "P <= 9: int32, P <= 18: int64, fixed otherwise" (None above 38)."""
    return next((physical for most, physical in _DECIMAL_PHYSICAL if precision <= most), None)


def appendix_a_form(t: IcebergType) -> str:
    """The physical type and annotation Appendix A's table gives `t`, as text for messages."""
    if isinstance(t, DecimalType):
        physical = decimal_physical(t.precision) or "?"
        width = f"[{min_decimal_bytes(t.precision)}]" if physical == "FIXED_LEN_BYTE_ARRAY" else ""
        return f"{physical.lower()}{width} DECIMAL({t.precision},{t.scale})"
    if isinstance(t, FixedType):
        return f"fixed_len_byte_array[{t.length}]"
    if isinstance(t, (StructType, ListType, MapType)):
        return {StructType: "a group", ListType: "a 3-level LIST group", MapType: "a 3-level MAP group"}[type(t)]
    forms = {
        "date": "int32 DATE",
        "time": "int64 TIME_MICROS with adjustToUtc=false",
        "timestamp": "int64 TIMESTAMP_MICROS with adjustToUtc=false",
        "timestamptz": "int64 TIMESTAMP_MICROS with adjustToUtc=true",
        "timestamp_ns": "int64 TIMESTAMP_NANOS with adjustToUtc=false",
        "timestamptz_ns": "int64 TIMESTAMP_NANOS with adjustToUtc=true",
        "string": "binary UTF8",
        "uuid": "fixed_len_byte_array[16] UUID",
        "int": "int32",
        "long": "int64",
        "binary": "binary",
    }
    name = getattr(t, "name", str(t))
    return forms.get(name, name)


@implements(DECIMAL_SIZE)
def min_decimal_bytes(precision: int) -> int:
    """The fewest bytes whose two's-complement range holds every unscaled value of P digits."""
    n = 1
    while 2 ** (8 * n - 1) - 1 < 10**precision - 1:
        n += 1
    return n


@implements(FIELD_IDS, LISTS, DECIMAL_SIZE, TYPE_MAPPING)
def check_parquet_schema(
    nodes: list[Node], field_types: Mapping[int, Iterable[IcebergType]], format_version: int, name_mapped: bool = False
) -> list[Finding]:
    """What is wrong with a Parquet file's schema (`parquet_schema.read_schema`) in a table whose
    fields have the types `field_types` (field id -> every type the field had in the table's
    schemas). Each finding's value is the column's dotted name path."""
    nodes = _without_unmapped(nodes, field_types)
    found = _field_id_findings(nodes, name_mapped)
    for node in _all(nodes):
        found += _node_findings(node, tuple(field_types.get(node.field_id, ())), format_version)
    return found


def _unmapped(t: IcebergType) -> bool:
    """Types this rule family has no Parquet form for: variant (a group whose sub-fields carry no
    field ids, shredding allowed), geometry and geography (adopted v3), unknown (never stored)."""
    return t in (VARIANT, UNKNOWN) or isinstance(t, (GeometryType, GeographyType))


def _without_unmapped(nodes, field_types: Mapping[int, Iterable[IcebergType]]) -> list[Node]:
    """The nodes, those of fields with an unmapped type left out (their columns are not checked)."""
    kept = []
    for n in nodes:
        if any(_unmapped(t) for t in field_types.get(n.field_id, ())):
            continue
        kept.append(dataclasses.replace(n, children=tuple(_without_unmapped(n.children, field_types))))
    return kept


@implements(FIELD_IDS)
def _field_id_findings(nodes: list[Node], name_mapped: bool) -> list[Finding]:
    fields = [n for n in _all(nodes, with_bare_elements=False)]
    missing = [n for n in fields if n.field_id is None]
    if not missing:
        return []
    if len(missing) == len(fields):
        if name_mapped:
            return []  # read through the table's name mapping (Column Projection)
        return [Finding(FIELD_IDS, "the file has no field ids and the table has no name mapping", None)]
    return [Finding(FIELD_IDS, f"column {n.path} has no field id", n.path) for n in missing]


def _node_findings(node: Node, types: tuple[IcebergType, ...], format_version: int) -> list[Finding]:
    where = f"column {node.path} (id {node.field_id})"
    found = []
    if node.kind == LIST and node.levels != THREE_LEVEL:
        how = {
            2: "a 2-level list (the repeated field is the element)",
            BARE_REPEATED: "a repeated field without a LIST group",
        }
        found.append(Finding(LISTS, f"{where} is {how.get(node.levels, 'not a 3-level list')}", node.path))
    if node.kind == PRIMITIVE and node.leaf is not None:
        logical = node.leaf.logical or {}
        if logical.get("Type") == "Decimal" and node.leaf.physical == "FIXED_LEN_BYTE_ARRAY":
            need = min_decimal_bytes(int(logical["precision"]))
            if node.leaf.length != need:
                found.append(
                    Finding(
                        DECIMAL_SIZE,
                        f"{where}: DECIMAL(precision={logical['precision']}) in fixed_len_byte_array"
                        f"[{node.leaf.length}], where the minimum is {need} bytes",
                        node.path,
                    )
                )
    if types and not _follows_table(node, types, format_version):
        expected = " or ".join(dict.fromkeys(f"{appendix_a_form(t)} ({t})" for t in types))
        found.append(Finding(TYPE_MAPPING, f"{where} is {_describe(node)}; Appendix A: {expected}", node.path))
    return found


@implements(TYPE_MAPPING)
def _follows_table(node: Node, types: tuple[IcebergType, ...], format_version: int) -> bool:
    if node.kind == STRUCT:
        return any(isinstance(t, StructType) for t in types)
    if node.kind == LIST:
        return any(isinstance(t, ListType) for t in types)
    if node.kind == MAP:
        return any(isinstance(t, MapType) for t in types)
    if node.leaf is None:
        return True
    actual = appendix_a_type(node.leaf)
    if actual is None:
        return False
    return any(actual == t or _promotes(actual, t, format_version) for t in types)


def _promotes(source: PrimitiveType, target: IcebergType, format_version: int) -> bool:
    try:
        return can_promote(source, target, format_version)
    except Exception:  # noqa: BLE001  (a type pair the promotion rules do not cover)
        return False


def _describe(node: Node) -> str:
    if node.kind != PRIMITIVE:
        return {STRUCT: "a group", LIST: "a list", MAP: "a MAP group"}[node.kind]
    return node.leaf.describe() if node.leaf is not None else "a column pyarrow cannot describe"


def _all(nodes, with_bare_elements: bool = True):
    """Every node, depth first; without the element of a bare repeated list (the list's own node)."""
    for n in nodes:
        yield n
        children = n.children
        if not with_bare_elements and n.kind == LIST and n.levels == BARE_REPEATED:
            children = ()
        yield from _all(children, with_bare_elements)
