"""The rule × type table (spec_impl/vectors/type_table.py): every rule that takes a source type has
vectors for every primitive type it applies to, at each kind of value the type has."""

from __future__ import annotations

import pytest

from conformance.vectors import load_families
from spec_impl.vectors import type_table as tt
from spec_impl.vectors.families import _type_edges

CASES = [c for cases in load_families().values() for c in cases]
EDGE_FAMILIES = ("type-edges", "type-edges-planning")


def test_no_cell_of_the_table_is_empty():
    empty = tt.empty_cells(CASES)
    assert empty == [], "empty cells (rule, type, kind): " + ", ".join(map(str, empty))


def test_the_table_names_the_cells_the_older_families_left_empty():
    """Without the edge families the same check names cells (it can fail): a void of a null, the
    Appendix B hash of an extreme date."""
    older = [c for f, cases in load_families().items() if f not in EDGE_FAMILIES for c in cases]
    empty = set(tt.empty_cells(older))
    assert {("transform.void", "boolean", "null"), ("hash.appendix-b", "date", "extreme")} <= empty


def test_the_table_follows_the_spec_tables():
    """Source types from "Partition Transforms"; Appendix B hashes no float; floats are no delete columns."""
    assert tt.applies("transform.truncate", "string") and not tt.applies("transform.truncate", "date")
    assert tt.applies("transform.hour", "timestamp") and not tt.applies("transform.hour", "date")
    assert not tt.applies("transform.bucket", "boolean") and tt.applies("transform.void", "boolean")
    assert tt.applies("hash.appendix-b", "double") is True  # "float and double: hashLong(doubleToLongBits)"
    assert not tt.applies("deletes.equality", "double") and tt.applies("deletes.equality", "uuid")
    assert ("hash.appendix-b", "int", "null") not in set(tt.table_rows())


@pytest.mark.parametrize(
    ("type_text", "value", "kind"),
    [
        ("int", -(2**31), "extreme"),
        ("long", 2**63 - 1, "extreme"),
        ("long", -1, "negative"),
        ("double", {"ieee754": "8000000000000000"}, "zero"),
        ("float", {"ieee754": "7fc00001"}, "nan"),
        ("float", {"ieee754": "ff800000"}, "extreme"),
        ("decimal(4,2)", "99.99", "extreme"),
        ("decimal(4,2)", "9.99", None),
        ("date", "1969-12-31", "negative"),
        ("timestamptz", "1970-01-01T00:00:00.000000+00:00", "zero"),
        ("timestamp_ns", "2262-04-11T23:47:16.854775807", "extreme"),
        ("timestamp", "2262-04-11T23:47:16.854775", None),
        ("string", "", "empty"),
        ("string", "é", "multi-byte"),
        ("binary", "ff", "extreme"),
        ("uuid", "00000000-0000-0000-0000-000000000000", "zero"),
        ("boolean", None, "null"),
    ],
)
def test_a_value_has_its_kind(type_text, value, kind):
    assert tt.value_kind(type_text, value) == kind


def test_every_edge_value_is_of_the_kind_it_fills():
    wrong = [(t, k, v) for t, k, _, v in _type_edges.edges() if tt.value_kind(t, v) != k]
    assert wrong == []
    assert {tt.base(t) for t in _type_edges.EDGES} == set(tt.KINDS)
    assert all(set(kinds) == set(tt.KINDS[tt.base(t)]) for t, kinds in _type_edges.EDGES.items())
