"""PyIceberg (the pure-Python Iceberg library) as a conformance adapter, run in-process.

Covers what PyIceberg implements itself, without pyiceberg-core or a catalog:

- parse-type: pydantic validation of a type JSON into `pyiceberg.types.IcebergType`, dumped back;
- min-format-version: the first version that `Schema.check_format_version_compatibility` passes
  for a one-field schema of the type (the check PyIceberg applies to table schemas);
- parse-transform, result-type, transform: `pyiceberg.transforms.parse_transform`, then
  `result_type` / `transform(source)(value)`, behind PyIceberg's own `can_transform` check (the
  gate its partition and sort specs apply to a source type);
- hash: the 32-bit Murmur3 hash of `BucketTransform.transform(source, bucket=False)`;
- to-binary / from-binary: `pyiceberg.conversions.to_bytes` / `from_bytes`;
- to-json / from-json: `pyiceberg.conversions.to_json` / `from_json` (Appendix D JSON values);
- read-table-metadata: `pyiceberg.table.metadata.TableMetadataUtil.parse_raw` (what PyIceberg's
  file reader uses), then the normalized reading of `vectors/README.md` built attribute by
  attribute from the pydantic model;
- read-view-metadata: `pyiceberg.view.metadata.ViewMetadata.model_validate_json` (the model its
  REST catalog loads views with), mapped the same way;
- read-manifest-tree: the case's files behind an in-memory `FileIO`; the metadata file read with
  `FromInputFile.table_metadata`, the snapshot's list with `read_manifest_list` and each manifest
  with `ManifestFile.fetch_manifest_entry(io, discard_deleted=False)`, which applies PyIceberg's
  own inheritance. PyIceberg 0.12 has no first_row_id, so that key is left out (`partial_view`);
- the planning ops (evaluate-predicate, project-predicate, evaluate-metrics, evaluate-manifest,
  partition-summaries, column-metrics, partition-tuple): `conformance/engines/pyiceberg_planning.py`;
- read-table: a golden table written to local disk (`golden_tables`), read with
  `StaticTable.from_metadata(<metadata file>).scan(snapshot_id=...).to_arrow()`. PyIceberg 0.12
  has no row lineage columns, so `_row_id` and `_last_updated_sequence_number` are left out of
  v3 expectations (`partial_view`); it raises on equality delete files, which is an error answer.

`conformance/engines/metadata_reading.md` says how each attribute maps to the normalized forms.

PyIceberg's physical values are those of the vectors (dates as days, times and timestamps as
integer counts, Decimal, str, bytes) except that it may hand back `date`/`time`/`datetime` objects
and uuids as bytes; the adapter converts those. Every case is an independent call; any exception
is that case's error.
"""

from __future__ import annotations

import datetime
import json
import uuid
from typing import Any

from spec_impl import transforms
from spec_impl.errors import SpecError
from spec_impl.types import parse_type
from spec_impl.ops.encoding import decode, encode

from conformance.engines import golden_tables, tree_files
from conformance.engines import pyiceberg_planning as planning_ops
from conformance.engines.base import Engine, EngineAnswer


PYICEBERG_VERSION = "0.12.0"


