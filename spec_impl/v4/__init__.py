"""Format v4 "Single File Commits" (proposal `004_535f3eae0ad26c61.txt`, lines 1-403): root
manifests, manifest delete vectors, commits, replay and the validator, as executable definitions.

- `entries`: the content entry (field ids of "Proposed Manifest Structure") and its Avro schema.
- `files`: root and leaf manifests as Avro (key-value metadata `format-version` 4, `content`
  data | delete | root); manifest DVs inline or in Puffin files; data DVs in Puffin files.
- `replay`: a root, its leaves and manifest DVs -> the live data files and their deletes.
- `commits`: the "Commit Procedure" and "Examples" as pure functions (state, operation) -> commit;
  the "Upgrade" from a v3 manifest list.
- `validate`: the proposal's rules, every violation reported with its rule id.

Rules are registered with `versions=(4,)` and `revisions=ADOPTED` (every revision from
"v3-adopted" on): the proposal builds on adopted v3 (deletion vectors, Puffin).

Open questions and the interpretation chosen
--------------------------------------------
1. Manifest DV storage (proposal Open Question 1): both. An inline manifest DV has
   `deletion_vector.inline_content` = the `deletion-vector-v1` blob (`serialize_dv`), no offset or
   size, no `file_size_in_bytes`, file_format "puffin", and a `location` that is a writer-chosen
   identifier (`<root location>#dv-<n>`): `location` is required, `file_size_in_bytes` "must be
   defined if location is defined" (v4.entry.file-size). A Puffin manifest DV is a
   `deletion-vector-v1` blob whose `referenced-data-file` property is the manifest's location.
   Data DVs (type 1) are never inline ("As in V3, no in-lined delete vectors").
2. Manifest DV positions are 0-based ordinals of entries in the leaf manifest file (the proposal:
   "the row at ordinal 1 (D2)"). Several live manifest DVs on one manifest are unioned by readers;
   the writers here keep one: a new deletion from a manifest with a DV marks the old DV DELETED and
   ADDs one DV holding the union ("subsequent new deletes must remove and compact previous delete
   vectors").
3. "Deleted entries are required when the snapshot has a non-null parent-id": every live entry of
   the parent's root that is not live in the child root appears in the child root as DELETED
   (also compacted manifests and replaced DVs; the proposal's figures omit them); a root without a
   parent has no DELETED entries (v4.root.deleted-entries).
4. ADDED vs EXISTING ("Any changes to underlying data are marked as ADDED"): an entry is ADDED iff
   it adds content to the table (a new file, a new manifest of new files) or removes some (a
   manifest DV deleting live entries, a data DV). Compacted manifests and compacted manifest DVs
   are EXISTING; their root entries carry the writing snapshot's id and sequence number.
5. "No copy on write": every file live in the parent and not in the child is removed by a DELETED
   root entry or by a position of an ADDED manifest DV of the manifest that held it; a leaf
   manifest written by a commit holds only ADDED entries of new files or only EXISTING entries of
   files live in the parent (no merging); leaf manifests hold no DELETED entries.
6. A null `version_info` reads as ADDED with everything inherited. Root entries inherit
   snapshot_id and sequence numbers from the snapshot; leaf entries from their manifest's root
   entry (v3 leaves after the upgrade too, as from their manifest-list row).
7. A manifest entry's `record_count` is the number of entries of the manifest file;
   `manifest_stats` counts the leaf's entries as v3 manifest lists do (manifest DVs not applied).
8. `referenced_file` of a manifest DV names a manifest live in the same root; of a delete manifest
   (affinity, Open Question 2) a data manifest live in the same root, and then every DV in it
   targets a data file of that data manifest.
9. Partition tuples are removed (Open Question 4): the replay gives every file the empty
   partition of its `partition_spec_id`; equality deletes are scoped by spec only.
10. `first_row_id` of a data manifest's root entry is inherited by the data files of its leaf that
   have none, as v3 assigns first_row_id from a manifest-list row (v4.lineage.first-row-id); a
   data file in the root keeps its own (the proposal gives no other source). `content_stats` is
   not modelled; `sort_order_id` only on type 0 and `equality_ids` only on type 2.
"""

from spec_impl.v4.sections import (  # noqa: F401  (the package's names, as before)
    SECTION_AFFINITY,
    SECTION_COMMIT,
    SECTION_COMPACTION,
    SECTION_ROOT,
    SECTION_STRUCTURE,
    SECTION_UPGRADE,
    V4,
)

# rule ids that rest on an interpretation of an open point (see the docstring)
PROVISIONAL_RULES = (
    "v4.entry.file-size",  # 1: inline DVs have no file size
    "v4.manifest-dv.positions",  # 2: ordinals of the leaf file
    "v4.root.deleted-entries",  # 3
    "v4.status.added",  # 4
    "v4.status.existing",  # 4
    "v4.commit.no-copy-on-write",  # 5
    "v4.compaction.no-merge",  # 5
    "v4.leaf.no-deleted",  # 5
    "v4.manifest-stats.counts",  # 7
    "v4.entry.referenced-file",  # 8 (targets live in the same root)
    "v4.affinity.targets",  # 8
)

from spec_impl.v4 import entries, files, replay, commits, validate  # noqa: E402,F401  (registers their rules)
