"""pyiceberg-core (iceberg-rust's Python bindings) as a conformance adapter: transforms, manifests, tables.

pyiceberg-core exposes iceberg-rust's transforms as functions over Arrow arrays
(`pyiceberg_core.transform`: identity, void, bucket, truncate, year, month, day, hour). It has no
type parser, hash, promotion check or single-value serializer of its own (the rest of the package
reads manifests and serves DataFusion tables), so the adapter covers the `transform` op and, in
part, `read-manifest-tree` and `read-table`.

For `read-manifest-tree`, `pyiceberg_core.manifest.read_manifest_list(bytes)` and
`read_manifest_entries(bytes)` read one Avro file each, with no manifest-list context: nothing is
inherited (an ADDED entry's null sequence numbers and snapshot id stay null). So only what needs
no inheritance is compared (`partial_view`): the manifest-list rows without first_row_id (which
pyiceberg-core does not expose), and each entry's manifest_path, status, content, file_path and
record_count. The package has no table-metadata parser: the adapter reads the metadata JSON with
the `json` module only to find the snapshot's manifest-list path. That lookup is plumbing, not the
engine's reading, so the snapshot id and sequence number are not compared, and the rejection cases
are skipped (`validates`).

Tables (`read-table`): `pyiceberg_core.datafusion.IcebergDataFusionTable(identifier,
metadata_location, file_io_properties)` is iceberg-rust's DataFusion table provider over one
metadata file (a `StaticTable`); its `__datafusion_table_provider__(session)` hands DataFusion an FFI
capsule, which only the `datafusion` package built against the same DataFusion major version
accepts: pyiceberg-core 0.11.0 embeds datafusion-ffi 54.1.0, so `pip install datafusion==54.1.0`
(55 refuses the provider: "Incompatible DataFusion table provider major version 54"). Without it
the read-table cases are declined with that reason; the other ops do not need it. iceberg-rust
plans the scan, applies the deletes and reads the Parquet files; `SELECT * FROM t` through a
`SessionContext` gives the rows.

The provider reads the metadata file's current snapshot with its current schema, and pyiceberg-core
offers no snapshot argument (iceberg-rust's `try_new_from_table_snapshot` is not bound). So a
snapshot is read through the golden table's own older metadata file (`vN.metadata.json`, every
version is kept on disk) whose current-snapshot-id is that snapshot and, when one has it, whose
current-schema-id is the snapshot's schema-id (`scan.read-schema`): the latest such file. Choosing
the file is plumbing (the `json` module); a snapshot that no file has as current is declined. The
provider's schema is the table schema only (no metadata columns), so iceberg-rust returns no row
lineage: `_row_id` and `_last_updated_sequence_number` are left out of v3 expectations
(`partial_view`). A read that raises (or panics) is that case's error.

Cases are batched: those with the same source type and transform become one Arrow array and one
call. When a group call raises, its values are retried one by one, so a single rejected value does
not turn its valid neighbours into errors.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from spec_impl.types import IcebergType, parse_type
from spec_impl.ops.encoding import decode

from conformance.engines import golden_tables, tree_files
from conformance.engines.base import EngineAnswer
from conformance.engines.columnar import ColumnEngine, arrow_type, transform_answer

_PARAMETERIZED = re.compile(r"(bucket|truncate)\[(\d+)\]")
_PLAIN = ("identity", "void", "year", "month", "day", "hour")
PYICEBERG_CORE_VERSION = "0.11.0"
DATAFUSION_VERSION = "54.1.0"  # the DataFusion whose FFI pyiceberg-core 0.11.0 was built against


class PyIcebergCoreEngine(ColumnEngine):
    """iceberg-rust's Arrow transforms, manifest reader and DataFusion table provider through pyiceberg-core."""

    name = "pyiceberg-core"
    data_file_formats = frozenset({"parquet"})
    format_limit = (
        "iceberg-rust's DataFusion table provider reads every data file as Parquet whatever its file_format "
        "('Invalid Parquet file. Corrupt footer')"
    )
    distribution = "pyiceberg-core"
    reads_row_lineage = False
    # DataFusion's errors, iceberg-rust's RuntimeError, pyo3's PanicException (a BaseException)
    case_errors = (BaseException,)
    # what needs no inheritance and no metadata parser (see the module doc)
    tree_keys = ((), tree_files.MANIFEST_KEYS_V2, tree_files.ENTRY_KEYS_OWN)
    capabilities = frozenset({"transform", tree_files.OP, "read-table"})

    def __init__(self) -> None:
        self._pa: Any = None
        self._transform: Any = None
        self._manifest: Any = None
        self._datafusion: Any = None  # (IcebergDataFusionTable, SessionContext) when DataFusion fits
        self._no_datafusion = "the engine has not started"

    def start(self) -> None:
        self.require("pyiceberg_core", PYICEBERG_CORE_VERSION, f"pip install pyiceberg-core=={PYICEBERG_CORE_VERSION}")
        import pyarrow
        from pyiceberg_core import manifest, transform

        self._pa, self._transform, self._manifest = pyarrow, transform, manifest
        self._datafusion, self._no_datafusion = None, ""
        try:
            import datafusion
            from pyiceberg_core.datafusion import IcebergDataFusionTable
        except ImportError as e:
            self._no_datafusion = (
                f"read-table needs the datafusion package ({e}): pip install datafusion=={DATAFUSION_VERSION}"
            )
            return
        wanted = DATAFUSION_VERSION.split(".")[0]
        if datafusion.__version__.split(".")[0] != wanted:
            self._no_datafusion = (
                f"datafusion {datafusion.__version__} cannot take pyiceberg-core's table provider "
                f"(built for DataFusion {wanted}): pip install datafusion=={DATAFUSION_VERSION}"
            )
            return
        self._datafusion = (IcebergDataFusionTable, datafusion.SessionContext)

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        if op == "read-table" and self._no_datafusion:
            return self._no_datafusion
        if op in self.column_ops and inp.get("type") == "fixed[0]":
            return "the adapter hands values over as Arrow arrays, and fixed[0] has no Arrow form"
        return super().unsupported(op, inp)

    def validates(self, op: str) -> bool:
        return op != tree_files.OP

    def answer_read_manifest_tree(self, inp: dict[str, Any]) -> dict[str, Any]:
        """The manifest-list rows and raw entries of the case's snapshot, as pyiceberg-core reads them."""
        files = tree_files.decode_files(inp)
        document = tree_files.metadata_document(files, inp["metadata-location"])
        wanted = inp.get("snapshot-id")
        if wanted is None:
            wanted = document.get("current-snapshot-id")
        # Plumbing only: find the manifest-list path (pyiceberg-core has no metadata parser).
        list_path = next(
            (s.get("manifest-list") for s in document.get("snapshots", []) if s.get("snapshot-id") == wanted), None
        )
        if list_path is None:
            raise ValueError(f"the adapter finds no manifest list for snapshot {wanted!r}")
        manifests, entries = [], []
        for m in self._manifest.read_manifest_list(_file(files, list_path)).entries():
            manifests.append(
                {
                    "manifest_path": m.manifest_path,
                    "partition_spec_id": m.partition_spec_id,
                    "content": m.content,
                    "sequence_number": m.sequence_number,
                    "min_sequence_number": m.min_sequence_number,
                    "added_snapshot_id": m.added_snapshot_id,
                }
            )
            for e in self._manifest.read_manifest_entries(_file(files, m.manifest_path)).entries():
                f = e.data_file
                entries.append(
                    {
                        "manifest_path": m.manifest_path,
                        "status": e.status,
                        "content": f.content,
                        "file_path": f.file_path,
                        "record_count": f.record_count,
                    }
                )
        return {"manifests": manifests, "entries": entries}

    def read_table(self, table: golden_tables.GoldenTable, snapshot_id: int) -> Any:
        """One snapshot's rows as iceberg-rust's DataFusion provider returns them."""
        from spec_impl.ops.golden_tables import table_rows

        if self._datafusion is None:
            return EngineAnswer.declined(self._no_datafusion)
        provider, session = self._datafusion
        location = _snapshot_metadata(table.metadata_location, snapshot_id)
        if location is None:
            return EngineAnswer.declined(f"no metadata file has snapshot {snapshot_id} as current")
        ctx = session()
        ctx.register_table("t", provider(["conformance", table.id], location, {}))
        return table_rows(ctx.sql("SELECT * FROM t").to_arrow_table())

    def prepare(self, inp: dict[str, Any]) -> tuple:
        return inp["transform"], parse_type(inp["type"]), self._function(inp["transform"])

    def value(self, prepared: tuple, inp: dict[str, Any]) -> Any:
        return decode(prepared[1], inp["value"])

    def call(self, prepared: tuple, values: list[Any]) -> list[Any]:
        _, source, fn = prepared
        return self._to_python(fn(self._to_arrow(source, values)))

    def _function(self, text: str) -> Any:
        """The pyiceberg-core function for a transform string, its parameter bound."""
        m = _PARAMETERIZED.fullmatch(text)
        if m:
            fn, param = getattr(self._transform, m.group(1)), int(m.group(2))
            return lambda array: fn(array, param)
        if text in _PLAIN and hasattr(self._transform, text):
            return getattr(self._transform, text)
        raise ValueError(f"pyiceberg-core has no transform {text!r}")

    def to_answer(self, prepared: tuple, result: Any) -> EngineAnswer:
        text, source, _ = prepared
        return transform_answer(text, source, self.revision, result)

    def _arrow_type(self, t: IcebergType) -> Any:
        return arrow_type(t)

    def _to_arrow(self, t: IcebergType, values: list[Any]) -> Any:
        """An Arrow array of physical values (temporal values are integer counts since the epoch)."""
        pa, arrow_type = self._pa, self._arrow_type(t)
        if pa.types.is_date32(arrow_type):
            return pa.array(values, pa.int32()).cast(arrow_type)
        if pa.types.is_time64(arrow_type) or pa.types.is_timestamp(arrow_type):
            return pa.array(values, pa.int64()).cast(arrow_type)
        if getattr(t, "name", None) == "uuid":
            return pa.array([None if v is None else v.bytes for v in values], arrow_type)
        return pa.array(values, arrow_type)

    def _to_python(self, array: Any) -> list[Any]:
        """Physical values of a result array (dates as days, times and timestamps as integer counts)."""
        pa = self._pa
        if isinstance(array.type, pa.ExtensionType):
            array = array.storage
        if pa.types.is_date32(array.type):
            array = array.cast(pa.int32())
        elif pa.types.is_time64(array.type) or pa.types.is_timestamp(array.type):
            array = array.cast(pa.int64())
        return array.to_pylist()


