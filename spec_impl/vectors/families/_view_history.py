"""View history cases (`view-findings`): what one view metadata file shows of the view's history,
from the early draft's and the adopted spec's Appendix A examples (`spec_impl.metadata.view_history`)."""

from __future__ import annotations

import copy
from typing import Any

from spec_impl.vectors.cases import case
from spec_impl.vectors.families._views import ADOPTED, SEED, adopted_view, adopted_view_first, draft_view
from spec_impl.vectors.families._views import draft_view_first

OP = "view-findings"
LATER = 1573518999000  # after both versions of the examples


def _draft(rule_id: str, slug: str, description: str, document: Any):
    return case(rule_id, f"draft-{slug}", f"early draft: {description}", OP, revisions=SEED, document=document)


def _adopted(rule_id: str, slug: str, description: str, document: Any):
    return case(rule_id, slug, description, OP, revisions=ADOPTED, document=document)


def _renumbered(doc: dict, index: int, version_id: int) -> dict:
    """`doc` with version `index` renumbered (in versions, the log and current-version-id)."""
    doc = copy.deepcopy(doc)
    old = doc["versions"][index]["version-id"]
    doc["versions"][index]["version-id"] = version_id
    for entry in doc["version-log"]:
        if entry["version-id"] == old:
            entry["version-id"] = version_id
    if doc["current-version-id"] == old:
        doc["current-version-id"] = version_id
    return doc


def _with(doc: dict, **changes: Any) -> dict:
    doc = copy.deepcopy(doc)
    for key, value in changes.items():
        doc[key.replace("_", "-")] = value
    return doc


def _only_replace(version_id: int) -> dict:
    """The draft example after its create version expired: version 2 (a replace) only, renumbered."""
    doc = draft_view()
    doc["versions"] = doc["versions"][1:]
    return _renumbered(doc, 0, version_id)


def _version_ids():
    r = "view.version-id-first"
    yield _draft(r, "create-is-1", "the example after CREATE VIEW: its one version, version 1", draft_view_first())
    yield _draft(r, "replace-after-1", "the example after CREATE OR REPLACE: versions 1 (create) and 2", draft_view())
    doc = _renumbered(draft_view_first(), 0, 3)
    yield _draft(r, "create-is-3", "the version the view was created with (operation create) is version 3", doc)
    doc = _only_replace(2)
    yield _draft(r, "create-expired", "version 2 alone: the create version 1 expired, the log still names it", doc)
    yield _draft(r, "version-zero", "version 0 (a replace): ids start with 1", _only_replace(0))

    r = "view.version-id-increasing"
    doc = copy.deepcopy(draft_view())
    doc["versions"][1]["timestamp-ms"] = 1573518400000
    yield _draft(r, "created-out-of-order", "version 2 was created before version 1 (smaller timestamp-ms)", doc)
    doc = copy.deepcopy(doc)
    doc["versions"][1]["timestamp-ms"] = doc["versions"][0]["timestamp-ms"]
    yield _draft(r, "same-timestamp", "versions 1 and 2 created in the same millisecond", doc)


def _history():
    r = "view.version-history"
    prop = "version.history.num-entries"
    for limit, why in (("1", "two versions kept"), ("2", "two versions kept, as allowed")):
        comment = {"comment": "View captures count of the data from the table", prop: limit}
        yield _draft(r, f"num-entries-{limit}", f"{prop} {limit}: {why}", _with(draft_view(), properties=comment))
        comment = {"comment": "Daily event counts", prop: limit}
        yield _adopted(r, f"num-entries-{limit}", f"{prop} {limit}: {why}", _with(adopted_view(), properties=comment))
    doc = _with(adopted_view_first(), properties={prop: "1"})
    yield _adopted(r, "num-entries-1-one-version", f"{prop} 1 and one version", doc)

    r = "view.version-log-current"
    rollback = {"timestamp-ms": LATER, "version-id": 1}
    yield _draft(
        r,
        "rollback-unlogged",
        "current-version-id set back to 1 with no version-log entry",
        _with(draft_view(), current_version_id=1),
    )
    doc = _with(draft_view(), current_version_id=1, version_log=draft_view()["version-log"] + [rollback])
    yield _draft(r, "rollback-logged", "current-version-id set back to 1 and logged", doc)
    yield _draft(
        r,
        "empty-log",
        "an empty version-log: the creation set current-version-id",
        _with(draft_view_first(), version_log=[]),
    )
    doc = _with(adopted_view(), current_version_id=1)
    yield _adopted(r, "rollback-unlogged", "current-version-id set back to 1 with no version-log entry", doc)
    doc = _with(adopted_view(), current_version_id=1, version_log=adopted_view()["version-log"] + [rollback])
    yield _adopted(r, "rollback-logged", "current-version-id set back to 1 and logged", doc)
    yield _adopted(r, "appendix-a", "the adopted Appendix A example after the replace", adopted_view())


def specs():
    yield from _version_ids()
    yield from _history()
