"""Partition specs: the JSON forms per format version and spec revision, validation against a
schema, the partition tuple type, field-id assignment on evolution, and partition value equality.

Spec: "Partitioning", "Partition Evolution", "Partition Statistics" (the unified partition type),
"Scan Planning" note 3, Appendix C "Partition Specs", Appendix E "Version 3"; adopted digest §1.3.

Decisions where the texts are silent or disagree (see also `spec_impl.metadata.sorting`):

- `source-id` / `source-ids`: v1/v2 read `source-id` (required) and tolerate `source-ids` when its
  first element is `source-id`. v3 seed requires `source-ids`; v3 adopted needs either, since it
  writes `source-id` for single-argument and `source-ids` for multi-argument transforms (Java 1.10
  requires `source-id`; a seed-era `source-ids` of one element is still read). A field is
  multi-argument when it has more than one source id: no known transform takes several.
- Partition field names: the spec does not require them to be unique, nor to differ from schema
  column names (Iceberg Java enforces both). No rule is registered for either.
- An "equivalent field" (for field-id reuse) has the same source ids and transform; its name may
  differ, because renaming a field must not change its id ("Partition Evolution").
- v1 field ids missing from the JSON are `1000 + position`, also when other fields carry ids.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from spec_impl import revisions
from spec_impl.errors import InvalidInput, NotDefined
from spec_impl.metadata.versions import check_format_version
from spec_impl.rules import SHOULD, Rule, implements, register
from spec_impl.transforms import Transform, accepts, parse_transform, result_type
from spec_impl.types import IcebergType, ListType, MapType, NestedField, StructType

_PARTITIONING = "Partitioning"
_EVOLUTION = "Partition Evolution"
_C = "Appendix C: Partition Specs"
_E3 = "Appendix C: Partition Specs; Appendix E: Version 3; adopted 1.3"

register(
    Rule(
        "partition-spec.json",
        _C,
        "A partition spec is an object with an int spec-id and a list of fields; a field is an object with int "
        "field-id, string name, string transform and int source-id / non-empty int list source-ids",
    ),
    Rule(
        "partition-spec.source-id",
        _C,
        "v1 and v2 fields require source-id; source-ids is optional (seed: written for multi-argument "
        "transforms; adopted: never written)",
        (1, 2),
    ),
    Rule(
        "partition-spec.source-ids",
        _E3,
        "v3 fields: the seed requires source-ids and omits source-id; the adopted spec writes source-id for "
        "single-argument and source-ids for multi-argument transforms",
        (3,),
    ),
    Rule("partition-spec.source-ids.agree", _E3, "When both are present, source-id is the first element of source-ids"),
    Rule("partition-spec.field-id.required", _C, "field-id is required from v2 on", (2, 3)),
    Rule(
        "partition-spec.field-id.v1-assignment",
        _EVOLUTION + "; " + _C,
        "v1 fields without field-id get ids sequentially from 1000 in field order, as the reference implementation did",
        (1,),
    ),
    Rule("partition-spec.field-id.unique", _PARTITIONING, "A partition field id is unique within a partition spec"),
    Rule(
        "partition-spec.field-id.table-unique",
        _PARTITIONING,
        "In v2+ table metadata a partition field id is unique across all specs: one id names one field (same "
        "sources and transform; a void replacement of it allowed)",
        (2, 3),
    ),
    Rule(
        "partition-spec.field-id.last-partition-id",
        "Table Metadata Fields; " + _EVOLUTION,
        "No partition field id is above last-partition-id; new ids are last-partition-id + 1, + 2, ...",
    ),
    Rule(
        "partition-spec.field-id.reuse",
        _PARTITIONING + "; " + _EVOLUTION,
        "Partition field ids must be reused when an existing spec has an equivalent field (same source ids and "
        "transform)",
        (2, 3),
    ),
    Rule("partition-spec.source.exists", _PARTITIONING, "Each source id names a field of the table schema"),
    Rule("partition-spec.source.primitive", _PARTITIONING, "A source column must be a primitive type"),
    Rule(
        "partition-spec.source.nesting",
        _PARTITIONING,
        "A source column may be nested in a struct but not contained in a list or map",
    ),
    Rule(
        "partition-spec.transform.arity",
        _PARTITIONING + "; Partition Transforms",
        "Every known transform takes exactly one source column",
    ),
    Rule(
        "partition-spec.transform.unknown-writer",
        _C + "; adopted 1.3",
        "Readers tolerate unknown transforms; writers must not write with a partition spec that uses one",
    ),
    Rule(
        "partition-spec.equivalent",
        _PARTITIONING,
        "Specs are equivalent with the same number of fields and, field by field, the same source ids, transform "
        "and name; writers must not create a spec equivalent to an existing one",
    ),
    Rule(
        "partition-spec.v1-evolution.reorder",
        _EVOLUTION,
        "v1 recommendation: do not reorder partition fields",
        (1,),
        strength=SHOULD,
    ),
    Rule(
        "partition-spec.v1-evolution.drop",
        _EVOLUTION,
        "v1 recommendation: do not drop partition fields; replace the transform with void",
        (1,),
        strength=SHOULD,
    ),
    Rule(
        "partition-spec.v1-evolution.append",
        _EVOLUTION,
        "v1 recommendation: add partition fields only at the end of the previous spec",
        (1,),
        strength=SHOULD,
    ),
    Rule(
        "partition-spec.partition-type",
        _PARTITIONING + "; Manifests",
        "The partition tuple is a struct with one optional field per partition field: the partition field id, "
        "its name and the transform's result type",
    ),
    Rule(
        "partition-statistics.unified-type",
        "Partition Statistics",
        "The unified partition type is the union of all fields ever in any spec, sorted by field id; one id must "
        "not name incompatible fields",
    ),
    Rule(
        "partition-values.equality",
        "Scan Planning (note 3)",
        "Partition values are equal field by field; floats by their IEEE 754 bits with NaN canonical "
        "(floatToIntBits / doubleToLongBits)",
    ),
)

V1_FIRST_FIELD_ID = 1000
_KIND = "partition-spec"


@dataclass(frozen=True)
class Finding:
    """A writer-side rule or recommendation that a spec breaks; readers accept it (not raised)."""

    rule: str
    message: str
    value: Any = None


@dataclass(frozen=True)
class PartitionField:
    """A partition field; `field_id` is None only before ids are assigned (`assign_field_ids`)."""

    source_ids: tuple[int, ...]
    field_id: int | None
    name: str
    transform: Transform

    def __post_init__(self):
        if isinstance(self.source_ids, int):
            object.__setattr__(self, "source_ids", (self.source_ids,))
        object.__setattr__(self, "source_ids", tuple(self.source_ids))
        if isinstance(self.transform, str):
            object.__setattr__(self, "transform", parse_transform(self.transform))

    @property
    def source_id(self) -> int:
        return self.source_ids[0]

    @implements("partition-spec.field-id.required")
    def to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> dict:
        """Appendix C partition field JSON for this format version and spec revision."""
        out = write_source_ids(self.source_ids, format_version, revision, _KIND)
        if self.field_id is not None:
            out["field-id"] = self.field_id
        elif format_version >= 2:
            raise InvalidInput("partition-spec.field-id.required", f"field {self.name!r} has no field-id", self.name)
        out["name"] = self.name
        out["transform"] = str(self.transform)
        return out


@dataclass(frozen=True)
class PartitionSpec:
    spec_id: int
    fields: tuple[PartitionField, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "fields", tuple(self.fields))

    def to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> dict:
        """The full object form (Appendix C): spec-id and fields."""
        return {"spec-id": self.spec_id, "fields": self.fields_to_json(format_version, revision)}

    def fields_to_json(self, format_version: int, revision: str = revisions.DEFAULT) -> list:
        """The field-list form (the deprecated v1 `partition-spec`, manifest metadata)."""
        return [f.to_json(format_version, revision) for f in self.fields]


# --- source-id / source-ids (shared with sort orders) ------------------------------------------


@implements("table.format-version")
def _check_version(format_version: int) -> int:
    """A caller's format version, checked (rule table.format-version)."""
    return check_format_version(format_version)