@functools.cache  # a table's metadata files do not change during a run
def _snapshot_metadata(latest: str, snapshot_id: int) -> str | None:
    """The location of the table's latest metadata file whose current snapshot is `snapshot_id`,
    preferring one whose current schema is the snapshot's own; None when no file has it as current.
    Plumbing, not the engine's reading: the files are read with the `json` module."""
    prefix, _, _ = latest.rpartition("/")
    snapshot_schema, found = None, []
    for path in Path(prefix.removeprefix("file:")).glob("*.metadata.json"):
        document = json.loads(path.read_text(encoding="utf-8"))
        for s in document.get("snapshots") or []:
            if s.get("snapshot-id") == snapshot_id:
                snapshot_schema = s.get("schema-id", snapshot_schema)
        if document.get("current-snapshot-id") == snapshot_id:
            version = re.match(r"v(\d+)\.", path.name)
            order = (document.get("last-updated-ms", 0), int(version.group(1)) if version else 0)
            found.append((order, path.name, document))
    found.sort(key=lambda f: f[0])
    fitting = [f for f in found if f[2].get("current-schema-id") == snapshot_schema] or found
    return f"{prefix}/{fitting[-1][1]}" if fitting else None


def _file(files: dict[str, bytes], path: str) -> bytes:
    try:
        return files[path]
    except KeyError:
        raise FileNotFoundError(f"the case has no file {path!r}") from None
