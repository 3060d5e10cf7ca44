"""truncate[W]: positive remainders, decimal scale, code points for strings, bytes for binary."""

from __future__ import annotations

from spec_impl.vectors.cases import case
from spec_impl.vectors.families import _decimal_forms as forms

NAME = "truncate"
DESCRIPTION = "Truncate Transform Details: truncate[W] of int, long, decimal, string and binary"


def _t(rule_id: str, slug: str, description: str, width: int, type_, value, **kw):
    return case(rule_id, slug, description, "transform", transform=f"truncate[{width}]", type=type_, value=value, **kw)


def specs():
    ints = "transform.truncate.integer"
    for t in ("int", "long"):
        for v in (1, -1, 10, -10, 0, 9, 11, -11, 19):
            yield _t(ints, f"{t}-w10-{v}", f"{t} {v} truncated to width 10 (remainder taken positive)", 10, t, v)
        yield _t(ints, f"{t}-w1", f"{t} width 1 is the identity", 1, t, -7)
        yield _t(ints, f"{t}-wider-than-value", f"{t} 5 with width 100 is 0", 100, t, 5)
        yield _t(ints, f"{t}-negative-wider-than-value", f"{t} -5 with width 100 is -100", 100, t, -5)
    yield _t(ints, "int-max", "int 2147483647 with width 10", 10, "int", 2**31 - 1)
    yield _t(ints, "int-min-exact", "int -2147483648 with width 2: already a multiple", 2, "int", -(2**31))
    yield _t(ints, "long-max", "long 9223372036854775807 with width 10", 10, "long", 2**63 - 1)
    yield _t(ints, "int-max-width", "int -1 with width 2147483647", 2**31 - 1, "int", -1)
    overflow = "transform.overflow"
    gap = (
        "Spec gap: the mathematical result lies outside the type. Iceberg Java computes it in 32/64-bit "
        "arithmetic and wraps around; the reference rejects it."
    )
    yield _t(
        overflow, "int-min-w10", "int -2147483648 with width 10 would be -2147483650", 10, "int", -(2**31), note=gap
    )
    yield _t(
        overflow,
        "long-min-w10",
        "long -9223372036854775808 with width 10 would leave the long range",
        10,
        "long",
        -(2**63),
        note=gap,
    )

    dec = "transform.truncate.decimal"
    yield _t(dec, "spec-example", "the spec's example: W=50, scale 2: 10.65 -> 10.50", 50, "decimal(4,2)", "10.65")
    for v in ("12.34", "-12.34", "0.05", "-0.05", "0.00", "-0.01"):
        yield _t(dec, f"w10-{v}", f"decimal(9,2) {v} with width 10 (units of 0.01, floor)", 10, "decimal(9,2)", v)
    yield _t(dec, "scale-0", "decimal(9,0) 1234 with width 100", 100, "decimal(9,0)", "1234")
    yield _t(dec, "scale-4", "decimal(9,4) 1.23456 -> width applies to the unscaled value", 3, "decimal(9,4)", "1.2345")
    yield _t(
        overflow,
        "decimal-gains-digit",
        "decimal(1,0) -9 with width 10 would be -10: two digits",
        10,
        "decimal(1,0)",
        "-9",
        note="Spec gap: the result has more digits than the precision; the reference rejects it.",
    )

    s = "transform.truncate.string"
    yield _t(s, "spec-example", "the spec's example: 'iceberg' L=3 -> 'ice'", 3, "string", "iceberg")
    yield _t(s, "shorter-than-width", "a string shorter than L is unchanged", 10, "string", "ice")
    yield _t(s, "empty", "the empty string", 3, "string", "")
    yield _t(s, "multibyte", "L counts code points: 'éèê' L=2 -> 'éè' (4 bytes)", 2, "string", "éèê")
    yield _t(s, "non-bmp", "L counts code points, not UTF-16 units: '😀😀😀' L=2 -> '😀😀'", 2, "string", "😀😀😀")
    yield _t(s, "non-bmp-mixed", "'a😀b' L=2 -> 'a😀'", 2, "string", "a😀b")
    yield _t(
        s, "combining", "a combining accent is its own code point: 'e\\u0301x' L=1 -> 'e'", 1, "string", "e\u0301x"
    )
    b = "transform.truncate.binary"
    yield _t(b, "spec-example", "the spec's example: 0102030405 L=3 -> 010203", 3, "binary", "0102030405")
    yield _t(
        b,
        "bytes-not-chars",
        "binary truncates bytes even when they look like UTF-8: c3a9c3a8 L=3",
        3,
        "binary",
        "c3a9c3a8",
    )
    yield _t(b, "empty", "empty binary", 3, "binary", "")
    yield _t(b, "shorter-than-width", "binary shorter than L is unchanged", 8, "binary", "0102")
    yield _t("transform.null", "truncate-null", "truncate of null is null", 3, "string", None)
    for t, v in (
        ("fixed[4]", "00010203"),
        ("double", 1.5),
        ("date", "2017-11-16"),
        ("uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7"),
    ):
        yield _t("transform.source-type", f"truncate-rejects-{t}", f"{t} is not a truncate source type", 4, t, v)
    yield from _boundaries()


