"""The judge against engines that exist only to break it (tests/judge_breakers/breaking_engines.py
and misbehaving_engine.py): each must get its verdict, never a pass.

The first tests drive the runner directly (fast); the last ones run the command a user types,
`pytest conformance/ --engine ...`, and read compliance.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path


from conformance import known
from conformance.engines import registry
from conformance.engines.base import EngineAnswer
from tests.judge_breakers import breaking_engines
from conformance.judge import (
    ALLOWED,
    DIVERGENCE,
    ERRORED,
    FAIL,
    FIXED,
    KNOWN,
    PASS,
    REJECTED,
    REJECTED_OTHER_RULE,
    UNSUPPORTED,
    Verdict,
    judge,
)
from conformance.runner import Runner
from conformance.vectors import load_families

ROOT = Path(__file__).resolve().parents[1]
MISBEHAVING = f"{sys.executable} -m tests.judge_breakers.misbehaving_engine"
HASHES = load_families()["hash"]
COMPUTED = next(c for c in HASHES if "output" in c["expected"] and c["obligation"]["level"] == "must")
REJECTION = next(c for c in HASHES if "error" in c["expected"])
# "Implementations must throw an exception if a table's version is higher than the supported version."
MUST_REJECT = next(c for c in load_families()["table-metadata"] if c["id"] == "table.format-version/format-version-99")


def _runner(spec: str, timeout: float = 20) -> Runner:
    return Runner({spec: registry.load(spec)}, timeout=timeout)


def _judge_batch(runner: Runner, cases: list[dict], family: str = "hash") -> list[Verdict]:
    name = next(iter(runner.slots))
    return [runner.verdict(name, family, c, cases) for c in cases]


# --- the judge's outcomes ----------------------------------------------------------------------


def test_a_rejection_is_credited_only_on_a_rejection_case():
    assert judge(REJECTION, EngineAnswer.rejection("no"), "v3-adopted").outcome == REJECTED
    assert judge(COMPUTED, EngineAnswer.rejection("no"), "v3-adopted").outcome == ERRORED


def test_a_failure_is_never_a_rejection():
    assert judge(REJECTION, EngineAnswer.failure("crashed"), "v3-adopted").outcome == ERRORED


def test_a_rejection_under_another_rule_is_its_own_outcome():
    verdict = judge(REJECTION, EngineAnswer.rejection("no", rule="json.timestamptz"), "v3-adopted")
    assert verdict.outcome == REJECTED_OTHER_RULE and REJECTION["expected"]["error"] in verdict.message
    assert (
        judge(REJECTION, EngineAnswer.rejection("no", rule=REJECTION["expected"]["error"]), "v3-adopted").outcome
        == REJECTED
    )


def test_unsupported_is_not_judged():
    assert judge(COMPUTED, EngineAnswer.declined("no decimals"), "v3-adopted").outcome == UNSUPPORTED


def test_accepting_a_forbidden_input_fails_where_the_spec_says_who_must_reject():
    assert MUST_REJECT["obligation"] == {**MUST_REJECT["obligation"], "level": "must", "rejected-by": "reader"}
    assert judge(MUST_REJECT, EngineAnswer(True, {"format-version": 99}), "v3-adopted").outcome == FAIL


def test_an_input_the_spec_does_not_define_is_a_divergence_when_answered():
    """hash of a type with no hash: the spec defines no answer, so an answer is a divergence, not a failure."""
    assert REJECTION["obligation"]["level"] == "reading"
    verdict = judge(REJECTION, EngineAnswer(True, 1), "v3-adopted")
    assert verdict.outcome == DIVERGENCE and verdict.question == REJECTION["obligation"]["question"]


def test_a_reader_may_read_a_document_that_breaks_a_writer_rule():
    case = next(
        c
        for c in load_families()["table-metadata"]
        if "error" in c["expected"] and c["obligation"].get("allowance") == "reader.may-accept"
    )
    assert judge(case, EngineAnswer(True, {}), "v3-adopted").outcome == ALLOWED
    assert judge(case, EngineAnswer.rejection("no"), "v3-adopted").outcome == REJECTED
    assert judge(case, EngineAnswer.failure("crashed"), "v3-adopted").outcome == ERRORED


# --- refuse-all and garbage --------------------------------------------------------------------


def test_refuse_all_earns_nothing_on_computed_cases():
    """A refusal passes no computed case; where the spec permits refusing (a type it does not hash)
    it is an allowed difference, and where the input is undefined a rejection is credited."""
    verdicts = _judge_batch(_runner("tests.judge_breakers.breaking_engines:RefuseAll"), HASHES)
    computed = {(c["obligation"]["level"], v.outcome) for c, v in zip(HASHES, verdicts) if "output" in c["expected"]}
    rejections = [v.outcome for c, v in zip(HASHES, verdicts) if "error" in c["expected"]]
    assert computed == {("must", ERRORED), ("allowed", ALLOWED), ("reading", DIVERGENCE)} and set(rejections) == {
        REJECTED
    }


def test_garbage_earns_no_divergence_and_no_allowed_difference_on_computed_cases():
    """Issue: "garbage" to every case earned hundreds of divergences, any answer counting as a
    reading. An output of no kind of the op's answers is no reading of anything."""
    cases = [
        (c, r) for cs in load_families().values() for c in cs if "output" in c["expected"] for r in c["revisions"][:1]
    ]
    credited = [
        c["id"] for c, r in cases if judge(c, EngineAnswer(True, "garbage"), r).outcome in (DIVERGENCE, ALLOWED)
    ]
    assert len(cases) > 3000 and credited == [], credited[:10]


