"""Inputs whose answer an open question decides, recognised from the case's op, input and
expected answer alone (never its id): a vector case and a random test's case of the same input
carry the same obligation (`spec_impl.obligations.assign`, step 1).

Each form names its question (`spec_impl.obligations.questions`); the answers each reading gives
are computed by the suite (`conformance.readings`).
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Callable
from typing import Any

from spec_impl.types import DecimalType, parse_type
from spec_impl.errors import SpecError

TEMPORAL_TYPES = frozenset({"date", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"})
CALENDAR_TRANSFORMS = frozenset({"year", "month", "day", "hour"})
# Appendix B: "All NaN bit patterns must be canonicalized to 0x7ff8000000000000L" (and 0x7fc00000 for float)
CANONICAL_NAN = {"float": "7fc00000", "double": "7ff8000000000000"}
PRUNING_OPS = frozenset({"evaluate-metrics", "evaluate-manifest"})


def _answered(case: dict[str, Any]) -> bool:
    return "output" in case["expected"]


def suite_decimal_form(case: dict[str, Any]) -> bool:
    """input.decimal-scale: a decimal handed over with an exponent other than its type's scale
    (`{"decimal": "1E+2"}` for decimal(10,2)): a form this suite added, which the spec does not
    define (it defines values of the type only)."""
    value = case["input"].get("value")
    return isinstance(value, dict) and set(value) == {"decimal"}


def beyond_four_digit_years(case: dict[str, Any]) -> bool:
    """value.calendar-range: a calendar transform (year, month, day, hour) or JSON single value of
    a date or timestamp outside years 0000 to 9999 (written, as in ISO-8601's expanded form, with a
    sign). Bucket, truncate, identity and void of a count do not reckon with the calendar."""
    inp = case["input"]
    t = inp.get("type")
    if case["op"] not in ("transform", "to-json", "from-json") or not isinstance(t, str) or t not in TEMPORAL_TYPES:
        return False
    if case["op"] == "transform" and inp.get("transform") not in CALENDAR_TRANSFORMS:
        return False
    text = inp.get("json" if case["op"] == "from-json" else "value")
    return _answered(case) and isinstance(text, str) and text.lstrip('"').startswith(("+", "-"))


def null_inside_json(case: dict[str, Any]) -> bool:
    """json.null-element: a nested value with a null inside, written as a JSON single value
    (Appendix D gives null no form)."""
    if case["op"] != "to-json" or not isinstance(case["input"].get("type"), dict) or not _answered(case):
        return False
    return _has_null(case["input"].get("value"))


def _has_null(value: Any) -> bool:
    if isinstance(value, list):
        return any(v is None or _has_null(v) for v in value)
    if isinstance(value, dict):
        return any(v is None or _has_null(v) for v in value.values())
    return False


def nan_bits(type_name: str, case_input: dict[str, Any], op: str) -> str | None:
    """The NaN's bits (big-endian hex) of a float or double single value given to to-binary or
    from-binary, or None when the value is no NaN."""
    try:
        if op == "to-binary":
            value = case_input.get("value")
            bits = value.get("ieee754") if isinstance(value, dict) else None
            if not isinstance(bits, str):
                return None
        else:
            bits = bytes.fromhex(case_input["hex"])[::-1].hex()
        fmt = ">f" if type_name == "float" else ">d"
        number = struct.unpack(fmt, bytes.fromhex(bits))[0]
    except (KeyError, ValueError, TypeError, struct.error):
        return None
    return bits if number != number else None


def non_canonical_nan(case: dict[str, Any]) -> bool:
    """float.nan-bits: the binary single value of a NaN other than the canonical one. Whether its
    exact bits must survive (signalling bit, sign, payload) is open; the canonical NaN's are not
    in question."""
    t, op = case["input"].get("type"), case["op"]
    if op not in ("to-binary", "from-binary") or t not in ("float", "double") or not _answered(case):
        return False
    bits = nan_bits(t, case["input"], op)
    return bits is not None and bits != CANONICAL_NAN[t]


def geo_single_value(case: dict[str, Any]) -> bool:
    """binary.geo-single-value: the binary single value of a geometry or geography (WKB, or the
    bound serialization)."""
    t = case["input"].get("type")
    return (
        case["op"] in ("to-binary", "from-binary")
        and isinstance(t, str)
        and t.startswith(("geometry", "geography"))
        and _answered(case)
    )


def negative_scale_json(case: dict[str, Any]) -> bool:
    """decimal.negative-scale: a JSON single value of a decimal type with a negative scale."""
    if case["op"] not in ("to-json", "from-json") or not _answered(case):
        return False
    try:
        t = parse_type(case["input"]["type"])
    except (SpecError, KeyError, TypeError):
        return False
    return isinstance(t, DecimalType) and t.scale < 0


NEGATIVE_ZERO_BOUNDS = {"00000080": "00000000", "0000000000000080": "0000000000000000"}
NEGATIVE_ZERO_LITERALS = frozenset({"80000000", "8000000000000000"})


UUID_ORDER_OPS = frozenset(
    {"column-metrics", "partition-summaries", "evaluate-predicate", "evaluate-metrics", "project-predicate"}
    | {"evaluate-manifest", "sort-values"}
)
_HALF_TOP_BITS = (1 << 127) | (1 << 63)


def _flip_uuid(value: Any) -> Any:
    """A uuid (string) or its 16 bound bytes (hex) with the top bit of each 64-bit half flipped:
    under that map Java's order of two signed halves becomes the unsigned order."""
    if isinstance(value, list):
        return [_flip_uuid(v) for v in value]
    if not isinstance(value, str):
        return value
    if len(value) == 36:
        return str(uuid.UUID(int=uuid.UUID(value).int ^ _HALF_TOP_BITS))
    if len(value) == 32:
        return f"{int(value, 16) ^ _HALF_TOP_BITS:032x}"
    return value