def json_int(obj: dict, key: str, rule_id: str) -> int:
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(rule_id, f"{key} must be a JSON int", value)
    return value


@implements(
    "name-mapping.json",
    "partition-spec.json",
    "partition-spec.source-id",
    "partition-spec.source-ids",
    "partition-spec.source-ids.agree",
    "ref.json",
    "schema.json",
    "snapshot-log.json",
    "snapshot.json",
    "sort-order.json",
    "sort-order.source-id",
    "sort-order.source-ids",
    "sort-order.source-ids.agree",
    "view.json",
)
def read_source_ids(obj: dict, format_version: int, revision: str, kind: str) -> tuple[int, ...]:
    """The source ids of a partition or sort field (`kind` is the rule prefix); Appendix C, E."""
    _check_version(format_version)
    revisions.check(revision)
    sid = json_int(obj, "source-id", f"{kind}.json") if "source-id" in obj else None
    sids = None
    if "source-ids" in obj:
        raw = obj["source-ids"]
        if not isinstance(raw, list) or not raw or any(not isinstance(i, int) or isinstance(i, bool) for i in raw):
            raise InvalidInput(f"{kind}.json", "source-ids must be a non-empty JSON list of ints", raw)
        sids = tuple(raw)
    if format_version < 3 and sid is None:
        raise InvalidInput(f"{kind}.source-id", f"a v{format_version} field needs source-id", obj)
    if format_version == 3 and not revisions.has(revision, revisions.V3_ADOPTED) and sids is None:
        raise InvalidInput(f"{kind}.source-ids", "a v3 field needs source-ids (seed text)", obj)
    if format_version == 3 and sid is None and sids is None:
        raise InvalidInput(f"{kind}.source-ids", "a v3 field needs source-id or source-ids", obj)
    if sid is not None and sids is not None and sids[0] != sid:
        raise InvalidInput(
            f"{kind}.source-ids.agree", f"source-id {sid} is not the first of source-ids {list(sids)}", obj
        )
    return sids if sids is not None else (sid,)  # type: ignore[return-value]


