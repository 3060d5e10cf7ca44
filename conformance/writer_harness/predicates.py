"""Generated predicates: their Spark SQL text and their truth on a model row, with SQL's semantics.

A predicate is a JSON object: `{"column": c, "op": op, "value": v}` with op one of `=`, `<`, `>=`,
`is-null`, `not-null`; or `{"op": "id-mod", "mod": m, "rest": r}` (`id % m = r`); or
`{"op": "and"|"or", "args": [...]}`, `{"op": "not", "arg": ...}`. Values are in the scenario JSON
form of the column's type (`values.to_json`).

Truth follows Spark SQL: a comparison with NULL is unknown and matches nothing (NOT unknown is
unknown too); floating-point NaN equals NaN and is greater than every other value; -0.0 equals 0.0.
"""

from __future__ import annotations

import math
from typing import Any

from . import values


def sql(pred: dict, types: dict[str, str], table: str = "") -> str:
    """The predicate as Spark SQL over the table's current column names (qualified by `table`)."""
    op = pred["op"]
    prefix = f"{table}." if table else ""
    if op == "id-mod":
        return f"pmod({prefix}id, {pred['mod']}) = {pred['rest']}"
    if op in ("and", "or"):
        return "(" + f" {op.upper()} ".join(sql(a, types, table) for a in pred["args"]) + ")"
    if op == "not":
        return f"(NOT {sql(pred['arg'], types, table)})"
    column = prefix + quote(pred["column"])
    if op == "is-null":
        return f"{column} IS NULL"
    if op == "not-null":
        return f"{column} IS NOT NULL"
    t = types[pred["column"]]
    return f"{column} {op} {literal(t, values.from_json(t, pred['value']))}"


def quote(name: str) -> str:
    return f"`{name}`"


def literal(t: str, v: Any) -> str:
    """A Spark SQL literal of type `t` (NULL typed by a cast)."""
    k = values.kind(t)
    if v is None:
        return f"CAST(NULL AS {t})"
    if k == "boolean":
        return "true" if v else "false"
    if k in ("int", "bigint"):
        return f"CAST({v} AS {t})"
    if k in ("float", "double"):
        return f"CAST('{values.float_text(v, 'NaN', 'Infinity')}' AS {t.upper()})"
    if k == "decimal":
        return f"CAST('{v}' AS {t})"
    if k in ("date", "timestamp", "timestamp_ntz"):
        return from_wire(t, str(v))
    if k == "string":
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if k == "binary":
        return f"X'{v.hex()}'"
    if k == "struct":
        fields = ", ".join(f"'{name}', {literal(ft, v.get(name))}" for name, ft in values.struct_fields(t))
        return f"CAST(named_struct({fields}) AS {t})"
    if k == "array":
        return f"CAST(array({', '.join(literal(values.element_type(t), x) for x in v)}) AS {t})"
    if k == "map":
        kt, vt = values.map_types(t)
        keys, vals = ", ".join(literal(kt, x) for x in v), ", ".join(literal(vt, x) for x in v.values())
        return f"CAST(map_from_arrays(array({keys}), array({vals})) AS {t})"
    raise values.ValueError_(f"no SQL literal for a {t} value")


def from_wire(t: str, expr: str) -> str:
    """SQL turning a day count (date) or microseconds from the epoch (timestamps) into the type;
    other types travel as they are. The session time zone is UTC."""
    k = values.kind(t)
    if k == "date":
        return f"date_from_unix_date({expr})"
    if k == "timestamp":
        return f"timestamp_micros({expr})"
    if k == "timestamp_ntz":
        return f"CAST(timestamp_micros({expr}) AS timestamp_ntz)"
    return expr


