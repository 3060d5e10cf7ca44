"""Metadata write amplification of one small commit: Iceberg v3 (as Iceberg Java writes it) vs the
v4 "Single File Commits" proposal (as `spec_impl.v4.commits` writes it), as the table grows.

For each table size (N leaf manifests of F data files each) and each commit kind -- append one
data file, delete one data file, row delta (a deletion vector for one data file) -- the script
writes the commit with the project's writers and counts the files and their real bytes:

* v3 (TreeWriter, Avro manifests, Puffin DVs): append = new manifest + manifest list (one row per
  manifest of the table) + metadata JSON; delete = the manifest that held the file rewritten
  (the file DELETED, the other F-1 entries EXISTING) + manifest list + metadata JSON; row delta =
  Puffin file with the DV + delete manifest + manifest list + metadata JSON.
* v4 (`append` at the root / through a new leaf, `delete_files` with an inline or a Puffin
  manifest DV, `row_delta` with the data DV entry at the root): the files in `Commit.files`.
  The model writes no metadata JSON; both formats need one per commit, so it is counted apart.

It also measures the metadata a planner must read for the new snapshot when every (immutable)
file read to plan the previous snapshot is cached by path, and how the v4 root grows over many
commits with and without manifest compaction (`compact=True`).

Writes benchmarks/results/v4_write_amplification.json and two PNGs (see benchmarks/README.md).

Run:  .venv/bin/python benchmarks/v4_write_amplification.py [--sizes 10 100 1000] [--no-plot]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import platform
import random
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from spec_impl.deletes.deletion_vectors import dv_blob, manifest_fields
from spec_impl.deletes.puffin import read_puffin, write_puffin
from spec_impl.manifests.inheritance import ADDED as V3_ADDED
from spec_impl.manifests.inheritance import DELETED as V3_DELETED
from spec_impl.manifests.inheritance import EXISTING as V3_EXISTING
from spec_impl.manifests.tree import InMemoryFiles, read_snapshot
from spec_impl.manifests.writer import TreeWriter
from spec_impl.manifests.writer import data_file as v3_data_file
from spec_impl.manifests.writer import entry as v3_entry
from spec_impl.v4.commits import (
    Commit,
    Operation,
    TableState,
    append,
    commit,
    delete_files,
    manifest_stats,
    row_delta,
)
from spec_impl.v4.entries import ADDED, DATA_MANIFEST, ContentEntry
from spec_impl.v4.entries import data_file as v4_data_file
from spec_impl.v4.files import write_manifest as v4_write_manifest
from spec_impl.v4.replay import SnapshotRoot, read_root, replay
from spec_impl.v4.validate import validate_snapshot

RESULTS = Path(__file__).resolve().parent / "results"
LOCATION = "s3://warehouse/db/events"
SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "event_id", "required": True, "type": "long"},
        {"id": 2, "name": "ts", "required": True, "type": "timestamptz"},
        {"id": 3, "name": "user_id", "required": False, "type": "long"},
        {"id": 4, "name": "kind", "required": False, "type": "string"},
        {"id": 5, "name": "payload", "required": False, "type": "string"},
    ],
}
DV_POSITIONS = 10  # rows deleted by the row delta's DV
METADATA_JSON = ".metadata.json"


# --- the table's content (the same files for both formats) -----------------------------------------


@dataclasses.dataclass(frozen=True)
class DataFile:
    path: str
    records: int
    size: int


def random_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def make_content(rng: random.Random, manifests: int, files_per_manifest: int) -> list[tuple[str, list[DataFile]]]:
    """`manifests` groups of data files with Java-like names: (manifest file name, its data files)."""
    content = []
    for m in range(manifests):
        files = []
        for i in range(files_per_manifest):
            records = rng.randint(10_000, 1_000_000)
            files.append(
                DataFile(
                    f"{LOCATION}/data/{m:05d}-{i}-{random_uuid(rng)}-00001.parquet",
                    records,
                    records * rng.randint(20, 60),
                )
            )
        content.append((f"{random_uuid(rng)}-m0.avro", files))
    return content


def new_data_file(rng: random.Random) -> DataFile:
    records = rng.randint(10_000, 1_000_000)
    return DataFile(f"{LOCATION}/data/99999-0-{random_uuid(rng)}-00001.parquet", records, records * 40)


@dataclasses.dataclass(frozen=True)
class Target:
    """What the measured commits touch: a new file to append, an existing file to delete, and an
    existing file (with some rows) for the row delta's DV."""

    new: DataFile
    manifest: int  # index of the manifest that holds `delete` and `dv`
    delete: int
    dv: int
    dv_positions: tuple[int, ...]


