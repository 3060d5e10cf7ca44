"""bucket[N]: (hash & Integer.MAX_VALUE) % N for every bucketable type, and its traps."""

from __future__ import annotations

from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "bucket"
DESCRIPTION = "Bucket Transform Details: bucket[N] over the Appendix B hash"

_TS = "2017-11-16T22:31:08"


def _b(slug: str, description: str, transform: str, type_, value, rule_id: str = "transform.bucket", **kw):
    return case(rule_id, slug, description, "transform", transform=transform, type=type_, value=value, **kw)


def specs():
    appendix_b = (
        ("int", 34),
        ("long", 34),
        ("decimal(4,2)", "14.20"),
        ("date", "2017-11-16"),
        ("time", "22:31:08.000000"),
        ("timestamp", f"{_TS}.000001"),
        ("timestamptz", f"{_TS}.000001+00:00"),
        ("timestamp_ns", f"{_TS}.000001001"),
        ("timestamptz_ns", f"{_TS}.000001001+00:00"),
        ("string", "iceberg"),
        ("uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7"),
        ("fixed[4]", "00010203"),
        ("binary", "00010203"),
    )
    for n in (16, 1000):
        for t, v in appendix_b:
            yield _b(
                f"{t}-appendix-b-bucket-{n}", f"bucket[{n}] of the Appendix B {t} test value", f"bucket[{n}]", t, v
            )
    # Negative hashes: the sign bit is masked off, not the absolute value taken (-h % N differs).
    for t, v, h in (
        ("decimal(4,2)", "14.20", -500754589),
        ("date", "2017-11-16", -653330422),
        ("binary", "00010203", -188683207),
        ("timestamp", f"{_TS}.000000", -2047944441),
    ):
        yield _b(
            f"{t}-negative-hash-mask",
            f"bucket[7] of a value whose hash is negative ({h}): (h & 0x7fffffff) % 7, not abs(h) % 7",
            "bucket[7]",
            t,
            v,
        )
    yield _b("bucket-1", "bucket[1] puts every value in bucket 0", "bucket[1]", "long", 123456789)
    yield _b("bucket-max-n", "bucket[2147483647]: N = Integer.MAX_VALUE", "bucket[2147483647]", "string", "iceberg")
    yield _b("int-equals-long", "bucket of int -1 equals bucket of long -1 (note 1)", "bucket[16]", "int", -1)
    yield _b("long-minus-1", "bucket of long -1", "bucket[16]", "long", -1)
    yield _b(
        "pre-epoch-ns",
        "bucket[16] of timestamp_ns 1 ns before the epoch (adopted: floor to -1 µs)",
        "bucket[16]",
        "timestamp_ns",
        "1969-12-31T23:59:59.999999999",
    )
    yield _b("string-non-bmp", "bucket[16] of a string outside the BMP", "bucket[16]", "string", "😀")
    for t, v, what in (
        ("int", 0, "int 0"),
        ("long", 0, "long 0"),
        ("string", "", "the empty string"),
        ("binary", "", "empty binary"),
        ("decimal(9,2)", "0.00", "decimal zero"),
        ("date", "1970-01-01", "day 0"),
    ):
        yield _b(
            f"falsy-{t}",
            f"bucket[16] of {what} is a bucket, not null (a falsy value is not a null value)",
            "bucket[16]",
            t,
            v,
        )
    for v in ("-1.50", "-2.50", "-0.01"):  # the hash of the minimal two's-complement bytes of a negative unscaled value
        yield _b(
            f"negative-decimal-{v}",
            f"bucket[16] of the negative decimal(10,2) {v}: the hash of the unscaled value's minimal "
            "two's-complement bytes (Appendix B), not of a sign-extended or absolute value",
            "bucket[16]",
            "decimal(10,2)",
            v,
        )
    yield _b("null", "bucket of null is null", "bucket[16]", "long", None, rule_id="transform.null")
    for t, v in (("boolean", True), ("float", 1.0), ("double", 1.0)):
        yield _b(
            f"bucket-rejects-{t}",
            f"{t} is not a bucket source type",
            "bucket[16]",
            t,
            v,
            rule_id="transform.source-type",
        )
    yield from _boundaries()


def _boundaries():
    """N at its extremes: 1 (every value in bucket 0) and Integer.MAX_VALUE (the largest int N,
    rule transform.bucket.n), on int, long and decimal, with hashes of both signs (Appendix B
    int 34 hashes to 2017239379, long -1 to a negative hash); and decimal inputs written with
    an exponent other than the scale, which bucket like the value at the type's scale."""
    for n in (1, 2**31 - 1):
        for t, v in (
            ("int", 34),
            ("int", -(2**31)),
            ("int", 2**31 - 1),
            ("long", -1),
            ("long", 2**63 - 1),
            ("decimal(38,0)", "9" * 38),
        ):
            yield _b(
                f"n-{n}-{t}-{v}",
                f"bucket[{n}] of {t} {v}: N at its {'smallest' if n == 1 else 'largest'} value",
                f"bucket[{n}]",
                t,
                v,
            )
    for text, what in forms.EQUIVALENT + forms.REJECTED:
        yield _b(
            f"decimal-form-{text}",
            f"bucket[16] of {forms.TYPE} given as {text} ({what}): the bucket of the value at scale 2",
            "bucket[16]",
            forms.TYPE,
            forms.form(text),
        )
