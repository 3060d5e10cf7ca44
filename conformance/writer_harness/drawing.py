"""The building blocks of generated histories (`strategies`, and each step's arguments in `steps`):
values of every column type, the shape a history has reached, partition fields, rows, predicates.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from . import values


TRANSFORMS: dict[str, tuple[str, ...]] = {  # transform -> the source kinds it accepts (spec "Partition Transforms")
    "identity": ("boolean", "int", "bigint", "decimal", "date", "timestamp", "timestamp_ntz", "string", "binary"),
    "bucket": ("int", "bigint", "decimal", "date", "timestamp", "timestamp_ntz", "string", "binary"),
    "truncate": ("int", "bigint", "decimal", "string", "binary"),
    "year": ("date", "timestamp", "timestamp_ntz"),
    "month": ("date", "timestamp", "timestamp_ntz"),
    "day": ("date", "timestamp", "timestamp_ntz"),
    "hour": ("timestamp", "timestamp_ntz"),
}
METRICS = ("none", "counts", "truncate(4)", "truncate(16)", "full")
TEXT = "ab-xyzé中😀 "


# --- values --------------------------------------------------------------------------------------


def decimal_types() -> st.SearchStrategy[str]:
    return st.integers(1, 38).flatmap(
        lambda p: st.sampled_from(sorted({0, p // 2, p})).map(lambda s: f"decimal({p},{s})")
    )


def _decimals(p: int, s: int) -> st.SearchStrategy[Decimal]:
    top = 10**p - 1
    edges = [
        u
        for k in range(1, 17)
        for u in (2 ** (8 * k - 1) - 1, 2 ** (8 * k - 1), -(2 ** (8 * k - 1)), -(2 ** (8 * k - 1)) - 1)
        if abs(u) <= top
    ]
    unscaled = st.one_of(st.sampled_from([0, 1, -1, top, -top, *edges]), st.integers(-top, top))
    return unscaled.map(lambda u: Decimal(u).scaleb(-s, values.DECIMALS))


def column_values(t: str) -> st.SearchStrategy[Any]:
    """Values of a column type, in the model form, with nulls."""
    k = values.kind(t)
    special = {
        "float": [float("nan"), float("inf"), float("-inf"), 0.0, -0.0],
        "double": [float("nan"), float("inf"), float("-inf"), 0.0, -0.0],
    }
    if k == "boolean":
        base: st.SearchStrategy = st.booleans()
    elif k == "int":
        base = st.one_of(st.sampled_from([0, -1, 2**31 - 1, -(2**31)]), st.integers(-(2**31), 2**31 - 1))
    elif k == "bigint":
        base = st.one_of(st.sampled_from([0, -1, 2**63 - 1, -(2**63)]), st.integers(-(2**63), 2**63 - 1))
    elif k == "float":
        base = st.one_of(st.sampled_from(special["float"]), st.floats(width=32))
    elif k == "double":
        base = st.one_of(st.sampled_from(special["double"]), st.floats())
    elif k == "decimal":
        base = _decimals(*values.decimal_of(t))
    elif k == "date":
        base = st.one_of(
            st.sampled_from([values.MIN_DAY, values.MAX_DAY, -1, 0]), st.integers(values.MIN_DAY, values.MAX_DAY)
        )
    elif k in ("timestamp", "timestamp_ntz"):
        base = st.one_of(
            st.sampled_from([values.MIN_MICROS, values.MAX_MICROS, -1, 0, -86_400_000_001]),
            st.integers(values.MIN_MICROS, values.MAX_MICROS),
        )
    elif k == "string":
        base = st.one_of(st.just(""), st.text(TEXT, max_size=24))
    elif k == "binary":
        base = st.one_of(st.just(b""), st.binary(max_size=24))
    elif k == "struct":
        base = st.fixed_dictionaries({name: column_values(ft) for name, ft in values.struct_fields(t)})
    elif k == "array":
        base = st.lists(column_values(values.element_type(t)), max_size=3)
    else:
        kt, vt = values.map_types(t)
        base = st.dictionaries(st.text(TEXT, max_size=4), column_values(vt), max_size=3)
    return st.one_of(st.none(), base)


def column_types(writer: Any, added: bool = False) -> st.SearchStrategy[str]:
    """The types of a table's columns (`added`: of a column added later) that the writer class writes."""
    primitives = st.sampled_from([t for t in values.PRIMITIVES if t not in writer.unwritten_types])
    if writer.nested_columns and (writer.adds_nested_columns or not added):
        return st.one_of(primitives, decimal_types(), st.sampled_from(values.NESTED))
    return st.one_of(primitives, decimal_types())


def write_modes(format_version: int) -> st.SearchStrategy[str]:
    """Merge-on-read writes delete files, which v1 does not have."""
    return st.sampled_from(["copy-on-write", "merge-on-read"] if format_version >= 2 else ["copy-on-write"])