def pick_target(rng: random.Random, content: list[tuple[str, list[DataFile]]]) -> Target:
    m = rng.randrange(len(content))
    files = content[m][1]
    delete, dv = rng.sample(range(len(files)), 2)
    positions = tuple(sorted(rng.sample(range(files[dv].records), DV_POSITIONS)))
    return Target(new_data_file(rng), m, delete, dv, positions)


# --- measuring -----------------------------------------------------------------------------------


def sizes_of(files: dict[str, bytes]) -> dict:
    """Files and bytes written by one commit, the metadata JSON counted apart."""
    meta = {p: len(b) for p, b in files.items() if p.endswith(METADATA_JSON)}
    other = {p: len(b) for p, b in files.items() if not p.endswith(METADATA_JSON)}
    return {
        "files": len(other),
        "bytes": sum(other.values()),
        "metadata_json_files": len(meta),
        "metadata_json_bytes": sum(meta.values()),
        "written": {p.rsplit("/", 1)[1]: n for p, n in sorted(other.items())},
    }


class RecordingReader:
    """A reader over a dict of files that remembers every path read (the metadata a planner reads)."""

    def __init__(self, files: dict[str, bytes]):
        self.files, self.paths = files, set()

    def read(self, path: str) -> bytes:
        self.paths.add(path)
        return InMemoryFiles.read(self, path)  # the same "tree.file-exists" error for a missing file


def planning_reads(files: dict[str, bytes], read_paths: set[str], cache: set[str]) -> dict:
    """Files and bytes read to plan a snapshot, cold and with `cache` (paths of immutable files
    read for the previous snapshot); the metadata JSON (never cached, one per commit in both
    formats) is left out."""
    paths = {p for p in read_paths if not p.endswith(METADATA_JSON)}
    missed = paths - cache
    return {
        "cold_files": len(paths),
        "cold_bytes": sum(len(files[p]) for p in paths),
        "uncached_files": len(missed),
        "uncached_bytes": sum(len(files[p]) for p in missed),
    }


# --- v3, as Iceberg Java writes it ---------------------------------------------------------------


@dataclasses.dataclass
class V3Table:
    writer: TreeWriter
    rows: list[dict]  # the current snapshot's manifest-list rows
    entries: dict[str, list[dict]]  # manifest path -> its entries as read (inherited values filled in)

    def clone(self) -> V3Table:
        w = dataclasses.replace(self.writer, files=dict(self.writer.files), snapshots=list(self.writer.snapshots))
        return V3Table(w, list(self.rows), self.entries)


def v3_plan(files: dict[str, bytes], metadata_location: str) -> set[str]:
    """The paths a v3 planner reads: metadata JSON, manifest list, every manifest."""
    reader = RecordingReader(files)
    read_snapshot(reader, metadata_location)
    return reader.paths


def v3_base(content: list[tuple[str, list[DataFile]]]) -> V3Table:
    """Snapshot 1: every manifest of `content` written by one append."""
    w = TreeWriter(LOCATION, 3, SCHEMA)
    manifests = [
        w.write_manifest(name, [v3_entry(V3_ADDED, v3_data_file(f.path, f.records, size=f.size)) for f in files])
        for name, files in content
    ]
    rows = w.commit(1, "append", manifests, list_name=f"snap-1-1-{uuid.UUID(int=1)}.avro")
    tree = read_snapshot(InMemoryFiles(w.files), w.metadata_location)
    return V3Table(w, rows, {m.path: m.entries for m in tree.manifests})


