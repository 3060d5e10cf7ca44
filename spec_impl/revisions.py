"""Spec revisions: which text a rule comes from (`../shared/spec/README.md`).

- `SEED_2024`: the table spec text of mid-2024 (`000_60deb644de29d3e6.txt`), v3 still a draft.
- `V3_ADOPTED`: format v3 as adopted and implemented by Iceberg Java 1.10 (`v3-adopted-digest.md`).

Functions whose result depends on the revision take a `revision` argument that defaults to
`V3_ADOPTED`, the revision that current engines follow. A revision name is an argument of the
caller, not data read from a table, so an unknown one raises `ValueError` (not a `SpecError`).
"""

from __future__ import annotations

SEED_2024 = "2024-seed"
V3_ADOPTED = "v3-adopted"
ALL = (SEED_2024, V3_ADOPTED)
DEFAULT = V3_ADOPTED


def check(revision: str) -> str:
    """Return `revision` if it is known, else raise ValueError naming the known ones."""
    if revision not in ALL:
        raise ValueError(f"unknown spec revision {revision!r}; expected one of {', '.join(ALL)}")
    return revision
