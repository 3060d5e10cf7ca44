"""Plumbing shared by the adapters that answer `read-manifest-tree`: the case's inline files, and
the partial view of the reading for engines that report only some of its keys.

Nothing here applies a spec rule (no defaults, no inheritance): the adapters hand the bytes to
their engine and report what it read.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from spec_impl.manifests.tree import MANIFEST_KEYS

OP = "read-manifest-tree"
# The keys of a partial reading (`Engine.tree_keys`): a manifest-list row as v2 has it (v3 adds
# first_row_id); what an entry says by itself; what it inherits (Sequence Number Inheritance).
MANIFEST_KEYS_V2 = tuple(k for k in MANIFEST_KEYS if k != "first_row_id")
ENTRY_KEYS_OWN = ("manifest_path", "status", "content", "file_path", "record_count")
ENTRY_KEYS_INHERITED = ("snapshot_id", "sequence_number", "file_sequence_number")


def decode_files(inp: dict[str, Any]) -> dict[str, bytes]:
    """The case's files, keyed by the exact path strings the tree references."""
    return {path: base64.b64decode(data) for path, data in inp["files"].items()}


def metadata_document(files: dict[str, bytes], location: str) -> dict[str, Any]:
    """The metadata file parsed as plain JSON, for adapters that need a path out of it (the table
    location, a manifest-list path) and whose engine has no metadata parser to ask."""
    try:
        return json.loads(files[location])
    except KeyError:
        raise FileNotFoundError(f"the case has no file {location!r}") from None


def tree_view(
    output: dict[str, Any], top: tuple[str, ...], manifest_keys: tuple[str, ...], entry_keys: tuple[str, ...]
) -> dict[str, Any]:
    """The part of a tree reading made of the given top-level, manifest and entry keys."""
    view = {k: output[k] for k in top}
    view["manifests"] = [{k: m[k] for k in manifest_keys} for m in output["manifests"]]
    view["entries"] = [{k: e[k] for k in entry_keys} for e in output["entries"]]
    return view