def v3_commit(
    table: V3Table, snapshot_id: int, operation: str, write: Callable[[TreeWriter], list], drop: str | None = None
) -> tuple[dict[str, bytes], TreeWriter]:
    """One v3 commit on a copy of `table`: `write` writes the new manifests (and Puffin files);
    the list carries every other manifest (all but `drop`). Returns the files written and the writer."""
    t = table.clone()
    before = set(t.writer.files)
    new = write(t.writer)
    carried = [r for r in t.rows if r["manifest_path"] != drop]
    t.writer.commit(
        snapshot_id, operation, new, carried, list_name=f"snap-{snapshot_id}-1-{uuid.UUID(int=snapshot_id)}.avro"
    )
    written = {p: b for p, b in t.writer.files.items() if p not in before}
    return written, t.writer


def v3_append(table: V3Table, target: Target, sid: int) -> tuple[dict, TreeWriter]:
    """Fast append: one new manifest with one ADDED entry."""
    f = target.new
    return v3_commit(
        table,
        sid,
        "append",
        lambda w: [
            w.write_manifest(
                f"{uuid.UUID(int=sid)}-m0.avro", [v3_entry(V3_ADDED, v3_data_file(f.path, f.records, size=f.size))]
            )
        ],
    )


def v3_delete(table: V3Table, target: Target, sid: int, content) -> tuple[dict, TreeWriter]:
    """Delete one file: the manifest holding it is rewritten, the file DELETED, the rest EXISTING."""
    old = table.writer.path(content[target.manifest][0])
    victim = content[target.manifest][1][target.delete].path

    def rewrite(w: TreeWriter) -> list:
        entries = []
        for e in table.entries[old]:
            deleted = e["data_file"]["file_path"] == victim
            entries.append(
                v3_entry(
                    V3_DELETED if deleted else V3_EXISTING,
                    e["data_file"],
                    sid if deleted else e["snapshot_id"],
                    e["sequence_number"],
                    e["file_sequence_number"],
                )
            )
        return [w.write_manifest(f"{uuid.UUID(int=sid)}-m0.avro", entries)]

    return v3_commit(table, sid, "delete", rewrite, drop=old)


def v3_row_delta(table: V3Table, target: Target, sid: int, content) -> tuple[dict, TreeWriter]:
    """Row delta: a Puffin file with one DV blob and a delete manifest with its entry."""
    data_path = content[target.manifest][1][target.dv].path
    puffin_path = f"{LOCATION}/data/00000-{sid}-{uuid.UUID(int=sid)}-00001-deletes.puffin"

    def write(w: TreeWriter) -> list:
        puffin = write_puffin([dv_blob(target.dv_positions, data_path)], {"created-by": "spec_impl benchmark"})
        w.files[puffin_path] = puffin
        fields = manifest_fields(read_puffin(puffin).blobs[0])
        dv = v3_data_file(
            puffin_path,
            fields.pop("record_count"),
            content=fields.pop("content"),
            file_format="PUFFIN",
            size=len(puffin),
            **{k: v for k, v in fields.items() if k != "file_format"},
        )
        return [w.write_manifest(f"{uuid.UUID(int=sid)}-m1.avro", [v3_entry(V3_ADDED, dv)], content=1)]

    return v3_commit(table, sid, "delete", write)


# --- v4, with the project's commit procedures -------------------------------------------------------


@dataclasses.dataclass
class V4Table:
    files: dict[str, bytes]
    state: TableState

    def read(self, path: str) -> bytes:
        return InMemoryFiles.read(self, path)