class PyIcebergEngine(Engine):
    """PyIceberg's types, transforms and single-value conversions."""

    case_errors = (Exception,)  # PyIceberg refuses input with ValueError, TypeError, its own errors and pyarrow's

    name = "pyiceberg"
    data_file_formats = frozenset({"orc", "parquet"})
    format_limit = (
        "PyIceberg 0.12 reads Parquet and ORC files; it raises 'Unsupported file format: FileFormat.AVRO' "
        "('Delete file format not supported' for an Avro delete file)"
    )
    distribution = "pyiceberg"
    # PyIceberg 0.12 reads manifest lists and manifests with its v2 schemas, so first_row_id (list
    # field 520, data_file field 142) is projected away; nor does its scan return row lineage
    reads_row_lineage = False
    tree_keys = (
        ("snapshot-id", "sequence-number"),
        tree_files.MANIFEST_KEYS_V2,
        tree_files.ENTRY_KEYS_OWN + tree_files.ENTRY_KEYS_INHERITED,
    )
    capabilities = frozenset(
        {
            "parse-type",
            "min-format-version",
            "parse-transform",
            "result-type",
            "transform",
            "hash",
            "to-binary",
            "from-binary",
            "to-json",
            "from-json",
            "read-table-metadata",
            "read-view-metadata",
            "read-manifest-tree",
            "read-table",
            *planning_ops.OPS,
        }
    )

    def start(self) -> None:
        self.require("pyiceberg", PYICEBERG_VERSION, f"pip install 'pyiceberg[pyarrow]=={PYICEBERG_VERSION}'")
        from pydantic import TypeAdapter
        from pyiceberg import conversions, schema, transforms, types
        from pyiceberg import manifest
        from pyiceberg.serializers import FromInputFile
        from pyiceberg.table import StaticTable
        from pyiceberg.table.metadata import TableMetadataUtil
        from pyiceberg.view.metadata import ViewMetadata

        self._manifest, self._metadata_file, self._static_table = manifest, FromInputFile, StaticTable
        self._conversions, self._schema, self._transforms, self._types = conversions, schema, transforms, types
        self._table_metadata, self._view_metadata = TableMetadataUtil, ViewMetadata
        self._type_adapter = TypeAdapter(types.IcebergType)
        self._planning = planning_ops.Planning()

    def answer(self, op: str, inp: dict[str, Any]) -> Any:
        """The planning ops go to `pyiceberg_planning.Planning`, the others to `answer_<op>`."""
        if op in planning_ops.OPS:
            return getattr(self._planning, op.replace("-", "_"))(inp)
        return super().answer(op, inp)

    def rejection(self, error: BaseException) -> EngineAnswer:
        """One line naming the exception (pydantic's multi-line reports cut before their help
        links); the partition-tuple refusal, the adapter's one refusal with a rule, names it."""
        text = " ".join(str(error).split()).split(" [type=")[0]
        rule = error.rule if isinstance(error, planning_ops.PartitionTupleRejected) else None
        return EngineAnswer.rejection(f"{type(error).__name__}: {text}", rule)

    # --- helpers -----------------------------------------------------------------------------

    def _type(self, obj: Any) -> Any:
        return self._type_adapter.validate_python(obj)

    def _transform_of(self, text: str, source: Any) -> Any:
        transform = self._transforms.parse_transform(text)
        if not transform.can_transform(source):
            raise ValueError(f"PyIceberg: {transform!r} cannot transform {source}")
        return transform

    @staticmethod
    def _value(type_json: Any, obj: Any) -> Any:
        """The physical value of a case's vector form (PyIceberg takes the same conventions as is)."""
        return decode(type_json, obj)

    @staticmethod
    def _vector(type_json: Any, value: Any) -> Any:
        """The vector form of a value PyIceberg returned; shown raw when the spec has no such value."""
        if isinstance(value, datetime.datetime):
            epoch = datetime.datetime(1970, 1, 1, tzinfo=value.tzinfo)
            value = (value - epoch) // datetime.timedelta(microseconds=1)
        elif isinstance(value, datetime.date):
            value = (value - datetime.date(1970, 1, 1)).days
        elif isinstance(value, datetime.time):
            value = ((value.hour * 60 + value.minute) * 60 + value.second) * 1_000_000 + value.microsecond
        try:
            if getattr(parse_type(type_json), "name", None) == "uuid" and isinstance(value, bytes) and len(value) == 16:
                value = uuid.UUID(bytes=value)
            return encode(type_json, value)
        except (SpecError, TypeError, ValueError):
            return _raw(value)

    # --- ops -----------------------------------------------------------------------------------

    def answer_parse_type(self, inp: dict) -> Any:
        return self._type(inp["type"]).model_dump(mode="json", by_alias=True, exclude_none=True)

    def answer_min_format_version(self, inp: dict) -> int:
        """The first format version whose schema check (`Schema.check_format_version_compatibility`) passes."""
        field_type = self._type(inp["type"])
        schema = self._schema.Schema(self._types.NestedField(field_id=2**31 - 1, name="v", field_type=field_type))
        for version in (1, 2, 3):
            try:
                schema.check_format_version_compatibility(version)
                return version
            except ValueError:
                continue
        raise ValueError(f"PyIceberg accepts {inp['type']} in no format version up to 3")

    def answer_parse_transform(self, inp: dict) -> dict:
        t = self._transforms.parse_transform(inp["transform"])
        names = {
            self._transforms.IdentityTransform: "identity",
            self._transforms.VoidTransform: "void",
            self._transforms.BucketTransform: "bucket",
            self._transforms.TruncateTransform: "truncate",
            self._transforms.YearTransform: "year",
            self._transforms.MonthTransform: "month",
            self._transforms.DayTransform: "day",
            self._transforms.HourTransform: "hour",
        }
        name = names.get(type(t))
        param = t.num_buckets if name == "bucket" else t.width if name == "truncate" else None
        return {"transform": str(t), "name": name, "param": param}

    def answer_result_type(self, inp: dict) -> Any:
        source = self._type(inp["type"])
        result = self._transform_of(inp["transform"], source).result_type(source)
        return result.model_dump(mode="json", by_alias=True, exclude_none=True)

    def answer_transform(self, inp: dict) -> Any:
        source = self._type(inp["type"])
        transform = self._transform_of(inp["transform"], source)
        result = transform.transform(source)(self._value(inp["type"], inp["value"]))
        try:
            result_type = transforms.result_type(inp["transform"], inp["type"], self.revision).to_json()
        except SpecError:  # PyIceberg answered where the spec rejects: show the answer raw
            return _raw(result)
        return self._vector(result_type, result)

    def answer_hash(self, inp: dict) -> int | None:
        source = self._type(inp["type"])
        value = self._value(inp["type"], inp["value"])
        return self._transforms.BucketTransform(1).transform(source, bucket=False)(value)

    def answer_to_binary(self, inp: dict) -> str:
        return self._conversions.to_bytes(self._type(inp["type"]), self._value(inp["type"], inp["value"])).hex()

    def answer_from_binary(self, inp: dict) -> Any:
        value = self._conversions.from_bytes(self._type(inp["type"]), bytes.fromhex(inp["hex"]))
        return self._vector(inp["type"], value)

    def answer_to_json(self, inp: dict) -> Any:
        return self._conversions.to_json(self._type(inp["type"]), self._value(inp["type"], inp["value"]))

    def answer_from_json(self, inp: dict) -> Any:
        return self._vector(inp["type"], self._conversions.from_json(self._type(inp["type"]), inp["json"]))

    def answer_read_table_metadata(self, inp: dict) -> dict:
        """The normalized reading of a table metadata document, from PyIceberg's parsed model."""
        m = self._table_metadata.parse_raw(json.dumps(inp["document"]))
        v1 = m.format_version == 1
        return {
            "format-version": m.format_version,
            "table-uuid": str(m.table_uuid) if m.table_uuid is not None else None,
            "location": m.location,
            # TableMetadataV1 has no such attribute; PyIceberg's next_sequence_number() treats v1 as 0.
            "last-sequence-number": 0 if v1 else m.last_sequence_number,
            "last-updated-ms": m.last_updated_ms,
            "last-column-id": m.last_column_id,
            "current-schema-id": m.current_schema_id,
            "schemas": [_schema_json(s) for s in m.schemas],
            "default-spec-id": m.default_spec_id,
            "partition-specs": [_spec_json(spec) for spec in m.partition_specs],
            "last-partition-id": m.last_partition_id,
            "default-sort-order-id": m.default_sort_order_id,
            "sort-orders": [_sort_order_json(order) for order in m.sort_orders],
            "properties": dict(m.properties),
            "current-snapshot-id": m.current_snapshot_id,
            "snapshots": [_snapshot_json(s) for s in m.snapshots],
            "refs": {name: _ref_json(ref) for name, ref in m.refs.items()},
            "snapshot-log": [{"snapshot-id": e.snapshot_id, "timestamp-ms": e.timestamp_ms} for e in m.snapshot_log],
            "metadata-log": [
                {"metadata-file": e.metadata_file, "timestamp-ms": e.timestamp_ms} for e in m.metadata_log
            ],
            "next-row-id": m.next_row_id if m.format_version >= 3 else None,
        }

    def answer_read_manifest_tree(self, inp: dict) -> dict:
        """One snapshot's manifests and entries (DELETED ones included) as PyIceberg reads them.

        `read_manifest_list` is called directly: `Snapshot.manifests()` would go through PyIceberg's
        process-wide cache of ManifestFile objects keyed by path, which the cases' reused paths
        would hit."""
        io = _bytes_file_io(tree_files.decode_files(inp))
        md = self._metadata_file.table_metadata(io.new_input(inp["metadata-location"]))
        wanted = inp.get("snapshot-id")
        snapshot = md.current_snapshot() if wanted is None else md.snapshot_by_id(wanted)
        if snapshot is None:
            raise ValueError(f"PyIceberg finds no snapshot {wanted!r} (current: {md.current_snapshot_id})")
        manifests, entries = [], []
        for mf in self._manifest.read_manifest_list(io.new_input(snapshot.manifest_list)):
            manifests.append(
                {
                    "manifest_path": mf.manifest_path,
                    "partition_spec_id": mf.partition_spec_id,
                    "content": _enum(mf.content),
                    "sequence_number": mf.sequence_number,
                    "min_sequence_number": mf.min_sequence_number,
                    "added_snapshot_id": mf.added_snapshot_id,
                }
            )
            for e in mf.fetch_manifest_entry(io, discard_deleted=False):
                f = e.data_file
                entries.append(
                    {
                        "manifest_path": mf.manifest_path,
                        "status": _enum(e.status),
                        "content": _enum(f.content),
                        "file_path": f.file_path,
                        "record_count": f.record_count,
                        "snapshot_id": e.snapshot_id,
                        "sequence_number": e.sequence_number,
                        "file_sequence_number": e.file_sequence_number,
                    }
                )
        return {
            "snapshot-id": snapshot.snapshot_id,
            "sequence-number": snapshot.sequence_number,
            "manifests": manifests,
            "entries": entries,
        }

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> dict:
        """A snapshot's rows as PyIceberg's scan returns them (it plans the deletes and reads the files)."""
        from spec_impl.ops.golden_tables import table_rows

        scan = self._static_table.from_metadata(table.metadata_location).scan(snapshot_id=snapshot_id)
        return table_rows(scan.to_arrow())

    def answer_read_view_metadata(self, inp: dict) -> dict:
        """The normalized reading of a view metadata document (see metadata_reading.md)."""
        m = self._view_metadata.model_validate_json(json.dumps(inp["document"]))
        return {
            "format-version": m.format_version,
            "view-uuid": m.view_uuid,
            "location": m.location,
            "current-version-id": m.current_version_id,
            "versions": [_view_version_json(v) for v in m.versions],
            "version-log": [{"version-id": e.version_id, "timestamp-ms": e.timestamp_ms} for e in m.version_log],
            "schemas": [_schema_json(s) for s in m.schemas],
            "properties": dict(m.properties),
        }


