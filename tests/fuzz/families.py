"""The parser families: one public entry point each, with its seeds and its mutation.

A family's `run(input)` calls the entry point; an outcome is good when it returns or raises
`SpecError` (or, for the engine protocol, its own rejection `ProtocolError`). `owner` says who
fixes escapes: "reference" families are held to zero escapes; "value" families (types,
transforms, single values) and "protocol" have their escapes recorded in VALUE_ESCAPES.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from . import avro_records, mutate_bytes, mutate_json, seeds

V3 = "v3-adopted"


@dataclass(frozen=True)
class Family:
    name: str
    entry_point: str
    seeds: Callable[[], list[Any]]
    mutate: Callable[[random.Random, Any, list[Any]], Any]
    run: Callable[[Any], Any]
    owner: str = "reference"
    rejections: Callable[[], tuple[type, ...]] = field(default=lambda: ())


FAMILIES: dict[str, Family] = {}


def family(name: str, entry_point: str, seeds_fn, mutate_fn, owner: str = "reference", rejections=lambda: ()):
    def register(run):
        FAMILIES[name] = Family(name, entry_point, seeds_fn, mutate_fn, run, owner, rejections)
        return run

    return register


def generate(f: Family, index: int, campaign_seed: int) -> Any:
    """The `index`-th input of a campaign: a seed picked and mutated by a generator seeded with
    (campaign seed, family, index), so every input can be made again from its index."""
    rng = random.Random(f"{campaign_seed}:{f.name}:{index}")
    pool = _seeds(f.name)
    return f.mutate(rng, rng.choice(pool), pool)


_SEED_CACHE: dict[str, list[Any]] = {}


def _seeds(name: str) -> list[Any]:
    if name not in _SEED_CACHE:
        _SEED_CACHE[name] = list(FAMILIES[name].seeds())
    return _SEED_CACHE[name]


# --- mutation of the inputs' shapes ---------------------------------------------------------------


def json_mutator(key: str | None = None):
    """Mutate a JSON document, or the value under `key` of an input object."""

    def mutate(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        if key is None:
            return mutate_json.mutate(rng, seed, pool)
        others = [p[key] for p in pool[:20] if isinstance(p, dict) and key in p]
        if (
            rng.random() < 0.1 and "format-version" in seed
        ):  # a caller's argument of the wrong type or an unknown version
            return dict(
                seed, **{"format-version": rng.choice([0, 4, -1, "2", 2.0, None, True, mutate_json.scalar(rng)])}
            )
        return dict(seed, **{key: mutate_json.mutate(rng, seed[key], others)})

    return mutate


def whole_json(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
    return mutate_json.mutate(rng, seed, pool[:20])


def with_long_digit_runs(mutate: Callable[[random.Random, Any, list[Any]], Any]):
    """`mutate`, or one time in ten a digit run of a string made thousands of digits long
    (`mutate_json.long_digit_run`): for the value families, whose strings carry numbers."""

    def mutate_or_lengthen(rng: random.Random, seed: Any, pool: list[Any]) -> Any:
        if rng.random() < 0.1 and (longer := mutate_json.long_digit_run(rng, seed)) is not None:
            return longer
        return mutate(rng, seed, pool)

    return mutate_or_lengthen


def bytes_mutator(rng: random.Random, seed: bytes, pool: list[bytes]) -> bytes:
    return mutate_bytes.mutate(rng, seed, pool)


def text_mutator(rng: random.Random, seed: bytes, pool: list[bytes]) -> bytes:
    return mutate_json.mutate_text(rng, seed) if rng.random() < 0.7 else mutate_bytes.mutate(rng, seed, pool)


def puffin_mutator(rng: random.Random, seed: bytes, pool: list[bytes]) -> bytes:
    return mutate_bytes.mutate_puffin(rng, seed, mutate_json.mutate)


def dv_mutator(rng: random.Random, seed: bytes, pool: list[bytes]) -> bytes:
    return mutate_bytes.mutate_dv(rng, seed) if rng.random() < 0.7 else mutate_bytes.mutate(rng, seed, pool)


def avro_mutator(rng: random.Random, seed: bytes, pool: list[bytes]) -> bytes:
    if rng.random() < 0.5:
        rewritten = avro_records.mutate_file(rng, seed)
        if rewritten is not None:
            return rewritten
    return mutate_bytes.mutate(rng, seed, pool)


def _kind(path: str, data: bytes) -> str:
    if data[:4] == b"Obj\x01":
        return "list" if b'"manifest_path"' in data[:4096] else "manifest"
    if data[:4] == b"PFA1":
        return "puffin"
    if data[:4] == b"PAR1":
        return "parquet"
    return "metadata" if path.endswith(".json") else "other"


def tree_mutator(*kinds: str, record_level: bool = True, byte_level: bool = True):
    """Mutate one file of a tree input ({files, metadata-location, snapshot-id}) of the given kinds:
    metadata documents as text or structure, Avro files by bytes or by records, Puffin, Parquet."""

    def mutate(rng: random.Random, seed: dict, pool: list[dict]) -> dict:
        files = dict(seed["files"])
        candidates = sorted(p for p, d in files.items() if _kind(p, d) in kinds)
        if not candidates or rng.random() < 0.03:
            return dict(seed, **{"snapshot-id": rng.choice([None, -1, 2**63, "1", 1.5])})
        path = rng.choice(candidates)
        data, kind = files[path], _kind(path, files[path])
        if kind == "metadata":
            files[path] = mutate_json.mutate_text(rng, data)
        elif kind in ("list", "manifest"):
            rewritten = (
                avro_records.mutate_file(rng, data) if record_level and (not byte_level or rng.random() < 0.6) else None
            )
            files[path] = rewritten if rewritten is not None else mutate_bytes.mutate(rng, data)
        elif kind == "puffin":
            files[path] = mutate_bytes.mutate_puffin(rng, data, mutate_json.mutate)
        else:
            files[path] = mutate_bytes.mutate(rng, data)
        if rng.random() < 0.05:
            del files[rng.choice(sorted(files))]
        return dict(seed, files=files)

    return mutate


def _in_memory(inp: dict):
    from spec_impl.manifests.tree import InMemoryFiles

    return InMemoryFiles(inp["files"])


# --- metadata documents ---------------------------------------------------------------------------


@family("metadata-file", "spec_impl.metadata.table_metadata.read_metadata_file", seeds.metadata_files, text_mutator)
def _metadata_file(data: bytes) -> Any:
    from spec_impl.metadata.table_metadata import read_metadata_file

    return read_metadata_file(data, V3)


def _table_documents() -> list[Any]:
    import json

    docs = []
    for d in seeds.metadata_files():
        try:
            docs.append(json.loads(d))
        except ValueError:  # the vectors' deliberately broken files
            continue
    return docs + seeds.json_documents("read-table-metadata", "document")


@family("table-metadata", "spec_impl.metadata.table_metadata.parse_table_metadata", _table_documents, whole_json)
def _table_metadata(doc: Any) -> Any:
    from spec_impl.metadata.table_metadata import normalized, parse_table_metadata, write_table_metadata

    md = parse_table_metadata(doc, V3)
    write_table_metadata(md)
    return normalized(md)


@family(
    "view-metadata",
    "spec_impl.metadata.view_metadata.parse_view_metadata",
    lambda: seeds.json_documents("read-view-metadata", "document"),
    whole_json,
)
def _view_metadata(doc: Any) -> Any:
    from spec_impl.metadata.view_metadata import parse_view_metadata

    return parse_view_metadata(doc, V3).to_json(V3)


def _versioned(op: str, key: str) -> Callable[[], list[dict]]:
    return lambda: [
        {key: i[key], "format-version": i.get("format-version", 2)} for i in seeds.case_inputs(op) if key in i
    ]


@family(
    "schema", "spec_impl.metadata.schema.parse_schema", _versioned("parse-schema", "schema"), json_mutator("schema")
)
def _schema(inp: dict) -> Any:
    from spec_impl.metadata.schema import parse_schema, validate_schema

    s = parse_schema(inp["schema"], inp["format-version"])
    validate_schema(s, inp["format-version"], V3)
    return s.to_json(inp["format-version"])


@family(
    "partition-spec",
    "spec_impl.metadata.partitioning.parse_partition_spec",
    _versioned("parse-partition-spec", "spec"),
    json_mutator("spec"),
)
def _partition_spec(inp: dict) -> Any:
    from spec_impl.metadata.partitioning import parse_partition_spec

    return parse_partition_spec(inp["spec"], inp["format-version"], V3).to_json(inp["format-version"], V3)


@family(
    "sort-order",
    "spec_impl.metadata.sorting.parse_sort_order",
    _versioned("parse-sort-order", "order"),
    json_mutator("order"),
)
def _sort_order(inp: dict) -> Any:
    from spec_impl.metadata.sorting import parse_sort_order

    return parse_sort_order(inp["order"], inp["format-version"], V3).to_json(inp["format-version"], V3)


@family(
    "name-mapping",
    "spec_impl.metadata.projection.parse_name_mapping",
    lambda: seeds.json_documents("parse-name-mapping", "mapping"),
    whole_json,
)
def _name_mapping(doc: Any) -> Any:
    from spec_impl.metadata.projection import parse_name_mapping

    return parse_name_mapping(doc).to_json()


@family(
    "snapshot",
    "spec_impl.metadata.snapshots.parse_snapshot",
    _versioned("parse-snapshot", "snapshot"),
    json_mutator("snapshot"),
)
def _snapshot(inp: dict) -> Any:
    from spec_impl.metadata.snapshots import parse_snapshot

    return parse_snapshot(inp["snapshot"], inp["format-version"], V3).to_json(inp["format-version"], V3)


# --- manifests and trees --------------------------------------------------------------------------


def _read_tree(inp: dict) -> Any:
    from spec_impl.manifests.tree import read_snapshot, tree_reading

    return tree_reading(read_snapshot(_in_memory(inp), inp["metadata-location"], inp.get("snapshot-id"), V3))


FAMILIES_OF_TREES = {
    "manifest-list": (
        "spec_impl.manifests.tree.read_snapshot (manifest-list bytes)",
        tree_mutator("list", record_level=False),
    ),
    "manifest": (
        "spec_impl.manifests.tree.read_manifest (manifest bytes)",
        tree_mutator("manifest", record_level=False),
    ),
    "tree-walk": (
        "spec_impl.manifests.tree.read_snapshot (records of any shape)",
        tree_mutator("list", "manifest", "metadata", byte_level=False),
    ),
}
for _name, (_entry, _mutate) in FAMILIES_OF_TREES.items():
    family(_name, _entry, seeds.trees, _mutate)(_read_tree)


@family(
    "validate", "spec_impl.manifests.validate.validate_table", seeds.trees, tree_mutator("list", "manifest", "metadata")
)
def _validate(inp: dict) -> Any:
    from spec_impl.manifests.validate import validate_table

    return validate_table(_in_memory(inp), inp["metadata-location"], V3)


@family(
    "inheritance",
    "spec_impl.manifests.inheritance.inherit_entries",
    lambda: seeds.case_inputs("inherit-manifest-entries"),
    whole_json,
)
def _inheritance(inp: Any) -> Any:
    from spec_impl.manifests import inheritance

    if not isinstance(inp, dict):
        inp = {"manifest": inp, "entries": [], "format-version": 2}
    entries = inheritance.inherit_entries(inp.get("manifest"), inp.get("entries"), inp.get("format-version"))
    inheritance.min_sequence_number(entries)
    manifest = inp.get("manifest")
    return inheritance.file_first_row_ids(
        manifest.get("first_row_id") if isinstance(manifest, dict) else manifest, entries
    )


# --- deletes --------------------------------------------------------------------------------------


@family("delete-scoping", "spec_impl.deletes.scoping.plan", lambda: seeds.case_inputs("plan-deletes"), whole_json)
def _delete_scoping(inp: Any) -> Any:
    from spec_impl.deletes import scoping

    if not isinstance(inp, dict):
        inp = {"data-files": inp}
    data = scoping.scan_files(inp.get("data-files", []))
    deletes = scoping.scan_files(inp.get("delete-files", []))
    return scoping.plan(data, deletes, scoping.unpartitioned_spec_ids(inp.get("specs", [])), V3)


@family(
    "puffin",
    "spec_impl.deletes.puffin.read_puffin",
    lambda: list(seeds.binary_files("puffin")) + [i["file-base64"] for i in seeds.case_inputs("read-puffin")],
    puffin_mutator,
)
def _puffin(data: bytes) -> Any:
    from spec_impl.deletes.puffin import read_puffin

    f = read_puffin(data)
    return [f.read_blob(b) for b in f.blobs]


@family("dv-blob", "spec_impl.deletes.deletion_vectors.deserialize_dv", seeds.dv_blobs, dv_mutator)
def _dv_blob(data: bytes) -> Any:
    from spec_impl.deletes.deletion_vectors import deserialize_dv

    return list(deserialize_dv(data).positions())


def _dv_read_mutator(rng: random.Random, seed: dict, pool: list[dict]) -> dict:
    if rng.random() < 0.5:
        return dict(
            seed, **{"puffin-base64": mutate_bytes.mutate_puffin(rng, seed["puffin-base64"], mutate_json.mutate)}
        )
    return dict(seed, **{"data-file": mutate_json.mutate(rng, seed["data-file"])})


@family(
    "dv-read",
    "spec_impl.deletes.deletion_vectors.read_dv",
    lambda: seeds.case_inputs("read-deletion-vector"),
    _dv_read_mutator,
)
def _dv_read(inp: dict) -> Any:
    from spec_impl.deletes.deletion_vectors import deleted_positions

    return deleted_positions(inp["puffin-base64"], inp["data-file"])


@family(
    "position-rows",
    "spec_impl.deletes.position_files.check_position_rows",
    lambda: seeds.case_inputs("check-position-deletes"),
    whole_json,
)
def _position_rows(inp: Any) -> Any:
    from spec_impl.deletes.position_files import check_position_rows

    if not isinstance(inp, dict):
        inp = {"rows": inp, "row-counts": {}}
    return check_position_rows(inp.get("rows"), inp.get("row-counts"))


# --- data files, v4, tables -----------------------------------------------------------------------


@family("parquet", "spec_impl.scan.arrow_values.read_parquet", lambda: seeds.binary_files("parquet"), bytes_mutator)
def _parquet(data: bytes) -> Any:
    from spec_impl.scan.arrow_values import read_parquet

    return read_parquet(data)


@family("v4-manifest", "spec_impl.v4.files.read_manifest", seeds.v4_manifests, avro_mutator)
def _v4_manifest(data: bytes) -> Any:
    from spec_impl.v4.files import read_manifest

    return read_manifest(data, "manifest", allow_v3=True)


def _v4_mutator(rng: random.Random, seed: dict, pool: list[dict]) -> dict:
    if rng.random() < 0.1:
        return dict(seed, **{rng.choice(["root", "parent"]): mutate_json.mutate(rng, seed.get("root"))})
    return tree_mutator("list", "manifest", "puffin", "other")(rng, seed, pool)


def _root(obj: Any):
    from spec_impl.v4.replay import SnapshotRoot

    return None if obj is None else SnapshotRoot.from_json(obj)


@family("v4-replay", "spec_impl.v4.replay.replay", seeds.v4_inputs, _v4_mutator)
def _v4_replay(inp: dict) -> Any:
    from spec_impl.v4.replay import replay

    live = replay(_in_memory(inp).read, _root(inp.get("root")))
    return live.applicable_deletes()


@family("v4-validate", "spec_impl.v4.validate.validate_snapshot", seeds.v4_inputs, _v4_mutator)
def _v4_validate(inp: dict) -> Any:
    from spec_impl.v4.validate import validate_snapshot

    return validate_snapshot(_in_memory(inp).read, _root(inp.get("root")), _root(inp.get("parent")))


@family(
    "scan",
    "spec_impl.scan.reader.read_table",
    seeds.tables,
    tree_mutator("metadata", "list", "manifest", "puffin", "parquet"),
)
def _scan(inp: dict) -> Any:
    from spec_impl.scan.reader import read_table

    return read_table(_in_memory(inp), inp["metadata-location"], inp.get("snapshot-id"), with_lineage=True, revision=V3)


# --- value-level families (escapes recorded in VALUE_ESCAPES.md) ---------------------------------


@family(
    "type",
    "spec_impl.types.parse_type",
    lambda: seeds.json_documents("parse-type", "type"),
    with_long_digit_runs(whole_json),
    owner="value",
)
def _type(obj: Any) -> Any:
    from spec_impl.types import parse_type

    return str(parse_type(obj))


@family(
    "transform",
    "spec_impl.transforms.parse_transform",
    lambda: seeds.json_documents("parse-transform", "transform"),
    with_long_digit_runs(whole_json),
    owner="value",
)
def _transform(obj: Any) -> Any:
    from spec_impl.transforms import parse_transform

    return parse_transform(obj)


@family(
    "json-value",
    "spec_impl.serde.json_value.from_json",
    lambda: seeds.case_inputs("from-json"),
    with_long_digit_runs(json_mutator("json")),
    owner="value",
)
def _json_value(inp: dict) -> Any:
    from spec_impl import from_json

    return from_json(inp["type"], inp["json"])


def _binary_values() -> list[dict]:
    return [{"type": i["type"], "bytes": bytes.fromhex(i["hex"])} for i in seeds.case_inputs("from-binary")]


def _binary_value_mutator(rng: random.Random, seed: dict, pool: list[dict]) -> dict:
    """The bytes mutated (lengths, bit flips, boundaries), or the bytes given another seed's type, or the type
    mutated."""
    pick = rng.random()
    if pick < 0.2:
        return dict(seed, type=rng.choice(pool)["type"])
    if pick < 0.35:
        return json_mutator("type")(rng, seed, pool)
    return dict(seed, bytes=mutate_bytes.mutate(rng, seed["bytes"], [p["bytes"] for p in pool[:20]]))


@family(
    "binary-value",
    "spec_impl.serde.binary.from_binary (then to_binary)",
    _binary_values,
    _binary_value_mutator,
    owner="value",
)
def _binary_value(inp: dict) -> Any:
    from spec_impl import from_binary, to_binary

    value = from_binary(inp["type"], inp["bytes"], V3)
    return to_binary(inp["type"], value)


def _protocol_seeds() -> list[dict]:
    return [
        {"engine": "e", "version": "1", "protocol": 2, "capabilities": ["hash", "transform"]},
        {"id": "c1", "status": "ok", "output": [1, 2]},
        {"id": "c2", "status": "rejected", "error": "no", "rule": "type.fixed"},
        {"id": "c3", "status": "error", "error": "boom"},
        {"id": "c4", "status": "unsupported", "reason": "later"},
        {"id": "c5", "ok": False, "error": "v1"},
    ]


def _protocol_error() -> tuple[type, ...]:
    from conformance.engines.protocol import ProtocolError

    return (ProtocolError,)


@family(
    "protocol",
    "conformance.engines.protocol.check_hello / to_answer",
    _protocol_seeds,
    whole_json,
    owner="protocol",
    rejections=_protocol_error,
)
def _protocol(obj: Any) -> Any:
    from conformance.engines.protocol import check_hello, to_answer

    if isinstance(obj, dict) and "engine" in obj:
        return check_hello(obj)
    return to_answer(obj, 2)