def _flip_bounds(summary: Any) -> Any:
    if not isinstance(summary, dict):
        return summary
    return {k: _flip_uuid(v) if k in ("lower_bound", "upper_bound") else v for k, v in summary.items()}


def _flip_predicate(obj: Any, columns: set[str]) -> Any:
    if isinstance(obj, list):
        return [_flip_predicate(v, columns) for v in obj]
    if not isinstance(obj, dict):
        return obj
    if obj.get("term") in columns:
        return {k: _flip_uuid(v) if k in ("value", "values") else v for k, v in obj.items()}
    return {k: _flip_predicate(v, columns) for k, v in obj.items()}


def uuids_signed(inp: dict[str, Any], op: str) -> dict[str, Any] | None:
    """The input as the reading "uuids compare as Java's two signed halves" sees it (every uuid
    value and bound flipped, `_flip_uuid`), or None when it holds no uuid whose order can matter (a
    bucket of a uuid hashes its bytes, which the flip would change)."""
    out = dict(inp)
    if inp.get("type") == "uuid" and "values" in inp:
        out["values"] = _flip_uuid(inp["values"])
    elif isinstance(inp.get("types"), list) and "uuid" in inp["types"]:
        at = [i for i, t in enumerate(inp["types"]) if t == "uuid"]
        out["partitions"] = [[_flip_uuid(v) if i in at else v for i, v in enumerate(p)] for p in inp["partitions"]]
    elif isinstance(inp.get("fields"), list) and any(f.get("type") == "uuid" for f in inp["fields"]):
        at = [i for i, f in enumerate(inp["fields"]) if f.get("type") == "uuid"]
        names = {inp["fields"][i]["name"] for i in at}
        if isinstance(inp.get("summaries"), list):
            out["summaries"] = [_flip_bounds(s) if i in at else s for i, s in enumerate(inp["summaries"])]
        out["predicate"] = _flip_predicate(inp.get("predicate"), names)
    elif isinstance(inp.get("schema"), dict):
        names = {f["name"] for f in inp["schema"].get("fields", []) if f.get("type") == "uuid"}
        if not names or any(
            f.get("source") in names and not str(f.get("transform")).startswith(("identity", "void"))
            for f in inp.get("spec", [])
        ):
            return None
        if "rows" in inp:
            out["rows"] = [{k: _flip_uuid(v) if k in names else v for k, v in r.items()} for r in inp["rows"]]
        if isinstance(inp.get("metrics"), dict):
            out["metrics"] = {k: _flip_bounds(m) if k in names else m for k, m in inp["metrics"].items()}
        out["predicate"] = _flip_predicate(inp.get("predicate"), names)
    else:
        return None
    return out if op in UUID_ORDER_OPS and out != inp else None


def signed_uuid_answer(case: dict[str, Any]) -> Any:
    """The reference's answer under the signed reading: the op on the flipped input, its uuid
    outputs (sorted values, bounds) flipped back. Raises SpecError where that reading has none."""
    from spec_impl.ops.metadata_ops import METADATA_OPS  # with the planning ops; not the file ops

    seen = uuids_signed(case["input"], case["op"])
    answer = METADATA_OPS[case["op"]](seen, "v3-adopted")
    if case["op"] in ("sort-values", "column-metrics"):
        return _flip_uuid(answer) if case["op"] == "sort-values" else _flip_bounds(answer)
    if case["op"] == "partition-summaries":
        types = case["input"]["types"]
        return [_flip_bounds(s) if types[i] == "uuid" else s for i, s in enumerate(answer)]
    return answer


def uuid_order_hinges(case: dict[str, Any]) -> bool:
    """uuid.order: a case whose answer changes when uuids compare as Java's signed halves."""
    if case["op"] not in UUID_ORDER_OPS or not _answered(case):
        return False
    if uuids_signed(case["input"], case["op"]) is None:
        return False
    try:
        return signed_uuid_answer(case) != case["expected"]["output"]
    except SpecError:
        return True


