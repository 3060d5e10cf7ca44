"""The audit's Arrow form of the column metric checks (`conformance.audit.columns`) finds what the
reference's `check_column_metrics` finds on the whole column, for every primitive type the audit
reads: the few values `deciding_values` picks decide the bounds as all the values do."""

from __future__ import annotations

import datetime
import decimal
import random
import uuid

import pyarrow as pa
import pytest

from conformance.audit.columns import NONE_CLAIMED, claimed_metrics_by_field, column_findings, deciding_values
from spec_impl.metrics.column_metrics import ColumnMetrics, check_column_metrics, column_metrics
from spec_impl.scan.arrow_values import primitive_type, rows_from_arrow
from spec_impl.serde.binary import to_binary

UTC = datetime.UTC
COLUMNS = {
    "int": (pa.int32(), lambda r: r.randint(-5, 5)),
    "long": (pa.int64(), lambda r: r.randint(-(2**40), 2**40)),
    "double": (pa.float64(), lambda r: r.choice([0.0, -0.0, 1.5, -2.25, float("nan"), float("inf")])),
    "float": (pa.float32(), lambda r: r.choice([0.0, -0.0, 0.5, -3.0, float("nan")])),
    "string": (pa.string(), lambda r: r.choice(["", "a", "ab", "b", "é", "\U0001f600"])),
    "binary": (pa.binary(), lambda r: bytes(r.randint(0, 255) for _ in range(r.randint(0, 3)))),
    "decimal": (pa.decimal128(9, 2), lambda r: decimal.Decimal(r.randint(-9999, 9999)).scaleb(-2)),
    "date": (pa.date32(), lambda r: datetime.date(1960, 1, 1) + datetime.timedelta(days=r.randint(0, 40000))),
    "time": (pa.time64("us"), lambda r: datetime.time(r.randint(0, 23), r.randint(0, 59), microsecond=r.randint(0, 9))),
    "timestamp": (
        pa.timestamp("us"),
        lambda r: datetime.datetime(1969, 12, 31) + datetime.timedelta(seconds=r.randint(0, 10**6)),
    ),
    "timestamptz": (
        pa.timestamp("us", "UTC"),
        lambda r: (
            datetime.datetime(2000, 1, 1, tzinfo=UTC) + datetime.timedelta(microseconds=r.randint(-(10**9), 10**9))
        ),
    ),
    "fixed": (pa.binary(3), lambda r: bytes(r.randint(0, 255) for _ in range(3))),
    "boolean": (pa.bool_(), lambda r: r.random() < 0.5),
    "uuid": (pa.uuid(), lambda r: uuid.UUID(int=r.choice([0, 1, 2**64, 2**127, 2**128 - 1]) ^ r.getrandbits(8)).bytes),
}


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_deciding_values_decide_the_bounds(name):
    arrow_type, draw = COLUMNS[name]
    r = random.Random(name)
    for _ in range(30):
        raw = [None if r.random() < 0.2 else draw(r) for _ in range(r.randint(0, 8))]
        arr = pa.array(raw, arrow_type)
        t = primitive_type(arrow_type)
        values = [row["v"] for row in rows_from_arrow(pa.table({"v": arr}), by_id=False)]
        exact = column_metrics(t, values)
        others = [v for v in values if v is not None]
        wrong = [to_binary(t, v) for v in r.sample(others, min(2, len(others)))]
        for lower, upper in [(exact.lower_bound, exact.upper_bound), *[(w, w) for w in wrong]]:
            claimed = ColumnMetrics(lower_bound=lower, upper_bound=upper)
            assert column_findings(t, arr, claimed) == check_column_metrics(t, values, claimed), (raw, lower, upper)
        assert len(deciding_values(t, arr)) <= 4


def test_claimed_metrics_by_field_keeps_the_first_value_of_a_key():
    data_file = {
        "value_counts": [{"key": 1, "value": 3}, {"key": 1, "value": 9}, {"key": 2, "value": 4}],
        "lower_bounds": [{"key": 2, "value": b"\x01"}],
        "upper_bounds": None,
    }
    claimed = claimed_metrics_by_field(data_file)
    assert claimed[1] == ColumnMetrics(value_count=3)
    assert claimed[2] == ColumnMetrics(value_count=4, lower_bound=b"\x01")
    assert claimed.get(3, NONE_CLAIMED) == ColumnMetrics()
