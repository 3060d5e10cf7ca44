"""Types: type strings and nested JSON (Appendix C), version of introduction, promotions."""

from __future__ import annotations

from spec_impl.revisions import ADOPTED
from spec_impl.revisions import ALL as BOTH
from spec_impl.vectors.cases import case

NAME = "types"
DESCRIPTION = "Schemas and Data Types, Appendix C: parsing and printing types, format versions, type promotion"

_SIMPLE = (
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "date",
    "time",
    "timestamp",
    "timestamptz",
    "string",
    "uuid",
    "binary",
)
_V3 = ("timestamp_ns", "timestamptz_ns", "unknown", "variant")
_STRUCT = {
    "type": "struct",
    "fields": [
        {
            "id": 1,
            "name": "id",
            "required": True,
            "type": "uuid",
            "initial-default": "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
            "write-default": "ec5911be-b0a7-458c-8438-c9a3e53cffae",
        },
        {
            "id": 2,
            "name": "data",
            "required": False,
            "doc": "tags",
            "type": {"type": "list", "element-id": 3, "element-required": True, "element": "string"},
        },
        {
            "id": 4,
            "name": "props",
            "required": False,
            "type": {
                "type": "map",
                "key-id": 5,
                "key": "string",
                "value-id": 6,
                "value-required": False,
                "value": "double",
            },
        },
    ],
}


def specs():
    for t in _SIMPLE:
        yield case("type.primitive", t, f"'{t}' is a primitive type string", "parse-type", type=t)
    for t in _V3:
        yield case(
            "type.primitive",
            t,
            f"'{t}' is a v3 type string",
            "parse-type",
            type=t,
            revisions=ADOPTED if t in ("unknown", "variant") else None,
        )
    for text, why in (
        ("decimal(9,2)", "the canonical form"),
        ("decimal(9, 2)", "a space after the comma (Appendix C example)"),
        ("decimal( 9 , 2 )", "spaces around both parameters"),
        ("decimal(38,38)", "the largest precision"),
        ("decimal(39,0)", "precision above 38"),
        ("decimal(9)", "a missing scale"),
        ("decimal", "no parameters"),
    ):
        yield case("type.decimal", text, f"'{text}': {why}", "parse-type", type=text)
    for text, why in (
        ("fixed[16]", "the canonical form"),
        ("fixed[ 16 ]", "spaces inside the brackets"),
        ("fixed[1]", "one byte"),
        ("fixed[0]", "length 0: the spec sets no lower bound (no Parquet form, rule scan.arrow-type)"),
        ("fixed(16)", "parentheses instead of brackets"),
        ("fixed[-1]", "a negative length"),
        ("fixed", "no length"),
    ):
        yield case("type.fixed", text, f"'{text}': {why}", "parse-type", type=text)
    huge = "9" * 4301  # more digits than Python's int() of a string takes, so a parser must refuse it first
    yield case(
        "type.decimal",
        "precision-of-4301-digits",
        "a precision of 4,301 digits: out of range",
        "parse-type",
        type=f"decimal({huge},0)",
    )
    yield case(
        "type.decimal",
        "scale-of-4301-digits",
        "a scale of 4,301 digits: out of range",
        "parse-type",
        type=f"decimal(9,{huge})",
    )
    yield case(
        "type.fixed",
        "length-of-4301-digits",
        "a length of 4,301 digits: out of range",
        "parse-type",
        type=f"fixed[{huge}]",
    )
    for text, why in (
        ("geometry", "the default CRS"),
        ("geometry(OGC:CRS84)", "the default CRS written out: printed bare"),
        ("geometry(EPSG:4326)", "an EPSG CRS"),
        ("geometry( srid:3857 )", "spaces inside the parentheses"),
        ("geography", "default CRS and algorithm"),
        ("geography(OGC:CRS84, spherical)", "defaults written out"),
        ("geography(EPSG:4326)", "a CRS with the default algorithm"),
        ("geography(EPSG:4326,karney)", "no space after the comma"),
        ("geography(OGC:CRS84, vincenty)", "a non-default algorithm"),
        ("geography(OGC:CRS84, flat)", "an unknown edge algorithm"),
        ("geometry()", "empty parentheses"),
        ("geometry(projjson:crs_property)", "a PROJJSON CRS named by a table property"),
        ('geometry({"type":"GeographicCRS"})', "an inline PROJJSON CRS: PROJJSON must not be inlined"),
        ('geography({"type":"GeographicCRS"}, karney)', "an inline PROJJSON CRS: PROJJSON must not be inlined"),
    ):
        yield case("type.geo", text, f"'{text}': {why}", "parse-type", type=text)
    spaced = "geography( EPSG:4326 , karney )"
    yield case(
        "type.geo",
        "geography-spaces-in-parameters",
        f"'{spaced}': spaces around both parameters",
        "parse-type",
        type=spaced,
    )
    for text, why in (
        ("varchar", "not an Iceberg type"),
        ("Long", "type names are lowercase"),
        ("", "the empty string"),
        ("list<int>", "nested types are JSON objects"),
    ):
        yield case(
            "type.primitive", f"invalid-{text or 'empty'}", f"'{text}' is not a type: {why}", "parse-type", type=text
        )
    yield case(
        "type.nested",
        "appendix-c-struct",
        "a struct with defaults, a list and a map (Appendix C)",
        "parse-type",
        type=_STRUCT,
    )
    yield case(
        "type.nested",
        "list-of-list",
        "a list of optional lists",
        "parse-type",
        type={
            "type": "list",
            "element-id": 1,
            "element-required": False,
            "element": {"type": "list", "element-id": 2, "element-required": True, "element": "long"},
        },
    )
    yield case(
        "type.nested",
        "map-struct-key",
        "a map with a struct key",
        "parse-type",
        type={
            "type": "map",
            "key-id": 1,
            "key": {"type": "struct", "fields": [{"id": 3, "name": "k", "required": True, "type": "int"}]},
            "value-id": 2,
            "value-required": True,
            "value": "string",
        },
    )
    yield case(
        "type.nested", "empty-struct", "a struct without fields", "parse-type", type={"type": "struct", "fields": []}
    )
    for bad, why in (
        ({"type": "list", "element-id": 1, "element": "int"}, "a list without element-required"),
        ({"type": "map", "key-id": 1, "key": "int", "value-id": 2, "value": "int"}, "a map without value-required"),
        (
            {"type": "struct", "fields": [{"id": "1", "name": "a", "required": True, "type": "int"}]},
            "a field id that is a string",
        ),
        ({"type": "struct", "fields": [{"id": 1, "name": "a", "type": "int"}]}, "a field without required"),
        ({"type": "tuple", "fields": []}, "an unknown nested kind"),
    ):
        yield case("type.nested", f"invalid-{why}", f"rejected: {why}", "parse-type", type=bad)

    for t in _SIMPLE + ("decimal(9,2)", "fixed[4]") + _V3 + ("geometry", "geography"):
        yield case("type.version", t, f"the first format version that allows {t}", "min-format-version", type=t)
    yield case(
        "type.version",
        "struct-with-v3-field",
        "a struct containing a timestamp_ns needs v3",
        "min-format-version",
        type={"type": "struct", "fields": [{"id": 1, "name": "t", "required": False, "type": "timestamp_ns"}]},
    )

    yield from _promotions()


