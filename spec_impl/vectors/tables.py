"""The golden table corpus (`vectors/tables/`): whole tables with the rows a correct reader returns.

Each case is a table written by the reference (`spec_impl.scan.table_writer`): metadata files,
Avro manifests, Parquet data and delete files, Puffin deletion vectors, under
`vectors/tables/<case>/`, plus `<case>/case.json` with its description, its rule ids and, for every
snapshot, the expected rows (computed by the reference reader, `spec_impl.scan.reader`).

The tables are written at the location `file:/iceberg-conformance/tables/<case>`. Paths inside
Avro and Parquet files cannot be rewritten in place, so a table is read elsewhere by writing it
again at another location (`materialize`): the generator is deterministic, and only the paths
differ.

Captured tables (`vectors/sources/tables/<case>/`, kept by `iceberg-writer-harness capture`) were
written by Iceberg Java through Spark; their expected rows are the writer harness's model, not the
reference's. They are copied into the corpus as they are, and `materialize` relocates their files
(`spec_impl.ops.relocate`) instead of writing them again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from spec_impl.resources import vectors_dir
from spec_impl import revisions
from spec_impl.manifests.inheritance import ADDED, DELETED, EXISTING
from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.manifests.writer import entry
from spec_impl.metadata.schema import parse_schema
from spec_impl.scan.reader import read_table
from spec_impl.scan.table_writer import TableBuilder
from spec_impl.ops.golden_tables import PLACEHOLDER, snapshot_case_id, table_rows
from spec_impl.ops.regeneration import recover

CAPTURED = vectors_dir() / "sources" / "tables"

ID, DATA, CATEGORY = 1, 2, 3
FIELDS = [
    {"id": ID, "name": "id", "required": True, "type": "long"},
    {"id": DATA, "name": "data", "required": False, "type": "string"},
    {"id": CATEGORY, "name": "category", "required": False, "type": "string"},
]
SCHEMA = {"type": "struct", "schema-id": 0, "fields": FIELDS}
UNPARTITIONED = {"spec-id": 0, "fields": []}
BY_CATEGORY = {
    "spec-id": 1,
    "fields": [{"source-id": CATEGORY, "field-id": 1000, "name": "category", "transform": "identity"}],
}


def rows(*values: tuple) -> list[dict[int, Any]]:
    """Records (id, data, category) by field id."""
    return [{ID: i, DATA: d, CATEGORY: c} for i, d, c in values]


@dataclass(frozen=True)
class TableCase:
    id: str
    description: str
    rules: tuple[str, ...]
    build: Callable[[str], TableBuilder]
    format_version: int


# --- the cases -----------------------------------------------------------------------------------


def position_deletes(location: str) -> TableBuilder:
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "y"), (4, "d", "y"), (5, "e", None)))
    t.commit("append", [t.added([a])])
    b = t.data("b.parquet", rows((6, "f", "x"), (7, "g", "x"), (8, "h", None)))
    same_commit = t.position_deletes("d2.parquet", [(b["file_path"], 1), (a["file_path"], 0)])
    t.commit("overwrite", [t.added([b]), t.added([same_commit])])
    later = t.position_deletes("d3.parquet", [(b["file_path"], 2), (a["file_path"], 4)], referenced=None)
    t.commit("delete", [t.added([later])])
    return t


def equality_deletes(location: str) -> TableBuilder:
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data(
        "a.parquet", rows((1, "koala", "marsupial"), (2, "teddy", "toy"), (3, "grizzly", None), (4, "polar", None))
    )
    t.commit("append", [t.added([a])])
    b = t.data("b.parquet", rows((3, "again", "toy"), (5, "panda", None)))
    by_id = t.equality_deletes("e2.parquet", [ID], [{ID: 3}])
    t.commit("overwrite", [t.added([b]), t.added([by_id])])
    two_columns = t.equality_deletes(
        "e3.parquet", [ID, CATEGORY], [{ID: 4, CATEGORY: None}, {ID: 5, CATEGORY: "toy"}, {ID: 1, CATEGORY: None}]
    )
    t.commit("delete", [t.added([two_columns])])
    newer = t.data(
        "c.parquet", rows((3, "newer", None), (4, "newer", None))
    )  # data newer than every delete: none applies
    t.commit("append", [t.added([newer])])
    return t


def name_mapped(location: str) -> TableBuilder:
    """A data file written without field ids (as imported Parquet files are), read through the
    table's default name mapping; a column the mapping leaves out reads as null."""
    t = TableBuilder(location, 2, SCHEMA)
    mapping = [{"field-id": ID, "names": ["id", "record_id"]}, {"field-id": DATA, "names": ["data"]}]
    t.tree.properties["schema.name-mapping.default"] = json.dumps(mapping)
    a = t.data_without_ids(
        "imported.parquet",
        pa.table({"record_id": pa.array([1, 2], pa.int64()), "data": ["a", "b"], "category": ["x", "y"]}),
    )
    t.commit("append", [t.added([a])])
    b = t.data("b.parquet", rows((3, "c", "z")))
    t.commit("append", [t.added([b])])
    return t


