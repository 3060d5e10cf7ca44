"""Engines that reproduce real historical bugs of Iceberg implementations, for testing the suite.

Each class is the reference engine with one rule replaced by the faulty version an implementation
once shipped (the public report is named in its docstring). The suite must fail every one of them:

    pytest conformance/test_value_vectors.py --engine conformance.examples.historical_bugs:DecimalHashOnSixteenBytes

`tests/test_historical_bugs.py` checks that each fails at least one golden case.
"""

from __future__ import annotations

from typing import Any

from spec_impl import hashing, transforms
from spec_impl.temporal import MICROS_PER_DAY, MICROS_PER_HOUR, civil_from_days
from spec_impl.types import parse_type
from spec_impl.ops.encoding import decode, encode

from conformance.engines.reference.adapter import ReferenceEngine


UNCHANGED = object()


class _OneRuleReplaced(ReferenceEngine):
    """The reference, except for the inputs `faulty` answers (it returns UNCHANGED for the others)."""

    def faulty(self, op: str, inp: dict[str, Any]) -> Any:
        return UNCHANGED

    def answer(self, op: str, inp: dict[str, Any]) -> Any:
        wrong = self.faulty(op, inp)
        return super().answer(op, inp) if wrong is UNCHANGED else wrong


def _transform_input(inp: dict[str, Any]):
    t = parse_type(inp["type"])
    return transforms.parse_transform(inp["transform"]), t, decode(t, inp["value"])


class TemporalTransformsTruncateTowardZero(_OneRuleReplaced):
    """Iceberg Java 0.10 and older: hour/day/month/year of values before 1970 rounded toward zero,
    so 1969-12-31T23:59:59 fell into hour 0 (apache/iceberg#1680)."""

    name = "bug-temporal-toward-zero"

    def faulty(self, op, inp):
        if op != "transform" or inp["transform"] not in ("year", "month", "day", "hour") or inp["value"] is None:
            return UNCHANGED
        t, source, value = _transform_input(inp)
        if source.name == "date":  # type: ignore[attr-defined]
            return UNCHANGED  # the date transforms were right
        micros = value // 1000 if source.name.endswith("_ns") else value  # type: ignore[attr-defined]
        unit = {"hour": MICROS_PER_HOUR, "day": MICROS_PER_DAY}.get(t.name)
        if unit is not None:
            result = int(micros / unit)  # truncation toward zero
        else:
            year, month, _ = civil_from_days(int(micros / MICROS_PER_DAY))
            result = year - 1970 if t.name == "year" else (year - 1970) * 12 + month - 1
        return encode(transforms.result_type(t, source, self.revision), result)


class YearIsCalendarYear(_OneRuleReplaced):
    """iceberg-cpp before apache/iceberg-cpp#495: year returned the calendar year, not years from 1970."""

    name = "bug-calendar-year"

    def faulty(self, op, inp):
        if op != "transform" or inp["transform"] != "year" or inp["value"] is None:
            return UNCHANGED
        _, source, value = _transform_input(inp)
        years_from_1970 = transforms.apply_transform("year", source, value, self.revision)
        return years_from_1970 + 1970


class TruncateCountsUtf16Units(_OneRuleReplaced):
    """Iceberg Java before apache/iceberg#340: truncate[L] of a string counted UTF-16 code units
    (`CharSequence.subSequence`), splitting characters outside the BMP (apache/iceberg#293)."""

    name = "bug-truncate-utf16"

    def faulty(self, op, inp):
        if (
            op != "transform"
            or not inp["transform"].startswith("truncate[")
            or inp["type"] != "string"
            or inp["value"] is None
        ):
            return UNCHANGED
        width = transforms.parse_transform(inp["transform"]).param
        units = inp["value"].encode("utf-16-le")[: 2 * width]
        return units.decode("utf-16-le", errors="replace")


class TruncateCountsUtf8Bytes(_OneRuleReplaced):
    """iceberg-go before apache/iceberg-go#1223: truncate[L] of a string cut L UTF-8 bytes
    (apache/iceberg-go#1222)."""

    name = "bug-truncate-utf8-bytes"

    def faulty(self, op, inp):
        if (
            op != "transform"
            or not inp["transform"].startswith("truncate[")
            or inp["type"] != "string"
            or inp["value"] is None
        ):
            return UNCHANGED
        width = transforms.parse_transform(inp["transform"]).param
        return inp["value"].encode("utf-8")[:width].decode("utf-8", errors="replace")


class DecimalHashOnSixteenBytes(_OneRuleReplaced):
    """iceberg-rust before apache/iceberg-rust#1998: a decimal was hashed from its 16-byte form with
    leading zero bytes dropped, so negative values kept their 0xff sign bytes (apache/iceberg-rust#1981)."""

    name = "bug-decimal-16-bytes"

    def faulty(self, op, inp):
        t = parse_type(inp.get("type", "int"))
        if op not in ("hash", "transform") or getattr(t, "name", "") != "decimal" or inp.get("value") is None:
            return UNCHANGED
        if op == "transform" and not inp["transform"].startswith("bucket["):
            return UNCHANGED
        unscaled = hashing.unscaled_value(t, decode(t, inp["value"]))
        raw = unscaled.to_bytes(16, "big", signed=True).lstrip(b"\x00") or b"\x00"
        h = hashing.murmur3_32(raw)
        if op == "hash":
            return h
        return (h & 0x7FFFFFFF) % transforms.parse_transform(inp["transform"]).param


class DecimalBytesOneTooMany(_OneRuleReplaced):
    """PyIceberg before apache/iceberg-python#3746: `bytes_required` gave one byte too many for
    -128, -32768, ... so those decimals hashed and serialized differently (apache/iceberg-python#3522)."""

    name = "bug-decimal-extra-byte"

    def faulty(self, op, inp):
        t = parse_type(inp.get("type", "int"))
        if op not in ("hash", "to-binary") or getattr(t, "name", "") != "decimal" or inp.get("value") is None:
            return UNCHANGED
        unscaled = hashing.unscaled_value(t, decode(t, inp["value"]))
        length = (unscaled.bit_length() + 8) // 8
        raw = unscaled.to_bytes(length, "big", signed=True)
        return hashing.murmur3_32(raw) if op == "hash" else raw.hex()


class BucketOfFalsyIsNull(_OneRuleReplaced):
    """PyIceberg 0.12 `BucketTransform.apply`: `if value` treats 0, "" and b"" like null and returns
    null for them (observed in this project's benchmark; `.transform(type)` is not affected)."""

    name = "bug-bucket-falsy-null"

    def faulty(self, op, inp):
        if op == "transform" and inp["transform"].startswith("bucket[") and inp["value"] in (0, ""):
            return None
        return UNCHANGED


class TimestampNanosHashedAsNanos(_OneRuleReplaced):
    """Implementations of the 2024 draft hashed timestamp_ns as nanoseconds; the adopted spec hashes
    floor(nanos / 1000) (the seed text versus the adopted v3, see ../shared/spec/README.md). Claims
    the adopted revision, so the ns bucket and hash cases fail."""

    name = "bug-ns-hashed-as-nanos"

    def faulty(self, op, inp):
        if (
            op not in ("hash", "transform")
            or inp.get("type") not in ("timestamp_ns", "timestamptz_ns")
            or inp.get("value") is None
        ):
            return UNCHANGED
        if op == "transform" and not inp["transform"].startswith("bucket["):
            return UNCHANGED
        from spec_impl.ops.registry import run

        return run(op, inp, "2024-seed")
