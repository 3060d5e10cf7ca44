"""The writer harness (`conformance.writer_harness`): generated histories written by Iceberg Java
through Spark and checked after every step, the recorded findings replayed, and the harness's own
checks shown able to fail; PyIceberg as a second writer, checked the same way. The writer base, the
step table and the writers' own tests without Spark: `test_writer_harness_writers.py`.

    pytest conformance/ -m writer                         # the fixed-seed budget and the harness tests
    WRITER_HARNESS_EXAMPLES=50 pytest conformance/ -m writer -k generated

The fixed-seed budget is small (see EXAMPLES); deep searches run with `iceberg-writer-harness run`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, seed, settings

from conformance.writer_harness import cli, scenario
from conformance.writer_harness.harness import classify, known_findings
from conformance.writer_harness.strategies import histories
from spec_impl.resources import writers_ledger_file

pytestmark = pytest.mark.writer

EXAMPLES = int(os.environ.get("WRITER_HARNESS_EXAMPLES", "12"))
STEPS = int(os.environ.get("WRITER_HARNESS_STEPS", "6"))
SEED = int(os.environ.get("WRITER_HARNESS_SEED", "20261124"))
SCENARIOS = sorted((Path(__file__).parent / "writer_harness" / "scenarios").glob("*.json"))

V2_MOR = {
    "format-version": 2,
    "columns": [
        {"name": "id", "type": "bigint"},
        {"name": "c1", "type": "decimal(9,2)"},
        {"name": "c2", "type": "string"},
    ],
    "partition": [
        {"transform": "truncate", "param": 3, "column": "c1", "name": "c1_trunc"},
        {"transform": "bucket", "param": 4, "column": "c2", "name": "c2_bucket"},
    ],
    "properties": {
        "format-version": "2",
        "write.delete.mode": "merge-on-read",
        "write.update.mode": "merge-on-read",
        "write.merge.mode": "merge-on-read",
    },
    "spark": {"shuffle-partitions": 2, "write-tasks": 2},
}
ROWS = [{"id": i, "c1": f"{i - 3}.05", "c2": "x" * i} for i in range(6)]
DELETING = {
    "format": scenario.FORMAT,
    "table": V2_MOR,
    "steps": [
        {"op": "insert", "rows": ROWS, "branch": None},
        {"op": "delete", "where": {"op": "id-mod", "mod": 2, "rest": 0}, "branch": None},
    ],
}
PYICEBERG = {
    "format": scenario.FORMAT,
    "writer": "pyiceberg",
    "table": {
        **V2_MOR,
        "columns": [*V2_MOR["columns"], {"name": "d", "type": "date"}],
        "partition": V2_MOR["partition"][1:],
    },
    "steps": [
        {"op": "insert", "rows": [{**r, "d": 19000 + r["id"]} for r in ROWS], "branch": None},
        {"op": "add-column", "name": "a1", "type": "int", "default": None},
        {"op": "insert", "rows": [{"id": 6, "c1": "1.00", "c2": "q", "d": -1, "a1": 7}], "branch": None},
        {
            "op": "delete",
            "where": {
                "op": "or",
                "args": [
                    {"op": "id-mod", "mod": 3, "rest": 0},
                    {"op": "not", "arg": {"op": "<", "column": "c1", "value": "0.00"}},
                ],
            },
            "branch": None,
        },
        {"op": "add-partition-field", "field": {"transform": "month", "column": "d", "name": "p1"}},
        {"op": "insert", "rows": [{"id": 7, "c1": "-2.50", "c2": "", "d": 19500, "a1": None}], "branch": None},
        {"op": "delete", "where": {"op": "is-null", "column": "a1"}, "branch": None},
    ],
}


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    from conformance.engines.iceberg_java import spark as spark_session
    from conformance.writer_harness.harness import Harness

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(reason)
    h = Harness(tmp_path_factory.mktemp("writer-harness"))
    yield h
    h.close()


def _new(harness, outcome):
    return classify(outcome.findings, harness.known)[0]


# --- generated histories ---------------------------------------------------------------------------


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@seed(SEED)
@given(history=histories(max_steps=STEPS))
def test_generated_histories_have_no_new_finding(harness, history):
    """A fixed-seed search: every step of every history passes every check, except known findings.
    Hypothesis shrinks a failure to a minimal history, which it prints (replay it with
    `iceberg-writer-harness replay`)."""
    outcome = harness.run(history)
    assert outcome.steps_run + len(outcome.refused) + len(outcome.skipped) >= 1 or outcome.findings
    new = _new(harness, outcome)
    assert not new, json.dumps({**history, "findings": [f.to_json() for f in new]}, ensure_ascii=False)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_recorded_scenario_still_shows_its_known_finding(harness, path):
    """Each recorded finding's minimal history still shows exactly the known finding it was saved for
    (when Iceberg fixes it, this fails: then the scenario names the release, `fixed-in`, and from
    then on must not show it: the fix holds)."""
    doc = scenario.load(path)
    outcome = harness.run(
        {k: doc[k] for k in ("format", "table", "steps", "writer") if k in doc}
    )  # the writer the scenario names
    new, known = classify(outcome.findings, harness.known)
    assert not new, [f.to_json() for f in new]
    shown = {entry.id for _, entry in known}
    if "fixed-in" in doc:  # other known findings (of the readers, say) may still show
        assert doc["known"] not in shown, f"{doc['known']}, fixed in {doc['fixed-in']}, shows again"
    else:
        assert doc["known"] in shown


# --- the harness's checks can fail ---------------------------------------------------------------------


def test_a_correct_history_passes_every_check(harness):
    outcome = harness.run(DELETING)
    assert outcome.steps_run == 2 and outcome.snapshots_checked >= 2
    assert outcome.declined == []  # every reader read every snapshot of main
    assert _new(harness, outcome) == []


def test_a_snapshot_of_a_branch_only_is_declined_by_iceberg_rust_and_listed(harness):
    """iceberg-rust's table provider reads the current snapshot of a metadata file; a snapshot
    committed to a branch is current in none, so its adapter declines it: listed, not a finding."""
    history = {
        **DELETING,
        "steps": [
            DELETING["steps"][0],
            {"op": "create-branch", "name": "b1"},
            {"op": "insert", "rows": [{"id": 9, "c1": "1.00", "c2": "b"}], "branch": "b1"},
        ],
    }
    outcome = harness.run(history)
    assert outcome.steps_run == 3 and _new(harness, outcome) == []
    assert {(step, reader) for step, reader, _ in outcome.declined} == {(2, "pyiceberg-core")}, outcome.declined


def test_an_equality_delete_the_model_cannot_scope_is_skipped_and_changes_nothing(harness):
    """Under a bucket partition the model cannot tell where rows live: the step is listed as skipped
    with the model's reason, before Spark writes anything, and the history goes on."""
    history = {
        **DELETING,
        "steps": [
            DELETING["steps"][0],
            {"op": "equality-delete", "columns": ["c2"], "where": {"op": "id-mod", "mod": 2, "rest": 0}},
            DELETING["steps"][1],
        ],
    }
    outcome = harness.run(history)
    assert [(i, why.split(":")[0]) for i, why in outcome.skipped] == [(1, "the model cannot predict this step")]
    assert outcome.steps_run == 2 and _new(harness, outcome) == []
    location = outcome.metadata_location
    snapshots = json.loads(Path(location.removeprefix("file://").removeprefix("file:")).read_text())["snapshots"]
    assert [s["summary"]["operation"] for s in snapshots] == ["append", "delete"]  # the insert and the position delete
    assert all(s["summary"].get("total-equality-deletes", "0") == "0" for s in snapshots), [
        s["summary"] for s in snapshots
    ]


