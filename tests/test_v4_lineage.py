"""v4 row lineage (rule v4.lineage.first-row-id): a data manifest's root entry first_row_id is
inherited by the data files of its leaf, as v3 assigns it from a manifest-list row."""

from __future__ import annotations

from spec_impl.v4.replay import replay
from spec_impl.vectors.families._v4_entry_cases import LINEAGE


def _first_row_ids(slug: str) -> dict[str, int | None]:
    build = next(b for s, _, b in LINEAGE if s == slug)
    t = build()
    live = replay(t.read, t.commits[-1].root)
    return {path.rsplit("/", 1)[1]: e.first_row_id for path, e in sorted(live.data_files.items())}


def test_v4_lineage_first_row_id_from_the_manifest_entry():
    assert _first_row_ids("from-manifest") == {"d1.parquet": 100, "d2.parquet": 110, "d3.parquet": 130}


def test_an_explicit_first_row_id_is_kept_and_not_counted():
    assert _first_row_ids("explicit-kept") == {"d1.parquet": 100, "d2.parquet": 500, "d3.parquet": 110}


def test_without_a_manifest_first_row_id_files_have_none():
    assert set(_first_row_ids("manifest-without").values()) == {None}
