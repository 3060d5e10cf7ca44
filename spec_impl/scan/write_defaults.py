"""What a writer writes for a field a write does not supply.

Spec: "Default values": "write-default is used to populate the field's value for any records
written after the field was added to the schema, if the writer does not supply the field's value".
"Omitting a known field when writing a data file is never allowed. The write default for a field
must be written if a field is not supplied to a write. If the write default for a required field
is not set, the writer must fail." An optional field without a write-default writes null ("If
either default is not set for an optional field, then the default value is null"). A field is
*not supplied* when the record lacks it; a supplied null is a null (rule scan.required judges it).
Nested structs that are supplied get the same treatment for their own fields, and so does a struct
written as its write-default: a sub-field the struct's write-default lacks takes its own write-default
(Schema Evolution: "If a field value is missing from a struct's write-default, the field's
write-default must be used for the field"). A default change affects only the records written after
it ("Default value changes may only affect future records"): values already written are read as
written.

    record = with_write_defaults(schema.struct, {1: 7})    # {1: 7, 2: <2's write-default or None>}
"""

from __future__ import annotations

from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.metadata.schema import write_default
from spec_impl.rules import Rule, implements, register
from spec_impl.types import ABSENT, StructType

register(
    Rule(
        "write.default",
        "Default values",
        "A field a write does not supply is written with its current write-default (null for an optional field "
        "without one; a sub-field a struct's write-default lacks takes its own): a known field is never omitted "
        "from a data file, and a later default change does not alter values already written",
        (3,),
    ),
    Rule(
        "write.default.required",
        "Default values",
        "A write that does not supply a required field without a write-default fails",
        (3,),
    ),
)


@implements("write.default", "write.default.required")
def with_write_defaults(struct: StructType, record: dict[int, Any]) -> dict[int, Any]:
    """`record` (physical values by field id) with every field of `struct` present: a field it
    lacks takes its write-default; a required field without one raises (write.default.required)."""
    out = dict(record)
    for f in struct.fields:
        if f.id in record:
            if isinstance(f.type, StructType) and isinstance(record[f.id], dict):
                out[f.id] = with_write_defaults(f.type, record[f.id])
            continue
        if f.required and f.write_default in (ABSENT, None):
            raise InvalidInput(
                "write.default.required",
                f"required field {f.id} ({f.name}) is not supplied and has no write-default: the writer must fail",
                f.name,
            )
        value = write_default(f)
        if isinstance(f.type, StructType) and isinstance(value, dict):
            # "If a field value is missing from a struct's write-default, the field's write-default
            # must be used for the field" (Schema Evolution)
            value = with_write_defaults(f.type, value)
        out[f.id] = value
    return out
