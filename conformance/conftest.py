"""The conformance suite's hooks: engine selection, case parametrization, the report. Its options
are those of the `iceberg_conformance` plugin (`conformance/plugin.py`).

    pytest conformance/                                # every engine that can run here
    pytest conformance/ --engine iceberg-java          # one engine (repeatable)
    pytest conformance/ --engine mypkg.adapter:MyEngine
    pytest conformance/ --engine 'cmd:my-engine=./my-engine --flag'   # any program speaking the protocol
    pytest conformance/ --validate-protocol --engine-timeout 30       # check every protocol message
    pytest conformance/ -m "bucket and v3" -k iceberg-java --junitxml=out.xml
    pytest conformance/ --compliance-report reports/   # compliance.json and compliance.html

Each test is one vector case run against one engine: `test_value_case[<engine>:<case id>]`.
A correct answer or a correct rejection passes; an engine's `unsupported` answer is a skip with its
reason; a known discrepancy that reproduces what was pinned is an xfail.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import defaultdict

import pytest

from conformance import known, plugin, report, spec_gaps
from conformance import expectations, gating, report_files
from conformance.engines import registry
from conformance.runner import Runner
from conformance.vectors import load_families
from spec_impl import revisions

VERSION_MARKERS = {1: "v1", 2: "v2", 3: "v3", 4: "v4"}
SUITE_MARKERS = {
    "random_values": "differential property tests of engines against the reference on random values",
    "spark": "tests that start a local Spark session with Iceberg Java (iceberg_java.spark)",
    "spark_cluster": "tests that start a Spark standalone cluster on 127.0.0.1 (iceberg_java.standalone)",
    "writer": "the writer harness: generated table histories written by Iceberg Java through Spark "
    "and checked after every step",
}
REVISION_MARKERS = {
    revisions.SEED_2024: "seed",
    revisions.V3_ADOPTED: "adopted",
    revisions.UPSTREAM_2026_08: "upstream",
    revisions.V4_PROPOSAL: "v4_proposal",
    revisions.V4_PR_2026_09: "v4_pr",
    revisions.JAVA_HEAD_2026_08: "java_head",
}


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest):
    """The local Spark session with Iceberg (`iceberg_java.spark`) on a warehouse of the test
    module's own, stopped after the module; the module's tests skip, with the reason, where Spark
    cannot run."""
    from conformance.engines.iceberg_java import spark as spark_session

    if (reason := spark_session.missing_requirement()) is not None:
        pytest.skip(reason)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors import this package
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    warehouse = tmp_path_factory.mktemp(name) / "warehouse"
    yield spark_session.local_spark_session(warehouse, app_name=f"iceberg-conformance-{name}")
    spark_session.stop_local_spark_session()


# The modules that judge the engines of the run; the others test the suite itself (its ledger,
# protocol, audit, writer harness) and run only when every engine of the run is a built-in one.
JUDGING_MODULES = frozenset({"test_value_vectors.py", "test_random_values.py", "test_random_planning.py"})


def judges_own_engines(config: pytest.Config) -> bool:
    """Whether the run judges an engine of the user's own (`package.module:Class` or `cmd:...`)."""
    return any(spec not in registry.BUILTIN for spec in config.getoption("--engine"))


def pytest_ignore_collect(collection_path, config: pytest.Config) -> bool | None:
    """A run that judges the user's own engine collects only the judging modules: the suite's
    self-tests are the suite's business, not the engine's."""
    if collection_path.suffix == ".py" and collection_path.name.startswith("test_") and judges_own_engines(config):
        return collection_path.name not in JUDGING_MODULES or None
    return None


def _marker(family: str) -> str:
    return family.replace("-", "_")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """The options come from the `iceberg_conformance` plugin; a checkout used without installing
    the package (or with plugin autoloading off) gets them from here."""
    if not pluginmanager.has_plugin(plugin.NAME):
        plugin.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for name, what in SUITE_MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")
    for family in load_families():
        config.addinivalue_line("markers", f"{_marker(family)}: value vectors of the {family} family")
    for m in VERSION_MARKERS.values():
        config.addinivalue_line("markers", f"{m}: cases that apply to format {m}")
    for rev, m in REVISION_MARKERS.items():
        config.addinivalue_line("markers", f"{m}: cases whose expectation belongs to the {rev} spec revision")
    requested = config.getoption("--engine")
    specs = requested or list(registry.DEFAULT)
    try:
        classes = {spec: registry.load(spec) for spec in specs}
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None
    runner = Runner(classes, config.getoption("--engine-timeout"), config.getoption("--validate-protocol"))
    missing = [s for s in runner.slots.values() if s.unavailable and s.spec in requested]
    if missing:
        runner.stop()
        raise pytest.UsageError("; ".join(s.unavailable for s in missing))  # type: ignore[misc]
    config.stash[RUNNER] = runner
    config.stash[RECORDER] = report.Recorder(random_seed=_fix_random_seed(config))
    gating.configure(config)
    expectations.configure(config, [s.name for s in runner.slots.values()])


