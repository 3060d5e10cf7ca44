"""Transform strings, source types, result types, identity, void and unknown transforms."""

from __future__ import annotations

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "transform-rules"
DESCRIPTION = "Partition Transforms: parsing transform strings, accepted source types, result types, identity and void"

_PRIMITIVES = (
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "decimal(9,2)",
    "date",
    "time",
    "timestamp",
    "timestamptz",
    "timestamp_ns",
    "timestamptz_ns",
    "string",
    "uuid",
    "fixed[3]",
    "binary",
)
_SAMPLE = {
    "boolean": True,
    "int": -7,
    "long": 2**40,
    "float": -0.0,
    "double": 2.5,
    "decimal(9,2)": "-3.14",
    "date": "1969-12-31",
    "time": "12:00:00.000001",
    "timestamp": "1969-12-31T23:59:59.999999",
    "timestamptz": "2017-11-16T22:31:08.000001+00:00",
    "timestamp_ns": "2017-11-16T22:31:08.000000001",
    "timestamptz_ns": "2017-11-16T22:31:08.000000001+00:00",
    "string": "😀x",
    "uuid": "f79c3e09-677c-4bbd-a479-3f349cb785e7",
    "fixed[3]": "000102",
    "binary": "ff",
}
_TRANSFORMS = ("identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void")
_STRUCT = {"type": "struct", "fields": [{"id": 1, "name": "a", "required": False, "type": "int"}]}


def specs():
    yield from _parsing()
    for transform in _TRANSFORMS:
        for t in _PRIMITIVES:
            yield case(
                "transform.result-type",
                f"{transform}-of-{t}",
                f"the result type of {transform} on {t} (an error when {t} is not a source type)",
                "result-type",
                transform=transform,
                type=t,
            )
    for t in ("unknown", "variant", "geometry", "geography(OGC:CRS84, karney)"):
        for transform in ("identity", "void", "bucket[16]"):
            yield case(
                "transform.source-type",
                f"{transform}-of-{t}",
                f"{transform} on the v3 type {t}",
                "result-type",
                transform=transform,
                type=t,
                revisions=ADOPTED,
            )
    yield case(
        "transform.source-type",
        "identity-of-struct",
        "identity needs a primitive source",
        "result-type",
        transform="identity",
        type=_STRUCT,
    )
    yield case(
        "transform.void",
        "void-of-struct",
        "void accepts any source, nested too",
        "result-type",
        transform="void",
        type=_STRUCT,
    )
    for t in _PRIMITIVES:
        yield case(
            "transform.identity",
            f"identity-{t}",
            f"identity returns the {t} value unchanged",
            "transform",
            transform="identity",
            type=t,
            value=_SAMPLE[t],
        )
        yield case(
            "transform.void",
            f"void-{t}",
            f"void of a {t} value is null",
            "transform",
            transform="void",
            type=t,
            value=_SAMPLE[t],
        )
    yield case(
        "transform.identity",
        "identity-nan",
        "identity keeps a NaN's bits",
        "transform",
        transform="identity",
        type="double",
        value={"ieee754": "7ff8000000000001"},
    )
    yield case(
        "transform.null",
        "identity-null",
        "identity of null is null",
        "transform",
        transform="identity",
        type="string",
        value=None,
    )
    yield case(
        "transform.unknown",
        "apply-unknown",
        "an unknown transform parses but has no value",
        "transform",
        transform="zorder",
        type="long",
        value=1,
    )


