"""View metadata in the two revisions of the view spec.

- `v3-adopted`: the adopted view spec (`format/view-spec.md`, as Java 1.10 reads it; digest §5).
- `2024-seed`: the early draft of `001_7d950bd0efa94146.txt` (2022-04).

Per field, the draft (`2024-seed`) and the adopted spec (`v3-adopted`):

- `view-uuid`: draft: not defined; adopted: required UUID string
- `schemas`: draft: optional, top level; adopted: required, top level
- `current-schema-id`: draft: optional, top level; adopted: not defined (each version has its schema)
- version `schema-id`: draft: not defined (on each representation, optional); adopted: required
- version `default-catalog`, `default-namespace`: draft: not defined (on each representation, optional); adopted:
  optional / required
- `summary.operation`: draft: required, `create` or `replace`; adopted: not defined (`engine-name`, `engine-version`
  optional)
- representation fields: draft: `type`, `sql`, `dialect`, optional `schema-id`, `default-catalog`, `default-namespace`,
  `field-aliases`, `field-docs`; adopted: `type`, `sql`, `dialect`
- `version-log`: draft: required; adopted: required

Both: `format-version` must be 1; `current-version-id` names a version; `location`, `versions`
required; `properties` an optional string map.

Decisions (rule id in brackets):

- One SQL representation per dialect [`view.dialect-unique`]: the adopted text does not say whether "dialect" compares
  case-sensitively; dialects are compared after lowercasing, as Java, PyIceberg's and iceberg-rust's builders do. The
  draft states no such rule; it is applied to both.
- `version-log` entries may name versions that are no longer in `versions` [`view.version-log`]: versions are trimmed to
  `version.history.num-entries`, while the log records "every change to current-version-id" and the view spec, unlike
  the table spec, asks for no pruning.
- Representations whose `type` is not `sql` are kept verbatim (`UnknownRepresentation`), as Java
  reads them; the type is compared case-insensitively, as Java does.
- Draft `field-aliases` / `field-docs` [`view.field-aliases`]: the text says the lists "should have
  the same length as the schema's top level fields"; this is checked when the representation's
  `schema-id` names a schema (the length of the raw schema's `fields` list; schemas are not parsed).
- Draft `schema-id` on a representation and `current-schema-id` must name a schema of `schemas`
  [`view.schema-id`]; without `schemas` no schema id may be given.
- Fields not in a revision's tables (the draft example's `parent-version-id` and version-level
  `properties`; the newer `storage-table`) are ignored on reading and not written.

Finding: the draft's example JSON is not valid JSON: it has trailing commas (after
`"engineVersion" : "presto-350"`, after the `representations` list and after a representation
object), `=>` annotations inside the JSON, and a `parent-version-id` field that is not in the
field tables (removed from the spec in 2022-12). Its summary key `engineVersion` also differs from
the table's `engine-version`. The tests carry a corrected copy.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, ClassVar

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.revisions import ADOPTED, V3_ADOPTED, before, has
from spec_impl.rules import Rule, implements, register

_ADOPTED = "adopted 5 View spec: View Metadata"
_DRAFT = "View spec draft (001): View Metadata"
_BOTH = "View Metadata (draft and adopted)"

register(
    Rule(
        "view.json",
        _BOTH,
        "View metadata and its versions are JSON objects with the required fields of their revision and the "
        "field types of the tables",
    ),
    Rule("view.format-version", _BOTH, "format-version is required and must be 1"),
    Rule("view.uuid", _ADOPTED, "view-uuid is required and is a UUID string", revisions=ADOPTED),
    Rule(
        "view.schemas",
        _BOTH,
        "schemas (required in the adopted spec, optional in the draft) is a list of schema objects with "
        "unique integer schema-id",
    ),
    Rule("view.current-version", _BOTH, "current-version-id is required and names a version in versions"),
    Rule("view.version-unique", _BOTH, "versions is a non-empty list and version-id is unique among them"),
    Rule(
        "view.schema-id",
        _BOTH,
        "A version's schema-id (adopted: required), a representation's schema-id and current-schema-id "
        "(draft) name a schema in schemas",
    ),
    Rule(
        "view.default-namespace",
        _ADOPTED,
        "A version's default-namespace is a required list of strings; default-catalog an optional string",
        revisions=ADOPTED,
    ),
    Rule("view.summary", _BOTH, "A version's summary is a required string-to-string map"),
    Rule(
        "view.summary-operation",
        "View spec draft (001): Summary",
        "summary.operation is required and is create or replace",
        revisions=before(V3_ADOPTED),
    ),
    Rule(
        "view.representation",
        "Representations",
        "representations is a list of objects with a type; a sql representation has sql and dialect strings",
    ),
    Rule(
        "view.dialect-unique",
        "Representations: SQL representation",
        "A version has at most one sql representation per dialect (compared case-insensitively)",
    ),
    Rule(
        "view.field-aliases",
        "View spec draft (001): Representations",
        "field-aliases (strings) and field-docs (strings or null) have the length of the schema's top-level fields",
        revisions=before(V3_ADOPTED),
    ),
    Rule(
        "view.version-log",
        "Version Log",
        "version-log is a required list of timestamp-ms and version-id entries; entries may name expired versions",
    ),
)

VIEW_FORMAT_VERSION = 1
DRAFT_OPERATIONS = ("create", "replace")
_LONG = (-(2**63), 2**63 - 1)
_INT = (-(2**31), 2**31 - 1)


# --- JSON reading helpers ----------------------------------------------------------------------


def _object(obj: Any, rule: str, what: str) -> dict:
    if not isinstance(obj, dict):
        raise InvalidInput(rule, f"{what} must be a JSON object", obj)
    return obj


def _integer(obj: dict, key: str, rule: str, bounds: tuple[int, int] = _LONG, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise InvalidInput(rule, f"required field {key!r} is missing", sorted(obj))
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not bounds[0] <= value <= bounds[1]:
        raise InvalidInput(rule, f"field {key!r} must be an integer in [{bounds[0]}, {bounds[1]}]", value)
    return value


def _string(obj: dict, key: str, rule: str, required: bool = True) -> str | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(rule, f"field {key!r} must be a string", value)
    return value


def _strings(obj: dict, key: str, rule: str, required: bool, allow_null_items: bool = False) -> tuple | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    ok = isinstance(value, list) and all(isinstance(v, str) or (allow_null_items and v is None) for v in value)
    if not ok:
        raise InvalidInput(rule, f"field {key!r} must be a list of strings", value)
    return tuple(value)


def _string_map(value: Any, rule: str, what: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise InvalidInput(rule, f"{what} must be a map of strings to strings", value)
    return tuple(value.items())


# --- the model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SqlRepresentation:
    """A `sql` representation; the fields after `dialect` exist only in the draft."""

    sql: str
    dialect: str
    schema_id: int | None = None
    default_catalog: str | None = None
    default_namespace: tuple[str, ...] | None = None
    field_aliases: tuple[str, ...] | None = None
    field_docs: tuple[str | None, ...] | None = None
    type: ClassVar[str] = "sql"

    def to_json(self, revision: str) -> dict:
        out: dict[str, Any] = {"type": "sql", "sql": self.sql, "dialect": self.dialect}
        if not has(revision, V3_ADOPTED):
            for key, value in (
                ("schema-id", self.schema_id),
                ("default-catalog", self.default_catalog),
                ("default-namespace", self.default_namespace),
                ("field-aliases", self.field_aliases),
                ("field-docs", self.field_docs),
            ):
                if value is not None:
                    out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class UnknownRepresentation:
    """A representation of a type other than `sql`, kept as its JSON object."""

    type: str
    raw: dict

    def to_json(self, revision: str) -> dict:
        return dict(self.raw)


@dataclass(frozen=True)
class ViewVersion:
    """One entry of `versions`. `schema_id`, `default_catalog` and `default_namespace` are the
    adopted spec's version-level fields (None in the draft)."""

    version_id: int
    timestamp_ms: int
    summary: tuple[tuple[str, str], ...]
    representations: tuple[SqlRepresentation | UnknownRepresentation, ...]
    schema_id: int | None = None
    default_catalog: str | None = None
    default_namespace: tuple[str, ...] | None = None

    def to_json(self, revision: str) -> dict:
        out: dict[str, Any] = {"version-id": self.version_id, "timestamp-ms": self.timestamp_ms}
        if has(revision, V3_ADOPTED):
            out["schema-id"] = self.schema_id
        out["summary"] = dict(self.summary)
        if has(revision, V3_ADOPTED):
            if self.default_catalog is not None:
                out["default-catalog"] = self.default_catalog
            out["default-namespace"] = None if self.default_namespace is None else list(self.default_namespace)
        out["representations"] = [r.to_json(revision) for r in self.representations]
        return out