def _promotions():
    allowed_everywhere = (("int", "long"), ("float", "double"), ("decimal(9,2)", "decimal(18,2)"))
    not_allowed = (
        ("long", "int"),
        ("double", "float"),
        ("int", "double"),
        ("int", "string"),
        ("decimal(9,2)", "decimal(9,3)"),
        ("decimal(18,2)", "decimal(9,2)"),
        ("decimal(9,2)", "decimal(10,3)"),
        ("fixed[4]", "binary"),
        ("string", "binary"),
        ("timestamp", "timestamptz"),
        ("timestamp", "timestamp_ns"),
        ("long", "timestamp"),
        ("uuid", "fixed[16]"),
        ("date", "timestamptz"),
        ("date", "timestamptz_ns"),
        ("int", "decimal(10,0)"),
    )
    for v in (1, 2, 3):
        for src, dst in allowed_everywhere + not_allowed:
            if v < 3 and "_ns" in src + dst:
                continue
            yield case(
                "type.promotion",
                f"v{v}-{src}-to-{dst}",
                f"format v{v}: promote {src} to {dst}?",
                "promote",
                **{"from": src, "to": dst},
                format_version=v,
            )
    for v in (2, 3):
        for src, dst in (
            ("date", "timestamp"),
            ("date", "timestamp_ns"),
            ("unknown", "long"),
            ("unknown", "string"),
            ("unknown", "decimal(9,2)"),
        ):
            if v < 3 and ("_ns" in dst or src == "unknown"):
                continue
            yield case(
                "type.promotion.v3" if v == 3 else "type.promotion",
                f"v{v}-{src}-to-{dst}",
                f"format v{v}: promote {src} to {dst}? (only the adopted v3 allows it)",
                "promote",
                **{"from": src, "to": dst},
                format_version=v,
                revisions=BOTH,
            )
    yield from _boundaries()


def _nest(depth: int) -> dict:
    """A list type nested `depth` levels deep (ids 1..depth) around an int."""
    t: object = "int"
    for i in range(depth, 0, -1):
        t = {"type": "list", "element-id": i, "element-required": True, "element": t}
    return t  # type: ignore[return-value]


def _boundaries():
    """Decimal precision 1 and 38 with scale 0 and scale = precision (Primitive Types: "precision
    must be 38 or less"), and the reference's nesting limit: 100 levels are read (rule
    type.nesting-limit: a limit of the reference, not of the spec, so only the accepted side is a
    vector)."""
    for text in ("decimal(1,0)", "decimal(1,1)", "decimal(38,0)"):
        yield case(
            "type.decimal",
            f"extreme-{text}",
            f"'{text}': precision 1 or 38, scale 0 or equal to the precision",
            "parse-type",
            type=text,
        )
    yield case(
        "type.nesting-limit",
        "list-100-deep",
        "a list nested 100 levels deep: within the reference's limit",
        "parse-type",
        type=_nest(100),
    )