def _enum(value: Any) -> Any:
    """The number behind one of PyIceberg's enums (status, content); anything else as it is."""
    return getattr(value, "value", value)


def _bytes_file_io(files: dict[str, bytes]) -> Any:
    """A PyIceberg FileIO serving `files` by exact path (built lazily: pyiceberg may be absent)."""
    import io

    from pyiceberg.io import FileIO, InputFile

    class BytesInputFile(InputFile):
        def __init__(self, location: str, data: bytes):
            super().__init__(location)
            self._data = data

        def __len__(self) -> int:
            return len(self._data)

        def exists(self) -> bool:
            return True

        def open(self, seekable: bool = True) -> Any:
            return io.BytesIO(self._data)

    class BytesFileIO(FileIO):
        def new_input(self, location: str) -> InputFile:
            if location not in files:
                raise FileNotFoundError(f"the case has no file {location!r}")
            return BytesInputFile(location, files[location])

        def new_output(self, location: str) -> Any:
            raise NotImplementedError("reading only")

        def delete(self, location: Any) -> None:
            raise NotImplementedError("reading only")

    return BytesFileIO()


def _schema_json(schema: Any) -> dict:
    """A schema in Appendix C JSON as PyIceberg writes it, with identifier-field-ids always present."""
    out = json.loads(schema.model_dump_json())
    out.setdefault("identifier-field-ids", [])
    return out


