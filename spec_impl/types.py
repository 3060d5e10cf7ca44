"""Iceberg types: the model, parsing from and printing to the spec's JSON forms.

Spec: "Schemas and Data Types" and Appendix C (type JSON); the adopted v3 digest §1.1 adds
`unknown`, `variant`, `geometry(C)` and `geography(C, A)`.

Primitive types print as their JSON type strings (`str(DecimalType(9, 2)) == "decimal(9,2)"`);
nested types print as their Appendix C JSON objects (`to_json`). `parse_type` is the inverse of both.
`spelled` is the JSON form as a writer of a given spec revision prints it: the merged upstream text
(digest 1.3) makes the Appendix C strings canonical and shows `decimal(9, 2)`, Java at the same commit
(digest 1.3b) writes the default geo parameters out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from spec_impl import revisions
from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput
from spec_impl.rules import implements

# --- the model ---------------------------------------------------------------------------------


class IcebergType:
    """Base of every type."""

    is_primitive: ClassVar[bool] = False

    def to_json(self) -> Any:
        """The Appendix C JSON form: a string for primitives, an object for nested types."""
        raise NotImplementedError


class PrimitiveType(IcebergType):
    """Base of the primitive types; `name` is the type's name in the spec's tables."""

    is_primitive = True
    name: str

    def to_json(self) -> str:
        return str(self)


SIMPLE_TYPE_NAMES = (
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "date",
    "time",
    "timestamp",
    "timestamptz",
    "timestamp_ns",
    "timestamptz_ns",
    "string",
    "uuid",
    "binary",
    "unknown",
    "variant",
)


@dataclass(frozen=True)
class SimpleType(PrimitiveType):
    """A primitive type without parameters, such as `long` or `timestamptz_ns`.

    `variant` is "semi-structured" in the adopted spec, not primitive; it is modelled here because
    it is written as a plain type string, and `is_primitive` reports it correctly.
    """

    name: str

    @implements("type.primitive")
    def __post_init__(self):
        if self.name not in SIMPLE_TYPE_NAMES:
            raise InvalidInput("type.primitive", "unknown primitive type name", self.name)

    @property
    def is_primitive(self) -> bool:  # type: ignore[override]
        return self.name != "variant"

    def __str__(self) -> str:
        return self.name


MAX_DECIMAL_PRECISION = 38


@dataclass(frozen=True)
class DecimalType(PrimitiveType):
    """decimal(P, S): fixed-point, precision P at most 38, scale S fixed (a negative S is accepted)."""

    precision: int
    scale: int
    name: ClassVar[str] = "decimal"

    @implements("type.decimal")
    def __post_init__(self):
        if not 0 <= self.precision <= MAX_DECIMAL_PRECISION:
            raise InvalidInput("type.decimal", "decimal precision must be 38 or less", self.precision)

    def __str__(self) -> str:
        return f"decimal({self.precision},{self.scale})"  # Appendix C: "decimal(<P>,<S>)"


@dataclass(frozen=True)
class FixedType(PrimitiveType):
    """fixed[L]: a byte array of exactly L bytes."""

    length: int
    name: ClassVar[str] = "fixed"

    @implements("type.fixed")
    def __post_init__(self):
        if self.length < 0:
            raise InvalidInput("type.fixed", "fixed length must not be negative", self.length)

    def __str__(self) -> str:
        return f"fixed[{self.length}]"


DEFAULT_CRS = "OGC:CRS84"
DEFAULT_EDGE_ALGORITHM = "spherical"
EDGE_ALGORITHMS = ("spherical", "vincenty", "thomas", "andoyer", "karney")


def _check_crs(crs: str) -> None:
    """Adopted 1.1: "PROJJSON must not be inlined." (a PROJJSON CRS is named by `projjson:<table-property>`)."""
    if crs.lstrip().startswith("{"):
        raise InvalidInput("type.geo", "PROJJSON must not be inlined: name it with projjson:<table-property>", crs)


@dataclass(frozen=True)
class GeometryType(PrimitiveType):
    """geometry(C): WKB geometries in CRS C (default OGC:CRS84). Printed bare when C is the default."""

    crs: str = DEFAULT_CRS
    name: ClassVar[str] = "geometry"

    @implements("type.geo")
    def __post_init__(self):
        _check_crs(self.crs)

    def __str__(self) -> str:
        return "geometry" if self.crs == DEFAULT_CRS else f"geometry({self.crs})"


@dataclass(frozen=True)
class GeographyType(PrimitiveType):
    """geography(C, A): WKB geographies in CRS C with edge algorithm A (default spherical)."""

    crs: str = DEFAULT_CRS
    algorithm: str = DEFAULT_EDGE_ALGORITHM
    name: ClassVar[str] = "geography"

    @implements("type.geo")
    def __post_init__(self):
        _check_crs(self.crs)
        if self.algorithm not in EDGE_ALGORITHMS:
            raise InvalidInput(
                "type.geo", f"edge algorithm must be one of {', '.join(EDGE_ALGORITHMS)}", self.algorithm
            )

    def __str__(self) -> str:
        if self.algorithm != DEFAULT_EDGE_ALGORITHM:
            return f"geography({self.crs}, {self.algorithm})"
        return "geography" if self.crs == DEFAULT_CRS else f"geography({self.crs})"


class _Absent:
    """Marks a default that is not set (distinct from an explicit JSON null)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class NestedField:
    """A struct field. Defaults are kept in their Appendix D JSON form (ABSENT when not set)."""

    id: int
    name: str
    type: IcebergType
    required: bool
    doc: str | None = None
    initial_default: Any = ABSENT
    write_default: Any = ABSENT

    def to_json(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "required": self.required, "type": self.type.to_json()}
        if self.doc is not None:
            out["doc"] = self.doc
        if self.initial_default is not ABSENT:
            out["initial-default"] = self.initial_default
        if self.write_default is not ABSENT:
            out["write-default"] = self.write_default
        return out


