"""The operations of the planning vectors (metrics, summaries, partition tuples, predicates,
projection, pruning), computed by the reference (see value_ops.py for values).

- column-metrics: input keys: type, values, truncate-length?; output: {"value_count", "null_value_count",
  "nan_value_count" (null for types without NaN), "lower_bound", "upper_bound" (hex or null)}
- read-geo-bounds: input keys: type (geometry or geography), lower-bound, upper-bound (hex); output: {"lower",
  "upper"}, each {"x", "y", "z", "m"} (null where the bound has no z or m)
- check-column-metrics: input keys: type, values, metrics (the five keys above, each optional); output: sorted rule ids
  of the violations ([] = valid)
- partition-summaries: input keys: types (partition field types), partitions (tuples); output: one {"contains_null",
  "contains_nan", "lower_bound", "upper_bound"} per field
- check-partition-summaries: input keys: types, partitions, summaries; output: sorted rule ids of the violations
- partition-tuple: input keys: schema, spec, rows; output: the file's partition tuple (values of the result types)
- check-partition-tuple: input keys: schema, spec, rows, partition; output: sorted rule ids of the violations
- check-file-counts: input keys: record-count, file-size-in-bytes, rows, length; output: sorted rule ids of the
  violations
- check-position-deletes: input keys: rows ([file_path, pos] pairs), row-counts ({path: n}), and for a file with a row
  column row ({"field", "values"}) and schema; output: sorted rule ids of the violations
- apply-equality-deletes: input keys: schema, equality-ids (field ids), delete-rows, rows (rows by column name);
  output: the positions of the rows no delete row removes
- evaluate-predicate: input keys: schema, predicate, rows; output: the predicate's truth on each row
- project-predicate: input keys: schema, spec, predicate, mode, rows; output: for each row, the truth of the projected
  predicate on the row's partition tuple (a field of an unknown transform has no value: the projection never names it)
- evaluate-metrics: input keys: schema, predicate, mode, record-count, metrics; output: inclusive: whether a row may
  match; strict: whether every row matches
- evaluate-manifest: input keys: fields, predicate, summaries (null: none), file-counts? (the manifest list's counts,
  each may be null or absent: "added", "existing", "deleted" for added/existing/deleted_files_count, "added-rows",
  "existing-rows", "deleted-rows" for the row counts), entries? ("live", the default: a scan's ADDED and EXISTING
  entries; "deleted": the rows of DELETED entries, as a change log reads them); output: whether a file of the manifest
  may match
- plan-manifest: input keys: schema, specs (the table's: each {"spec-id", "fields": the spec form below}), predicate
  (on the table's columns), manifest ({"spec-id": its partition_spec_id, "summaries": one per field of that spec, or
  null}); output: whether a file of the manifest may match

Forms: `schema` is an Appendix C struct of primitive columns; `spec` a list of `{"name", "source"
(a column name), "transform"}`; rows objects by column name; values the vectors' value form; bounds
lowercase hex; `fields` a list of `{"name", "type"}`. A `predicate` is Iceberg's expression JSON:
`true`, `false`, `{"type": "and"|"or", "left", "right"}`, `{"type": "not", "child"}`,
`{"type": <op>, "term": <column>}` for is-null, not-null, is-nan, not-nan, `{"type": <op>, "term",
"value"}` for lt, lt-eq, gt, gt-eq, eq, not-eq, starts-with, not-starts-with and `{"type": "in" |
"not-in", "term", "values": [...]}`.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping

from spec_impl.errors import InvalidInput, SpecError
from spec_impl.expressions import predicates as P, projection
from spec_impl.pruning import evaluators, manifest_spec
from spec_impl.deletes import apply, position_files, row_column
from spec_impl.serde import geo_bounds
from spec_impl.metrics import column_metrics as cm, file_counts, manifest_counts, partition_values, summaries
from spec_impl.transforms import result_type
from spec_impl.types import IcebergType, StructType, parse_type
from spec_impl.ops.encoding import decode, encode

_LOGICAL = ("and", "or", "not")


def parse_predicate(obj: Any, types: Mapping[str, IcebergType]) -> P.Expr:
    """A bound expression from its JSON form (rule expression.bind for any malformed part)."""
    if isinstance(obj, bool):
        return P.Const(obj)
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise InvalidInput("expression.bind", "an expression is true, false or an object with a type", obj)
    op = obj["type"]
    if op in ("and", "or"):
        node = P.And if op == "and" else P.Or
        return node(parse_predicate(obj.get("left"), types), parse_predicate(obj.get("right"), types))
    if op == "not":
        return P.Not(parse_predicate(obj.get("child"), types))
    term = obj.get("term")
    t = types.get(term) if isinstance(term, str) else None
    if op not in P.LEAF_OPS or t is None:
        raise InvalidInput("expression.bind", "a predicate needs a known type and a term naming a column", obj)
    if op in P.SETS:
        raw = obj.get("values")
        if not isinstance(raw, list):
            raise InvalidInput("expression.bind", f"{op} needs a list of values", obj)
    else:
        raw = [obj["value"]] if "value" in obj else []
    try:
        literals = tuple(decode(t, v) for v in raw)
    except SpecError as e:
        raise InvalidInput("expression.bind", f"a literal must be a value of {t} ({e})", raw) from None
    return P.bind(P.Pred(op, term, literals), types)


def predicate_json(e: P.Expr, types: Mapping[str, IcebergType]) -> Any:
    """The JSON form of an expression (the inverse of `parse_predicate`), values in vector form."""
    if isinstance(e, P.Const):
        return e.value
    if isinstance(e, (P.And, P.Or)):
        return {
            "type": "and" if isinstance(e, P.And) else "or",
            "left": predicate_json(e.left, types),
            "right": predicate_json(e.right, types),
        }
    if isinstance(e, P.Not):
        return {"type": "not", "child": predicate_json(e.child, types)}
    assert isinstance(e, P.Pred)
    out: dict[str, Any] = {"type": e.op, "term": e.term}
    if e.op in P.SETS:
        out["values"] = [encode(types[e.term], v) for v in e.literals]
    elif e.literals:
        out["value"] = encode(types[e.term], e.literal)
    return out


def _schema(inp: dict) -> dict[str, IcebergType]:
    s = parse_type(inp["schema"])
    if not isinstance(s, StructType):
        raise InvalidInput("expression.bind", "the schema must be a struct", inp["schema"])
    return P.column_types(s)


def _rows(inp: dict, types: Mapping[str, IcebergType]) -> list[dict]:
    return [{name: decode(types[name], v) for name, v in row.items()} for row in inp["rows"]]


def _spec(inp: dict) -> list[projection.PartitionField]:
    return [projection.PartitionField.of(f["name"], f["source"], f["transform"]) for f in inp["spec"]]


def _hex(data: bytes | None) -> str | None:
    return None if data is None else data.hex()


def _unhex(text: str | None, rule_id: str) -> bytes | None:
    try:
        return None if text is None else bytes.fromhex(text)
    except (ValueError, TypeError):
        raise InvalidInput(rule_id, "a bound is lowercase hex", text) from None


def _metrics_out(m: cm.ColumnMetrics) -> dict:
    return {
        "value_count": m.value_count,
        "null_value_count": m.null_value_count,
        "nan_value_count": m.nan_value_count,
        "lower_bound": _hex(m.lower_bound),
        "upper_bound": _hex(m.upper_bound),
    }


def _metrics_in(obj: dict) -> cm.ColumnMetrics:
    return cm.ColumnMetrics(
        obj.get("value_count"),
        obj.get("null_value_count"),
        obj.get("nan_value_count"),
        _unhex(obj.get("lower_bound"), "metrics.bound.encoding"),
        _unhex(obj.get("upper_bound"), "metrics.bound.encoding"),
    )


def _column_values(inp: dict) -> tuple[IcebergType, list]:
    t = parse_type(inp["type"])
    return t, [decode(t, v) for v in inp["values"]]


def _column_metrics(inp: dict, revision: str) -> dict:
    t, values = _column_values(inp)
    return _metrics_out(cm.column_metrics(t, values, inp.get("truncate-length")))


def _check_column_metrics(inp: dict, revision: str) -> list[str]:
    t, values = _column_values(inp)
    return sorted({f.rule for f in cm.check_column_metrics(t, values, _metrics_in(inp["metrics"]), revision)})


def _summary_input(inp: dict) -> tuple[list[IcebergType], list[list]]:
    types = [parse_type(t) for t in inp["types"]]
    tuples = []
    for tup in inp["partitions"]:
        if len(tup) != len(types):
            raise InvalidInput("partition-summary.fields", f"a partition tuple must have {len(types)} values", tup)
        tuples.append([decode(t, v) for t, v in zip(types, tup)])
    return types, tuples


def _summary_in(obj: dict) -> summaries.FieldSummary:
    return summaries.FieldSummary(
        obj["contains_null"],
        obj.get("contains_nan"),
        _unhex(obj.get("lower_bound"), "partition-summary.lower-bound"),
        _unhex(obj.get("upper_bound"), "partition-summary.upper-bound"),
    )


def _partition_summaries(inp: dict, revision: str) -> list[dict]:
    types, tuples = _summary_input(inp)
    return [
        {
            "contains_null": s.contains_null,
            "contains_nan": s.contains_nan,
            "lower_bound": _hex(s.lower_bound),
            "upper_bound": _hex(s.upper_bound),
        }
        for s in summaries.partition_summaries(types, tuples)
    ]


def _check_partition_summaries(inp: dict, revision: str) -> list[str]:
    types, tuples = _summary_input(inp)
    claimed = [_summary_in(s) for s in inp["summaries"]]
    return sorted({f.rule for f in summaries.check_partition_summaries(types, tuples, claimed, revision)})


def _partition_tuple(inp: dict, revision: str) -> list:
    types, spec = _schema(inp), _spec(inp)
    found = partition_values.partition_tuple(spec, types, _rows(inp, types), revision)
    return [encode(result_type(f.transform, types[f.source], revision), v) for f, v in zip(spec, found)]


def _check_partition_tuple(inp: dict, revision: str) -> list[str]:
    types, spec = _schema(inp), _spec(inp)
    claimed = list(inp["partition"])
    if len(claimed) == len(spec):
        claimed = [decode(result_type(f.transform, types[f.source], revision), v) for f, v in zip(spec, claimed)]
    found = partition_values.check_partition_tuple(spec, types, _rows(inp, types), claimed, revision)
    return sorted({f.rule for f in found})


def _check_file_counts(inp: dict, revision: str) -> list[str]:
    found = file_counts.check_record_count(inp["record-count"], inp["rows"]) + file_counts.check_file_size(
        inp["file-size-in-bytes"], inp["length"]
    )
    return sorted({f.rule for f in found})


def _check_position_deletes(inp: dict, revision: str) -> list[str]:
    rows = [tuple(r) for r in inp["rows"]]
    if any(len(r) != 2 for r in rows):
        raise InvalidInput("deletes.position-rows", "a position delete row is a [file_path, pos] pair", inp["rows"])
    found = position_files.check_position_rows(rows, inp["row-counts"])
    if "row" in inp:
        found += _row_column_findings(inp, len(rows))
    return sorted({f.rule for f in found})


def _row_column_findings(inp: dict, entries: int) -> list:
    """The optional row column: `row` {"field": the column's field JSON, "values": one row or null per
    entry}, against `schema` (the table's struct)."""
    row = inp["row"]
    if not isinstance(row, dict) or "field" not in row or "values" not in row or "schema" not in inp:
        raise InvalidInput("deletes.position-rows", "row is {field, values}, beside the table's schema", row)
    table = parse_type(inp["schema"])
    field = parse_type({"type": "struct", "fields": [row["field"]]})
    values = row["values"]
    if not isinstance(table, StructType) or not isinstance(values, list) or len(values) != entries:
        raise InvalidInput("deletes.position-rows", "row values are one per entry, schema a struct", row)
    column = field.fields[0] if field.fields[0].id == row_column.ROW_FIELD_ID else None  # type: ignore[attr-defined]
    return row_column.check_row_column(column, [table], sum(v is None for v in values))


def _evaluate_predicate(inp: dict, revision: str) -> list[bool]:
    types = _schema(inp)
    expr = parse_predicate(inp["predicate"], types)
    return [P.evaluate(expr, row, types) for row in _rows(inp, types)]


def _mode(inp: dict) -> str:
    if inp["mode"] not in projection.MODES:
        raise InvalidInput("expression.bind", f"mode must be one of {projection.MODES}", inp["mode"])
    return inp["mode"]


def _project_predicate(inp: dict, revision: str) -> list[bool]:
    types, spec = _schema(inp), _spec(inp)
    projected = projection.project(parse_predicate(inp["predicate"], types), spec, types, _mode(inp), revision)
    # an unknown transform has no value to compute (rule transform.unknown), and the projection never
    # names its field (its leaves project to true or false): the tuple holds the known fields only
    known = [f for f in spec if f.transform.name is not None]
    ptypes = P.column_types(partition_values.partition_struct(known, types, revision))
    out = []
    for row in _rows(inp, types):
        tup = partition_values.row_partition(known, types, row, revision)
        out.append(P.evaluate(projected, {f.name: v for f, v in zip(known, tup)}, ptypes))
    return out


def _evaluate_metrics(inp: dict, revision: str) -> bool:
    types = _schema(inp)
    expr = parse_predicate(inp["predicate"], types)
    metrics = {name: _metrics_in(m) for name, m in inp["metrics"].items()}
    evaluate = evaluators.might_match if _mode(inp) == projection.INCLUSIVE else evaluators.must_match
    return evaluate(expr, types, inp["record-count"], metrics, revision)


def _evaluate_manifest(inp: dict, revision: str) -> bool:
    fields = [(f["name"], parse_type(f["type"])) for f in inp["fields"]]
    expr = parse_predicate(inp["predicate"], dict(fields))
    claimed = None if inp["summaries"] is None else [_summary_in(s) for s in inp["summaries"]]
    if claimed is not None and len(claimed) != len(fields):
        raise InvalidInput(
            "partition-summary.fields", f"{len(fields)} partition fields need {len(fields)} summaries", len(claimed)
        )
    counts, wanted = inp.get("file-counts"), inp.get("entries", manifest_counts.LIVE)
    if wanted not in (manifest_counts.LIVE, manifest_counts.DELETED):
        raise InvalidInput("file-pruning.manifest-counts", "entries is live or deleted", wanted)
    if counts is not None and not manifest_counts.may_hold_wanted_rows(counts, wanted):
        return False
    return evaluators.manifest_might_match(expr, fields, claimed, revision)


def _plan_manifest(inp: dict, revision: str) -> bool:
    types = _schema(inp)
    specs = {s["spec-id"]: _spec({"spec": s["fields"]}) for s in inp["specs"]}
    m = inp["manifest"]
    claimed = None if m["summaries"] is None else [_summary_in(s) for s in m["summaries"]]
    expr = parse_predicate(inp["predicate"], types)
    return manifest_spec.manifest_might_match_in_its_spec(expr, specs, m["spec-id"], types, claimed, revision)


def _read_geo_bounds(inp: dict, revision: str) -> dict:
    """A geometry or geography column's bounds as coordinates (adopted v3 Appendix D, geo bounds)."""
    name = str(parse_type(inp["type"])).split("(", 1)[0]  # geometry(C) and geography(C, A) by their kind
    try:
        lower, upper = bytes.fromhex(inp["lower-bound"]), bytes.fromhex(inp["upper-bound"])
    except (TypeError, ValueError):
        raise InvalidInput("metrics.geo-bound", "bounds are hex strings", inp.get("lower-bound")) from None
    read = geo_bounds.read_bounds(name, lower, upper)
    return {side: {k: None if v is None else encode("double", v) for k, v in c.items()} for side, c in read.items()}


def _apply_equality_deletes(inp: dict, revision: str) -> list[int]:
    """The data rows an equality delete file keeps ("Equality Delete Files")."""
    types = _schema(inp)
    ids = {f["id"]: f["name"] for f in inp["schema"]["fields"]}
    by_id = {i: types[name] for i, name in ids.items()}

    def by_field_id(rows: list[dict]) -> list[dict[int, Any]]:
        return [{i: row[name] for i, name in ids.items() if name in row} for row in rows]

    deletes = apply.equality_delete(
        "delete-file", inp["equality-ids"], by_field_id(_rows({"rows": inp["delete-rows"]}, types)), by_id
    )
    return apply.surviving_positions(by_field_id(_rows(inp, types)), set(), [deletes])


PLANNING_OPS: dict[str, Callable[[dict, str], Any]] = {
    "column-metrics": _column_metrics,
    "check-column-metrics": _check_column_metrics,
    "partition-summaries": _partition_summaries,
    "check-partition-summaries": _check_partition_summaries,
    "partition-tuple": _partition_tuple,
    "check-partition-tuple": _check_partition_tuple,
    "check-file-counts": _check_file_counts,
    "check-position-deletes": _check_position_deletes,
    "evaluate-predicate": _evaluate_predicate,
    "apply-equality-deletes": _apply_equality_deletes,
    "read-geo-bounds": _read_geo_bounds,
    "project-predicate": _project_predicate,
    "evaluate-metrics": _evaluate_metrics,
    "evaluate-manifest": _evaluate_manifest,
    "plan-manifest": _plan_manifest,
}

INPUT_KEYS = {
    "column-metrics": ["type", "values"],
    "check-column-metrics": ["type", "values", "metrics"],
    "partition-summaries": ["types", "partitions"],
    "check-partition-summaries": ["types", "partitions", "summaries"],
    "partition-tuple": ["schema", "spec", "rows"],
    "check-partition-tuple": ["schema", "spec", "rows", "partition"],
    "check-file-counts": ["record-count", "file-size-in-bytes", "rows", "length"],
    "check-position-deletes": ["rows", "row-counts"],
    "evaluate-predicate": ["schema", "predicate", "rows"],
    "apply-equality-deletes": ["schema", "equality-ids", "delete-rows", "rows"],
    "read-geo-bounds": ["type", "lower-bound", "upper-bound"],
    "project-predicate": ["schema", "spec", "predicate", "mode", "rows"],
    "evaluate-metrics": ["schema", "predicate", "mode", "record-count", "metrics"],
    "evaluate-manifest": ["fields", "predicate", "summaries"],
    "plan-manifest": ["schema", "specs", "predicate", "manifest"],
}
