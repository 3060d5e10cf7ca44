"""`iceberg-vectors generate` is atomic for the vectors directory as a whole
(`spec_impl.vectors.golden`: stage every set, journal the swaps, swap, delete the journal; every
reader calls `recover` first).

The test kills a real `generate` (SIGKILL, in a subprocess, on a copy of the vectors directory) at
20 moments derived from a measured run, recovers, and checks that every set is the old one or every
set is the new one (by the hashes of every file of both), with `README.md` and `sources/` untouched.
Half the kills are timed from the start of the run (staging), half from the moment the journal
appears (the multi-set swap phase, slowed by ICEBERG_VECTORS_SWAP_DELAY so that a kill can land
between two swaps).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_impl.vectors import golden
from spec_impl.vectors.cli import DEFAULT_ROOT, main

SETS = ("data", "v4", "values")  # three sets: a run has two swaps to be killed between
SWAP_DELAY = 0.25
KILLS = 20
REPO = Path(__file__).resolve().parents[1]


def _tree_hash(directory: Path) -> str:
    """Every file under `directory` (relative path and bytes), hidden ones included."""
    h = hashlib.sha256()
    if not directory.exists():
        return "absent"
    for p in sorted(directory.rglob("*")):
        if p.is_file() or p.is_symlink():
            h.update(p.relative_to(directory).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _state(root: Path) -> dict[str, str]:
    return {name: _tree_hash(root / name) for name in (*SETS, "sources")} | {
        "README.md": _tree_hash_file(root / "README.md")
    }


def _tree_hash_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _generate(root: Path) -> subprocess.Popen:
    args = [
        sys.executable,
        "-m",
        "spec_impl.vectors",
        "--root",
        str(root),
        "-q",
        *(a for s in SETS for a in ("--set", s)),
        "generate",
    ]
    env = dict(os.environ, **{golden.SWAP_DELAY_ENV: str(SWAP_DELAY)})
    return subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


class Corpus:
    """The old vectors (a copy of the committed sets, each given a file and a checksum line the
    generator does not write), the new ones (what a whole run writes), and a measured run."""

    def __init__(self, base: Path):
        self.old_root = base / "old"
        self.old_root.mkdir(parents=True)
        for name in SETS:
            shutil.copytree(DEFAULT_ROOT / name, self.old_root / name)
            (self.old_root / name / "stale-family.json").write_text('{"old": true}\n')
            with open(self.old_root / name / golden.CHECKSUMS, "a") as f:
                f.write(f"{'0' * 64}  stale-family.json\n")
        shutil.copytree(DEFAULT_ROOT / "sources", self.old_root / "sources")
        shutil.copy(DEFAULT_ROOT / "README.md", self.old_root / "README.md")
        self.old = _state(self.old_root)
        measured = base / "measured"
        shutil.copytree(self.old_root, measured)
        started = time.monotonic()
        proc = _generate(measured)
        self.journal_at = None
        while proc.poll() is None:
            if self.journal_at is None and (measured / golden.JOURNAL).exists():
                self.journal_at = time.monotonic() - started
            time.sleep(0.005)
        self.duration = time.monotonic() - started
        assert proc.returncode == 0, proc.stderr.read().decode()
        assert self.journal_at is not None, "the journal of the swap phase was never seen"
        self.new = _state(measured)
        assert sorted(p.name for p in measured.iterdir()) == sorted(
            [*SETS, "sources", "README.md"]
        )  # nothing left behind
        assert all(self.new[n] != self.old[n] for n in SETS) and self.new["sources"] == self.old["sources"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    return Corpus(tmp_path_factory.mktemp("regeneration"))


def _moments() -> list[tuple[str, float]]:
    """(phase, fraction): kill at `fraction` of the measured run (phase "run"), or `fraction` of the
    swap window after the journal appears (phase "swap")."""
    rng = random.Random(20240611)
    out = []
    for i in range(KILLS):
        if i % 2 == 0:
            out.append(("run", (i // 2 + rng.random()) / (KILLS // 2)))  # one kill in each tenth of the run
        else:
            out.append(("swap", rng.random() * 0.9))
    return out


@pytest.mark.parametrize(
    "phase,fraction", _moments(), ids=[f"kill{i:02d}-{p}-{f:.2f}" for i, (p, f) in enumerate(_moments())]
)
def test_a_killed_generate_leaves_all_old_or_all_new(corpus, tmp_path, phase, fraction):
    root = tmp_path / "vectors"
    shutil.copytree(corpus.old_root, root)
    proc = _generate(root)
    started = time.monotonic()
    try:
        if phase == "run":
            time.sleep(fraction * corpus.duration)
        else:
            while not (root / golden.JOURNAL).exists() and proc.poll() is None:
                time.sleep(0.002)
            time.sleep(fraction * (len(SETS) - 1) * SWAP_DELAY)
        running = proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL) if running else None
    finally:
        proc.wait()
    journaled = (root / golden.JOURNAL).exists()
    if phase == "swap":
        assert running and journaled, f"the kill missed the swap phase (after {time.monotonic() - started:.2f}s)"
    recovered = golden.recover(root)
    state = _state(root)
    assert sorted(p.name for p in root.iterdir()) == sorted([*SETS, "sources", "README.md"]), recovered
    assert state in (corpus.old, corpus.new), {
        n: ("old" if state[n] == corpus.old[n] else "new" if state[n] == corpus.new[n] else "neither") for n in state
    }
    if journaled:  # past the commit point: the run is completed
        assert state == corpus.new and recovered and "completed" in recovered
    assert golden.recover(root) is None  # whole: nothing more to do


def test_readers_recover_first(corpus, tmp_path, capsys):
    """A directory left mid-swap is completed by the next command that reads it: `iceberg-vectors
    list`, `conformance.vectors.load_families`."""
    from conformance.vectors import load_families

    for reader in ("cli", "loader"):
        root = tmp_path / reader
        shutil.copytree(corpus.old_root, root)
        staging = root / golden.STAGING
        staging.mkdir()
        for name in SETS:  # what a run killed after its first swap leaves
            shutil.copytree(corpus.old_root / name, staging / name)
            (staging / name / "stale-family.json").unlink()
        (root / golden.RETIRED).mkdir()
        os.rename(root / SETS[0], root / golden.RETIRED / SETS[0])
        os.rename(staging / SETS[0], root / SETS[0])
        (root / golden.JOURNAL).write_bytes(golden.dumps({"format": 1, "sets": list(SETS)}))
        if reader == "cli":
            assert main(["--root", str(root), "list", "--family", "bucket"]) == 0
        else:
            assert load_families.__wrapped__(root)
        assert not (root / golden.JOURNAL).exists() and not staging.exists() and not (root / golden.RETIRED).exists()
        assert all(not (root / name / "stale-family.json").exists() for name in SETS)
    capsys.readouterr()


def test_a_run_killed_while_staging_is_discarded(corpus, tmp_path):
    root = tmp_path / "vectors"
    shutil.copytree(corpus.old_root, root)
    (root / golden.STAGING / "values").mkdir(parents=True)
    (root / golden.STAGING / "values" / "half.json").write_text("{")
    assert "discarded" in golden.recover(root)
    assert _state(root) == corpus.old


def test_list_of_an_unknown_family_exits_2(capsys):
    assert main(["list", "--family", "nope"]) == 2
    err = capsys.readouterr().err
    assert "no family 'nope'" in err and "bucket" in err
    assert main(["list", "--family", "bucket"]) == 0