@dataclass(frozen=True)
class StructType(IcebergType):
    fields: tuple[NestedField, ...]

    def field(self, field_id: int) -> NestedField:
        for f in self.fields:
            if f.id == field_id:
                return f
        raise KeyError(field_id)

    def to_json(self) -> dict:
        return {"type": "struct", "fields": [f.to_json() for f in self.fields]}

    def __str__(self) -> str:
        return "struct<" + ", ".join(f"{f.id}: {f.name}: {f.type}" for f in self.fields) + ">"


@dataclass(frozen=True)
class ListType(IcebergType):
    element_id: int
    element: IcebergType
    element_required: bool

    def to_json(self) -> dict:
        return {
            "type": "list",
            "element-id": self.element_id,
            "element-required": self.element_required,
            "element": self.element.to_json(),
        }

    def __str__(self) -> str:
        return f"list<{self.element}>"


@dataclass(frozen=True)
class MapType(IcebergType):
    key_id: int
    key: IcebergType
    value_id: int
    value: IcebergType
    value_required: bool

    def to_json(self) -> dict:
        return {
            "type": "map",
            "key-id": self.key_id,
            "key": self.key.to_json(),
            "value-id": self.value_id,
            "value-required": self.value_required,
            "value": self.value.to_json(),
        }

    def __str__(self) -> str:
        return f"map<{self.key}, {self.value}>"


# Constants for the parameterless types, named as in the spec.
BOOLEAN, INT, LONG, FLOAT, DOUBLE = (SimpleType(n) for n in ("boolean", "int", "long", "float", "double"))
DATE, TIME, TIMESTAMP, TIMESTAMPTZ = (SimpleType(n) for n in ("date", "time", "timestamp", "timestamptz"))
TIMESTAMP_NS, TIMESTAMPTZ_NS = SimpleType("timestamp_ns"), SimpleType("timestamptz_ns")
STRING, UUID, BINARY = SimpleType("string"), SimpleType("uuid"), SimpleType("binary")
UNKNOWN, VARIANT = SimpleType("unknown"), SimpleType("variant")

# --- parsing -----------------------------------------------------------------------------------