def release_seed() -> int:
    """The random tests' default seed: fixed for a release of the suite (from its version)."""
    from spec_impl.vectors.export import version

    return int(hashlib.sha256(f"iceberg-conformance {version()}".encode()).hexdigest()[:8], 16)


def _fix_random_seed(config: pytest.Config) -> int | str:
    """Seed every hypothesis test of the run: `--hypothesis-seed` if given, else `--random-seed`,
    else the release's seed."""
    given = config.getoption("hypothesis_seed", default=None)
    if given is not None:
        return given
    from hypothesis import core

    seed = config.getoption("--random-seed")
    core.global_force_seed = release_seed() if seed is None else seed
    return core.global_force_seed


ENGINES_EXTRA = (
    "pip install 'iceberg-conformance[engines]'"  # what a test needing an engine's package names when it skips
)
RUNNER = pytest.StashKey[Runner]()
RECORDER = pytest.StashKey[report.Recorder]()
REPORT = pytest.StashKey[dict]()  # the run's compliance document, built once when the session ends


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """An engine that broke (failed its handshake, hung, or was taken out of service) fails the run
    whatever `-m` or `-k` selected: its skipped cases must never read as a clean run."""
    runner = session.config.stash.get(RUNNER, None)
    if runner is not None and exitstatus == pytest.ExitCode.OK and any(slot.broken for slot in runner.slots.values()):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    recorder = session.config.stash.get(RECORDER, None)
    doc = recorder.build(runner) if recorder is not None and recorder.cells else None
    if gating.compare(session.config, doc):  # a regression against --baseline
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if doc is not None:
        failed = session.exitstatus != pytest.ExitCode.OK
        report.close(doc, failed, gating.comparison(session.config), session.config.getoption("--baseline"))
        session.config.stash[REPORT] = doc  # the terminal summary, after this hook, shows it
    gating.write_summary(session.config, doc)
    expectations.finish(session.config, doc)


def pytest_unconfigure(config: pytest.Config) -> None:
    if RUNNER in config.stash:
        config.stash[RUNNER].stop()


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"random seed {config.stash[RECORDER].random_seed} (--random-seed N to vary it)"]
    if judges_own_engines(config):
        lines.append("judging your engine only: the suite's self-tests are not collected in this run")
    for slot in config.stash[RUNNER].slots.values():
        if slot.broken:
            lines.append(f"engine {slot.name}: BROKEN, {slot.broken}")
        elif slot.engine:
            protocol = getattr(slot.engine, "protocol", None)
            lines.append(
                f"engine {slot.name}: {slot.engine.version}, revision {slot.engine.revision}, "
                + (f"protocol {protocol}, " if protocol else "")
                + f"capabilities {', '.join(sorted(slot.engine.capabilities))}"
            )
        else:
            lines.append(f"engine {slot.name}: UNAVAILABLE, {slot.unavailable}")
    return lines


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    runner = metafunc.config.stash[RUNNER]
    if "started_engine" in metafunc.fixturenames:
        metafunc.parametrize("started_engine", [s.name for s in runner.slots.values() if s.engine is not None])
    if (
        "random_engine" in metafunc.fixturenames
    ):  # every engine but the built-in references (the oracle); one named by its path runs
        metafunc.parametrize(
            "random_engine", [s.name for s in runner.slots.values() if s.spec not in ("reference", "reference-seed")]
        )
    if "value_case" not in metafunc.fixturenames:
        return
    params = []
    recorder = metafunc.config.stash[RECORDER]
    for slot in runner.slots.values():
        engine = slot.engine if slot.started else None
        for family, cases in load_families().items():
            if engine is not None:
                applicable = [c for c in cases if engine.revision in c["revisions"]]
            else:
                applicable = [c for c in cases if revisions.DEFAULT in c["revisions"]]
            batches = defaultdict(list)
            for c in applicable:
                if engine is None or _skip_reason(engine, c) is None:
                    batches[c["op"]].append(c)
            for c in applicable:
                if engine is not None and c["op"] not in engine.capabilities:
                    # an op the engine does not offer: no test, but in the report with its reason
                    recorder.record_case(
                        slot.name, family, c, "skipped", message=engine.unsupported(c["op"], c["input"])
                    )
                    continue
                marks = [getattr(pytest.mark, _marker(family))]
                marks += [getattr(pytest.mark, VERSION_MARKERS[v]) for v in c["format-versions"]]
                marks += [getattr(pytest.mark, REVISION_MARKERS[r]) for r in c["revisions"]]
                if slot.broken and not slot.started:
                    marks.append(pytest.mark.skip(reason=f"engine broken: {slot.broken}"))
                elif engine is None:
                    marks.append(pytest.mark.skip(reason=f"engine unavailable: {slot.unavailable}"))
                elif (why := _skip_reason(engine, c)) is not None:
                    marks.append(pytest.mark.skip(reason=why))
                params.append(
                    pytest.param((slot.name, family, c, batches[c["op"]]), marks=marks, id=f"{slot.name}:{c['id']}")
                )
    metafunc.parametrize("value_case", params)


