"""The writers of the writer harness (`conformance.writer_harness`): the writer base and registry,
the step table every writer shares, and the writers other than Spark (PyIceberg, ClickHouse through
chDB, DuckDB): what is drawn for each, their predicates as each writes them, and how their errors
sort into refusals, crashes and the harness's own faults. No Spark session.

    pytest conformance/test_writer_harness_writers.py -m writer
"""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck

from conformance.conftest import ENGINES_EXTRA
from conformance.writer_harness import scenario, steps, values, writers
from conformance.writer_harness.writers.chdb import ChdbTable
from conformance.writer_harness.writers.duckdb import DuckDBTable
from conformance.writer_harness.strategies import histories
from conformance.writer_harness.writer_base import STEP_OPS, Unsupported, Writer

pytestmark = pytest.mark.writer
PACKAGE = Path(__file__).parent / "writer_harness"


# --- the writer base, the registry and the step table ---------------------------------------------------


def test_every_op_of_the_interface_is_in_the_step_table_once():
    assert sorted(steps.BY_OP) == sorted(STEP_OPS) and len(steps.TABLE) == len(STEP_OPS)


def test_each_writer_declares_its_versions_and_the_steps_it_overrides():
    offered = {kind: writers.load(kind).steps for kind in writers.WRITERS}
    assert offered["spark"] == set(STEP_OPS)
    assert offered["chdb"] == {
        "insert",
        "insert-many",
        "delete",
        "update",
        "add-column",
        "drop-column",
        "rename-column",
        "move-column",
        "widen-column",
    }
    assert offered["duckdb"] - offered["pyiceberg"] == {"update", "merge"}
    assert {"update", "merge", "equality-delete", "cherrypick"}.isdisjoint(offered["pyiceberg"])
    assert {kind: writers.load(kind).versions for kind in writers.WRITERS} == {
        "spark": (1, 2, 3),
        "pyiceberg": (1, 2),
        "chdb": (2,),
        "duckdb": (1, 2),
    }


def test_a_step_a_writer_does_not_offer_is_refused_with_its_reason(tmp_path):
    chdb, duckdb = ChdbTable(None, tmp_path, "t"), DuckDBTable(None, tmp_path, "t")
    with pytest.raises(Unsupported, match="^ClickHouse has no MERGE$"):
        chdb.merge([], [], None, {}, None)
    with pytest.raises(Unsupported, match="^ClickHouse creates no branches or tags$"):
        chdb.create_tag("t1")
    with pytest.raises(Unsupported, match="^DuckDB writes no equality delete files$"):
        duckdb.equality_delete([], [], {})
    with pytest.raises(Unsupported, match="^DuckDB's ALTER TABLE cannot move a column$"):
        duckdb.move_column("c", None)

    class Toy(Writer):
        kind, label = "toy", "Toy"

        def insert(self, columns, rows, branch):
            pass

    assert Toy.steps == {"insert"}
    with pytest.raises(Unsupported, match="^Toy does not offer the step rollback$"):
        Toy().rollback(1)


def test_the_registry_loads_each_writer_by_name_and_names_the_writer_of_a_scenario():
    assert all(writers.load(kind).kind == kind for kind in writers.WRITERS)
    with pytest.raises(ValueError, match="no writer 'nope'"):
        writers.load("nope")
    assert writers.kind_of("DuckDB 1.5.5 (duckdb)") == "duckdb"
    assert writers.kind_of("Iceberg Java 1.10.2 through Spark 4.0.1") == "spark"
    assert writers.kind_of(None) is None


def test_no_module_of_the_writer_harness_imports_a_writer_module():
    """The writers are loaded by name (`writers.BUILTIN`): no module imports one, so no import cycle
    runs through the writers and the modules they import."""
    writer_modules = {path.partition(":")[0] for path in writers.BUILTIN.values()}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                base = ".".join([*anchor, *([node.module] if node.module else [])])
                named = {base} | {f"{base}.{a.name}" for a in node.names}
                assert not (named & writer_modules) or module in writer_modules, (path.name, base)


# --- PyIceberg as a writer -----------------------------------------------------------------------------


