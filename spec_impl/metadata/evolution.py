"""Schema evolution: is `new` a valid successor of `old`?

Spec: "Schema Evolution" (promotions, renames, adds, deletes, reorders, the forbidden grouping and
struct/primitive changes, default-value rules), "Default values"; adopted digest §1.1 (v3
promotions) and §1.2. Fields are matched by id: a name change with the same id is a rename; an id
only in `old` was dropped; an id only in `new` was added. Dropping and reordering are always
allowed (a list element or map key/value cannot be dropped on its own: its id must stay).
`check_evolution` returns every violation, not just the first.

Both schemas are assumed valid on their own (`validate_schema`). Given the table's partition
specs, a promotion that would change the value of a partition transform on the column is refused
(adopted v3: date to timestamp under identity or bucket; year, month and day keep their values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.metadata.projection import promote_value
from spec_impl.metadata.schema import IndexedField, Schema, initial_default, walk, write_default
from spec_impl.promotion import can_promote
from spec_impl.rules import Rule, implements, register
from spec_impl.types import ABSENT, IcebergType, ListType, MapType, StructType

_E = "Schema Evolution"

register(
    Rule(
        "evolution.field-id.kept",
        _E,
        "Renaming keeps a field's id; a list element and map key and value keep their ids while the collection exists",
    ),
    Rule(
        "evolution.field-id.new",
        _E,
        "An added field (and every id nested in it) gets a new id, above every id the table has assigned (no reuse)",
    ),
    Rule(
        "evolution.type.promotion",
        _E,
        "A primitive type may change only by a valid promotion (int to long, float to double, decimal precision "
        "widening; v3 adopted: date to timestamp(_ns), unknown to any)",
    ),
    Rule(
        "evolution.type.nested",
        _E,
        "Primitive types cannot become nested types nor nested types primitives; a struct, list or map stays one",
    ),
    Rule(
        "evolution.move",
        _E,
        "Fields cannot be grouped into a nested struct or moved out of one into its parent: a field id keeps its "
        "parent",
    ),
    Rule(
        "evolution.required",
        _E,
        "An optional field (or list element, map value) cannot become required; required to optional is allowed",
    ),
    Rule(
        "evolution.add-required",
        _E,
        "Adding a required field: not allowed in v1 and v2; in v3 both initial-default and write-default must be "
        "set and non-null",
    ),
    Rule(
        "evolution.type.partition-transform",
        "adopted 1.1 Type promotion",
        "A promotion is not allowed when a partition transform of the column would give another value after it "
        "(date to timestamp(_ns) under identity or bucket)",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "evolution.default.initial",
        "Default values; Schema Evolution",
        "A field's initial-default is set when it is added and never changes; its write-default starts equal "
        "to the initial-default and may change later",
        (3,),
    ),
)


@dataclass(frozen=True)
class Violation:
    """One broken evolution rule, with the id of the field at fault (None for schema-wide ones)."""

    rule: str
    message: str
    field_id: int | None = None


def check_evolution(
    old: Schema,
    new: Schema,
    format_version: int,
    revision: str = revisions.DEFAULT,
    *,
    last_column_id: int | None = None,
    partition_specs: Any = (),
) -> list[Violation]:
    """Every rule that evolving `old` into `new` breaks, in the order of `new`'s fields.

    `last_column_id` is the table's highest assigned id (table metadata `last-column-id`); new
    ids must lie above it and above `old.highest_field_id()`. `partition_specs` (the table's
    `PartitionSpec`s) enable the partition-transform check of promotions.
    """
    revisions.check(revision)
    floor = max(old.highest_field_id(), last_column_id or 0)
    out: list[Violation] = []
    old_ids = old.ids
    for fid in sorted(new.ids, key=_order(new)):
        info = new.field_by_id(fid)
        if fid in old_ids:
            out += _changed(old.field_by_id(fid), info, format_version, revision)
            out += _partition_values_change(old.field_by_id(fid), info, partition_specs)
        else:
            out += _added(info, new, old_ids, floor, format_version)
    return out


_VALUE_KEEPING = {"year", "month", "day", "void"}  # date -> timestamp keeps these transforms' values


@implements("evolution.type.partition-transform")
def _partition_values_change(old: IndexedField, new: IndexedField, specs: Any) -> list[Violation]:
    """adopted 1.1: date promoted to timestamp(_ns) changes identity and bucket values (days vs micros)."""
    if getattr(old.type, "name", None) != "date" or getattr(new.type, "name", None) not in (
        "timestamp",
        "timestamp_ns",
    ):
        return []
    return [
        Violation(
            "evolution.type.partition-transform",
            f"field {new.id} ({new.dotted}) is partitioned by {f.transform} in spec {spec.spec_id}: promoting date to "
            f"{new.type} would change its partition values",
            new.id,
        )
        for spec in specs
        for f in spec.fields
        if new.id in f.source_ids and f.transform.name not in _VALUE_KEEPING
    ]


def _order(schema: Schema):
    position: dict[int, int] = {}
    for info in walk(schema.struct):
        position.setdefault(info.id, len(position))
    return position.__getitem__


@implements("evolution.default.initial", "evolution.move", "evolution.required")
def _changed(old: IndexedField, new: IndexedField, format_version: int, revision: str) -> list[Violation]:
    out: list[Violation] = []
    where = f"field {new.id} ({new.dotted})"
    if (old.parent_id, old.kind) != (new.parent_id, new.kind):
        out.append(Violation("evolution.move", f"{where} moved from {_parent(old)} to {_parent(new)}", new.id))
    out += _type_change(old.type, new.type, where, new.id, format_version, revision)
    if new.required and not old.required:
        out.append(Violation("evolution.required", f"{where} changed from optional to required", new.id))
    if (
        old.field is not None
        and new.field is not None
        and not _same_initial_default(old, new, format_version, revision)
    ):
        out.append(
            Violation(
                "evolution.default.initial",
                f"{where} initial-default changed from {_raw(old.field.initial_default)} to "
                f"{_raw(new.field.initial_default)}",
                new.id,
            )
        )
    return out


@implements("evolution.field-id.kept", "evolution.type.nested", "evolution.type.promotion")
def _type_change(
    old: IcebergType, new: IcebergType, where: str, fid: int, format_version: int, revision: str
) -> list[Violation]:
    old_kind, new_kind = _kind(old), _kind(new)
    if old_kind != new_kind:
        return [
            Violation(
                "evolution.type.nested", f"{where} changed from a {old_kind} ({old}) to a {new_kind} ({new})", fid
            )
        ]
    if isinstance(old, ListType) and isinstance(new, ListType) and old.element_id != new.element_id:
        return [
            Violation(
                "evolution.field-id.kept",
                f"{where}: the list element id changed from {old.element_id} to {new.element_id}",
                fid,
            )
        ]
    if (
        isinstance(old, MapType)
        and isinstance(new, MapType)
        and (old.key_id, old.value_id) != (new.key_id, new.value_id)
    ):
        return [
            Violation(
                "evolution.field-id.kept",
                f"{where}: the map key/value ids changed from {old.key_id}/{old.value_id} to "
                f"{new.key_id}/{new.value_id}",
                fid,
            )
        ]
    if old_kind == "primitive" and old != new and not can_promote(old, new, format_version, revision):
        message = f"{where}: {old} cannot be promoted to {new} in format v{format_version} ({revision})"
        return [Violation("evolution.type.promotion", message, fid)]
    return []


@implements("evolution.add-required", "evolution.default.initial", "evolution.field-id.new")
def _added(
    info: IndexedField, new: Schema, old_ids: frozenset[int], floor: int, format_version: int
) -> list[Violation]:
    out: list[Violation] = []
    where = f"added field {info.id} ({info.dotted})"
    if info.id <= floor:
        out.append(
            Violation("evolution.field-id.new", f"{where} reuses id {info.id}; new ids must be above {floor}", info.id)
        )
    if info.kind != "field":
        return out
    field = info.field
    assert field is not None
    if format_version >= 3 and not _write_default_is_initial(field):
        out.append(
            Violation(
                "evolution.default.initial",
                f"{where} has write-default {_raw(field.write_default)}, not its initial-default "
                f"{_raw(field.initial_default)}: the write-default starts as the initial-default",
                info.id,
            )
        )
    if not info.required or not _existing_rows_reach(info, new, old_ids):
        return out
    if format_version < 3:
        out.append(
            Violation(
                "evolution.add-required",
                f"{where} is required; v{format_version} tables can only add optional fields",
                info.id,
            )
        )
    elif field.initial_default in (ABSENT, None) or field.write_default in (ABSENT, None):
        out.append(
            Violation(
                "evolution.add-required",
                f"{where} is required and needs a non-null initial-default and write-default",
                info.id,
            )
        )
    return out


def _existing_rows_reach(info: IndexedField, new: Schema, old_ids: frozenset[int]) -> bool:
    """Whether rows written before the change need a value for this added field: false when a new
    ancestor is optional (old rows read it as null) or a new list/map (old rows have no entries)."""
    parent_id = info.parent_id
    while parent_id is not None and parent_id not in old_ids:
        parent = new.field_by_id(parent_id)
        if parent.kind != "field" or not parent.required:
            return False
        parent_id = parent.parent_id
    return True


def _same_initial_default(old: IndexedField, new: IndexedField, format_version: int, revision: str) -> bool:
    """Equal after decoding (and promoting the old value); absent and null are the same."""
    a, b = old.field.initial_default, new.field.initial_default  # type: ignore[union-attr]
    if a in (ABSENT, None) or b in (ABSENT, None):
        return a in (ABSENT, None) and b in (ABSENT, None)
    try:
        before = promote_value(initial_default(old.field), old.type, new.type, format_version, revision)  # type: ignore[arg-type]
        return before == initial_default(new.field)  # type: ignore[arg-type]
    except SpecError:  # undecodable or not promotable: compare the JSON as written
        return a == b


def _write_default_is_initial(field: Any) -> bool:
    """Default values: "The write-default is initially set to the same value as initial-default"
    (equal after decoding; absent and null are the same). A required field added with one of them
    missing is rule evolution.add-required's to report."""
    a, b = field.initial_default, field.write_default
    if a in (ABSENT, None) or b in (ABSENT, None):
        return (a in (ABSENT, None)) == (b in (ABSENT, None)) or field.required
    try:
        return initial_default(field) == write_default(field)
    except SpecError:  # undecodable: schema parsing reports it; compare the JSON as written
        return a == b


def _kind(t: IcebergType) -> str:
    return {StructType: "struct", ListType: "list", MapType: "map"}.get(type(t), "primitive")


def _parent(info: IndexedField) -> str:
    where = "the top level" if info.parent_id is None else f"parent id {info.parent_id}"
    return where if info.kind == "field" else f"{where} as its {info.kind}"


def _raw(value: Any) -> str:
    return "(not set)" if value is ABSENT else repr(value)
