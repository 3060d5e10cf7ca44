"""Schemas, schema evolution, column projection and name mapping: Appendix C schemas (ids, identifier
fields, reserved ids, default values), the evolution rules, reading a data file with the table's
schema (by id, defaults, identity-partition values, promotions) and files without ids through a
name mapping. Built by hand from the spec's examples: Appendix C's schema and name mapping, the
Column Projection example, the grouping and map<string, int> examples of Schema Evolution."""

from __future__ import annotations

from spec_impl.vectors.families import _name_mapping, _schema_evolution, _schema_json, _schema_projection

NAME = "schemas"
DESCRIPTION = (
    "Schemas, Schema Evolution, Column Projection, Appendix C: schemas, evolution, projection and name mapping"
)


def specs():
    yield from _schema_evolution.promotion_under_partitions()
    yield from _schema_evolution.last_column_id()
    yield from _schema_json.specs()
    yield from _schema_evolution.specs()
    yield from _schema_projection.specs()
    yield from _name_mapping.specs()
