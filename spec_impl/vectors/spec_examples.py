"""Expectations typed by hand from the spec text, not computed: they replace the reference's result
in the golden files, and `tests/test_spec_examples.py` checks that the reference agrees with every
one of them (a disagreement is a bug of the reference or of the typing, to be read against the
cited text).

`TYPED` maps a case id to its typed expectation and the provenance it declares: `spec-example`
where the spec prints the example, `hand-typed` where the value follows from a sentence of the
spec that the source quotes or names. Sources name the spec section (the 2024 text in
../shared/spec/, or the adopted v3 digest where it says so).
"""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.provenance import hand_typed, spec_example

_PARTITION_FIELDS = ('Appendix C, Partition Specs: a partition field has source-id (JSON int), field-id (JSON int), '
                     'name (JSON string) and transform (JSON string); a spec is an object with spec-id and fields')  # fmt: skip
_SORT_FIELDS = ("Appendix C, Sort Orders: an order is an object with order-id (JSON int) and a fields list; each sort "
                "field has transform, source-id (JSON int), direction and null-order")  # fmt: skip
_DIRECTION = "Sorting: a sort field's direction is asc or desc, its null order nulls-first or nulls-last (Appendix C: JSON strings asc, nulls-last)"
_SORTING = ("Sorting: fields sort in the given direction; nulls-first puts nulls before all values and "
            "nulls-last after, whatever the direction")  # fmt: skip
_SNAPSHOT_FIELDS = ("Snapshots, the snapshot field table: snapshot-id (long) and timestamp-ms (long) are required, "
                    "schema-id is an int, parent-snapshot-id a long; Appendix C serializes them as JSON numbers")  # fmt: skip
_OPERATIONS = "Snapshots: summary operation is one of append, replace, overwrite, delete"
_SCHEMA_ID = "Schemas, Appendix C: schema-id is a JSON int, required in v2 and v3 (optional in v1)"


