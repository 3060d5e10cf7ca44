"""Schema evolution cases (Schema Evolution): ids kept and new ids above last-column-id, type
promotions (also under partition transforms, and nested), required fields, moves and initial
defaults. `last_column_id` also reads a file through a name mapping, in its place in the case order."""

from __future__ import annotations

from spec_impl import revisions

from spec_impl.vectors.cases import case
from spec_impl.vectors.families._schema_blocks import FILE_ABC, READ_EXAMPLE, f, lst, mp, sch, struct


def _evolve(rule_id: str, slug: str, description: str, old: dict, new: dict, fv: int, **kw):
    return case(rule_id, slug, description, "check-evolution", format_version=fv, **{"from": old, "to": new}, **kw)


def last_column_id():
    one = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "required": False, "type": "int"}]}
    readd = {
        "type": "struct",
        "schema-id": 1,
        "fields": [
            {"id": 1, "name": "a", "required": False, "type": "int"},
            {"id": 2, "name": "b", "required": False, "type": "string"},
        ],
    }
    yield case(
        "evolution.field-id.new",
        "readds-dropped-id",
        "id 2 was assigned before (last-column-id 5) and dropped: a new field must not reuse it",
        "check-evolution",
        format_version=2,
        **{"from": one, "to": readd, "last-column-id": 5},
    )
    yield case(
        "evolution.field-id.new",
        "above-last-column-id",
        "a new field with an id above last-column-id is a fresh id",
        "check-evolution",
        format_version=2,
        **{"from": one, "to": readd, "last-column-id": 1},
    )
    dates = {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {"id": 1, "name": "d", "required": False, "type": "date"},
            {"id": 2, "name": "amount", "required": False, "type": "decimal(9,2)"},
        ],
    }
    yield case(
        "name-mapping.lookup",
        "typed-values-by-name",
        "a file without field ids: values of date and decimal columns found through the mapping",
        "project",
        **{
            "file-schema": None,
            "read-schema": dates,
            "rows": [{"d": "2017-11-16", "amount": "14.20", "extra": 1}],
            "name-mapping": [{"field-id": 1, "names": ["d", "day"]}, {"field-id": 2, "names": ["amount"]}],
        },
    )


