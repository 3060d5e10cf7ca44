"""Spec revisions: which text a rule comes from (`../shared/spec/README.md`).

- `SEED_2024`: the table spec text of mid-2024 (`000_60deb644de29d3e6.txt`), v3 still a draft.
- `V3_ADOPTED`: format v3 as adopted and implemented by Iceberg Java 1.10 (`v3-adopted-digest.md`).
- `UPSTREAM_2026_08`: the upstream texts as merged in August 2026 (`upstream-2026-digest.md` sections
  1 to 3 and 5 to 7): the v3-era edits, the expressions, Mumbling and UDF specs, v4 paths and content stats.
- `V4_PROPOSAL`: the 2025 v4 "single file commits" proposal (`004_535f3eae0ad26c61.txt`), on v3-adopted.
- `V4_PR_2026_09`: the v4 metadata tree as its open pull request states it in September 2026 (digest
  section 4), on the merged upstream text.
- `JAVA_HEAD_2026_08`: Iceberg Java at the same upstream commit, where Java is the only description
  (digest "[J]" notes), on the merged upstream text.

Each revision builds on a base (`BASE`): it holds every edit of its lineage unless a rule says
otherwise, so a rule adopted in v3 holds in every revision that descends from `V3_ADOPTED`
(`since(V3_ADOPTED)`), and code asks `has(revision, V3_ADOPTED)`, never for one revision by name.

Functions whose result depends on the revision take a `revision` argument that defaults to
`V3_ADOPTED`, the revision that current engines follow. A revision name is an argument of the
caller, not data read from a table, so an unknown one raises `ValueError` (not a `SpecError`).
"""

from __future__ import annotations

import functools

SEED_2024 = "2024-seed"
V3_ADOPTED = "v3-adopted"
UPSTREAM_2026_08 = "upstream-2026-08"
V4_PROPOSAL = "v4-proposal"
V4_PR_2026_09 = "v4-pr-2026-09"
JAVA_HEAD_2026_08 = "java-head-2026-08"

BASE: dict[str, str | None] = {
    SEED_2024: None,
    V3_ADOPTED: SEED_2024,
    UPSTREAM_2026_08: V3_ADOPTED,
    V4_PROPOSAL: V3_ADOPTED,
    V4_PR_2026_09: UPSTREAM_2026_08,
    JAVA_HEAD_2026_08: UPSTREAM_2026_08,
}
ALL = tuple(BASE)
DEFAULT = V3_ADOPTED


def check(revision: str) -> str:
    """Return `revision` if it is known, else raise ValueError naming the known ones."""
    if revision not in BASE:
        raise ValueError(f"unknown spec revision {revision!r}; expected one of {', '.join(ALL)}")
    return revision


@functools.cache
def lineage(revision: str) -> tuple[str, ...]:
    """The revision, its base, its base's base, ... down to the seed (cached: asked per value)."""
    chain: list[str] = []
    current: str | None = check(revision)
    while current is not None:
        chain.append(current)
        current = BASE[current]
    return tuple(chain)


def has(revision: str, edit: str) -> bool:
    """Whether `revision` holds the edits made by revision `edit` (it is `edit` or descends from it)."""
    return check(edit) in lineage(revision)


def since(edit: str) -> tuple[str, ...]:
    """Every revision that holds the edits of `edit`, in the order of `ALL`."""
    return tuple(r for r in ALL if has(r, edit))


def before(edit: str) -> tuple[str, ...]:
    """Every revision that does not hold the edits of `edit`: where the text it replaced still holds."""
    return tuple(r for r in ALL if not has(r, edit))


ADOPTED = since(V3_ADOPTED)  # a rule of the adopted v3, in force in every later revision
UPSTREAM = since(UPSTREAM_2026_08)  # an edit of the merged upstream text of August 2026