def v4_base(content: list[tuple[str, list[DataFile]]], validate: bool) -> V4Table:
    """Snapshot 1: a root with one ADDED data manifest entry per leaf (a first snapshot written in
    one go, as a bulk load would), checked by the validator when `validate`."""
    files: dict[str, bytes] = {}
    root_entries = []
    for name, group in content:
        entries = [v4_data_file(f.path, f.records, file_size_in_bytes=f.size) for f in group]
        path = f"{LOCATION}/metadata/{name}"
        files[path] = v4_write_manifest("data", entries)
        root_entries.append(
            ContentEntry(
                DATA_MANIFEST,
                path,
                "avro",
                len(entries),
                ADDED,
                file_size_in_bytes=len(files[path]),
                manifest_stats=manifest_stats(entries, 1),
            )
        )
    root = SnapshotRoot(f"{LOCATION}/metadata/root-1.avro", 1, 1)
    files[root.location] = v4_write_manifest("root", root_entries)
    if validate:
        assert validate_snapshot(files.__getitem__, root) == [], "the v4 base snapshot is not valid"
    entries = tuple(e for e in read_root(files.__getitem__, root) if e.live)
    return V4Table(files, TableState(LOCATION, root.location, root.snapshot_id, root.sequence_number, entries))


def v4_plan(files: dict[str, bytes], root: SnapshotRoot) -> set[str]:
    """The paths a v4 planner reads: the root, every live leaf, Puffin-stored manifest DVs."""
    reader = RecordingReader(files)
    replay(reader.read, root)
    return reader.paths


def v4_append_root(t: V4Table, target: Target, sid: int, content) -> Commit:
    return append(
        t.state,
        t.read,
        sid,
        [v4_data_file(target.new.path, target.new.records, file_size_in_bytes=target.new.size)],
        layout="root",
    )


def v4_append_manifest(t: V4Table, target: Target, sid: int, content) -> Commit:
    return append(
        t.state,
        t.read,
        sid,
        [v4_data_file(target.new.path, target.new.records, file_size_in_bytes=target.new.size)],
        layout="manifest",
    )


def v4_delete_inline(t: V4Table, target: Target, sid: int, content) -> Commit:
    return delete_files(t.state, t.read, sid, [content[target.manifest][1][target.delete].path], dv_storage="inline")


def v4_delete_puffin(t: V4Table, target: Target, sid: int, content) -> Commit:
    return delete_files(t.state, t.read, sid, [content[target.manifest][1][target.delete].path], dv_storage="puffin")


def v4_row_delta(t: V4Table, target: Target, sid: int, content) -> Commit:
    return row_delta(
        t.state, t.read, sid, {content[target.manifest][1][target.dv].path: target.dv_positions}, layout="root"
    )


# (format, commit kind, variant, description)
CASES = [
    ("v3", "append", "fast append", "new manifest + manifest list"),
    ("v4", "append", "root", "root with an ADDED data file entry"),
    ("v4", "append", "leaf", "root + new leaf manifest"),
    ("v3", "delete", "rewrite manifest", "rewritten manifest + manifest list"),
    ("v4", "delete", "inline manifest DV", "root with an inline manifest DV"),
    ("v4", "delete", "Puffin manifest DV", "root + Puffin file with the manifest DV"),
    ("v3", "row delta", "DV", "Puffin DV + delete manifest + manifest list"),
    ("v4", "row delta", "DV at root", "root with a data DV entry + Puffin DV"),
]
V4_COMMITS = {
    ("append", "root"): v4_append_root,
    ("append", "leaf"): v4_append_manifest,
    ("delete", "inline manifest DV"): v4_delete_inline,
    ("delete", "Puffin manifest DV"): v4_delete_puffin,
    ("row delta", "DV at root"): v4_row_delta,
}


