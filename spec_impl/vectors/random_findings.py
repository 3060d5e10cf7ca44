"""Random inputs that exposed a finding, kept as vectors (`vectors/sources/random/findings.json`).

The conformance suite's random and property tests write the inputs an engine disagreed on to
`random-findings.json` (`conformance.random_findings`). `iceberg-vectors adopt-random FILE` adds
them to the source file here: one entry per distinct input, its id a hash of the op and the input
(so adopting the same input again only adds where it was found: engine, seed, date). The families
`random-value-findings` and `random-planning-findings` turn the entries into ordinary cases: the
rule and obligation a random test gives the input (`spec_impl.vectors.random_cases`), the
expectation the reference computes (a rejection case where the reference rejects the input).
An input whose answer the spec leaves open (its obligation is a reading, or every row of a
projection is open) is never adopted: `adopt` states why it skipped it. An input the reference
rejects is adopted as a rejection case of the rule it rejects it under, whose obligation (the
reading of an undefined input) credits a rejection, notes an answer and fails only a crash, as the
property tests do.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spec_impl.obligations import READING, obligation_for
from spec_impl.obligations.questions import question
from spec_impl.resources import vectors_dir
from spec_impl.revisions import V3_ADOPTED
from spec_impl.vectors.cases import CaseSpec
from spec_impl.vectors.random_cases import PLANNING_OPS, VALUE_OPS, reference_rule, rule_of

SOURCE_PATH = ("sources", "random", "findings.json")  # under the vectors directory
SOURCE = vectors_dir().joinpath(*SOURCE_PATH)
DESCRIPTION = (
    "Random inputs on which an engine disagreed with the reference, adopted as vectors "
    "(iceberg-vectors adopt-random): one entry per distinct input, with where it was found"
)
_ORIGIN_KEYS = ("engine", "engine-version", "revision", "seed", "date", "verdict", "known")


def content_id(op: str, inp: dict[str, Any]) -> str:
    """The input's stable id: a hash of its op and its input, whoever found it."""
    text = json.dumps({"op": op, "input": inp}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _rule(op: str, inp: dict[str, Any], revision: str) -> str:
    """The case's rule: the rejecting rule where the reference rejects the input, else its op's."""
    return reference_rule(op, inp, revision) or rule_of(op, inp, revision)


def open_reason(op: str, inp: dict[str, Any], revision: str = V3_ADOPTED) -> str | None:
    """Why the spec leaves the answer to this input open (never a vector expectation), or None."""
    if reference_rule(op, inp, revision) is not None:  # a rejection case: only a failure is a problem
        return None
    case = {"id": "", "op": op, "input": inp, "expected": {"output": None}, "rule": rule_of(op, inp, revision)}
    o = obligation_for(case)
    question_id = o["question"] if o["level"] == READING else None
    if question_id is not None:
        return f"the spec leaves it open ({question_id}: {question(question_id).asks})"
    if op == "project-predicate":
        from spec_impl.obligations.rows import row_truths

        if all(t is None for t in row_truths(inp)):
            return "the spec leaves open whether any of its rows matches (spec_impl.obligations.rows)"
    return None


@dataclass
class Adoption:
    """What `adopt` did with a findings file."""

    added: list[str] = field(default_factory=list)  # ids of new entries
    seen: list[str] = field(default_factory=list)  # ids already there (their origin added)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (what, why)


def read_source(path: Path = SOURCE) -> dict[str, Any]:
    if not path.is_file():
        return {"description": DESCRIPTION, "inputs": []}
    return json.loads(path.read_text(encoding="utf-8"))


def write_source(doc: dict[str, Any], path: Path = SOURCE) -> None:
    doc["inputs"].sort(key=lambda e: e["id"])
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


def adopt(findings: dict[str, Any], path: Path = SOURCE, ops: list[str] | None = None) -> Adoption:
    """Add a findings file's inputs (those of `ops`, default all) to the source file."""
    doc, out = read_source(path), Adoption()
    by_id = {e["id"]: e for e in doc["inputs"]}
    for f in findings["findings"]:
        op, inp = f["op"], f["input"]
        if ops and op not in ops:
            continue
        what = f"{f['engine']} {op} {json.dumps(inp, ensure_ascii=False)[:160]}"
        if op not in VALUE_OPS + PLANNING_OPS:
            out.skipped.append((what, f"no family of random findings takes the op {op!r}"))
            continue
        why = open_reason(op, inp, f.get("revision", V3_ADOPTED))
        if why is not None:
            out.skipped.append((what, why))
            continue
        found = {**f, "seed": findings.get("seed"), "date": findings.get("date")}
        origin = {k: found[k] for k in _ORIGIN_KEYS if found.get(k) is not None}
        key = content_id(op, inp)
        entry = by_id.get(key)
        if entry is None:
            entry = by_id[key] = {"id": key, "op": op, "input": inp, "found-by": []}
            doc["inputs"].append(entry)
            out.added.append(key)
        elif key not in out.added and key not in out.seen:
            out.seen.append(key)
        if origin not in entry["found-by"]:
            entry["found-by"].append(origin)
    write_source(doc, path)
    return out


def specs(ops: tuple[str, ...], path: Path = SOURCE) -> Iterator[CaseSpec]:
    """The source's inputs of these ops as case specs (slug `random-<id>`: stable from the content)."""
    for e in read_source(path)["inputs"]:
        if e["op"] not in ops:
            continue
        first = e["found-by"][0]
        why = open_reason(e["op"], e["input"], first.get("revision", V3_ADOPTED))
        if why is not None:
            raise ValueError(f"random finding {e['id']}: {why}; remove it from {path.name}")
        found = "; ".join(
            f"{o['engine']} {o.get('engine-version', '')} seed {o.get('seed')} {o.get('date')}" for o in e["found-by"]
        )
        yield CaseSpec(
            _rule(e["op"], e["input"], first.get("revision", V3_ADOPTED)),
            f"random-{e['id']}",
            f"a random {e['op']} input on which an engine disagreed with the reference (found by {found})",
            e["op"],
            e["input"],
        )
