"""A random test's input as a vector case: the rule it is judged under and its obligation.

The random and property tests of the conformance suite (`conformance/test_random_values.py`,
`conformance/test_random_planning.py`) and the family of adopted random findings
(`spec_impl.vectors.random_findings`) give an input the same rule: the one a vector case of its op
and input would name, or, for an input the reference rejects, the rule it rejects it under (the
spec defines no answer for it: the case is a rejection case of that rule).
"""

from __future__ import annotations


from spec_impl import hashing, transforms
from spec_impl.errors import SpecError
from spec_impl.obligations import obligation_for
from spec_impl.serde import binary, json_value
from spec_impl.types import parse_type
from spec_impl.ops.registry import run

VALUE_OPS = ("hash", "transform", "to-binary", "from-binary", "to-json", "from-json")
PLANNING_OPS = ("project-predicate", "evaluate-metrics", "evaluate-manifest")


def rule_of(op: str, inp: dict, revision: str) -> str:
    """The rule a vector case of this op and input would name (the reference's own choice)."""
    if op == "project-predicate":
        return f"predicate-projection.{inp['mode']}"
    if op == "evaluate-metrics":
        return f"file-pruning.{inp['mode']}-metrics"
    if op == "evaluate-manifest":
        return "file-pruning.manifest-summaries"
    t = parse_type(inp["type"])
    if op == "hash":
        return hashing.rule_for(t, revision)
    if op == "transform":
        return transforms.rule_for(inp["transform"], t)
    return binary.rule_for(t) if op in ("to-binary", "from-binary") else json_value.rule_for(t)


def reference_rule(op: str, inp: dict, revision: str) -> str | None:
    """The rule under which the reference rejects the input (the spec defines no answer for it), or
    None when the reference answers."""
    try:
        run(op, inp, revision)
    except SpecError as e:
        return e.rule
    return None


def random_case(i: int, op: str, inp: dict, expected: dict, revision: str) -> dict:
    """A random input as a vector case, with the obligation a vector case of its rule carries."""
    rule = expected["error"] if "error" in expected else rule_of(op, inp, revision)
    case = {"id": f"random-{i}", "op": op, "input": inp, "expected": expected, "rule": rule}
    return {**case, "obligation": obligation_for(case)}
