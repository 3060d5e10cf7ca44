"""The inputs of a campaign are made again from their index alone: a reproducer, a minimization
and a replay all rely on it (families.generate)."""

from __future__ import annotations

import io

import fastavro
import pytest

from . import avro_records, codec
from .families import FAMILIES, generate

pytestmark = pytest.mark.fuzz


@pytest.mark.parametrize("family", ["tree-walk", "v4-manifest", "v4-replay"])
def test_an_input_is_the_same_whatever_was_made_before(family):
    f = FAMILIES[family]
    with codec.deep():
        first = [codec.encode(generate(f, i, 7))[0] for i in range(40)]
        again = [codec.encode(generate(f, i, 7))[0] for i in reversed(range(40))][::-1]
    assert first == again


def test_rewritten_records_keep_each_values_type_in_a_union():
    records = [{"a": 1, "b": {"c": [1.5, None]}}, {"a": "x", "b": None}, {"a": None, "b": {"c": []}}]
    data = avro_records.write({"k": "v"}, records)
    reader = fastavro.reader(io.BytesIO(data))
    assert list(reader) == records
    assert reader.metadata["k"] == "v"


def test_deep_nesting_is_rewritten():
    deep: dict = {"x": None}
    for _ in range(800):
        deep = {"x": deep}
    with codec.deep():
        data = avro_records.write({}, [deep])
        assert list(fastavro.reader(io.BytesIO(data))) == [deep]


def test_a_long_digit_run_replaces_one_run_of_one_string():
    import random

    from . import mutate_json

    assert mutate_json.long_digit_run(random.Random(1), {"type": "date", "n": 5}) is None  # no digit in any string
    seed = {"type": "decimal(9,2)", "json": "1.50"}
    made = [mutate_json.long_digit_run(random.Random(i), seed) for i in range(60)]
    assert seed == {"type": "decimal(9,2)", "json": "1.50"}  # the seed is not changed
    assert all(sum(a != b for a, b in zip(m.values(), seed.values())) == 1 for m in made)
    assert any("9" * 5000 in m["type"] for m in made) and any(len(m["json"]) > 4300 for m in made)