@implements(
    "name-mapping.json",
    "partition-spec.json",
    "partition-spec.source-id",
    "ref.json",
    "schema.json",
    "snapshot-log.json",
    "snapshot.json",
    "sort-order.json",
    "sort-order.source-id",
    "view.json",
)
def write_source_ids(source_ids: Sequence[int], format_version: int, revision: str, kind: str) -> dict:
    """The source keys a writer emits (Appendix C; Appendix E v3; adopted digest §1.3)."""
    _check_version(format_version)
    revisions.check(revision)
    ids = list(source_ids)
    if not ids:
        raise InvalidInput(f"{kind}.json", "a field needs at least one source id", ids)
    multi = len(ids) > 1
    if format_version < 3:
        if multi and revisions.has(revision, revisions.V3_ADOPTED):
            raise InvalidInput(
                f"{kind}.source-id", f"v{format_version} (adopted) has no form for the source ids {ids}", ids
            )
        return {"source-id": ids[0], "source-ids": ids} if multi else {"source-id": ids[0]}
    if multi or not revisions.has(revision, revisions.V3_ADOPTED):
        return {"source-ids": ids}
    return {"source-id": ids[0]}


# --- parsing -----------------------------------------------------------------------------------


def _object(obj: Any, what: str, rule_id: str) -> dict:
    if not isinstance(obj, dict):
        raise InvalidInput(rule_id, f"a {what} must be a JSON object", obj)
    return obj


def _require(obj: dict, key: str, rule_id: str, what: str) -> Any:
    if key not in obj:
        raise InvalidInput(rule_id, f"a {what} needs {key}", obj)
    return obj[key]


