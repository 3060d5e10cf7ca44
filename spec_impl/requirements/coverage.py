"""Coverage of the requirement index: statements by status per document and per section;
testable = all but untestable and superseded; `checked-share` = checked / testable (null when none is testable)."""

from __future__ import annotations

from typing import Any

from spec_impl.requirements.sources import NOT_TESTABLE, STATUSES


def counts(statements: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"statements": len(statements)}
    out.update({status: sum(1 for s in statements if s["status"] == status) for status in STATUSES})
    out["testable"] = len(statements) - sum(out[status] for status in NOT_TESTABLE)
    out["checked-share"] = round(out["checked"] / out["testable"], 4) if out["testable"] else None
    return out


def by_document(statements: list[dict[str, Any]]) -> dict[str, Any]:
    """document -> {"total": counts, "sections": {section: counts}}, sections in text order."""
    out: dict[str, Any] = {}
    for document in dict.fromkeys(s["document"] for s in statements):
        mine = [s for s in statements if s["document"] == document]
        sections = dict.fromkeys(s["section"] for s in mine)
        out[document] = {
            "total": counts(mine),
            "sections": {sec: counts([s for s in mine if s["section"] == sec]) for sec in sections},
        }
    return out
