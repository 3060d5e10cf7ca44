"""The `iceberg_conformance` pytest plugin (entry point `pytest11`): the suite's options.

Installed from a wheel, another project runs the suite against its engine with

    pytest -p iceberg_conformance --engine mypkg.adapter:MyEngine
    pytest -p iceberg_conformance --engine 'cmd:my-engine=./my-engine' -m bucket
    pytest -p iceberg_conformance --pyargs conformance --engine reference     # the same, spelled out

With `--engine` and no test paths, the plugin runs the installed suite (the `conformance`
package) rather than the current directory's tests. Otherwise it only adds options: nothing starts
until the suite's own tests are collected (their hooks are in `conformance/conftest.py`), so it
costs other test runs nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines import DEFAULT_TIMEOUT, registry

NAME = "iceberg_conformance"


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """`--engine` without test paths: collect the installed suite. A bad `--engine` or
    `--expectations` is a usage error here, before collection (one line, no traceback)."""
    if config.getoption("--engine") and config.args_source == pytest.Config.ArgsSource.INVOCATION_DIR:
        config.args = [str(Path(__file__).resolve().parent)]
    check_usage(config)


def check_usage(config: pytest.Config) -> None:
    """The engines named by `--engine` load, and each `--expectations` file is an expectations
    file about one of the run's engines; else a `pytest.UsageError` saying which and why."""
    specs = config.getoption("--engine")
    if not specs and not config.getoption("--expectations"):
        return
    try:
        classes = [registry.load(spec) for spec in specs or registry.DEFAULT]
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None
    from conformance import expectations

    expectations.check_files(
        config, [getattr(cls, "name", spec) for cls, spec in zip(classes, specs or registry.DEFAULT)]
    )


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("iceberg conformance")
    group.addoption(
        "--engine",
        action="append",
        default=[],
        metavar="NAME",
        help=f"engine to judge, repeatable: one of {', '.join(registry.BUILTIN)}, package.module:Class, "
        "or 'cmd:NAME=COMMAND ARGS' for any program that speaks the line protocol "
        "(default: every built-in engine that can run here)",
    )
    group.addoption(
        "--compliance-report",
        metavar="DIR",
        type=Path,
        default=None,
        help="write compliance.json and compliance.html to DIR",
    )
    group.addoption(
        "--engine-timeout",
        metavar="SECONDS",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"how long a protocol engine may take to answer its start or one batch (default {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--validate-protocol",
        action="store_true",
        default=False,
        help="check every message to and from protocol engines against vectors/schemas/protocol.schema.json",
    )
    group.addoption(
        "--random-seed",
        metavar="N",
        type=int,
        default=None,
        help="the seed of the random and property tests (default: one fixed per release of the suite, printed "
        "in the header and the report, so that the same engine and suite give the same verdict twice; "
        "--hypothesis-seed overrides both)",
    )
    group.addoption(
        "--record-observations",
        metavar="FILE",
        type=Path,
        default=None,
        help="save what the engines answered to every case that did not pass or has a known discrepancy "
        "(input of `python -m conformance.known_pin`)",
    )
    add_gating_options(group)


def add_gating_options(group) -> None:
    """Options for another project's CI (`conformance.gating`, `conformance.expectations`)."""
    group.addoption(
        "--expectations",
        metavar="FILE",
        action="append",
        type=Path,
        default=[],
        help="the engine's expected outcomes (JSON or TOML, the format of vectors/known/engines/*.json), "
        "repeatable: each takes the place of the built-in file of its engine; an expected violation is "
        "an xfail, and listed as fixed once the engine passes",
    )
    group.addoption(
        "--update-expectations",
        metavar="FILE",
        type=Path,
        default=None,
        help="write this run's violations, divergences and allowed differences into FILE (JSON), keeping "
        "the reasons already there and dropping the entries of cases that now pass",
    )
    group.addoption(
        "--baseline",
        metavar="COMPLIANCE_JSON",
        type=Path,
        default=None,
        help="an earlier run's compliance.json: each case is unchanged, regressed, fixed or new against it; "
        "the run fails on a regression, never on a new case unless --strict-new",
    )
    group.addoption(
        "--strict-new",
        action="store_true",
        default=False,
        help="with --baseline: a new case (not in the baseline) that is a violation fails the run too",
    )
    group.addoption(
        "--summary-md",
        metavar="FILE",
        type=Path,
        default=None,
        help="write a short Markdown summary for a pull request (per family; changes since --baseline)",
    )