def _boundaries():
    """W at its extremes, 1 and Integer.MAX_VALUE (rule transform.truncate.width: W is a positive int).
    With W = 2**31 - 1 on an int, ((v % W) + W) of the spec's formula reaches 2W - 2, beyond 32 bits:
    the expectation is the formula computed exactly (v - (((v % W) + W) % W)), which stays inside
    the int range except below -W (rule transform.overflow there)."""
    ints, w = "transform.truncate.integer", 2**31 - 1
    for t in ("int", "long"):
        for v in (2**31 - 1, 2**31 - 2, 1, 0, -1, -(2**31) + 1):
            yield _t(
                ints, f"{t}-w-max-{v}", f"{t} {v} with width 2147483647 (((v % W) + W) does not fit 32 bits)", w, t, v
            )
        for v in (2**31 - 1, 2**63 - 1, -(2**63)) if t == "long" else (2**31 - 1, -(2**31)):
            yield _t(ints, f"{t}-w1-{v}", f"{t} {v} with width 1 is itself", 1, t, v)
    yield _t(
        "transform.overflow",
        "int-min-w-max",
        "int -2147483648 with width 2147483647 would be -4294967294",
        w,
        "int",
        -(2**31),
        note="Spec gap: the result lies outside the int range; the reference rejects it.",
    )
    yield _t(
        "transform.overflow",
        "long-min-w-max",
        "long -9223372036854775808 with width 2147483647 would be below the long range",
        w,
        "long",
        -(2**63),
        note="Spec gap: the result lies outside the long range; the reference rejects it.",
    )
    yield _t(ints, "long-w-max-multiple", "long 4294967294 (2W) with width 2147483647 is itself", w, "long", 2 * w)
    dec = "transform.truncate.decimal"
    for t, v in (
        ("decimal(1,0)", "9"),
        ("decimal(1,1)", "0.9"),
        ("decimal(1,1)", "-0.1"),
        ("decimal(38,0)", "9" * 38),
        ("decimal(38,38)", "0." + "9" * 38),
        ("decimal(38,38)", "0." + "0" * 37 + "1"),
    ):
        precision, unscaled = int(t[8 : t.index(",")]), int(v.replace(".", ""))
        for width in (1, 2, w):
            fits = abs(unscaled - unscaled % width) < 10**precision  # the formula's result, computed exactly
            yield _t(
                dec if fits else "transform.overflow",
                f"{t}-w{width}-{v}",
                f"{t} {v} with width {width}"
                + ("" if fits else f": {unscaled - unscaled % width} has more than {precision} digits"),
                width,
                t,
                v,
            )
    for text, what in forms.EQUIVALENT + forms.REJECTED:
        yield _t(
            dec,
            f"decimal-form-{text}",
            f"truncate[50] of {forms.TYPE} given as {text} ({what}): truncated at scale 2",
            50,
            forms.TYPE,
            forms.form(text),
        )
    for t, v in (("string", "😀é"), ("binary", "00ff")):
        yield _t(f"transform.truncate.{t}", f"{t}-w-max", f"{t} with width 2147483647 is unchanged", w, t, v)