def global_equality_deletes(location: str) -> TableBuilder:
    t = TableBuilder(location, 2, SCHEMA, specs=[UNPARTITIONED, BY_CATEGORY])
    x = t.data("x.parquet", rows((1, "a", "x"), (2, "b", "x")), partition={"category": "x"})
    y = t.data("y.parquet", rows((1, "c", "y"), (3, "d", "y")), partition={"category": "y"})
    t.commit("append", [t.added([x, y], spec_id=1)])
    scoped = t.equality_deletes("e-y.parquet", [ID], [{ID: 3}, {ID: 2}], partition={"category": "y"})
    t.commit("delete", [t.added([scoped], spec_id=1)])
    global_ = t.equality_deletes("e-global.parquet", [ID], [{ID: 1}], partition={})
    t.commit("delete", [t.added([global_], spec_id=0)])
    return t


def partition_evolution(location: str) -> TableBuilder:
    t = TableBuilder(location, 2, SCHEMA, specs=[UNPARTITIONED])
    old = t.data("old.parquet", rows((1, "a", "x"), (2, "b", "x")), partition={})
    t.commit("append", [t.added([old], spec_id=0)])
    t.tree.add_spec(BY_CATEGORY)
    new = t.data("new.parquet", rows((3, "c", "x"), (4, "d", "x")), partition={"category": "x"})
    t.commit("append", [t.added([new], spec_id=1)])
    # a position delete under the old (unpartitioned) spec names rows of both files: it applies to the old file only
    old_spec = t.position_deletes("d-old-spec.parquet", [(old["file_path"], 0), (new["file_path"], 0)], partition={})
    # an equality delete under the new spec's partition x applies to the new file only
    new_spec = t.equality_deletes("e-new-spec.parquet", [ID], [{ID: 2}, {ID: 4}], partition={"category": "x"})
    t.commit("delete", [t.added([old_spec], spec_id=0), t.added([new_spec], spec_id=1)])
    return t


def upgrade_to_v3(location: str) -> TableBuilder:
    t = TableBuilder(location, 1, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "y")))
    t.commit(
        "append",
        [
            t.manifest(
                [{"status": 1, "snapshot_id": 1, "sequence_number": None, "file_sequence_number": None, "data_file": a}]
            )
        ],
    )
    t.tree.upgrade(2)
    d = t.position_deletes("d2.parquet", [(a["file_path"], 1)])
    t.commit("delete", [t.added([d])])
    t.tree.upgrade(3)
    b = t.data("b.parquet", rows((4, "d", "y"), (5, "e", None)))
    t.commit("append", [t.added([b])])
    return t


def dv_and_position_file(location: str) -> TableBuilder:
    """Spark never writes this: a v2 position delete file for a, then (after the upgrade to v3) a
    DV for a that does not carry the file's deletes. It breaks the writer rule history.dv-merged on
    purpose (the validator reports it) to test the readers' rule: readers ignore position delete
    files where a DV applies, so row 0 comes back; a reader that applies both loses it."""
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "x")))
    b = t.data("b.parquet", rows((4, "d", "y"), (5, "e", "y")))
    t.commit("append", [t.added([a, b])])
    pos = t.position_deletes("d2.parquet", [(a["file_path"], 0), (b["file_path"], 0)])
    t.commit("delete", [t.added([pos])])
    t.tree.upgrade(3)
    dv = t.deletion_vector("dv3.puffin", a["file_path"], [1])
    t.commit("delete", [t.added([dv])])
    return t


