"""The metadata-tree validator: every snapshot of a table checked against the writer requirements
of its format version, with every violation reported (not only the first) under its rule id.

Spec: "Manifest Lists", "Manifests" (key-value metadata, field tables per version, the partition
struct, bounds and Appendix D), "Sequence Numbers", "Scan Planning" (one live entry per file),
adopted v3 digest §1.4 (first_row_id) and §1.5 (deletion vector fields).

    violations = validate_table(LocalFiles(), "file:/warehouse/db/t/metadata/v3.metadata.json")
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.manifests import inheritance
from spec_impl.manifests.avro_files import AvroFile, avro_map, physical_value, read_avro
from spec_impl.manifests.avro_schemas import DATA_FILE, MANIFEST_ENTRY, MANIFEST_FILE
from spec_impl.manifests.file_fields import data_file_findings
from spec_impl.manifests.inheritance import ADDED, DATA, DELETED, EXISTING
from spec_impl.manifests.manifest_spec import partition_spec_difference
from spec_impl.manifests.records import check_entries, check_row
from spec_impl.manifests.tree import FileSource, manifest_format_version
from spec_impl.metadata import json_document
from spec_impl.metadata.partitioning import partition_type
from spec_impl.metadata.table_metadata import TableMetadata, read_metadata_file
from spec_impl.rules import Rule, implements, register
from spec_impl.serde.binary import from_binary
from spec_impl.types import IcebergType, StructType

_LIST, _MANIFEST = "Manifest Lists", "Manifests"
_SCHEME = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]+:"
)  # a URI scheme (RFC 3986 §3.1), two letters at least: not a drive letter
RESERVED_FIELD_IDS = {"data_file": (141,)}  # Manifests, note 4: "The following field ids are reserved on data_file"

register(
    Rule(
        "tree.required-fields",
        "Manifest Lists; Manifests (field tables)",
        "Fields required in the file's format version are present and not null",
    ),
    Rule(
        "tree.unwritten-fields",
        "Manifest Lists; Manifests (field tables); Appendix E",
        "Fields a version does not write are absent (sequence numbers in v1, block_size_in_bytes after v1, "
        "file_ordinal and sort_columns in any version, first_row_id before v3, distinct_counts in v3, the "
        "reserved data_file id 141 in any version); content in v1 is 0 (data) or omitted",
    ),
    Rule(
        "tree.manifest-metadata",
        "Manifests (key-value metadata)",
        "A manifest's key-value metadata has schema and partition-spec; from v2 also partition-spec-id, "
        "format-version and content, and they agree with the manifest list",
    ),
    Rule(
        "tree.manifest-schema-id",
        "Manifests (key-value metadata)",
        "From v2 a manifest's key-value metadata has schema-id (required in v2, optional in v1)",
        (2, 3),
    ),
    Rule("tree.partition-spec-id", _LIST, "partition_spec_id must be listed in table metadata partition-specs"),
    Rule("tree.manifest-length", _LIST, "manifest_length is the length of the manifest file in bytes"),
    Rule(
        "tree.manifest-counts",
        _LIST,
        "The added, existing and deleted file and row counts equal those of the manifest's entries",
    ),
    Rule(
        "tree.min-sequence-number",
        _LIST,
        "min_sequence_number equals the minimum data sequence number of the manifest's live files",
        (2, 3),
    ),
    Rule(
        "tree.sequence-number-bound",
        "Sequence Numbers",
        "No sequence number of a manifest or entry exceeds its snapshot's, and a file's data sequence number "
        "does not exceed its file sequence number",
        (2, 3),
    ),
    Rule(
        "tree.file-path-uri",
        _MANIFEST,
        "A data or delete file's file_path is a full URI with its file system's scheme (file:, s3:, hdfs:, ...), "
        "not a bare path",
    ),
    Rule(
        "tree.content",
        _MANIFEST,
        "A manifest stores data files or delete files, not both: data manifests hold content 0, delete manifests "
        "content 1 or 2; v1 has only data",
    ),
    Rule(
        "tree.unique-live-files",
        "Scan Planning; adopted v3 digest §1.5",
        "A file is live (ADDED or EXISTING) at most once in a snapshot; a deletion vector is its blob (file_path "
        "and content_offset), since one Puffin file may hold the DVs of several data files",
    ),
    Rule(
        "tree.partition-tuple",
        _MANIFEST,
        "The partition struct has the spec's fields, with their field ids and result types, and values the "
        "transform can produce",
    ),
    Rule(
        "tree.bounds",
        _MANIFEST,
        "lower_bounds and upper_bounds decode as their column's type (Appendix D), with lower <= upper",
    ),
    Rule(
        "tree.equality-ids", _MANIFEST, "equality_ids is required for equality delete files and null otherwise", (2, 3)
    ),
    Rule(
        "tree.deletion-vector-fields",
        "adopted 1.5 Deletion vectors",
        "A Puffin delete file (a DV) is a position delete with referenced_data_file, content_offset and "
        "content_size_in_bytes",
        (3,),
        revisions.ADOPTED,
    ),
    Rule(
        "tree.first-row-id",
        "adopted 1.4 Row lineage",
        "In a v3 snapshot every data manifest has a first_row_id and delete manifests none; live data files' row "
        "id ranges do not overlap and stay below next-row-id",
        (3,),
        revisions.ADOPTED,
    ),
)


@dataclass(frozen=True)
class Violation:
    rule: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "path": self.path, "message": self.message}


def validate_table(files: FileSource, metadata_location: str, revision: str = revisions.DEFAULT) -> list[Violation]:
    """Every violation in the trees of all snapshots of the table; a metadata file that cannot be
    read at all is reported as its single violation."""
    try:
        md = read_metadata_file(files.read(metadata_location), revision)
    except SpecError as e:
        return [Violation(e.rule, metadata_location, str(e))]
    checker = _Checker(files, md, revision)
    for snapshot in md.snapshots:
        checker.snapshot(snapshot)
    return checker.violations


class _Checker:
    def __init__(self, files: FileSource, md: TableMetadata, revision: str):
        self.files, self.md, self.revision = files, md, revision
        self.violations: list[Violation] = []
        self._digests: dict[tuple[str, str], _Digest | None] = {}  # by manifest path and list row
        self._checked_manifests: set[str] = set()
        self.schema = next(s for s in md.schemas if s.schema_id == md.current_schema_id)
        self.specs = {s.spec_id: s for s in md.specs}

    def report(self, rule: str, path: str, message: str) -> None:
        v = Violation(rule, path, message)
        if v not in self.violations:
            self.violations.append(v)

    def read(self, path: str) -> tuple[bytes, AvroFile] | None:
        """A manifest list or manifest, decoded; None when it cannot be read (reported)."""
        try:
            data = self.files.read(path)
            return data, read_avro(data, path)
        except SpecError as e:
            self.report(e.rule, path, str(e))
            return None

    # --- one snapshot ------------------------------------------------------------------------
    @implements("tree.unique-live-files")
    def snapshot(self, snapshot) -> None:
        if snapshot.manifest_list is None:
            return  # a v1 snapshot with an inline manifests list: nothing of the manifest list to check
        read = self.read(snapshot.manifest_list)
        if read is None:
            return
        _, listing = read
        list_path = snapshot.manifest_list
        if not self.record_schema(listing, list_path):
            return
        list_version = self.list_format_version(listing)
        self.fields(listing.schema, MANIFEST_FILE, list_version, list_path, "manifest list")
        live: dict[str, list[str]] = defaultdict(list)
        ranges: list[tuple[int, int, str]] = []
        for i, row in enumerate(listing.records):
            if isinstance(row, dict):
                where = f"manifest list row {json_document.brief(row.get('manifest_path'))}"
                self.required(row, MANIFEST_FILE, list_version, list_path, where)
                self.v1_content(row, list_version, list_path, where)
            try:
                check_row(row, f"row {i}")
            except SpecError as e:
                self.report(e.rule, list_path, str(e))
                continue
            self.manifest(snapshot, row, live, ranges)
        for path, manifests in live.items():
            if len(manifests) > 1:
                self.report(
                    "tree.unique-live-files",
                    list_path,
                    f"snapshot {snapshot.snapshot_id}: {path} is live {len(manifests)} times ({', '.join(manifests)})",
                )
        self.row_id_ranges(snapshot, ranges, list_path)

    @implements("manifest.avro-schema")
    def record_schema(self, f: AvroFile, path: str) -> bool:
        """Whether the file's writer schema is a record (rule manifest.avro-schema); reported if not."""
        if isinstance(f.schema, dict) and isinstance(f.schema.get("fields"), list):
            return True
        self.report(
            "manifest.avro-schema", path, f"the writer schema is not a record schema: {json_document.brief(f.schema)}"
        )
        return False

    def list_format_version(self, listing: AvroFile) -> int:
        """The spec defines no key-value metadata for manifest lists; writers commonly add a
        format-version key. Without it: the table's version, or v1 for a list without
        sequence_number in a table upgraded since (written before the upgrade)."""
        declared = listing.metadata.get("format-version")
        if declared in ("1", "2", "3"):
            return int(declared)
        if self.md.format_version >= 2 and "sequence_number" not in {
            f["name"] for f in listing.schema.get("fields", [])
        }:
            return 1
        return self.md.format_version

    @implements("tree.first-row-id", "tree.partition-spec-id")
    def manifest(self, snapshot, raw_row: dict, live: dict, ranges: list) -> None:
        """One manifest of a snapshot: read and checked the first time it is met with these
        manifest-list values (`first_reading`), its digest used for every snapshot listing it."""
        row = inheritance.read_manifest_file(raw_row)
        path = row["manifest_path"]
        if row.get("partition_spec_id") not in self.specs:
            self.report(
                "tree.partition-spec-id",
                path,
                f"partition_spec_id {row.get('partition_spec_id')} is not in the table's partition-specs",
            )
        key = (path, repr(sorted(raw_row.items())))
        if key not in self._digests:
            self._digests[key] = self.first_reading(row, raw_row, path)
        digest = self._digests[key]
        if digest is None:
            return
        for k in digest.live:
            live[k].append(path)
        ranges.extend(digest.ranges)
        self.sequence_limit(snapshot, row, digest, path)
        if self.md.format_version >= 3 and snapshot.first_row_id is not None and digest.format_version >= 3:
            if row["content"] == DATA and row.get("first_row_id") is None:
                self.report(
                    "tree.first-row-id",
                    path,
                    f"snapshot {snapshot.snapshot_id} is a v3 snapshot but its data manifest has no first_row_id",
                )
            if row["content"] != DATA and row.get("first_row_id") is not None:
                self.report("tree.first-row-id", path, f"a delete manifest has first_row_id {row['first_row_id']}")

    @implements("tree.manifest-length", "tree.min-sequence-number")
    def first_reading(self, row: dict, raw_row: dict, path: str) -> _Digest | None:
        """Every check of a manifest that depends on the file and its list row only; None when its
        entries cannot be read (reported). The decoded entries are let go: only the digest is kept."""
        read = self.read(path)
        if read is None:
            return None
        data, f = read
        if raw_row.get("manifest_length") != len(data):
            self.report(
                "tree.manifest-length",
                path,
                f"manifest_length is {raw_row.get('manifest_length')}, the file has {len(data)} bytes",
            )
        try:
            fv = manifest_format_version(f, self.md.format_version, path)
        except SpecError as e:
            self.report(e.rule, path, str(e))
            return None
        if not self.record_schema(f, path):
            return None
        fv = self.undeclared_version(f, fv, path)
        first_visit = path not in self._checked_manifests
        self._checked_manifests.add(path)
        try:
            check_entries(f.records, path)
            shape_error = None
        except SpecError as e:
            shape_error = e
        if first_visit:
            self.manifest_file(f, fv, path, row, shaped=shape_error is None)
        if shape_error is not None:
            self.report(shape_error.rule, path, str(shape_error))
            return None
        try:
            entries = inheritance.inherit_entries(row, f.records, fv)
        except SpecError as e:
            self.report(e.rule, path, str(e))
            return None
        self.counts(raw_row, entries, path)
        if (
            fv >= 2
            and (low := inheritance.min_sequence_number(entries)) is not None
            and row["min_sequence_number"] != low
        ):
            self.report(
                "tree.min-sequence-number",
                path,
                f"min_sequence_number is {row['min_sequence_number']}; the live files' minimum is {low}",
            )
        self.sequence_order(entries, path)
        return _Digest.of(entries, row, fv, self.md.format_version)

    def entries_again(self, row: dict, path: str) -> list[dict]:
        """A manifest's inherited entries, read again (its first reading succeeded)."""
        data, f = self.read(path)  # type: ignore[misc]
        fv = self.undeclared_version(f, manifest_format_version(f, self.md.format_version, path), path)
        return inheritance.inherit_entries(row, f.records, fv)

    @implements("tree.manifest-metadata")
    def undeclared_version(self, f: AvroFile, fv: int, path: str) -> int:
        """A manifest without the format-version key reads as v1; one with the v2 entry field
        sequence_number in a v2+ table was written by a v2+ writer, which must write the key
        ("format-version is now required"): it is checked as a manifest of the table's version,
        so `manifest_metadata` reports the missing key."""
        names = {x.get("name") for x in f.schema["fields"] if isinstance(x, dict)}
        if "format-version" in f.metadata or self.md.format_version < 2 or "sequence_number" not in names:
            return fv
        return self.md.format_version

    # --- checks of one manifest file (once per file) -------------------------------------------
    def manifest_file(self, f: AvroFile, fv: int, path: str, row: dict, shaped: bool = True) -> None:
        """The checks of one manifest file; with `shaped` False (an entry of the wrong shape) only
        the schema, the key-value metadata and the null required fields."""
        entry_schema = f.schema
        self.fields(entry_schema, MANIFEST_ENTRY, fv, path, "manifest_entry")
        data_file_schema = _record_of(entry_schema, "data_file")
        if data_file_schema is not None:
            self.fields(data_file_schema, DATA_FILE, fv, path, "data_file")
        self.manifest_metadata(f, fv, path, row)
        spec = self.specs.get(row.get("partition_spec_id"))
        ptype = self.partition_struct_type(spec, path) if spec is not None else None
        if ptype is not None and data_file_schema is not None:
            self.partition_schema(_record_of(data_file_schema, "partition"), ptype, fv, path)
        for i, record in enumerate(f.records):
            if not isinstance(record, dict):
                continue
            df = record.get("data_file") if isinstance(record.get("data_file"), dict) else {}
            where = f"entry {i} ({json_document.brief(df.get('file_path'))})"
            self.required(record, MANIFEST_ENTRY, fv, path, where)
            self.required(df, DATA_FILE, fv, path, where + " data_file")
            self.v1_content(df, fv, path, where + " data_file")
            if not shaped:
                continue
            self.content(df, row, fv, path, where)
            if spec is not None and ptype is not None:
                self.partition_values(df.get("partition") or {}, spec, ptype, path, where)
            self.bounds(df, path, where)
            for rule, message in data_file_findings(df, self.md):
                self.report(rule, path, f"{where}: {message}")

    @implements("tree.required-fields", "tree.unwritten-fields")
    def fields(self, schema: dict, table: list, fv: int, path: str, what: str) -> None:
        present = {f["name"] for f in schema.get("fields", [])}
        for field_id in RESERVED_FIELD_IDS.get(what, ()):
            if any(f.get("field-id") == field_id for f in schema.get("fields", [])):
                self.report("tree.unwritten-fields", path, f"{what} has a field of id {field_id}, which is reserved")
        for field_id, name, _, requirement in table:
            if requirement[fv - 1] is None and name in present and not (fv == 1 and name == "content"):
                self.report(
                    "tree.unwritten-fields",
                    path,
                    f"{what} of a v{fv} file has {name} ({field_id}), which v{fv} does not write",
                )
            if requirement[fv - 1] == "required" and name not in present:
                self.report(
                    "tree.required-fields", path, f"{what} of a v{fv} file lacks the required field {name} ({field_id})"
                )

    @implements("tree.unwritten-fields")
    def v1_content(self, record: dict, fv: int, path: str, where: str) -> None:
        """Appendix E, writing v1 metadata: "Manifest list field content must be 0 (data) or omitted",
        and "Data file field content must be 0 (data) or omitted": present with 0 is fine."""
        if fv == 1 and record.get("content") not in (None, 0):
            self.report(
                "tree.unwritten-fields",
                path,
                f"{where}: content {record['content']} in a v1 file, where it must be 0 (data) or omitted",
            )

    @implements("tree.required-fields")
    def required(self, record: dict, table: list, fv: int, path: str, where: str) -> None:
        for field_id, name, _, requirement in table:
            if requirement[fv - 1] == "required" and name in record and record[name] is None:
                self.report("tree.required-fields", path, f"{where}: required field {name} ({field_id}) is null")

    @implements("tree.manifest-metadata", "tree.manifest-schema-id")
    def manifest_metadata(self, f: AvroFile, fv: int, path: str, row: dict) -> None:
        keys = ["schema", "partition-spec"] + (
            ["schema-id", "partition-spec-id", "format-version", "content"] if fv >= 2 else []
        )
        for key in keys:
            if key not in f.metadata:
                rule = "tree.manifest-schema-id" if key == "schema-id" else "tree.manifest-metadata"
                self.report(rule, path, f"a v{fv} manifest lacks the key-value metadata {key!r}")
        for key in ("schema", "partition-spec"):
            if key in f.metadata:
                try:
                    json_document.loads(f.metadata[key], f"key-value metadata {key!r}")
                except SpecError as e:
                    self.report("tree.manifest-metadata", path, f"key-value metadata {key!r} is not JSON: {e}")
        spec = next((s for s in self.md.specs if s.spec_id == row.get("partition_spec_id")), None)
        if spec is not None and isinstance(f.metadata.get("partition-spec"), str):
            why = partition_spec_difference(f.metadata["partition-spec"], spec, fv, self.revision)
            if why is not None:
                self.report("tree.manifest-partition-spec", path, f"key-value metadata 'partition-spec' {why}")
        if f.metadata.get("partition-spec-id", str(row.get("partition_spec_id"))) != str(row.get("partition_spec_id")):
            self.report(
                "tree.manifest-metadata",
                path,
                f"partition-spec-id {f.metadata['partition-spec-id']!r} but the manifest list says "
                f"{row.get('partition_spec_id')}",
            )
        content = f.metadata.get("content")
        if content is not None and content != ("data" if row["content"] == DATA else "deletes"):
            self.report(
                "tree.manifest-metadata",
                path,
                f"content {content!r} but the manifest list says content {row['content']}",
            )

    @implements(
        "tree.content", "tree.deletion-vector-fields", "tree.equality-ids", "tree.file-path-uri", "tree.first-row-id"
    )
    def content(self, df: dict, row: dict, fv: int, path: str, where: str) -> None:
        if not _SCHEME.match(str(df.get("file_path", ""))):
            self.report(
                "tree.file-path-uri",
                path,
                f"{where}: file_path {df.get('file_path')!r} has no scheme (Manifests: 'Full URI for the file "
                "with FS scheme')",
            )
        content = df.get("content", DATA)
        expected = (DATA,) if row["content"] == DATA else (1, 2)
        if content not in expected:
            self.report(
                "tree.content",
                path,
                f"{where}: file content {content} in a {'data' if row['content'] == DATA else 'delete'} manifest",
            )
        if fv >= 2 and (content == 2) != (df.get("equality_ids") is not None):
            self.report(
                "tree.equality-ids", path, f"{where}: content {content} with equality_ids {df.get('equality_ids')}"
            )
        if str(df.get("file_format", "")).lower() == "puffin":
            missing = [
                k for k in ("referenced_data_file", "content_offset", "content_size_in_bytes") if df.get(k) is None
            ]
            if content != 1 or missing:
                self.report(
                    "tree.deletion-vector-fields",
                    path,
                    f"{where}: a Puffin delete file needs content 1 and {', '.join(missing) or 'its fields'}",
                )
        if fv >= 3 and content != DATA and df.get("first_row_id") is not None:
            self.report("tree.first-row-id", path, f"{where}: a delete file has first_row_id {df['first_row_id']}")

    # --- partition tuples and bounds --------------------------------------------------------------
    @implements("tree.partition-tuple")
    def partition_struct_type(self, spec, path: str) -> StructType | None:
        """The spec's partition type, from the newest schema that has its source fields: a spec
        replaced before its source column was dropped still types the manifests written under it."""
        error: SpecError | None = None
        for schema in sorted(self.md.schemas, key=lambda s: (s.schema_id != self.md.current_schema_id, -s.schema_id)):
            try:
                return partition_type(spec, schema.struct, self.revision)
            except SpecError as e:
                error = error or e
        self.report(
            "tree.partition-tuple",
            path,
            f"the partition type of spec {spec.spec_id} cannot be derived from any schema: {error}",
        )
        return None

    @implements("tree.partition-tuple")
    def partition_schema(self, avro: dict | None, ptype: StructType, fv: int, path: str) -> None:
        fields = {f["name"]: f for f in (avro or {}).get("fields", []) if isinstance(f, dict)}
        if [f.name for f in ptype.fields] != list(fields):
            self.report(
                "tree.partition-tuple",
                path,
                f"the partition struct has fields {list(fields)}; the spec has {[f.name for f in ptype.fields]}",
            )
            return
        for pf in ptype.fields:
            got = fields[pf.name].get("field-id")
            if fv >= 2 and got is not None and str(got) != str(pf.id):
                self.report(
                    "tree.partition-tuple",
                    path,
                    f"partition field {pf.name!r} has field id {got}; the spec's id is {pf.id}",
                )

    @implements("tree.partition-tuple")
    def partition_values(self, values: dict, spec, ptype: StructType, path: str, where: str) -> None:
        for pf, spec_field in zip(ptype.fields, spec.fields):
            try:
                value = physical_value(pf.type, values.get(pf.name))
            except SpecError as e:
                self.report("tree.partition-tuple", path, f"{where}: {pf.name!r} does not decode as {pf.type}: {e}")
                continue
            if value is None:
                continue
            t = spec_field.transform
            if t.name == "void":
                self.report("tree.partition-tuple", path, f"{where}: the void field {pf.name!r} has value {value!r}")
            elif t.name == "bucket" and not 0 <= value < t.param:
                self.report(
                    "tree.partition-tuple",
                    path,
                    f"{where}: {pf.name!r} is {value}, outside bucket[{t.param}]'s range 0..{t.param - 1}",
                )
            elif t.name == "truncate" and isinstance(value, (str, bytes)) and _length(value) > t.param:
                self.report(
                    "tree.partition-tuple",
                    path,
                    f"{where}: {pf.name!r} is {value!r}, longer than truncate[{t.param}] allows",
                )

    @implements("tree.bounds")
    def bounds(self, df: dict, path: str, where: str) -> None:
        lower, upper = avro_map(df.get("lower_bounds")) or {}, avro_map(df.get("upper_bounds")) or {}
        decoded: dict[str, dict[int, Any]] = {"lower": {}, "upper": {}}
        for kind, bounds in (("lower", lower), ("upper", upper)):
            for field_id, raw in bounds.items():
                t = _column_type(self.schema, field_id)
                if t is None:
                    continue  # a column no longer in the current schema
                try:
                    decoded[kind][field_id] = from_binary(t, raw, self.revision)
                except SpecError as e:
                    self.report(
                        "tree.bounds", path, f"{where}: {kind} bound of column {field_id} ({t}) does not decode: {e}"
                    )
        for field_id, low in decoded["lower"].items():
            high = decoded["upper"].get(field_id)
            try:
                if high is not None and low > high:
                    self.report(
                        "tree.bounds", path, f"{where}: column {field_id}: lower bound {low!r} > upper bound {high!r}"
                    )
            except TypeError:
                pass  # values without an order here (geometry): decoding was the check

    # --- counts, sequence numbers, row ids ----------------------------------------------------------
    @implements("tree.manifest-counts")
    def counts(self, row: dict, entries: list[dict], path: str) -> None:
        for status, name in ((ADDED, "added"), (EXISTING, "existing"), (DELETED, "deleted")):
            matching = [e for e in entries if e["status"] == status]
            for key, actual in (
                (f"{name}_files_count", len(matching)),
                (f"{name}_rows_count", sum(e["data_file"]["record_count"] for e in matching)),
            ):
                if row.get(key) is not None and row[key] != actual:
                    self.report("tree.manifest-counts", path, f"{key} is {row[key]}; the manifest has {actual}")

    @implements("tree.sequence-number-bound")
    def sequence_limit(self, snapshot, row: dict, digest: _Digest, path: str) -> None:
        """No sequence number of a manifest or entry exceeds its snapshot's; the digest's maximum
        decides, and the entries are read again to name each one only when it is exceeded."""
        if self.md.format_version < 2 or snapshot.sequence_number == 0:
            return
        limit = snapshot.sequence_number
        if row["sequence_number"] > limit:
            self.report(
                "tree.sequence-number-bound",
                path,
                f"manifest sequence_number {row['sequence_number']} > snapshot {snapshot.snapshot_id}'s {limit}",
            )
        if digest.max_sequence_number <= limit:
            return
        for e in self.entries_again(row, path):
            if e["sequence_number"] > limit or e["file_sequence_number"] > limit:
                self.report(
                    "tree.sequence-number-bound",
                    path,
                    f"{e['data_file']['file_path']}: sequence numbers {e['sequence_number']}/"
                    f"{e['file_sequence_number']} > snapshot {snapshot.snapshot_id}'s {limit}",
                )

    @implements("tree.sequence-number-bound")
    def sequence_order(self, entries: list[dict], path: str) -> None:
        """A file's data sequence number does not exceed its file sequence number."""
        if self.md.format_version < 2:
            return
        for e in entries:
            if e["sequence_number"] > e["file_sequence_number"]:
                self.report(
                    "tree.sequence-number-bound",
                    path,
                    f"{e['data_file']['file_path']}: data sequence number {e['sequence_number']} > file sequence "
                    f"number {e['file_sequence_number']}",
                )

    @implements("tree.first-row-id")
    def row_id_ranges(self, snapshot, ranges: list[tuple[int, int, str]], path: str) -> None:
        ranges.sort()
        for (a_start, a_end, a), (b_start, b_end, b) in zip(ranges, ranges[1:]):
            if b_start < a_end:
                self.report(
                    "tree.first-row-id",
                    path,
                    f"snapshot {snapshot.snapshot_id}: row ids of {a} [{a_start}, {a_end}) and {b} [{b_start}, "
                    f"{b_end}) overlap",
                )
        if ranges and self.md.next_row_id is not None and max(end for _, end, _ in ranges) > self.md.next_row_id:
            self.report(
                "tree.first-row-id",
                path,
                f"snapshot {snapshot.snapshot_id}: row ids reach {max(end for _, end, _ in ranges)}, above "
                f"next-row-id {self.md.next_row_id}",
            )


