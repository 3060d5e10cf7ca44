"""Cases of the manifest-trees family over single data_file fields checked against the table
(split_offsets, sort_order_id, equality_ids: `spec_impl.manifests.file_fields`) and over v1 fields a
v2 reader ignores; built on the trees of `manifest_trees`."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from spec_impl.manifests.inheritance import ADDED
from spec_impl.manifests.writer import TreeWriter, entry
from spec_impl.vectors.cases import CaseSpec, case


def specs(mt: ModuleType) -> Iterator[CaseSpec]:
    """The cases, built on the trees of `mt` (the manifest_trees module, passed in: no import cycle)."""
    yield from _file_field_cases(mt)
    yield _v1_fields_ignored_case(mt)


def double_column_deletes(mt: ModuleType) -> TreeWriter:
    """v2: a table with a double column (3 score) and an equality delete file on the id column."""
    schema = {
        **mt.SCHEMA,
        "fields": [*mt.SCHEMA["fields"], {"id": 3, "name": "score", "required": False, "type": "double"}],
    }
    w = TreeWriter("file:/warehouse/double-column", 2, schema, specs=[{"spec-id": 0, "fields": []}])
    r1 = w.commit(1, "append", [w.write_manifest("m1.avro", [entry(ADDED, mt._file(w, "a.parquet", 10))])])
    eq = mt._file(w, "eq-deletes.parquet", 1, content=2, equality_ids=[1])
    w.commit(2, "delete", [w.write_manifest("d1.avro", [entry(ADDED, eq)], content=1)], r1)
    return w


def _file_field_cases(mt: ModuleType) -> Iterator[CaseSpec]:
    """data_file fields checked against the table: split_offsets sorted ascending (132), sort_order_id
    (140, note 3; Sorting), equality_ids on no float or double column (Equality Delete Files)."""
    cases = [
        (
            "tree.split-offsets",
            "split-offsets-ascending",
            "a data file whose split_offsets [4, 4096, 8192] ascend: no violation",
            mt.rewrite_manifests,
            "m1.avro",
            0,
            {"split_offsets": [4, 4096, 8192]},
        ),
        (
            "tree.split-offsets",
            "split-offsets-descending",
            "corrupted tree: a data file whose split_offsets [4, 8192, 4096] are not sorted ascending",
            mt.rewrite_manifests,
            "m1.avro",
            0,
            {"split_offsets": [4, 8192, 4096]},
        ),
        (
            "tree.sort-order-id",
            "declared-sort-order",
            "a data file with sort_order_id 0, the unsorted order the table declares: no violation",
            mt.rewrite_manifests,
            "m1.avro",
            0,
            {"sort_order_id": 0},
        ),
        (
            "tree.sort-order-id",
            "undeclared-sort-order",
            "corrupted tree: a data file with sort_order_id 7, an order the table's sort-orders do not declare",
            mt.rewrite_manifests,
            "m1.avro",
            0,
            {"sort_order_id": 7},
        ),
        (
            "tree.sort-order-id",
            "equality-delete-undeclared-sort-order",
            "corrupted tree: an equality delete file with sort_order_id 7, an order the table does not declare",
            mt.row_delta,
            "d1.avro",
            1,
            {"sort_order_id": 7},
        ),
        (
            "tree.position-delete-sort-order",
            "position-delete-with-sort-order",
            "a position delete file written "
            "with sort_order_id 0 (a should: position deletes should set it to null; a recommendation)",
            mt.row_delta,
            "d1.avro",
            0,
            {"sort_order_id": 0},
        ),
        (
            "tree.equality-delete-columns",
            "equality-delete-on-double",
            "corrupted tree: an equality delete file whose equality_ids name the double column 3",
            lambda: double_column_deletes(mt),
            "d1.avro",
            0,
            {"equality_ids": [1, 3]},
        ),
        (
            "tree.equality-delete-columns",
            "equality-delete-on-long",
            "an equality delete file on the long column 1 of a table with a double column: no violation",
            lambda: double_column_deletes(mt),
            "d1.avro",
            0,
            {},
        ),
    ]
    for rule_id, slug, description, build, manifest, index, changes in cases:
        w = build()
        mt._edit_manifest(w, manifest, mt._data_file(index, **changes))
        yield case(rule_id, slug, description, "validate-tree", **mt._inputs(w))


def _v1_fields_ignored_case(mt: ModuleType) -> CaseSpec:
    """Writer requirements, reading v1 fields in v2: "Ignore the field" for block_size_in_bytes
    (required in v1) and file_ordinal and sort_columns (optional in v1)."""
    fields = [
        ({"name": "block_size_in_bytes", "type": "long", "field-id": 105}, 67108864),
        ({"name": "file_ordinal", "type": ["null", "int"], "field-id": 106, "default": None}, 0),
        (
            {
                "name": "sort_columns",
                "type": ["null", {"type": "array", "items": "int", "element-id": 112}],
                "field-id": 107,
                "default": None,
            },
            [1],
        ),
    ]
    w = mt._with_v1_fields(
        mt.v2_delete_rewrites_manifest(), file_fields=fields, manifests=("m1.avro", "m2.avro", "m3.avro")
    )
    return case(
        "tree.unwritten-fields",
        "v2-reader-ignores-v1-fields",
        "a v2 tree whose data files also carry the v1 fields block_size_in_bytes, file_ordinal and sort_columns: "
        "a v2 reader ignores them, and reads what it reads of the tree without them (snapshot 3)",
        "read-manifest-tree",
        snapshot_id=3,
        **mt._inputs(w, 3),
    )
