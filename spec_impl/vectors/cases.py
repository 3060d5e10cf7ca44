"""Building vector cases: a case spec (rule, input) becomes a case with the reference's expectation.

The expectation is computed once per spec revision the rule exists in; when the revisions agree
the case lists them all, otherwise one case per distinct expectation is emitted with the id suffix
`@<revision>` (its first revision). Ids stay stable as revisions are added: the revisions of the first
release (`FIRST_RELEASE`) are suffixed only where they disagree among themselves, as they were then,
and a later revision that disagrees with them gets a case of its own, `@<revision>`.
A case listed in `spec_examples.TYPED` carries instead the expectation typed there from the spec
text (`tests/test_spec_examples.py` compares it with the reference), and every case gets a
`provenance` (`spec_impl.vectors.provenance`): typed, declared by its family, engine-confirmed or
reference-only.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable

from spec_impl.errors import SpecError
from spec_impl.obligations import obligation_for
from spec_impl.rules import rule
from spec_impl.types import min_format_version, parse_type
from spec_impl.ops.registry import run
from spec_impl.vectors.provenance import provenance_for
from spec_impl.vectors.spec_examples import TYPED
from spec_impl.vectors.versions import FIRST_RELEASE

_TYPE_KEYS = ("type", "from", "to")


@dataclass(frozen=True)
class CaseSpec:
    rule: str
    slug: str
    description: str
    op: str
    input: dict[str, Any]
    revisions: tuple[str, ...] | None = None  # default: the rule's revisions
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] | None = None  # declared by the family: spec-example, hand-typed (see provenance.py)


def declared(spec: CaseSpec, provenance: dict[str, Any]) -> CaseSpec:
    """The spec with a declared provenance (its expectation still computed by the reference)."""
    return dataclasses.replace(spec, provenance=provenance)


def case(
    rule_id: str,
    slug: str,
    description: str,
    op: str,
    note: str | None = None,
    revisions: tuple[str, ...] | None = None,
    **inp: Any,
) -> CaseSpec:
    """Shorthand: input keys are keyword arguments, with `_` standing for `-` (format_version)."""
    return CaseSpec(rule_id, slug, description, op, {k.replace("_", "-"): v for k, v in inp.items()}, revisions, note)


def expectation(spec: CaseSpec, revision: str) -> dict[str, Any]:
    try:
        return {"output": run(spec.op, spec.input, revision)}
    except SpecError as e:
        return {"error": e.rule}


def build(spec: CaseSpec) -> list[dict[str, Any]]:
    r = rule(spec.rule)
    revisions = spec.revisions or r.revisions
    first = _first_version(spec.input)
    if "format-version" in spec.input:  # the case is about one format version
        versions = [spec.input["format-version"]]
    else:
        versions = [v for v in r.versions if v >= first] or [3]
    by_revision = {rev: expectation(spec, rev) for rev in revisions}
    groups: list[tuple[list[str], dict]] = []
    for rev, exp in by_revision.items():
        for revs, e in groups:
            if e == exp:
                revs.append(rev)
                break
        else:
            groups.append(([rev], exp))
    first_release_groups = sum(1 for revs, _ in groups if set(revs) & set(FIRST_RELEASE))
    out = []
    for revs, exp in groups:
        old = [r for r in revs if r in FIRST_RELEASE]
        if old:
            suffix = "" if first_release_groups == 1 else f"@{old[0]}"
        else:
            suffix = f"@{revs[0]}"
        item = {
            "id": f"{spec.rule}/{_slug(spec.slug)}{suffix}",
            "description": spec.description,
            "rule": spec.rule,
            "section": r.section,
            "format-versions": versions,
            "revisions": revs,
            "op": spec.op,
            "input": spec.input,
            "expected": exp,
        }
        if spec.note:
            item["note"] = spec.note
        out.append(item)
    for item in out:  # ids are final here unless build_all must disambiguate them
        item["provenance"] = spec.provenance
    return out


def build_all(specs: Iterable[CaseSpec]) -> list[dict[str, Any]]:
    """All cases of the specs. Ids are stable: a slug that collides (`decimal(9,2)` vs
    `decimal(9, 2)`) gets a suffix derived from the case's input only where the released vectors
    already carry those suffixed ids; a new collision is an error asking for a slug of its own, so
    that adding a case never renames one that exists."""
    cases = [c for s in specs for c in build(s)]
    counts: dict[str, int] = {}
    for c in cases:
        counts[c["id"]] = counts.get(c["id"], 0) + 1
    seen: set[str] = set()
    for c in cases:
        if counts[c["id"]] > 1:
            digest = hashlib.sha256(json.dumps(c["input"], sort_keys=True).encode()).hexdigest()[:8]
            base, _, revision = c["id"].partition("@")
            suffixed = f"{base}-{digest}" + (f"@{revision}" if revision else "")
            later_revision = bool(revision) and revision not in FIRST_RELEASE  # a case no release has held
            if suffixed not in released_ids() and not later_revision:
                raise ValueError(
                    f"{counts[c['id']]} cases have the id {c['id']}: give the new one a slug of its own "
                    "(ids are stable, so an existing case is never renamed)"
                )
            c["id"] = suffixed
        if c["id"] in seen:
            raise ValueError(f"duplicate vector case id {c['id']}")
        seen.add(c["id"])
        if c["id"] in TYPED:
            c["expected"], c["provenance"] = dict(TYPED[c["id"]][0]), TYPED[c["id"]][1]
        c["provenance"] = provenance_for(c["id"], c["provenance"], c["expected"])
        c["obligation"] = obligation_for(c)
    return cases


@functools.cache
def released_ids() -> frozenset[str]:
    """The case ids of the vectors as committed (family files of every set)."""
    from spec_impl.resources import vectors_dir

    ids = set()
    for path in vectors_dir().glob("*/*.json"):
        if not path.name.endswith(".schema.json"):
            document = json.loads(path.read_text(encoding="utf-8"))
            ids.update(c["id"] for c in document.get("cases", []) if isinstance(document, dict))
    return frozenset(ids)


def _first_version(inp: dict[str, Any]) -> int:
    """The first format version in which every type named by the input exists."""
    first = 1
    for key in _TYPE_KEYS:
        if key in inp:
            try:
                first = max(first, min_format_version(parse_type(inp[key])))
            except SpecError:
                pass  # an unparsable type is the point of the case; it applies to every version
    return first


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9.+-]+", "-", text.lower()).strip("-")
    if not slug:
        raise ValueError(f"empty slug from {text!r}")
    return slug