def zeros_as_positive(obj: Any) -> Any:
    """The pruning input as the reading "-0.0 = +0.0" sees it: every zero of a bound (little-endian
    hex) of a float or double column and of a predicate literal (`{"ieee754": ...}`) made +0.0, so
    that no comparison can tell the two zeros apart. Bounds of other columns stay (a long's minimum
    has the bytes of -0.0); where the input gives no column types (a manifest's summaries planned
    through its spec), every bound is read as a float's."""
    if isinstance(obj, list):
        return [zeros_as_positive(v) for v in obj]
    if not isinstance(obj, dict):
        return obj
    if set(obj) == {"ieee754"} and obj["ieee754"] in NEGATIVE_ZERO_LITERALS:
        return 0.0
    out = {
        k: _positive_bounds(v) if k in ("lower_bound", "upper_bound") else zeros_as_positive(v) for k, v in obj.items()
    }
    if isinstance(obj.get("metrics"), dict) and isinstance(obj.get("schema"), dict):
        types = {f.get("name"): f.get("type") for f in obj["schema"].get("fields", []) if isinstance(f, dict)}
        out["metrics"] = {
            name: zeros_as_positive(m) if types.get(name) in _FLOATING else m for name, m in obj["metrics"].items()
        }
    if isinstance(obj.get("summaries"), list) and isinstance(obj.get("fields"), list):
        kinds = [f.get("type") if isinstance(f, dict) else None for f in obj["fields"]]
        out["summaries"] = [
            zeros_as_positive(s) if i >= len(kinds) or kinds[i] in _FLOATING else s
            for i, s in enumerate(obj["summaries"])
        ]
    return out


_FLOATING = ("float", "double")


def _positive_bounds(value: Any) -> Any:
    return NEGATIVE_ZERO_BOUNDS.get(value, value) if isinstance(value, str) else value


def signed_zero_hinges(case: dict[str, Any], answer_of: Callable[[str, dict], Any]) -> bool:
    """predicate.signed-zero: a pruning case whose answer changes when -0.0 and +0.0 compare equal
    (`answer_of(op, input)`: the reference's answer)."""
    if case["op"] not in PRUNING_OPS or not _answered(case):
        return False
    seen = zeros_as_positive(case["input"])
    if seen == case["input"]:
        return False
    try:
        return answer_of(case["op"], seen) != case["expected"]["output"]
    except SpecError:
        return True


def _pruning_answer(op: str, inp: dict[str, Any]) -> Any:
    from spec_impl.ops.planning_ops import PLANNING_OPS

    return PLANNING_OPS[op](inp, "v3-adopted")


FORMS: tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...] = (
    ("input.decimal-scale", suite_decimal_form),
    ("value.calendar-range", beyond_four_digit_years),
    ("json.null-element", null_inside_json),
    ("float.nan-bits", non_canonical_nan),
    ("binary.geo-single-value", geo_single_value),
    ("decimal.negative-scale", negative_scale_json),
    ("predicate.signed-zero", lambda case: signed_zero_hinges(case, _pruning_answer)),
    ("uuid.order", uuid_order_hinges),
)


def question_of(case: dict[str, Any]) -> str | None:
    """The open question the case's input form puts it under, if any."""
    return next((question for question, recognises in FORMS if recognises(case)), None)


def time_without_seconds(case: dict[str, Any]) -> bool:
    """A JSON time or timestamp read from ISO-8601's reduced form without seconds (`22:31`):
    Appendix D stores times "with microsecond precision", so a writer never writes it; a reader
    may read it (the reference does) or refuse it, and what it reads must be right."""
    from spec_impl.temporal import TIME_RE, TIMESTAMP_RE

    t, text = case["input"].get("type"), case["input"].get("json")
    if case["op"] != "from-json" or not isinstance(text, str) or not isinstance(t, str) or not _answered(case):
        return False
    if t not in TEMPORAL_TYPES | {"time"} or t == "date":
        return False
    m = (TIME_RE if t == "time" else TIMESTAMP_RE).fullmatch(text)
    return m is not None and m["second"] is None


# (allowance, the sentence it rests on, recognizer): inputs where the spec lets an engine refuse
def computed_metrics(case: dict[str, Any]) -> bool:
    """metrics.written-are-right: the metrics a writer computes for a column's values. Every
    metric of data_file is optional, and a bound bounds the values without having to be the
    tightest, so any claim check-column-metrics finds right is an answer the spec permits."""
    return case["op"] == "column-metrics" and _answered(case)


ALLOWED_FORMS: tuple[tuple[str, dict[str, str], Callable[[dict[str, Any]], bool]], ...] = (
    (
        "metrics.written-are-right",
        {
            "document": "000_60deb644de29d3e6.txt",
            "section": "Manifests",
            "quote": (
                "Each value must be less than or equal to all non-null, non-NaN values in the column for the file [2]"
            ),
        },
        computed_metrics,
    ),
    (
        "reader.may-reject",
        {
            "document": "000_60deb644de29d3e6.txt",
            "section": "Appendix D: JSON single-value serialization",
            "quote": 'time JSON string "22:31:08.123456" Stores ISO-8601 standard time with microsecond precision',
        },
        time_without_seconds,
    ),
)


def allowance_of(case: dict[str, Any]) -> tuple[str, dict[str, str]] | None:
    """The allowance (and its sentence) the case's input form puts it under, if any."""
    return next(((a, cited) for a, cited, recognises in ALLOWED_FORMS if recognises(case)), None)