def measure_size(manifests: int, files_per_manifest: int, seed: int, validate: bool) -> list[dict]:
    """Every case of CASES on a table of `manifests` x `files_per_manifest` data files."""
    rng = random.Random(seed * 1_000_003 + manifests * 1_009 + files_per_manifest)
    content = make_content(rng, manifests, files_per_manifest)
    target = pick_target(rng, content)
    sid = 2
    results = []

    def record(fmt, kind, variant, description, written, plan, seconds):
        results.append(
            {
                "format": fmt,
                "commit": kind,
                "variant": variant,
                "description": description,
                "manifests": manifests,
                "files_per_manifest": files_per_manifest,
                "data_files": manifests * files_per_manifest,
                **sizes_of(written),
                "plan": plan,
                "seconds": round(seconds, 3),
            }
        )

    t0 = time.perf_counter()
    v3 = v3_base(content)
    v3_cache = v3_plan(v3.writer.files, v3.writer.metadata_location)
    print(f"  v3 base: manifest list + {len(v3_cache) - 2} manifests, {time.perf_counter() - t0:.1f}s", flush=True)
    v3_commits = {
        "append": lambda: v3_append(v3, target, sid),
        "delete": lambda: v3_delete(v3, target, sid, content),
        "row delta": lambda: v3_row_delta(v3, target, sid, content),
    }

    t0 = time.perf_counter()
    v4 = v4_base(content, validate)
    v4_cache = v4_plan(v4.files, v4.state.snapshot)
    print(f"  v4 base: root + {len(v4_cache) - 1} leaves, {time.perf_counter() - t0:.1f}s", flush=True)

    for fmt, kind, variant, description in CASES:
        t0 = time.perf_counter()
        if fmt == "v3":
            written, writer = v3_commits[kind]()
            paths = v3_plan(writer.files, writer.metadata_location)
            plan = planning_reads(writer.files, paths, v3_cache)
        else:
            c = V4_COMMITS[(kind, variant)](v4, target, sid, content)
            written, files = c.files, {**v4.files, **c.files}
            if validate:
                assert validate_snapshot(files.__getitem__, c.root, v4.state.snapshot) == [], (
                    f"v4 {kind} ({variant}) is not valid"
                )
            plan = planning_reads(files, v4_plan(files, c.root), v4_cache)
        record(fmt, kind, variant, description, written, plan, time.perf_counter() - t0)
        r = results[-1]
        print(
            f"  {fmt} {kind:9} {variant:20} wrote {r['files']} files {r['bytes']:>9,} B; plan reads "
            f"{plan['uncached_files']} uncached {plan['uncached_bytes']:>9,} B  ({r['seconds']:.1f}s)",
            flush=True,
        )
    return results


# --- root growth over many commits ----------------------------------------------------------------


GROWTH_SERIES = [
    # (name, commit kind, layout, compact)
    ("v4 root appends", "append", "root", False),
    ("v4 root appends, compact=True", "append", "root", True),
    ("v4 leaf appends", "append", "manifest", False),
    ("v4 leaf appends, compact=True", "append", "manifest", True),
    ("v4 deletes (inline manifest DVs)", "delete", None, False),
    ("v4 deletes (inline manifest DVs), compact=True", "delete", None, True),
]


def v4_growth(
    name: str, kind: str, layout: str | None, compact: bool, content, commits: int, seed: int, validate_every: int
) -> dict:
    """`commits` chained commits on the base table; the root's size and the bytes written by each.
    Deletes remove one file of each leaf in turn (a new manifest DV per commit, replacing the
    leaf's earlier DV by the union)."""
    rng = random.Random(seed)
    t = v4_base(content, validate=False)
    root_bytes, written_bytes, written_files = [len(t.files[t.state.root])], [], []
    for k in range(commits):
        sid = k + 2
        if kind == "append":
            f = new_data_file(rng)
            op = Operation(
                add=(v4_data_file(f.path, f.records, file_size_in_bytes=f.size),), layout=layout, compact=compact
            )
        else:
            manifest, slot = k % len(content), k // len(content)
            op = Operation(remove=(content[manifest][1][slot].path,), compact=compact)
        parent = t.state.snapshot
        c = commit(t.state, t.read, sid, op)
        t.files.update(c.files)
        t.state = c.state
        if validate_every and (k + 1) % validate_every == 0:
            assert validate_snapshot(t.read, c.root, parent) == [], f"{name}: commit {sid} is not valid"
        root_bytes.append(len(c.files[c.root.location]))
        written_bytes.append(sum(len(b) for b in c.files.values()))
        written_files.append(len(c.files))
    return {
        "series": name,
        "commit": kind,
        "layout": layout,
        "compact": compact,
        "commits": commits,
        "root_bytes": root_bytes,
        "written_bytes": written_bytes,
        "written_files": written_files,
        "root_entries": len(read_root(t.read, t.state.snapshot)),
        "live_root_entries": len(t.state.entries),
    }