def _skip_reason(engine, case: dict) -> str | None:
    """Why an engine cannot be judged on a case: an op it lacks, or a rejection it does not check."""
    why = engine.unsupported(case["op"], case["input"])
    if why is None and "error" in case["expected"] and not engine.validates(case["op"]):
        why = f"{engine.name} reads only part of the input for {case['op']!r} and does not validate the rest"
    return why


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    rep = outcome.get_result()
    params = getattr(getattr(item, "callspec", None), "params", {})
    final = rep.when == "call" or (rep.when == "setup" and rep.skipped)
    if not final or RECORDER not in item.config.stash:
        return
    recorder, props = item.config.stash[RECORDER], dict(item.user_properties)
    result = report.classify(rep, props.get("verdict"))
    if "value_case" in params:
        engine, family, case, _ = params["value_case"]
        runner = item.config.stash[RUNNER]
        answer = runner.answer(engine, family, case) if props.get("verdict") else None
        entry = known.entry_for(engine, case)
        adapter = runner.slots[engine].engine
        want = case["expected"].get("output")
        partial = (
            adapter is not None and "output" in case["expected"] and adapter.partial_view(case["op"], want) != want
        )
        message = str(rep.longrepr[-1]) if rep.skipped and isinstance(rep.longrepr, tuple) else props.get("message", "")
        recorder.record_case(
            engine,
            family,
            case,
            result,
            None if answer is None else answer.observed(),
            message,
            entry.pinned if entry is not None else None,
            has_entry=entry is not None,
            partial=partial,
            answered=answer is not None,
            decided_by=entry.decided_by if entry is not None else None,
            upstream=entry.upstream if entry is not None else None,
            question=props.get("question"),
            quote=entry.quote if entry is not None else None,
        )
    elif (
        "random_engine" in params and "op" in params and isinstance(params["random_engine"], str)
    ):  # not pytest's empty-set placeholder
        message = str(rep.longrepr[-1]) if rep.skipped and isinstance(rep.longrepr, tuple) else props.get("message", "")
        recorder.record_random(
            params["random_engine"],
            params["op"],
            result,
            props.get("known_disagreements", 0),
            message,
            props.get("judged", 0),
            props.get("rules"),
        )


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if RECORDER not in config.stash or not config.stash[RECORDER].cells:
        return
    doc = config.stash.get(REPORT, None) or config.stash[RECORDER].build(config.stash[RUNNER])
    terminalreporter.write_sep("=", "Iceberg compliance matrix")
    for line in report.text_lines(doc):
        terminalreporter.write_line(line)
    if changes := gating.terminal_lines(config):
        terminalreporter.write_sep("=", "against the baseline")
        for line in changes:
            terminalreporter.write_line(line)
    if changes := expectations.terminal_lines(config, doc):
        terminalreporter.write_sep("=", "expectations")
        for line in changes:
            terminalreporter.write_line(line)
    target = config.getoption("--compliance-report")
    if target is not None:
        paths = report_files.write_compliance(doc, target)
        paths += spec_gaps.write(doc, load_families(), target)
        real = {name for name in registry.BUILTIN if not name.startswith("reference")}
        paths.append(
            report.write_confirmations(
                config.stash[RECORDER], config.stash[RUNNER], target / "confirmations.json", real
            )
        )
        terminalreporter.write_line(f"compliance report: {', '.join(str(p) for p in paths)}")
    observations = config.getoption("--record-observations")
    if observations is not None:
        count = report.write_observations(config.stash[RECORDER], config.stash[RUNNER], observations)
        terminalreporter.write_line(
            f"observations of {count} cases: {observations} (pin them: python -m conformance.known_pin {observations})"
        )
