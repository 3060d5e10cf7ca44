"""Atomic replacement of the generated sets of the vectors directory, and `recover` after a kill.

Regeneration is atomic for the vectors directory as a whole, not set by set: a kill at any moment
leaves, once `recover` has run, every set old or every set new. Under an exclusive lock (`flock` on
the vectors directory itself, released by the kernel when the process dies):

1. every set is written in full to `.regenerate-staging/<set>/` (a kill here: the old sets are
   untouched, and `recover` discards the staging directory);
2. the journal `.regenerate-journal.json`, naming the sets to swap, is written to a temporary file,
   fsynced and renamed into place: its appearance is the commit point;
3. each set is swapped with two renames, `<set>` to `.regenerate-retired/<set>` and
   `.regenerate-staging/<set>` to `<set>` (a kill here: `recover` finds the journal and completes
   the swaps it names; each set's state tells how far it got);
4. the journal is deleted, then the staging and retired directories.

Every reader of the vectors (`iceberg-vectors` commands, `conformance.vectors`,
`spec_impl.vectors.tables`) calls `recover` first; when no journal or staging is there it only
looks (three `stat` calls). Files of the vectors directory that are not generated sets
(`README.md`, `sources/`) are never touched. The guarantee is against the process being killed;
against power loss, the journal and the directories are fsynced, the staged files are not.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator, Mapping
from pathlib import Path


def dumps(obj) -> bytes:
    """Canonical JSON bytes: sorted keys, two-space indent, UTF-8, one trailing newline."""
    return (json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


JOURNAL = ".regenerate-journal.json"
STAGING = ".regenerate-staging"
RETIRED = ".regenerate-retired"
SWAP_DELAY_ENV = "ICEBERG_VECTORS_SWAP_DELAY"  # seconds slept between two set swaps: lets a test kill a run mid-swap


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    """An exclusive lock on the vectors directory (flock on the directory itself: no lock file,
    released when the process exits or is killed)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_journal(root: Path, sets: list[str]) -> None:
    """Step 2, the commit point: the journal appears whole or not at all."""
    tmp = root / f"{JOURNAL}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, dumps({"format": 1, "sets": sets, "staging": STAGING, "retired": RETIRED}))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, root / JOURNAL)
    _fsync_dir(root)


def _swap(root: Path, name: str) -> None:
    """Step 3 for one set, idempotent: from whichever state a kill left it in, to the new set."""
    new, current, old = root / STAGING / name, root / name, root / RETIRED / name
    if not new.exists():
        return  # swapped already
    if current.exists():
        if old.exists():
            raise RuntimeError(f"cannot recover {root}: {current}, {new} and {old} all exist")
        os.rename(current, old)
    os.rename(new, current)


def _roll_forward(root: Path, sets: list[str], delay: float = 0.0) -> None:
    (root / RETIRED).mkdir(exist_ok=True)
    for i, name in enumerate(sets):
        if delay and i:
            time.sleep(delay)
        _swap(root, name)
    _fsync_dir(root)
    (root / JOURNAL).unlink()
    _fsync_dir(root)


def _recover_locked(root: Path) -> str | None:
    action = None
    journal = root / JOURNAL
    if journal.exists():
        doc = json.loads(journal.read_bytes())
        _roll_forward(root, list(doc["sets"]))
        action = f"completed the interrupted regeneration of {', '.join(doc['sets'])}"
    for leftover in (root / STAGING, root / RETIRED):
        if leftover.exists():
            shutil.rmtree(leftover)
            action = action or f"discarded {leftover.name} of an interrupted regeneration"
    (root / f"{JOURNAL}.tmp").unlink(missing_ok=True)
    return action


def recover(root: Path) -> str | None:
    """Bring the vectors directory `root` to a whole state after an interrupted regeneration: a
    journaled one is rolled forward, an unjournaled one's staging discarded. Returns what was done
    (None: nothing to do). Waits while another process regenerates."""
    root = Path(root)
    if not any(os.path.lexists(root / n) for n in (JOURNAL, STAGING, RETIRED, f"{JOURNAL}.tmp")):
        return None
    with _locked(root):
        return _recover_locked(root)


def write_sets(root: Path, sets: Mapping[str, dict[str, bytes]]) -> None:
    """Replace the set directories `root/<name>` by exactly `sets[name]`, all of them atomically
    (see the module docstring). Nothing else under `root` is touched."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    names = sorted(sets)
    for name in names:
        if not name or name.startswith(".") or "/" in name or name in ("sources", "README.md"):
            raise ValueError(f"not a set name: {name!r}")
    with _locked(root):
        _recover_locked(root)
        staging = root / STAGING
        try:
            staging.mkdir()
            for name in names:
                for rel, data in sets[name].items():
                    (staging / name / rel).parent.mkdir(parents=True, exist_ok=True)
                    (staging / name / rel).write_bytes(data)
                os.chmod(staging / name, 0o755)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        _write_journal(root, names)
        _roll_forward(root, names, float(os.environ.get(SWAP_DELAY_ENV) or 0))
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(root / RETIRED, ignore_errors=True)


def write(target: Path, files: dict[str, bytes]) -> None:
    """Replace the directory `target` by exactly `files`, atomically as seen by readers."""
    target = Path(target)
    write_sets(target.parent, {target.name: files})


def differences(target: Path, files: dict[str, bytes]) -> list[str]:
    """What differs between the directory `target` and `files`: one line per file."""
    target = Path(target)
    present = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()} if target.is_dir() else set()
    out = [f"missing: {name}" for name in sorted(set(files) - present)]
    out += [f"not generated (stale): {name}" for name in sorted(present - set(files))]
    out += [f"differs: {name}" for name in sorted(set(files) & present) if (target / name).read_bytes() != files[name]]
    return out
