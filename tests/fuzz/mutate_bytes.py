"""Binary mutators: generic byte mutations, and format-aware ones for Puffin files, DV blobs and
Avro container files (declared lengths, counts, cardinalities, magics, CRCs, offsets).

Generic: bit flips, random and boundary bytes, 2/4/8-byte integers overwritten with boundary
values (both byte orders), truncation, insertion, deletion, duplication and splicing of ranges.
"""

from __future__ import annotations

import json
import random
import struct
import zlib

BOUNDARY_INTS = [
    0,
    1,
    2,
    0x7F,
    0x80,
    0xFF,
    0x7FFF,
    0xFFFF,
    0x7FFFFFFF,
    0x80000000,
    0xFFFFFFFF,
    2**63 - 1,
    2**64 - 1,
    12346,
    12347,
]


def mutate(rng: random.Random, data: bytes, pool: list[bytes] = ()) -> bytes:
    """1-4 generic mutations of `data`; `pool` holds other seeds to splice from."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        out = _once(rng, out, pool)
    return bytes(out)


def _once(rng: random.Random, b: bytearray, pool: list[bytes]) -> bytearray:
    op = rng.randrange(10)
    n = len(b)
    if n == 0:
        return bytearray(rng.randbytes(rng.randint(1, 16)))
    at = rng.randrange(n)
    if op == 0:
        b[at] ^= 1 << rng.randrange(8)
    elif op == 1:
        b[at] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
    elif op == 2:
        size = rng.choice((2, 4, 8))
        value = rng.choice(BOUNDARY_INTS) % (1 << (8 * size))
        b[at : at + size] = value.to_bytes(size, rng.choice(("little", "big")))
    elif op == 3:
        del b[rng.randrange(n + 1) :]
    elif op == 4:
        b[at:at] = rng.randbytes(rng.choice((1, 4, 16, 300)))
    elif op == 5:
        del b[at : at + rng.choice((1, 4, 16, 300))]
    elif op == 6:
        end = min(n, at + rng.choice((4, 16, 64)))
        b[at:at] = b[at:end]
    elif op == 7 and pool:
        other = rng.choice(pool)
        if other:
            start = rng.randrange(len(other))
            b[at : at + rng.randint(1, 64)] = other[start : start + rng.randint(1, 64)]
    elif op == 8:  # an Avro varint (zig-zag) of a boundary value: block counts and sizes
        b[at : at + rng.randint(1, 3)] = zigzag(rng.choice([-1, -(2**31), 2**31, 2**40, 2**62, 0, 1, 10**6]))
    else:
        b[at] = (b[at] + rng.choice((1, -1))) % 256
    return b


def zigzag(v: int) -> bytes:
    """Avro's long encoding."""
    z = (v << 1) ^ (v >> 63)
    z &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = z & 0x7F
        z >>= 7
        if z:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


# --- deletion vector blobs -------------------------------------------------------------------------


def mutate_dv(rng: random.Random, blob: bytes) -> bytes:
    """A DV blob mutated inside its vector (bitmap count, keys, cookies, container counts) with
    the length and CRC fixed up afterwards, so that the reader gets past them; sometimes not."""
    if len(blob) < 20:
        return mutate(rng, blob)
    vector = bytearray(blob[8:-4])
    op = rng.randrange(6)
    if op == 0:  # the bitmap count
        vector[0:8] = struct.pack("<Q", rng.choice([0, 1, 2, 2**32, 2**63, 2**64 - 1, 10**6]))
    elif op == 1 and len(vector) >= 12:  # the first key
        vector[8:12] = struct.pack("<I", rng.choice([0, 1, 2**31 - 1, 2**31, 2**32 - 1]))
    elif op == 2 and len(vector) >= 16:  # the cookie of the first bitmap
        vector[12:16] = struct.pack("<I", rng.choice([12346, 12347, 12347 | (0xFFFF << 16), 0, 2**32 - 1]))
    elif op == 3 and len(vector) >= 20:  # a container count / cardinality
        vector[16:20] = struct.pack("<I", rng.choice([0, 1, 4096, 65536, 65537, 2**32 - 1]))
    else:
        vector = bytearray(mutate(rng, bytes(vector)))
    body = blob[4:8] + bytes(vector)
    if rng.random() < 0.85:
        return struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))
    return blob[:4] + body + blob[-4:]


# --- Puffin files ---------------------------------------------------------------------------------


def mutate_puffin(rng: random.Random, data: bytes, mutate_footer_json) -> bytes:
    """A Puffin file with its footer (payload size, flags, magics, the FileMetadata JSON), one of
    its blobs, or its bytes mutated; `mutate_footer_json(rng, obj)` mutates the footer's JSON."""
    if len(data) < 20 or data[-4:] != b"PFA1":
        return mutate(rng, data)
    (size,) = struct.unpack_from("<i", data, len(data) - 12)
    start = len(data) - 12 - size
    footer_ok = 8 <= start <= len(data) - 12 and data[start - 4 : start] == b"PFA1"
    op = rng.randrange(6)
    if op == 0 or not footer_ok:
        return mutate(rng, data)
    payload = data[start : len(data) - 12]
    head = data[: start - 4]
    if op == 1:  # the payload size
        value = rng.choice([-1, -(2**31), 2**31 - 1, size + 1, size - 1, 0, len(data)])
        return data[:-12] + struct.pack("<i", value) + data[-8:]
    if op == 2:  # the flags
        return data[:-8] + struct.pack("<I", rng.choice([1, 2, 0x100, 0x80000000, 0xFFFFFFFF])) + data[-4:]
    if op == 3:  # the footer JSON, re-framed with a consistent size
        try:
            obj = json.loads(payload)
        except ValueError:
            return mutate(rng, data)
        new = json.dumps(mutate_footer_json(rng, obj)).encode()
        return head + b"PFA1" + new + struct.pack("<i", len(new)) + data[-8:]
    if op == 4:  # a blob's bytes (a DV blob inside, lengths fixed up)
        try:
            blobs = json.loads(payload)["blobs"]
            b = rng.choice(blobs)
            lo, hi = int(b["offset"]), int(b["offset"]) + int(b["length"])
        except Exception:
            return mutate(rng, data)
        blob = mutate_dv(rng, data[lo:hi])
        return (
            data[:lo] + blob + data[hi:]
            if len(blob) == hi - lo
            else data[:lo] + blob[: hi - lo].ljust(hi - lo, b"\0") + data[hi:]
        )
    return (
        head[: rng.randrange(4, max(5, len(head) + 1))] + b"PFA1" + payload + data[-12:]
    )  # blobs truncated, footer intact
