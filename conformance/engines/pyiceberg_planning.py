"""PyIceberg's answers to the planning vectors (`vectors/planning/`), for the pyiceberg adapter.

- evaluate-predicate: the case's predicate built with `pyiceberg.expressions` and evaluated on
  each row with `expressions.visitors.expression_evaluator`;
- project-predicate: `inclusive_projection` / `strict_projection` of the predicate through a
  one-field `PartitionSpec`, evaluated on each row's partition (PyIceberg's transform of the row);
- evaluate-metrics: `_InclusiveMetricsEvaluator` / `_StrictMetricsEvaluator` on a `DataFile` that
  carries the case's metrics;
- evaluate-manifest: `manifest_evaluator` (identity fields named as the partition fields, so its
  inclusive projection keeps the predicate) on a `ManifestFile` with the case's summaries;
- partition-summaries: `manifest.construct_partition_summaries` over identity fields;
- partition-tuple: the rows as an Arrow table (PyIceberg's `schema_to_pyarrow`) split by
  `pyiceberg.io.pyarrow._determine_partitions`, the step of PyIceberg's write path
  (`_dataframe_to_data_files`) that gives each data file its rows and its `PartitionKey`; the answer
  is that key's `partition` when PyIceberg puts all the rows into one file, else the case's rule
  (`PartitionTupleRejected`: rows of several partitions, no rows, or a file that lost rows);
- column-metrics: the column written to Parquet with pyarrow and PyIceberg's own
  `data_file_statistics_from_parquet_metadata` (the statistics its writers record), with the
  metrics mode `truncate(L)` for a case's truncate-length and `full` otherwise.

Values reach PyIceberg in the physical form it uses (ints for dates and timestamps, Decimal, str,
bytes, uuid.UUID, float), decoded from the vectors with `spec_impl.ops.encoding`.
"""

from __future__ import annotations

import io
from typing import Any

from spec_impl.types import parse_type
from spec_impl.ops.encoding import decode, encode

_LEAVES = {
    "lt": "LessThan",
    "lt-eq": "LessThanOrEqual",
    "gt": "GreaterThan",
    "gt-eq": "GreaterThanOrEqual",
    "eq": "EqualTo",
    "not-eq": "NotEqualTo",
    "in": "In",
    "not-in": "NotIn",
    "starts-with": "StartsWith",
    "not-starts-with": "NotStartsWith",
    "is-null": "IsNull",
    "not-null": "NotNull",
    "is-nan": "IsNaN",
    "not-nan": "NotNaN",
}
OPS = (
    "evaluate-predicate",
    "project-predicate",
    "evaluate-metrics",
    "evaluate-manifest",
    "partition-summaries",
    "column-metrics",
    "partition-tuple",
)


class PartitionTupleRejected(ValueError):
    """PyIceberg's write path does not give the rows one data file (and so no single tuple)."""

    rule = "data-file.partition-tuple.single"