def dv_replaced(location: str) -> TableBuilder:
    t = TableBuilder(location, 3, SCHEMA)
    a = t.data("a.parquet", rows(*((i, f"v{i}", "x") for i in range(10))))
    t.commit("append", [t.added([a])])
    dv1 = t.deletion_vector("dv2.puffin", a["file_path"], [1])
    first = t.added([dv1])
    t.commit("delete", [first])
    dv2 = t.deletion_vector("dv3.puffin", a["file_path"], [1, 2, 9])
    t.commit("delete", [t.removed([(dv1, 2)]), t.added([dv2])], t.without(first))
    return t


def evolved_schema(location: str) -> TableBuilder:
    """v3: the data column renamed, a column added with an initial-default, and the category
    column dropped after an equality delete on it was written."""
    t = TableBuilder(location, 3, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "y"), (3, "c", "x")))
    t.commit("append", [t.added([a])])
    on_category = t.equality_deletes("e-category.parquet", [CATEGORY], [{CATEGORY: "y"}])
    t.commit("delete", [t.added([on_category])])
    score = {"id": 4, "name": "score", "required": False, "type": "int", "initial-default": 7, "write-default": 7}
    t.tree.evolve_schema({"type": "struct", "schema-id": 1, "fields": [FIELDS[0], dict(FIELDS[1], name="name"), score]})
    b = t.data("b.parquet", [{ID: 4, DATA: "d", 4: 1}, {ID: 5, DATA: "e", 4: 7}])
    t.commit("append", [t.added([b])])
    on_score = t.equality_deletes("e-score.parquet", [4], [{4: 7}], schema=parse_schema(t.tree.schema, 3))
    t.commit("delete", [t.added([on_score])])
    return t


def promoted_columns(location: str) -> TableBuilder:
    t = TableBuilder(
        location,
        2,
        {
            "type": "struct",
            "schema-id": 0,
            "fields": [
                {"id": 1, "name": "id", "required": True, "type": "int"},
                {"id": 2, "name": "amount", "required": False, "type": "float"},
            ],
        },
    )
    a = t.data("a.parquet", [{1: 1, 2: 1.5}, {1: 2147483647, 2: None}])
    t.commit("append", [t.added([a])])
    t.tree.evolve_schema(
        {
            "type": "struct",
            "schema-id": 1,
            "fields": [
                {"id": 2, "name": "value", "required": False, "type": "double"},
                {"id": 1, "name": "key", "required": True, "type": "long"},
            ],
        }
    )
    b = t.data("b.parquet", [{1: 2147483648, 2: 0.1}])
    t.commit("append", [t.added([b])])
    return t


def dvs_in_one_puffin(location: str) -> TableBuilder:
    """v3: one Puffin file holds the deletion vectors of two data files, as Iceberg Java writes them:
    two delete-file entries with the same file_path, each applying to its own referenced_data_file"""
    t = TableBuilder(location, 3, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "x")))
    b = t.data("b.parquet", rows((4, "d", "y"), (5, "e", "y")))
    t.commit("append", [t.added([a, b])])
    dvs = t.deletion_vectors("dvs.puffin", {a["file_path"]: [0, 2], b["file_path"]: [1]})
    t.commit("delete", [t.added(dvs)])
    return t


def column_dropped_after_commit(location: str) -> TableBuilder:
    """v2: a column dropped after the last commit: the current snapshot, read by its id, still reads
    with its own schema (the dropped column included); only a read of the table uses the new schema"""
    t = TableBuilder(location, 2, SCHEMA)
    t.commit("append", [t.added([t.data("a.parquet", rows((1, "a", "x"), (2, "b", None)))])])
    t.tree.evolve_schema({"type": "struct", "schema-id": 1, "fields": FIELDS[:2]})
    t.tree.write_metadata()
    return t


