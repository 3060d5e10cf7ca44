"""The known-discrepancy file is well-formed: real cases, a reason for each, and the observation
each entry pins (any engine may be named, built-in or third-party)."""

from __future__ import annotations

import re

from conformance import known
from conformance.vectors import load_families


def test_every_entry_names_a_case_and_a_reason_and_pins_an_observation():
    ids = {c["id"] for cases in load_families().values() for c in cases}
    for (engine, case), d in known.load().items():
        assert engine.strip(), case
        assert case in ids, f"{engine}: {case} is no longer a vector case"
        assert d.decided_by.strip() and d.observed.strip() and d.expected.strip()
        assert d.is_pinned, (f"{engine} {case}: pin what the engine answers (returned or raised): "
                                      "pytest --record-observations, then python -m conformance.known_pin")  # fmt: skip
        if d.raised is not None:
            re.compile(d.raised)


def test_scopes_name_engines_and_ops():
    for scope in known.scopes():
        assert scope.engine.strip() and scope.ops and scope.types and scope.decided_by
