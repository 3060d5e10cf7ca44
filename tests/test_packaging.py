"""The project as another project gets it: a wheel (built from the sdist, as pip does) installed into
a fresh virtual environment, used from outside the checkout.

The fresh environment sees the dependencies of this one through a `.pth` line (their own `.pth`
files, among them this checkout's editable install, are not read), so it imports `spec_impl` and
`conformance` only from the wheel.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_list_names_every_package_of_the_tree():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        str(p.parent.relative_to(ROOT)).replace(os.sep, ".")
        for top in ("spec_impl", "conformance")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert listed == found | {"iceberg_conformance_vectors"}


def _run(command: list[str], cwd: Path, env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict]:
    """A fresh virtual environment with the wheel built from this checkout's sdist."""
    work = tmp_path_factory.mktemp("packaging")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    sdist = _run(
        [sys.executable, "-c", "import setuptools.build_meta as b, sys; print(b.build_sdist(sys.argv[1]))", str(work)],
        ROOT,
        env,
    )
    assert sdist.returncode == 0, sdist.stderr[-3000:]
    unpacked = work / "unpacked"
    shutil.unpack_archive(work / sdist.stdout.strip().splitlines()[-1], unpacked)
    (source,) = unpacked.iterdir()
    wheel = _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(work / "dist"), str(source)], work, env)
    assert wheel.returncode == 0, wheel.stderr[-3000:]
    venv = work / "venv"
    assert _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], work, env).returncode == 0
    python = venv / "bin" / "python"
    site = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work, env).stdout.strip()
    )
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (whl,) = (work / "dist").glob("*.whl")
    done = _run([*pip, "--python", str(python), "install", "--no-deps", str(whl)], work, env)
    assert done.returncode == 0, done.stderr[-3000:]
    outside = work / "elsewhere"
    outside.mkdir()
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return outside, env


def test_wheel_carries_the_data(installed):
    cwd, env = installed
    probe = (
        "import spec_impl, conformance, spec_impl.resources as r, conformance.engines.iceberg_java.build as b, json;"
        "print(json.dumps([spec_impl.__file__, conformance.__file__, str(r.vectors_dir()),"
        " [str(p) for p in b.java_sources()]]))"
    )
    done = _run(["python", "-c", probe], cwd, env)
    assert done.returncode == 0, done.stderr[-3000:]
    spec_file, conformance_file, vectors, java = json.loads(done.stdout)
    assert str(ROOT) not in spec_file + conformance_file + vectors, "imported from the checkout, not the wheel"
    for name in (
        "values/SHA256SUMS",
        "tables",
        "sources/tables",
        "metadata/table-metadata-v3.schema.json",
        "README.md",
        "known/engines/pyiceberg.json",
        "known/audit.json",
        "known/writers.json",
        "known/ledger.schema.json",
        "schemas/protocol.schema.json",
        "schemas/spec-gaps.schema.json",
    ):
        assert (Path(vectors) / name).exists(), name
    assert any(p.endswith("DeletePlanner.java") for p in java) and any(
        p.endswith("IcebergValueEngine.java") for p in java
    )


def test_vector_commands_work_installed(installed):
    cwd, env = installed
    listed = _run(["iceberg-vectors", "list"], cwd, env)
    assert (
        listed.returncode == 0
        and "transform.bucket/" in listed.stdout
        and "data-file.partition-tuple/" in listed.stdout
    ), listed.stderr[-2000:]
    unknown = _run(["iceberg-vectors", "list", "--family", "nope"], cwd, env)
    assert unknown.returncode == 2 and "nope" in unknown.stderr
    checked = _run(["iceberg-vectors", "check"], cwd, env)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    refused = _run(["iceberg-vectors", "generate"], cwd, env)
    assert refused.returncode == 2 and "--root" in refused.stderr
    exported = _run(["iceberg-vectors", "export", str(cwd / "release")], cwd, env)
    assert exported.returncode == 0 and Path(exported.stdout.strip()).is_file(), exported.stderr[-2000:]
    table = _run(["iceberg-vectors", "table", "position-deletes", str(cwd / "t")], cwd, env)
    assert table.returncode == 0, table.stderr[-2000:]
    valid = _run(["iceberg-validate-table", table.stdout.strip()], cwd, env)
    assert valid.returncode == 0, valid.stdout[-2000:] + valid.stderr[-2000:]