def exact(pred: dict, types: dict[str, str], ids: set[int], build: Any, want: bool = True) -> Any:
    """The predicate in another writer's language (`build`, below), true exactly where its SQL truth
    is `want` and never unknown: comparisons guarded by not-null (SQL's unknown deletes nothing),
    NOT pushed down to the leaves, NaN spelled out in Spark's order (NaN equals NaN and is above
    every value), `id % m = r` as the ids of `ids` it selects. So the other writer's own handling
    of nulls and NaN in a filter does not decide which rows a step touches.

    `build` has: `false()`, `all(parts)`, `any(parts)`, `is_in(column, ids)`, `is_null(column)`,
    `not_null(column)`, `is_nan(column)`, `not_nan(column)` and `compare(column, type, op, value)`
    for op `=`, `<>`, `<`, `>=` on a non-null value that is not NaN."""
    op = pred["op"]
    if op == "id-mod":
        chosen = sorted(i for i in ids if (i % pred["mod"] == pred["rest"]) == want)
        return build.is_in("id", chosen) if chosen else build.false()
    if op in ("and", "or"):
        parts = [exact(a, types, ids, build, want) for a in pred["args"]]
        return build.all(parts) if (op == "and") == want else build.any(parts)
    if op == "not":
        return exact(pred["arg"], types, ids, build, not want)
    column = pred["column"]
    if op in ("is-null", "not-null"):
        return build.is_null(column) if (op == "is-null") == want else build.not_null(column)
    t = types[column]
    v = values.from_json(t, pred["value"])
    if not want:  # NOT (c = v) is c <> v, NOT (c < v) is c >= v, NOT (c >= v) is c < v: for a non-null c
        op = {"=": "<>", "<": ">=", ">=": "<"}[op]
    return build.all([build.not_null(column), _ordered(build, column, t, op, v)])


def _ordered(build: Any, column: str, t: str, op: str, v: Any) -> Any:
    """`column op v` for a non-null column, in Spark's order: NaN equals NaN and is above every value."""
    if values.kind(t) in ("float", "double") and math.isnan(v):
        return {"=": build.is_nan, "<>": build.not_nan, "<": build.not_nan, ">=": build.is_nan}[op](column)
    if values.kind(t) in ("float", "double") and op in (">=", "<>"):  # NaN is >= and <> every other value
        return build.any([build.compare(column, t, op, v), build.is_nan(column)])
    return build.compare(column, t, op, v)


class SqlConditions:
    """SQL boolean expressions, as `exact` builds them; a dialect sets its spellings and its
    `quote` (a column name) and `literal` (a model value of a type)."""

    FALSE, NOT_EQUAL = "FALSE", "<>"
    IS_NULL, NOT_NULL, IS_NAN = "{c} IS NULL", "{c} IS NOT NULL", "isnan({c})"

    def quote(self, column: str) -> str:
        raise NotImplementedError

    def literal(self, t: str, v: Any) -> str:
        raise NotImplementedError

    def false(self) -> str:
        return self.FALSE

    def all(self, parts: list[str]) -> str:
        return "(" + " AND ".join(parts) + ")"

    def any(self, parts: list[str]) -> str:
        return "(" + " OR ".join(parts) + ")"

    def is_in(self, column: str, ids: list[int]) -> str:
        return f"{self.quote(column)} IN ({', '.join(map(str, ids))})"

    def is_null(self, column: str) -> str:
        return self.IS_NULL.format(c=self.quote(column))

    def not_null(self, column: str) -> str:
        return self.NOT_NULL.format(c=self.quote(column))

    def is_nan(self, column: str) -> str:
        return self.IS_NAN.format(c=self.quote(column))

    def not_nan(self, column: str) -> str:
        return f"NOT {self.is_nan(column)}"

    def compare(self, column: str, t: str, op: str, v: Any) -> str:
        return f"{self.quote(column)} {self.NOT_EQUAL if op == '<>' else op} {self.literal(t, v)}"


def holds(pred: dict, row: dict[str, Any], types: dict[str, str]) -> bool:
    """Whether the row matches (SQL's unknown counts as no)."""
    return _truth(pred, row, types) is True


def _truth(pred: dict, row: dict[str, Any], types: dict[str, str]) -> bool | None:
    op = pred["op"]
    if op == "id-mod":
        return row["id"] % pred["mod"] == pred["rest"]
    if op == "and":
        parts = [_truth(a, row, types) for a in pred["args"]]
        return False if False in parts else (None if None in parts else True)
    if op == "or":
        parts = [_truth(a, row, types) for a in pred["args"]]
        return True if True in parts else (None if None in parts else False)
    if op == "not":
        inner = _truth(pred["arg"], row, types)
        return None if inner is None else not inner
    v = row[pred["column"]]
    if op == "is-null":
        return v is None
    if op == "not-null":
        return v is not None
    t = types[pred["column"]]
    lit = values.from_json(t, pred["value"])
    if v is None or lit is None:
        return None
    a, b = _order_key(t, v), _order_key(t, lit)
    return {"=": a == b, "<": a < b, ">=": a >= b}[op]


def _order_key(t: str, v: Any) -> Any:
    """Spark's order of a value: NaN above everything, -0.0 equal to 0.0; strings by code point,
    which is the order of their UTF-8 bytes."""
    if values.kind(t) in ("float", "double"):
        return (1, 0.0) if math.isnan(v) else (0, v + 0.0)
    return v
