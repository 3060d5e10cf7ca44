"""An engine developer's first hour (the README's "Use it in your CI", `engines/ADDING.md`): what
a run of one's own small engine judges and says. The engine is `tests/fixtures/ci_recipe/mypkg`
(bucket and truncate of int, long and string), run from this checkout as a plugin run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.engines.base import Engine
from conformance.judge import ERRORED, REJECTED, judge
from conformance.vectors import load_families

ROOT = Path(__file__).resolve().parents[1]
ENGINE = "mypkg.adapter:MyEngine"


def _run(tmp_path: Path, *options: str, bugs: str = "", extra: str = "") -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "fixtures" / "ci_recipe"), str(tmp_path), str(ROOT)]),
        "MYENGINE_BUGS": bugs,
    }
    command = [sys.executable, "-m", "pytest", "-p", "iceberg_conformance", "--pyargs", "conformance"]
    command += ["-p", "no:cacheprovider", "--engine", extra or ENGINE, *options]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


class Typo(Engine):
    name = "typo"
    capabilities = frozenset({"transform"})
    case_errors = (ValueError,)

    def answer_transform(self, inp):
        if inp["type"] == "boolean":
            raise ValueError("no bucket of a boolean")  # declared: the engine's rejection
        return inp["vaule"]  # a typo: KeyError, not declared


def test_only_declared_exceptions_are_rejections():
    cases = {c["id"]: c for c in load_families()["bucket"]}
    boolean, rejection = (cases[f"transform.source-type/bucket-rejects-{t}"] for t in ("boolean", "float"))
    engine = Typo()
    declared, typo = engine.run_batch("transform", [boolean, rejection])
    assert judge(boolean, declared, engine.revision).outcome == REJECTED
    assert typo.failed and judge(rejection, typo, engine.revision).outcome == ERRORED
    assert "KeyError" in typo.error and f"{__file__}:" in typo.error and "(answer_transform)" in typo.error


def test_an_adapter_typo_is_an_error_in_the_run(tmp_path):
    (tmp_path / "typo_engine.py").write_text(
        textwrap.dedent("""
        from conformance.engines.base import Engine

        class Typo(Engine):
            name = "typo"
            capabilities = frozenset({"transform"})

            def answer_transform(self, inp):
                return inp["vaule"]
        """)
    )
    done = _run(tmp_path, "-m", "truncate", "--compliance-report", "report", extra="typo_engine:Typo")
    assert done.returncode == 1, done.stdout[-2000:]
    cells = json.loads((tmp_path / "report" / "compliance.json").read_text())["cells"]["typo"]["truncate"]
    assert cells["rejection"]["rejected"] == 0 and cells["rejection"]["errored"] > 0, cells
    assert "typo_engine.py:9 (answer_transform)" in done.stdout


def test_random_tests_draw_from_the_engine_s_support_and_count_what_they_judged(tmp_path):
    done = _run(tmp_path, "-k", "random", "--compliance-report", "report")
    assert done.returncode == 0, done.stdout[-3000:]
    rows = json.loads((tmp_path / "report" / "compliance.json").read_text())["random-values"]
    transform = next(r for r in rows if r["op"] == "transform")
    assert transform["outcome"] == "pass" and transform["judged"] >= 400, transform


def test_a_random_test_that_judged_nothing_is_a_skip(tmp_path):
    (tmp_path / "narrow_engine.py").write_text(
        textwrap.dedent("""
        from mypkg.adapter import MyEngine

        class Narrow(MyEngine):
            name = "narrow"

            def unsupported(self, op, inp):
                return "declines everything"
        """)
    )
    done = _run(tmp_path, "-k", "random", "--compliance-report", "report", "-rs", extra="narrow_engine:Narrow")
    assert done.returncode == 0, done.stdout[-3000:]
    rows = json.loads((tmp_path / "report" / "compliance.json").read_text())["random-values"]
    transform = next(r for r in rows if r["op"] == "transform")
    assert transform["outcome"] == "skipped" and transform["judged"] == 0, transform
    assert "none judged" in done.stdout


def test_an_expectations_file_about_another_engine_is_a_usage_error(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps({"engine": "my-engin", "entries": []}))
    done = _run(tmp_path, "--expectations", "other.json")
    assert done.returncode == 4 and "about engine 'my-engin'" in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("spec", ["mypkg.adaptr:MyEngine", "my-engine"])
def test_a_bad_engine_is_one_line_of_usage_error(tmp_path, spec):
    done = _run(tmp_path, extra=spec)
    assert done.returncode == 4 and done.stderr.strip().startswith("ERROR:"), done.stdout[-2000:] + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stdout + done.stderr


def test_a_pattern_lists_no_case_as_fixed_and_is_unmatched_once_clean(tmp_path):
    (tmp_path / "expect.json").write_text(
        json.dumps(
            {
                "engine": "my-engine",
                "entries": [
                    {"where": {"case": "transform.truncate.*"}, "level": "violation", "reason": "truncates toward 0"}
                ],
            }
        )
    )
    buggy = _run(tmp_path, "-m", "truncate", "--expectations", "expect.json", bugs="negative-truncate")
    assert buggy.returncode == 0 and " xfailed" in buggy.stdout, buggy.stdout[-2000:]
    assert "fixed     " not in buggy.stdout and "unmatched" not in buggy.stdout
    clean = _run(tmp_path, "-m", "truncate", "--expectations", "expect.json")
    assert clean.returncode == 0 and "fixed     " not in clean.stdout, clean.stdout[-2000:]
    assert "unmatched my-engine transform.truncate.*" in clean.stdout, clean.stdout[-2000:]


def test_a_run_of_one_s_own_engine_collects_only_the_judging_tests(tmp_path):
    done = _run(tmp_path, "--collect-only", "-q")
    files = {line.split("::")[0].rsplit("/", 1)[-1] for line in done.stdout.splitlines() if "::" in line}
    assert files == {"test_value_vectors.py", "test_random_values.py", "test_random_planning.py"}, files


def test_the_terminal_the_page_and_the_summary_count_the_same_verdicts(tmp_path):
    """Issue: the page said 13 violations in red where the terminal said 9, fixed cases were
    painted as failures and a green run opened with a red mark. Here one run has unexpected,
    expected and fixed cases at once, and every view gives the same numbers."""
    import re

    first = _run(
        tmp_path, "-m", "truncate", "--update-expectations", "expect.json", bugs="negative-truncate,byte-truncate"
    )
    assert first.returncode == 1, first.stdout[-2000:]
    run = _run(
        tmp_path, "-m", "truncate or bucket", "--expectations", "expect.json", "--compliance-report", "report",
        "--summary-md", "summary.md", bugs="negative-truncate,four-byte-int-hash",
    )  # fmt: skip
    assert run.returncode == 1, run.stdout[-2000:]
    doc = json.loads((tmp_path / "report" / "compliance.json").read_text())
    v = doc["verdicts"]["my-engine"]
    assert v["unexpected"] > 0 and v["expected"] > 0 and v["fixed"] > 0, v
    assert v["violations"] == v["unexpected"] + v["expected"] and doc["run"] == {"outcome": "failed"}
    row = next(line.split() for line in run.stdout.splitlines() if line.startswith("my-engine  "))
    assert [int(n) for n in row[1:]] == [
        v[k] for k in ("violations", "unexpected", "expected", "fixed", "divergences", "allowed")
    ]
    summary = (tmp_path / "summary.md").read_text()
    assert (
        f"❌ **{v['unexpected']} unexpected violations**" in summary and f"{v['expected']} expected (xfail)" in summary
    )
    assert f"{v['fixed']} fixed" in summary and "❌ The run failed." in summary
    page = (tmp_path / "report" / "compliance.html").read_text()
    header = re.search(
        r"<b>([\d,]+) violations</b> of a must of the spec \(([\d,]+) unexpected, ([\d,]+) expected\)", page
    )
    assert header and [int(n.replace(",", "")) for n in header.groups()] == [
        v["violations"],
        v["unexpected"],
        v["expected"],
    ]
    assert "run failed" in page and f"my-engine ({v['violations']})" in page