def test_suite_runs_from_the_installed_plugin(installed):
    cwd, env = installed
    done = _run(
        [
            "python",
            "-m",
            "pytest",
            "-p",
            "iceberg_conformance",
            "--engine",
            "reference",
            "-m",
            "bucket or truncate",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "error::pytest.PytestUnknownMarkWarning",
            "--compliance-report",
            str(cwd / "report"),
        ],
        cwd,
        env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and (cwd / "report" / "compliance.html").is_file()


def _java_engine_missing() -> str:
    """Why the Iceberg Java engine cannot be built here (no JDK, or no Maven to fetch its jars), or ''."""
    if shutil.which("java") is None:
        return "no JDK here"
    if shutil.which("mvn") is None:
        return "no Maven here (it fetches Iceberg's jars from Maven Central)"
    return ""


# CI installs the engines before the tests (.ci/run), so this never skips there.
@pytest.mark.skipif(bool(_java_engine_missing()) and not os.environ.get("CI"), reason=_java_engine_missing() or "-")
def test_java_engine_builds_from_the_installed_sources(installed, tmp_path):
    cwd, env = installed
    env = {**env, "ICEBERG_CONFORMANCE_CACHE": str(tmp_path / "cache")}
    done = _run(
        [
            "python",
            "-m",
            "pytest",
            "-p",
            "iceberg_conformance",
            "--pyargs",
            "conformance",
            "--engine",
            "iceberg-java",
            "-m",
            "bucket",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        cwd,
        env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


@pytest.fixture(scope="module")
def installed_with_test_extra(installed, tmp_path_factory) -> tuple[Path, dict]:
    """The wheel as an engine developer installs it: `pip install 'iceberg-conformance[test]'` into a
    fresh virtual environment of its own (its packages from the package index, or pip's cache), with
    none of this checkout's engines."""
    cwd, env = installed
    work = tmp_path_factory.mktemp("test-extra")
    (whl,) = (cwd.parent / "dist").glob("*.whl")
    venv = work / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], work, env)
    assert made.returncode == 0, made.stderr[-3000:]
    done = _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--progress-bar",
            "off",
            f"{whl}[test]",
        ],
        work,
        env,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return cwd, {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}


def test_the_readme_plugin_command_is_green_with_only_the_test_extra(installed_with_test_extra):
    """README: `pytest -p iceberg_conformance --pyargs conformance --engine reference`, from the
    wheel installed with only its test extra: an engine developer's first run passes; tests that
    need an engine's package skip and name the extra."""
    cwd, env = installed_with_test_extra
    probe = _run(
        [
            "python",
            "-c",
            "import importlib.util as u;"
            " print(u.find_spec('pyspark'), u.find_spec('pyiceberg'), u.find_spec('pytest') is not None)",
        ],
        cwd,
        env,
    )
    assert probe.stdout.split() == ["None", "None", "True"], probe.stdout + probe.stderr
    done = _run(
        [
            "python",
            "-m",
            "pytest",
            "-p",
            "iceberg_conformance",
            "--pyargs",
            "conformance",
            "--engine",
            "reference",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
        ],
        cwd,
        env,
        timeout=1500,
    )
    tail = done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    summary = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ passed(, \d+ (skipped|xfailed|warnings?|deselected))* in .*", summary), (
        tail
    )  # no failed, no error