def deleted_entries(location: str) -> TableBuilder:
    """v2: an overwrite that removes data file b and position delete file d (restoring row 1 of a,
    which d deleted) by rewriting both manifests: b and d become DELETED entries beside the EXISTING
    a and position delete file e. The files stay in storage; a reader that still used b or d returns
    rows 4 and 5 again or loses row 1"""
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "y")))
    b = t.data("b.parquet", rows((4, "d", "y"), (5, "e", "y")))
    t.commit("append", [t.added([a, b])])
    d = t.position_deletes("d.parquet", [(a["file_path"], 0)])
    e = t.position_deletes("e.parquet", [(a["file_path"], 2)])
    t.commit("delete", [t.added([d, e])])
    data = t.manifest([entry(EXISTING, a, 1, 1, 1), entry(DELETED, b, 3, 1, 1)], content=0)
    deletes = t.manifest([entry(DELETED, d, 3, 2, 2), entry(EXISTING, e, 2, 2, 2)], content=1)
    t.commit("overwrite", [data, deletes], [])
    return t


def rewritten_with_data_sequence_number(location: str) -> TableBuilder:
    """v2: a compaction planned before an equality delete commits after it, keeping its input's data
    sequence number 1 (file sequence number 3): the delete (data sequence number 2) still applies to
    the rewritten file, so row 2 stays deleted; a reader comparing file sequence numbers returns it"""
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "x")))
    first = t.added([a])
    t.commit("append", [first])
    e = t.equality_deletes("e.parquet", [ID], [{ID: 2}])
    t.commit("delete", [t.added([e])])
    compacted = t.data("a-compacted.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "x")))
    rewritten = t.manifest([entry(DELETED, a, 3, 1, 1), entry(ADDED, compacted, None, 1, None)], content=0)
    t.commit("replace", [rewritten], t.without(first))
    return t


def position_delete_sort_order(location: str) -> TableBuilder:
    """v2: a position delete file written with sort_order_id 3, an order the table does not declare
    (a writer should set it to null): readers must ignore it and apply the deletes as any others"""
    t = TableBuilder(location, 2, SCHEMA)
    a = t.data("a.parquet", rows((1, "a", "x"), (2, "b", "x"), (3, "c", "y"), (4, "d", None)))
    t.commit("append", [t.added([a])])
    deletes = t.position_deletes("d2.parquet", [(a["file_path"], 1), (a["file_path"], 3)])
    t.commit("delete", [t.added([dict(deletes, sort_order_id=3)])])
    return t


CASES = [
    TableCase(
        "position-deletes",
        "v2: position deletes apply to older data files and to files of the same commit (equal sequence "
        "numbers), only at the positions they name",
        ("deletes.position-scope", "deletes.position-rows"),
        position_deletes,
        2,
    ),
    TableCase(
        "equality-deletes",
        "v2: an equality delete does not apply to data of its own commit nor to newer data; null in a delete "
        "column matches null; several delete columns are an AND",
        ("deletes.equality-scope", "deletes.equality-rows", "deletes.equality-columns", "scan.snapshot"),
        equality_deletes,
        2,
    ),
    TableCase(
        "name-mapped",
        (name_mapped.__doc__ or "").strip().replace("\n    ", " "),
        ("name-mapping.lookup", "projection.missing.null"),
        name_mapped,
        2,
    ),
    TableCase(
        "global-equality-deletes",
        "v2: an equality delete under the unpartitioned spec applies to every partition; one in "
        "partition category=y to that partition only",
        ("deletes.equality-scope",),
        global_equality_deletes,
        2,
    ),
    TableCase(
        "partition-evolution",
        "v2: deletes written under one spec do not apply to files of another partitioned spec; a position "
        "delete under the unpartitioned spec is not global",
        ("deletes.position-scope", "deletes.equality-scope"),
        partition_evolution,
        2,
    ),
    TableCase(
        "upgrade-v1-v2-v3",
        "a v1 append, a v2 position delete, a v3 append: every snapshot's rows, and in v3 the row ids the "
        "first v3 snapshot assigns to all files",
        ("manifest.v1-defaults", "lineage.row-values"),
        upgrade_to_v3,
        3,
    ),
    TableCase(
        "dv-and-position-file",
        (dv_and_position_file.__doc__ or "").strip().replace("\n    ", " "),
        ("deletes.dv-scope", "deletes.dv-rows"),
        dv_and_position_file,
        3,
    ),
    TableCase(
        "dv-replaced",
        "v3: a deletion vector replaced by a new one (the old one DELETED): the new one alone applies",
        ("deletes.dv-scope", "deletes.one-dv"),
        dv_replaced,
        3,
    ),
    TableCase(
        "evolved-schema",
        (evolved_schema.__doc__ or "").strip().replace("\n    ", " ") + ": the dropped column's delete still "
        "applies, and older files read the added column's default 7 when an equality delete names it",
        ("deletes.equality-rows", "projection.missing.default", "projection.by-id"),
        evolved_schema,
        3,
    ),
    TableCase(
        "dvs-in-one-puffin",
        (dvs_in_one_puffin.__doc__ or "").strip().replace("\n    ", " "),
        ("deletes.dv-scope", "tree.unique-live-files"),
        dvs_in_one_puffin,
        3,
    ),
    TableCase(
        "column-dropped-after-commit",
        (column_dropped_after_commit.__doc__ or "").strip().replace("\n    ", " "),
        ("scan.read-schema",),
        column_dropped_after_commit,
        2,
    ),
    TableCase(
        "deleted-entries",
        (deleted_entries.__doc__ or "").strip().replace("\n    ", " "),
        ("scan.snapshot",),
        deleted_entries,
        2,
    ),
    TableCase(
        "data-sequence-number-kept",
        (rewritten_with_data_sequence_number.__doc__ or "").strip().replace("\n    ", " "),
        ("deletes.equality-scope", "manifest.inherit.sequence-number"),
        rewritten_with_data_sequence_number,
        2,
    ),
    TableCase(
        "position-delete-sort-order",
        (position_delete_sort_order.__doc__ or "").strip().replace("\n    ", " "),
        ("deletes.position-rows",),
        position_delete_sort_order,
        2,
    ),
    TableCase(
        "promoted-columns",
        "v2: int promoted to long and float to double, renamed and reordered: older files read through "
        "the promotions; an older snapshot reads with its own schema",
        ("projection.promotion", "projection.by-id", "scan.read-schema"),
        promoted_columns,
        2,
    ),
]


# --- rendering -------------------------------------------------------------------------------------


def build(case_id: str, location: str | None = None) -> tuple[TableCase, TableBuilder]:
    """The table of a case written at `location` (default: its placeholder location)."""
    case = next((c for c in CASES if c.id == case_id), None)
    if case is None:
        raise KeyError(f"no golden table {case_id!r} (the tables are: {', '.join(all_ids())})")
    return case, case.build(location or f"{PLACEHOLDER}/{case_id}")


def all_ids() -> list[str]:
    """Every golden table: those the reference writes, then the captured ones."""
    return [c.id for c in CASES] + captured_ids()


def expected_rows(t: TableBuilder, snapshot_id: int, format_version: int, revision: str = revisions.DEFAULT) -> dict:
    """The columns and rows of one snapshot, as the reference reader returns them."""
    table = read_table(
        InMemoryFiles(t.files),
        t.tree.metadata_location,
        snapshot_id,
        with_lineage=format_version >= 3,
        revision=revision,
    )
    return table_rows(table)


def case_document(case: TableCase, t: TableBuilder) -> dict:
    snapshots = []
    for s in t.tree.snapshots:
        expected = expected_rows(t, s["snapshot-id"], case.format_version)
        snapshots.append({"snapshot-id": s["snapshot-id"], "operation": s["summary"]["operation"], **expected})
    return {
        "id": case.id,
        "description": case.description,
        "rules": list(case.rules),
        "format-version": case.format_version,
        "location": t.location,
        "metadata-location": t.tree.metadata_location,
        "snapshots": _with_obligations(case.id, case.rules, _with_provenance(case.id, snapshots)),
    }


def _with_provenance(table_id: str, snapshots: list[dict], declared: dict | None = None) -> list[dict]:
    """Each snapshot with the provenance of its expected rows: what the table declares, with the
    engines recorded as agreeing (spec_impl.vectors.provenance), else engine-confirmed or reference-only."""
    from spec_impl.vectors.provenance import provenance_for

    return [
        {
            **s,
            "provenance": provenance_for(
                snapshot_case_id(table_id, s["snapshot-id"]),
                declared,
                {"output": {"columns": s["columns"], "rows": s["rows"]}},
            ),
        }
        for s in snapshots
    ]


def _with_obligations(table_id: str, rules: list[str] | tuple[str, ...], snapshots: list[dict]) -> list[dict]:
    """Each snapshot with its obligation (`spec_impl.obligations`): what the spec requires of its rows."""
    from spec_impl.obligations import obligation_for

    return [
        {
            **s,
            "obligation": obligation_for(
                {
                    "id": snapshot_case_id(table_id, s["snapshot-id"]),
                    "rule": rules[0],
                    "op": "read-table",
                    "input": {},
                    "expected": {"output": {"columns": s["columns"], "rows": s["rows"]}},
                }
            ),
        }
        for s in snapshots
    ]


def render() -> dict[str, bytes]:
    """Every file of the corpus, by its path under vectors/tables/."""
    files: dict[str, bytes] = {}
    for case in CASES:
        location = f"{PLACEHOLDER}/{case.id}"
        _, t = build(case.id, location)
        for path, data in t.files.items():
            files[f"{case.id}/{path[len(location) + 1 :]}"] = data
        files[f"{case.id}/case.json"] = _dumps(case_document(case, t))
    for case_id in captured_ids():
        for path, data in _captured_files(case_id).items():
            files[f"{case_id}/{path[len(PLACEHOLDER) + len(case_id) + 2 :]}"] = data
        files[f"{case_id}/case.json"] = _dumps(captured_document(case_id))
    return files


def _dumps(document: dict) -> bytes:
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


# --- captured tables (written by Iceberg Java through Spark) ------------------------------------------


def captured_ids() -> list[str]:
    recover(CAPTURED.parents[1])  # the vectors directory, whole after an interrupted regeneration
    return sorted(p.parent.name for p in CAPTURED.glob("*/capture.json"))


def _capture(case_id: str) -> dict:
    return json.loads((CAPTURED / case_id / "capture.json").read_text(encoding="utf-8"))


def _captured_files(case_id: str) -> dict[str, bytes]:
    """The captured table's files by their path at its placeholder location."""
    root = CAPTURED / case_id
    return {
        f"{PLACEHOLDER}/{case_id}/{p.relative_to(root).as_posix()}": p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "capture.json"
    }


def captured_document(case_id: str) -> dict:
    """The case.json of a captured table: its capture, whose rows come from the writer harness's model."""
    from spec_impl.vectors.provenance import engine_written

    c = _capture(case_id)
    keys = (
        "id",
        "description",
        "rules",
        "format-version",
        "location",
        "metadata-location",
        "writer",
        "expected-rows",
        "history",
        "known-findings",
    )
    declared = engine_written(
        f"files written by {c['writer']}; expected rows: {c['expected-rows']}",
        [{"engine": "iceberg-java", "version": c["writer"]}],
    )
    return {
        **{k: c[k] for k in keys},
        "snapshots": _with_obligations(case_id, c["rules"], _with_provenance(case_id, c["snapshots"], declared)),
    }


def table_files(case_id: str) -> tuple[dict[str, bytes], str, int]:
    """A golden table's files at its placeholder location, its metadata location and format version."""
    if case_id in captured_ids():
        doc = _capture(case_id)
        return _captured_files(case_id), doc["metadata-location"], doc["format-version"]
    case, t = build(case_id)
    return t.files, t.tree.metadata_location, case.format_version


def materialize(case_id: str, directory: Path) -> tuple[str, dict]:
    """Write the table of `case_id` under `directory` (its location becomes `file:<directory>`);
    returns its metadata location and its case document."""
    from spec_impl.ops.relocate import relocate

    location = f"file:{Path(directory).resolve()}"
    if case_id in captured_ids():
        doc = captured_document(case_id)
        files = relocate(_captured_files(case_id), doc["location"], location)
        metadata_location = location + doc["metadata-location"][len(doc["location"]) :]
    else:
        case, t = build(case_id, location)
        files, metadata_location, doc = t.files, t.tree.metadata_location, case_document(case, t)
    for path, data in files.items():
        local = Path(directory) / path[len(location) + 1 :]
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
    return metadata_location, doc
