"""Sort orders: the JSON forms per format version and spec revision, validation against a schema,
and the orders a sort produces (the floating-point order, directions, null orders).

Spec: "Sorting", Appendix C "Sort Orders", Appendix E "Version 3"; adopted digest §1.3. The
`source-id` / `source-ids` forms are those of partition fields (`partitioning.read_source_ids`).

Decisions where the texts are silent or disagree:

- Floating point: the spec's chain -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN is
  followed with the NaN sign taken from the bits (IEEE 754 totalOrder, payloads ignored, so all
  NaNs of one sign are equal). Java's `Double.compare` canonicalizes every NaN to the positive
  0x7ff8000000000000 first and would put a negative NaN above +Infinity; the spec's "-NaN" only
  exists when the sign bit is kept, so the explicit chain wins over "aligns with Java".
- Order id 0 is reserved for the unsorted order; the converse (an order without fields has id 0)
  is not written in the spec but follows from "reserved" and is enforced by Iceberg Java, so both
  directions are one rule here.
- Sort sources must exist and be accepted by the transform. Unlike partition sources, the spec does
  not say that sort sources must be primitive or outside lists and maps; no such rule is enforced
  beyond what the transform accepts (identity takes primitives only).
- The spec forbids writing partition specs with unknown transforms, but says nothing of writers of
  sort orders; no writer rule is registered for them.
- Values other than floats sort in their natural order: strings by code point (the same as by
  UTF-8 bytes), binary and fixed by unsigned bytes, uuids as unsigned 128-bit big-endian numbers,
  false before true. The spec does not define these orders.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import total_ordering
from typing import Any
from collections.abc import Callable, Iterable, Mapping

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.metadata.partitioning import check_sources, json_int, read_source_ids, write_source_ids
from spec_impl.rules import Rule, register, implements
from spec_impl.transforms import Transform, apply_transform, parse_transform, result_type
from spec_impl.types import IcebergType, StructType, parse_type
from spec_impl.values import normalize

_SORTING = "Sorting"
_C = "Appendix C: Sort Orders"
_E3 = "Appendix C: Sort Orders; Appendix E: Version 3; adopted 1.3"

register(
    Rule(
        "sort-order.json",
        _C,
        "A sort order is an object with an int order-id and a list of fields; a field is an object with string "
        "transform, direction and null-order and int source-id / non-empty int list source-ids",
    ),
    Rule(
        "sort-order.source-id",
        _C,
        "v1 and v2 sort fields require source-id; source-ids is optional (seed: written for multi-argument "
        "transforms; adopted: never written)",
        (1, 2),
    ),
    Rule(
        "sort-order.source-ids",
        _E3,
        "v3 sort fields: the seed requires source-ids and omits source-id; the adopted spec writes source-id for "
        "single-argument and source-ids for multi-argument transforms",
        (3,),
    ),
    Rule("sort-order.source-ids.agree", _E3, "When both are present, source-id is the first element of source-ids"),
    Rule("sort-order.source.exists", _SORTING, "Each source id names a field of the table schema"),
    Rule(
        "sort-order.transform.arity",
        _SORTING + "; Partition Transforms",
        "Every known transform takes exactly one source column",
    ),
    Rule(
        "sort-order.order-id.unsorted",
        _SORTING,
        "Order id 0 is reserved for the unsorted order: order 0 has no fields, and an order without fields has id 0",
    ),
    Rule("sort-order.direction", _SORTING, "A sort direction is either asc or desc"),
    Rule("sort-order.null-order", _SORTING, "A null order is either nulls-first or nulls-last"),
    Rule(
        "sort-order.float-order",
        _SORTING,
        "Floating-point values sort as -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN",
    ),
    Rule(
        "sort-order.record-order",
        _SORTING,
        "Sort fields apply in list order, each on its transformed value with its direction; nulls first or last "
        "whatever the direction",
    ),
)

_KIND = "sort-order"
ASC, DESC = "asc", "desc"
NULLS_FIRST, NULLS_LAST = "nulls-first", "nulls-last"
DIRECTIONS = (ASC, DESC)
NULL_ORDERS = (NULLS_FIRST, NULLS_LAST)
UNSORTED_ORDER_ID = 0


@implements("sort-order.direction")
def _check_direction(direction: Any) -> str:
    if direction not in DIRECTIONS:
        raise InvalidInput("sort-order.direction", "a sort direction must be 'asc' or 'desc'", direction)
    return direction


@implements("sort-order.null-order")
def _check_null_order(null_order: Any) -> str:
    if null_order not in NULL_ORDERS:
        raise InvalidInput("sort-order.null-order", "a null order must be 'nulls-first' or 'nulls-last'", null_order)
    return null_order


@dataclass(frozen=True)
class SortField:
    """A sort field; direction and null order are checked when the field is built."""

    source_ids: tuple[int, ...]
    transform: Transform
    direction: str = ASC
    null_order: str = NULLS_FIRST

    def __post_init__(self):
        ids = (self.source_ids,) if isinstance(self.source_ids, int) else tuple(self.source_ids)
        object.__setattr__(self, "source_ids", ids)
        if isinstance(self.transform, str):
            object.__setattr__(self, "transform", parse_transform(self.transform))
        _check_direction(self.direction)
        _check_null_order(self.null_order)

    @property
    def source_id(self) -> int:
        return self.source_ids[0]

    def to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> dict:
        """Appendix C sort field JSON for this format version and spec revision."""
        return {
            "transform": str(self.transform),
            **write_source_ids(self.source_ids, format_version, revision, _KIND),
            "direction": self.direction,
            "null-order": self.null_order,
        }


@dataclass(frozen=True)
class SortOrder:
    order_id: int
    fields: tuple[SortField, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "fields", tuple(self.fields))

    @property
    def is_unsorted(self) -> bool:
        return not self.fields

    def to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> dict:
        return {"order-id": self.order_id, "fields": [f.to_json(format_version, revision) for f in self.fields]}


UNSORTED = SortOrder(UNSORTED_ORDER_ID, ())


@implements("sort-order.order-id.unsorted")
def _check_unsorted(order_id: int, fields: tuple) -> None:
    if order_id == UNSORTED_ORDER_ID and fields:
        raise InvalidInput(
            "sort-order.order-id.unsorted", "order id 0 is reserved for the unsorted order (no fields)", order_id
        )
    if order_id != UNSORTED_ORDER_ID and not fields:
        raise InvalidInput(
            "sort-order.order-id.unsorted", f"an order without fields is the unsorted order 0, not {order_id}", order_id
        )


@implements("sort-order.json")
def parse_sort_field(obj: Any, format_version: int, revision: str = revisions.DEFAULT) -> SortField:
    """One Appendix C sort field."""
    if not isinstance(obj, dict):
        raise InvalidInput("sort-order.json", "a sort field must be a JSON object", obj)
    for key in ("transform", "direction", "null-order"):
        if key not in obj:
            raise InvalidInput("sort-order.json", f"a sort field needs {key}", obj)
    if not isinstance(obj["transform"], str):
        raise InvalidInput("sort-order.json", "transform must be a JSON string", obj["transform"])
    source_ids = read_source_ids(obj, format_version, revision, _KIND)
    return SortField(
        source_ids,
        parse_transform(obj["transform"]),
        _check_direction(obj["direction"]),
        _check_null_order(obj["null-order"]),
    )


@implements("sort-order.json")
def parse_sort_order(obj: Any, format_version: int, revision: str = revisions.DEFAULT) -> SortOrder:
    """One Appendix C sort order object: {"order-id": ..., "fields": [...]}."""
    if not isinstance(obj, dict):
        raise InvalidInput("sort-order.json", "a sort order must be a JSON object", obj)
    if "order-id" not in obj or "fields" not in obj:
        raise InvalidInput("sort-order.json", "a sort order needs order-id and fields", obj)
    order_id = json_int(obj, "order-id", "sort-order.json")
    if not isinstance(obj["fields"], list):
        raise InvalidInput("sort-order.json", "sort order fields must be a JSON list", obj["fields"])
    fields = tuple(parse_sort_field(f, format_version, revision) for f in obj["fields"])
    _check_unsorted(order_id, fields)
    return SortOrder(order_id, fields)


def validate_sort_order(
    order: SortOrder, schema: StructType, format_version: int, revision: str = revisions.DEFAULT
) -> None:
    """Validity against the schema ("Sorting"): the unsorted id, existing sources, transforms that
    accept them. Unknown transforms pass: v3 readers must tolerate them."""
    revisions.check(revision)
    _check_unsorted(order.order_id, order.fields)
    for f in order.fields:
        _check_direction(f.direction)
        _check_null_order(f.null_order)
        check_sources(f.source_ids, f.transform, schema, revision, _KIND, structural=False)


# --- ordering ----------------------------------------------------------------------------------

_SIGN = 1 << 63
_MAGNITUDE = _SIGN - 1
_INF_BITS = 0x7FF0000000000000


@implements("sort-order.float-order")
def float_sort_key(x: float) -> int:
    """An int key in the spec's floating-point order (rule sort-order.float-order):
    -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN; the NaN sign comes from the bits.
    float (32-bit) values give the same order: widening to double keeps sign, order and NaN-ness."""
    bits = struct.unpack(">Q", struct.pack(">d", x))[0]
    magnitude = bits & _MAGNITUDE
    if magnitude > _INF_BITS:  # a NaN, whatever its payload
        magnitude = _INF_BITS + 1
    return -magnitude - 1 if bits & _SIGN else magnitude


def compare_floats(a: float, b: float) -> int:
    """-1, 0 or 1 by `float_sort_key`."""
    ka, kb = float_sort_key(a), float_sort_key(b)
    return (ka > kb) - (ka < kb)


@total_ordering
class _Directed:
    """A comparable value, reversed for desc."""

    __slots__ = ("key", "desc")

    def __init__(self, key: Any, desc: bool):
        self.key, self.desc = key, desc

    def __lt__(self, other: _Directed) -> bool:
        return other.key < self.key if self.desc else self.key < other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Directed) and self.key == other.key

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"_Directed({self.key!r}, desc={self.desc})"


def _value_key(t: IcebergType, value: Any) -> Any:
    value = normalize(t, value)
    name = getattr(t, "name", None)
    if name in ("float", "double"):
        return float_sort_key(value)
    if name == "uuid":
        return value.int
    return value


@implements("sort-order.record-order")
def sort_key(value: Any, type_: IcebergType | str, direction: str = ASC, null_order: str = NULLS_FIRST) -> tuple:
    """A key for `sorted()` that orders values of `type_` by direction and null order; nulls are
    first or last whatever the direction (rule sort-order.record-order)."""
    _check_direction(direction)
    _check_null_order(null_order)
    if value is None:
        return (0 if null_order == NULLS_FIRST else 2, 0)
    return (1, _Directed(_value_key(parse_type(type_), value), direction == DESC))


@implements("transform.unknown")
def record_sort_key(
    order: SortOrder, schema: StructType, revision: str = revisions.DEFAULT
) -> Callable[[Mapping[int, Any]], tuple]:
    """A key for `sorted()` over records given as {source field id: value}; the sort fields apply
    in order, each on the transformed value. Unknown transforms raise NotDefined (transform.unknown)."""
    parts = []
    for f in order.fields:
        types = check_sources(f.source_ids, f.transform, schema, revision, _KIND, structural=False)
        parts.append((f, types[0], result_type(f.transform, types[0], revision)))  # NotDefined when unknown

    def key(record: Mapping[int, Any]) -> tuple:
        return tuple(
            sort_key(
                apply_transform(f.transform, source, record.get(f.source_id), revision), rt, f.direction, f.null_order
            )
            for f, source, rt in parts
        )

    return key


def sort_records(
    records: Iterable[Mapping[int, Any]], order: SortOrder, schema: StructType, revision: str = revisions.DEFAULT
) -> list:
    """The records in `order` (a stable sort)."""
    return sorted(records, key=record_sort_key(order, schema, revision))


__all__ = [
    "ASC",
    "DESC",
    "NULLS_FIRST",
    "NULLS_LAST",
    "SortField",
    "SortOrder",
    "UNSORTED",
    "compare_floats",
    "float_sort_key",
    "parse_sort_field",
    "parse_sort_order",
    "record_sort_key",
    "sort_key",
    "sort_records",
    "validate_sort_order",
]