def test_pyiceberg_histories_draw_only_what_pyiceberg_writes():
    from hypothesis import given as given_, settings as settings_

    @settings_(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given_(histories(max_steps=10, writer="pyiceberg"))
    def check(history):
        scenario.validate(history)
        assert history["writer"] == "pyiceberg" and history["table"]["format-version"] in (1, 2)
        assert not {s["op"] for s in history["steps"]} & {
            "update",
            "merge",
            "equality-delete",
            "cherrypick",
            "rewrite-data-files",
            "rewrite-manifests",
            "rewrite-position-deletes",
        }
        assert all(s["format-version"] == 2 for s in history["steps"] if s["op"] == "upgrade")

    check()


def test_pyiceberg_delete_filters_hold_where_the_sql_predicate_holds():
    """The PyIceberg expression of a predicate selects, row by row (through PyIceberg's own Arrow
    translation), exactly the rows the model's SQL semantics select: nulls, NaN, -0.0, NOT."""
    pytest.importorskip("pyiceberg", reason=f"PyIceberg is in the engines extra ({ENGINES_EXTRA})")
    import pyarrow as pa
    from pyiceberg.expressions.visitors import bind
    from pyiceberg.io.pyarrow import expression_to_pyarrow

    from conformance.writer_harness import predicates
    from conformance.writer_harness.writers.pyiceberg import _Ids, arrow_type, expression, iceberg_type
    from pyiceberg.schema import Schema
    from pyiceberg.types import NestedField

    types = {"id": "bigint", "f": "double", "s": "string", "n": "decimal(5,2)"}
    rows = [
        {"id": i, "f": f, "s": s, "n": n}
        for i, (f, s, n) in enumerate(
            [
                (float("nan"), None, "1.00"),
                (-0.0, "a", None),
                (0.0, "", "-1.50"),
                (None, "b", "0.00"),
                (1.5, None, None),
                (float("-inf"), "😀", "2.25"),
            ]
        )
    ]
    ids = _Ids()
    schema = Schema(*[NestedField(ids(), n, iceberg_type(t, ids), required=n == "id") for n, t in types.items()])
    model = [{**r, "n": None if r["n"] is None else __import__("decimal").Decimal(r["n"])} for r in rows]
    table = pa.Table.from_pylist(model, schema=pa.schema([(n, arrow_type(t)) for n, t in types.items()]))
    leaves = [
        {"op": "<", "column": "f", "value": 0.0},
        {"op": ">=", "column": "f", "value": "NaN"},
        {"op": "=", "column": "f", "value": 0.0},
        {"op": ">=", "column": "f", "value": -1.0},
        {"op": "is-null", "column": "s"},
        {"op": "<", "column": "s", "value": "b"},
        {"op": "=", "column": "n", "value": "0.00"},
        {"op": "id-mod", "mod": 2, "rest": 1},
    ]
    preds = (
        leaves
        + [{"op": "not", "arg": p} for p in leaves]
        + [{"op": k, "args": [a, b]} for k in ("and", "or") for a in leaves[:4] for b in leaves[4:]]
    )
    for pred in preds:
        want = sorted(r["id"] for r in model if predicates.holds(pred, r, types))
        got = table.filter(
            expression_to_pyarrow(bind(schema, expression(pred, types, set(range(6))), case_sensitive=True))
        )
        assert sorted(got.column("id").to_pylist()) == want, pred


def test_pyiceberg_errors_sort_into_refusals_crashes_and_harness_faults():
    """A ValueError PyIceberg raises itself is a refusal; another exception raised inside PyIceberg
    is a crash (writer-crash); one that never entered PyIceberg is the harness's own."""
    pytest.importorskip("pyiceberg", reason=f"PyIceberg is in the engines extra ({ENGINES_EXTRA})")
    from pyiceberg.expressions.literals import literal
    from pyiceberg.utils.decimal import decimal_required_bytes

    from conformance.writer_harness.writers.pyiceberg import PyIcebergTable

    table = PyIcebergTable(None, Path("/nonexistent"), "t")

    def kind(action):
        try:
            action()
        except Exception as e:
            return table.classify(e)[0]

    assert kind(lambda: decimal_required_bytes(100)) == "refused"
    assert kind(lambda: literal(object())) == "crash"
    assert kind(lambda: int("x")) == "harness"
    assert PyIcebergTable.crash_check == "writer-crash"


# --- ClickHouse (chDB) as a writer -------------------------------------------------------------------


def test_chdb_histories_draw_only_what_chdb_writes():
    from hypothesis import given as given_, settings as settings_

    @settings_(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given_(histories(max_steps=10, writer="chdb"))
    def check(history):
        scenario.validate(history)
        assert history["writer"] == "chdb" and history["table"]["format-version"] == 2
        assert history["table"]["properties"] == {"format-version": "2"}
        assert {s["op"] for s in history["steps"]} <= ChdbTable.steps
        types = [c["type"] for c in history["table"]["columns"]] + [
            s["type"] for s in history["steps"] if s["op"] == "add-column"
        ]
        assert not any(values.kind(t) in ("boolean", "binary", "struct", "array", "map") for t in types), types

    check()


def test_chdb_conditions_hold_where_the_sql_predicate_holds(tmp_path):
    """The ClickHouse expression of a predicate selects, in chDB itself, exactly the rows the model's
    SQL semantics select: nulls, NaN (which ClickHouse never finds equal), -0.0, NOT."""
    pytest.importorskip("chdb", reason="chDB is in the engines extra")
    from conformance.writer_harness import predicates
    from conformance.writer_harness.writers.chdb import _Conditions, column_sql, literal, session

    types = {"id": "bigint", "f": "double", "s": "string", "n": "decimal(5,2)", "t": "timestamp"}
    model = [
        {"id": i, "f": f, "s": s, "n": None if n is None else Decimal(n), "t": t}
        for i, (f, s, n, t) in enumerate(
            [
                (float("nan"), None, "1.00", 0),
                (-0.0, "a", None, -1),
                (0.0, "", "-1.50", None),
                (None, "b", "0.00", 86_400_000_000),
                (1.5, None, None, 1),
                (float("-inf"), "😀", "2.25", -62135596800000000),
            ]
        )
    ]
    s = session(tmp_path)
    s.query(f"CREATE TABLE rows ({', '.join(column_sql(n, t, n != 'id') for n, t in types.items())}) ENGINE = Memory")
    s.query(
        "INSERT INTO rows VALUES "
        + ", ".join("(" + ", ".join(literal(t, r[n]) for n, t in types.items()) + ")" for r in model)
    )
    leaves = [
        {"op": "<", "column": "f", "value": 0.0},
        {"op": ">=", "column": "f", "value": "NaN"},
        {"op": "=", "column": "f", "value": 0.0},
        {"op": ">=", "column": "f", "value": -1.0},
        {"op": "is-null", "column": "s"},
        {"op": "<", "column": "s", "value": "b"},
        {"op": "=", "column": "n", "value": "0.00"},
        {"op": "<", "column": "t", "value": 1},
        {"op": "id-mod", "mod": 2, "rest": 1},
    ]
    preds = (
        leaves
        + [{"op": "not", "arg": p} for p in leaves]
        + [{"op": k, "args": [a, b]} for k in ("and", "or") for a in leaves[:4] for b in leaves[4:]]
    )
    for pred in preds:
        want = sorted(r["id"] for r in model if predicates.holds(pred, r, types))
        got = s.query(
            f"SELECT id FROM rows WHERE {predicates.exact(pred, types, set(range(6)), _Conditions())} ORDER BY id"
        )
        assert [int(x) for x in got.split()] == want, pred


def test_chdb_errors_sort_into_refusals_crashes_and_harness_faults(tmp_path):
    """A ClickHouse error is a refusal, except an internal one (LOGICAL_ERROR) or the process ending,
    which are crashes, and a malformed query of the harness's own."""
    from conformance.writer_harness.writers.chdb import ChdbError, ChdbTable
    from conformance.writer_harness.child_session import Died

    table = ChdbTable(None, tmp_path, "t")
    assert (
        table.classify(
            ChdbError(
                "Code: 36. DB::Exception: Iceberg spec doesn't allow to add non-nullable columns. (BAD_ARGUMENTS)"
            )
        )[0]
        == "refused"
    )
    assert table.classify(ChdbError("Code: 49. DB::Exception: Unexpected state. (LOGICAL_ERROR)"))[0] == "crash"
    assert table.classify(Died("the chDB process ended (exit code -6)"))[0] == "crash"
    assert (
        table.classify(ChdbError("Code: 62. DB::Exception: Syntax error: failed at position 1. (SYNTAX_ERROR)"))[0]
        == "harness"
    )
    assert table.classify(KeyError("x"))[0] == "harness"


# --- DuckDB as a writer, through the harness's REST catalog -------------------------------------------


def test_duckdb_histories_draw_only_what_duckdb_writes():
    from hypothesis import given as given_, settings as settings_

    @settings_(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given_(histories(max_steps=10, writer="duckdb"))
    def check(history):
        scenario.validate(history)
        assert history["writer"] == "duckdb" and history["table"]["format-version"] in (1, 2)
        assert {s["op"] for s in history["steps"]} <= DuckDBTable.steps
        assert all(s["format-version"] == 2 for s in history["steps"] if s["op"] == "upgrade")
        assert not any(
            values.kind(s["type"]) in ("struct", "array", "map") for s in history["steps"] if s["op"] == "add-column"
        )

    check()
