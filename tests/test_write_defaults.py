"""Rules write.default and write.default.required: what a writer writes for a field a write does not
supply (Default values; spec_impl.scan.write_defaults)."""

from __future__ import annotations

import pytest

from spec_impl.errors import InvalidInput
from spec_impl.metadata.schema import parse_schema
from spec_impl.scan.write_defaults import with_write_defaults

SCHEMA = parse_schema(
    {
        "type": "struct",
        "schema-id": 0,
        "fields": [
            {"id": 1, "name": "id", "required": True, "type": "long"},
            {"id": 2, "name": "score", "required": False, "type": "int", "initial-default": 7, "write-default": 7},
            {"id": 3, "name": "note", "required": False, "type": "string"},
            {
                "id": 4,
                "name": "point",
                "required": False,
                "type": {
                    "type": "struct",
                    "fields": [
                        {"id": 5, "name": "x", "required": True, "type": "int", "write-default": 0},
                        {"id": 6, "name": "y", "required": True, "type": "int"},
                    ],
                },
            },
        ],
    },
    3,
)


def test_a_field_not_supplied_takes_its_write_default_and_a_supplied_null_stays():
    assert with_write_defaults(SCHEMA.struct, {1: 1}) == {1: 1, 2: 7, 3: None, 4: None}
    assert with_write_defaults(SCHEMA.struct, {1: 1, 2: None}) == {1: 1, 2: None, 3: None, 4: None}


def test_a_supplied_struct_gets_its_own_fields_defaults():
    assert with_write_defaults(SCHEMA.struct, {1: 1, 4: {6: 2}})[4] == {5: 0, 6: 2}


@pytest.mark.parametrize("record", [{2: 1}, {1: 1, 4: {5: 1}}])
def test_a_required_field_without_write_default_not_supplied_fails_the_write(record):
    with pytest.raises(InvalidInput) as e:
        with_write_defaults(SCHEMA.struct, record)
    assert e.value.rule == "write.default.required"