@implements("partition-spec.field-id.required", "partition-spec.json")
def parse_partition_field(
    obj: Any, format_version: int, revision: str = revisions.DEFAULT, position: int = 0
) -> PartitionField:
    """One Appendix C partition field; `position` gives the v1 default id 1000 + position."""
    obj = _object(obj, "partition field", "partition-spec.json")
    source_ids = read_source_ids(obj, format_version, revision, _KIND)
    if "field-id" in obj:
        field_id = json_int(obj, "field-id", "partition-spec.json")
    elif format_version == 1:
        field_id = V1_FIRST_FIELD_ID + position  # rule partition-spec.field-id.v1-assignment
    else:
        raise InvalidInput(
            "partition-spec.field-id.required", f"a v{format_version} partition field needs field-id", obj
        )
    name = _require(obj, "name", "partition-spec.json", "partition field")
    if not isinstance(name, str):
        raise InvalidInput("partition-spec.json", "name must be a JSON string", name)
    text = _require(obj, "transform", "partition-spec.json", "partition field")
    if not isinstance(text, str):
        raise InvalidInput("partition-spec.json", "transform must be a JSON string", text)
    return PartitionField(source_ids, field_id, name, parse_transform(text))


@implements("partition-spec.json")
def parse_partition_fields(
    fields: Any, format_version: int, revision: str = revisions.DEFAULT, spec_id: int = 0
) -> PartitionSpec:
    """The field-list form (v1 `partition-spec`, manifest metadata) as a spec with `spec_id`."""
    if not isinstance(fields, list):
        raise InvalidInput("partition-spec.json", "partition fields must be a JSON list", fields)
    return PartitionSpec(
        spec_id, tuple(parse_partition_field(f, format_version, revision, i) for i, f in enumerate(fields))
    )


@implements("partition-spec.json")
def parse_partition_spec(obj: Any, format_version: int, revision: str = revisions.DEFAULT) -> PartitionSpec:
    """The full object form of Appendix C: {"spec-id": ..., "fields": [...]}."""
    obj = _object(obj, "partition spec", "partition-spec.json")
    spec_id = json_int(obj, "spec-id", "partition-spec.json") if "spec-id" in obj else None
    if spec_id is None:
        raise InvalidInput("partition-spec.json", "a partition spec needs spec-id", obj)
    return parse_partition_fields(
        _require(obj, "fields", "partition-spec.json", "partition spec"), format_version, revision, spec_id
    )


# --- validation --------------------------------------------------------------------------------


def find_source(schema: StructType, field_id: int) -> tuple[IcebergType, bool] | None:
    """The type of the schema field (or list element, map key or value) with this id, and whether
    it lies inside a list or map; None when the schema has no such id."""
    return _find(schema, field_id, False)


def _find(t: IcebergType, field_id: int, in_collection: bool) -> tuple[IcebergType, bool] | None:
    children: list[tuple[int, IcebergType, bool]] = []
    if isinstance(t, StructType):
        children = [(f.id, f.type, in_collection) for f in t.fields]
    elif isinstance(t, ListType):
        children = [(t.element_id, t.element, True)]
    elif isinstance(t, MapType):
        children = [(t.key_id, t.key, True), (t.value_id, t.value, True)]
    for child_id, child_type, inside in children:
        if child_id == field_id:
            return child_type, inside
    for _, child_type, inside in children:
        if (found := _find(child_type, field_id, inside)) is not None:
            return found
    return None


@implements(
    "partition-spec.source.exists",
    "partition-spec.source.nesting",
    "partition-spec.source.primitive",
    "partition-spec.transform.arity",
    "sort-order.source.exists",
    "sort-order.transform.arity",
    "transform.source-type",
)
def check_sources(
    source_ids: Sequence[int], transform: Transform, schema: StructType, revision: str, kind: str, structural: bool
) -> list[IcebergType]:
    """Check that the sources exist (and, when `structural`, are primitive and outside lists and
    maps) and that a known transform takes one of them and accepts its type. Returns the types."""
    types = []
    for sid in source_ids:
        found = find_source(schema, sid)
        if found is None:
            raise InvalidInput(f"{kind}.source.exists", f"source id {sid} names no field of the schema", sid)
        t, inside = found
        if structural and inside:
            raise InvalidInput(f"{kind}.source.nesting", f"source id {sid} is inside a list or map", sid)
        if structural and not getattr(t, "is_primitive", False):
            raise InvalidInput(f"{kind}.source.primitive", f"source id {sid} has the non-primitive type {t}", sid)
        types.append(t)
    if transform.is_known:
        if len(types) != 1:
            raise InvalidInput(
                f"{kind}.transform.arity", f"{transform} takes one source column, not {len(types)}", list(source_ids)
            )
        if not accepts(transform, types[0], revision):
            raise InvalidInput(
                "transform.source-type", f"{transform} does not accept source type {types[0]}", str(types[0])
            )
    return types


