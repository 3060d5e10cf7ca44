"""The known-discrepancy file is well-formed: real engines, real cases, a reason for each."""

from __future__ import annotations

from conformance import known
from conformance.engines import registry
from conformance.vectors import load_families


def test_every_entry_names_a_case_and_an_engine_and_a_reason():
    ids = {c["id"] for cases in load_families().values() for c in cases}
    for (engine, case), d in known.load().items():
        assert engine in registry.BUILTIN, engine
        assert case in ids, f"{engine}: {case} is no longer a vector case"
        assert d.decided_by.strip() and d.observed.strip() and d.expected.strip()


def test_scopes_name_engines_and_ops():
    for scope in known.scopes():
        assert scope.engine in registry.BUILTIN and scope.ops and scope.types and scope.decided_by
