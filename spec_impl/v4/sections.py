"""The v4 proposal's sections as rules cite them, and the versions and revisions its rules apply to
(the package docstring of `spec_impl.v4` lists the open points)."""

from spec_impl.revisions import ADOPTED

V4 = ((4,), ADOPTED)  # Rule(versions=..., revisions=...)
SECTION_ROOT = "v4 proposal: Root Manifests"
SECTION_COMMIT = "v4 proposal: Commit Procedure"
SECTION_COMPACTION = "v4 proposal: Manifest Compaction"
SECTION_STRUCTURE = "v4 proposal: Proposed Manifest Structure"
SECTION_UPGRADE = "v4 proposal: Upgrade"
SECTION_AFFINITY = "v4 proposal: Optional Affinity between Data and Delete Manifests"
