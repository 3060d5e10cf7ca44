"""Every reproducer of corpus/ runs forever: an escape found once must stay fixed (families of the
reference) or stay recorded in VALUE_ESCAPES.md (value and protocol families)."""

from __future__ import annotations

import pytest

from . import corpus
from .families import FAMILIES
from .known import tolerated

pytestmark = pytest.mark.fuzz


@pytest.mark.parametrize("family,path", corpus.entries(), ids=[f"{f}/{p.name}" for f, p in corpus.entries()])
def test_reproducer(family, path, fuzz_pool):
    assert family in FAMILIES, f"{path}: no family {family!r}"
    outcome = fuzz_pool.run(family, *corpus.load(path))
    assert tolerated(family, outcome), f"{path}: {outcome.kind} {outcome.detail} {outcome.message}"


def test_corpus_is_not_empty():
    """The campaign has found escapes before; their reproducers are kept (see README.md)."""
    assert len(corpus.entries()) > 0