@dataclass(frozen=True)
class VersionLogEntry:
    """One `version-log` entry: when `version_id` became the current version."""

    timestamp_ms: int
    version_id: int


@dataclass(frozen=True)
class ViewMetadata:
    """A view metadata file as read under `revision`. Schemas are kept as their JSON objects."""

    revision: str
    location: str
    current_version_id: int
    versions: tuple[ViewVersion, ...]
    version_log: tuple[VersionLogEntry, ...]
    schemas: tuple[dict, ...] | None = None
    properties: tuple[tuple[str, str], ...] | None = None
    view_uuid: str | None = None
    current_schema_id: int | None = None
    format_version: int = VIEW_FORMAT_VERSION

    @property
    def current_version(self) -> ViewVersion:
        return next(v for v in self.versions if v.version_id == self.current_version_id)

    def to_json(self, revision: str | None = None) -> dict:
        """The metadata JSON of `revision` (default: the one it was read under). The result is
        re-read to validate it, so metadata lacking a required field of `revision` is rejected."""
        revision = revisions.check(revision or self.revision)
        out: dict[str, Any] = {}
        if has(revision, V3_ADOPTED):
            out["view-uuid"] = self.view_uuid
        out["format-version"] = self.format_version
        out["location"] = self.location
        if self.properties is not None:
            out["properties"] = dict(self.properties)
        if has(revision, V3_ADOPTED):
            out["schemas"] = None if self.schemas is None else [dict(s) for s in self.schemas]
        out["current-version-id"] = self.current_version_id
        out["versions"] = [v.to_json(revision) for v in self.versions]
        out["version-log"] = [{"timestamp-ms": e.timestamp_ms, "version-id": e.version_id} for e in self.version_log]
        if not has(revision, V3_ADOPTED):
            if self.schemas is not None:
                out["schemas"] = [dict(s) for s in self.schemas]
            if self.current_schema_id is not None:
                out["current-schema-id"] = self.current_schema_id
        parse_view_metadata(out, revision)
        return out