def test_a_reading_is_credited_only_to_an_answer_one_of_its_readings_gives():
    """input.decimal-scale, computed: bucket[16] of 1E+2 in decimal(10,2) is 8 rescaled (the
    reference) and the bucket of the unscaled 1 at scale -2 as given; any other bucket fails."""
    from conformance import readings

    case = next(c for c in load_families()["bucket"] if c["id"] == "transform.bucket/decimal-form-1e+2")
    answers = {out for _, out in readings.other_readings("input.decimal-scale", case, "v3-adopted")}
    (as_given,) = answers - {case["expected"]["output"]}
    assert judge(case, EngineAnswer(True, as_given), "v3-adopted").outcome == DIVERGENCE
    wrong = next(b for b in range(16) if b not in (as_given, case["expected"]["output"]))
    verdict = judge(case, EngineAnswer(True, wrong), "v3-adopted")
    assert verdict.outcome == FAIL and "none of the readings of input.decimal-scale" in verdict.message
    assert judge(case, EngineAnswer(True, 99), "v3-adopted").outcome == FAIL  # no bucket of bucket[16] either


def _case(family: str, case_id: str) -> dict:
    return next(c for c in load_families()[family] if c["id"] == case_id)


def test_a_writer_is_held_to_the_form_appendix_d_prescribes_not_to_what_a_reader_accepts():
    """Issue: `to-json` was compared through a lenient reader, so a decimal written in scientific
    notation passed. "1E-10" reads as 0.0000000001 at scale 10, but a writer uses as many fraction
    digits as the scale; a uuid is "the lowercase uuid string"."""
    small = _case("json", "json.decimal/to-decimal-38-10--0.0000000001")
    verdict = judge(small, EngineAnswer(True, "1E-10"), "v3-adopted")
    assert verdict.outcome == FAIL and "a writer writes a decimal(38,10) value as '0.0000000001'" in verdict.message
    assert judge(small, EngineAnswer(True, "0.0000000001"), "v3-adopted").outcome == PASS
    uuid_case = _case("json", "json.uuid/to-uuid-f79c3e09-677c-4bbd-a479-3f349cb785e7")
    assert judge(uuid_case, EngineAnswer(True, uuid_case["expected"]["output"].upper()), "v3-adopted").outcome == FAIL
    # the reader side still reads what the spec lets it read
    from spec_impl.serde import json_value
    from spec_impl.types import parse_type

    assert str(json_value.from_json(parse_type("decimal(38, 10)"), "1E-10")) == "1E-10"