_DECIMAL = re.compile(r"decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)")
_FIXED = re.compile(r"fixed\[\s*(\d+)\s*\]")
_GEOMETRY = re.compile(r"geometry(?:\(\s*([^(),\s][^(),]*?)\s*\))?")
_GEOGRAPHY = re.compile(r"geography(?:\(\s*([^(),\s][^(),]*?)\s*(?:,\s*([A-Za-z_]+)\s*)?\))?")


_MAX_PARAMETER_DIGITS = 18  # any longer number is out of every type's range (and Python refuses int() of 4,300+ digits)


def _parameter(digits: str, rule: str, what: str) -> int:
    """A type parameter's integer, refused under `rule` when it has more digits than any valid one."""
    return bounded_int(digits, _MAX_PARAMETER_DIGITS, rule, f"the {what}")


@implements("type.decimal", "type.fixed", "type.geo", "type.primitive")
def parse_primitive(text: str) -> PrimitiveType:
    """Parse a primitive JSON type string (Appendix C), accepting spaces inside parameters."""
    if not isinstance(text, str):
        raise InvalidInput("type.primitive", "a primitive type must be a JSON string", text)
    if text in SIMPLE_TYPE_NAMES:
        return SimpleType(text)
    if m := _DECIMAL.fullmatch(text):
        return DecimalType(_parameter(m[1], "type.decimal", "precision"), _parameter(m[2], "type.decimal", "scale"))
    if m := _FIXED.fullmatch(text):
        return FixedType(_parameter(m[1], "type.fixed", "length"))
    if m := _GEOMETRY.fullmatch(text):
        return GeometryType(m[1] or DEFAULT_CRS)
    if m := _GEOGRAPHY.fullmatch(text):
        return GeographyType(m[1] or DEFAULT_CRS, m[2] or DEFAULT_EDGE_ALGORITHM)
    if text.startswith(("decimal", "fixed", "geometry", "geography")):
        rule_id = {"d": "type.decimal", "f": "type.fixed"}.get(text[0], "type.geo")
        raise InvalidInput(rule_id, "malformed type parameters", text)
    raise InvalidInput("type.primitive", "unknown type string", text)


MAX_NESTING_DEPTH = 100
"""Nested types (struct, list, map) may enclose one another at most this many levels deep.

The spec sets no limit (Nested Types); this is a limit of the reference (rule type.nesting-limit),
so that every recursive function over types and values (printing, serializing, hashing, error
messages) stays far from Python's stack limit. Real schemas nest a few levels.
"""


def parse_type(obj: Any) -> IcebergType:
    """Parse a type from its Appendix C JSON form: a type string or a struct/list/map object."""
    return _parse_type(obj, 1)


@implements("type.nested", "type.nesting-limit")
def _parse_type(obj: Any, depth: int) -> IcebergType:
    if isinstance(obj, IcebergType):
        return obj
    if isinstance(obj, str):
        return parse_primitive(obj)
    if not isinstance(obj, dict):
        raise InvalidInput("type.nested", "a type must be a JSON string or object", _kind_of(obj))
    kind = obj.get("type")
    if kind in ("struct", "list", "map") and depth > MAX_NESTING_DEPTH:
        raise InvalidInput(
            "type.nesting-limit",
            f"nested types deeper than {MAX_NESTING_DEPTH} levels are beyond the "
            "reference's limit (the spec sets none)",
            depth,
        )
    if kind == "struct":
        return StructType(tuple(_parse_field(f, depth + 1) for f in _require(obj, "fields", list)))
    if kind == "list":
        return ListType(
            _require(obj, "element-id", int),
            _parse_type(_require(obj, "element", (str, dict)), depth + 1),
            _require(obj, "element-required", bool),
        )
    if kind == "map":
        return MapType(
            _require(obj, "key-id", int),
            _parse_type(_require(obj, "key", (str, dict)), depth + 1),
            _require(obj, "value-id", int),
            _parse_type(_require(obj, "value", (str, dict)), depth + 1),
            _require(obj, "value-required", bool),
        )
    raise InvalidInput("type.nested", "a nested type object needs type 'struct', 'list' or 'map'", _kind_of(kind))


