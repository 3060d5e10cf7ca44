"""Sort order cases (Sorting, Appendix C): the sort order JSON and its rules, and the orders a sort
produces (the floating-point chain, directions, null orders)."""

from __future__ import annotations

from spec_impl.vectors.families._partition_blocks import (
    APPENDIX_C_ORDER,
    float_bits,
    order_case,
    sort_field,
    sort_order,
    sort_case,
)


def _sort_order_json():
    j = "sort-order.json"
    for fv in (1, 2):
        yield order_case(
            j,
            f"appendix-c-example-v{fv}",
            f"the Appendix C sort order example read as v{fv}: written back unchanged",
            APPENDIX_C_ORDER,
            fv,
        )
    yield order_case(
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
            sort_order(1, {"source-id": 2, "direction": "asc", "null-order": "nulls-last"}),
        ),
        ("transform-not-string", "transform must be a JSON string", sort_order(1, sort_field(2, 1))),  # type: ignore[arg-type]
        (
            "missing-direction",
            "a sort field needs direction",
            sort_order(1, {"transform": "identity", "source-id": 2, "null-order": "nulls-last"}),
        ),
        (
            "missing-null-order",
            "a sort field needs null-order",
            sort_order(1, {"transform": "identity", "source-id": 2, "direction": "asc"}),
        ),
        ("source-id-string", "source-id must be a JSON int", sort_order(1, sort_field("2"))),
    ]
    for slug, description, doc in bad:
        yield order_case(j, slug, description, doc, 2)
    yield order_case(
        j,
        "source-ids-string",
        "v3: source-ids must be a JSON list",
        sort_order(1, {"transform": "identity", "source-ids": "2", "direction": "asc", "null-order": "nulls-last"}),
        3,
    )
    yield order_case(j, "source-ids-empty", "v3: source-ids must not be empty", sort_order(1, sort_field([])), 3)

    sid, sids, agree = "sort-order.source-id", "sort-order.source-ids", "sort-order.source-ids.agree"
    for fv in (1, 2):
        yield order_case(
            sid,
            f"v{fv}-source-ids-only",
            f"v{fv} sort fields require source-id: source-ids [2] alone is rejected",
            sort_order(1, sort_field([2])),
            fv,
        )
        yield order_case(
            sid,
            f"v{fv}-no-source",
            f"v{fv}: a sort field without source-id is rejected",
            sort_order(1, sort_field(None)),
            fv,
        )
    yield order_case(
        sid,
        "v2-multi-argument",
        "v2 multi-argument sort field (source-id 2, source-ids [2, 3], zorder): the seed writes both "
        "keys; the adopted spec has no v2 form for it",
        sort_order(
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
    yield order_case(
        sid,
        "v2-both-agreeing",
        "v2: source-ids [2] next to source-id 2 is tolerated and written as source-id",
        sort_order(
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
    yield order_case(
        sids,
        "v3-appendix-c-example",
        "the Appendix C sort order (source-id only) as v3: the seed requires source-ids, "
        "the adopted spec reads and writes source-id",
        APPENDIX_C_ORDER,
        3,
    )
    yield order_case(
        sids,
        "v3-source-ids-single",
        "v3 source-ids [2] and [3]: the seed writes source-ids, the adopted spec source-id",
        sort_order(1, sort_field([2]), sort_field([3], "bucket[4]", "desc", "nulls-last")),
        3,
    )
    yield order_case(
        sids,
        "v3-multi-argument",
        "v3 multi-argument sort field source-ids [2, 3] (zorder): source-ids in both revisions",
        sort_order(1, sort_field([2, 3], "zorder", "desc", "nulls-last")),
        3,
    )
    yield order_case(
        sids,
        "v3-no-source",
        "v3: a sort field with neither source-id nor source-ids is rejected",
        sort_order(1, sort_field(None)),
        3,
    )
    yield order_case(
        agree,
        "v3-first-differs",
        "v3: source-id 3 is not the first element of source-ids [2, 3]",
        sort_order(
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
    yield order_case(
        agree,
        "v2-first-differs",
        "v2: source-id 3 next to source-ids [2]",
        sort_order(
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
    yield order_case(uns, "unsorted", "the unsorted order: id 0 without fields", sort_order(0), 2, schema=True)
    yield order_case(
        uns,
        "zero-with-fields",
        "order id 0 is reserved for the unsorted order: it cannot have fields",
        {"order-id": 0, "fields": APPENDIX_C_ORDER["fields"]},
        2,
    )
    yield order_case(
        uns,
        "fields-empty-nonzero",
        "an order without fields is the unsorted order and must have id 0, not 3",
        sort_order(3),
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
        yield order_case(
            dr,
            slug,
            f"direction must be exactly asc or desc, not {value!r}",
            sort_order(1, {"transform": "identity", "source-id": 2, "direction": value, "null-order": "nulls-first"}),
            2,
        )
    yield order_case(
        dr,
        "desc-valid",
        "desc with nulls-first is valid",
        sort_order(1, sort_field(2, "identity", "desc", "nulls-first")),
        2,
    )
    for slug, value in (
        ("uppercase-underscore", "NULLS_FIRST"),
        ("first", "first"),
        ("underscore", "nulls_last"),
        ("nulls-none", "nulls-none"),
        ("null", None),
    ):
        yield order_case(
            no,
            slug,
            f"null-order must be exactly nulls-first or nulls-last, not {value!r}",
            sort_order(1, {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": value}),
            2,
        )
    yield sort_case(dr, "sort-values-bad-direction", "sorting with direction ASC is rejected", "long", [1, 2], "ASC")
    yield sort_case(
        no, "sort-values-bad-null-order", "sorting with null-order first is rejected", "long", [1, None], "asc", "first"
    )

    ex, ar = "sort-order.source.exists", "sort-order.transform.arity"
    yield order_case(
        ex, "unknown-source", "source-id 99 names no column", sort_order(1, sort_field(99)), 2, schema=True
    )
    yield order_case(
        ex,
        "multi-argument-one-unknown",
        "v3: every source of a multi-argument sort field must exist: [1, 99]",
        sort_order(1, sort_field([1, 99], "zorder")),
        3,
        schema=True,
    )
    yield order_case(
        ex,
        "nested-and-list-sources",
        "sort sources nested in a struct (loc.lat) or a list element (tags) are accepted: "
        "unlike partition sources, the spec does not restrict them",
        sort_order(1, sort_field(6, "identity", "desc"), sort_field(9, "truncate[2]")),
        2,
        schema=True,
        note="Spec gap: the reference accepts any existing source that the transform accepts.",
    )
    yield order_case(
        ex,
        "unknown-transform-tolerated",
        "v3: an unknown transform over existing sources [1, 2] is read",
        sort_order(1, sort_field([1, 2], "zorder")),
        3,
        schema=True,
    )
    yield order_case(
        ar,
        "identity-two-sources",
        "v3: identity takes one source, not source-ids [1, 2]",
        sort_order(1, sort_field([1, 2])),
        3,
        schema=True,
    )
    st = "transform.source-type"
    yield order_case(
        st,
        "sort-bucket-of-double",
        "bucket does not accept the double column loc.lat",
        sort_order(1, sort_field(6, "bucket[4]")),
        2,
        schema=True,
    )
    yield order_case(
        st,
        "sort-identity-of-struct",
        "identity does not accept the struct column loc",
        sort_order(1, sort_field(5)),
        2,
        schema=True,
    )


def _sort_values():
    fo, ro = "sort-order.float-order", "sort-order.record-order"
    neg_nan, nan = float_bits("fff8000000000000"), float_bits("7ff8000000000000")
    ninf, inf = float_bits("fff0000000000000"), float_bits("7ff0000000000000")
    yield sort_case(
        fo,
        "double-chain",
        "the spec's chain for doubles, given shuffled: -NaN < -Infinity < -value < -0 < 0 < value < Infinity < NaN",
        "double",
        [1.0, nan, -0.0, ninf, 0.0, -1e300, inf, neg_nan, -1.0, 5e-324, 1e300, -5e-324],
        note="The sign of a NaN comes from its bits: a negative NaN sorts first, as the chain says. Java's "
        "Double.compare treats every NaN as the positive NaN and would put it last.",
    )
    yield sort_case(
        fo,
        "float-chain",
        "the chain for floats: -NaN < -Infinity < -1.5 < -0 < 0 < 1.5 < Infinity < NaN",
        "float",
        [
            float_bits("7fc00000"),
            1.5,
            0.0,
            float_bits("ff800000"),
            -0.0,
            float_bits("ffc00000"),
            float_bits("7f800000"),
            -1.5,
        ],
        note="The sign of a NaN comes from its bits.",
    )
    yield sort_case(fo, "zeros", "-0 sorts before 0 although they are equal numbers", "double", [0.0, -0.0, 0.0, -0.0])
    yield sort_case(
        fo,
        "nan-with-payload",
        "NaNs of any payload are NaNs: a positive NaN with payload after Infinity, a negative one before -Infinity",
        "double",
        [float_bits("7ff0000000000001"), inf, ninf, float_bits("fff0000000000001"), 0.0],
        note="The sign of a NaN comes from its bits; payloads are ignored.",
    )
    yield sort_case(
        fo,
        "subnormals-and-extremes",
        "the smallest subnormal and the largest finite values lie between zero and infinity",
        "double",
        [1.7976931348623157e308, 5e-324, -1.7976931348623157e308, -5e-324, inf, 0.0],
    )
    yield sort_case(
        fo,
        "double-desc",
        "desc reverses the chain: NaN first, -NaN last",
        "double",
        [-0.0, nan, 1.0, neg_nan, 0.0, ninf],
        "desc",
        note="The sign of a NaN comes from its bits.",
    )
    yield sort_case(
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
            yield sort_case(
                ro,
                f"string-{direction}-{null_order}",
                f"strings {direction} {null_order}: nulls go {null_order[6:]} whatever the direction",
                "string",
                ["b", None, "c", "a", None],
                direction,
                null_order,
            )
    yield sort_case(
        ro, "default-asc-nulls-first", "without direction and null-order: asc, nulls first", "long", [3, None, -2, 10]
    )
    yield sort_case(
        ro, "long-extremes", "longs sort as signed numbers", "long", [9223372036854775807, -9223372036854775808, 0, -1]
    )
    yield sort_case(
        ro,
        "decimal-by-value",
        "decimals sort by value, not by their text",
        "decimal(5,2)",
        ["1.10", "-2.00", "10.00", "9.99"],
    )
    yield sort_case(
        ro,
        "date",
        "dates sort in time order, including before 1970",
        "date",
        ["2017-11-16", "1969-12-31", "1970-01-01"],
    )
    yield sort_case(
        ro,
        "boolean",
        "false sorts before true",
        "boolean",
        [True, False, None],
        note="Spec gap: the natural order of booleans.",
    )
    yield sort_case(
        ro,
        "string-code-points",
        "strings sort by code point (= by UTF-8 bytes): U+FFFF before U+1F600, which UTF-16 units would put first",
        "string",
        ["\U0001f600", "\uffff", "a", "Z", ""],
        note="Spec gap: the spec does not define string order; the reference uses code points.",
    )
    yield sort_case(
        ro,
        "binary-unsigned",
        "binary sorts by unsigned bytes: ff after 0102, and a prefix first",
        "binary",
        ["ff", "0102", "01", ""],
        note="Spec gap: the spec does not define binary order; the reference compares unsigned bytes.",
    )
    yield sort_case(
        ro,
        "uuid-unsigned",
        "uuids sort as unsigned 128-bit numbers: 80000000-... after 00000000-...-0001",
        "uuid",
        ["80000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"],
        note="Spec gap: Java's UUID.compareTo compares signed halves and would put 80000000-... first.",
    )


def specs():
    yield from _sort_order_json()
    yield from _sort_order_rules()
    yield from _sort_values()
