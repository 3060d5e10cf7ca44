"""Spark's side of check 1 and of the Spark writer: rows in *wire* form (dates as day counts,
timestamps as microseconds, converted by SQL: `date_from_unix_date`, `timestamp_micros`, `unix_date`,
`unix_micros`), so that no Python time zone or calendar conversion touches a value; reading a
table's snapshot, branch or tag through Iceberg Java; and a py4j error as the Java exception.
"""

from __future__ import annotations

from typing import Any

from . import predicates, values
from .predicates import quote


def spark_type(t: str) -> Any:
    """The PySpark type of a column in wire form."""
    from pyspark.sql import types as T

    k = values.kind(t)
    simple = {
        "boolean": T.BooleanType(),
        "int": T.IntegerType(),
        "bigint": T.LongType(),
        "float": T.FloatType(),
        "double": T.DoubleType(),
        "date": T.IntegerType(),
        "timestamp": T.LongType(),
        "timestamp_ntz": T.LongType(),
        "string": T.StringType(),
        "binary": T.BinaryType(),
    }
    if k in simple:
        return simple[k]
    if k == "decimal":
        return T.DecimalType(*values.decimal_of(t))
    if k == "struct":
        return T.StructType([T.StructField(n, spark_type(ft)) for n, ft in values.struct_fields(t)])
    if k == "array":
        return T.ArrayType(spark_type(values.element_type(t)))
    kt, vt = values.map_types(t)
    return T.MapType(spark_type(kt), spark_type(vt))


def wire_value(t: str, v: Any) -> Any:
    if v is None:
        return None
    k = values.kind(t)
    if k == "struct":
        return tuple(wire_value(ft, v.get(n)) for n, ft in values.struct_fields(t))
    if k == "array":
        return [wire_value(values.element_type(t), x) for x in v]
    if k == "map":
        kt, vt = values.map_types(t)
        return {wire_value(kt, a): wire_value(vt, b) for a, b in v.items()}
    return v


def from_wire_sql(t: str, column: str) -> str:
    c = quote(column)
    converted = predicates.from_wire(t, c)
    return c if converted == c else f"{converted} AS {c}"


def to_wire_column(field: Any) -> Any:
    """A column of a Spark DataFrame converted to wire form, by its Spark type."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    c = F.col(quote(field.name))
    if isinstance(field.dataType, T.DateType):
        return F.unix_date(c).alias(field.name)
    if isinstance(field.dataType, T.TimestampNTZType):
        return F.unix_micros(c.cast("timestamp")).alias(field.name)
    if isinstance(field.dataType, T.TimestampType):
        return F.unix_micros(c).alias(field.name)
    return c


def read_rows(
    spark: Any,
    target: str,
    snapshot_id: int | None = None,
    branch: str | None = None,
    tag: str | None = None,
    lineage: bool = False,
) -> tuple[list[str], list[dict[str, Any]]]:
    """Spark's columns and rows (wire form) of a table, by catalog name or metadata file path."""
    reader = spark.read.format("iceberg")
    for key, value in (("snapshot-id", snapshot_id), ("branch", branch), ("tag", tag)):
        if value is not None:
            reader = reader.option(key, str(value))
    frame = reader.load(target)
    names = frame.schema.fieldNames()
    columns = [to_wire_column(f) for f in frame.schema.fields]
    if lineage:
        columns += ["_row_id", "_last_updated_sequence_number"]
    rows = [r.asDict() for r in frame.select(*columns).collect()]
    return names, rows


def java_error(e: BaseException) -> str | None:
    """A py4j error as the Java exception and its root cause (the Python side only says which call failed)."""
    java = getattr(e, "java_exception", None)
    if java is None:
        return None
    try:
        top, root = str(java.toString()), java
        while root.getCause() is not None and root.getCause() != root:
            root = root.getCause()
        cause = str(root.toString())
        return top if cause == top else f"{top.splitlines()[0]} (root cause: {cause.splitlines()[0]})"
    except Exception:  # the JVM is gone
        return None