class Planning:
    """The planning ops, over PyIceberg's modules imported once."""

    def __init__(self) -> None:
        from pyiceberg import expressions, manifest, partitioning, schema, transforms, typedef
        from pyiceberg.expressions import visitors

        self.ex, self.visitors, self.manifest, self.partitioning = expressions, visitors, manifest, partitioning
        self.schema_mod, self.transforms, self.Record = schema, transforms, typedef.Record

    # --- building PyIceberg objects ----------------------------------------------------------

    def schema(self, struct_json: dict) -> Any:
        return self.schema_mod.Schema.model_validate({**struct_json, "schema-id": 0})

    def expression(self, obj: Any, types: dict) -> Any:
        ex = self.ex
        if obj is True or obj is False:
            return ex.AlwaysTrue() if obj else ex.AlwaysFalse()
        op = obj["type"]
        if op in ("and", "or"):
            node = ex.And if op == "and" else ex.Or
            return node(self.expression(obj["left"], types), self.expression(obj["right"], types))
        if op == "not":
            return ex.Not(self.expression(obj["child"], types))
        cls = getattr(ex, _LEAVES[op])
        t = types[obj["term"]]
        if op in ("in", "not-in"):
            return cls(obj["term"], {decode(t, v) for v in obj["values"]})
        if "value" in obj:
            return cls(obj["term"], decode(t, obj["value"]))
        return cls(obj["term"])

    def spec(self, schema: Any, fields: list[dict]) -> Any:
        p = self.partitioning
        return p.PartitionSpec(
            *[
                p.PartitionField(
                    source_id=schema.find_field(f["source"]).field_id,
                    field_id=1000 + i,
                    transform=self.transforms.parse_transform(f["transform"]),
                    name=f["name"],
                )
                for i, f in enumerate(fields)
            ]
        )

    def record(self, schema: Any, row: dict, types: dict) -> Any:
        return self.Record(
            *[decode(types[f.name], row.get(f.name)) if f.name in types else None for f in schema.fields]
        )

    # --- the ops -----------------------------------------------------------------------------

    def evaluate_predicate(self, inp: dict) -> list[bool]:
        schema, types = self.schema(inp["schema"]), _types(inp["schema"])
        evaluate = self.visitors.expression_evaluator(schema, self.expression(inp["predicate"], types), True)
        return [bool(evaluate(self.record(schema, row, types))) for row in inp["rows"]]

    def project_predicate(self, inp: dict) -> list[bool]:
        schema, types = self.schema(inp["schema"]), _types(inp["schema"])
        spec = self.spec(schema, inp["spec"])
        project = (
            self.visitors.inclusive_projection if inp["mode"] == "inclusive" else self.visitors.strict_projection
        )(schema, spec, True)
        projected = project(self.expression(inp["predicate"], types))
        partition_schema = self.schema_mod.Schema(*spec.partition_type(schema).fields)
        evaluate = self.visitors.expression_evaluator(partition_schema, projected, True)
        out = []
        for row in inp["rows"]:
            values = []
            for f in spec.fields:
                source = schema.find_field(f.source_id)
                if isinstance(f.transform, self.transforms.UnknownTransform):
                    values.append(None)  # no value to compute; the projection never names the field
                    continue
                values.append(
                    f.transform.transform(source.field_type)(decode(types[source.name], row.get(source.name)))
                )
            out.append(bool(evaluate(self.Record(*values))))
        return out

    def evaluate_metrics(self, inp: dict) -> bool:
        schema, types = self.schema(inp["schema"]), _types(inp["schema"])
        maps: dict[str, dict] = {
            k: {} for k in ("value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds")
        }
        for name, m in inp["metrics"].items():
            fid = schema.find_field(name).field_id
            for key, target in (
                ("value_count", "value_counts"),
                ("null_value_count", "null_value_counts"),
                ("nan_value_count", "nan_value_counts"),
            ):
                if m.get(key) is not None:
                    maps[target][fid] = m[key]
            for key, target in (("lower_bound", "lower_bounds"), ("upper_bound", "upper_bounds")):
                if m.get(key) is not None:
                    maps[target][fid] = bytes.fromhex(m[key])
        data_file = self.manifest.DataFile.from_args(
            content=self.manifest.DataFileContent.DATA,
            file_path="file:/data/f.parquet",
            file_format=self.manifest.FileFormat.PARQUET,
            partition=self.Record(),
            record_count=inp["record-count"],
            file_size_in_bytes=1,
            **{k: v or None for k, v in maps.items()},
        )  # a metric no column carries is absent (None), as read from a manifest
        evaluator = (
            self.visitors._InclusiveMetricsEvaluator
            if inp["mode"] == "inclusive"
            else self.visitors._StrictMetricsEvaluator
        )
        return bool(evaluator(schema, self.expression(inp["predicate"], types)).eval(data_file))

    def _identity_schema_and_spec(self, fields: list[dict]) -> tuple[Any, Any]:
        struct = {
            "type": "struct",
            "fields": [
                {"id": i + 1, "name": f["name"], "required": False, "type": f["type"]} for i, f in enumerate(fields)
            ],
        }
        schema = self.schema(struct)
        return schema, self.spec(
            schema, [{"name": f["name"], "source": f["name"], "transform": "identity"} for f in fields]
        )

    def evaluate_manifest(self, inp: dict) -> bool:
        schema, spec = self._identity_schema_and_spec(inp["fields"])
        types = {f["name"]: parse_type(f["type"]) for f in inp["fields"]}
        summaries = None
        if inp["summaries"] is not None:
            summaries = [
                self.manifest.PartitionFieldSummary.from_args(
                    contains_null=s["contains_null"],
                    contains_nan=s.get("contains_nan"),
                    lower_bound=_unhex(s.get("lower_bound")),
                    upper_bound=_unhex(s.get("upper_bound")),
                )
                for s in inp["summaries"]
            ]
        manifest_file = self.manifest.ManifestFile.from_args(
            manifest_path="file:/m.avro",
            manifest_length=1,
            partition_spec_id=0,
            content=self.manifest.ManifestContent.DATA,
            sequence_number=1,
            min_sequence_number=1,
            added_snapshot_id=1,
            added_files_count=1,
            existing_files_count=0,
            deleted_files_count=0,
            added_rows_count=1,
            existing_rows_count=0,
            deleted_rows_count=0,
            partitions=summaries,
        )
        return bool(
            self.visitors.manifest_evaluator(spec, schema, self.expression(inp["predicate"], types), True)(
                manifest_file
            )
        )

    def partition_summaries(self, inp: dict) -> list[dict]:
        fields = [{"name": f"p{i}", "type": t} for i, t in enumerate(inp["types"])]
        schema, spec = self._identity_schema_and_spec(fields)
        types = [parse_type(t) for t in inp["types"]]
        records = [self.Record(*[decode(t, v) for t, v in zip(types, tup)]) for tup in inp["partitions"]]
        return [
            {
                "contains_null": s.contains_null,
                "contains_nan": s.contains_nan,
                "lower_bound": _hex(s.lower_bound),
                "upper_bound": _hex(s.upper_bound),
            }
            for s in self.manifest.construct_partition_summaries(spec, schema, records)
        ]

    def partition_tuple(self, inp: dict) -> list:
        import pyarrow as pa
        from pyiceberg.io import pyarrow as pio

        schema, types = self.schema(inp["schema"]), _types(inp["schema"])
        spec = self.spec(schema, inp["spec"])
        arrow_schema = pio.schema_to_pyarrow(schema, include_field_ids=False)
        table = pa.table(
            {
                f.name: pa.array(
                    [decode(types[f.name], row.get(f.name)) for row in inp["rows"]],
                    type=arrow_schema.field(f.name).type,
                )
                for f in schema.fields
            },
            schema=arrow_schema,
        )
        files = list(pio._determine_partitions(spec, schema, table))  # one data file per partition
        if len(files) != 1:
            raise PartitionTupleRejected(
                f"PyIceberg splits the {table.num_rows} rows into {len(files)} partitions: "
                f"{[(f.partition_key.partition, f.arrow_table_partition.num_rows) for f in files]}"
            )
        (written,) = files
        if written.arrow_table_partition.num_rows != table.num_rows:
            raise PartitionTupleRejected(
                f"PyIceberg's one partition {written.partition_key.partition} holds "
                f"{written.arrow_table_partition.num_rows} of the {table.num_rows} rows"
            )
        partition = written.partition_key.partition
        result_types = [str(f.field_type) for f in spec.partition_type(schema).fields]
        return [encode(t, partition[i]) for i, t in enumerate(result_types)]

    def column_metrics(self, inp: dict) -> dict:
        import pyarrow.parquet as pq
        from pyiceberg.io import pyarrow as pio

        from spec_impl.metadata.schema import parse_schema
        from spec_impl.scan.arrow_values import write_parquet

        t = parse_type(inp["type"])
        struct = {"type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": inp["type"]}]}
        rows = [{1: decode(t, v)} for v in inp["values"]]
        data = write_parquet(rows, parse_schema({**struct, "schema-id": 0}, 2))
        schema = self.schema(struct)
        mode = f"truncate({inp['truncate-length']})" if inp.get("truncate-length") is not None else "full"
        stats = pio.data_file_statistics_from_parquet_metadata(
            parquet_metadata=pq.ParquetFile(io.BytesIO(data)).metadata,
            stats_columns=pio.compute_statistics_plan(schema, {"write.metadata.metrics.default": mode}),
            parquet_column_mapping=pio.parquet_path_to_id_mapping(schema),
        )
        found = stats.to_serialized_dict()  # the data_file fields PyIceberg writes
        return {
            "value_count": found["value_counts"].get(1),
            "null_value_count": found["null_value_counts"].get(1),
            "nan_value_count": found["nan_value_counts"].get(1),
            "lower_bound": _hex(found["lower_bounds"].get(1)),
            "upper_bound": _hex(found["upper_bounds"].get(1)),
        }


def _types(struct_json: dict) -> dict:
    return {f["name"]: parse_type(f["type"]) for f in struct_json["fields"]}


def _hex(data: bytes | None) -> str | None:
    return None if data is None else bytes(data).hex()


def _unhex(text: str | None) -> bytes | None:
    return None if text is None else bytes.fromhex(text)