def v3_list_growth(content, commits: int, seed: int) -> dict:
    """Reference: v3 fast appends; the manifest list gains one row per append."""
    rng = random.Random(seed)
    table = v3_base(content)
    w, rows = table.writer, table.rows
    list_bytes = [len(w.files[w.snapshots[-1]["manifest-list"]])]
    written_bytes = []
    for k in range(commits):
        sid, f = k + 2, new_data_file(rng)
        before = set(w.files)
        m = w.write_manifest(
            f"{uuid.UUID(int=sid)}-m0.avro", [v3_entry(V3_ADDED, v3_data_file(f.path, f.records, size=f.size))]
        )
        rows = w.commit(sid, "append", [m], rows, list_name=f"snap-{sid}-1-{uuid.UUID(int=sid)}.avro")
        list_bytes.append(len(w.files[w.snapshots[-1]["manifest-list"]]))
        written_bytes.append(
            sum(len(b) for p, b in w.files.items() if p not in before and not p.endswith(METADATA_JSON))
        )
    return {
        "series": "v3 fast appends (manifest list)",
        "commit": "append",
        "layout": "manifest",
        "compact": False,
        "commits": commits,
        "root_bytes": list_bytes,
        "written_bytes": written_bytes,
        "written_files": [2] * commits,
    }


def measure_growth(manifests: int, files_per_manifest: int, commits: int, seed: int, validate_every: int) -> list[dict]:
    content = make_content(random.Random(seed), manifests, files_per_manifest)
    out = []
    for name, kind, layout, compact in GROWTH_SERIES:
        t0 = time.perf_counter()
        out.append(v4_growth(name, kind, layout, compact, content, commits, seed, validate_every))
        s = out[-1]
        print(
            f"  {name:48} root {s['root_bytes'][0]:>7,} -> {s['root_bytes'][-1]:>8,} B, wrote "
            f"{sum(s['written_bytes']):>10,} B in {commits} commits ({time.perf_counter() - t0:.1f}s)",
            flush=True,
        )
    t0 = time.perf_counter()
    out.append(v3_list_growth(content, commits, seed))
    s = out[-1]
    print(
        f"  {s['series']:48} list {s['root_bytes'][0]:>7,} -> {s['root_bytes'][-1]:>8,} B, wrote "
        f"{sum(s['written_bytes']):>10,} B in {commits} commits ({time.perf_counter() - t0:.1f}s)",
        flush=True,
    )
    return out


# --- output ------------------------------------------------------------------------------------------


def print_table(results: list[dict], axis: str, label: str) -> None:
    """Files / bytes written and read per case, one column per value of `axis` (a key of the results)."""
    values = sorted({r[axis] for r in results})
    header = f"{'format':6} {'commit':9} {'variant':20}" + "".join(f" {f'{label}={n:,}':>18}" for n in values)

    def rows(cell: Callable[[dict], str]) -> None:
        for fmt, kind, variant, _ in CASES:
            cells = [
                next(r for r in results if (r["format"], r["commit"], r["variant"], r[axis]) == (fmt, kind, variant, n))
                for n in values
            ]
            print(f"{fmt:6} {kind:9} {variant:20}" + "".join(cell(c) for c in cells))

    print("\nfiles / bytes written per commit (metadata JSON not included: +1 file in both formats)\n" + header)
    rows(lambda c: f" {c['files']:>2} f {c['bytes']:>12,} B")
    print(
        "\nplanning the new snapshot with the previous one cached: uncached files / bytes read (metadata JSON "
        "not included)\n" + header
    )
    rows(lambda c: f" {c['plan']['uncached_files']:>2} f {c['plan']['uncached_bytes']:>12,} B")
    mj = [
        next(r for r in results if r["format"] == "v3" and r["commit"] == "append" and r[axis] == n)[
            "metadata_json_bytes"
        ]
        for n in values
    ]
    print("v3 metadata JSON per commit (bytes): " + ", ".join(f"{label}={n:,}: {b:,}" for n, b in zip(values, mj)))


