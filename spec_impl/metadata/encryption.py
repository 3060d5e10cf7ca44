"""An entry of table metadata's `encryption-keys` (adopted v3 digest §1.7 Encryption): `key-id`
(string, required), `encrypted-key-metadata` (base64, required), `encrypted-by-id` (optional, a
string: the id of another key) and `properties` (map, optional: string to string)."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from spec_impl.errors import InvalidInput
from spec_impl.rules import implements


@implements("table.encryption-keys")
def check_encryption_key(key: Any) -> None:
    """Rule table.encryption-keys for one entry; raises InvalidInput naming the broken field."""
    if not isinstance(key, dict) or not isinstance(key.get("key-id"), str):
        raise InvalidInput("table.encryption-keys", "an encryption key needs a string key-id", key)
    metadata = key.get("encrypted-key-metadata")
    if not isinstance(metadata, str) or not _is_base64(metadata):
        raise InvalidInput("table.encryption-keys", "an encryption key needs base64 encrypted-key-metadata", key)
    if "encrypted-by-id" in key and not isinstance(key["encrypted-by-id"], str):
        raise InvalidInput("table.encryption-keys", "encrypted-by-id, when present, is a key id (a string)", key)
    properties = key.get("properties", {})
    if not isinstance(properties, dict) or not all(isinstance(v, str) for v in properties.values()):
        raise InvalidInput("table.encryption-keys", "properties, when present, map strings to strings", key)


def _is_base64(text: str) -> bool:
    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


@implements("snapshot.key-id")
def check_snapshot_key_ids(snapshots: Any, keys: Any) -> None:
    """Adopted §1.7: a snapshot's `key-id` "names the key that encrypts the manifest list's key
    metadata": it is the `key-id` of an entry of `encryption-keys`."""
    known = {k.get("key-id") for k in keys if isinstance(k, dict)}
    for s in snapshots:
        if s.key_id is not None and s.key_id not in known:
            raise InvalidInput(
                "snapshot.key-id", f"snapshot {s.snapshot_id}'s key-id names no entry of encryption-keys", s.key_id
            )