def _parsing():
    """Appendix C lists the transform strings: "identity", "bucket[<N>]", "truncate[<W>]", "year",
    "month", "day", "hour" (and Partition Transforms "void"). A string of another form is an
    unknown transform, which "All v3 readers are required to read ..., ignoring them": parsed,
    kept verbatim, never an error. The names are lower case in the spec and N, W numbers of buckets
    and widths, written in decimal digits; a string of the bucket/truncate form with N or W outside
    1 .. 2**31 - 1 names the transform with an impossible parameter and is rejected."""
    for text in (
        "identity",
        "year",
        "month",
        "day",
        "hour",
        "void",
        "bucket[16]",
        "bucket[1]",
        "truncate[3]",
        "bucket[2147483647]",
        "truncate[1]",
        "truncate[2147483647]",
        "bucket[016]",
    ):
        yield case(
            "transform.parse",
            text,
            f"'{text}' is a known transform" + (" (leading zero: N is 16)" if "016" in text else ""),
            "parse-transform",
            transform=text,
        )
    for text, why in (
        ("bucket[0]", "zero buckets"),
        ("bucket[2147483648]", "N beyond Integer.MAX_VALUE"),
        ("bucket[99999999999999999999]", "N of 20 digits"),
    ):
        yield case(
            "transform.bucket.n",
            text,
            f"'{text}' is an invalid bucket transform: {why}",
            "parse-transform",
            transform=text,
        )
    for text, why in (("truncate[0]", "width 0"), ("truncate[2147483648]", "W beyond Integer.MAX_VALUE")):
        yield case(
            "transform.truncate.width",
            text,
            f"'{text}' is an invalid truncate transform: {why}",
            "parse-transform",
            transform=text,
        )
    for text in ("zorder", "geohash[5]", "bucket_v2[16]", "identity[3]", "hours", "custom:transform(a, b)"):
        yield case(
            "transform.unknown",
            text,
            f"'{text}' is an unknown transform: parsed, kept verbatim, never an error",
            "parse-transform",
            transform=text,
        )
    yield from _malformed()


def _malformed():
    """Strings that are not of the forms of Appendix C: unknown transforms (kept verbatim), not
    errors and not rewritten (`bucket[+5]` stays `bucket[+5]`). The spec writes every transform
    name in lower case and defines no other spelling, so `BUCKET[16]` is not `bucket[16]`."""
    for text, why in (
        ("bucket[]", "an empty N"),
        ("bucket[-1]", "a sign is not a digit: -1 is no number of buckets"),
        ("bucket[+5]", "a sign is not a digit"),
        ("bucket[abc]", "a non-numeric N"),
        ("bucket[x]", "a non-numeric N"),
        ("truncate[-3]", "a negative width"),
        ("truncate[ 4 ]", "spaces inside the brackets"),
        ("bucket[1.5]", "a fractional N"),
        ("bucket[16", "no closing bracket"),
        ("BUCKET[16]", "upper case: the spec's name is bucket"),
        ("Bucket[16]", "capitalized"),
        ("TRUNCATE[4]", "upper case truncate"),
        ("Identity", "capitalized identity"),
        ("YEAR", "upper case year"),
        ("Void", "capitalized void"),
    ):
        slug = _case_slug(text)
        yield case(
            "transform.unknown",
            f"malformed-{slug}",
            f"'{text}' is not a transform string of Appendix C ({why}): an unknown transform, kept verbatim",
            "parse-transform",
            transform=text,
        )
    for text in ("BUCKET[16]", "bucket[+5]", "Identity"):
        slug = _case_slug(text)
        yield case(
            "transform.unknown",
            f"apply-{slug}",
            f"'{text}' is an unknown transform: it has no value to compute",
            "transform",
            transform=text,
            type="int",
            value=34,
        )
    for text, what in forms.EQUIVALENT:
        yield case(
            "transform.identity",
            f"identity-decimal-form-{text}",
            f"identity of {forms.TYPE} given as {text} ({what}): the value at scale 2",
            "transform",
            transform="identity",
            type=forms.TYPE,
            value=forms.form(text),
        )


def _case_slug(text: str) -> str:
    """`BUCKET[16]` -> `upper-bucket[16]`, `Identity` -> `capitalized-identity` (slugs are lower case)."""
    if text == text.lower():
        return text
    return ("upper-" if text == text.upper() else "capitalized-") + text.lower()
