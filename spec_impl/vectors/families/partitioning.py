"""Partition specs and sort orders: the Appendix C examples, the source-id / source-ids forms of each
format version and spec revision, validation against a schema, partition field ids (v1 positions
from 1000, reuse and last-partition-id on evolution), the partition tuple type, partition value
equality, and the orders a sort produces (the floating-point chain, directions, null orders)."""

from __future__ import annotations

import copy
from typing import Any

from spec_impl.vectors.cases import case

NAME = "partitioning"
DESCRIPTION = "Partitioning, Partition Evolution, Sorting, Appendix C partition specs and sort orders"


def _schema(version: int) -> dict:
    """A table schema with the columns of Appendix C's examples (source ids 1 to 4 of the partition
    spec example, 2 and 3 of the sort order example), nested and collection columns; v3 adds a
    variant."""
    fields: list[dict[str, Any]] = [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "data", "required": False, "type": "string"},
        {"id": 3, "name": "category", "required": False, "type": "string"},
        {"id": 4, "name": "ts", "required": False, "type": "timestamp"},
        {
            "id": 5,
            "name": "loc",
            "required": False,
            "type": {
                "type": "struct",
                "fields": [
                    {"id": 6, "name": "lat", "required": False, "type": "double"},
                    {"id": 7, "name": "day", "required": False, "type": "date"},
                ],
            },
        },
        {
            "id": 8,
            "name": "tags",
            "required": False,
            "type": {"type": "list", "element-id": 9, "element": "string", "element-required": False},
        },
        {
            "id": 10,
            "name": "props",
            "required": False,
            "type": {
                "type": "map",
                "key-id": 11,
                "key": "string",
                "value-id": 12,
                "value": "string",
                "value-required": False,
            },
        },
        {"id": 14, "name": "price", "required": False, "type": "float"},
        {
            "id": 15,
            "name": "points",
            "required": False,
            "type": {
                "type": "list",
                "element-id": 16,
                "element-required": True,
                "element": {"type": "struct", "fields": [{"id": 17, "name": "x", "required": True, "type": "long"}]},
            },
        },
    ]
    if version >= 3:
        fields.append({"id": 13, "name": "v", "required": False, "type": "variant"})
    return {"type": "struct", "schema-id": 0, "fields": fields}