def test_a_corrupted_model_fails_check_1(harness):
    """A model that forgets to delete makes Spark's rows differ from it (check 1)."""
    from conformance.writer_harness.model import TableModel

    with mock.patch.object(TableModel, "delete", lambda self, branch, where: self.unchanged(branch)):
        outcome = harness.run(DELETING)
    checks = {f.check for f in _new(harness, outcome)}
    assert "spark-rows" in checks or "no-commit" in checks


def test_a_reference_reader_that_drops_deletes_fails_check_2(harness):
    from spec_impl.scan import reader

    with mock.patch.object(reader, "_deleted_positions", lambda *args: set()):
        outcome = harness.run(DELETING)
    assert "reference-rows" in {f.check for f in _new(harness, outcome)}


def test_an_edited_partition_tuple_fails_checks_3_and_4(harness):
    """After Spark wrote the table, one data file's partition value is changed in its manifest: the
    validator (check 3, bucket out of range) and the audit's recomputed tuples (check 4) both see it."""
    from spec_impl.manifests.avro_files import read_avro
    from spec_impl.manifests.writer import edit_avro, fix_manifest_lengths
    from conformance.writer_harness.runner import HistoryRun

    run = HistoryRun(
        harness.spark, harness.warehouse, "edited", {**DELETING, "steps": DELETING["steps"][:1]}, harness.readers
    )
    run.run()
    md = run.table.metadata()
    list_uri = md["snapshots"][-1]["manifest-list"]
    local = lambda uri: Path(uri.removeprefix("file:"))  # noqa: E731
    manifests = [r["manifest_path"] for r in read_avro(local(list_uri).read_bytes()).records]
    files = {uri: local(uri).read_bytes() for uri in [list_uri, *manifests]}

    def corrupt(records, metadata):
        records[0]["data_file"]["partition"]["c2_bucket"] = 9  # bucket[4] gives 0..3

    edit_avro(files, manifests[0], corrupt)
    fix_manifest_lengths(files, [list_uri], manifests[0])
    for uri, data in files.items():
        local(uri).write_bytes(data)
    run.audited.clear()
    run.violations_seen.clear()
    run.outcome.findings.clear()
    run.check_table(0)
    checks = {f.check for f in _new(harness, run.outcome)}
    assert {"validator", "audit"} <= checks, run.outcome.findings
    assert any(f.message.startswith("[data-file.partition-tuple]") for f in run.outcome.findings if f.check == "audit")


