"""Stale confirmations: the engines a vector's `engine-confirmed` provenance may name, each with
the version the suite pins (`engine_pins.json`, neutral data: the reference does not import the
suite), and the check that every one of them has confirmations recorded with that version.

A confirmation recorded with an older version than the pin, or none at all for a pinned engine,
is stale: the provenance and the rule index would name what an engine no longer runs, or miss an
engine. `iceberg-vectors check` fails with one line per stale engine, saying what to run.
`reference` and `reference-seed` are the suite's own reference, never confirmed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from spec_impl.vectors.provenance import CONFIRMATIONS_FILE

PINS_FILE = Path(__file__).resolve().parent / "engine_pins.json"
_VERSION = re.compile(r"\d+(?:\.\d+)*")


def pins(path: Path = PINS_FILE) -> dict[str, Any]:
    """The pins document: `engines` (name -> {"version", "pinned-by"}) and `reference`."""
    return json.loads(path.read_text(encoding="utf-8"))


def version_key(version: str) -> tuple[int, ...] | None:
    """The first dotted number of a version string as a tuple ("Iceberg 1.10.2 on Spark 3.5.9"
    -> (1, 10, 2); "1.5.5 (avro extension f9d5902)" -> (1, 5, 5)); None when it has none."""
    m = _VERSION.search(version)
    return tuple(int(p) for p in m.group().split(".")) if m else None


def record_command(engine: str) -> str:
    """What to run to record an engine's confirmations again."""
    return (
        f"pytest conformance/ --engine {engine} --compliance-report reports/ && "
        "python -m spec_impl.vectors.provenance record reports/confirmations.json && iceberg-vectors generate"
    )


def stale_confirmations(pins_path: Path = PINS_FILE, confirmations_path: Path = CONFIRMATIONS_FILE) -> list[str]:
    """One message per pinned engine whose confirmations are missing or older than its pin."""
    recorded = (
        json.loads(confirmations_path.read_text(encoding="utf-8"))["engines"] if confirmations_path.is_file() else {}
    )
    out = []
    for engine, pin in sorted(pins(pins_path)["engines"].items()):
        if engine not in recorded:
            why = f"no confirmations recorded (pinned {pin['version']})"
        else:
            have, want = version_key(recorded[engine]["version"]), version_key(pin["version"])
            if have is not None and want is not None and have >= want:
                continue
            why = f"confirmations recorded with {recorded[engine]['version']!r}, older than the pinned {pin['version']}"
        out.append(f"stale confirmations: {engine}: {why}; record again: {record_command(engine)}")
    return out
