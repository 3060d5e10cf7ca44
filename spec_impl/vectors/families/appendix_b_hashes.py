"""Appendix B hashes: every test value of the spec, then the edges where implementations slip."""

from __future__ import annotations

from spec_impl.revisions import ADOPTED
from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "hash"
DESCRIPTION = "Appendix B: 32-bit Murmur3 hash of single values, per type"

_TS = "2017-11-16T22:31:08"
_UUID = "f79c3e09-677c-4bbd-a479-3f349cb785e7"


def _h(rule_id: str, slug: str, description: str, type_: str, value, **kw):
    return case(rule_id, slug, description, "hash", type=type_, value=value, **kw)


def specs():
    # The spec's own test values (Appendix B). tests/test_appendix_b.py pins the numbers.
    yield _h("hash.integer", "appendix-b-int-34", "Appendix B test value: int 34", "int", 34)
    yield _h("hash.integer", "appendix-b-long-34", "Appendix B test value: long 34L", "long", 34)
    yield _h("hash.decimal", "appendix-b-14.20", "Appendix B test value: decimal 14.20", "decimal(4,2)", "14.20")
    yield _h("hash.date", "appendix-b-2017-11-16", "Appendix B test value: date 2017-11-16", "date", "2017-11-16")
    yield _h("hash.time", "appendix-b-22-31-08", "Appendix B test value: time 22:31:08", "time", "22:31:08.000000")
    for t, sfx in (("timestamp", ""), ("timestamptz", "+00:00")):
        yield _h(
            "hash.timestamp",
            f"appendix-b-{t}",
            f"Appendix B test value: {t} 2017-11-16T22:31:08",
            t,
            f"{_TS}.000000{sfx}",
        )
        yield _h(
            "hash.timestamp",
            f"appendix-b-{t}-1us",
            f"Appendix B test value: {t} one microsecond later",
            t,
            f"{_TS}.000001{sfx}",
        )
    for t, sfx in (("timestamp_ns", ""), ("timestamptz_ns", "+00:00")):
        for frac, what in (
            ("000000000", "whole second"),
            ("000001000", "one microsecond later"),
            ("000000001", "one nanosecond later"),
            ("000001001", "one microsecond and one nanosecond later"),
        ):
            yield _h(
                "hash.timestamp-ns",
                f"appendix-b-{t}-{frac}",
                f"Appendix B test value: {t} {_TS}, {what} (the seed hashes nanoseconds, the adopted spec "
                "floor(nanos/1000))",
                t,
                f"{_TS}.{frac}{sfx}",
            )
    yield _h("hash.string", "appendix-b-iceberg", "Appendix B test value: string 'iceberg'", "string", "iceberg")
    yield _h(
        "hash.uuid", "appendix-b-uuid", "Appendix B test value: uuid, hashed as 16 big-endian bytes", "uuid", _UUID
    )
    yield _h("hash.bytes", "appendix-b-fixed", "Appendix B test value: fixed[4] 00 01 02 03", "fixed[4]", "00010203")
    yield _h("hash.bytes", "appendix-b-binary", "Appendix B test value: binary 00 01 02 03", "binary", "00010203")
    yield _h("hash.boolean", "appendix-b-true", "Appendix B test value: boolean true = hashInt(1)", "boolean", True)
    for t, suffix in (("float", "F"), ("double", "D")):
        for v, s in ((1.0, "1.0"), (0.0, "0.0"), (-0.0, "-0.0")):
            yield _h("hash.floating", f"appendix-b-{t}-{s}", f"Appendix B test value: {s}{suffix}", t, v)

    # Integers: int and long agree everywhere; the sign and width are those of a 64-bit long.
    for v in (0, -1, 1, 2**31 - 1, -(2**31)):
        yield _h(
            "hash.integer", f"int-{v}", f"int {v} hashes like the long {v} (note 1: sign-extended to 8 bytes)", "int", v
        )
        yield _h("hash.integer", f"long-{v}", f"long {v}", "long", v)
    for v in (2**31, -(2**31) - 1, 2**63 - 1, -(2**63), 2**32):
        yield _h("hash.integer", f"long-{v}", f"long {v}: outside the int range, all 8 bytes matter", "long", v)

    # Decimals: minimum two's-complement bytes; the byte count changes at these boundaries.
    for unscaled in (0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 8388607, 8388608):
        yield _h(
            "hash.decimal",
            f"decimal-unscaled-{unscaled}",
            f"decimal(9,0) {unscaled}: minimum big-endian two's-complement bytes",
            "decimal(9,0)",
            str(unscaled),
        )
    yield _h(
        "hash.decimal",
        "scale-independent",
        "decimal(4,0) 1420 hashes like 14.20: the scale is not hashed (note 2)",
        "decimal(4,0)",
        "1420",
    )
    yield _h(
        "hash.decimal",
        "negative-scaled",
        "decimal(9,2) -0.01: unscaled -1 is the single byte ff",
        "decimal(9,2)",
        "-0.01",
    )
    yield _h("hash.decimal", "max-precision", "decimal(38,0) with 38 nines: 16 bytes", "decimal(38,0)", "9" * 38)
    yield _h("hash.decimal", "min-precision", "decimal(38,0) with minus 38 nines", "decimal(38,0)", "-" + "9" * 38)

    # Temporal values before the epoch and at the edges of the day.
    yield _h("hash.date", "pre-epoch", "date 1969-12-31 is day -1", "date", "1969-12-31")
    yield _h("hash.date", "epoch", "date 1970-01-01 is day 0", "date", "1970-01-01")
    yield _h("hash.time", "midnight", "time 00:00:00 is 0 µs", "time", "00:00:00.000000")
    yield _h("hash.time", "last-microsecond", "time 23:59:59.999999", "time", "23:59:59.999999")
    yield _h(
        "hash.timestamp",
        "pre-epoch",
        "timestamp one microsecond before the epoch",
        "timestamp",
        "1969-12-31T23:59:59.999999",
    )
    yield _h(
        "hash.timestamp-ns",
        "pre-epoch-1ns",
        "timestamp_ns one nanosecond before the epoch: floor(-1/1000) = -1 µs, not 0 (adopted)",
        "timestamp_ns",
        "1969-12-31T23:59:59.999999999",
    )
    yield _h(
        "hash.timestamp-ns",
        "pre-epoch-999ns",
        "timestamp_ns 999 ns before the epoch: still -1 µs after floor division (adopted)",
        "timestamp_ns",
        "1969-12-31T23:59:59.999999001",
    )
    yield _h(
        "hash.timestamp-ns",
        "pre-epoch-1000ns",
        "timestamptz_ns exactly one microsecond before the epoch",
        "timestamptz_ns",
        "1969-12-31T23:59:59.999999000+00:00",
    )

    # Strings hash their UTF-8 bytes: multi-byte and non-BMP code points, every tail length.
    for s, what in (
        ("", "the empty string (0 bytes)"),
        ("a", "1 byte"),
        ("ab", "2 bytes"),
        ("abc", "3 bytes"),
        ("abcd", "4 bytes, no tail"),
        ("abcde", "5 bytes"),
        ("é", "U+00E9, 2 UTF-8 bytes"),
        ("€", "U+20AC, 3 UTF-8 bytes"),
        ("😀", "U+1F600 outside the BMP: 4 UTF-8 bytes, not a UTF-16 surrogate pair"),
        ("a😀b", "a non-BMP code point between ASCII"),
        ("\u0000", "a NUL character"),
    ):
        yield _h("hash.string", f"string-{what}", f"string: {what}", "string", s)
    yield _h(
        "hash.uuid", "nil", "uuid 00000000-0000-0000-0000-000000000000", "uuid", "00000000-0000-0000-0000-000000000000"
    )
    yield _h(
        "hash.uuid", "max", "uuid ffffffff-ffff-ffff-ffff-ffffffffffff", "uuid", "ffffffff-ffff-ffff-ffff-ffffffffffff"
    )
    yield _h("hash.bytes", "empty-binary", "binary of length 0", "binary", "")
    for n in range(1, 9):
        yield _h(
            "hash.bytes",
            f"binary-{n}-bytes",
            f"binary of {n} bytes (tail length {n % 4})",
            "binary",
            bytes(range(0xF0, 0xF0 + n)).hex(),
        )
    yield _h(
        "hash.bytes",
        "fixed-16",
        "fixed[16]: the same bytes as the Appendix B uuid hash like it",
        "fixed[16]",
        _UUID.replace("-", ""),
    )

    # Floating point (not bucketable, but hashed): canonical NaN, -0.0, float widened to double.
    yield _h("hash.boolean", "false", "boolean false = hashInt(0)", "boolean", False)
    for t, bits in (
        ("double", "7ff8000000000000"),
        ("double", "7ff0000000000001"),
        ("double", "fff8000000000000"),
        ("double", "7fffffffffffffff"),
        ("float", "7fc00000"),
        ("float", "ffc00001"),
    ):
        yield _h(
            "hash.floating",
            f"{t}-nan-{bits}",
            f"{t} NaN with bits {bits} hashes as the canonical NaN 0x7ff8000000000000",
            t,
            {"ieee754": bits},
        )
    for t, bits in (("double", "7ff0000000000000"), ("double", "fff0000000000000"), ("float", "7f800000")):
        yield _h("hash.floating", f"{t}-inf-{bits}", f"{t} infinity (bits {bits})", t, {"ieee754": bits})
    yield _h(
        "hash.floating",
        "float-0.1",
        "float 0.1 is widened to the double 0.10000000149011612 before hashing",
        "float",
        0.1,
    )
    yield _h("hash.floating", "double-0.1", "double 0.1 hashes differently from float 0.1", "double", 0.1)
    yield _h("hash.floating", "double-min-subnormal", "the smallest positive double", "double", 5e-324)

    # Types without a hash.
    yield _h("hash.unknown", "unknown-null", "unknown: the hash is always null", "unknown", None, revisions=ADOPTED)
    for t in ("geometry", "geography"):
        yield _h("hash.undefined", f"no-hash-{t}", f"{t}: no hash is defined", t, "POINT (1 2)", revisions=ADOPTED)
    yield _h("hash.undefined", "no-hash-struct", "struct: no hash is defined", {"type": "struct", "fields": []}, {})
    yield from _decimal_forms()


def _decimal_forms():
    """Appendix B hashes a decimal's unscaled value at the type's scale: 1E+2, 100 and 100.000 are
    the decimal(10,2) value 100.00, unscaled 10000, whatever exponent the input was written with."""
    for text, what in forms.EQUIVALENT + forms.REJECTED:
        yield _h(
            "hash.decimal",
            f"decimal-form-{text}",
            f"{forms.TYPE} given as {text} ({what}): hash of the unscaled value at scale 2",
            forms.TYPE,
            forms.form(text),
        )
    for t, v in (
        ("decimal(1,0)", "9"),
        ("decimal(1,1)", "-0.9"),
        ("decimal(38,38)", "0." + "0" * 37 + "1"),
        ("decimal(38,38)", "-0." + "9" * 38),
    ):
        yield _h(
            "hash.decimal", f"extreme-{t}-{v}", f"{t} {v}: precision 1 or 38, scale 0 or equal to the precision", t, v
        )
