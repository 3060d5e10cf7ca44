"""Each step of a history as Iceberg Java executes it through PySpark (SQL, the `CALL` procedures,
and for v3 column defaults the Java API, which Spark SQL cannot reach).

Rows reach Spark as a DataFrame in a *wire* form (`spark_wire`), so no Python time zone or calendar
conversion touches a value; rows come back the same way. The session time zone is UTC.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from pathlib import Path
from typing import Any

from .. import predicates, values
from ..predicates import quote
from ..spark_wire import from_wire_sql, java_error, read_rows, spark_type, wire_value
from ..writer_base import Writer

CATALOG = "local"
REFUSALS = (
    "AnalysisException",
    "ValidationException",
    "IllegalArgumentException",
    "UnsupportedOperationException",
    "ParseException",
)


class SparkTable(Writer):
    """One table of a history in the session's Hadoop catalog `local` (`<warehouse>/db/<name>`),
    written by Iceberg Java through Spark: every step of the interface (`writer_base`)."""

    kind, label, crash_check = "spark", "Iceberg Java", "spark-crash"
    versions = (1, 2, 3)
    replaces_field_in_place = True  # REPLACE PARTITION FIELD

    @classmethod
    def describe(cls) -> str:
        from importlib import metadata

        return f"Iceberg Java 1.10.2 through Spark {metadata.version('pyspark')}"

    def __init__(self, spark: Any, warehouse: Path, name: str):
        self.spark, self.name = spark, name
        self.ident = f"{CATALOG}.db.{name}"
        self.directory = Path(warehouse) / "db" / name

    def classify(self, e: BaseException) -> tuple[str, str]:
        """A Spark or Iceberg Java validation error (`AnalysisException`, Iceberg's
        `ValidationException`, `IllegalArgumentException`, `UnsupportedOperationException`) is a
        refusal, any other of their exceptions a crash; one of no py4j or pyspark module is the
        harness's own. The outermost Java exception class decides, not one it wraps."""
        text = java_error(e) or f"{type(e).__name__}: {e}"
        if not type(e).__module__.startswith(("pyspark", "py4j")):
            return "harness", text
        top = text.split(":", 1)[0].strip().rsplit(".", 1)[-1]
        return ("refused" if top in REFUSALS else "crash"), text

    def copy_on_write(self, op: str, properties: dict[str, str]) -> bool:
        """A delete, update or merge rewrites the data files it touches in v1 and in copy-on-write mode."""
        return (
            properties.get("format-version") == "1"
            or properties.get(f"write.{op}.mode", "copy-on-write") == "copy-on-write"
        )

    # --- metadata ---------------------------------------------------------------------------
    @property
    def metadata_path(self) -> Path:
        version = (self.directory / "metadata" / "version-hint.text").read_text().strip()
        return self.directory / "metadata" / f"v{version}.metadata.json"

    @property
    def metadata_location(self) -> str:
        return "file:" + str(self.metadata_path)

    def metadata(self) -> dict:
        return json.loads(self.metadata_path.read_text())

    # --- writing ------------------------------------------------------------------------------
    def sql(self, text: str) -> Any:
        return self.spark.sql(text)

    def create(self, table: dict) -> None:
        columns = ", ".join(
            f"{quote(c['name'])} {c['type']}{' NOT NULL' if c['name'] == 'id' else ''}" for c in table["columns"]
        )
        partition = ", ".join(partition_sql(f) for f in table["partition"])
        props = ", ".join(f"'{k}' = '{v}'" for k, v in table["properties"].items())
        self.spark.conf.set("spark.sql.shuffle.partitions", str(table["spark"]["shuffle-partitions"]))
        self.tasks = table["spark"]["write-tasks"]
        partitioned = f"PARTITIONED BY ({partition})" if partition else ""
        self.sql(f"CREATE TABLE {self.ident} ({columns}) USING iceberg {partitioned} TBLPROPERTIES ({props})")

    def target(self, branch: str | None) -> str:
        return self.ident if branch is None else f"{self.ident}.branch_{branch}"

    def source(self, columns: list[tuple[str, str]], rows: list[dict[str, Any]]) -> str:
        """A temporary view of `rows` (model form, by column name) with the table's column types."""
        from pyspark.sql import types as T

        schema = T.StructType([T.StructField(n, spark_type(t)) for n, t in columns])
        data = [tuple(wire_value(t, r.get(n)) for n, t in columns) for r in rows]
        frame = self.spark.createDataFrame(data, schema)
        frame = frame.coalesce(1) if self.tasks == 1 else frame.repartition(self.tasks)
        frame.selectExpr(*(from_wire_sql(t, n) for n, t in columns)).createOrReplaceTempView("harness_source")
        return "harness_source"

    def _insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None, overwrite: bool) -> None:
        src = self.source(columns, rows)
        names = ", ".join(quote(n) for n, _ in columns)
        into = "OVERWRITE" if overwrite else "INTO"
        self.sql(f"INSERT {into} {self.target(branch)} ({names}) SELECT {names} FROM {src}")

    def insert(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        self._insert(columns, rows, branch, False)

    def overwrite(self, columns: list[tuple[str, str]], rows: list[dict], branch: str | None) -> None:
        self._insert(columns, rows, branch, True)

    def insert_many(self, columns: list[tuple[str, str]], start: int, count: int, branch: str | None) -> None:
        """`count` rows with ids from `start` and every other column null, from `spark.range`."""
        frame = self.spark.range(start, start + count, numPartitions=self.tasks)
        exprs = ["id"] + [f"CAST(NULL AS {t}) AS {quote(n)}" for n, t in columns if n != "id"]
        frame.selectExpr(*exprs).createOrReplaceTempView("harness_source")
        names = ", ".join(quote(n) for n, _ in columns)
        self.sql(f"INSERT INTO {self.target(branch)} ({names}) SELECT {names} FROM harness_source")

    def delete(self, where: dict, types: dict[str, str], branch: str | None) -> None:
        self.sql(f"DELETE FROM {self.target(branch)} WHERE {predicates.sql(where, types)}")

    def update(self, column: str, t: str, value: Any, where: dict, types: dict[str, str], branch: str | None) -> None:
        setting = f"{quote(column)} = {predicates.literal(t, value)}"
        self.sql(f"UPDATE {self.target(branch)} SET {setting} WHERE {predicates.sql(where, types)}")

    def merge(
        self,
        columns: list[tuple[str, str]],
        rows: list[dict],
        delete_where: dict | None,
        types: dict[str, str],
        branch: str | None,
    ) -> None:
        src = self.source(columns, rows)
        deleting = ""
        if delete_where is not None:
            deleting = f"WHEN MATCHED AND {predicates.sql(delete_where, types, 't')} THEN DELETE "
        self.sql(
            f"MERGE INTO {self.target(branch)} t USING {src} s ON t.id = s.id {deleting}"
            "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
        )

    def equality_delete(self, columns: list[str], groups: list[list[dict]], types: dict[str, str]) -> None:
        """One commit (a row delta) of equality delete files on `columns`, written by Iceberg Java's
        generic writer factory (`GenericFileWriterFactory`): one file per group of rows (model
        form, by name), in the partition Iceberg computes for the group's first row, holding each
        row's values of `columns` as Iceberg's generic reader returns them (so every value reaches
        the file in Iceberg Java's own form)."""
        jvm, gateway = self.spark._jvm, self.spark.sparkContext._gateway
        iceberg = jvm.org.apache.iceberg
        table = iceberg.spark.Spark3Util.loadIcebergTable(self.spark._jsparkSession, self.ident)
        table.refresh()
        schema, spec = table.schema(), table.spec()
        delete_schema = schema.select(_java_list(jvm, columns))
        field_ids = gateway.new_array(jvm.int, len(columns))
        for k, name in enumerate(columns):
            field_ids[k] = schema.findField(name).fieldId()
        file_format = _delete_format(iceberg, table.properties())
        factory = (
            getattr(iceberg.data, "GenericFileWriterFactory$Builder")(table)
            .deleteFileFormat(file_format)
            .equalityFieldIds(field_ids)
            .equalityDeleteRowSchema(delete_schema)
            .build()
        )
        delta = table.newRowDelta()
        for n, rows in enumerate(groups):
            key = iceberg.PartitionKey(spec, schema)
            key.partition(
                iceberg.data.InternalRecordWrapper(schema.asStruct()).wrap(
                    self._first(table, self._matching(rows[0], ["id"], types))
                )
            )
            name = f"eq-delete-{uuid.uuid4()}-{n}.{file_format.name().lower()}"
            location = (
                table.locationProvider().newDataLocation(name)
                if spec.isUnpartitioned()
                else table.locationProvider().newDataLocation(spec, key, name)
            )
            output = iceberg.encryption.EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location))
            writer = factory.newEqualityDeleteWriter(output, spec, key)
            try:
                for row in rows:  # the row's delete columns as a record of exactly `delete_schema`
                    writer.write(self._first(table, self._matching(row, columns, types), columns))
            finally:
                writer.close()
            delta.addDeletes(writer.toDeleteFile())
        delta.commit()
        self.sql(f"REFRESH TABLE {self.ident}")

    def _matching(self, row: dict, columns: list[str], types: dict[str, str]) -> Any:
        """An Iceberg expression: each of `columns` equals the row's value (or is null)."""
        expressions = self.spark._jvm.org.apache.iceberg.expressions.Expressions
        equal = getattr(self.spark._jvm.org.apache.iceberg.expressions, "Expression$Operation").EQ
        condition = expressions.alwaysTrue()
        for name in columns:
            value = row.get(name)
            term = (
                expressions.isNull(name)
                if value is None
                else expressions.predicate(equal, name, self._java_literal(types[name], value))
            )
            condition = getattr(expressions, "and")(condition, term)
        return condition

    def _first(self, table: Any, condition: Any, columns: list[str] | None = None) -> Any:
        """The first record Iceberg's generic reader returns for `condition` (projected on `columns`)."""
        builder = self.spark._jvm.org.apache.iceberg.data.IcebergGenerics.read(table).where(condition)
        if columns is not None:
            builder = builder.select(_java_list(self.spark._jvm, columns))
        records = builder.build()
        try:
            iterator = records.iterator()
            if not iterator.hasNext():
                raise values.ValueError_(f"Iceberg's generic reader finds no row where {condition.toString()}")
            return iterator.next()
        finally:
            records.close()

    # --- schema and partitioning ----------------------------------------------------------------
    def add_column(self, name: str, t: str, default: Any) -> None:
        if default is None:
            self.sql(f"ALTER TABLE {self.ident} ADD COLUMN {quote(name)} {t}")
            return
        jvm = self.spark._jvm
        table = jvm.org.apache.iceberg.spark.Spark3Util.loadIcebergTable(self.spark._jsparkSession, self.ident)
        literal = self._java_literal(t, default)
        if literal is None:
            raise values.ValueError_(f"no Iceberg literal of {t} for the default {default!r}")
        iceberg_type = jvm.org.apache.iceberg.types.Types.fromPrimitiveString(_iceberg_type(t))
        table.updateSchema().addColumn(name, iceberg_type, "added by the writer harness", literal).commit()
        self.sql(f"REFRESH TABLE {self.ident}")

    def _java_literal(self, t: str, v: Any) -> Any:
        """An Iceberg `Literal` of the value (physical form), built in the JVM."""
        jvm = self.spark._jvm
        expr = jvm.org.apache.iceberg.expressions.Literal
        k = values.kind(t)
        if k == "decimal":
            return expr.of(jvm.java.math.BigDecimal(str(v)))
        if k == "boolean":
            return expr.of(bool(v))
        if k == "string":
            return expr.of(jvm.java.lang.String(v))
        if k == "binary":
            return expr.of(jvm.java.nio.ByteBuffer.wrap(bytearray(v)))
        if k == "float":
            return expr.of(jvm.java.lang.Float.valueOf(str(v) if v == v else "NaN"))
        if k == "double":
            return expr.of(jvm.java.lang.Double.valueOf(repr(v) if v == v else "NaN"))
        if k == "int":
            return expr.of(jvm.java.lang.Integer.valueOf(v))
        types = jvm.org.apache.iceberg.types.Types
        # dates and timestamps from their ISO text (Literal.to() gives null for a long to either)
        if k == "date":
            return expr.of(jvm.java.lang.String((values.EPOCH_DATE + dt.timedelta(days=v)).isoformat())).to(
                types.DateType.get()
            )
        if k in ("timestamp", "timestamp_ntz"):
            text = (values.EPOCH + dt.timedelta(microseconds=v)).isoformat(timespec="microseconds")
            zoned = k == "timestamp"
            return expr.of(jvm.java.lang.String(text + ("+00:00" if zoned else ""))).to(
                types.TimestampType.withZone() if zoned else types.TimestampType.withoutZone()
            )
        return expr.of(jvm.java.lang.Long.valueOf(v))

    def alter(self, clause: str) -> None:
        self.sql(f"ALTER TABLE {self.ident} {clause}")

    def drop_column(self, name: str) -> None:
        self.alter(f"DROP COLUMN {quote(name)}")

    def rename_column(self, name: str, to: str) -> None:
        self.alter(f"RENAME COLUMN {quote(name)} TO {quote(to)}")

    def move_column(self, name: str, after: str | None) -> None:
        self.alter(f"ALTER COLUMN {quote(name)} {'FIRST' if after is None else 'AFTER ' + quote(after)}")

    def widen_column(self, name: str, t: str) -> None:
        self.alter(f"ALTER COLUMN {quote(name)} TYPE {t}")

    def add_partition_field(self, field: dict) -> None:
        self.alter(f"ADD PARTITION FIELD {partition_sql(field)} AS {quote(field['name'])}")

    def drop_partition_field(self, name: str) -> None:
        self.alter(f"DROP PARTITION FIELD {quote(name)}")

    def replace_partition_field(self, name: str, field: dict) -> None:
        self.alter(f"REPLACE PARTITION FIELD {quote(name)} WITH {partition_sql(field)} AS {quote(field['name'])}")

    def properties(self, props: dict[str, str]) -> None:
        self.alter("SET TBLPROPERTIES (" + ", ".join(f"'{k}' = '{v}'" for k, v in props.items()) + ")")

    def set_properties(self, props: dict[str, str]) -> None:
        self.properties(props)

    def upgrade(self, format_version: int) -> None:
        self.properties({"format-version": str(format_version)})

    # --- procedures and refs ------------------------------------------------------------------------
    def call(self, procedure: str, args: str) -> None:
        self.sql(f"CALL {CATALOG}.system.{procedure}({args})")

    def rewrite_data_files(self, options: dict[str, str]) -> None:
        pairs = ", ".join(f"'{k}', '{v}'" for k, v in options.items())
        self.call("rewrite_data_files", f"table => 'db.{self.name}', options => map({pairs})")

    def rewrite_manifests(self) -> None:
        self.call("rewrite_manifests", f"'db.{self.name}'")

    def rewrite_position_deletes(self) -> None:
        self.call("rewrite_position_delete_files", f"table => 'db.{self.name}', options => map('rewrite-all', 'true')")

    def compute_statistics(self) -> None:
        """Table statistics (a Puffin file of theta sketches) and partition statistics of the current snapshot."""
        self.call("compute_table_stats", f"table => 'db.{self.name}'")
        self.call("compute_partition_stats", f"table => 'db.{self.name}'")

    def expire_snapshots(self, retain_last: int) -> None:
        self.call(
            "expire_snapshots",
            f"table => 'db.{self.name}', older_than => TIMESTAMP '9999-12-31 00:00:00', retain_last => {retain_last}",
        )

    def create_branch(self, name: str) -> None:
        self.alter(f"CREATE BRANCH {quote(name)}")

    def create_tag(self, name: str) -> None:
        self.alter(f"CREATE TAG {quote(name)}")

    def rollback(self, snapshot_id: int) -> None:
        self.call("rollback_to_snapshot", f"'db.{self.name}', {snapshot_id}")

    def cherrypick(self, snapshot_id: int) -> None:
        self.call("cherrypick_snapshot", f"'db.{self.name}', {snapshot_id}")

    # --- reading --------------------------------------------------------------------------------
    def read(
        self, snapshot_id: int | None = None, branch: str | None = None, tag: str | None = None, lineage: bool = False
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """Spark's columns and rows (wire form) of a snapshot, branch or tag, with `_row_id` and
        `_last_updated_sequence_number` when `lineage`."""
        return read_rows(self.spark, self.ident, snapshot_id, branch, tag, lineage)


def _delete_format(iceberg: Any, properties: Any) -> Any:
    """The format Iceberg Java writes delete files in: the table's `write.delete.format.default`,
    else its `write.format.default`, else Parquet (Iceberg Java's TableProperties)."""
    data = properties.getOrDefault("write.format.default", "parquet")
    return iceberg.FileFormat.fromString(properties.getOrDefault("write.delete.format.default", data))


def _java_list(jvm: Any, items: list) -> Any:
    out = jvm.java.util.ArrayList()
    for item in items:
        out.add(item)
    return out


def partition_sql(f: dict) -> str:
    c = quote(f["column"])
    return {
        "identity": c,
        "bucket": f"bucket({f.get('param')}, {c})",
        "truncate": f"truncate({f.get('param')}, {c})",
        "year": f"years({c})",
        "month": f"months({c})",
        "day": f"days({c})",
        "hour": f"hours({c})",
    }[f["transform"]]


def _iceberg_type(t: str) -> str:
    k = values.kind(t)
    if k == "decimal":
        precision, scale = values.decimal_of(t)
        return f"decimal({precision}, {scale})"
    return {"bigint": "long", "timestamp": "timestamptz", "timestamp_ntz": "timestamp"}.get(k, k)