@dataclass(frozen=True)
class _Digest:
    """What the checks of a snapshot need of one of its manifests once it has been read: the keys
    of its live files (rule tree.unique-live-files), their row-id ranges (rule tree.first-row-id),
    and the largest sequence number of its entries (rule tree.sequence-number-bound). Holding
    this instead of the decoded entries bounds the validator's memory by one manifest."""

    format_version: int
    live: tuple[str, ...]
    ranges: tuple[tuple[int, int, str], ...]
    max_sequence_number: int

    @staticmethod
    def of(entries: list[dict], row: dict, fv: int, table_format_version: int) -> _Digest:
        first_row_ids = (
            inheritance.file_first_row_ids(row.get("first_row_id"), entries) if table_format_version >= 3 else []
        )
        live, ranges = [], []
        for i, e in enumerate(entries):
            if e["status"] == DELETED:
                continue
            df = e["data_file"]
            live.append(live_key(df))
            if first_row_ids and first_row_ids[i] is not None and df.get("content", DATA) == DATA:
                ranges.append((first_row_ids[i], first_row_ids[i] + df["record_count"], df["file_path"]))
        highest = max((max(e["sequence_number"] or 0, e["file_sequence_number"] or 0) for e in entries), default=0)
        return _Digest(fv, tuple(live), tuple(ranges), highest)


@implements("tree.unique-live-files")
def live_key(df: dict) -> str:
    """What is live once per snapshot (rule tree.unique-live-files): a file, or a DV's blob in its Puffin file."""
    if str(df.get("file_format", "")).lower() == "puffin" and df.get("content_offset") is not None:
        return f"{df['file_path']} (blob at offset {df['content_offset']})"
    return df["file_path"]


def _record_of(record_schema: dict, field_name: str) -> dict | None:
    for f in record_schema.get("fields", []):
        if f["name"] == field_name:
            t = f["type"]
            if isinstance(t, list):
                t = next((x for x in t if x != "null"), None)
            return t if isinstance(t, dict) else None
    return None


def _column_type(schema, field_id: int) -> IcebergType | None:
    try:
        return schema.field_by_id(field_id).type
    except (KeyError, SpecError):
        return None


def _length(value: str | bytes) -> int:
    return len(value) if isinstance(value, bytes) else sum(1 for _ in value)