def _reject(rule: str, source: str, *slugs: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Cases `rule/slug` whose input the spec forbids: rejected under `rule`."""
    return {f"{rule}/{slug}": ({"error": rule}, hand_typed(source)) for slug in slugs}


def _output(case_id: str, output: Any, provenance: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    return {case_id: ({"output": output}, provenance)}


# Appendix C's partition spec example, field by field as printed.
_APPENDIX_C_SPEC = {"spec-id": 0, "fields": [
    {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
    {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
]}  # fmt: skip
# Appendix C's sort order example (the printed field list, in an order with order-id 1 as its table says).
_APPENDIX_C_ORDER = {"order-id": 1, "fields": [
    {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
    {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"},
]}  # fmt: skip

TYPED: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # --- partitioning: the Appendix C examples, as printed ---------------------------------------
    **_output("partition-spec.json/appendix-c-example-v1", _APPENDIX_C_SPEC, spec_example("Appendix C, Partition Specs: the example")),
    **_output("partition-spec.json/appendix-c-example-v2", _APPENDIX_C_SPEC, spec_example("Appendix C, Partition Specs: the example")),
    **_output("partition-spec.field-id.v1-assignment/appendix-c-without-ids", _APPENDIX_C_SPEC,
              spec_example("Appendix C, Partition Specs: the example; in v1 the reference implementation assigned field ids "
                           "sequentially in each spec starting at 1,000")),  # fmt: skip
    **_output("sort-order.json/appendix-c-example-v1", _APPENDIX_C_ORDER, spec_example("Appendix C, Sort Orders: the example")),
    **_output("sort-order.json/appendix-c-example-v2", _APPENDIX_C_ORDER, spec_example("Appendix C, Sort Orders: the example")),
    **_output("partition-spec.json/unpartitioned", {"spec-id": 0, "fields": []},
              hand_typed("Partitioning: a table without partition fields is unpartitioned; Appendix C: fields is a JSON list")),
    **_output("sort-order.order-id.unsorted/unsorted", {"order-id": 0, "fields": []},
              hand_typed("Sorting: order id 0 is reserved for the unsorted order")),
    # --- partitioning: JSON of partition specs and sort orders ---------------------------------
    **_reject("partition-spec.json", _PARTITION_FIELDS, "not-an-object", "missing-spec-id", "spec-id-string", "spec-id-bool",
              "missing-fields", "fields-object", "field-not-object", "missing-name", "name-not-string", "missing-transform",
              "transform-not-string", "field-id-string", "source-id-string", "source-id-null", "source-id-fraction"),
    **_reject("partition-spec.source-id", "Appendix C, Partition Specs: source-id is required in v1 and v2",
              "v1-source-ids-only", "v1-no-source", "v2-source-ids-only", "v2-no-source"),
    **_reject("partition-spec.field-id.unique", "Partition Evolution: partition field ids must be unique within a spec",
              "duplicate-v2", "duplicate-v1-explicit"),
    **_reject("partition-spec.source.exists", "Partitioning: the source column is selected by id from the table schema",
              "unknown-source"),
    **_reject("sort-order.json", _SORT_FIELDS, "not-an-object", "missing-order-id", "order-id-string", "missing-fields",
              "fields-object", "field-not-object", "missing-transform", "transform-not-string", "missing-direction",
              "missing-null-order", "source-id-string"),
    **_reject("sort-order.source-id", "Appendix C, Sort Orders: source-id is required in v1 and v2",
              "v1-source-ids-only", "v1-no-source", "v2-source-ids-only", "v2-no-source"),
    **_reject("sort-order.order-id.unsorted", "Sorting: order id 0 is reserved for the unsorted order",
              "zero-with-fields", "fields-empty-nonzero"),
    **_reject("sort-order.direction", _DIRECTION, "uppercase-asc", "ascending", "descending", "empty", "null"),
    **_reject("sort-order.null-order", _DIRECTION, "uppercase-underscore", "first", "underscore", "nulls-none", "null"),
    # --- partitioning: the order a sort produces ------------------------------------------------
    **_output("sort-order.record-order/string-asc-nulls-first", [None, None, "a", "b", "c"], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-asc-nulls-last", ["a", "b", "c", None, None], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-desc-nulls-first", [None, None, "c", "b", "a"], hand_typed(_SORTING)),
    **_output("sort-order.record-order/string-desc-nulls-last", ["c", "b", "a", None, None], hand_typed(_SORTING)),
    **_output("sort-order.record-order/boolean", [None, False, True], hand_typed(_SORTING + "; false sorts before true")),
    # --- schemas -------------------------------------------------------------------------------
    **_reject("schema.schema-id", _SCHEMA_ID, "v2-absent", "v3-absent", "string", "fraction", "boolean"),
    **_reject("schema.field-id.unique", "Schemas: field ids must be unique within a schema (one id space for fields, "
              "list elements, map keys and values)", "top-level", "list-element"),  # fmt: skip
    **_output("evolution.move/grouping", ["evolution.move"],
              spec_example("Schema Evolution: the example of grouping struct<a, b, c> into struct<a, struct<b, c>>, "
                           "a move that keeps the ids of b and c")),  # fmt: skip
    **_output("evolution.move/ungrouping", ["evolution.move"],
              spec_example("Schema Evolution: the example of ungrouping struct<a, struct<b, c>> into struct<a, b, c>")),
    **_output("projection.by-id/spec-example", [{"3": 1.5, "2": "x", "4": None}, {"3": None, "2": None, "4": None}],
              spec_example("Column Projection: a file written with 1: a int, 2: b string, 3: c double read with "
                           "3: measurement, 2: name, 4: a selects c, b and a column of nulls, in that order")),  # fmt: skip
    # --- snapshots -----------------------------------------------------------------------------
    **_reject("snapshot.json", _SNAPSHOT_FIELDS, "not-an-object", "missing-snapshot-id", "missing-timestamp-ms",
              "snapshot-id-string", "snapshot-id-fractional", "timestamp-string", "schema-id-string", "parent-boolean"),
    **_reject("snapshot.manifest-list", "Snapshots: manifest-list is required in v2; a v1 snapshot has manifest-list "
              "or the optional manifests list", "v2-missing", "v1-neither"),  # fmt: skip
    **_reject("snapshot.manifests", "Snapshots: manifests (v1) must be omitted if manifest-list is present",
              "v1-both", "v2-both"),
    **_reject("snapshot.summary", "Snapshots: summary is required in v2 and must include operation",
              "v2-missing", "no-operation"),
    **_reject("snapshot.operation", _OPERATIONS, "bad-append", "bad-merge", "bad-empty"),
    **_reject("snapshot.parent", "Snapshots: a snapshot's parent is an earlier snapshot: the ancestry has no cycle",
              "cycle", "self-parent"),
    **_reject("ref.main-branch", "Snapshot References: main is the table's current branch (a branch, never a tag)",
              "main-is-tag"),
}