def test_garbage_under_a_known_engines_name_is_not_known():
    family, cases = next(
        (f, [c for c in cs if ("iceberg-java", c["id"]) in known.load() and c["op"] == "from-binary"])
        for f, cs in load_families().items()
        if any(("iceberg-java", c["id"]) in known.load() and c["op"] == "from-binary" for c in cs)
    )
    assert cases, "iceberg-java has known violations reading binary single values"
    verdicts = _judge_batch(_runner("tests.judge_breakers.breaking_engines:GarbageAsIcebergJava"), cases, family)
    assert KNOWN not in {v.outcome for v in verdicts}
    assert all("different answer from the known discrepancy" in v.message for v in verdicts if v.outcome == FAIL)


def test_a_different_wrong_answer_to_a_known_case_fails_and_shows_the_pin():
    same, other = breaking_engines.known_pair("iceberg-java")
    case_of = {c["id"]: (f, c) for f, cases in load_families().items() for c in cases}
    runner = _runner("tests.judge_breakers.breaking_engines:KnownCaseAnsweredDifferently")
    verdicts = {}
    for entry in (same, other):
        family, case = case_of[entry.case]
        batch = [c for e in (same, other) for f, c in [case_of[e.case]] if f == family and c["op"] == case["op"]]
        verdicts[entry.case] = runner.verdict("iceberg-java", family, case, batch)
    assert verdicts[same.case].outcome == KNOWN, verdicts[same.case]
    assert verdicts[other.case].outcome == FAIL and "pinned" in verdicts[other.case].message


def test_a_known_case_answered_correctly_is_fixed():
    entry = next(d for d in known.load().values() if d.engine == "iceberg-java")
    family, case = next((f, c) for f, cases in load_families().items() for c in cases if c["id"] == entry.case)
    verdict = judge(
        case,
        EngineAnswer(True, case["expected"].get("output"))
        if "output" in case["expected"]
        else EngineAnswer.rejection("no"),
        "v3-adopted",
    )
    assert known.decide(verdict, entry, case, EngineAnswer(True, None)).outcome == FIXED


# --- protocol misbehaviour ---------------------------------------------------------------------


def test_answers_in_reverse_order_are_caught_by_the_id_check():
    runner = _runner(f"cmd:misbehaving-reversed={MISBEHAVING} reversed")
    try:
        verdicts = _judge_batch(runner, HASHES[:6])
    finally:
        runner.stop()
    assert {v.outcome for v in verdicts} == {ERRORED}
    assert "carries the id" in verdicts[0].message


def test_a_crash_in_the_middle_of_a_batch_errors_only_its_case():
    cases = [c for c in HASHES if "output" in c["expected"]][:8]
    runner = _runner(f"cmd:misbehaving-crash={MISBEHAVING} crash {cases[5]['id']}")
    try:
        verdicts = _judge_batch(runner, cases)
        restarts = runner.slots["misbehaving-crash"].restarts
    finally:
        runner.stop()
    assert [v.outcome for v in verdicts] == [PASS] * 5 + [ERRORED] + [PASS] * 2
    assert "exited" in verdicts[5].message and restarts >= 1


def test_a_hang_times_out_and_the_engine_is_taken_out_of_service():
    started = time.monotonic()
    runner = _runner(f"cmd:misbehaving-hang={MISBEHAVING} hang", timeout=1.5)
    try:
        verdicts = _judge_batch(runner, HASHES[:4])
        slot = runner.slots["misbehaving-hang"]
    finally:
        runner.stop()
    assert {v.outcome for v in verdicts} == {ERRORED} and "timeout" in verdicts[0].message
    assert slot.broken and time.monotonic() - started < 30


def test_a_hello_that_never_comes_is_a_broken_engine():
    runner = _runner("cmd:hang=sleep 100000", timeout=1)
    try:
        slot = runner.slots["hang"]
        assert not slot.started and "timeout" in slot.broken
    finally:
        runner.stop()


def test_a_hello_under_another_name_is_refused():
    runner = _runner(f"cmd:iceberg-java={MISBEHAVING} reversed")
    try:
        assert "introduced itself as 'misbehaving-reversed'" in runner.slots["iceberg-java"].broken
    finally:
        runner.stop()