def test_a_pyiceberg_history_passes_every_check(harness):
    """PyIceberg writes (insert, add column, delete, partition evolution); Spark, the reference, the
    validator, the audit and the other readers check every snapshot against the model."""
    outcome = harness.run(PYICEBERG)
    assert "/pyiceberg/" in outcome.metadata_location and not outcome.refused
    assert outcome.steps_run == len(PYICEBERG["steps"]) and outcome.snapshots_checked >= 5
    assert _new(harness, outcome) == []
    assert all(f.writer == "pyiceberg" for f in outcome.findings)


def test_a_broken_pyiceberg_write_is_caught(harness):
    """PyIceberg handed one row fewer than the step inserts: Spark's rows (check 1), the reference
    (check 2) and the other readers (check 5) all differ from the model."""
    from conformance.writer_harness.writers.pyiceberg import PyIcebergTable

    arrow = PyIcebergTable._arrow
    with mock.patch.object(PyIcebergTable, "_arrow", lambda self, columns, rows: arrow(self, columns, rows[:-1])):
        outcome = harness.run({**PYICEBERG, "steps": PYICEBERG["steps"][:1]})
    checks = {f.check for f in _new(harness, outcome)}
    assert {"spark-rows", "reference-rows", "reader:pyiceberg"} <= checks, outcome.findings


