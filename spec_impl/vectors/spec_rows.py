"""The table rows that decide a rule, where its quote is a whole sentence that only introduces the
table (`spec_quotes.QUOTES`, `spec_sections.quote`): (rule id, cited source heading) -> the row as
one line of that section's text, verbatim. A case's obligation carries it beside the quote
(`row`), so a reader sees the words that decide the case (tests/test_rule_index.py checks each is
a whole line of its section)."""

ROWS: dict[tuple[str, str], str] = {
    ("binary.boolean", "Binary single-value serialization"): "boolean 0x00 for false, non-zero byte for true",
    ("binary.bytes", "Binary single-value serialization"): "binary Binary value (without length)",
    ("binary.decimal", "Binary single-value serialization"): (
        "decimal(P, S) Stores unscaled value as two’s-complement big-endian binary, using the minimum number "
        "of bytes for the value"
    ),
    ("binary.fixed-width", "Binary single-value serialization"): "int Stored as 4-byte little-endian",
    ("binary.geo", "§3"): (
        "| **Appendix D binary** | New rows for `unknown` and `variant` (not supported) and for `geometry` "
        'and `geography` (WKB). New "Bound serialization" subsection: geo bounds are `x:y`, `x:y:z`, '
        "`x:y:NaN:m` or `x:y:z:m` as LE doubles. A variant bound is the Variant metadata followed by an "
        "object keyed by normalised JSON paths (`$`, `$['a']['b']`) |"
    ),
    ("binary.string", "Binary single-value serialization"): "string UTF-8 bytes (without length)",
    ("binary.undefined", "Binary single-value serialization"): "struct Not supported",
    ("binary.uuid", "Binary single-value serialization"): "uuid 16-byte big-endian value, see example in Appendix B",
    ("json.boolean", "JSON single-value serialization"): "boolean JSON boolean true",
    ("json.bytes", "JSON single-value serialization"): 'binary JSON string "000102ff" Stored as a hexadecimal string',
    ("json.date", "JSON single-value serialization"): 'date JSON string "2017-11-16" Stores ISO-8601 standard date',
    ("json.decimal", "JSON single-value serialization"): (
        'decimal(P,S) JSON string "14.20", "2E+20" Stores the string representation of the decimal value, '
        "specifically, for values with a positive scale, the number of digits to the right of the decimal "
        "point is used to indicate scale, for values with a negative scale, the scientific notation is used "
        "and the exponent must equal the negated scale"
    ),
    ("json.floating", "JSON single-value serialization"): "float JSON number 1.0",
    ("json.geo", "§3"): "| **Appendix D JSON** | New: geometry and geography as WKT |",
    ("json.integer", "JSON single-value serialization"): "int JSON int 34",
    ("json.list", "JSON single-value serialization"): (
        "list JSON array of values [1, 2, 3] Stores a JSON array of values that are serialized using this "
        "JSON single-value format"
    ),
    ("json.map", "JSON single-value serialization"): (
        'map JSON object of key and value arrays { "keys": ["a", "b"], "values": [1, 2] } Stores arrays of '
        "keys and values; individual keys and values are serialized using this JSON single-value format"
    ),
    ("json.string", "JSON single-value serialization"): 'string JSON string "iceberg"',
    ("json.struct", "JSON single-value serialization"): (
        'struct JSON object by field ID {"1": 1, "2": "bar"} Stores struct fields using the field ID as the '
        "JSON field name; field values are stored using this JSON single-value format"
    ),
    ("json.time", "JSON single-value serialization"): (
        'time JSON string "22:31:08.123456" Stores ISO-8601 standard time with microsecond precision'
    ),
    ("json.timestamp", "JSON single-value serialization"): (
        'timestamp JSON string "2017-11-16T22:31:08.123456" Stores ISO-8601 standard timestamp with '
        "microsecond precision; must not include a zone offset"
    ),
    ("json.timestamptz", "JSON single-value serialization"): (
        'timestamptz JSON string "2017-11-16T22:31:08.123456+00:00" Stores ISO-8601 standard timestamp with '
        "microsecond precision; must include a zone offset and it must be '+00:00'"
    ),
    ("json.uuid", "JSON single-value serialization"): (
        'uuid JSON string "f79c3e09-677c-4bbd-a479-3f349cb785e7" Stores the lowercase uuid string'
    ),
    ("hash.boolean", "Appendix B: 32-bit Hash Requirements"): (
        "boolean false: hashInt(0), true: hashInt(1) true1392991556"
    ),
    ("hash.bytes", "Appendix B: 32-bit Hash Requirements"): "binary hashBytes(v) 00 01 02 03-188683207",
    ("hash.date", "Appendix B: 32-bit Hash Requirements"): "date hashInt(daysFromUnixEpoch(v)) 2017-11-16-653330422",
    ("hash.decimal", "Appendix B: 32-bit Hash Requirements"): (
        "decimal(P,S) hashBytes(minBigEndian(unscaled(v)))[2] 14.20-500754589"
    ),
    ("hash.floating", "Appendix B: 32-bit Hash Requirements"): (
        "float hashLong(doubleToLongBits(double(v)) [4] 1.0F-142385009, 0.0F1669671676, -0.0F1669671676"
    ),
    ("hash.integer", "Appendix B: 32-bit Hash Requirements"): "int hashLong(long(v)) [1] 342017239379",
    ("hash.string", "Appendix B: 32-bit Hash Requirements"): "string hashBytes(utf8Bytes(v)) iceberg1210000089",
    ("hash.time", "Appendix B: 32-bit Hash Requirements"): "time hashLong(microsecsFromMidnight(v)) 22:31:08-662762989",
    ("hash.timestamp", "Appendix B: 32-bit Hash Requirements"): (
        "timestamp hashLong(microsecsFromUnixEpoch(v)) 2017-11-16T22:31:08-2047944441"
    ),
    ("hash.timestamp-ns", "Appendix B: 32-bit Hash Requirements"): (
        "timestamp_ns hashLong(nanosecsFromUnixEpoch(v)) 2017-11-16T22:31:08-737750069"
    ),
    ("hash.unknown", "§3"): (
        "| **Appendix B hashing** | `timestamp_ns` and `timestamptz_ns` are now **`hashLong(micros)`**: "
        "nanoseconds are converted to micros first (Java uses floorDiv). The test values become −2047944441 "
        "and −1207196810 (for `…08.000001001`). 2024 used `hashLong(nanos)` with −737750069, −976603392 and "
        '−160215926 (#9008, 2024-09). Also added: `unknown` hashes to "always null", and `variant` has no '
        "hash |"
    ),
    ("hash.uuid", "Appendix B: 32-bit Hash Requirements"): (
        "uuid hashBytes(uuidBytes(v)) [3] f79c3e09-677c-4bbd-a479-3f349cb785e71488055340"
    ),
    ("transform.identity", "Partition Transforms"): "identity Source value, unmodified Any Source type",
    ("transform.bucket", "Bucket Transform Details"): (
        "def bucket_N(x) = (murmur3_x86_32_hash(x) & Integer.MAX_VALUE) % N"
    ),
    ("transform.year", "Partition Transforms"): (
        "year Extract a date or timestamp year, as years from 1970 date, timestamp, timestamptz, "
        "timestamp_ns, timestamptz_ns int"
    ),
    ("transform.month", "Partition Transforms"): (
        "month Extract a date or timestamp month, as months from 1970-01-01 date, timestamp, timestamptz, "
        "timestamp_ns, timestamptz_ns int"
    ),
    ("transform.day", "Partition Transforms"): (
        "day Extract a date or timestamp day, as days from 1970-01-01 date, timestamp, timestamptz, "
        "timestamp_ns, timestamptz_ns int"
    ),
    ("transform.hour", "Partition Transforms"): (
        "hour Extract a timestamp hour, as hours from 1970-01-01 00:00:00 timestamp, timestamptz, "
        "timestamp_ns, timestamptz_ns int"
    ),
    ("transform.void", "Partition Transforms"): "void Always produces null Any Source type or int",
    ("transform.truncate.binary", "Truncate Transform Details"): (
        "binary L, length Sub array of length L: v.subarray(0, L) [4] L=3: \\x01\\x02\\x03\\x04\\x05\\x01\\x02\\x03"
    ),
    ("transform.truncate.decimal", "Truncate Transform Details"): (
        "decimal W, width (no scale) scaled_W = decimal(W, scale(v)) v - (v % scaled_W) [1, 2] W=50, s=2: 10.6510.50"
    ),
    ("transform.truncate.integer", "Truncate Transform Details"): (
        "int W, width v - (v % W) remainders must be positive [1] W=10: 10, -1-10"
    ),
    ("transform.truncate.string", "Truncate Transform Details"): (
        "string L, length Substring of length L: v.substring(0, L) [3] L=3: icebergice"
    ),
    ("file.record-count", "Manifests"): "required required 103 record_count long Number of records in this file",
    ("file.size-in-bytes", "Manifests"): "required required 104 file_size_in_bytes long Total file size in bytes",
    ("metrics.value-count", "Manifests"): (
        "optional optional 109 value_counts map<119: int, 120: long> Map from column id to number of values "
        "in the column (including null and NaN values)"
    ),
    ("metrics.null-value-count", "Manifests"): (
        "optional optional 110 null_value_counts map<121: int, 122: long> Map from column id to number of "
        "null values in the column"
    ),
    ("metrics.nan-value-count", "Manifests"): (
        "optional optional 137 nan_value_counts map<138: int, 139: long> Map from column id to number of NaN "
        "values in the column"
    ),
    ("metrics.lower-bound", "Manifests"): (
        "optional optional 125 lower_bounds map<126: int, 127: binary> Map from column id to lower bound in "
        "the column serialized as binary [1]. Each value must be less than or equal to all non-null, non-NaN "
        "values in the column for the file [2]"
    ),
    ("metrics.upper-bound", "Manifests"): (
        "optional optional 128 upper_bounds map<129: int, 130: binary> Map from column id to upper bound in "
        "the column serialized as binary [1]. Each value must be greater than or equal to all non-null, "
        "non-Nan values in the column for the file [2]"
    ),
    ("metrics.geo-bound-order", "§3"): (
        "| **Geo bounds** | Null and NaN coordinates are skipped. Only geography may have xmin > xmax "
        "(antimeridian wrap) |"
    ),
    ("scan.file-format", "Manifests"): (
        "required required 101 file_format string String file format name, avro, orc or parquet"
    ),
    ("tree.file-path-uri", "Manifests"): "required required 100 file_path string Full URI for the file with FS scheme",
    ("tree.split-offsets", "Manifests"): (
        "optional optional 132 split_offsets list<133: long> Split offsets for the data file. For example, "
        "all row group offsets in a Parquet file. Must be sorted ascending"
    ),
    ("delete-file.equality-columns", "Manifests"): (
        "optional 135 equality_ids list<136: int> Field ids used to determine row equality in equality delete "
        "files. Required when content=2 and should be null otherwise. Fields with ids listed in this column "
        "must be present in the delete file"
    ),
    ("tree.manifest-length", "Manifest Lists"): (
        "required required 501 manifest_length long Length of the manifest file in bytes"
    ),
    ("tree.partition-spec-id", "Manifest Lists"): (
        "required required 502 partition_spec_id int ID of a partition spec used to write the manifest; must "
        "be listed in table metadata partition-specs"
    ),
    ("tree.min-sequence-number", "Manifest Lists"): (
        "required 516 min_sequence_number long The minimum data sequence number of all live data or delete "
        "files in the manifest; use 0 when reading v1 manifest lists"
    ),
    ("manifest.min-sequence-number", "Manifest Lists"): (
        "required 516 min_sequence_number long The minimum data sequence number of all live data or delete "
        "files in the manifest; use 0 when reading v1 manifest lists"
    ),
    ("tree.manifest-format-version", "Manifests"): (
        "optional required format-version Table format version number of the manifest as a string"
    ),
    ("tree.manifest-schema-id", "Manifests"): (
        "optional required schema-id ID of the schema used to write the manifest as a string"
    ),
    ("tree.manifest-partition-spec", "Manifests"): (
        "required required partition-spec JSON fields representation of the partition spec used to write the manifest"
    ),
    ("partition-summary.contains-null", "Manifest Lists"): (
        "required required 509 contains_null boolean Whether the manifest contains at least one partition "
        "with a null value for the field"
    ),
    ("partition-summary.contains-nan", "Manifest Lists"): (
        "optional optional 518 contains_nan boolean Whether the manifest contains at least one partition with "
        "a NaN value for the field"
    ),
    ("partition-summary.lower-bound", "Manifest Lists"): (
        "optional optional 510 lower_bound bytes [1] Lower bound for the non-null, non-NaN values in the "
        "partition field, or null if all values are null or NaN [2]"
    ),
    ("partition-summary.upper-bound", "Manifest Lists"): (
        "optional optional 511 upper_bound bytes [1] Upper bound for the non-null, non-NaN values in the "
        "partition field, or null if all values are null or NaN [2]"
    ),
    ("manifest.status", "Manifests"): (
        "required required 0 status int with meaning: 0: EXISTING 1: ADDED 2: DELETED Used to track additions "
        "and deletions. Deletes are informational only and not used in scans."
    ),
    ("snapshot.parent", "Snapshots"): (
        "optional optional parent-snapshot-id The snapshot ID of the snapshot's parent. Omitted for any "
        "snapshot with no parent"
    ),
    ("snapshot.sequence-number", "Snapshots"): (
        "required sequence-number A monotonically increasing long that tracks the order of changes to a table"
    ),
    ("snapshot.sequence-order", "Snapshots"): (
        "required sequence-number A monotonically increasing long that tracks the order of changes to a table"
    ),
    ("snapshot.manifests", "Snapshots"): (
        "optional manifests A list of manifest file locations. Must be omitted if manifest-list is present"
    ),
    ("snapshot.manifest-list", "Snapshots"): (
        "optional required manifest-list The location of a manifest list for this snapshot that tracks "
        "manifest files with additional metadata"
    ),
    ("snapshot.summary", "Snapshots"): (
        "optional required summary A string map that summarizes the snapshot changes, including operation (see below)"
    ),
    ("snapshot.unique-id", "Snapshots"): "required required snapshot-id A unique long ID",
    ("table.table-uuid", "Table Metadata Fields"): (
        "optional required table-uuid A UUID that identifies the table, generated when the table is created. "
        "Implementations must throw an exception if a table's UUID does not match the expected UUID after "
        "refreshing metadata."
    ),
    ("table.current-schema", "Table Metadata Fields"): (
        "optional required current-schema-id ID of the table's current schema."
    ),
    ("table.default-spec", "Table Metadata Fields"): (
        'optional required default-spec-id ID of the "current" spec that writers should use by default.'
    ),
    ("table.default-sort-order", "Table Metadata Fields"): (
        "optional required default-sort-order-id Default sort order id of the table. Note that this could be "
        "used by writers, but is not used when reading because reads use the specs stored in manifest files."
    ),
    ("metadata-column.file", "Reserved Field IDs"): "2147483646 _file string Path of the file in which a row is stored",
    ("metadata-column.pos", "Reserved Field IDs"): (
        "2147483645 _pos long Ordinal position of a row in the source data file"
    ),
    ("metadata-column.deleted", "Reserved Field IDs"): "2147483644 _deleted boolean Whether the row has been deleted",
    ("metadata-column.spec-id", "Reserved Field IDs"): (
        "2147483643 _spec_id int Spec ID used to track the file containing a row"
    ),
    ("metadata-column.partition", "Reserved Field IDs"): (
        "2147483642 _partition struct Partition to which a row belongs"
    ),
    ("metadata-column.partition-unified", "Reserved Field IDs"): (
        "2147483642 _partition struct Partition to which a row belongs"
    ),
    ("type.decimal", "Schemas and Data Types"): (
        "decimal(P,S) Fixed-point decimal; precision P, scale S Scale is fixed [1], precision must be 38 or less"
    ),
    ("type.fixed", "Schemas and Data Types"): "fixed(L) Fixed-length byte array of length L",
    ("value.range", "Primitive Types"): "int 32-bit signed integers Can promote to long",
    ("ref.branch-only-retention", "Snapshot Reference"): (
        "optional optional min-snapshots-to-keep int For branch type only, a positive number for the minimum "
        "number of snapshots to keep in a branch while expiring snapshots. Defaults to table property "
        "history.expire.min-snapshots-to-keep."
    ),
    ("ref.positive", "Snapshot Reference"): (
        "optional optional min-snapshots-to-keep int For branch type only, a positive number for the minimum "
        "number of snapshots to keep in a branch while expiring snapshots. Defaults to table property "
        "history.expire.min-snapshots-to-keep."
    ),
    ("ref.type", "Snapshot Reference"): "required required type string Type of the reference, tag or branch",
    ("schema.schema-id", "Schemas"): "optional required schema-id JSON int 0",
    ("content-file.json.content", "Content File (Data and Delete) Serialization"): (
        "content JSON string DATA, POSITION_DELETES, EQUALITY_DELETES"
    ),
    ("content-file.json.partition", "Content File (Data and Delete) Serialization"): (
        'partition JSON object: Partition data tuple using partition field ids for the struct field ids {"1000":1}'
    ),
    ("content-file.json.bounds", "Content File (Data and Delete) Serialization"): (
        "lower-bounds JSON object: Map from column id to lower bound binary in the column serialized as "
        'hexadecimal string {"keys":[3,4],"values":["01000000","02000000"]}'
    ),
    ("sort-order.direction", "Sorting"): "• A sort direction, that can only be either asc or desc",
    ("sort-order.null-order", "Sorting"): (
        "• A null order that describes the order of null values when sorted. Can only be either nulls-first "
        "or nulls-last"
    ),
}