def _readme_commands() -> tuple[str, str]:
    """README, "Use it in your CI": the command that creates the expectations file, and the CI job's
    pytest command (the folded YAML lines joined), as a shell runs them."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### Use it in your CI", 1)[1].split("\n## ")[0]
    create = re.search(r"```sh\n(.*?--update-expectations iceberg-expectations\.json)\n", section, re.S)
    job = re.search(r"- run: >\n((?: {10}\S.*\n)+)", section)
    assert create and job, "README: the CI section's commands moved"
    return create[1].replace("\\\n", " "), " ".join(line.strip() for line in job[1].splitlines())


NEGATIVE, BYTES, FOUR_BYTES = "negative-truncate", "byte-truncate", "four-byte-int-hash"  # the planted bugs


def test_the_readme_ci_recipe_runs_verbatim(installed_with_test_extra, tmp_path):
    """README, "Use it in your CI", each step as written there, from the wheel with only its test
    extra, against `mypkg.adapter:MyEngine` (tests/fixtures/ci_recipe): the first run is red and
    writes the expectations, the job with them is green, a new bug is red as a regression, a fix is
    listed as fixed and the run green."""
    cwd, env = installed_with_test_extra
    shutil.copytree(ROOT / "tests" / "fixtures" / "ci_recipe" / "mypkg", tmp_path / "mypkg")
    create, job = _readme_commands()
    assert " -k " not in create + job and " -m " not in create + job, "the recipe runs the whole suite"

    def run(command: str, *bugs: str) -> subprocess.CompletedProcess:
        engine_env = {**env, "PYTHONPATH": str(tmp_path), "MYENGINE_BUGS": ",".join(bugs)}
        return _run(["bash", "-c", command], tmp_path, engine_env)

    def report() -> dict:
        return json.loads((tmp_path / "report" / "compliance.json").read_text())

    first = run(create, NEGATIVE, BYTES)
    out = first.stdout + first.stderr[-2000:]
    assert first.returncode == 1 and " failed" in first.stdout, out[-3000:]
    assert "wrote iceberg-expectations.json" in first.stdout, out[-3000:]
    failure = first.stdout.split("\n_", 2)[1].split("\n_")[0]  # the first failure's lines: the random test's
    assert len(failure.splitlines()) <= 12 and "rerun:" in failure, failure
    failure = next(f for f in first.stdout.split("\n_") if "test_value_case[" in f.splitlines()[0])
    assert len(failure.splitlines()) <= 10 and "rerun:" in failure and "spec:" in failure, failure
    recorded = json.loads((tmp_path / "iceberg-expectations.json").read_text())
    cases = [e["where"]["case"] for e in recorded["entries"]]
    # the random test disagrees only on rules whose vector cases are now expected violations
    assert recorded["engine"] == "my-engine" and "random/transform" not in cases, cases
    assert any(c.startswith("transform.truncate.integer/") for c in cases) and not any("bucket" in c for c in cases)

    green = run(job, NEGATIVE, BYTES)
    assert green.returncode == 0 and " xfailed" in green.stdout, green.stdout[-3000:] + green.stderr[-2000:]
    assert "random inputs disagree inside recorded findings: the violation of transform.truncate" in green.stdout
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "✅ The run passed." in summary and "0 unexpected violations" in summary, summary
    verdicts = report()["verdicts"]["my-engine"]
    violations = [e for e in recorded["entries"] if e["level"] == "violation"]
    assert verdicts["unexpected"] == 0 and verdicts["expected"] == len(violations), verdicts
    assert report()["run"] == {"outcome": "passed"}
    (tmp_path / "baseline").mkdir()
    shutil.copy(tmp_path / "report" / "compliance.json", tmp_path / "baseline" / "compliance.json")

    worse = run(job, NEGATIVE, BYTES, FOUR_BYTES)
    assert worse.returncode == 1, worse.stdout[-3000:]
    assert re.search(r"regressed my-engine transform\.bucket/\S+: pass -> fail", worse.stdout), worse.stdout[-3000:]
    assert report()["baseline"]["counts"]["regressed"] > 0 and report()["run"] == {"outcome": "failed"}
    assert "Against the baseline" in (tmp_path / "report" / "compliance.html").read_text()

    fixed = run(job, BYTES)
    assert fixed.returncode == 0, fixed.stdout[-3000:] + fixed.stderr[-2000:]
    assert re.search(r"fixed     my-engine transform\.truncate\.integer/", fixed.stdout), fixed.stdout[-3000:]
    trimmed = [
        e["where"]["case"] for e in json.loads((tmp_path / "report" / "expectations.json").read_text())["entries"]
    ]
    assert trimmed and not any(c.startswith("transform.truncate.integer/") for c in trimmed), trimmed
