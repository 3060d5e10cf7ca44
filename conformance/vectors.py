"""Loading the golden vectors (every set under vectors/) for the conformance suite."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from spec_impl.resources import vectors_dir
from spec_impl.ops.regeneration import recover
from spec_impl.vectors.provenance import provenance_for
from spec_impl.ops.golden_tables import snapshot_case_id

VECTORS_DIR = vectors_dir()


@cache
def load_families(root: Path = VECTORS_DIR) -> dict[str, list[dict[str, Any]]]:
    """family name -> its cases, in file order, from every set directory under `root` (after
    `recover`: an interrupted regeneration is completed or discarded first)."""
    recover(root)
    families = {}
    for path in sorted(root.glob("*/*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "cases" in doc:
            families[doc["family"]] = doc["cases"]
    if not families:
        raise FileNotFoundError(f"no vectors under {root}: run `iceberg-vectors generate`")
    tables = table_cases(root)
    if tables:
        families["tables"] = tables
    return families


def table_cases(root: Path = VECTORS_DIR) -> list[dict[str, Any]]:
    """The golden tables (vectors/tables/<table>/case.json) as cases of the op `read-table`: one
    per snapshot, the input naming the table and the snapshot, the expectation its rows, and the
    provenance the table file declares (per snapshot or for the table), else `provenance_for`."""
    recover(root)
    cases = []
    for path in sorted(root.glob("tables/*/case.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for s in doc["snapshots"]:
            cases.append(
                {
                    "id": snapshot_case_id(doc["id"], s["snapshot-id"]),
                    "rule": doc["rules"][0],
                    "rules": doc["rules"],
                    "section": "Scan Planning; Delete Files; Column Projection",
                    "description": f"{doc['description']} (snapshot {s['snapshot-id']}, {s['operation']})",
                    "op": "read-table",
                    "input": {"table": doc["id"], "snapshot-id": s["snapshot-id"]},
                    "expected": {"output": {"columns": s["columns"], "rows": s["rows"]}},
                    "revisions": ["v3-adopted"],
                    "format-versions": [doc["format-version"]],
                    "obligation": s["obligation"],
                }
            )
            c = cases[-1]
            c["provenance"] = (
                s.get("provenance") or doc.get("provenance") or provenance_for(c["id"], None, c["expected"])
            )
    return cases
