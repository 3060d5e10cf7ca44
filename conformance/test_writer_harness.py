"""The writer harness (`conformance.writer_harness`): generated histories written by Iceberg Java
through Spark and checked after every step, the recorded findings replayed, and the harness's own
checks shown able to fail.

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

pytestmark = pytest.mark.writer

EXAMPLES = int(os.environ.get("WRITER_HARNESS_EXAMPLES", "12"))
STEPS = int(os.environ.get("WRITER_HARNESS_STEPS", "6"))
SEED = int(os.environ.get("WRITER_HARNESS_SEED", "20261124"))
SCENARIOS = sorted((Path(__file__).parent / "writer_harness" / "scenarios").glob("*.json"))

V2_MOR = {"format-version": 2, "columns": [{"name": "id", "type": "bigint"}, {"name": "c1", "type": "decimal(9,2)"}, {"name": "c2", "type": "string"}],
          "partition": [{"transform": "truncate", "param": 3, "column": "c1", "name": "c1_trunc"}, {"transform": "bucket", "param": 4, "column": "c2", "name": "c2_bucket"}],
          "properties": {"format-version": "2", "write.delete.mode": "merge-on-read", "write.update.mode": "merge-on-read", "write.merge.mode": "merge-on-read"},
          "spark": {"shuffle-partitions": 2, "write-tasks": 2}}  # fmt: skip
ROWS = [{"id": i, "c1": f"{i - 3}.05", "c2": "x" * i} for i in range(6)]
DELETING = {"format": scenario.FORMAT, "table": V2_MOR,
            "steps": [{"op": "insert", "rows": ROWS, "branch": None}, {"op": "delete", "where": {"op": "id-mod", "mod": 2, "rest": 0}, "branch": None}]}  # fmt: skip


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
    (when Iceberg fixes it, this fails: then update the entry and the scenario)."""
    doc = scenario.load(path)
    outcome = harness.run({k: doc[k] for k in ("format", "table", "steps")})
    new, known = classify(outcome.findings, harness.known)
    assert not new, [f.to_json() for f in new]
    assert doc["known"] in {entry.id for _, entry in known}


# --- the harness's checks can fail ---------------------------------------------------------------------


def test_a_correct_history_passes_every_check(harness):
    outcome = harness.run(DELETING)
    assert outcome.steps_run == 2 and outcome.snapshots_checked >= 2
    assert _new(harness, outcome) == []


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

    run = HistoryRun(harness.spark, harness.warehouse, "edited", {**DELETING, "steps": DELETING["steps"][:1]}, harness.readers)
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


def test_the_same_harness_runs_with_executors_in_their_own_jvms(tmp_path):
    """Spark's `local-cluster` master runs executors as separate JVMs, as a cluster does: a replay
    there shows the same known finding as in `local[2]`, through the command line."""
    import subprocess
    import sys

    from conformance.engines.iceberg_java import spark as spark_session

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(reason)
    path = Path(__file__).parent / "writer_harness" / "scenarios" / "java-rewrite-manifests-row-ids.json"
    run = subprocess.run([sys.executable, "-m", "conformance.writer_harness.cli", "replay", str(path), "--master", "local-cluster[2,1,1024]",
                          "--readers", "", "--warehouse", str(tmp_path)], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    assert "known finding java-rewrite-manifests-row-ids" in run.stdout


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


def test_the_model_scopes_an_equality_delete_to_its_spec_and_partition():
    """Scan Planning: an equality delete applies to older rows of its own spec and partition, or to
    every row when its spec is unpartitioned; null equals null."""
    from conformance.writer_harness.model import ModelLimit, TableModel

    m = TableModel([("id", "bigint"), ("c", "string"), ("r", "string")], [{"transform": "identity", "column": "c", "name": "c"}])
    first = m.insert("main", [{"id": 1, "c": "x", "r": "eu"}, {"id": 2, "c": "y", "r": None}, {"id": 3, "c": None, "r": None}])
    m.commit(first, 1, "insert")
    m.evolve_partition(drop="c", add={"transform": "identity", "column": "r", "name": "r"})
    m.commit(m.insert("main", [{"id": 4, "c": "x", "r": "eu"}, {"id": 5, "c": "x", "r": "us"}, {"id": 6, "c": None, "r": None}]), 2, "insert")
    change, groups = m.equality_delete("main", ["c"], {"column": "id", "op": "=", "value": 4})
    assert groups == [[4]] and sorted(change.rows) == [1, 2, 3, 5, 6]  # not 1 (old spec) nor 5 (region us)
    change, _ = m.equality_delete("main", ["c", "r"], {"column": "id", "op": "=", "value": 6})
    assert sorted(change.rows) == [1, 2, 3, 4, 5]  # (null, null) deletes 6 only: 3 lives under the old spec
    m.commit(m.files_rewritten(m.unchanged("main")), 3, "rewrite-data-files")
    with pytest.raises(ModelLimit, match="unknown spec"):
        m.equality_delete("main", ["c"], {"column": "id", "op": "=", "value": 4})


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