# --- the commands a user types -----------------------------------------------------------------


def _suite(tmp_path: Path, *engine_args: str, select: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, dict]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "conformance/test_value_vectors.py",
            "-q",
            "-p",
            "no:cacheprovider",
            "--compliance-report",
            str(tmp_path),
            *engine_args,
            *select,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc, json.loads((tmp_path / "compliance.json").read_text())


def test_suite_refuse_all_scores_zero_on_computed_cases(tmp_path):
    proc, report = _suite(tmp_path, "--engine", "tests.judge_breakers.breaking_engines:RefuseAll")
    totals = report["totals"]["refuse-all"]
    assert proc.returncode == 1
    assert totals["pass"] == 0 and totals["computed"]["errored"] > 0
    assert totals["rejected"] > 0 and totals["rejected"] == totals["rejection"]["rejected"]


def test_suite_garbage_as_iceberg_java_shows_f_not_k(tmp_path):
    proc, report = _suite(tmp_path, "--engine", "cmd:iceberg-java=" + MISBEHAVING + " garbage iceberg-java")
    totals = report["totals"]["iceberg-java"]
    assert proc.returncode == 1 and totals["known"] == 0 and totals["fail"] > 0


def test_suite_hanging_engine_times_out_and_the_run_goes_on(tmp_path):
    started = time.monotonic()
    proc, report = _suite(
        tmp_path,
        "--engine",
        "cmd:hang=sleep 100000",
        "--engine",
        "reference",
        "--engine-timeout",
        "5",
        select=("-m", "hash or bucket"),
    )
    assert time.monotonic() - started < 120
    assert "timeout" in proc.stdout and report["engines"]["hang"]["broken"]
    assert proc.returncode == 1  # a broken engine fails the run, although -m selected none of its failing tests
    assert report["totals"]["reference"]["pass"] > 0 and report["totals"]["reference"]["fail"] == 0


def test_suite_runs_the_node_engine_through_cmd(tmp_path):
    node = f"node {ROOT / 'conformance/examples/node_engine/engine.mjs'}"
    proc, report = _suite(tmp_path, "--engine", f"cmd:node-murmur3={node}", select=("-m", "hash or bucket or truncate"))
    info, totals = report["engines"]["node-murmur3"], report["totals"]["node-murmur3"]
    assert info["protocol"] == 2 and totals["pass"] > 50 and totals["unsupported"] > 0
    assert totals["fail"] == 0 and totals["errored"] == 0, proc.stdout[-3000:]


def test_a_table_read_in_another_column_order_is_a_divergence_and_garbage_is_not():
    table = next(c for c in load_families()["tables"] if c["expected"]["output"]["rows"])
    want = table["expected"]["output"]
    reordered = {"columns": list(reversed(want["columns"])), "rows": want["rows"]}
    verdict = judge(table, EngineAnswer(True, reordered), "v3-adopted")
    assert verdict.outcome == DIVERGENCE and verdict.question == "read.column-order"
    for garbage in (
        {"columns": want["columns"][::-1], "rows": 5},
        {"columns": want["columns"][::-1], "rows": [1, 2]},
        [1],
        None,
    ):
        assert judge(table, EngineAnswer(True, garbage), "v3-adopted").outcome == FAIL, garbage


def _sample_by_obligation() -> list[dict]:
    """A few cases of each obligation shape: must, must with open rows, each check of allowed, reading."""
    seen: dict[tuple, list[dict]] = {}
    for cases in load_families().values():
        for c in cases:
            o = c["obligation"]
            key = (o["level"], o.get("check", {}).get("kind"), bool(o.get("open-rows")), "error" in c["expected"])
            if len(seen.setdefault(key, [])) < 3:
                seen[key].append(c)
    return [c for cs in seen.values() for c in cs]


