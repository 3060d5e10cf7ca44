"""Judging an engine's answer to a vector case: pass, fail or errored, with a readable reason.

Outputs compare by meaning where the spec allows several spellings: types by their parsed model
(`decimal(9, 2)` equals `decimal(9,2)`), JSON single values by the value they decode to (Java's
`22:31:08` equals `22:31:08.000000`, upper-case hex equals lower-case), floats by their bits.
A case that expects a rejection passes when the engine raised any error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from spec_impl import transforms
from spec_impl.errors import SpecError
from spec_impl.serde import json_value
from spec_impl.types import parse_type
from spec_impl.vectors.encoding import decode, same_value

from conformance.engines.base import EngineAnswer

PASS, FAIL, ERRORED = "pass", "fail", "errored"


@dataclass(frozen=True)
class Verdict:
    outcome: str
    message: str = ""


def judge(case: dict[str, Any], answer: EngineAnswer, revision: str,
          view: Callable[[str, Any], Any] = lambda op, output: output) -> Verdict:  # fmt: skip
    """`view(op, expected_output)` narrows the expectation to the part an engine reports
    (`Engine.partial_view`); it is the identity for engines that answer in full."""
    expected = case["expected"]
    if "output" in expected:
        expected = {"output": view(case["op"], expected["output"])}
    if "error" in expected:
        if not answer.ok:
            return Verdict(PASS)
        return Verdict(FAIL, f"accepted an input the spec rejects (rule {expected['error']}): returned {_show(answer.output)}")
    if not answer.ok:
        return Verdict(ERRORED, f"raised: {answer.error}; expected {_show(expected['output'])}")
    try:
        equal = _equal(case, expected["output"], answer.output, revision)
    except (SpecError, KeyError, TypeError, ValueError) as e:
        return Verdict(FAIL, f"returned {_show(answer.output)}, which does not read as the expected kind of value ({e}); "
                             f"expected {_show(expected['output'])}")  # fmt: skip
    if equal:
        return Verdict(PASS)
    return Verdict(FAIL, f"expected {_show(expected['output'])}, got {_show(answer.output)}")


def _equal(case: dict[str, Any], want: Any, got: Any, revision: str) -> bool:
    op, inp = case["op"], case["input"]
    if op in ("parse-type", "result-type"):
        return parse_type(want) == parse_type(got)
    if op == "to-binary":
        return isinstance(got, str) and got.lower() == want
    if op in ("from-binary", "from-json"):
        return same_value(inp["type"], decode(inp["type"], want), decode(inp["type"], got))
    if op == "transform":
        result_type = transforms.result_type(inp["transform"], inp["type"], revision)
        return same_value(result_type, decode(result_type, want), decode(result_type, got))
    if op == "to-json":
        t = parse_type(inp["type"])
        return same_value(t, json_value.from_json(t, want), json_value.from_json(t, got))
    if op == "read-table":  # rows in any order
        return want["columns"] == got["columns"] and _sorted_rows(want["rows"]) == _sorted_rows(got["rows"])
    return type(want) is type(got) and want == got


def _sorted_rows(rows: list[dict]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."