@implements(
    "partition-spec.field-id.last-partition-id", "partition-spec.field-id.required", "partition-spec.field-id.unique"
)
def validate_partition_spec(
    spec: PartitionSpec,
    schema: StructType,
    format_version: int,
    revision: str = revisions.DEFAULT,
    last_partition_id: int | None = None,
) -> None:
    """Reader-side validity of one spec against the schema ("Partitioning"); unknown transforms
    pass (v3 readers must tolerate them; see `writer_violations`)."""
    _check_version(format_version)
    revisions.check(revision)
    seen: set[int] = set()
    for f in spec.fields:
        if f.field_id is None:
            if format_version >= 2:
                raise InvalidInput("partition-spec.field-id.required", f"field {f.name!r} has no field-id", f.name)
            continue
        if f.field_id in seen:
            raise InvalidInput(
                "partition-spec.field-id.unique",
                f"field id {f.field_id} is used twice in spec {spec.spec_id}",
                f.field_id,
            )
        seen.add(f.field_id)
        if last_partition_id is not None and f.field_id > last_partition_id:
            raise InvalidInput(
                "partition-spec.field-id.last-partition-id",
                f"field id {f.field_id} is above last-partition-id {last_partition_id}",
                f.field_id,
            )
        check_sources(f.source_ids, f.transform, schema, revision, _KIND, structural=True)


@implements("partition-spec.transform.unknown-writer")
def writer_violations(spec: PartitionSpec) -> list[Finding]:
    """What a writer must not write: fields with unknown transforms (Appendix C; adopted 1.3)."""
    return [
        Finding(
            "partition-spec.transform.unknown-writer",
            f"field {f.name!r} uses the unknown transform {f.transform}",
            f.transform.text,
        )
        for f in spec.fields
        if not f.transform.is_known
    ]


def _same_field(a: PartitionField, b: PartitionField) -> bool:
    return a.source_ids == b.source_ids and a.transform == b.transform


def _compatible(a: PartitionField, b: PartitionField) -> bool:
    """One id may name a field and its void replacement (v1 drops, kept after an upgrade)."""
    return a.source_ids == b.source_ids and (
        a.transform == b.transform or "void" in (a.transform.name, b.transform.name)
    )


@implements("partition-spec.field-id.reuse", "partition-spec.field-id.table-unique")
def validate_partition_specs(specs: Iterable[PartitionSpec], format_version: int) -> None:
    """Cross-spec field ids in v2+: one id names one field, and equivalent fields share an id."""
    _check_version(format_version)
    if format_version < 2:
        return
    by_id: dict[int, PartitionField] = {}
    by_field: dict[tuple, tuple[int, int]] = {}
    for spec in specs:
        for f in spec.fields:
            if f.field_id is None:
                continue
            other = by_id.setdefault(f.field_id, f)
            if not _compatible(other, f):
                raise InvalidInput(
                    "partition-spec.field-id.table-unique",
                    f"field id {f.field_id} names both {_describe(other)} and {_describe(f)}",
                    f.field_id,
                )
            if f.transform.name == "void":
                continue
            key = (f.source_ids, f.transform)
            first_id, first_spec = by_field.setdefault(key, (f.field_id, spec.spec_id))
            if first_id != f.field_id and first_spec != spec.spec_id:
                raise InvalidInput(
                    "partition-spec.field-id.reuse",
                    f"{_describe(f)} has id {f.field_id} in spec {spec.spec_id} but {first_id} in spec {first_spec}",
                    f.field_id,
                )


