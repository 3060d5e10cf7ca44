"""How an engine's answer compares with an expectation, by meaning where the spec allows several
spellings: the comparisons the judge (`conformance.judge`) and the obligations it follows
(`conformance.obligations`) both use, apart from either so that neither imports the other."""

from __future__ import annotations

import json
from typing import Any

from spec_impl import transforms
from spec_impl.errors import SpecError
from spec_impl.serde import json_value
from spec_impl.types import parse_type
from spec_impl.ops.encoding import decode, same_value

from conformance.engines.base import EngineAnswer


def answers_as(
    case: dict[str, Any], expected: dict[str, Any], answer: EngineAnswer, revision: str = "v3-adopted"
) -> bool:
    """Whether the answer is this expectation: the same output, or any rejection for `{"error": ...}`."""
    if "error" in expected:
        return not answer.ok and not answer.failed and answer.unsupported is None
    if not answer.ok:
        return False
    try:
        return equal_by_meaning(case, expected["output"], answer.output, revision)
    except (SpecError, KeyError, TypeError, ValueError):
        return False


def same_output(case: dict[str, Any], a: Any, b: Any) -> bool:
    """Whether two outputs of an engine for this case are the same observation: equal JSON, rows
    of a table in any order."""
    if case["op"] == "read-table" and isinstance(a, dict) and isinstance(b, dict) and "rows" in a and "rows" in b:
        return a.get("columns") == b.get("columns") and sorted_rows(a["rows"]) == sorted_rows(b["rows"])
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def equal_by_meaning(case: dict[str, Any], want: Any, got: Any, revision: str) -> bool:
    """Whether an output is the expected one by meaning (see `conformance.judge`: types by their model,
    single values by what they decode to, rows in any order)."""
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
        t = parse_type(inp["type"])  # the writer's form, where Appendix D prescribes one
        equal = same_value(t, json_value.from_json(t, want), json_value.from_json(t, got))
        json_value.check_written(t, got)
        return equal
    if op == "partition-tuple":  # each field by the value it decodes to, in its result type
        types = partition_result_types(inp, revision)
        return (
            isinstance(got, list)
            and len(got) == len(want) == len(types)
            and all(same_value(t, decode(t, w), decode(t, g)) for t, w, g in zip(types, want, got))
        )
    if op == "read-table":  # rows in any order
        return want["columns"] == got["columns"] and sorted_rows(want["rows"]) == sorted_rows(got["rows"])
    if op in SCHEMA_OUTPUTS:
        return type(want) is type(got) and schemas_by_meaning(want) == schemas_by_meaning(got)
    return type(want) is type(got) and want == got


def partition_result_types(inp: dict[str, Any], revision: str) -> list[Any]:
    """The result type of each field of a partition-tuple case's spec ("Partition Transforms")."""
    columns = {f["name"]: f["type"] for f in inp["schema"]["fields"]}
    return [transforms.result_type(f["transform"], columns[f["source"]], revision) for f in inp["spec"]]


# Ops whose outputs hold schemas (Appendix C's schema JSON) among other fields.
SCHEMA_OUTPUTS = frozenset({"parse-schema", "read-table-metadata", "read-view-metadata"})
FIELD_KEYS = frozenset({"id", "name", "required", "type"})
DEFAULTS = ("initial-default", "write-default")


def schemas_by_meaning(obj: Any) -> Any:
    """A JSON output with every schema field in one spelling of its meaning: a type string as its
    parsed type prints it (Appendix C gives `"decimal(9,2)"` and `"decimal(9, 2)"` alike), and a
    default of an optional field that is null left out ("If either default is not set for an
    optional field, then the default value is null")."""
    if isinstance(obj, list):
        return [schemas_by_meaning(v) for v in obj]
    if not isinstance(obj, dict):
        return obj
    typed = ("type", "element", "key", "value")
    out = {k: _type_string(v) if k in typed else schemas_by_meaning(v) for k, v in obj.items()}
    if FIELD_KEYS <= obj.keys() and obj.get("required") is False:
        for key in DEFAULTS:
            if key in out and out[key] is None:
                del out[key]
    return out


def _type_string(value: Any) -> Any:
    if not isinstance(value, str):
        return schemas_by_meaning(value)
    try:
        return str(parse_type(value))
    except (SpecError, ValueError, TypeError):
        return value


def sorted_rows(rows: list[dict]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:197] + "..."
