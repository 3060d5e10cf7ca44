"""The value ops: what the value vectors exercise, computed by the reference.

Each op takes a case's `input` object and returns its `output` in vector form
(`spec_impl.ops.encoding`). Every op of the suite is in `spec_impl.ops.registry`.

| op                 | input keys                          | output                                  |
|--------------------|-------------------------------------|-----------------------------------------|
| parse-type         | type (Appendix C JSON)              | the type's canonical Appendix C JSON    |
| min-format-version | type                                | first format version allowing the type |
| promote            | from, to, format-version            | true when the promotion is allowed      |
| hash               | type, value                         | signed 32-bit Appendix B hash (or null) |
| parse-transform    | transform                           | {"transform", "name", "param"}          |
| result-type        | transform, type                     | result type JSON                        |
| transform          | transform, type, value              | result value (vector form)              |
| to-binary          | type, value                         | lowercase hex of the Appendix D bytes   |
| from-binary        | type, hex                           | value (vector form)                     |
| to-json            | type, value                         | Appendix D JSON single value            |
| from-json          | type, json                          | value (vector form)                     |

The metadata ops (read-table-metadata, parse-schema, check-evolution, ...) are listed in
`metadata_ops.py`, the file ops in `file_ops.py`.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from spec_impl import promotion, transforms
from spec_impl.errors import InvalidInput
from spec_impl.hashing import hash_value
from spec_impl.serde import binary, json_value
from spec_impl.types import min_format_version, parse_type, spelled
from spec_impl.ops.encoding import decode, encode


def _parse_type(inp: dict, revision: str) -> Any:
    return spelled(parse_type(inp["type"]), revision)


def _min_format_version(inp: dict, revision: str) -> int:
    return min_format_version(parse_type(inp["type"]))


def _promote(inp: dict, revision: str) -> bool:
    return promotion.can_promote(parse_type(inp["from"]), parse_type(inp["to"]), inp["format-version"], revision)


def _hash(inp: dict, revision: str) -> int | None:
    t = parse_type(inp["type"])
    return hash_value(t, decode(t, inp["value"]), revision)


def _parse_transform(inp: dict, revision: str) -> dict:
    t = transforms.parse_transform(inp["transform"])
    return {"transform": t.text, "name": t.name, "param": t.param}


def _result_type(inp: dict, revision: str) -> Any:
    return transforms.result_type(inp["transform"], inp["type"], revision).to_json()


def _transform(inp: dict, revision: str) -> Any:
    source = parse_type(inp["type"])
    result = transforms.apply_transform(inp["transform"], source, decode(source, inp["value"]), revision)
    return encode(transforms.result_type(inp["transform"], source, revision), result)


def _to_binary(inp: dict, revision: str) -> str:
    t = parse_type(inp["type"])
    return binary.to_binary(t, decode(t, inp["value"])).hex()


def _from_binary(inp: dict, revision: str) -> Any:
    t = parse_type(inp["type"])
    try:
        data = bytes.fromhex(inp["hex"])
    except ValueError:
        raise InvalidInput(binary.rule_for(t), "the case's hex is not hexadecimal", inp["hex"]) from None
    return encode(t, binary.from_binary(t, data, revision))


def _to_json(inp: dict, revision: str) -> Any:
    t = parse_type(inp["type"])
    return json_value.to_json(t, decode(t, inp["value"]))


def _from_json(inp: dict, revision: str) -> Any:
    t = parse_type(inp["type"])
    return encode(t, json_value.from_json(t, inp["json"]))


VALUE_OPS: dict[str, Callable[[dict, str], Any]] = {
    "parse-type": _parse_type,
    "min-format-version": _min_format_version,
    "promote": _promote,
    "hash": _hash,
    "parse-transform": _parse_transform,
    "result-type": _result_type,
    "transform": _transform,
    "to-binary": _to_binary,
    "from-binary": _from_binary,
    "to-json": _to_json,
    "from-json": _from_json,
}
