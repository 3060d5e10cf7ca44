"""Hypothesis strategies for Iceberg types and physical values: a public API for engine tests.

    >>> from hypothesis import given
    >>> from spec_impl import strategies as ist
    >>> @given(ist.typed_values(ist.primitive_types(bucketable=True)))
    ... def test_bucket(tv): ...

Values follow the physical model of `spec_impl.values` and span the full range of each type,
including its extremes; hypothesis shrinks integers towards 0, strings and bytes towards empty.
"""

from __future__ import annotations

import string
from typing import Any

from hypothesis import strategies as st

from spec_impl import types as T
from spec_impl.temporal import MICROS_PER_DAY
from spec_impl.transforms import SOURCE_TYPES
from spec_impl.values import INT_RANGE, LONG_RANGE, decimal_from_unscaled

BUCKETABLE = tuple(sorted(SOURCE_TYPES["bucket"]))  # the source types of bucket[N] ("Partition Transforms")
# the simple types with values: every simple type but unknown (null only) and variant (not primitive)
_SIMPLE = tuple(n for n in T.SIMPLE_TYPE_NAMES if n not in ("unknown", "variant"))


def decimal_types(max_precision: int = T.MAX_DECIMAL_PRECISION) -> st.SearchStrategy[T.DecimalType]:
    """decimal(P, S) with 1 <= P <= max_precision and 0 <= S <= P; shrinks towards decimal(1, 0)."""
    if not 1 <= max_precision <= T.MAX_DECIMAL_PRECISION:
        raise ValueError(f"max_precision must lie in [1, 38], got {max_precision!r}")
    return st.integers(1, max_precision).flatmap(lambda p: st.integers(0, p).map(lambda s: T.DecimalType(p, s)))


def primitive_types(*, bucketable: bool = False) -> st.SearchStrategy[T.PrimitiveType]:
    """Primitive types with values (not unknown, variant or the geo types); `bucketable` narrows to
    the source types of bucket[N]."""
    names = [n for n in _SIMPLE if not bucketable or n in BUCKETABLE]
    fixed = st.integers(0 if not bucketable else 1, 32).map(T.FixedType)
    return st.one_of(st.sampled_from([T.SimpleType(n) for n in names]), decimal_types(), fixed)


def type_kinds(*, bucketable: bool = False) -> list[T.PrimitiveType]:
    """One type of each kind `primitive_types` draws (decimal(9, 2) for the decimals, fixed[16] for
    the fixed types): what a test asks an engine about before drawing from the kinds it answers."""
    names = [n for n in _SIMPLE if not bucketable or n in BUCKETABLE]
    return [T.SimpleType(n) for n in names] + [T.DecimalType(9, 2), T.FixedType(16)]


def types_like(t: T.PrimitiveType, *, bucketable: bool = False) -> st.SearchStrategy[T.PrimitiveType]:
    """The types of `t`'s kind (every decimal(P, S), every fixed[L]; a simple type is its own kind)."""
    if isinstance(t, T.DecimalType):
        return decimal_types()
    if isinstance(t, T.FixedType):
        return st.integers(0 if not bucketable else 1, 32).map(T.FixedType)
    return st.just(t)


def sample_value(t: T.PrimitiveType) -> Any:
    """A small valid value of a type of `type_kinds` (the value of a probing input)."""
    if isinstance(t, T.DecimalType):
        return decimal_from_unscaled(1, t.scale)
    if isinstance(t, T.FixedType):
        return bytes(t.length)
    samples = {"boolean": True, "float": 1.0, "double": 1.0, "string": "a", "binary": b"\x01"}
    if t.name == "uuid":
        import uuid

        return uuid.UUID(int=1)
    return samples.get(t.name, 1)


def values(t: T.IcebergType, *, allow_nan: bool = True) -> st.SearchStrategy[Any]:
    """Non-null physical values of primitive type `t`, covering the whole range of the type."""
    name = getattr(t, "name", None)
    if name in ("int", "date"):
        return st.integers(*INT_RANGE)
    if name in ("long", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns"):
        return st.integers(*LONG_RANGE)
    if name == "time":
        return st.integers(0, MICROS_PER_DAY - 1)
    if name == "boolean":
        return st.booleans()
    if name == "float":
        return st.floats(width=32, allow_nan=allow_nan, allow_infinity=allow_nan)
    if name == "double":
        return st.floats(allow_nan=allow_nan, allow_infinity=allow_nan)
    if isinstance(t, T.DecimalType):
        bound = 10**t.precision - 1
        return st.integers(-bound, bound).map(lambda u: decimal_from_unscaled(u, t.scale))
    if name == "string":
        return st.text(alphabet=st.characters(codec="utf-8"))
    if name == "uuid":
        return st.uuids()
    if isinstance(t, T.FixedType):
        return st.binary(min_size=t.length, max_size=t.length)
    if name == "binary":
        return st.binary()
    raise ValueError(f"no value strategy for type {t}")


def typed_values(
    type_strategy: st.SearchStrategy[T.PrimitiveType], *, allow_nan: bool = True
) -> st.SearchStrategy[tuple]:
    """(type, value) pairs: a type, then a value of it."""
    return type_strategy.flatmap(lambda t: values(t, allow_nan=allow_nan).map(lambda v: (t, v)))


def transform_strings(max_param: int = 2**31 - 1) -> st.SearchStrategy[str]:
    """Known transform strings: identity, bucket[N], truncate[W], year, month, day, hour, void."""
    params = st.integers(1, max_param)
    return st.one_of(
        st.sampled_from(["identity", "year", "month", "day", "hour", "void"]),
        params.map("bucket[{}]".format),
        params.map("truncate[{}]".format),
    )


def unknown_transform_strings() -> st.SearchStrategy[str]:
    """Strings that name no known transform (what v3 readers must tolerate)."""
    known = {"identity", "year", "month", "day", "hour", "void"}
    text = st.text(alphabet=string.ascii_lowercase + string.digits + "_[](),: ", min_size=1, max_size=20)
    return text.filter(lambda s: s not in known and not s.startswith(("bucket[", "truncate[")))
