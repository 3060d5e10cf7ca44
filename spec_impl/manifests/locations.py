"""Which files a table may be read from: the containment policy of the suite's readers.

Spec: "Table Metadata Fields" (`location`: "The table's base location. This is used by writers to
determine where to store data files, manifest files, and table metadata files"), "Overview" ("This
table format tracks individual data files in a table instead of directories") and "File System
Operations" (what a table needs of a file system: in-place writes, seekable reads, deletes). The
spec does not require a table's files to lie under its location: files are tracked one by one, by
full path, and imported files (Column Projection: "imported data files") may live anywhere. The
containment below is therefore a safety rule of this suite, not a rule of the spec (rule
tree.file-location): a metadata file, manifest list, manifest, position delete row or DV
`referenced_data_file` is untrusted input, and a path such as `../../etc/passwd`, `/etc/hostname`
or `file:///etc/hostname` in it must not make a validator, reader or audit read a file of the
machine it runs on.

The policy, for every entry point (`iceberg-validate-table`, `spec_impl.scan.reader.read_table`,
`iceberg-audit`, the writer harness):

- A file is read only when it lies under an *allowed prefix*: the table's `location`, the paths its
  properties `write.data.path`, `write.metadata.path` and `write.object-storage.path` name, and the
  prefixes the caller allows (`--allow-outside PREFIX`, for tables with imported files). The
  metadata file the caller names is always read (it is where the location comes from).
- Paths are compared after normalization: `file:/p`, `file:///p`, `file://localhost/p` and the
  plain path `/p` are one file (Spark writes both URI spellings); a relative path is taken from the
  working directory (as `LocalFiles` reads it); `.` and `..` segments are resolved
  (`os.path.normpath`), so `<location>/data/../../x` is outside. Other schemes (`s3://b/p`) are
  compared as scheme, authority and normalized path. "Under" means at a path-segment boundary:
  `/t` allows `/t/a` and not `/t2/a`.
- Symbolic links are not followed out: for files on this machine, the resolved path
  (`os.path.realpath`) must lie under the resolved prefix too. A link inside the table to another
  place inside it reads; a link to a file outside is refused like the outside path itself. (The
  check is made before the open; a link swapped in between is not caught.)
- A refused path is reported as `InvalidInput` under rule tree.file-location, naming the path and
  the allowed prefixes, and is never opened: the answer does not depend on whether it exists.

A table's metadata names its own location, so a metadata file whose location is `/` allows every
file: the policy keeps a table's references inside the table the metadata file describes, it does
not decide which tables may be read.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import posixpath
import re
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.manifests.tree import FileSource, LocalFiles
from spec_impl.rules import Rule, register, implements

FILE_LOCATION = "tree.file-location"
register(
    Rule(
        FILE_LOCATION,
        "Table Metadata Fields (location); Overview; File System Operations (a safety rule of this suite: the "
        "spec lets a table track files anywhere)",
        "The suite's readers read a table's files only under its location and the paths write.data.path, "
        "write.metadata.path and write.object-storage.path name (and prefixes allowed with --allow-outside); "
        "paths are normalized (file: URIs, '..', symbolic links) first",
    ),
)

WRITE_PATH_PROPERTIES = ("write.data.path", "write.metadata.path", "write.object-storage.path")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):(.*)$", re.DOTALL)
_MAX_METADATA = 256 * 1024 * 1024  # bytes of a gzip-compressed metadata file inflated to find the location


def canonical(path: str) -> tuple[str, str]:
    """(store, normalized path) of a path or URI: store "" for this machine's files (plain paths and
    `file:` URIs of no host or localhost), else "scheme://authority"."""
    m = _SCHEME.match(path)
    if m is None or len(m.group(1)) == 1:  # a plain path (a one-letter "scheme" is not a URI scheme here)
        return "", os.path.normpath(os.path.abspath(path))
    scheme, rest = m.group(1).lower(), m.group(2)
    authority = ""
    if rest.startswith("//"):
        authority, slash, rest = rest[2:].partition("/")
        rest = slash + rest
    if scheme == "file" and authority in ("", "localhost"):
        return "", os.path.normpath(os.path.abspath(rest or "/"))
    normalized = posixpath.normpath("/" + rest.lstrip("/"))
    return f"{scheme}://{authority}", "/" + normalized.lstrip("/")


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")


def table_prefixes(metadata: bytes) -> list[str]:
    """The table's own prefixes as its metadata file names them: `location` and the write paths of
    its properties. Lenient: a document that cannot be read names none (the reader's own parse then
    reports why)."""
    try:
        if metadata[:2] == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=io.BytesIO(metadata)) as f:
                metadata = f.read(_MAX_METADATA + 1)
            if len(metadata) > _MAX_METADATA:
                return []
        doc = json.loads(metadata)
    except (ValueError, OSError, EOFError, RecursionError, zlib.error):
        return []
    if not isinstance(doc, dict):
        return []
    properties = doc.get("properties") if isinstance(doc.get("properties"), dict) else {}
    found = [doc.get("location"), *(properties.get(k) for k in WRITE_PATH_PROPERTIES)]
    return [p for p in found if isinstance(p, str) and p]


@implements("tree.file-location")
class ContainedFiles:
    """A `FileSource` that reads through `inner` only the files the policy allows (rule
    tree.file-location, see the module docstring); `check(path)` refuses a path without reading it.

        files = ContainedFiles.for_table(LocalFiles(), metadata_location, allow_outside=["/imports"])
    """

    def __init__(
        self, inner: FileSource, prefixes: Iterable[str], allow_outside: Iterable[str] = (), files: Iterable[str] = ()
    ):
        self.inner = inner
        self.prefixes = tuple(prefixes)
        self.allow_outside = tuple(allow_outside)
        self.files = tuple(files)  # single files always allowed (the metadata file the caller named)
        self._allowed = [canonical(p) for p in (*self.prefixes, *self.allow_outside)]
        self._exact = {canonical(f) for f in self.files}
        self._local = isinstance(inner, LocalFiles)
        self._real = [(s, os.path.realpath(p)) for s, p in self._allowed if s == ""] if self._local else []
        self._cache: dict[str, bytes] = {}
        self._checked: set[str] = set()

    @classmethod
    def for_table(cls, inner: FileSource, metadata_location: str, allow_outside: Sequence[str] = ()) -> ContainedFiles:
        """The table's files as the metadata file at `metadata_location` bounds them. The metadata file
        is read here (errors of `inner` propagate: a missing file, an unreadable one)."""
        if isinstance(inner, ContainedFiles):
            inner = inner.inner
        data = inner.read(metadata_location)
        contained = cls(inner, table_prefixes(data), allow_outside, [metadata_location])
        contained._cache[metadata_location] = data
        return contained

    def describe(self) -> str:
        shown = (
            ", ".join(repr(p) for p in (*self.prefixes, *self.allow_outside))
            or "none (the metadata file names no location)"
        )
        return f"the table's location and write paths, and the prefixes allowed with --allow-outside: {shown}"

    @implements("tree.file-location")
    def check(self, path: Any, what: str = "file") -> None:
        """Raise InvalidInput (rule tree.file-location) when `path` lies outside the allowed
        prefixes; never opens it."""
        if isinstance(path, str) and path in self._checked:
            return
        if not isinstance(path, str) or not path or "\x00" in path:
            raise InvalidInput(FILE_LOCATION, f"the {what} path is not a usable path; it is not read", path)
        store, normalized = canonical(path)
        if (store, normalized) not in self._exact:
            if not any(store == s and _under(normalized, p) for s, p in self._allowed):
                raise InvalidInput(
                    FILE_LOCATION,
                    f"the {what} {path!r} lies outside the table's location ({self.describe()}); "
                    "it is not read (allow it with --allow-outside PREFIX)",
                    path,
                )
            if self._local and store == "":
                real = os.path.realpath(normalized)
                if not any(_under(real, p) for _, p in self._real):
                    raise InvalidInput(
                        FILE_LOCATION,
                        f"the {what} {path!r} resolves through a symbolic link to {real!r}, which lies "
                        f"outside the table's location ({self.describe()}); it is not read",
                        path,
                    )
        self._checked.add(path)

    def check_all(self, paths: Iterable[Any], what: str) -> None:
        """Every distinct path of `paths` (the file_path column of a position delete file, say)."""
        for path in dict.fromkeys(p for p in paths if isinstance(p, str)):  # other values: the caller's own shape rules
            self.check(path, what)

    def read(self, path: str) -> bytes:
        self.check(path)
        if path in self._cache:
            return self._cache[path]
        return self.inner.read(path)


def contain(files: FileSource, metadata_location: str, allow_outside: Sequence[str] = ()) -> ContainedFiles:
    """`files` bounded by the table at `metadata_location`; a `ContainedFiles` for that same metadata
    file (and no other allowed prefixes asked for) is returned as it is."""
    if isinstance(files, ContainedFiles) and metadata_location in files.files and not allow_outside:
        return files
    return ContainedFiles.for_table(files, metadata_location, allow_outside)


@implements("tree.file-location")
def check_reference(files: FileSource, path: Any, what: str) -> None:
    """tree.file-location for a path the tree names but the caller does not read (a DV's
    referenced_data_file, a position delete row's file_path), when `files` applies the policy."""
    if isinstance(files, ContainedFiles) and path is not None:
        files.check(path, what)