def _describe(f: PartitionField) -> str:
    return f"{f.transform}({', '.join(map(str, f.source_ids))})"


# --- equivalence and evolution -----------------------------------------------------------------


def equivalent(a: PartitionSpec, b: PartitionSpec) -> bool:
    """Same number of fields, each with the same source ids, transform and name ("Partitioning")."""
    return len(a.fields) == len(b.fields) and all(
        _same_field(x, y) and x.name == y.name for x, y in zip(a.fields, b.fields)
    )


@implements("partition-spec.equivalent")
def check_new_spec(new: PartitionSpec, existing: Iterable[PartitionSpec]) -> None:
    """Writers must not create a new spec when an equivalent one exists ("Partitioning")."""
    for spec in existing:
        if equivalent(new, spec):
            raise InvalidInput(
                "partition-spec.equivalent", f"spec {spec.spec_id} is equivalent; reuse it", spec.spec_id
            )


@implements("partition-spec.field-id.reuse", "partition-spec.field-id.v1-assignment")
def assign_field_ids(
    new_spec: PartitionSpec, existing_specs: Iterable[PartitionSpec], last_partition_id: int | None, format_version: int
) -> tuple[PartitionSpec, int]:
    """Give the fields of `new_spec` without an id their ids; returns the spec and the new
    last-partition-id. v1: 1000 + position. v2+: the id of an equivalent field (same source ids and
    transform) of an existing spec, the most recent spec first, else last-partition-id + 1, + 2, ...
    (rules partition-spec.field-id.v1-assignment, partition-spec.field-id.reuse)."""
    _check_version(format_version)
    existing = sorted(existing_specs, key=lambda s: s.spec_id, reverse=True)
    known_ids = [f.field_id for s in existing for f in s.fields if f.field_id is not None]
    last = last_partition_id if last_partition_id is not None else max(known_ids, default=V1_FIRST_FIELD_ID - 1)
    taken = {f.field_id for f in new_spec.fields if f.field_id is not None}
    out = []
    for position, f in enumerate(new_spec.fields):
        field_id = f.field_id
        if field_id is None and format_version == 1:
            field_id = V1_FIRST_FIELD_ID + position
        if field_id is None:
            field_id = next(
                (
                    g.field_id
                    for s in existing
                    for g in s.fields
                    if g.field_id is not None and g.field_id not in taken and _same_field(f, g)
                ),
                None,
            )
        if field_id is None:
            last += 1
            field_id = last
        taken.add(field_id)
        out.append(PartitionField(f.source_ids, field_id, f.name, f.transform))
    return PartitionSpec(new_spec.spec_id, tuple(out)), max([last, *taken])


@implements(
    "partition-spec.v1-evolution.append", "partition-spec.v1-evolution.drop", "partition-spec.v1-evolution.reorder"
)
def v1_evolution_warnings(old: PartitionSpec, new: PartitionSpec) -> list[Finding]:
    """The three v1 recommendations of "Partition Evolution" that `old` -> `new` breaks.

    Fields are matched by source ids and transform; a field whose transform became void (the
    recommended drop) still matches, whatever its name.
    """

    def matches(o: PartitionField, n: PartitionField) -> bool:
        return o.source_ids == n.source_ids and (o.transform == n.transform or n.transform.name == "void")

    found: list[Finding] = []
    for i, o in enumerate(old.fields):
        at = [j for j, n in enumerate(new.fields) if matches(o, n)]
        if not at:
            found.append(
                Finding(
                    "partition-spec.v1-evolution.drop",
                    f"field {o.name!r} was dropped; replace its transform with void",
                    o.name,
                )
            )
        elif i not in at:
            found.append(
                Finding(
                    "partition-spec.v1-evolution.reorder",
                    f"field {o.name!r} moved from position {i} to {at[0]}",
                    o.name,
                )
            )
    for j, n in enumerate(new.fields[: len(old.fields)]):
        if not matches(old.fields[j], n) and not any(matches(o, n) for o in old.fields):
            found.append(
                Finding(
                    "partition-spec.v1-evolution.append",
                    f"new field {n.name!r} is at position {j}, not after the old fields",
                    n.name,
                )
            )
    return found


