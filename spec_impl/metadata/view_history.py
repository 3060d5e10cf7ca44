"""What one view metadata file shows of the view's history: writer rules a reader need not enforce.

View spec draft (`001_7d950bd0efa94146.txt`) "View Metadata" and "Versions"; the adopted view spec
(digest 5) keeps the history property and the version log, not the draft's sentences on version ids:

- `view.version-id-first` (draft): "Starts with 1." and current-version-id "Set to '1' when the view
  is first created.": every version-id is at least 1, and the version the view was created with
  (summary.operation `create`; a later definition is a `replace`) is version 1.
- `view.version-id-increasing` (draft): version-id is "Monotonically increasing": of two versions,
  the one created later (greater timestamp-ms) has the greater id. Equal timestamps say nothing.
- `view.version-history` (both): versions are "Controlled by the table property:
  “version.history.num-entries”" (adopted: "the view property"): when the property is a positive
  integer, versions holds at most that many versions.
- `view.version-log-current` (both; a should in the draft: "Each time the current-version-id is
  changed, a new entry should be added with the last-updated-ms and the new current-version-id."):
  the last version-log entry names current-version-id. The draft's view metadata has no
  last-updated-ms field, so the entry's timestamp is not compared.

    findings = view_findings(parse_view_metadata(doc, "2024-seed"))  # [] for a consistent file
"""

from __future__ import annotations

from spec_impl.metadata.partitioning import Finding
from spec_impl.metadata.view_metadata import ViewMetadata
from spec_impl.revisions import V3_ADOPTED, before, has
from spec_impl.rules import SHOULD, Rule, implements, register

_DRAFT = "View spec draft (001): Versions"
_BOTH = "View Metadata (draft and adopted)"
HISTORY_PROPERTY = "version.history.num-entries"

register(
    Rule(
        "view.version-id-first",
        "View spec draft (001): View Metadata (current-version-id)",
        "version-id starts with 1: every version-id is at least 1, and the version created with the view "
        "(summary.operation create) is version 1",
        revisions=before(V3_ADOPTED),
    ),
    Rule(
        "view.version-id-increasing",
        _DRAFT,
        "version-id is monotonically increasing: a version created later (greater timestamp-ms) has a greater "
        "version-id",
        revisions=before(V3_ADOPTED),
    ),
    Rule(
        "view.version-history",
        _BOTH,
        "When the view property version.history.num-entries is a positive integer, versions holds at most that "
        "many versions",
    ),
    Rule(
        "view.version-log-current",
        "View Metadata (version-log)",
        "A recommendation (should): each change of current-version-id adds a version-log entry naming the new "
        "current version, so the last entry names current-version-id",
        strength=SHOULD,
    ),
)


@implements("view.version-id-first", "view.version-id-increasing")
def version_id_findings(view: ViewMetadata) -> list[Finding]:
    """The draft's version-id rules (no findings under the adopted revision, which has neither)."""
    if has(view.revision, V3_ADOPTED):
        return []
    found = []
    for v in view.versions:
        created = dict(v.summary).get("operation") == "create"
        if v.version_id < 1 or (created and v.version_id != 1):
            why = "the version the view was created with" if created else "a version"
            found.append(Finding("view.version-id-first", f"{why} has version-id {v.version_id}"))
    for a in view.versions:
        for b in view.versions:
            if a.timestamp_ms < b.timestamp_ms and a.version_id > b.version_id:
                found.append(
                    Finding(
                        "view.version-id-increasing",
                        f"version {a.version_id} was created before version {b.version_id}",
                    )
                )
    return found


@implements("view.version-history", "view.version-log-current")
def view_findings(view: ViewMetadata) -> list[Finding]:
    """Every writer finding of one view metadata file (musts and recommendations: rules of strength should)."""
    found = version_id_findings(view)
    limit = dict(view.properties or ()).get(HISTORY_PROPERTY, "")
    if limit.isdigit() and int(limit) > 0 and len(view.versions) > int(limit):
        found.append(
            Finding(
                "view.version-history",
                f"{len(view.versions)} versions kept, {HISTORY_PROPERTY} is {limit}",
            )
        )
    last = view.version_log[-1].version_id if view.version_log else None
    if last != view.current_version_id:
        found.append(
            Finding(
                "view.version-log-current",
                f"the last version-log entry names {last}, current-version-id is {view.current_version_id}",
            )
        )
    return found