def _spec_json(spec: Any) -> dict:
    fields = [
        {"source-ids": [f.source_id], "field-id": f.field_id, "name": f.name, "transform": str(f.transform)}
        for f in spec.fields
    ]
    return {"spec-id": spec.spec_id, "fields": fields}


def _sort_order_json(order: Any) -> dict:
    fields = [
        {
            "source-ids": [f.source_id],
            "transform": str(f.transform),
            "direction": f.direction.value,
            "null-order": f.null_order.value,
        }
        for f in order.fields
    ]
    return {"order-id": order.order_id, "fields": fields}


def _ref_json(ref: Any) -> dict:
    return {
        "snapshot-id": ref.snapshot_id,
        "type": ref.snapshot_ref_type.value,
        "min-snapshots-to-keep": ref.min_snapshots_to_keep,
        "max-snapshot-age-ms": ref.max_snapshot_age_ms,
        "max-ref-age-ms": ref.max_ref_age_ms,
    }


def _view_version_json(v: Any) -> dict:
    representations = [{"type": r.root.type, "sql": r.root.sql, "dialect": r.root.dialect} for r in v.representations]
    return {
        "version-id": v.version_id,
        "schema-id": v.schema_id,
        "timestamp-ms": v.timestamp_ms,
        "summary": dict(v.summary),
        "representations": representations,
        "default-namespace": list(v.default_namespace),
        "default-catalog": v.default_catalog,
    }


def _snapshot_json(s: Any) -> dict:
    summary = None
    if s.summary is not None:  # PyIceberg keeps the operation apart from the other entries
        summary = {"operation": s.summary.operation.value, **s.summary.additional_properties}
    return {
        "snapshot-id": s.snapshot_id,
        "parent-snapshot-id": s.parent_snapshot_id,
        "sequence-number": s.sequence_number,
        "timestamp-ms": s.timestamp_ms,
        "manifest-list": s.manifest_list,
        "summary": summary,
        "schema-id": s.schema_id,
        "first-row-id": s.first_row_id,
        "added-rows": s.added_rows,
        "key-id": getattr(s, "key_id", None),  # PyIceberg 0.12 has no key-id
    }


def _raw(value: Any) -> Any:
    """A value the spec has no vector form for, shown as JSON can carry it."""
    if isinstance(value, bytes):
        return value.hex()
    return value if isinstance(value, (bool, int, float, type(None))) else str(value)