# Appendix C, "Partition Specs": the example (its `fields` row in the object form).
APPENDIX_C_SPEC = {
    "spec-id": 0,
    "fields": [
        {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
        {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"},
    ],
}

# Appendix C, "Sort Orders": the example (its `fields` row in an order object with the example id 1).
APPENDIX_C_ORDER = {
    "order-id": 1,
    "fields": [
        {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
        {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"},
    ],
}


def _pf(source: Any, field_id: int | None, name: str, transform: str, *, ids: bool = False) -> dict:
    """A partition field: `source` an int (source-id) or a list (source-ids); with `ids`, an int
    source is written in both keys."""
    out: dict[str, Any] = {}
    if isinstance(source, list):
        out["source-ids"] = source
    elif source is not None:
        out["source-id"] = source
        if ids:
            out["source-ids"] = [source]
    if field_id is not None:
        out["field-id"] = field_id
    out.update(name=name, transform=transform)
    return out


def _ps(spec_id: int, *fields: dict) -> dict:
    return {"spec-id": spec_id, "fields": list(fields)}


def _sf(source: Any, transform: str = "identity", direction: str = "asc", null_order: str = "nulls-first") -> dict:
    out: dict[str, Any] = {"transform": transform}
    if isinstance(source, list):
        out["source-ids"] = source
    elif source is not None:
        out["source-id"] = source
    out.update({"direction": direction, "null-order": null_order})
    return out


def _so(order_id: int, *fields: dict) -> dict:
    return {"order-id": order_id, "fields": list(fields)}


def _parse(rule_id: str, slug: str, description: str, spec: Any, fv: int, schema: bool = False, **kw):
    inp: dict[str, Any] = {"spec": spec, "format_version": fv}
    if schema:
        inp["schema"] = _schema(fv)
    return case(rule_id, slug, description, "parse-partition-spec", **kw, **inp)


def _order(rule_id: str, slug: str, description: str, order: Any, fv: int, schema: bool = False, **kw):
    inp: dict[str, Any] = {"order": order, "format_version": fv}
    if schema:
        inp["schema"] = _schema(fv)
    return case(rule_id, slug, description, "parse-sort-order", **kw, **inp)


def _assign(rule_id: str, slug: str, description: str, spec: dict, existing: list, last: int | None, fv: int, **kw):
    return case(
        rule_id,
        slug,
        description,
        "assign-partition-field-ids",
        spec=spec,
        format_version=fv,
        **kw,
        **{"existing-specs": existing, "last-partition-id": last},
    )


def _findings(rule_id: str, slug: str, description: str, spec: dict, fv: int, previous: dict | None = None, **kw):
    inp: dict[str, Any] = {"spec": spec, "format_version": fv}
    if previous is not None:
        inp["previous"] = previous
    return case(rule_id, slug, description, "partition-spec-findings", **kw, **inp)


def _ptype(rule_id: str, slug: str, description: str, specs: list, **kw):
    return case(rule_id, slug, description, "partition-type", specs=specs, schema=_schema(3), **kw)


def _sort(
    rule_id: str,
    slug: str,
    description: str,
    type_: str,
    values: list,
    direction: str | None = None,
    null_order: str | None = None,
    **kw,
):
    inp: dict[str, Any] = {"type": type_, "values": values}
    if direction is not None:
        inp["direction"] = direction
    if null_order is not None:
        inp["null-order"] = null_order
    return case(rule_id, slug, description, "sort-values", **kw, **inp)


def _d(bits: str) -> dict:
    return {"ieee754": bits}


def _equivalent():
    day = {"spec-id": 0, "fields": [{"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"}]}
    yield _assign(
        "partition-spec.equivalent",
        "equivalent-spec-exists",
        "writers must not create a spec equivalent to an existing one (same fields, sources, transforms, names)",
        {"spec-id": 1, "fields": [{"source-id": 4, "name": "ts_day", "transform": "day"}]},
        [day],
        1000,
        2,
    )
    yield _assign(
        "partition-spec.equivalent",
        "renamed-is-not-equivalent",
        "a spec whose field has another name is not equivalent (its field id is reused)",
        {"spec-id": 1, "fields": [{"source-id": 4, "name": "day_of_ts", "transform": "day"}]},
        [day],
        1000,
        2,
    )


def specs():
    yield from _equivalent()
    yield from _partition_json()
    yield from _source_keys()
    yield from _field_ids()
    yield from _sources()
    yield from _writers_and_evolution()
    yield from _partition_types()
    yield from _partition_values()
    yield from _sort_order_json()
    yield from _sort_order_rules()
    yield from _sort_values()


# --- partition spec JSON -----------------------------------------------------------------------


def _partition_json():
    j = "partition-spec.json"
    for fv in (1, 2):
        yield _parse(
            j,
            f"appendix-c-example-v{fv}",
            f"the Appendix C partition spec example read as v{fv}: written back unchanged",
            APPENDIX_C_SPEC,
            fv,
        )
    yield _parse(
        j,
        "appendix-c-example-v2-schema",
        "the Appendix C example checked against a schema (ts is a timestamp, id a long)",
        APPENDIX_C_SPEC,
        2,
        schema=True,
    )
    yield _parse(j, "unpartitioned", "a spec without fields (the unpartitioned spec) is valid", _ps(0), 2, schema=True)
    yield _parse(
        j,
        "all-transforms",
        "one field of each transform of Appendix C's list, checked against the schema",
        _ps(
            3,
            _pf(2, 1000, "data", "identity"),
            _pf(1, 1001, "id_bucket", "bucket[16]"),
            _pf(2, 1002, "data_trunc", "truncate[20]"),
            _pf(4, 1003, "ts_year", "year"),
            _pf(4, 1004, "ts_month", "month"),
            _pf(4, 1005, "ts_day", "day"),
            _pf(4, 1006, "ts_hour", "hour"),
            _pf(3, 1007, "category_void", "void"),
        ),
        2,
        schema=True,
    )
    yield _parse(
        j,
        "names-not-unique",
        "partition field names are not required to be unique nor to differ from column names "
        "(the spec is silent; Iceberg Java rejects both)",
        _ps(0, _pf(1, 1000, "data", "bucket[2]"), _pf(2, 1001, "data", "identity")),
        2,
        schema=True,
        note="Spec gap: no rule on partition field names; the reference accepts them.",
    )
    yield _parse(
        j,
        "key-order-free",
        "the keys of a field may come in any order",
        _ps(0, {"transform": "day", "name": "ts_day", "field-id": 1000, "source-id": 4}),
        2,
    )
    bad = [
        ("not-an-object", "a spec must be a JSON object, not the field list", APPENDIX_C_SPEC["fields"]),
        ("missing-spec-id", "spec-id is required", {"fields": []}),
        ("spec-id-string", "spec-id must be a JSON int", {"spec-id": "0", "fields": []}),
        ("spec-id-bool", "spec-id must be a JSON int, not a boolean", {"spec-id": True, "fields": []}),
        ("missing-fields", "fields is required", {"spec-id": 0}),
        ("fields-object", "fields must be a JSON list", {"spec-id": 0, "fields": {}}),
        ("field-not-object", "a field must be a JSON object", _ps(0, 1)),  # type: ignore[arg-type]
        ("missing-name", "a field needs name", _ps(0, {"source-id": 1, "field-id": 1000, "transform": "identity"})),
        (
            "name-not-string",
            "name must be a JSON string",
            _ps(0, {"source-id": 1, "field-id": 1000, "name": 7, "transform": "identity"}),
        ),
        ("missing-transform", "a field needs transform", _ps(0, {"source-id": 1, "field-id": 1000, "name": "x"})),
        (
            "transform-not-string",
            "transform must be a JSON string",
            _ps(0, {"source-id": 1, "field-id": 1000, "name": "x", "transform": 1}),
        ),
        ("field-id-string", "field-id must be a JSON int", _ps(0, _pf(1, "1000", "x", "identity"))),  # type: ignore[arg-type]
        ("source-id-string", "source-id must be a JSON int", _ps(0, _pf("4", 1000, "x", "identity"))),
        (
            "source-id-null",
            "source-id must be a JSON int, not null",
            _ps(0, {"source-id": None, "field-id": 1000, "name": "x", "transform": "identity"}),
        ),
        (
            "source-id-fraction",
            "source-id must be a JSON int: 4.5 is rejected",
            _ps(0, _pf(4.5, 1000, "ts_day", "day")),
        ),
    ]
    for slug, description, doc in bad:
        yield _parse(j, slug, description, doc, 2)
    yield _parse(j, "source-ids-empty", "source-ids must not be empty", _ps(0, _pf([], 1000, "x", "identity")), 3)
    yield _parse(
        j,
        "source-ids-not-list",
        "source-ids must be a JSON list",
        _ps(0, {"source-ids": 4, "field-id": 1000, "name": "x", "transform": "identity"}),
        3,
    )
    yield _parse(
        j,
        "source-ids-bool",
        "source-ids holds ints: true is not an int",
        _ps(0, _pf([1, True], 1000, "x", "zorder")),
        3,
    )
    yield _parse(
        j,
        "source-ids-string-element",
        "source-ids holds ints, not strings",
        _ps(0, _pf(["4"], 1000, "x", "identity")),
        3,
    )


# --- source-id / source-ids per format version and revision ------------------------------------


def _source_keys():
    sid, sids, agree = "partition-spec.source-id", "partition-spec.source-ids", "partition-spec.source-ids.agree"
    for fv in (1, 2):
        yield _parse(
            sid,
            f"v{fv}-source-ids-only",
            f"v{fv} requires source-id: a field with only source-ids [4] is rejected",
            _ps(0, _pf([4], 1000, "ts_day", "day")),
            fv,
        )
        yield _parse(
            sid,
            f"v{fv}-no-source",
            f"v{fv}: a field with neither source-id nor source-ids is rejected",
            _ps(0, _pf(None, 1000, "ts_day", "day")),
            fv,
        )
        yield _parse(
            sid,
            f"v{fv}-both-agreeing",
            f"v{fv}: source-ids [4] next to source-id 4 is tolerated; "
            "a single-argument field is written with source-id only",
            _ps(0, _pf(4, 1000, "ts_day", "day", ids=True)),
            fv,
        )
        yield _parse(
            sid,
            f"v{fv}-multi-argument",
            f"v{fv} multi-argument field (source-id 1, source-ids [1, 2], unknown transform zorder): the seed "
            "writes both keys; the adopted spec writes no source-ids in v1/v2, so there is no form to write it",
            _ps(0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
            fv,
        )

    yield _parse(
        sids,
        "v3-appendix-c-example",
        "the Appendix C example (source-id only) read as v3: the seed requires source-ids; "
        "the adopted spec reads source-id and writes it back",
        APPENDIX_C_SPEC,
        3,
    )
    yield _parse(
        sids,
        "v3-source-ids-single",
        "v3 single-argument fields given as source-ids [4] and [1]: the seed writes source-ids; "
        "the adopted spec reads the seed-era form and writes source-id",
        _ps(0, _pf([4], 1000, "ts_day", "day"), _pf([1], 1001, "id_bucket", "bucket[16]")),
        3,
    )
    yield _parse(
        sids,
        "v3-both-agreeing",
        "v3 source-id 4 with source-ids [4]: the seed writes only source-ids, the adopted spec only source-id",
        _ps(0, _pf(4, 1000, "ts_day", "day", ids=True)),
        3,
    )
    yield _parse(
        sids,
        "v3-multi-argument",
        "v3 multi-argument field (source-ids [1, 2], unknown transform zorder): "
        "written as source-ids in both revisions",
        _ps(0, _pf([1, 2], 1000, "z", "zorder")),
        3,
    )
    yield _parse(
        sids,
        "v3-multi-argument-with-source-id",
        "v3 multi-argument field with source-id 1 and source-ids [1, 2]: read, written back as source-ids only",
        _ps(0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        3,
    )
    yield _parse(
        sids,
        "v3-no-source",
        "v3: a field with neither source-id nor source-ids is rejected",
        _ps(0, _pf(None, 1000, "ts_day", "day")),
        3,
    )

    yield _parse(
        agree,
        "v2-first-differs",
        "v2: source-id 2 is not the first element of source-ids [1, 2]",
        _ps(0, {"source-id": 2, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        2,
    )
    yield _parse(
        agree,
        "v1-single-differs",
        "v1: source-id 4 next to source-ids [1]",
        _ps(0, {"source-id": 4, "source-ids": [1], "field-id": 1000, "name": "ts_day", "transform": "day"}),
        1,
    )
    yield _parse(
        agree,
        "v3-single-differs",
        "v3: source-id 5 next to source-ids [4]",
        _ps(0, {"source-id": 5, "source-ids": [4], "field-id": 1000, "name": "ts_day", "transform": "day"}),
        3,
    )
    yield _parse(
        agree,
        "v3-last-not-first",
        "v3: source-id 2 is in source-ids [1, 2] but not its first element",
        _ps(0, {"source-id": 2, "source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}),
        3,
    )


# --- partition field ids -----------------------------------------------------------------------


def _field_ids():
    req, v1, uniq = (
        "partition-spec.field-id.required",
        "partition-spec.field-id.v1-assignment",
        "partition-spec.field-id.unique",
    )
    no_ids = _ps(0, _pf(4, None, "ts_day", "day"), _pf(1, None, "id_bucket", "bucket[16]"))
    yield _parse(req, "v2-missing", "v2: the Appendix C example without field-id is rejected", no_ids, 2)
    yield _parse(
        req,
        "v3-missing",
        "v3: the Appendix C example without field-id (sources in both keys, read by both revisions) is rejected",
        _ps(0, _pf(4, None, "ts_day", "day", ids=True), _pf(1, None, "id_bucket", "bucket[16]", ids=True)),
        3,
    )
    yield _parse(
        req,
        "v2-one-missing",
        "v2: the second field lacks field-id while the first has it",
        _ps(0, _pf(4, 1000, "ts_day", "day"), _pf(1, None, "id_bucket", "bucket[16]")),
        2,
    )

    yield _parse(
        v1,
        "appendix-c-without-ids",
        "v1: the Appendix C example without field-id gets 1000 and 1001 in field order",
        no_ids,
        1,
    )
    yield _parse(
        v1,
        "positional-not-by-source",
        "v1: ids follow the field order, not the source ids: bucket(id) first gets 1000",
        _ps(0, _pf(1, None, "id_bucket", "bucket[16]"), _pf(4, None, "ts_day", "day")),
        1,
    )
    yield _parse(
        v1,
        "missing-id-is-position",
        "v1: a missing field-id is 1000 + position even when another field carries one "
        "(the second field keeps 1005, the first gets 1000)",
        _ps(0, _pf(4, None, "ts_day", "day"), _pf(1, 1005, "id_bucket", "bucket[16]")),
        1,
    )
    yield _parse(
        v1,
        "second-missing",
        "v1: the first field carries 1000, the missing second id is 1001",
        _ps(0, _pf(4, 1000, "ts_day", "day"), _pf(1, None, "id_bucket", "bucket[16]")),
        1,
    )
    yield _parse(
        v1,
        "later-spec-restarts",
        "v1: the ids of every spec start at 1000, whatever its spec-id (spec 3 here)",
        _ps(3, _pf(2, None, "data", "identity")),
        1,
    )
    yield _assign(
        v1,
        "assign-v1-positional",
        "assigning ids to a new v1 spec: 1000 + position, no reuse of the previous spec's ids "
        "(identity(data) had 1001 in spec 0 and gets 1000 at position 0); last-partition-id stays 1001",
        _ps(1, _pf(2, None, "data", "identity"), _pf(3, None, "category", "identity")),
        [_ps(0, _pf(1, 1000, "id", "identity"), _pf(2, 1001, "data", "identity"))],
        1001,
        1,
    )

    yield _parse(
        uniq,
        "duplicate-v2",
        "v2: two fields of one spec with field-id 1000",
        _ps(0, _pf(4, 1000, "ts_day", "day"), _pf(1, 1000, "id_bucket", "bucket[16]")),
        2,
        schema=True,
    )
    yield _parse(
        uniq,
        "duplicate-v1-explicit",
        "v1: explicit field ids 1000 twice",
        _ps(0, _pf(4, 1000, "ts_day", "day"), _pf(1, 1000, "id_bucket", "bucket[16]")),
        1,
        schema=True,
    )
    yield _parse(
        uniq,
        "distinct-not-sequential",
        "field ids need be unique, not sequential nor from 1000: 7 and 3",
        _ps(0, _pf(4, 7, "ts_day", "day"), _pf(1, 3, "id_bucket", "bucket[16]")),
        2,
        schema=True,
    )

    last, reuse, table = (
        "partition-spec.field-id.last-partition-id",
        "partition-spec.field-id.reuse",
        "partition-spec.field-id.table-unique",
    )
    s0 = APPENDIX_C_SPEC
    s0_v3 = _ps(0, _pf(4, 1000, "ts_day", "day", ids=True), _pf(1, 1001, "id_bucket", "bucket[16]", ids=True))
    both = "Sources are given as source-id and source-ids, which every version and revision reads."
    yield _assign(
        last,
        "first-spec",
        "v2: the first spec of a table (no last-partition-id yet) gets ids from 1000",
        _ps(0, _pf(4, None, "ts_day", "day"), _pf(1, None, "id_bucket", "bucket[16]")),
        [],
        None,
        2,
    )
    yield _assign(
        last,
        "after-last-partition-id",
        "v2: new ids continue from last-partition-id 1005, not from the highest id of the existing specs (1001)",
        _ps(1, _pf(2, None, "data", "identity"), _pf(3, None, "category", "identity")),
        [s0],
        1005,
        2,
    )
    yield _assign(
        last,
        "v3-after-last",
        "v3: one new field after last-partition-id 1001 gets 1002",
        _ps(1, _pf(2, None, "data", "identity", ids=True)),
        [s0_v3],
        1001,
        3,
        note=both,
    )
    yield _assign(
        last,
        "kept-ids-raise-last",
        "v2: a new spec's field that already carries id 1010 raises last-partition-id "
        "to 1010; the field without an id gets 1002",
        _ps(1, _pf(2, 1010, "data", "identity"), _pf(3, None, "category", "identity")),
        [s0],
        1001,
        2,
    )

    yield _assign(
        reuse,
        "rename-keeps-id",
        "v2: bucket[16](id) renamed to bucket_id keeps id 1001 (same source and transform); "
        "identity(data) is new: 1002",
        _ps(1, _pf(1, None, "bucket_id", "bucket[16]"), _pf(2, None, "data", "identity")),
        [s0],
        1001,
        2,
    )
    yield _assign(
        reuse,
        "other-parameter-new-id",
        "v2: bucket[8](id) is not bucket[16](id): a new id 1002; day(ts) reuses 1000",
        _ps(1, _pf(4, None, "ts_day", "day"), _pf(1, None, "id_bucket8", "bucket[8]")),
        [s0],
        1001,
        2,
    )
    yield _assign(
        reuse,
        "other-source-new-id",
        "v2: bucket[16] of category (source 3) is not bucket[16](id): a new id 1002",
        _ps(1, _pf(3, None, "id_bucket", "bucket[16]")),
        [s0],
        1001,
        2,
    )
    yield _assign(
        reuse,
        "readded-from-older-spec",
        "v3: bucket[16](id) was dropped in spec 1 and is added back: it gets its id 1001 "
        "of spec 0 and day(ts) keeps 1000 at its new position",
        _ps(2, _pf(1, None, "id_bucket", "bucket[16]", ids=True), _pf(4, None, "ts_day", "day", ids=True)),
        [s0_v3, _ps(1, _pf(4, 1000, "ts_day", "day", ids=True))],
        1001,
        3,
        note=both,
    )
    yield _assign(
        table,
        "no-positional-ids-in-v2",
        "v2: identity(data) at position 0 must not take id 1000, which names day(ts) in spec 0: it gets 1002",
        _ps(1, _pf(2, None, "data", "identity")),
        [s0],
        1001,
        2,
    )
    yield _ptype(
        table,
        "void-replacement-shares-id",
        "one id may name a field and its void replacement (a v1 drop kept after "
        "an upgrade): the unified type keeps the transform's type int and the latest name",
        [_ps(0, _pf([1], 1000, "id_bucket", "bucket[16]")), _ps(1, _pf([1], 1000, "id_bucket_dropped", "void"))],
        note="Spec gap: the type of a field replaced by void is not stated; the reference keeps the non-void field's "
        "type.",
    )


# --- sources against the schema ----------------------------------------------------------------


def _sources():
    exists, prim, nest, arity = (
        "partition-spec.source.exists",
        "partition-spec.source.primitive",
        "partition-spec.source.nesting",
        "partition-spec.transform.arity",
    )
    yield _parse(
        exists, "unknown-source", "source-id 99 names no column", _ps(0, _pf(99, 1000, "x", "identity")), 2, schema=True
    )
    yield _parse(
        exists,
        "multi-argument-one-unknown",
        "v3: every source of a multi-argument field must exist: [1, 99]",
        _ps(0, _pf([1, 99], 1000, "z", "zorder")),
        3,
        schema=True,
    )
    yield _parse(
        exists,
        "nested-in-struct",
        "a source nested in a struct is allowed: identity(loc.lat), month(loc.day)",
        _ps(0, _pf(6, 1000, "lat", "identity"), _pf(7, 1001, "day_month", "month")),
        2,
        schema=True,
    )
    yield _parse(
        exists,
        "unknown-transform-multi-source",
        "v3 readers tolerate an unknown transform over existing sources [1, 2, 3]",
        _ps(0, _pf([1, 2, 3], 1000, "z", "zorder")),
        3,
        schema=True,
    )
    yield _parse(
        prim,
        "struct-source",
        "identity of the struct column loc is rejected",
        _ps(0, _pf(5, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        prim,
        "void-of-struct",
        "even void needs a primitive source: void(loc) is rejected",
        _ps(0, _pf(5, 1000, "x", "void")),
        2,
        schema=True,
    )
    yield _parse(
        prim,
        "list-source",
        "identity of the list column tags is rejected",
        _ps(0, _pf(8, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        prim,
        "map-source",
        "identity of the map column props is rejected",
        _ps(0, _pf(10, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        prim,
        "variant-source",
        "v3: a variant column is not primitive: void(v) is rejected",
        _ps(0, _pf([13], 1000, "x", "void")),
        3,
        schema=True,
    )
    yield _parse(
        nest,
        "list-element",
        "the element of the list tags is inside a list",
        _ps(0, _pf(9, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        nest,
        "map-key",
        "the key of the map props is inside a map",
        _ps(0, _pf(11, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        nest,
        "map-value",
        "the value of the map props is inside a map",
        _ps(0, _pf(12, 1000, "x", "bucket[4]")),
        2,
        schema=True,
    )
    yield _parse(
        nest,
        "struct-in-list",
        "x of the structs in the list points: inside a list, although its parent is a struct",
        _ps(0, _pf(17, 1000, "x", "identity")),
        2,
        schema=True,
    )
    yield _parse(
        arity,
        "identity-two-sources",
        "v3: identity takes one source, not source-ids [1, 2]",
        _ps(0, _pf([1, 2], 1000, "x", "identity")),
        3,
        schema=True,
    )
    yield _parse(
        arity,
        "bucket-two-sources-v2",
        "v2 (seed form): bucket[16] with source-id 1 and source-ids [1, 2] takes one source",
        _ps(0, {"source-id": 1, "source-ids": [1, 2], "field-id": 1000, "name": "x", "transform": "bucket[16]"}),
        2,
        schema=True,
    )
    st = "transform.source-type"
    yield _parse(
        st,
        "partition-bucket-of-float",
        "bucket does not accept the float column price",
        _ps(0, _pf(14, 1000, "x", "bucket[4]")),
        2,
        schema=True,
    )
    yield _parse(
        st,
        "partition-hour-of-date",
        "hour does not accept a date (loc.day)",
        _ps(0, _pf(7, 1000, "x", "hour")),
        2,
        schema=True,
    )


# --- writers and v1 evolution ------------------------------------------------------------------


def _writers_and_evolution():
    uw = "partition-spec.transform.unknown-writer"
    yield _findings(uw, "appendix-c-clean", "the Appendix C example: nothing a writer must avoid", APPENDIX_C_SPEC, 2)
    yield _findings(
        uw,
        "zorder-flagged",
        "v3: a spec with the unknown transform zorder must not be written with",
        _ps(1, _pf([4], 1000, "ts_day", "day"), _pf([1, 2], 1001, "z", "zorder")),
        3,
    )
    yield _findings(
        uw,
        "unknown-v2",
        "v2: an unknown single-argument transform custom[3] is flagged too",
        _ps(1, _pf(2, 1000, "c", "custom[3]")),
        2,
    )
    yield _findings(uw, "void-is-known", "void is a known transform: not flagged", _ps(1, _pf(2, 1000, "c", "void")), 2)

    reorder, drop, append = (
        "partition-spec.v1-evolution.reorder",
        "partition-spec.v1-evolution.drop",
        "partition-spec.v1-evolution.append",
    )
    old = _ps(0, _pf(1, 1000, "a", "identity"), _pf(2, 1001, "b", "bucket[4]"))
    a, b = old["fields"]
    c = _pf(3, 1002, "c", "identity")
    yield _findings(
        drop,
        "recommended-evolution",
        "v1: rename a, replace b's transform with void, add c at the end: no recommendation broken",
        _ps(1, _pf(1, 1000, "a2", "identity"), _pf(2, 1001, "b", "void"), c),
        1,
        old,
    )
    yield _findings(drop, "dropped", "v1: b is dropped instead of being replaced by void", _ps(1, a), 1, old)
    yield _findings(
        drop,
        "transform-changed",
        "v1: bucket[4](b) replaced by bucket[8](b) in place: the old field is dropped (only void replaces it) "
        "and a new field is added before the end",
        _ps(1, a, _pf(2, 1001, "b", "bucket[8]")),
        1,
        old,
    )
    yield _findings(
        reorder,
        "swapped",
        "v1: a and b swap places",
        _ps(1, _pf(2, 1000, "b", "bucket[4]"), _pf(1, 1001, "a", "identity")),
        1,
        old,
    )
    yield _findings(
        append,
        "inserted-in-the-middle",
        "v1: c is inserted between a and b: added before the end and b moves",
        _ps(1, a, _pf(3, 1001, "c", "identity"), _pf(2, 1002, "b", "bucket[4]")),
        1,
        old,
    )
    yield _findings(
        append,
        "added-first",
        "v1: c is added in front, shifting a and b",
        _ps(1, _pf(3, 1000, "c", "identity"), _pf(1, 1001, "a", "identity"), _pf(2, 1002, "b", "bucket[4]")),
        1,
        old,
    )
    yield _findings(
        append,
        "from-unpartitioned",
        "v1: partitioning an unpartitioned table appends to an empty spec: nothing broken",
        _ps(1, a),
        1,
        _ps(0),
    )


# --- partition types ---------------------------------------------------------------------------


def _partition_types():
    pt, uni = "partition-spec.partition-type", "partition-statistics.unified-type"
    example = _ps(0, _pf([4], 1000, "ts_day", "day"), _pf([1], 1001, "id_bucket", "bucket[16]"))
    note = "The specs are given with source-ids, which both revisions read in v3."
    yield _ptype(
        pt,
        "appendix-c-example",
        "the partition tuple of the Appendix C example: optional fields 1000 ts_day "
        "and 1001 id_bucket (int); day's result is int in the seed text and date in the adopted spec",
        [example],
        note=note,
    )
    yield _ptype(
        pt,
        "transform-result-types",
        "identity keeps the source type (timestamp, nested double), year/month/hour/bucket give int, "
        "truncate keeps string, void keeps the source type long",
        [
            _ps(
                0,
                _pf([4], 1000, "ts", "identity"),
                _pf([6], 1001, "lat", "identity"),
                _pf([4], 1002, "ts_year", "year"),
                _pf([4], 1003, "ts_month", "month"),
                _pf([4], 1004, "ts_hour", "hour"),
                _pf([2], 1005, "data_trunc", "truncate[4]"),
                _pf([1], 1006, "id_void", "void"),
            )
        ],
        note=note,
    )
    yield _ptype(
        pt,
        "required-source-optional-field",
        "partition fields are optional even when the source column id is required",
        [_ps(0, _pf([1], 1000, "id", "identity"))],
        note=note,
    )
    yield _ptype(
        pt,
        "ids-not-sorted",
        "a single spec's partition type keeps the field order, not sorted by id",
        [_ps(0, _pf([2], 1001, "data", "identity"), _pf([1], 1000, "id", "identity"))],
        note=note,
    )
    yield _ptype(pt, "unpartitioned", "the unpartitioned spec has an empty partition struct", [_ps(0)])
    yield _ptype(
        "transform.unknown",
        "partition-type-of-zorder",
        "the result type of an unknown transform is not known",
        [_ps(0, _pf([1, 2], 1000, "z", "zorder"))],
        note=note,
    )

    f1, f2, f3 = _pf([1], 1, "f1", "bucket[4]"), _pf([2], 2, "f2", "identity"), _pf([3], 3, "f3", "identity")
    yield _ptype(
        uni,
        "spec-example-1",
        "Partition Statistics example 1: spec#0 {field#1, field#2}, spec#1 {field#1, field#2, field#3} "
        "give struct<1, 2, 3>",
        [_ps(0, f1, f2), _ps(1, f1, f2, f3)],
        note=note,
    )
    yield _ptype(
        uni,
        "spec-example-2",
        "Partition Statistics example 2: spec#0 {field#1, field#2}, spec#1 {field#2} give struct<1, 2>",
        [_ps(0, f1, f2), _ps(1, f2)],
        note=note,
    )
    yield _ptype(
        uni,
        "sorted-by-field-id",
        "fields sorted by field id ascending, whatever the spec and field order",
        [_ps(1, f3, f1), _ps(0, f2)],
        note=note,
    )
    yield _ptype(
        uni,
        "latest-name",
        "a renamed field appears once, with the name of the most recent spec (highest spec-id)",
        [_ps(1, _pf([1], 1000, "id_bucket", "bucket[4]")), _ps(0, _pf([1], 1000, "id_b", "bucket[4]"))],
        note=note + " Spec gap: the spec does not say which name a renamed field has in the unified type; "
        "the reference takes the most recent spec's.",
    )
    yield _ptype(
        uni,
        "conflicting-id",
        "id 1000 names bucket[4](id) in spec 0 and identity(data) in spec 1: incompatible",
        [_ps(0, _pf([1], 1000, "id_b", "bucket[4]")), _ps(1, _pf([2], 1000, "data", "identity"))],
        note=note,
    )
    yield _ptype(
        uni,
        "conflicting-transform",
        "id 1000 names bucket[4](id) and bucket[8](id): incompatible types of data",
        [_ps(0, _pf([1], 1000, "id_b", "bucket[4]")), _ps(1, _pf([1], 1000, "id_b", "bucket[8]"))],
        note=note,
    )


# --- partition values --------------------------------------------------------------------------

_PTYPE = {
    "type": "struct",
    "fields": [
        {"id": 1000, "name": "d", "required": False, "type": "double"},
        {"id": 1001, "name": "f", "required": False, "type": "float"},
        {"id": 1002, "name": "s", "required": False, "type": "string"},
    ],
}


def _partition_values():
    eq = "partition-values.equality"

    def pv(slug: str, description: str, a: dict, b: dict, t: dict = _PTYPE):
        return case(eq, slug, description, "partition-values-equal", a=a, b=b, type=copy.deepcopy(t))

    yield pv(
        "same-values",
        "the same doubles, floats and strings are equal",
        {"1000": 1.5, "1001": 2.5, "1002": "a"},
        {"1000": 1.5, "1001": 2.5, "1002": "a"},
    )
    yield pv(
        "double-zero-signs",
        "double 0.0 and -0.0 differ: their bits differ",
        {"1000": 0.0, "1001": 1.0, "1002": "a"},
        {"1000": -0.0, "1001": 1.0, "1002": "a"},
    )
    yield pv(
        "float-zero-signs",
        "float 0.0 and -0.0 differ",
        {"1000": 1.0, "1001": 0.0, "1002": "a"},
        {"1000": 1.0, "1001": -0.0, "1002": "a"},
    )
    yield pv(
        "nan-canonical-double",
        "a double NaN equals another NaN of other sign and payload: NaNs are normalized (doubleToLongBits)",
        {"1000": _d("7ff8000000000000")},
        {"1000": _d("fff8000000000001")},
    )
    yield pv(
        "nan-canonical-float",
        "a float NaN equals another NaN of other payload: floatToIntBits",
        {"1001": _d("7fc00000")},
        {"1001": _d("7f800001")},
    )
    yield pv(
        "nan-not-infinity", "a NaN is not infinity", {"1000": _d("7ff8000000000000")}, {"1000": _d("7ff0000000000000")}
    )
    yield pv("null-vs-zero", "null is not 0.0", {"1000": None, "1001": 1.0}, {"1000": 0.0, "1001": 1.0})
    yield pv(
        "nulls-equal", "two null values are equal (an absent key is null)", {"1000": None, "1002": "a"}, {"1002": "a"}
    )
    yield pv("other-string", "one differing field makes the tuples differ", {"1002": "a"}, {"1002": "b"})
    dec = {
        "type": "struct",
        "fields": [
            {"id": 1000, "name": "p", "required": False, "type": "decimal(9,2)"},
            {"id": 1001, "name": "u", "required": False, "type": "uuid"},
        ],
    }
    yield pv(
        "decimal-and-uuid",
        "decimals and uuids compare by value: 14.20 and the same uuid",
        {"1000": "14.20", "1001": "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
        {"1000": "14.20", "1001": "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
        dec,
    )


# --- sort order JSON and rules -----------------------------------------------------------------


def _sort_order_json():
    j = "sort-order.json"
    for fv in (1, 2):
        yield _order(
            j,
            f"appendix-c-example-v{fv}",
            f"the Appendix C sort order example read as v{fv}: written back unchanged",
            APPENDIX_C_ORDER,
            fv,
        )
    yield _order(
        j,
        "appendix-c-example-v2-schema",
        "the Appendix C sort order checked against a schema (data and category are strings)",
        APPENDIX_C_ORDER,
        2,
        schema=True,
    )
    bad = [
        ("not-an-object", "a sort order must be a JSON object, not a field list", APPENDIX_C_ORDER["fields"]),
        ("missing-order-id", "order-id is required", {"fields": []}),
        ("order-id-string", "order-id must be a JSON int", {"order-id": "1", "fields": []}),
        ("missing-fields", "fields is required", {"order-id": 1}),
        ("fields-object", "fields must be a JSON list", {"order-id": 1, "fields": {}}),
        ("field-not-object", "a sort field must be a JSON object", {"order-id": 1, "fields": ["identity"]}),
        (
            "missing-transform",
            "a sort field needs transform",
            _so(1, {"source-id": 2, "direction": "asc", "null-order": "nulls-last"}),
        ),
        ("transform-not-string", "transform must be a JSON string", _so(1, _sf(2, 1))),  # type: ignore[arg-type]
        (
            "missing-direction",
            "a sort field needs direction",
            _so(1, {"transform": "identity", "source-id": 2, "null-order": "nulls-last"}),
        ),
        (
            "missing-null-order",
            "a sort field needs null-order",
            _so(1, {"transform": "identity", "source-id": 2, "direction": "asc"}),
        ),
        ("source-id-string", "source-id must be a JSON int", _so(1, _sf("2"))),
    ]
    for slug, description, doc in bad:
        yield _order(j, slug, description, doc, 2)
    yield _order(
        j,
        "source-ids-string",
        "v3: source-ids must be a JSON list",
        _so(1, {"transform": "identity", "source-ids": "2", "direction": "asc", "null-order": "nulls-last"}),
        3,
    )
    yield _order(j, "source-ids-empty", "v3: source-ids must not be empty", _so(1, _sf([])), 3)

    sid, sids, agree = "sort-order.source-id", "sort-order.source-ids", "sort-order.source-ids.agree"
    for fv in (1, 2):
        yield _order(
            sid,
            f"v{fv}-source-ids-only",
            f"v{fv} sort fields require source-id: source-ids [2] alone is rejected",
            _so(1, _sf([2])),
            fv,
        )
        yield _order(
            sid, f"v{fv}-no-source", f"v{fv}: a sort field without source-id is rejected", _so(1, _sf(None)), fv
        )
    yield _order(
        sid,
        "v2-multi-argument",
        "v2 multi-argument sort field (source-id 2, source-ids [2, 3], zorder): the seed writes both "
        "keys; the adopted spec has no v2 form for it",
        _so(
            1,
            {
                "transform": "zorder",
                "source-id": 2,
                "source-ids": [2, 3],
                "direction": "asc",
                "null-order": "nulls-first",
            },
        ),
        2,
    )
    yield _order(
        sid,
        "v2-both-agreeing",
        "v2: source-ids [2] next to source-id 2 is tolerated and written as source-id",
        _so(
            1,
            {
                "transform": "identity",
                "source-id": 2,
                "source-ids": [2],
                "direction": "desc",
                "null-order": "nulls-last",
            },
        ),
        2,
    )
    yield _order(
        sids,
        "v3-appendix-c-example",
        "the Appendix C sort order (source-id only) as v3: the seed requires source-ids, "
        "the adopted spec reads and writes source-id",
        APPENDIX_C_ORDER,
        3,
    )
    yield _order(
        sids,
        "v3-source-ids-single",
        "v3 source-ids [2] and [3]: the seed writes source-ids, the adopted spec source-id",
        _so(1, _sf([2]), _sf([3], "bucket[4]", "desc", "nulls-last")),
        3,
    )
    yield _order(
        sids,
        "v3-multi-argument",
        "v3 multi-argument sort field source-ids [2, 3] (zorder): source-ids in both revisions",
        _so(1, _sf([2, 3], "zorder", "desc", "nulls-last")),
        3,
    )
    yield _order(
        sids, "v3-no-source", "v3: a sort field with neither source-id nor source-ids is rejected", _so(1, _sf(None)), 3
    )
    yield _order(
        agree,
        "v3-first-differs",
        "v3: source-id 3 is not the first element of source-ids [2, 3]",
        _so(
            1,
            {
                "transform": "zorder",
                "source-id": 3,
                "source-ids": [2, 3],
                "direction": "asc",
                "null-order": "nulls-first",
            },
        ),
        3,
    )
    yield _order(
        agree,
        "v2-first-differs",
        "v2: source-id 3 next to source-ids [2]",
        _so(
            1,
            {
                "transform": "identity",
                "source-id": 3,
                "source-ids": [2],
                "direction": "asc",
                "null-order": "nulls-first",
            },
        ),
        2,
    )


def _sort_order_rules():
    uns, dr, no = "sort-order.order-id.unsorted", "sort-order.direction", "sort-order.null-order"
    yield _order(uns, "unsorted", "the unsorted order: id 0 without fields", _so(0), 2, schema=True)
    yield _order(
        uns,
        "zero-with-fields",
        "order id 0 is reserved for the unsorted order: it cannot have fields",
        {"order-id": 0, "fields": APPENDIX_C_ORDER["fields"]},
        2,
    )
    yield _order(
        uns,
        "fields-empty-nonzero",
        "an order without fields is the unsorted order and must have id 0, not 3",
        _so(3),
        2,
        note="The spec says only that id 0 is reserved; the converse follows from it and Iceberg Java enforces it.",
    )
    for slug, value in (
        ("uppercase-asc", "ASC"),
        ("ascending", "ascending"),
        ("descending", "descending"),
        ("empty", ""),
        ("null", None),
    ):
        yield _order(
            dr,
            slug,
            f"direction must be exactly asc or desc, not {value!r}",
            _so(1, {"transform": "identity", "source-id": 2, "direction": value, "null-order": "nulls-first"}),
            2,
        )
    yield _order(
        dr, "desc-valid", "desc with nulls-first is valid", _so(1, _sf(2, "identity", "desc", "nulls-first")), 2
    )
    for slug, value in (
        ("uppercase-underscore", "NULLS_FIRST"),
        ("first", "first"),
        ("underscore", "nulls_last"),
        ("nulls-none", "nulls-none"),
        ("null", None),
    ):
        yield _order(
            no,
            slug,
            f"null-order must be exactly nulls-first or nulls-last, not {value!r}",
            _so(1, {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": value}),
            2,
        )
    yield _sort(dr, "sort-values-bad-direction", "sorting with direction ASC is rejected", "long", [1, 2], "ASC")
    yield _sort(
        no, "sort-values-bad-null-order", "sorting with null-order first is rejected", "long", [1, None], "asc", "first"
    )

    ex, ar = "sort-order.source.exists", "sort-order.transform.arity"
    yield _order(ex, "unknown-source", "source-id 99 names no column", _so(1, _sf(99)), 2, schema=True)
    yield _order(
        ex,
        "multi-argument-one-unknown",
        "v3: every source of a multi-argument sort field must exist: [1, 99]",
        _so(1, _sf([1, 99], "zorder")),
        3,
        schema=True,
    )
    yield _order(
        ex,
        "nested-and-list-sources",
        "sort sources nested in a struct (loc.lat) or a list element (tags) are accepted: "
        "unlike partition sources, the spec does not restrict them",
        _so(1, _sf(6, "identity", "desc"), _sf(9, "truncate[2]")),
        2,
        schema=True,
        note="Spec gap: the reference accepts any existing source that the transform accepts.",
    )
    yield _order(
        ex,
        "unknown-transform-tolerated",
        "v3: an unknown transform over existing sources [1, 2] is read",
        _so(1, _sf([1, 2], "zorder")),
        3,
        schema=True,
    )
    yield _order(
        ar,
        "identity-two-sources",
        "v3: identity takes one source, not source-ids [1, 2]",
        _so(1, _sf([1, 2])),
        3,
        schema=True,
    )
    st = "transform.source-type"
    yield _order(
        st,
        "sort-bucket-of-double",
        "bucket does not accept the double column loc.lat",
        _so(1, _sf(6, "bucket[4]")),
        2,
        schema=True,
    )
    yield _order(
        st, "sort-identity-of-struct", "identity does not accept the struct column loc", _so(1, _sf(5)), 2, schema=True
    )


# --- sorting values ----------------------------------------------------------------------------


def _sort_values():
    fo, ro = "sort-order.float-order", "sort-order.record-order"
    neg_nan, nan = _d("fff8000000000000"), _d("7ff8000000000000")
    ninf, inf = _d("fff0000000000000"), _d("7ff0000000000000")
    yield _sort(
        fo,
        "double-chain",
        "the spec's chain for doubles, given shuffled: -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN",
        "double",
        [1.0, nan, -0.0, ninf, 0.0, -1e300, inf, neg_nan, -1.0, 5e-324, 1e300, -5e-324],
        note="The sign of a NaN comes from its bits: a negative NaN sorts first, as the chain says. Java's "
        "Double.compare treats every NaN as the positive NaN and would put it last.",
    )
    yield _sort(
        fo,
        "float-chain",
        "the chain for floats: -NaN < -Infinity < -1.5 < -0 < 0 < 1.5 < Infinity < NaN",
        "float",
        [_d("7fc00000"), 1.5, 0.0, _d("ff800000"), -0.0, _d("ffc00000"), _d("7f800000"), -1.5],
        note="The sign of a NaN comes from its bits.",
    )
    yield _sort(fo, "zeros", "-0 sorts before 0 although they are equal numbers", "double", [0.0, -0.0, 0.0, -0.0])
    yield _sort(
        fo,
        "nan-with-payload",
        "NaNs of any payload are NaNs: a positive NaN with payload after Infinity, a negative one before -Infinity",
        "double",
        [_d("7ff0000000000001"), inf, ninf, _d("fff0000000000001"), 0.0],
        note="The sign of a NaN comes from its bits; payloads are ignored.",
    )
    yield _sort(
        fo,
        "subnormals-and-extremes",
        "the smallest subnormal and the largest finite values lie between zero and infinity",
        "double",
        [1.7976931348623157e308, 5e-324, -1.7976931348623157e308, -5e-324, inf, 0.0],
    )
    yield _sort(
        fo,
        "double-desc",
        "desc reverses the chain: NaN first, -NaN last",
        "double",
        [-0.0, nan, 1.0, neg_nan, 0.0, ninf],
        "desc",
        note="The sign of a NaN comes from its bits.",
    )
    yield _sort(
        fo,
        "double-nulls-last",
        "nulls are not NaNs: with nulls-last they follow NaN",
        "double",
        [None, nan, -1.0],
        "asc",
        "nulls-last",
    )

    for direction in ("asc", "desc"):
        for null_order in ("nulls-first", "nulls-last"):
            yield _sort(
                ro,
                f"string-{direction}-{null_order}",
                f"strings {direction} {null_order}: nulls go {null_order[6:]} whatever the direction",
                "string",
                ["b", None, "c", "a", None],
                direction,
                null_order,
            )
    yield _sort(
        ro, "default-asc-nulls-first", "without direction and null-order: asc, nulls first", "long", [3, None, -2, 10]
    )
    yield _sort(
        ro, "long-extremes", "longs sort as signed numbers", "long", [9223372036854775807, -9223372036854775808, 0, -1]
    )
    yield _sort(
        ro,
        "decimal-by-value",
        "decimals sort by value, not by their text",
        "decimal(5,2)",
        ["1.10", "-2.00", "10.00", "9.99"],
    )
    yield _sort(
        ro,
        "date",
        "dates sort in time order, including before 1970",
        "date",
        ["2017-11-16", "1969-12-31", "1970-01-01"],
    )
    yield _sort(
        ro,
        "boolean",
        "false sorts before true",
        "boolean",
        [True, False, None],
        note="Spec gap: the natural order of booleans.",
    )
    yield _sort(
        ro,
        "string-code-points",
        "strings sort by code point (= by UTF-8 bytes): U+FFFF before U+1F600, which UTF-16 units would put first",
        "string",
        ["\U0001f600", "\uffff", "a", "Z", ""],
        note="Spec gap: the spec does not define string order; the reference uses code points.",
    )
    yield _sort(
        ro,
        "binary-unsigned",
        "binary sorts by unsigned bytes: ff after 0102, and a prefix first",
        "binary",
        ["ff", "0102", "01", ""],
        note="Spec gap: the spec does not define binary order; the reference compares unsigned bytes.",
    )
    yield _sort(
        ro,
        "uuid-unsigned",
        "uuids sort as unsigned 128-bit numbers: 80000000-... after 00000000-...-0001",
        "uuid",
        ["80000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"],
        note="Spec gap: Java's UUID.compareTo compares signed halves and would put 80000000-... first.",
    )