def test_the_same_harness_runs_with_executors_in_their_own_jvms(tmp_path):
    """Spark's `local-cluster` master runs executors as separate JVMs, as a cluster does: a replay
    there shows the same known finding as in `local[2]`, through the command line."""
    import subprocess
    import sys

    from conformance.engines.iceberg_java import spark as spark_session

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(reason)
    path = Path(__file__).parent / "writer_harness" / "scenarios" / "java-delete-null-partition-not-equal.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.writer_harness.cli",
            "replay",
            str(path),
            "--master",
            "local-cluster[2,1,1024]",
            "--readers",
            "",
            "--warehouse",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    assert "known finding java-delete-null-partition-not-equal" in run.stdout


# --- scenario files and the command line (no Spark) -------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_recorded_scenarios_name_a_known_finding(path):
    doc = scenario.load(path)
    assert doc["known"] in {k.id for k in known_findings()}


def test_scenario_files_round_trip_and_reject_what_the_schema_forbids(tmp_path):
    path = scenario.save(tmp_path / "s.json", DELETING, [])
    assert {k: v for k, v in scenario.load(path).items() if k != "findings"} == DELETING
    bad = json.loads(path.read_text())
    bad["steps"][1]["op"] = "truncate-table"
    path.write_text(json.dumps(bad))
    with pytest.raises(scenario.ScenarioError, match="steps/1"):
        scenario.load(path)


def test_cli_replay_of_an_invalid_scenario_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert cli.main(["replay", str(path)]) == 2
    assert "cannot read a scenario" in capsys.readouterr().err