def promotion_under_partitions():
    d = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "d", "required": False, "type": "date"}]}
    ts = {"type": "struct", "schema-id": 1, "fields": [{"id": 1, "name": "d", "required": False, "type": "timestamp"}]}
    for transform, what in (
        ("day", "day keeps its value (days from 1970 either way)"),
        ("identity", "identity would give microseconds, not days"),
        ("bucket[16]", "bucket would hash microseconds, not days"),
    ):
        spec = {"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "p", "transform": transform}]}
        yield case(
            "evolution.type.partition-transform",
            f"date-to-timestamp-under-{transform}",
            f"v3: date promoted to timestamp while partitioned by {transform}: {what}",
            "check-evolution",
            format_version=3,
            revisions=revisions.ADOPTED,
            **{"from": d, "to": ts, "partition-specs": [spec]},
        )


BASE = sch(f(1, "a", "int", True), f(2, "b", "string"), f(3, "c", "double"))


def specs():
    r = "evolution.field-id.kept"
    yield _evolve(r, "unchanged", "a schema evolves into itself", BASE, BASE, 2)
    yield _evolve(
        r,
        "rename-reorder-add",
        "the Column Projection example as an evolution: c renamed measurement, b renamed name, "
        "a dropped and a new column 4: a added",
        FILE_ABC,
        dict(READ_EXAMPLE, **{"schema-id": 1}),
        2,
    )
    yield _evolve(
        r, "drop", "dropping a field (even a required one) is allowed", BASE, sch(f(2, "b", "string"), schema_id=1), 2
    )
    yield _evolve(
        r,
        "same-name-new-id",
        "a column dropped and re-added under the same name with a new id and another type: "
        "fields match by id, so this is a drop and an add, not a type change",
        sch(f(1, "a", "int")),
        sch(f(2, "a", "string"), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-rename",
        "renaming and reordering fields of a nested struct",
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "int")))),
        sch(f(1, "point", struct(f(3, "lat", "int"), f(2, "lon", "int"))), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "list-element-id-changed",
        "a list keeps its element id",
        sch(f(1, "l", lst(2, "int"))),
        sch(f(1, "l", lst(3, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "map-value-id-changed",
        "a map keeps its value id",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(2, "string", 4, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "map-key-id-changed",
        "a map keeps its key id",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(4, "string", 3, "int")), schema_id=1),
        2,
    )

    r = "evolution.field-id.new"
    yield _evolve(
        r,
        "fresh-ids",
        "an added struct gets new ids for itself and its fields, above every existing id",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int"), f(6, "l", lst(7, "long")))), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "below-highest",
        "an added field's id 5 is below the highest existing id 10: ids are never reused",
        sch(f(10, "a", "int")),
        sch(f(10, "a", "int"), f(5, "b", "int"), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-element-below-highest",
        "an added list whose element id 5 is below the highest existing id 10",
        sch(f(1, "a", "int"), f(10, "b", "int")),
        sch(f(1, "a", "int"), f(10, "b", "int"), f(11, "l", lst(5, "int")), schema_id=1),
        2,
    )

    r = "evolution.type.promotion"
    for old, new, fv, why in (
        ("int", "long", 1, "int to long"),
        ("float", "double", 2, "float to double"),
        ("decimal(9,2)", "decimal(18,2)", 2, "decimal precision widening, same scale"),
        ("decimal(9,2)", "decimal(38,2)", 1, "decimal widening to the maximum precision"),
        ("decimal(9,2)", "decimal(18,3)", 2, "decimal: the scale cannot change"),
        ("decimal(18,2)", "decimal(9,2)", 2, "decimal: precision cannot narrow"),
        ("long", "int", 2, "long to int narrows"),
        ("double", "float", 2, "double to float narrows"),
        ("int", "double", 2, "int to double is not a promotion"),
        ("int", "string", 2, "int to string is not a promotion"),
        ("string", "binary", 2, "string to binary is not a promotion"),
        ("fixed[4]", "fixed[8]", 2, "fixed lengths cannot change"),
        ("fixed[4]", "binary", 2, "fixed to binary is not a promotion"),
        ("timestamp", "timestamptz", 2, "timestamp to timestamptz is not a promotion"),
        ("date", "timestamp", 2, "date to timestamp needs v3"),
        ("date", "timestamp", 3, "date to timestamp: a v3 promotion of the adopted spec, not in the seed text"),
        ("date", "timestamp_ns", 3, "date to timestamp_ns: a v3 promotion of the adopted spec, not in the seed text"),
        ("date", "timestamptz", 3, "date to timestamptz is not a promotion"),
        ("timestamp", "timestamp_ns", 3, "timestamp to timestamp_ns is not a promotion"),
        ("unknown", "string", 3, "unknown to any type: a v3 promotion of the adopted spec"),
        ("unknown", "decimal(9,2)", 3, "unknown to decimal(9,2): a v3 promotion of the adopted spec"),
        ("long", "unknown", 3, "no type can become unknown"),
    ):
        slug = (
            f"{old}-to-{new}-v{fv}".replace("(", "")
            .replace(")", "")
            .replace(",", "-")
            .replace("[", "")
            .replace("]", "")
        )
        yield _evolve(r, slug, why, sch(f(1, "x", old)), sch(f(1, "x", new), schema_id=1), fv)
    old = sch(f(1, "l", lst(2, "int")), f(3, "m", mp(4, "int", 5, "float")))
    yield _evolve(
        r,
        "list-and-map-members",
        "list element int to long, map key int to long and value float to double",
        old,
        sch(f(1, "l", lst(2, "long")), f(3, "m", mp(4, "long", 5, "double")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "list-and-map-members-invalid",
        "list element int to string and map value float to int: both reported",
        old,
        sch(f(1, "l", lst(2, "string")), f(3, "m", mp(4, "int", 5, "int")), schema_id=1),
        2,
    )
    yield _evolve(
        r,
        "nested-struct-field",
        "a nested struct field's type is checked by its id",
        sch(f(1, "s", struct(f(2, "x", "long")))),
        sch(f(1, "s", struct(f(2, "x", "int"))), schema_id=1),
        2,
    )

    r = "evolution.type.nested"
    flat = sch(f(1, "m", mp(2, "string", 3, "int")))
    wrapped = sch(f(1, "m", mp(2, "string", 3, struct(f(4, "v", "int")))), schema_id=1)
    yield _evolve(
        r, "primitive-to-struct", "the spec's example: map<string, int> to map<string, struct<int>>", flat, wrapped, 2
    )
    yield _evolve(
        r, "struct-to-primitive", "the spec's example: map<string, struct<int>> to map<string, int>", wrapped, flat, 2
    )
    yield _evolve(r, "map-to-list", "a map field becomes a list", flat, sch(f(1, "m", lst(5, "int")), schema_id=1), 2)
    yield _evolve(
        r,
        "list-to-primitive",
        "a list field becomes a string",
        sch(f(1, "l", lst(2, "string"))),
        sch(f(1, "l", "string")),
        2,
    )
    yield _evolve(
        r,
        "primitive-to-list",
        "an int field becomes a list of int",
        sch(f(1, "x", "int")),
        sch(f(1, "x", lst(2, "int"))),
        2,
    )

    r = "evolution.move"
    abc = sch(f(1, "a", "int"), f(2, "b", "int"), f(3, "c", "int"))
    grouped = sch(f(1, "a", "int"), f(4, "s", struct(f(2, "b", "int"), f(3, "c", "int"))), schema_id=1)
    yield _evolve(
        r,
        "grouping",
        "the spec's example: struct<a, b, c> to struct<a, struct<b, c>> (b and c keep their ids)",
        abc,
        grouped,
        2,
    )
    yield _evolve(r, "ungrouping", "the spec's example: struct<a, struct<b, c>> to struct<a, b, c>", grouped, abc, 2)
    yield _evolve(
        r,
        "between-structs",
        "a field moved from one nested struct to another",
        sch(f(1, "s", struct(f(3, "x", "int"))), f(2, "t", struct())),
        sch(f(1, "s", struct()), f(2, "t", struct(f(3, "x", "int")))),
        2,
    )
    yield _evolve(
        r,
        "field-to-list-element",
        "an existing id reused as the element of a new list: a move, not a new id",
        sch(f(1, "a", "int"), f(2, "b", "int")),
        sch(f(1, "a", "int"), f(3, "l", lst(2, "int"))),
        2,
    )

    r = "evolution.required"
    yield _evolve(
        r,
        "optional-to-required",
        "optional b becomes required",
        BASE,
        sch(f(1, "a", "int", True), f(2, "b", "string", True), f(3, "c", "double")),
        2,
    )
    yield _evolve(
        r,
        "required-to-optional",
        "required a becomes optional: allowed",
        BASE,
        sch(f(1, "a", "int"), f(2, "b", "string"), f(3, "c", "double")),
        2,
    )
    yield _evolve(
        r,
        "list-element",
        "an optional list element becomes required",
        sch(f(1, "l", lst(2, "int"))),
        sch(f(1, "l", lst(2, "int", True))),
        2,
    )
    yield _evolve(
        r,
        "map-value",
        "an optional map value becomes required",
        sch(f(1, "m", mp(2, "string", 3, "int"))),
        sch(f(1, "m", mp(2, "string", 3, "int", True))),
        2,
    )
    yield _evolve(
        r,
        "v3-with-defaults",
        "v3: an optional field cannot become required even when it has non-null defaults",
        sch(f(1, "a", "int", initial=1, write=1)),
        sch(f(1, "a", "int", True, initial=1, write=1)),
        3,
    )

    r = "evolution.add-required"
    plain = sch(*BASE["fields"], f(4, "d", "int", True), schema_id=1)
    yield _evolve(r, "v1", "v1: a required field cannot be added", BASE, plain, 1)
    yield _evolve(r, "v2", "v2: a required field cannot be added", BASE, plain, 2)
    yield _evolve(r, "v3-no-defaults", "v3: a required field added without defaults", BASE, plain, 3)
    yield _evolve(
        r,
        "rollback-of-a-dropped-required-field",
        "v2: schema 0's required field d was dropped by schema 1 and snapshots were written since; making "
        'schema 0 current again adds back a required field the new data files lack ("Field deletion cannot '
        'be rolled back unless the field was nullable or if the current snapshot has not changed")',
        {**plain, "schema-id": 1, "fields": BASE["fields"]},
        {**plain, "schema-id": 0},
        2,
    )
    yield _evolve(
        r,
        "v3-initial-only",
        "v3: a required field added with initial-default but no write-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, initial=1)),
        3,
    )
    yield _evolve(
        r,
        "v3-write-only",
        "v3: a required field added with write-default but no initial-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, write=1)),
        3,
    )
    yield _evolve(
        r,
        "v3-both-defaults",
        "v3: a required field added with non-null initial-default and write-default",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", True, initial=1, write=1)),
        3,
    )
    yield _evolve(
        r,
        "optional-with-defaults",
        "v3: an optional field added with null or non-null defaults",
        BASE,
        sch(*BASE["fields"], f(4, "d", "int", initial=None, write=None), f(5, "e", "int", initial=7, write=7)),
        3,
    )
    yield _evolve(
        r,
        "into-existing-struct",
        "v2: a required field added inside an existing struct",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "int", True)))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-optional-struct",
        "v2: a new optional struct with a required field (old rows read the struct as null)",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int", True)))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-list",
        "v2: a new list of structs with a required field (old rows have no elements)",
        BASE,
        sch(*BASE["fields"], f(4, "l", lst(5, struct(f(6, "x", "int", True)), True))),
        2,
    )
    yield _evolve(
        r,
        "inside-new-required-struct",
        "v3: a new required struct defaulting to {} whose required field 5 has no defaults",
        BASE,
        sch(*BASE["fields"], f(4, "s", struct(f(5, "x", "int", True)), True, initial={}, write={})),
        3,
    )

    r = "evolution.default.initial"
    old = sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=1, write=1))
    yield _evolve(
        r,
        "write-default-changes",
        "write-default may change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=1, write=5)),
        3,
    )
    for slug, description, added in (
        (
            "added-write-default-differs",
            "a field added with write-default 2 and initial-default 1",
            f(3, "e", "int", True, initial=1, write=2),
        ),
        (
            "added-optional-write-default-only",
            "an optional field added with write-default 5 and no initial-default",
            f(3, "e", "int", write=5),
        ),
        (
            "added-optional-initial-default-only",
            "an optional field added with initial-default 5 and no write-default",
            f(3, "e", "int", initial=5),
        ),
        (
            "added-decimal-same-defaults",
            "a decimal field added with initial-default 1.50 and write-default 1.50 (equal values)",
            f(3, "e", "decimal(9,2)", initial="1.50", write="1.50"),
        ),
    ):
        yield _evolve(
            r,
            slug,
            f"v3: {description}: the write-default starts as the initial-default",
            old,
            sch(*old["fields"], added),
            3,
        )
    yield _evolve(
        r,
        "initial-default-changes",
        "initial-default cannot change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "int", True, initial=2, write=1)),
        3,
    )
    yield _evolve(
        r,
        "initial-default-removed",
        "initial-default cannot be removed from an existing field",
        sch(f(1, "d", "int", initial=1, write=1)),
        sch(f(1, "d", "int", write=1)),
        3,
    )
    yield _evolve(
        r,
        "initial-default-set-later",
        "initial-default cannot be set on an existing field",
        sch(f(1, "x", "int")),
        sch(f(1, "x", "int", initial=4)),
        3,
    )
    yield _evolve(
        r,
        "absent-to-null",
        "an absent initial-default and an explicit null are the same",
        sch(f(1, "x", "int")),
        sch(f(1, "x", "int", initial=None)),
        3,
    )
    yield _evolve(
        r,
        "promoted-same-value",
        "int to long keeps the initial-default 1: the value did not change",
        old,
        sch(f(1, "a", "int", True), f(2, "d", "long", True, initial=1, write=1)),
        3,
    )
    yield _evolve(
        r,
        "decimal-widened-same-value",
        "decimal(9,2) to decimal(18,2) with the same initial-default 1.50",
        sch(f(1, "x", "decimal(9,2)", initial="1.50")),
        sch(f(1, "x", "decimal(18,2)", initial="1.50")),
        3,
    )
    yield _evolve(
        r,
        "same-uuid-other-spelling",
        "the same UUID initial-default in uppercase: the value did not change",
        sch(f(1, "x", "uuid", initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb")),
        sch(f(1, "x", "uuid", initial="0DB3E2A8-9D1D-42B9-AA7B-74EBE558DCEB")),
        3,
        note="Defaults compare as values of their type (Appendix D), not as JSON text; "
        "uppercase UUIDs are accepted on read (see vectors/README.md).",
    )
    yield _evolve(
        "evolution.type.promotion",
        "all-violations-reported",
        "every violation is reported: type change, optional to required, struct to primitive, "
        "required field added without defaults",
        BASE,
        sch(f(1, "a", "string", True), f(2, "b", "string", True), f(3, "c", struct()), f(4, "d", "int", True)),
        3,
    )
