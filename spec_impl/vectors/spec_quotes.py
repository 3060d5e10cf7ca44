"""The quotes of the rule index chosen by hand: (rule id, cited source heading) -> the whole sentence
of that section to quote, where the keyword pick of `spec_sections.quote` is wrong or a table
fragment. Each must be a whole sentence (`spec_sections.fragment_reason`) of its section
(tests/test_rule_index.py)."""

# (rule id, cited source heading) -> the sentence to quote, where the keyword pick is wrong.
# Chosen by reading a sample of the automatic picks (see the rule index's docstring).
_EVOLVE = (
    "Any struct, including a top-level schema, can evolve through deleting fields, adding new fields, renaming "
    "existing fields, reordering existing fields, or promoting a primitive using the valid type promotions."
)
QUOTES: dict[tuple[str, str], str] = {
    ("binary.promoted-bound", "Schema Evolution"): _EVOLVE,
    (
        "binary.promoted-bound",
        "§1.1",
    ): "Existing bounds are not rewritten, so the original type is inferred from byte length:",
    (
        "deletes.equality-scope",
        "Scan Planning",
    ): "An equality delete file must be applied to a data file when all of the following are true:",
    (
        "deletes.position-scope",
        "Scan Planning",
    ): "A position delete file must be applied to a data file when all of the following are true:",
    (
        "dv.position",
        "§1.6",
    ): "**Keys:** the key is the high 32 bits of a position and the bitmap holds the low 32 bits.",
    (
        "evolution.default.initial",
        "Default values",
    ): "The initial-default is set only when a field is added to an existing schema.",
    (
        "evolution.field-id.kept",
        "Schema Evolution",
    ): "Renaming an existing field must change the name, but not the field ID.",
    (
        "evolution.field-id.new",
        "Schema Evolution",
    ): "Adding a new field assigns a new ID for that field and for any nested fields.",
    ("evolution.required", "Schema Evolution"): _EVOLVE,
    (
        "type.primitive",
        "Schemas and Data Types",
    ): "All data types are either primitives or nested types, which are maps, lists, or structs.",
    ("v4.tree.depth", "Proposal"): "This enforces a hierarchy with at most two levels.",
    # whole sentences for rules whose automatic pick was a table fragment (a field or type row)
    ("metrics.lower-bound", "Manifests"): (
        "Single-value serialization for lower and upper bounds is detailed in Appendix D."
    ),
    ("metrics.upper-bound", "Manifests"): (
        "Single-value serialization for lower and upper bounds is detailed in Appendix D."
    ),
    ("data-file.partition-tuple", "Manifests"): (
        "The partition struct stores the tuple of partition values for each file."
    ),
    ("data-file.partition-tuple.single", "Manifests"): (
        "The partition struct stores the tuple of partition values for each file."
    ),
    ("file.record-count", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("file.size-in-bytes", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("metrics.value-count", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("manifest.avro-schema", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("partition-spec.partition-type", "Manifests"): (
        "Its type is derived from the partition fields of the partition spec used to write the manifest file."
    ),
    ("tree.file-path-uri", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("tree.manifest-format-version", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("content-file.column-sizes", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("delete-file.equality-columns", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("delete-file.schema", "Delete Formats"): (
        "Row-level delete files are valid Iceberg data files: files must use valid Iceberg formats, schemas, and "
        "column projection."
    ),
    ("content-file.utf8-strings", "Primitive Types"): "Character strings must be stored as UTF-8 encoded byte arrays.",
    ("content-file.avro-optional-union", "Avro"): (
        "Optional fields, array elements, and map values must be wrapped in an Avro union with null."
    ),
    ("content-file.uuid-fixed", "Primitive Types"): "Supported primitive types are defined in the table below.",
    ("tree.split-offsets", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("tree.position-delete-sort-order", "Manifests"): (
        "Position deletes are required to be sorted by file and position, not a table order, and should set sort "
        "order id to null."
    ),
    ("tree.sort-order-id", "Sorting"): "Therefore, the table must declare all the sort orders for lookup.",
    ("tree.manifest-schema-id", "Manifests"): (
        "This is required because a manifest file’s schema is based on its partition spec (see below)."
    ),
    ("hash.bytes", "Appendix B: 32-bit Hash Requirements"): (
        "The 32-bit hash implementation is 32-bit Murmur3 hash, x86 variant, seeded with 0."
    ),
    ("hash.string", "Appendix B: 32-bit Hash Requirements"): (
        "The 32-bit hash implementation is 32-bit Murmur3 hash, x86 variant, seeded with 0."
    ),
    ("dv.key-order", "§1.6"): (
        "**Java reading:** accepts sparse keys, which must be increasing and between 0 and 2^31−2."
    ),
    ("dv.layout", "§1.6"): (
        "**`content_offset` and `content_size_in_bytes`** cover the whole blob, prefix and CRC included."
    ),
    ("puffin.codec", "§4"): (
        "**Payload:** UTF-8 JSON, either uncompressed or a single LZ4 frame with the content size included."
    ),
    ("ref.branch-only-retention", "Snapshot Reference"): (
        "The snapshot reference object records all the information of a reference including "
        "snapshot ID, reference type and Snapshot Retention Policy."
    ),
    ("ref.positive", "Snapshot Reference"): (
        "The snapshot reference object records all the information of a reference including "
        "snapshot ID, reference type and Snapshot Retention Policy."
    ),
    ("ref.type", "Snapshot Reference"): ("Iceberg tables keep track of branches and tags using snapshot references."),
    ("retention.main-never-expires", "Snapshot Reference"): ("The main branch never expires."),
    ("table.format-version", "Appendix C: JSON serialization"): (
        "Table metadata is serialized as a JSON object according to the following table."
    ),
    ("table.required-field", "Appendix C: JSON serialization"): (
        "Table metadata is serialized as a JSON object according to the following table."
    ),
    ("retention.ref-age", "Snapshot Retention Policy"): (
        "Retention policy can be configured both globally and on snapshot reference through "
        "properties min-snapshots-to-keep, max-snapshot-age-ms and max-ref-age-ms."
    ),
    ("retention.ref-snapshots", "Snapshot Retention Policy"): (
        "The snapshot expiration procedure removes snapshots from table metadata and applies "
        "the table's retention policy."
    ),
    ("transform.parse", "Partition Transforms"): ("All transforms must return null for a null input value."),
    ("transform.source-type", "Partition Transforms"): ("All transforms must return null for a null input value."),
    ("partition-spec.partition-type", "Partitioning"): (
        "Tables are configured with a partition spec that defines how to produce a tuple of "
        "partition values from a record."
    ),
    ("partition-spec.transform.arity", "Partitioning"): (
        "The source columns, selected by ids, must be a primitive type and cannot be "
        "contained in a map or list, but may be nested in a struct."
    ),
    ("partition-spec.field-id.reuse", "Partition Evolution"): (
        "When evolving a spec, changes should not cause partition field IDs to change because "
        "the partition field IDs are used as the partition tuple field IDs in manifest files."
    ),
    ("partition-spec.v1-evolution.append", "Partition Evolution"): (
        "In v1, partition field IDs were not tracked, but were assigned sequentially starting "
        "at 1000 in the reference implementation."
    ),
    ("partition-spec.v1-evolution.drop", "Partition Evolution"): (
        "In v1, partition field IDs were not tracked, but were assigned sequentially starting "
        "at 1000 in the reference implementation."
    ),
    ("partition-spec.v1-evolution.reorder", "Partition Evolution"): (
        "In v1, partition field IDs were not tracked, but were assigned sequentially starting "
        "at 1000 in the reference implementation."
    ),
    ("transform.bucket", "Bucket Transform Details"): (
        "The hash mod N must produce a positive value by first discarding the sign bit of the hash value."
    ),
    ("type.decimal", "Schemas and Data Types"): ("Decimal scale is fixed and cannot be changed by schema evolution."),
    ("type.fixed", "Schemas and Data Types"): ("Supported primitive types are defined in the table below."),
    ("v4.entry.status", "V4 content entry version_info struct"): (
        "Carried over from current format: Used to track additions and deletions of any "
        "entries including leaf manifests in the root."
    ),
    ("v4.inherit", "V4 content entry version_info struct"): ("Inherited in when null and status is 1 (added)."),
    ("partition-summary.contains-nan", "Manifest Lists"): (
        "A manifest list includes summary metadata that can be used to avoid scanning all of "
        "the manifests in a snapshot when planning a table scan."
    ),
    ("partition-summary.contains-null", "Manifest Lists"): (
        "A manifest list includes summary metadata that can be used to avoid scanning all of "
        "the manifests in a snapshot when planning a table scan."
    ),
    ("partition-summary.fields", "Manifest Lists"): (
        "A manifest list includes summary metadata that can be used to avoid scanning all of "
        "the manifests in a snapshot when planning a table scan."
    ),
    ("file-pruning.manifest-counts", "Scan Planning"): (
        "Manifests that contain no matching files, determined using either file counts or partition "
        "summaries, may be skipped."
    ),
    ("file-pruning.manifest-summaries", "Manifest Lists"): (
        "A manifest list includes summary metadata that can be used to avoid scanning all of "
        "the manifests in a snapshot when planning a table scan."
    ),
    ("partition-summary.lower-bound", "Manifest Lists"): (
        "Lower and upper bounds are serialized to bytes using the single-object serialization in Appendix D."
    ),
    ("partition-summary.upper-bound", "Manifest Lists"): (
        "Lower and upper bounds are serialized to bytes using the single-object serialization in Appendix D."
    ),
    ("manifest.min-sequence-number", "Manifest Lists"): (
        "When a manifest list is written, the (optimistic) sequence number of the snapshot is "
        "written for all new manifest files tracked by the list."
    ),
    ("partition-spec.field-id.last-partition-id", "Table Metadata Fields"): (
        "This is used to ensure partition fields are always assigned an unused ID when evolving specs."
    ),
    ("table.default-spec", "Table Metadata Fields"): (
        "Note that this is used by writers to partition data, but is not used when reading "
        "because reads use the specs stored in manifest files."
    ),
    ("table.default-sort-order", "Table Metadata Fields"): (
        "Note that this could be used by writers, but is not used when reading because reads "
        "use the specs stored in manifest files."
    ),
    ("table.current-schema", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("table.unique-ids", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("table.field-type", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("table.required-field", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("snapshot.last-sequence-number", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("table.deprecated-ignored", "Table Metadata Fields"): ("For serialization details, see Appendix C."),
    ("snapshot-log.json", "Table Metadata Fields"): (
        "Each time the current-snapshot-id is changed, a new entry should be added with the "
        "last-updated-ms and the new current-snapshot-id."
    ),
    ("snapshot-log.order", "Table Metadata Fields"): (
        "Each time the current-snapshot-id is changed, a new entry should be added with the "
        "last-updated-ms and the new current-snapshot-id."
    ),
    ("table.logs", "Table Metadata Fields"): (
        "Each time the current-snapshot-id is changed, a new entry should be added with the "
        "last-updated-ms and the new current-snapshot-id."
    ),
    ("tree.file-location", "Table Metadata Fields"): (
        "This is used by writers to determine where to store data files, manifest files, and table metadata files."
    ),
    ("scan.read-schema", "Snapshots"): ("Scans are planned by reading the manifest files for the current snapshot."),
    ("snapshot.json", "Snapshots"): ("For serialization, see Appendix C."),
    ("snapshot.parent", "Snapshots"): ("Valid snapshots are stored as a list in table metadata."),
    ("tree.file-exists", "Snapshots"): ("Manifests for a snapshot are tracked by a manifest list."),
    ("sort-order.record-order", "Sorting"): (
        "The order of the sort fields within the list defines the order in which the sort is applied to the data."
    ),
    ("sort-order.source.exists", "Sorting"): (
        "A transform that is used to produce values to be sorted on from the source column(s)."
    ),
    ("view.format-version", "View Metadata"): ("Currently, this must be 1."),
    ("view.version-id-first", "View Metadata"): "Set to ‘1’ when the view is first created.",
    ("view.version-id-increasing", "Versions"): "Monotonically increasing id indicating the version of the view.",
    ("view.version-log-current", "View Metadata"): (
        "Each time the current-version-id is changed, a new entry should be added with the last-updated-ms and "
        "the new current-version-id."
    ),
    ("partition-spec.json", "Partition Specs"): (
        "Each partition field in fields is stored as a JSON object with the following properties."
    ),
    ("value.range", "Primitive Types"): ("Supported primitive types are defined in the table below."),
    # the history rules (spec_impl/manifests/history.py)
    ("history.data-sequence-number", "Manifest Entry Fields"): "The sequence_number field represents the data "
    "sequence number and must never change after a file is added to the dataset.",
    ("history.file-sequence-number", "Manifest Entry Fields"): "The file_sequence_number field represents the "
    "sequence number of the snapshot that added the file and must also remain unchanged upon assigning at commit.",
    ("history.deleted-were-live", "Manifest Entry Fields"): "When a file is replaced or deleted from the dataset, "
    "its manifest entry fields store the snapshot ID in which the file was deleted and status 2 (deleted).",
    ("history.append", "Snapshots"): "append -- Only data files were added and no files were removed.",
    ("history.delete", "Snapshots"): "delete -- Data files were removed and their contents logically deleted "
    "and/or delete files were added to delete rows.",
    ("history.new-manifest-sequence-number", "Manifest Lists"): "When a manifest list is written, the (optimistic) "
    "sequence number of the snapshot is written for all new manifest files tracked by the list.",
    ("history.v3-no-position-deletes", "§1.5"): "**Position-delete files in v3:** none may be added.",
    ("history.dv-removed-with-data-file", "§1.5"): "**Removing a data file** requires removing its DV from the "
    "delete manifests; the Puffin file need not be rewritten.",
    ("history.row-ids-kept", "§1.4"): "EXISTING and DELETED entries carry the value they inherited.",
    ("history.added-entry-snapshot", "Manifest Entry Fields"): "When a file is added to the dataset, its manifest "
    "entry should store the snapshot ID in which the file was added and set status to 1 (added).",
    ("history.deleted-entry-snapshot", "Manifest Entry Fields"): "When a file is replaced or deleted from the "
    "dataset, its manifest entry fields store the snapshot ID in which the file was deleted and status 2 (deleted).",
    ("history.deleted-file-re-added", "Manifest Entry Fields"): "It is not recommended to add a deleted file back to "
    "a table.",
    ("history.new-entry-sequence-numbers", "Sequence Number Inheritance"): "When adding a new file, its data and file "
    "sequence numbers are set to null because the snapshot's sequence number is not assigned until the snapshot is "
    "successfully committed.",
    ("history.new-file-row-id-null", "§1.4"): "New files are written with a null `first_row_id`.",
    ("history.manifest-row-id-kept", "§1.4"): "Existing `first_row_id` values are kept, and delete manifests get null.",
    ("history.assigned-row-ids-in-range", "§1.4"): "**`added-rows`:** an upper bound on the ids assigned, so it can "
    "include existing rows.",
    ("history.dv-merged", "§1.5"): "They must be merged into a new DV for the file they cover.",
    ("history.moved-row-lineage", "§1.4"): "If the row was modified, write `_last_updated_sequence_number` as null; "
    "otherwise copy it.",
    ("history.dv-file-size", "Manifests"): (
        "A manifest is an immutable Avro file that lists data files or delete files, along "
        "with each file’s partition data tuple, metrics, and tracking information."
    ),
    ("history.replace-rows", "Snapshots"): "replace -- Data and delete files were added and removed without changing "
    "table data; i.e., compaction, changing the data file format, or relocating data files.",
    ("history.metadata-log-entry", "Table Metadata Fields"): "Each time a new metadata file is created, a new entry "
    "of the previous metadata file location should be added to the list.",
    ("history.snapshot-log-entry", "Table Metadata Fields"): "Each time the current-snapshot-id is changed, a new "
    "entry should be added with the last-updated-ms and the new current-snapshot-id.",
    ("history.snapshot-first-row-id", "§1.4"): "**Snapshot `first-row-id`:** set to the table's `next-row-id` on every "
    "commit attempt.",
    ("history.position-file-kept", "§1.5"): "A file that covers several data files stays until all of its deletes "
    "have been replaced.",
    ("content-file.known-fields", "Default values"): (
        "Omitting a known field when writing a data file is never allowed."
    ),
    ("write.default", "Default values"): (
        "The write default for a field must be written if a field is not supplied to a write."
    ),
    ("tree.manifest-partition-spec", "Manifests"): (
        "A manifest file must store the partition spec and other metadata as properties in the Avro file's "
        "key-value metadata:"
    ),
    ("table.last-updated-ms", "Table Metadata Fields"): (
        "Each table metadata file should update this field just before writing."
    ),
    # statistics and partition statistics: the field table's own sentence for each rule
    ("table.statistics", "Table Statistics"): (
        "Statistics files metadata within statistics table metadata field is a struct with the following fields:"
    ),
    ("table.statistics.blob-metadata", "Table Statistics"): "Blob metadata is a struct with the following fields:",
    ("table.statistics.snapshot", "Table Statistics"): (
        "ID of the Iceberg table's snapshot the statistics file is associated with."
    ),
    ("table.statistics.snapshot", "Partition Statistics"): (
        "ID of the Iceberg table's snapshot the partition statistics file is associated with."
    ),
    ("table.statistics.blob-snapshot", "Table Statistics"): (
        "Sequence number of the Iceberg table's snapshot the blob was computed from."
    ),
    ("table.statistics.blobs", "Table Statistics"): (
        "A list of the blob metadata for statistics contained in the file with structure described below."
    ),
    ("table.statistics.file-size", "Table Statistics"): "Size of the statistics file.",
    ("table.statistics.file-size", "Partition Statistics"): "Size of the partition statistics file.",
    ("table.statistics.footer-size", "Table Statistics"): (
        "Total size of the statistics file's footer (not the footer payload size)."
    ),
    ("table.statistics.footer-size", "§4"): "Table statistics `file-footer-size-in-bytes` is the whole footer.",
    ("partition-statistics.file-schema", "Partition Statistics File"): (
        "The schema of the partition statistics file is as follows:"
    ),
    ("puffin.theta-sketch", "Table Statistics"): "Additional properties associated with the statistic.",
}
