"""Building blocks of the schemas family: struct, list, map and schema JSON, the spec's example schemas
(Appendix C, Column Projection, name mapping) and the case of the project op."""

from __future__ import annotations

from typing import Any

from spec_impl.vectors.cases import case


def f(fid: int, name: str, type_: Any, required: bool = False, **extra: Any) -> dict:
    """A struct field's JSON; `initial=` / `write=` set initial-default / write-default, `doc=` the doc."""
    out: dict[str, Any] = {"id": fid, "name": name, "required": required, "type": type_}
    if "doc" in extra:
        out["doc"] = extra["doc"]
    if "initial" in extra:
        out["initial-default"] = extra["initial"]
    if "write" in extra:
        out["write-default"] = extra["write"]
    return out


def struct(*fields: dict) -> dict:
    return {"type": "struct", "fields": list(fields)}


def lst(element_id: int, element: Any, required: bool = False) -> dict:
    return {"type": "list", "element-id": element_id, "element-required": required, "element": element}


def mp(key_id: int, key: Any, value_id: int, value: Any, value_required: bool = False) -> dict:
    return {
        "type": "map",
        "key-id": key_id,
        "key": key,
        "value-id": value_id,
        "value-required": value_required,
        "value": value,
    }


def sch(*fields: dict, schema_id: int = 0, ids: list[int] | None = None) -> dict:
    out: dict[str, Any] = {"type": "struct", "schema-id": schema_id}
    if ids is not None:
        out["identifier-field-ids"] = ids
    out["fields"] = list(fields)
    return out


# Appendix C, "Schemas": the struct example (a uuid with both defaults, so a v3 schema) completed
# with the list and map examples of the same table (the seed text's example elides them with "...").
APPENDIX_C = sch(
    f(
        1,
        "id",
        "uuid",
        True,
        initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
        write="ec5911be-b0a7-458c-8438-c9a3e53cffae",
    ),
    f(2, "data", lst(3, "string", True)),
    f(4, "m", mp(5, "string", 6, "double")),
    ids=[1],
)

# Column Projection: "a file may be written with schema 1: a int, 2: b string, 3: c double and read
# using projection schema 3: measurement, 2: name, 4: a".
FILE_ABC = sch(f(1, "a", "int"), f(2, "b", "string"), f(3, "c", "double"))
READ_EXAMPLE = sch(f(3, "measurement", "double"), f(2, "name", "string"), f(4, "a", "int"))

# Appendix C, "Name Mapping Serialization", the example, and a table schema it maps to.
MAPPING_EXAMPLE = [
    {"field-id": 1, "names": ["id", "record_id"]},
    {"field-id": 2, "names": ["data"]},
    {
        "field-id": 3,
        "names": ["location"],
        "fields": [{"field-id": 4, "names": ["latitude", "lat"]}, {"field-id": 5, "names": ["longitude", "long"]}],
    },
]
MAPPED_TABLE = sch(
    f(1, "id", "long", True),
    f(2, "data", "string"),
    f(3, "location", struct(f(4, "lat", "double"), f(5, "long", "double"))),
)

# Identifier fields: one candidate of each kind (ids are what the cases name).
IDENT_FIELDS = [
    f(1, "id", "long", True),
    f(2, "score", "double", True),
    f(3, "opt", "string"),
    f(4, "req_struct", struct(f(5, "k", "string", True)), True),
    f(6, "opt_struct", struct(f(7, "k", "string", True))),
    f(8, "l", lst(9, "int", True), True),
    f(10, "m", mp(11, "string", 12, struct(f(13, "v", "int", True)), True), True),
    f(14, "v", "variant", True),
    f(15, "ratio", "float", True),
    f(16, "outer", struct(f(17, "inner", struct(f(18, "k", "int", True)), True))),
    f(19, "ts", "timestamptz", True),
    f(20, "r1", struct(f(21, "r2", struct(f(22, "k", "int", True)), True)), True),
]


def project_case(
    rule_id: str, slug: str, description: str, file_schema: dict | None, read_schema: dict, rows: list, **kw
):
    return case(
        rule_id, slug, description, "project", file_schema=file_schema, read_schema=read_schema, rows=rows, **kw
    )