def print_growth(growth: list[dict], checkpoints: list[int]) -> None:
    print("\nroot (v3: manifest list) size in bytes after k chained commits")
    print(f"{'series':48}" + "".join(f" {f'k={k}':>10}" for k in checkpoints) + f" {'total written':>14}")
    for s in growth:
        print(
            f"{s['series']:48}"
            + "".join(f" {s['root_bytes'][k]:>10,}" for k in checkpoints)
            + f" {sum(s['written_bytes']):>14,}"
        )


def plot(results: list[dict], leaf_sweep: list[dict], growth: list[dict], path: Path, growth_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = {"v3": {"linestyle": "-", "marker": "o"}, "v4": {"linestyle": "--", "marker": "s"}}
    colors = {case: f"C{i}" for i, case in enumerate(CASES)}
    fig, axes = plt.subplots(1, 3, figsize=(18, 5.4))
    panels = [
        (axes[0], results, "manifests", lambda r: r["bytes"]),
        (axes[1], results, "manifests", lambda r: r["plan"]["uncached_bytes"]),
        (axes[2], leaf_sweep, "files_per_manifest", lambda r: r["bytes"]),
    ]
    for case in CASES:
        fmt, kind, variant, _ = case
        for ax, rows, axis, y in panels:
            rows = sorted(
                (r for r in rows if (r["format"], r["commit"], r["variant"]) == (fmt, kind, variant)),
                key=lambda r: r[axis],
            )
            ax.plot(
                [r[axis] for r in rows],
                [y(r) for r in rows],
                color=colors[case],
                label=f"{fmt} {kind}: {variant}",
                **styles[fmt],
            )
    per_leaf, leaves = results[0]["files_per_manifest"], leaf_sweep[0]["manifests"] if leaf_sweep else 0
    axes[0].set_title("metadata bytes written by one commit\n(+ one metadata JSON in both formats)")
    axes[1].set_title("bytes read to plan the new snapshot,\nprevious snapshot's files cached")
    axes[2].set_title(f"bytes written by one commit, {leaves} leaf manifests,\nas the leaf manifests grow")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"table size: leaf manifests ({per_leaf} data files each)")
        ax.set_ylabel("bytes")
        ax.grid(True, which="both", alpha=0.3)
    axes[2].set_xlabel("data files per leaf manifest")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    for i, s in enumerate(growth):
        style = (
            {"color": "k", "linestyle": ":"}
            if s["series"].startswith("v3")
            else {"color": f"C{i}", "linestyle": "--" if s["compact"] else "-"}
        )
        axes[0].plot(range(len(s["root_bytes"])), s["root_bytes"], label=s["series"], **style)
        axes[1].plot(range(1, len(s["written_bytes"]) + 1), s["written_bytes"], label=s["series"], **style)
    axes[0].set_title("root manifest (v3: manifest list) size after k commits")
    axes[1].set_title("metadata bytes written by commit k (log scale)")
    axes[1].set_yscale("log")
    for ax in axes:
        ax.set_xlabel("k (chained commits on the base table)")
        ax.set_ylabel("bytes")
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    fig.savefig(growth_path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[10, 100, 1000],
        help="table sizes in leaf manifests (default 10 100 1000)",
    )
    parser.add_argument(
        "--files-per-manifest", type=int, default=100, help="data files per leaf manifest (default 100)"
    )
    parser.add_argument(
        "--leaf-sweep",
        type=int,
        nargs="*",
        default=[1000, 10000],
        help="also measure every case with these data files per leaf manifest (default 1000 10000; with "
        "--files-per-manifest too)",
    )
    parser.add_argument(
        "--leaf-sweep-manifests", type=int, default=10, help="leaf manifests of the leaf-size sweep tables (default 10)"
    )
    parser.add_argument(
        "--growth-manifests", type=int, default=50, help="leaf manifests of the root-growth base table (default 50)"
    )
    parser.add_argument(
        "--growth-commits", type=int, default=200, help="chained commits per root-growth series (default 200)"
    )
    parser.add_argument("--seed", type=int, default=4, help="random seed (default 4)")
    parser.add_argument(
        "--validate-up-to",
        type=int,
        default=100_000,
        help="run the v4 validator on tables up to this many data files (default 100000)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "v4_write_amplification.json")
    parser.add_argument("--png", type=Path, default=RESULTS / "v4_write_amplification.png")
    parser.add_argument("--growth-png", type=Path, default=RESULTS / "v4_write_amplification_root_growth.png")
    parser.add_argument("--no-plot", action="store_true", help="skip the PNGs")
    return parser


def measure_all(args: argparse.Namespace) -> tuple[list[dict], list[dict], list[dict]]:
    """The commits of each table size, of the leaf-size sweep, and the root-growth series."""
    results = []
    for n in args.sizes:
        print(f"table of {n:,} manifests x {args.files_per_manifest} data files", flush=True)
        results += measure_size(
            n, args.files_per_manifest, args.seed, validate=n * args.files_per_manifest <= args.validate_up_to
        )
    leaf_sweep = [r for r in results if r["manifests"] == args.leaf_sweep_manifests]
    for f in args.leaf_sweep:
        print(f"table of {args.leaf_sweep_manifests:,} manifests x {f:,} data files", flush=True)
        leaf_sweep += measure_size(
            args.leaf_sweep_manifests, f, args.seed, validate=args.leaf_sweep_manifests * f <= args.validate_up_to
        )
    print(
        f"root growth: {args.growth_commits} chained commits on {args.growth_manifests} manifests x "
        f"{args.files_per_manifest} data files",
        flush=True,
    )
    growth = measure_growth(
        args.growth_manifests,
        args.files_per_manifest,
        args.growth_commits,
        args.seed,
        validate_every=max(args.growth_commits // 10, 1),
    )
    return results, leaf_sweep, growth


def run_meta(args: argparse.Namespace, started: float) -> dict:
    """The settings and environment of the run, written beside the figures."""
    return {
        "measured_on": datetime.date.today().isoformat(),
        "python": platform.python_version(),
        "seed": args.seed,
        "sizes": args.sizes,
        "files_per_manifest": args.files_per_manifest,
        "growth_manifests": args.growth_manifests,
        "growth_commits": args.growth_commits,
        "leaf_sweep": args.leaf_sweep,
        "leaf_sweep_manifests": args.leaf_sweep_manifests,
        "dv_positions": DV_POSITIONS,
        "avro_codec": "null (uncompressed), both formats",
        "column_stats": "none, both formats",
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    args = _parser().parse_args()
    started = time.perf_counter()
    results, leaf_sweep, growth = measure_all(args)

    print_table(results, "manifests", "N")
    if args.leaf_sweep:
        print(f"\n--- leaf-size sweep: {args.leaf_sweep_manifests} leaf manifests, F data files each ---")
        print_table(leaf_sweep, "files_per_manifest", "F")
    checkpoints = sorted({0, 1, 10, 100, args.growth_commits} & set(range(args.growth_commits + 1)))
    print_growth(growth, checkpoints)

    meta = run_meta(args, started)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"meta": meta, "commits": results, "leaf_sweep": leaf_sweep, "root_growth": growth}, indent=1) + "\n"
    )
    print(f"\nwrote {args.json}")
    if not args.no_plot:
        plot(results, leaf_sweep, growth, args.png, args.growth_png)
        print(f"wrote {args.png}\nwrote {args.growth_png}")


if __name__ == "__main__":
    main()
