"""Calendar arithmetic on the spec's physical temporal values, over the whole range of their types.

Physical values (spec: Primitive Types, Appendix D): date = days from 1970-01-01, time =
microseconds from midnight, timestamp(tz) = microseconds and timestamp(tz)_ns = nanoseconds from
1970-01-01T00:00:00 (UTC for the tz types). Python's `datetime` only spans years 1..9999, so the
proleptic Gregorian conversions are done here with integer arithmetic (floor semantics throughout).
"""

from __future__ import annotations

import re

from spec_impl.digits import bounded_int
from spec_impl.errors import InvalidInput

MICROS_PER_SECOND = 1_000_000
MICROS_PER_HOUR = 3_600 * MICROS_PER_SECOND
MICROS_PER_DAY = 24 * MICROS_PER_HOUR
NANOS_PER_MICRO = 1_000
EPOCH_YEAR = 1970

# Units of the timestamp types: ticks per second, and digits of the fraction in ISO strings.
UNIT = {"us": (1_000_000, 6), "ns": (1_000_000_000, 9)}


def civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of the proleptic Gregorian date `days` after 1970-01-01."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1_460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the proleptic Gregorian date; the inverse of civil_from_days."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if (year % 4 == 0 and year % 100 != 0) or year % 400 == 0 else 28
    return 30 if month in (4, 6, 9, 11) else 31


# --- transforms' time units (floor semantics) --------------------------------------------------


def years_from_epoch_days(days: int) -> int:
    return civil_from_days(days)[0] - EPOCH_YEAR


def months_from_epoch_days(days: int) -> int:
    year, month, _ = civil_from_days(days)
    return (year - EPOCH_YEAR) * 12 + month - 1


def to_micros(value: int, unit: str) -> int:
    """A timestamp in `unit` as microseconds, floored (the adopted spec's nanos-to-micros rule)."""
    return value if unit == "us" else value // NANOS_PER_MICRO


# --- ISO-8601 formatting (Appendix D JSON) -----------------------------------------------------


def format_date(days: int) -> str:
    """ISO-8601 date; years outside 0000..9999 use the expanded form with a sign (e.g. +10000)."""
    year, month, day = civil_from_days(days)
    if 0 <= year <= 9999:
        y = f"{year:04d}"
    else:
        y = f"{'+' if year > 0 else '-'}{abs(year):04d}"
    return f"{y}-{month:02d}-{day:02d}"


def format_time_of_day(ticks: int, per_second: int, digits: int) -> str:
    """HH:MM:SS.ffffff (all `digits` fraction digits) for `ticks` since midnight."""
    seconds, fraction = divmod(ticks, per_second)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    return f"{hour:02d}:{minute:02d}:{second:02d}.{fraction:0{digits}d}"


def format_timestamp(value: int, unit: str) -> str:
    """ISO-8601 local date-time with the full fraction of `unit`, without offset."""
    per_second, digits = UNIT[unit]
    days, ticks = divmod(value, 86_400 * per_second)
    return f"{format_date(days)}T{format_time_of_day(ticks, per_second, digits)}"


# --- ISO-8601 parsing (Appendix D JSON) --------------------------------------------------------

_DATE = r"(?P<year>[+-]\d{4,}|\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
_TIME = r"(?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:\.(?P<fraction>\d{1,9}))?)?"
DATE_RE = re.compile(_DATE)
TIME_RE = re.compile(_TIME)
TIMESTAMP_RE = re.compile(_DATE + "T" + _TIME + r"(?P<offset>Z|[+-]\d{2}:\d{2})?")


_MAX_YEAR_DIGITS = 9  # a date is a 32-bit day count: about 5.9 million years either side of 1970


def parse_date_match(m: re.Match, rule: str, text: str) -> int:
    year = bounded_int(m["year"], _MAX_YEAR_DIGITS, rule, "the year (a date counts at most 2^31 days from 1970)", text)
    month, day = int(m["month"]), int(m["day"])
    if not (1 <= month <= 12 and 1 <= day <= days_in_month(year, month)):
        raise InvalidInput(rule, "not a valid calendar date", text)
    return days_from_civil(year, month, day)


def parse_time_match(m: re.Match, rule: str, text: str, unit: str) -> int:
    """Ticks since midnight; a fraction finer than `unit` is rejected, not truncated."""
    per_second, digits = UNIT[unit]
    hour, minute, second = int(m["hour"]), int(m["minute"]), int(m["second"] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise InvalidInput(rule, "not a valid time of day", text)
    fraction = m["fraction"] or ""
    if len(fraction) > digits:
        raise InvalidInput(rule, f"more than {digits} fraction digits would lose precision", text)
    ticks = int(fraction.ljust(digits, "0")) if fraction else 0
    return ((hour * 60 + minute) * 60 + second) * per_second + ticks