def _kind_of(obj: Any) -> Any:
    """The offending JSON value for a message: scalars as they are, containers by their type name
    (a nested container's repr could be as deep as the input)."""
    return obj if not isinstance(obj, (dict, list)) else f"a JSON {'object' if isinstance(obj, dict) else 'array'}"


@implements("type.nested")
def _parse_field(obj: Any, depth: int) -> NestedField:
    if not isinstance(obj, dict):
        raise InvalidInput("type.nested", "a struct field must be a JSON object", _kind_of(obj))
    doc = obj.get("doc")
    if doc is not None and not isinstance(doc, str):
        raise InvalidInput("type.nested", "field 'doc' must be a string", doc)
    return NestedField(
        id=_require(obj, "id", int),
        name=_require(obj, "name", str),
        type=_parse_type(_require(obj, "type", (str, dict)), depth),
        required=_require(obj, "required", bool),
        doc=doc,
        initial_default=obj.get("initial-default", ABSENT),
        write_default=obj.get("write-default", ABSENT),
    )


@implements("type.nested")
def _require(obj: dict, key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise InvalidInput("type.nested", f"missing required key {key!r}", sorted(map(str, obj)))
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidInput("type.nested", f"key {key!r} has the wrong JSON type", _kind_of(value))
    return value


# --- format versions ---------------------------------------------------------------------------

V3_TYPE_NAMES = frozenset({"timestamp_ns", "timestamptz_ns", "unknown", "variant", "geometry", "geography"})


@implements("type.decimal", "type.geo")
def spelled(t: IcebergType, revision: str = revisions.DEFAULT) -> Any:
    """The Appendix C JSON form of `t` as a writer of `revision` prints it (nested types recursively).

    Seed and adopted v3: `decimal(<P>,<S>)` (the template). Upstream 2026-08: `decimal(P, S)`, the
    form Java writes and the pull request that made the strings canonical intends (digest 1.3; which
    of the two examples is canonical stays open, question type.decimal-canonical-string). Java HEAD
    also writes the default CRS and edge algorithm out (`geometry(OGC:CRS84)`, digest 1.3b).
    """
    form = t.to_json()
    return _respell(form, revision) if revisions.has(revision, revisions.UPSTREAM_2026_08) else form


def _respell(form: Any, revision: str) -> Any:
    if isinstance(form, list):
        return [_respell(v, revision) for v in form]
    if isinstance(form, dict):
        return {
            k: _respell(v, revision) if k in ("type", "element", "key", "value", "fields") else v
            for k, v in form.items()
        }
    if not isinstance(form, str) or form in SIMPLE_TYPE_NAMES or form in ("struct", "list", "map"):
        return form
    t = parse_primitive(form)
    if isinstance(t, DecimalType):
        return f"decimal({t.precision}, {t.scale})"
    if revisions.has(revision, revisions.JAVA_HEAD_2026_08):
        if isinstance(t, GeometryType):
            return f"geometry({t.crs})"
        if isinstance(t, GeographyType):
            return f"geography({t.crs}, {t.algorithm})"
    return form


def min_format_version(t: IcebergType) -> int:
    """The first format version in which `t` (and every type nested in it) is allowed.

    Spec: Primitive Types ("Added by version"); adopted digest §1.1.
    """
    if isinstance(t, StructType):
        return max((min_format_version(f.type) for f in t.fields), default=1)
    if isinstance(t, ListType):
        return min_format_version(t.element)
    if isinstance(t, MapType):
        return max(min_format_version(t.key), min_format_version(t.value))
    return 3 if t.name in V3_TYPE_NAMES else 1  # type: ignore[attr-defined]


@implements("type.version")
def check_format_version(t: IcebergType, format_version: int) -> None:
    """Raise InvalidInput (rule type.version) when `t` needs a later format version."""
    needed = min_format_version(t)
    if format_version < needed:
        raise InvalidInput(
            "type.version", f"type {t} needs format version {needed}, table is v{format_version}", str(t)
        )