def test_the_judge_answers_any_json_with_a_verdict():
    """Whatever an engine returns (any JSON, a rejection with any rule), every obligation yields a
    verdict of the judge's outcomes, never an exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from conformance.judge import ALLOWED as A, DIVERGENCE as D

    outcomes = {PASS, REJECTED, REJECTED_OTHER_RULE, FAIL, ERRORED, A, D}
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
        max_leaves=10,
    )
    answers = json_values.map(lambda v: EngineAnswer(True, v)) | st.text(max_size=8).map(
        lambda r: EngineAnswer.rejection("no", rule=r or None)
    )
    cases = _sample_by_obligation()
    assert len({c["obligation"]["level"] for c in cases}) == 3

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(cases), answers)
    def check(case, answer):
        assert judge(case, answer, "v3-adopted").outcome in outcomes

    check()


def test_declining_a_strict_projection_is_allowed_an_inclusive_one_is_not():
    """The spec requires the inclusive projection ("the partition predicate must match that row's
    partition") but offers the strict one only as "an alternative": declining it accepts nothing."""
    projections = load_families()["predicate-projection"]
    strict = next(c for c in projections if c["input"]["mode"] == "strict" and c["obligation"]["level"] == "allowed")
    inclusive = next(
        c for c in projections if c["input"]["mode"] == "inclusive" and c["obligation"]["level"] == "allowed"
    )
    assert judge(strict, EngineAnswer.rejection("cannot bind"), "v3-adopted").outcome == ALLOWED
    assert judge(inclusive, EngineAnswer.rejection("cannot bind"), "v3-adopted").outcome == ERRORED
    assert judge(strict, EngineAnswer.failure("crashed"), "v3-adopted").outcome == ERRORED


def test_a_partition_tuple_is_compared_by_the_values_of_its_result_types():
    """A tuple holds values, not spellings: Appendix D's time "00:00:00" and binary "FFFFFFFF" are
    the same values as "00:00:00.000000" and "ffffffff"; another value fails."""
    for case_id, same, other in (
        ("data-file.partition-tuple/tuple-edge-time-zero", ["00:00:00"], ["00:00:01"]),
        ("data-file.partition-tuple/tuple-edge-binary-extreme", ["FFFFFFFF"], ["FFFFFFFE"]),
    ):
        case = _case("type-edges-planning", case_id)
        assert judge(case, EngineAnswer(True, case["expected"]["output"]), "v3-adopted").outcome == PASS
        assert judge(case, EngineAnswer(True, same), "v3-adopted").outcome == PASS
        assert judge(case, EngineAnswer(True, other), "v3-adopted").outcome == FAIL


def test_metrics_a_writer_may_leave_out_or_loosen_are_allowed_and_wrong_ones_fail():
    """Every metric is optional and a bound need not be the tightest ("Each value must be less than
    or equal to all non-null, non-NaN values"): a lower bound of -0.0 for {0.0, 2.5} and no NaN
    count are allowed; an upper bound below the largest value fails, naming its rule."""
    case = _case("type-edges-planning", "metrics.lower-bound/metrics-edge-double-zero")
    want = case["expected"]["output"]
    looser = {**want, "lower_bound": "0000000000000080", "nan_value_count": None}
    assert judge(case, EngineAnswer(True, looser), "v3-adopted").outcome == ALLOWED
    too_low = {**want, "upper_bound": "0000000000000040"}  # 2.0 < 2.5
    verdict = judge(case, EngineAnswer(True, too_low), "v3-adopted")
    assert verdict.outcome == FAIL and "metrics.upper-bound" in verdict.message


def test_the_order_of_uuids_is_a_reading_with_both_answers_computed():
    """uuid.order: the summary's bounds under unsigned order (the reference) and under Java's two
    signed halves are both readings; bounds in neither order fail."""
    case = _case("type-edges-planning", "partition-summary.lower-bound/summary-edge-uuid-zero")
    (summary,) = case["expected"]["output"]
    signed = [{**summary, "lower_bound": summary["upper_bound"], "upper_bound": summary["lower_bound"]}]
    assert judge(case, EngineAnswer(True, signed), "v3-adopted").outcome == DIVERGENCE
    neither = [{**summary, "lower_bound": "ff" * 16}]
    assert judge(case, EngineAnswer(True, neither), "v3-adopted").outcome == FAIL