# --- the shape a history has reached ----------------------------------------------------------------


class Shape:
    """What the generator knows of the table after the steps drawn so far."""

    def __init__(self, format_version: int, columns: list[tuple[str, str]], partition: list[dict]):
        self.format_version = format_version
        self.columns = list(columns)  # (name, type), id first
        self.partition = list(partition)
        self.voids: list[dict] = []  # fields dropped in v1, kept as void transforms of their source
        self.branches: list[str] = []
        self.tags: list[str] = []
        self.next_id = 0
        self.names = 0  # counter for new column, field and ref names
        self.snapshots = 0

    def new_name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def types(self) -> dict[str, str]:
        return dict(self.columns)


def partition_field(
    draw: Any, shape_columns: list[tuple[str, str]], taken: list[dict], name: str | None, writer: Any
) -> dict | None:
    """A new partition field, on a column no field of `taken` partitions by the same family of
    transforms (by any, for a writer class with `one_field_per_column`)."""
    once = writer.one_field_per_column
    options = [
        (n, t, tr)
        for n, t in shape_columns
        if n != "id"
        for tr, kinds in TRANSFORMS.items()
        if values.kind(t) in kinds
        and not any(f["column"] == n and (once or _family(f["transform"]) == _family(tr)) for f in taken)
    ]
    if not options:
        return None
    column, _, transform = draw(st.sampled_from(options))
    f = {"transform": transform, "column": column, "name": name or default_field_name(transform, column)}
    if transform == "bucket":
        f["param"] = draw(st.sampled_from([1, 2, 4, 16, 1000]))
    elif transform == "truncate":
        f["param"] = draw(st.sampled_from([1, 2, 3, 5, 10]))
    return f


def voids(shape: Shape, writer: Any) -> list[dict]:
    """The void fields that still hold a source column, for a writer that partitions a column once."""
    return shape.voids if writer.one_field_per_column else []


def _family(transform: str) -> str:
    """Iceberg refuses two time transforms of one column in a spec ("redundant partition")."""
    return "time" if transform in ("year", "month", "day", "hour") else transform


def default_field_name(transform: str, column: str) -> str:
    """The name Iceberg's Spark DDL gives a partition field created in PARTITIONED BY."""
    return column if transform == "identity" else f"{column}_{ {'truncate': 'trunc'}.get(transform, transform) }"


def _record(draw: Any, shape: Shape, row_id: int) -> dict:
    return {n: (row_id if n == "id" else values.to_json(t, draw(column_values(t)))) for n, t in shape.columns}


def records(draw: Any, shape: Shape, max_size: int = 6, reuse: bool = False) -> list[dict]:
    n = draw(st.integers(1, max_size))
    ids = []
    for _ in range(n):
        if reuse and shape.next_id and draw(st.booleans()):
            i = draw(st.integers(0, shape.next_id - 1))
            if i in ids:
                continue
        else:
            i, shape.next_id = shape.next_id, shape.next_id + 1
        ids.append(i)
    return [_record(draw, shape, i) for i in ids]


def predicate(draw: Any, shape: Shape, depth: int = 0) -> dict:
    choices = ["id-mod", "compare", "null"] + (["and", "or", "not"] if depth < 2 else [])
    kind = draw(st.sampled_from(choices))
    if kind == "id-mod":
        m = draw(st.integers(1, 5))
        return {"op": "id-mod", "mod": m, "rest": draw(st.integers(0, m - 1))}
    if kind in ("and", "or"):
        return {"op": kind, "args": [predicate(draw, shape, depth + 1) for _ in range(2)]}
    if kind == "not":
        return {"op": "not", "arg": predicate(draw, shape, depth + 1)}
    comparable = [(n, t) for n, t in shape.columns if values.kind(t) not in ("struct", "array", "map", "binary")]
    name, t = draw(st.sampled_from(comparable if kind == "compare" else shape.columns))
    if kind == "null":
        return {"op": draw(st.sampled_from(["is-null", "not-null"])), "column": name}
    value = draw(column_values(t).filter(lambda v: v is not None))
    return {"op": draw(st.sampled_from(["=", "<", ">="])), "column": name, "value": values.to_json(t, value)}


def branch(draw: Any, shape: Shape) -> str | None:
    return draw(st.sampled_from([None, *shape.branches])) if shape.branches else None


WIDENINGS = {"int": "bigint", "float": "double"}


def delete_columns(shape: Shape) -> list[str]:
    """Columns an equality delete can use: primitive ones, but no float or double ("Equality Delete
    Files": "Float and double columns cannot be used as delete columns")."""
    return [n for n, t in shape.columns if values.kind(t) not in ("float", "double", "struct", "array", "map")]
