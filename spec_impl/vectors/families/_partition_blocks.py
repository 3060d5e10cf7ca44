"""Building blocks of the partitioning family: the table schema of Appendix C's examples, the example
partition spec and sort order, field and spec JSON, and the cases of each op."""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.cases import case


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


def partition_field(source: Any, field_id: int | None, name: str, transform: str, *, ids: bool = False) -> dict:
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


def partition_spec(spec_id: int, *fields: dict) -> dict:
    return {"spec-id": spec_id, "fields": list(fields)}


def sort_field(
    source: Any, transform: str = "identity", direction: str = "asc", null_order: str = "nulls-first"
) -> dict:
    out: dict[str, Any] = {"transform": transform}
    if isinstance(source, list):
        out["source-ids"] = source
    elif source is not None:
        out["source-id"] = source
    out.update({"direction": direction, "null-order": null_order})
    return out


def sort_order(order_id: int, *fields: dict) -> dict:
    return {"order-id": order_id, "fields": list(fields)}


def parse_case(rule_id: str, slug: str, description: str, spec: Any, fv: int, schema: bool = False, **kw):
    inp: dict[str, Any] = {"spec": spec, "format_version": fv}
    if schema:
        inp["schema"] = _schema(fv)
    return case(rule_id, slug, description, "parse-partition-spec", **kw, **inp)


def order_case(rule_id: str, slug: str, description: str, order: Any, fv: int, schema: bool = False, **kw):
    inp: dict[str, Any] = {"order": order, "format_version": fv}
    if schema:
        inp["schema"] = _schema(fv)
    return case(rule_id, slug, description, "parse-sort-order", **kw, **inp)


def assign_case(rule_id: str, slug: str, description: str, spec: dict, existing: list, last: int | None, fv: int, **kw):
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


def findings_case(rule_id: str, slug: str, description: str, spec: dict, fv: int, previous: dict | None = None, **kw):
    inp: dict[str, Any] = {"spec": spec, "format_version": fv}
    if previous is not None:
        inp["previous"] = previous
    return case(rule_id, slug, description, "partition-spec-findings", **kw, **inp)


def ptype_case(rule_id: str, slug: str, description: str, specs: list, **kw):
    return case(rule_id, slug, description, "partition-type", specs=specs, schema=_schema(3), **kw)


def sort_case(
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


def float_bits(bits: str) -> dict:
    return {"ieee754": bits}