# --- partition types ---------------------------------------------------------------------------


@implements("transform.unknown")
def _field_type(
    f: PartitionField, schema: StructType, revision: str, unknown_result: IcebergType | None
) -> IcebergType:
    types = check_sources(f.source_ids, f.transform, schema, revision, _KIND, structural=True)
    if not f.transform.is_known:
        if unknown_result is None:
            raise NotDefined(
                "transform.unknown",
                f"field {f.name!r}: the result type of {f.transform} is not known",
                f.transform.text,
            )
        return unknown_result
    return result_type(f.transform, types[0], revision)


@implements("partition-spec.partition-type")
def partition_type(
    spec: PartitionSpec,
    schema: StructType,
    revision: str = revisions.DEFAULT,
    unknown_result: IcebergType | None = None,
) -> StructType:
    """The partition tuple type: optional fields with the partition field ids, names and result
    types. Unknown transforms raise NotDefined unless `unknown_result` gives their type."""
    return StructType(
        tuple(
            NestedField(f.field_id, f.name, _field_type(f, schema, revision, unknown_result), False)  # type: ignore[arg-type]
            for f in spec.fields
        )
    )


@implements("partition-spec.field-id.required", "partition-statistics.unified-type")
def unified_partition_type(
    specs: Iterable[PartitionSpec],
    schema: StructType,
    revision: str = revisions.DEFAULT,
    unknown_result: IcebergType | None = None,
) -> StructType:
    """The unified partition type of "Partition Statistics": every field of every spec, sorted by
    field id. The name comes from the most recent spec (highest spec id); the type from a non-void
    field when a v1 field was replaced by void. One id naming other sources or transforms is
    rejected."""
    chosen: dict[int, tuple[PartitionField, IcebergType]] = {}
    for spec in sorted(specs, key=lambda s: s.spec_id, reverse=True):
        for f in spec.fields:
            if f.field_id is None:
                raise InvalidInput("partition-spec.field-id.required", f"field {f.name!r} has no field-id", f.name)
            t = _field_type(f, schema, revision, unknown_result)
            if f.field_id not in chosen:
                chosen[f.field_id] = (f, t)
                continue
            kept, kept_type = chosen[f.field_id]
            if not _compatible(kept, f):
                raise InvalidInput(
                    "partition-statistics.unified-type",
                    f"field id {f.field_id} names both {_describe(kept)} and {_describe(f)}",
                    f.field_id,
                )
            if kept.transform.name == "void" and f.transform.name != "void":
                chosen[f.field_id] = (PartitionField(f.source_ids, f.field_id, kept.name, f.transform), t)
    return StructType(tuple(NestedField(i, chosen[i][0].name, chosen[i][1], False) for i in sorted(chosen)))


# --- partition values --------------------------------------------------------------------------


def _canonical(t: IcebergType, value: Any) -> Any:
    name = getattr(t, "name", None)
    if value is None or name not in ("float", "double"):
        return Decimal(value) if isinstance(value, Decimal) else value
    if math.isnan(value):
        return 0x7FC00000 if name == "float" else 0x7FF8000000000000
    return (
        struct.unpack(">I", struct.pack(">f", value))[0]
        if name == "float"
        else struct.unpack(">Q", struct.pack(">d", value))[0]
    )


@implements("partition-values.equality")
def partition_values_equal(a: Sequence[Any], b: Sequence[Any], partition_struct: StructType) -> bool:
    """Equality of two partition tuples (values in the order of the struct's fields), "Scan
    Planning" note 3: floats by their bits with NaN canonical, so -0.0 != 0.0 and NaN == NaN."""
    n = len(partition_struct.fields)
    if len(a) != n or len(b) != n:
        raise InvalidInput("partition-values.equality", f"partition tuples need {n} values", (len(a), len(b)))
    return all(_canonical(f.type, x) == _canonical(f.type, y) for f, x, y in zip(partition_struct.fields, a, b))
