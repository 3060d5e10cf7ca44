"""The physical schema of a Parquet file as Appendix A speaks of it: one node per Iceberg field
(struct fields, list elements, map keys and values), with its Parquet field id, its physical type
and logical annotation (primitives) and, for a list, how many levels represent it.

Read with pyarrow only: the Arrow schema pyarrow derives from the file gives the nesting and the
field ids (b"PARQUET:field_id" on every Arrow field, list elements and map keys and values
included); the file's leaf columns (`ParquetSchema.column(i)`, in the same depth-first order as the
Arrow leaves) give each primitive's physical type, logical type, length, precision and scale, and
its dotted path of Parquet node names. A list's representation is read from that path: below the
list's group, a 3-level list has a repeated group and then the element ("tags.list.element"), a
2-level list has the repeated element itself ("tags.array"), and a bare repeated field with no
LIST group is its own element ("tags").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

FIELD_ID_KEY = b"PARQUET:field_id"
PRIMITIVE, STRUCT, LIST, MAP = "primitive", "struct", "list", "map"
THREE_LEVEL, TWO_LEVEL, BARE_REPEATED = 3, 2, 1


@dataclass(frozen=True)
class Leaf:
    """A primitive column's Parquet type: physical type, logical annotation (its pyarrow JSON form,
    None for none), byte length of a FIXED_LEN_BYTE_ARRAY (else None), DECIMAL precision and scale."""

    physical: str
    logical: dict[str, Any] | None
    length: int | None = None

    def describe(self) -> str:
        width = f"[{self.length}]" if self.physical == "FIXED_LEN_BYTE_ARRAY" else ""
        annotation = "" if self.logical is None else " " + _logical_text(self.logical)
        return f"{self.physical.lower()}{width}{annotation}"


@dataclass(frozen=True)
class Node:
    """A Parquet node that is an Iceberg field: its dotted name path (for messages), field id (None
    when the file has none), kind, and for a primitive its `Leaf`, for a list its levels
    (THREE_LEVEL, TWO_LEVEL, BARE_REPEATED, None when the path cannot tell)."""

    path: str
    field_id: int | None
    kind: str
    leaf: Leaf | None = None
    levels: int | None = None
    children: tuple[Node, ...] = field(default_factory=tuple)  # struct fields; list element; map key, value


def read_schema(data: bytes | pq.ParquetFile) -> list[Node]:
    """The top-level nodes of a Parquet file's schema, from its bytes or the file already opened
    (raises what pyarrow raises on a file it cannot read)."""
    f = data if isinstance(data, pq.ParquetFile) else pq.ParquetFile(pa.BufferReader(data))
    columns = f.metadata.schema
    leaves = [columns.column(i) for i in range(len(columns))]
    cursor = _Cursor(leaves)
    return [_node(a_field, a_field.name, a_field.name, cursor) for a_field in f.schema_arrow]


class _Cursor:
    def __init__(self, leaves: list):
        self.leaves, self.next = leaves, 0

    def peek(self) -> Any:
        return self.leaves[self.next] if self.next < len(self.leaves) else None

    def take(self) -> Any:
        leaf = self.peek()
        self.next += 1
        return leaf


def _node(a_field: pa.Field, name_path: str, parquet_path: str, cursor: _Cursor) -> Node:
    """The node of one Arrow field whose Parquet node has the dotted path `parquet_path`."""
    t = a_field.type
    fid = _field_id(a_field)
    if pa.types.is_struct(t):
        children = tuple(
            _node(t.field(i), f"{name_path}.{t.field(i).name}", f"{parquet_path}.{t.field(i).name}", cursor)
            for i in range(t.num_fields)
        )
        return Node(name_path, fid, STRUCT, children=children)
    if pa.types.is_map(t):
        first = cursor.peek()
        found = _first_match(r"\.([^.]+)\." + _element_pattern(t.key_field), parquet_path, first)
        entries = f"{parquet_path}.{found.group(1)}" if found else f"{parquet_path}.key_value"
        key = _node(t.key_field, f"{name_path}.key", f"{entries}.{t.key_field.name}", cursor)
        value = _node(t.item_field, f"{name_path}.value", f"{entries}.{t.item_field.name}", cursor)
        return Node(name_path, fid, MAP, children=(key, value))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        levels, element_path = _list_levels(t.value_field, parquet_path, cursor.peek())
        element = _node(t.value_field, f"{name_path}.element", element_path, cursor)
        return Node(name_path, fid, LIST, levels=levels, children=(element,))
    column = cursor.take()
    logical = json.loads(column.logical_type.to_json()) if column is not None else None
    if logical is not None and logical.get("Type") == "None":
        logical = None
    length = column.length if column is not None and column.physical_type == "FIXED_LEN_BYTE_ARRAY" else None
    leaf = Leaf(column.physical_type, logical, length) if column is not None else None
    return Node(name_path, fid, PRIMITIVE, leaf=leaf)


def _list_levels(element: pa.Field, list_path: str, first_leaf: Any) -> tuple[int | None, str]:
    """How a list whose group is at `list_path` is represented, read from the path of its first
    leaf column, and the Parquet path of its element node."""
    pattern = _element_pattern(element)
    three = _first_match(r"\.([^.]+)\." + pattern, list_path, first_leaf)
    if three:
        return THREE_LEVEL, f"{list_path}.{three.group(1)}.{element.name}"
    if _first_match(r"\." + pattern, list_path, first_leaf):
        return TWO_LEVEL, f"{list_path}.{element.name}"
    if _first_match(_tail_pattern(element.type), list_path, first_leaf):
        return BARE_REPEATED, list_path
    return None, f"{list_path}.list.{element.name}"


def _first_match(pattern: str, prefix: str, leaf: Any) -> re.Match | None:
    if leaf is None or not leaf.path.startswith(prefix):
        return None
    return re.fullmatch(pattern, leaf.path[len(prefix) :])


def _element_pattern(a_field: pa.Field) -> str:
    """A regular expression of the dotted path from a node named like `a_field` down to its first
    leaf, whatever the representation of the lists on the way."""
    return re.escape(a_field.name) + _tail_pattern(a_field.type)


def _tail_pattern(t: pa.DataType) -> str:
    if pa.types.is_struct(t):
        return r"\." + _element_pattern(t.field(0)) if t.num_fields else ""
    if pa.types.is_map(t):
        return r"\.[^.]+\." + _element_pattern(t.key_field)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return r"(?:(?:\.[^.]+)?\." + re.escape(t.value_field.name) + ")?" + _tail_pattern(t.value_field.type)
    return ""


def _field_id(a_field: pa.Field) -> int | None:
    raw = (a_field.metadata or {}).get(FIELD_ID_KEY)
    try:
        return None if raw is None else int(raw)
    except ValueError:
        return None


def _logical_text(logical: dict[str, Any]) -> str:
    kind = logical.get("Type", "?")
    details = {
        k: v for k, v in logical.items() if k not in ("Type", "is_from_converted_type", "force_set_converted_type")
    }
    inner = ", ".join(f"{k}={json.dumps(v)}" for k, v in details.items())
    return f"{kind.upper()}({inner})" if inner else kind.upper()


def walk(nodes: list[Node] | tuple[Node, ...]):
    """Every node, depth first."""
    for n in nodes:
        yield n
        yield from walk(n.children)