def test_cli_help_exits_0(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    assert "replay" in capsys.readouterr().out


def test_cli_run_offers_the_pyiceberg_writer(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    assert "--writer {spark,pyiceberg,chdb,duckdb}" in capsys.readouterr().out


def test_the_model_scopes_an_equality_delete_to_its_spec_and_partition():
    """Scan Planning: an equality delete applies to older rows of its own spec and partition, or to
    every row when its spec is unpartitioned; null equals null."""
    from conformance.writer_harness.model import ModelLimit, TableModel

    m = TableModel(
        [("id", "bigint"), ("c", "string"), ("r", "string")], [{"transform": "identity", "column": "c", "name": "c"}]
    )
    first = m.insert(
        "main", [{"id": 1, "c": "x", "r": "eu"}, {"id": 2, "c": "y", "r": None}, {"id": 3, "c": None, "r": None}]
    )
    m.commit(first, 1, "insert")
    m.evolve_partition(drop="c", add={"transform": "identity", "column": "r", "name": "r"})
    m.commit(
        m.insert(
            "main", [{"id": 4, "c": "x", "r": "eu"}, {"id": 5, "c": "x", "r": "us"}, {"id": 6, "c": None, "r": None}]
        ),
        2,
        "insert",
    )
    change, groups = m.equality_delete("main", ["c"], {"column": "id", "op": "=", "value": 4})
    assert groups == [[4]] and sorted(change.rows) == [1, 2, 3, 5, 6]  # not 1 (old spec) nor 5 (region us)
    change, _ = m.equality_delete("main", ["c", "r"], {"column": "id", "op": "=", "value": 6})
    assert sorted(change.rows) == [1, 2, 3, 4, 5]  # (null, null) deletes 6 only: 3 lives under the old spec
    m.commit(m.files_rewritten(m.unchanged("main")), 3, "rewrite-data-files")
    with pytest.raises(ModelLimit, match="unknown spec"):
        m.equality_delete("main", ["c"], {"column": "id", "op": "=", "value": 4})


def test_spark_histories_draw_equality_deletes_the_model_can_scope():
    """Generated Spark histories include equality deletes, only on tables of format version 2 or 3
    whose partition fields are all identity (the model's limit), and never on a float, double or
    nested column ("Equality Delete Files": "Float and double columns cannot be used as delete
    columns")."""
    from hypothesis import given as given_, settings as settings_, strategies as st_

    from conformance.writer_harness import values
    from conformance.writer_harness.strategies import Shape, ops_of, step_of

    every_type = [
        ("id", "bigint"),
        *[(f"c{i}", t) for i, t in enumerate(values.PRIMITIVES + values.NESTED)],
        ("d", "decimal(9,2)"),
    ]

    @settings_(max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given_(st_.data())
    def columns_of_a_delete(data):
        step = step_of(data.draw, Shape(2, every_type, []), "equality-delete", "spark")
        scenario.validate(
            {
                "format": "iceberg-writer-harness/1",
                "table": {
                    "format-version": 2,
                    "columns": [{"name": n, "type": t} for n, t in every_type],
                    "partition": [],
                    "properties": {},
                    "spark": {"shuffle-partitions": 1, "write-tasks": 1},
                },
                "steps": [step],
            }
        )
        kinds = {values.kind(t) for n, t in every_type if n in step["columns"]}
        assert kinds and not kinds & {"float", "double", "struct", "array", "map"}, step

    columns_of_a_delete()
    for version in (1, 2, 3):
        for transform in ("identity", "bucket", "day"):
            shape = Shape(
                version, [("id", "bigint"), ("t", "timestamp")], [{"name": "p", "column": "t", "transform": transform}]
            )
            assert ("equality-delete" in ops_of(shape)) == (version >= 2 and transform == "identity"), (
                version,
                transform,
            )
        assert ("equality-delete" in ops_of(Shape(version, [("id", "bigint")], []))) == (version >= 2)


def test_an_unpartitioned_equality_delete_reaches_every_older_row():
    from conformance.writer_harness.model import TableModel

    m = TableModel([("id", "bigint"), ("c", "string")], [])
    m.commit(m.insert("main", [{"id": 1, "c": "x"}, {"id": 2, "c": "x"}, {"id": 3, "c": None}]), 1, "insert")
    m.evolve_partition(add={"transform": "identity", "column": "c", "name": "c"})
    m.commit(m.insert("main", [{"id": 4, "c": "x"}]), 2, "insert")
    m.evolve_partition(drop="c")
    change, groups = m.equality_delete("main", ["c"], {"column": "id", "op": "=", "value": 1})
    assert groups == [[1]] and sorted(change.rows) == [3]


def test_golden_scenarios_capture_into_tables_the_generator_knows():
    """Every scenario with a golden section has been captured, and each capture is in the corpus."""
    from spec_impl.vectors import tables

    golden = [scenario.load(p) for p in sorted((Path(__file__).parent / "writer_harness").glob("*/*.json"))]
    ids = {d["golden"]["id"] for d in golden if "golden" in d}
    assert ids and ids <= set(tables.captured_ids())


def test_known_findings_can_be_scoped_to_a_format_version_and_an_evolved_spec():
    """An entry with `format-version` or `evolved-spec` matches only findings on such tables."""
    from conformance.writer_harness.harness import KnownFinding
    from conformance.writer_harness.runner import Finding

    where = {
        "check": "spark-rows",
        "message": "missing",
        "writer": "duckdb",
        "format-version": 1,
        "evolved-spec": False,
    }
    entry = KnownFinding("x", where, "r", "s")
    finding = Finding("spark-rows", 1, "table", "1 missing", "insert", "duckdb", 1, 1)
    assert entry.matches(finding)
    assert not entry.matches(Finding("spark-rows", 1, "table", "1 missing", "insert", "duckdb", 2, 1))
    assert not entry.matches(Finding("spark-rows", 1, "table", "1 missing", "insert", "duckdb", 1, 2))
    assert not entry.matches(Finding("spark-rows", 1, "table", "1 missing", "insert", "spark", 1, 1))


# --- what each finding is judged against, and its level ----------------------------------------------------

KNOWN_JSON = writers_ledger_file()


def test_every_known_finding_names_its_rule_and_level():
    """Each entry says what it is judged against (the operation's meaning, or a spec section with a
    quote) and its level, with the reason for that level."""
    from conformance.writer_harness.harness import LEVELS, RULE_KINDS

    for entry in json.loads(KNOWN_JSON.read_text())["entries"]:
        assert entry.get("level") in LEVELS and len(entry.get("level-reason", "")) > 20, entry["id"]
        rule = entry.get("rule") or {}
        assert rule.get("kind") in RULE_KINDS, entry["id"]
        needed = ("operation", "meaning") if rule["kind"] == "operation" else ("section", "file", "quote")
        assert all(isinstance(rule.get(k), str) and rule[k].strip() for k in needed), (entry["id"], rule)
    loaded = known_findings()
    assert all(k.rule and k.level in LEVELS for k in loaded)


def test_new_findings_are_judged_against_the_rule_of_their_check():
    from conformance.writer_harness.harness import judged_against
    from conformance.writer_harness.runner import Finding

    rows = judged_against(
        Finding("reader:duckdb", 1, "table", "1 rows; the model has 2: 1 missing [], 0 unexpected []")
    )
    assert rows["kind"] == "operation" and "three-valued" in rows["meaning"]
    assert judged_against(Finding("spark-crash", 1, "table", "boom"))["kind"] == "operation"
    lineage = judged_against(
        Finding("row-lineage", 1, "snapshot 1", "id 3 was not touched, yet its lineage changed from (1, 2) to (5, 2)")
    )
    assert lineage == {
        "kind": "spec",
        "section": "§1.4 Row lineage",
        "file": "v3-adopted-digest.md",
        "quote": "Copy a non-null `_row_id`.",
    }
    tree = judged_against(
        Finding("validator", 1, "table", "[tree.manifest-schema-id] m.avro: lacks the key-value metadata 'schema-id'")
    )
    assert tree["kind"] == "spec" and tree["rule-id"] == "tree.manifest-schema-id" and tree["quote"] and tree["file"], (
        tree
    )


def _known(level):
    from conformance.writer_harness.harness import KnownFinding

    return KnownFinding(
        f"k-{level}",
        {"check": "audit", "message": f"^{level}"},
        "r",
        "s",
        rule={"kind": "operation", "operation": "o", "meaning": "m"},
        level=level,
    )


def test_findings_that_are_not_violations_are_counted_apart_and_never_fail(capsys):
    """Known divergences and allowed findings are tallied beside the violations, never in them; a run
    with only those (and known violations) exits 0 and prints each finding with its seed; a new
    finding fails it, printed with its rule and seed."""
    from conformance.writer_harness.harness import Tally, signature, tally
    from conformance.writer_harness.runner import Finding, Outcome

    known = [_known("violation"), _known("divergence"), _known("allowed")]
    found = [Finding("audit", 0, "table", m) for m in ("violation x", "divergence y", "divergence z", "allowed w")]
    t = tally(found, known)
    assert (t.violations, t.known_violations, t.divergences, t.allowed, t.not_violations) == (1, 1, 2, 1, 3)
    assert tally([*found, Finding("audit", 0, "table", "[x.y] new")], known) == Tally(1, 1, 2, 1)

    class FakeHarness:
        writer, writer_kind = "Iceberg Java", "spark"

        def __init__(self, *args, **kwargs):
            self.known = known

        def search(self, examples, steps, seed, progress, **kwargs):
            history = {"table": {"format-version": 2}, "steps": [{"op": "insert"}]}
            for f in self.findings:
                progress(Outcome(history, findings=[f], steps_run=1, tally=tally([f], known)))
            new = [f for f in self.findings if not any(k.matches(f) for k in known)]
            return {signature(new[0]): (history, new)} if new else {}

        def writer_of(self, history):
            return "spark"

        def close(self):
            pass

    FakeHarness.findings = found
    with mock.patch.object(cli, "Harness", FakeHarness):
        assert cli.main(["run", "--examples", "4", "--seed", "77", "--readers", ""]) == 0
    out = capsys.readouterr().out
    assert "findings: 1 violations (0 new, 1 known); not violations, apart: 2 divergences, 1 allowed" in out
    violations, apart = out.split("known findings that are not violations")
    assert "known finding k-violation (1x; seed 77, first in history 1) [violation]" in violations
    assert (
        "k-divergence (2x; seed 77, first in history 2) [divergence]" in apart
        and "k-allowed" in apart
        and "k-violation" not in apart
    )

    FakeHarness.findings = [*found, Finding("audit", 0, "table", "[tree.manifest-schema-id] new one")]
    with mock.patch.object(cli, "Harness", FakeHarness):
        assert cli.main(["run", "--examples", "5", "--readers", ""]) == 1  # no --seed: one is drawn and printed
    captured = capsys.readouterr()
    printed = [json.loads(line) for line in captured.out.splitlines() if line.startswith("{")]
    assert len(printed) == 1 and printed[0]["judged-against"]["rule-id"] == "tree.manifest-schema-id"
    seed_drawn = printed[0]["seed"]
    assert isinstance(seed_drawn, int) and f"--seed {seed_drawn} --examples 5" in printed[0]["reproduce"]
    assert f"seed {seed_drawn}: iceberg-writer-harness run --seed {seed_drawn}" in captured.err
    assert "findings: 2 violations (1 new, 1 known)" in captured.out
    assert "judged against: spec must, " in captured.out and f"seed {seed_drawn}; 1 steps" in captured.out


def test_a_delete_on_a_null_identity_partition_removes_the_null_row(harness):
    """Iceberg 1.10.2 through Spark: DELETE ... WHERE NOT (c = 279) on a table partitioned by
    identity(c) drops the file of the null partition whole, so the row with c null, whose condition is
    NULL, is gone from every reader; the model keeps it (java-delete-null-partition-not-equal, a
    violation of the DELETE's meaning). The same history on an unpartitioned table keeps the row."""
    doc = scenario.load(
        Path(__file__).parent / "writer_harness" / "scenarios" / "java-delete-null-partition-not-equal.json"
    )
    history = {k: doc[k] for k in ("format", "table", "steps")}
    outcome = harness.run(history)
    new, known = classify(outcome.findings, harness.known)
    assert not new, [f.to_json() for f in new]
    seen = {f.check for f, entry in known if entry.id == "java-delete-null-partition-not-equal"}
    assert {"spark-rows", "reference-rows"} <= seen, known
    assert all(
        "missing ['{id=1, c=None}']" in f.message
        for f, entry in known
        if entry.id == "java-delete-null-partition-not-equal"
    )
    entry = next(k for k in harness.known if k.id == "java-delete-null-partition-not-equal")
    assert entry.level == "violation" and entry.rule["kind"] == "operation"
    assert outcome.tally.known_violations >= 2 and outcome.tally.new == 0

    unpartitioned = harness.run({**history, "table": {**history["table"], "partition": []}})
    assert not any(
        f.check in ("spark-rows", "reference-rows") or f.check.startswith("reader:") for f in unpartitioned.findings
    ), unpartitioned.findings


def test_a_should_rule_finding_is_allowed_without_a_ledger_entry():
    """The validator's or audit's finding of a rule whose strength is should (the rule index) is a
    recommendation not followed: known at level allowed, judged against the rule's quote; a must
    rule's finding, or a should rule named by another check, stays new."""
    from conformance.writer_harness.harness import classify, tally
    from conformance.writer_harness.runner import Finding

    should = Finding("audit", 0, "table", "[parquet.type-mapping] f.parquet: column 3: int64 TIMESTAMP(MILLIS)")
    must = Finding("audit", 0, "table", "[parquet.field-ids] f.parquet: column 3 has no field id")
    elsewhere = Finding("spark-rows", 0, "table", "[parquet.type-mapping] not a rule-named check")
    new, known = classify([should, must, elsewhere], [])
    assert new == [must, elsewhere]
    ((finding, entry),) = known
    assert finding is should and entry.level == "allowed" and entry.id == "should:parquet.type-mapping"
    assert "should" in entry.rule["quote"]
    assert tally([should], []).allowed == 1 and tally([must], []).new == 1
