"""Column projection cases (Column Projection): a data file read with the table's schema by field id,
with defaults, identity-partition values and promotions."""

from __future__ import annotations

from spec_impl import revisions

from spec_impl.vectors.families._schema_blocks import FILE_ABC, READ_EXAMPLE, project_case, f, lst, mp, sch, struct


def specs():
    rows = [{"1": 34, "2": "x", "3": 1.5}, {"1": None, "2": None, "3": None}]
    r = "projection.by-id"
    yield project_case(
        r,
        "spec-example",
        "the Column Projection example: file 1: a int, 2: b string, 3: c double read with "
        "3: measurement, 2: name, 4: a selects c, b and a column of nulls called a, in that order "
        "(file column 1 a is not read field 4 a)",
        FILE_ABC,
        READ_EXAMPLE,
        rows,
    )
    yield project_case(
        r, "same-schema", "reading with the file's own schema returns the rows unchanged", FILE_ABC, FILE_ABC, rows
    )
    yield project_case(r, "no-rows", "a file without rows reads as no rows", FILE_ABC, READ_EXAMPLE, [])
    nested_file = sch(
        f(1, "s", struct(f(2, "x", "int"), f(3, "y", "string"))),
        f(4, "l", lst(5, "int")),
        f(6, "m", mp(7, "string", 8, "int")),
    )
    nested_read = sch(
        f(6, "m2", mp(7, "string", 8, "long")), f(1, "s2", struct(f(3, "y2", "string"))), f(4, "l", lst(5, "long"))
    )
    nested_row = {"1": {"2": 1, "3": "y"}, "4": [1, None], "6": {"keys": ["k"], "values": [2]}}
    yield project_case(
        r,
        "nested",
        "a nested struct field is selected by id within its struct (x dropped, y renamed); "
        "list elements and map values are read through their ids (int promoted to long)",
        nested_file,
        nested_read,
        [nested_row, {"1": None, "4": None, "6": None}],
    )
    yield project_case(
        r,
        "list-element-id-differs",
        "the read list's element id (9) is not the file's (5)",
        nested_file,
        sch(f(4, "l", lst(9, "int"))),
        [nested_row],
    )
    yield project_case(
        r,
        "map-value-id-differs",
        "the read map's value id (9) is not the file's (8)",
        nested_file,
        sch(f(6, "m", mp(7, "string", 9, "int"))),
        [nested_row],
    )
    yield project_case(
        r,
        "map-key-id-differs",
        "the read map's key id (9) is not the file's (7)",
        nested_file,
        sch(f(6, "m", mp(9, "string", 8, "int"))),
        [nested_row],
    )

    r = "projection.missing.null"
    yield project_case(
        r,
        "same-name-other-id",
        "file column 1: a is not read field 4: a (ids, not names, select columns): a reads as null",
        FILE_ABC,
        sch(f(4, "a", "int")),
        rows[:1],
    )
    yield project_case(
        r,
        "nested-field",
        "a field added to a nested struct reads as null",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "string")))),
        [{"1": {"2": 5}}, {"1": None}],
    )
    yield project_case(
        r,
        "null-default",
        "a missing optional field whose initial-default is null reads as null",
        FILE_ABC,
        sch(f(1, "a", "int"), f(7, "n", "string", initial=None, write="w")),
        rows[:1],
        format_version=3,
    )

    r = "projection.missing.default"
    defaults = sch(
        f(1, "a", "int"),
        f(5, "d", "decimal(9,2)", True, initial="1.50", write="2.00"),
        f(6, "o", "date", initial="2024-01-02"),
        f(
            8,
            "id",
            "uuid",
            initial="0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
            write="ec5911be-b0a7-458c-8438-c9a3e53cffae",
        ),
    )
    yield project_case(
        r,
        "initial-not-write",
        "missing fields read as their initial-default, not their write-default "
        "(the Appendix C uuid defaults among them)",
        FILE_ABC,
        defaults,
        rows,
    )
    yield project_case(
        "write.default",
        "file-value-after-default-change",
        "Default values: a default change affects only future records: c was written as 1.5 and null when its "
        "write-default was another value; read after its write-default changed to 9.5 it is still 1.5 and null",
        FILE_ABC,
        sch(f(1, "a", "int"), f(3, "c", "double", initial=2.5, write=9.5)),
        rows,
        format_version=3,
    )
    sub = [f(6, "x", "int", True, initial=7, write=7), f(7, "y", "string")]
    yield project_case(
        r,
        "struct-empty-default",
        "a missing struct defaulting to {} reads its sub-fields' own defaults (7, null)",
        FILE_ABC,
        sch(f(1, "a", "int"), f(5, "s", struct(*sub), initial={})),
        rows[:1],
    )
    yield project_case(
        r,
        "struct-null-default",
        "a missing optional struct without a default reads as null",
        FILE_ABC,
        sch(f(5, "s", struct(*sub))),
        rows[:1],
    )
    yield project_case(
        r,
        "struct-seed-values",
        "seed: a struct default's values are used where given, sub-field defaults elsewhere",
        FILE_ABC,
        sch(f(5, "s", struct(*sub), initial={"7": "given"})),
        rows[:1],
        revisions=revisions.before(revisions.V3_ADOPTED),
    )
    yield project_case(
        r,
        "nested-sub-field-default",
        "a field added to an existing struct reads as its initial-default where the struct is "
        "present, and the struct stays null where it is null",
        sch(f(1, "s", struct(f(2, "x", "int")))),
        sch(f(1, "s", struct(f(2, "x", "int"), f(3, "y", "long", initial=42)))),
        [{"1": {"2": 5}}, {"1": None}],
    )
    parted = sch(f(1, "a", "int"), f(8, "region", "string", initial="eu"), f(9, "day", "date"))
    yield project_case(
        r,
        "partition-value-or-default",
        "identity-partition values of fields missing from the file: used by the adopted "
        "spec before initial-default; the seed text reads initial-default, then null",
        FILE_ABC,
        parted,
        rows[:1],
        partition_values={"8": "us", "9": "2022-01-08"},
    )

    r = "projection.missing.partition"
    yield project_case(
        r,
        "before-default",
        "adopted: a missing field's identity-partition value comes before its initial-default and null",
        FILE_ABC,
        parted,
        rows,
        partition_values={"8": "us", "9": "2022-01-08"},
        format_version=3,
    )
    yield project_case(
        r,
        "file-value-wins",
        "a column present in the file is read from the file even when a partition value is given",
        FILE_ABC,
        parted,
        rows,
        partition_values={"1": 99},
        format_version=3,
    )

    order_read = sch(
        f(1, "id", "long", True),
        f(2, "region", "string"),
        f(3, "kind", "string", initial="k0"),
        f(4, "tier", "string", initial="t0"),
        f(5, "note", "string"),
    )
    yield project_case(
        r,
        "order-partition-mapping-default-null",
        "adopted: a file without field ids, read through a name mapping: region has an identity-partition value "
        "and a mapped column (the partition value wins), kind a mapped column and an initial-default (the column "
        "wins), tier only an initial-default, note nothing (null)",
        None,
        order_read,
        [{"id": 1, "region": "from-file", "kind": "k1"}],
        name_mapping=[
            {"field-id": 1, "names": ["id"]},
            {"field-id": 2, "names": ["region"]},
            {"field-id": 3, "names": ["kind"]},
            {"field-id": 4, "names": ["tier"]},
            {"field-id": 5, "names": ["note"]},
        ],
        partition_values={"2": "eu"},
        format_version=3,
    )

    for slug, file_type, value in (
        ("string", "string", "x"),
        ("int", "int", 5),
        ("struct", struct(f(9, "x", "int")), {"9": 1}),
    ):
        yield project_case(
            "projection.promotion",
            f"unknown-ignores-{slug}-column",
            f"adopted: field 2 is unknown in the table schema, and the data file carries a {slug} column with id 2: "
            "readers ignore the file column and return null",
            sch(f(1, "a", "int"), f(2, "u", file_type)),
            sch(f(1, "a", "int"), f(2, "u", "unknown")),
            [{"1": 1, "2": value}],
            format_version=3,
            revisions=revisions.ADOPTED,
        )

    r = "projection.required"
    req = sch(f(1, "a", "int"), f(4, "r", "long", True))
    yield project_case(
        r,
        "missing-required",
        "a required field missing from the file, without initial-default, cannot be read",
        FILE_ABC,
        req,
        rows[:1],
    )
    yield project_case(r, "missing-required-no-rows", "a file without rows still reads as no rows", FILE_ABC, req, [])
    yield project_case(
        r,
        "missing-required-with-default",
        "a required field missing from the file reads as its initial-default",
        FILE_ABC,
        sch(f(1, "a", "int"), f(4, "r", "long", True, initial=5, write=5)),
        rows[:1],
        format_version=3,
    )
    yield project_case(
        r,
        "missing-required-partition-value",
        "a required field missing from the file with an identity-partition value: "
        "readable in the adopted spec, not in the seed text",
        FILE_ABC,
        req,
        rows[:1],
        partition_values={"4": 5},
    )

    r = "projection.promotion"
    for src, dst, fv, values, why in (
        ("int", "long", 1, [2147483647, -2147483648, None], "int column read as long"),
        (
            "float",
            "double",
            2,
            [1.5, 0.1],
            "float column read as double: the float's value, 0.1 as a float is 0.100000001490116...",
        ),
        ("decimal(9,2)", "decimal(18,2)", 2, ["-1.25", "9999999.99"], "decimal(9,2) read as decimal(18,2)"),
        ("date", "timestamp", 3, ["1970-01-02", "1969-12-31"], "date read as timestamp (midnight): adopted v3 only"),
        ("date", "timestamp_ns", 3, ["2017-11-16"], "date read as timestamp_ns (midnight): adopted v3 only"),
        (
            "date",
            "timestamp_ns",
            3,
            ["2262-04-11", "1677-09-22"],
            "the first and last dates whose midnight fits timestamp_ns",
        ),
        ("date", "timestamp_ns", 3, ["2262-04-12"], "2262-04-12 as timestamp_ns leaves the long range: cannot be read"),
        ("date", "timestamp_ns", 3, ["1677-09-21"], "1677-09-21 as timestamp_ns leaves the long range: cannot be read"),
        ("date", "timestamp", 2, ["1970-01-02"], "date read as timestamp in a v2 table: not a promotion"),
        ("unknown", "string", 3, [None], "an unknown column (always null) read as string: adopted v3"),
        ("string", "int", 2, ["1"], "a string column cannot be read as int"),
        ("long", "int", 2, [1], "a long column cannot be read as int"),
        ("decimal(9,2)", "decimal(9,3)", 2, ["1.25"], "decimal scale change: not a promotion"),
        ("timestamp", "timestamptz", 2, ["2017-11-16T22:31:08"], "timestamp cannot be read as timestamptz"),
    ):
        slug = f"{src}-to-{dst}-v{fv}-{values[0]}".replace("(", "").replace(")", "").replace(",", "-")
        yield project_case(
            r, slug, why, sch(f(1, "x", src)), sch(f(1, "x", dst)), [{"1": v} for v in values], format_version=fv
        )
    point = sch(f(1, "x", struct(f(2, "y", "int"))))
    yield project_case(
        r, "struct-as-int", "a struct column cannot be read as an int", point, sch(f(1, "x", "int")), [{"1": {"2": 1}}]
    )
    yield project_case(
        r, "int-as-struct", "an int column cannot be read as a struct", sch(f(1, "x", "int")), point, [{"1": 1}]
    )
    yield project_case(
        r,
        "list-as-map",
        "a list column cannot be read as a map",
        sch(f(1, "x", lst(2, "int"))),
        sch(f(1, "x", mp(2, "int", 3, "int"))),
        [{"1": [1]}],
    )
