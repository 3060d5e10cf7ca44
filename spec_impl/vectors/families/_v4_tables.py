"""The v4 trees the vector cases are built of: a `Table` that applies commits in order (each
validated against its parent) and keeps every file, the data files D1, D2, ... and the cases' note
for provisional rules (`spec_impl.v4.PROVISIONAL_RULES`)."""

from __future__ import annotations

import base64
from collections.abc import Callable

from spec_impl.manifests.tree import InMemoryFiles
from spec_impl.v4 import PROVISIONAL_RULES
from spec_impl.v4.commits import TableState
from spec_impl.v4.entries import data_file
from spec_impl.v4.replay import SnapshotRoot
from spec_impl.v4.validate import validate_snapshot

L = "s3://b/t"


def D(n: int) -> str:
    return f"{L}/data/d{n}.parquet"


def files(*ns: int) -> list:
    return [data_file(D(n), 10 * n) for n in ns]


class Table:
    """Commits applied in order (each validated against its parent), every file kept."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.state = TableState.empty(L)
        self.commits: list = []

    def read(self, path: str) -> bytes:
        return InMemoryFiles(self.files).read(path)

    def apply(self, fn: Callable, *args, **kw):
        c = fn(self.state, self.read, len(self.commits) + 1, *args, **kw)
        self.files.update(c.files)
        parent = self.commits[-1].root if self.commits else None
        assert validate_snapshot(self.read, c.root, parent) == [], fn.__name__
        self.commits.append(c)
        self.state = c.state
        return c

    def inputs(self, parent: bool = True) -> dict:
        """The last snapshot's tree, inline: files, root (and its parent's root, for validation)."""
        c = self.commits[-1]
        out = {"files": {p: base64.b64encode(d).decode() for p, d in sorted(self.files.items())}, "root": _root(c.root)}
        if parent and len(self.commits) > 1:
            out["parent"] = _root(self.commits[-2].root)
        return out


def _root(r: SnapshotRoot) -> dict:
    return {"location": r.location, "snapshot-id": r.snapshot_id, "sequence-number": r.sequence_number}


def _note(rule: str) -> str | None:
    return (
        "provisional: the rule rests on an interpretation of the proposal (spec_impl/v4/__init__.py)"
        if rule in PROVISIONAL_RULES
        else None
    )