# --- parsing -----------------------------------------------------------------------------------


@implements("view.current-version", "view.format-version", "view.json", "view.schema-id")
def parse_view_metadata(obj: Any, revision: str = revisions.DEFAULT) -> ViewMetadata:
    """Read and validate view metadata JSON under `revision` ("v3-adopted" or "2024-seed")."""
    revisions.check(revision)
    draft = not has(revision, V3_ADOPTED)
    obj = _object(obj, "view.json", "view metadata")
    if type(obj.get("format-version")) is not int or obj.get("format-version") != VIEW_FORMAT_VERSION:
        raise InvalidInput("view.format-version", "view format-version must be 1", obj.get("format-version"))
    view_uuid = None if draft else _parse_uuid(obj.get("view-uuid"))
    location = _string(obj, "location", "view.json")
    schemas = _parse_schemas(obj.get("schemas"), required=not draft)
    schema_ids = {s["schema-id"] for s in schemas or ()}
    current_schema_id = _integer(obj, "current-schema-id", "view.json", _INT, required=False) if draft else None
    if current_schema_id is not None and current_schema_id not in schema_ids:
        raise InvalidInput("view.schema-id", "current-schema-id names no schema in schemas", current_schema_id)
    versions = _parse_versions(obj.get("versions"), draft, {s["schema-id"]: s for s in schemas or ()})
    current = _integer(obj, "current-version-id", "view.current-version", _INT)
    if current not in {v.version_id for v in versions}:
        raise InvalidInput("view.current-version", "current-version-id names no version in versions", current)
    log = _parse_log(obj.get("version-log"))
    properties = None if obj.get("properties") is None else _string_map(obj["properties"], "view.json", "properties")
    return ViewMetadata(revision, location, current, versions, log, schemas, properties, view_uuid, current_schema_id)


@implements("view.uuid")
def _parse_uuid(value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidInput("view.uuid", "view-uuid is required and must be a UUID string", value)
    try:
        uuid.UUID(value)
    except ValueError:
        raise InvalidInput("view.uuid", "view-uuid is not a valid UUID", value) from None
    return value


@implements("view.schemas")
def _parse_schemas(value: Any, required: bool) -> tuple[dict, ...] | None:
    if value is None:
        if required:
            raise InvalidInput("view.schemas", "schemas is required", value)
        return None
    if not isinstance(value, list):
        raise InvalidInput("view.schemas", "schemas must be a list of schema objects", value)
    seen: set[int] = set()
    for schema in value:
        schema = _object(schema, "view.schemas", "a schema")
        schema_id = _integer(schema, "schema-id", "view.schemas", _INT)
        if schema_id in seen:
            raise InvalidInput("view.schemas", "two schemas have the schema-id", schema_id)
        seen.add(schema_id)
    return tuple(value)


@implements("view.version-unique")
def _parse_versions(value: Any, draft: bool, schemas: dict[int, dict]) -> tuple[ViewVersion, ...]:
    if not isinstance(value, list) or not value:
        raise InvalidInput("view.version-unique", "versions must be a non-empty list", value)
    versions = tuple(_parse_version(v, draft, schemas) for v in value)
    seen: set[int] = set()
    for v in versions:
        if v.version_id in seen:
            raise InvalidInput("view.version-unique", "two versions have the version-id", v.version_id)
        seen.add(v.version_id)
    return versions


@implements(
    "view.default-namespace",
    "view.dialect-unique",
    "view.json",
    "view.representation",
    "view.schema-id",
    "view.summary",
    "view.summary-operation",
)
def _parse_version(obj: Any, draft: bool, schemas: dict[int, dict]) -> ViewVersion:
    obj = _object(obj, "view.json", "a view version")
    version_id = _integer(obj, "version-id", "view.json", _INT)
    timestamp_ms = _integer(obj, "timestamp-ms", "view.json")
    if obj.get("summary") is None:
        raise InvalidInput("view.summary", f"version {version_id} has no summary", sorted(obj))
    summary = _string_map(obj["summary"], "view.summary", "summary")
    schema_id = catalog = namespace = None
    if draft:
        operation = dict(summary).get("operation")
        if operation not in DRAFT_OPERATIONS:
            raise InvalidInput(
                "view.summary-operation",
                f"version {version_id}: summary.operation must be create or replace",
                operation,
            )
    else:
        schema_id = _integer(obj, "schema-id", "view.schema-id", _INT)
        if schema_id not in schemas:
            raise InvalidInput("view.schema-id", f"version {version_id} names a schema-id not in schemas", schema_id)
        catalog = _string(obj, "default-catalog", "view.default-namespace", required=False)
        namespace = _strings(obj, "default-namespace", "view.default-namespace", required=True)
    representations = obj.get("representations")
    if not isinstance(representations, list):
        raise InvalidInput(
            "view.representation", f"version {version_id}: representations must be a list", representations
        )
    parsed = tuple(_parse_representation(r, draft, schemas) for r in representations)
    dialects: set[str] = set()
    for r in parsed:
        if isinstance(r, SqlRepresentation):
            if r.dialect.lower() in dialects:
                raise InvalidInput(
                    "view.dialect-unique",
                    f"version {version_id} has two sql representations for the dialect",
                    r.dialect,
                )
            dialects.add(r.dialect.lower())
    return ViewVersion(version_id, timestamp_ms, summary, parsed, schema_id, catalog, namespace)


@implements("view.field-aliases", "view.json", "view.representation", "view.schema-id")
def _parse_representation(obj: Any, draft: bool, schemas: dict[int, dict]) -> SqlRepresentation | UnknownRepresentation:
    obj = _object(obj, "view.representation", "a representation")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidInput("view.representation", "a representation needs a type string", kind)
    if kind.lower() != "sql":
        return UnknownRepresentation(kind, dict(obj))
    sql = _string(obj, "sql", "view.representation")
    dialect = _string(obj, "dialect", "view.representation")
    if not draft:
        return SqlRepresentation(sql, dialect)
    schema_id = _integer(obj, "schema-id", "view.json", _INT, required=False)
    if schema_id is not None and schema_id not in schemas:
        raise InvalidInput("view.schema-id", "a representation names a schema-id not in schemas", schema_id)
    catalog = _string(obj, "default-catalog", "view.json", required=False)
    namespace = _strings(obj, "default-namespace", "view.json", required=False)
    aliases = _strings(obj, "field-aliases", "view.field-aliases", required=False)
    docs = _strings(obj, "field-docs", "view.field-aliases", required=False, allow_null_items=True)
    fields = schemas[schema_id].get("fields") if schema_id is not None else None
    for key, names in (("field-aliases", aliases), ("field-docs", docs)):
        if names is not None and isinstance(fields, list) and len(names) != len(fields):
            raise InvalidInput(
                "view.field-aliases",
                f"{key} has {len(names)} entries but schema {schema_id} has {len(fields)} top-level fields",
                list(names),
            )
    return SqlRepresentation(sql, dialect, schema_id, catalog, namespace, aliases, docs)


@implements("view.version-log")
def _parse_log(value: Any) -> tuple[VersionLogEntry, ...]:
    if not isinstance(value, list):
        raise InvalidInput("view.version-log", "version-log is required and must be a list", value)
    entries = []
    for item in value:
        item = _object(item, "view.version-log", "a version-log entry")
        entries.append(
            VersionLogEntry(
                _integer(item, "timestamp-ms", "view.version-log"),
                _integer(item, "version-id", "view.version-log", _INT),
            )
        )
    return tuple(entries)
