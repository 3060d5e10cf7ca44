"""Relocate Java packages inside jar files, in pure Python.

The Iceberg runtime jar shipped with snowpark-connect-deps-iceberg refers to
Jackson under Iceberg's shading prefix
(``org/apache/iceberg/shaded/com/fasterxml/jackson/...``) but does not contain
those classes.  PySpark ships the plain Jackson jars.  This module rewrites the
plain jars so that they provide the classes under the shaded names:

* every ``.class`` file has its constant pool rewritten: each CONSTANT_Utf8
  entry gets ``com/fasterxml/jackson/`` replaced by the shaded slash form
  (this covers class names as well as descriptors and generic signatures such
  as ``Lcom/fasterxml/jackson/core/JsonParser;``) and ``com.fasterxml.jackson.``
  replaced by the shaded dotted form (string constants used for reflection);
* entries are moved to the relocated path (also below ``META-INF/versions/N/``
  of multi-release jars);
* ``META-INF/services/`` files are renamed and their contents relocated.

Only the constant pool is touched.  That is sufficient because every name a
class file mentions (classes, descriptors, signatures, annotation types,
string literals) is stored there as CONSTANT_Utf8; the rest of the file refers
to the pool by index, so growing an entry does not move anything that is
referenced by offset.  The replacement text is pure ASCII, and in the JVM's
"modified UTF-8" an ASCII byte never occurs inside a multi-byte sequence, so
a byte-level replacement is exact.
"""

from __future__ import annotations

import re
import struct
import zipfile
from dataclasses import dataclass, field
from collections.abc import Iterable

# Constant pool tags (JVMS 4.4) -> size of the entry body after the tag byte,
# for fixed-size entries.  CONSTANT_Utf8 (1) has a variable size.
_UTF8 = 1
_FIXED_SIZES = {
    3: 4,  # Integer
    4: 4,  # Float
    5: 8,  # Long (takes two pool slots)
    6: 8,  # Double (takes two pool slots)
    7: 2,  # Class
    8: 2,  # String
    9: 4,  # Fieldref
    10: 4,  # Methodref
    11: 4,  # InterfaceMethodref
    12: 4,  # NameAndType
    15: 3,  # MethodHandle
    16: 2,  # MethodType
    17: 4,  # Dynamic
    18: 4,  # InvokeDynamic
    19: 2,  # Module
    20: 2,  # Package
}
_CLASS_MAGIC = b"\xca\xfe\xba\xbe"

# A fixed timestamp makes the produced jar byte-for-byte reproducible.
_ZIP_DATE = (1980, 2, 1, 0, 0, 0)


class RelocationError(Exception):
    """A class file could not be parsed or rewritten."""


@dataclass(frozen=True)
class Relocation:
    """Move package ``source`` (dotted, e.g. ``com.fasterxml.jackson``) to
    ``target`` (e.g. ``org.apache.iceberg.shaded.com.fasterxml.jackson``)."""

    source: str
    target: str

    def __post_init__(self) -> None:
        for name in (self.source, self.target):
            if not re.fullmatch(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*", name):
                raise ValueError(f"not a Java package name: {name!r}")

    def _pattern(self, sep: str) -> re.Pattern[bytes]:
        src = (self.source.replace(".", sep) + sep).encode()
        tgt = (self.target.replace(".", sep) + sep).encode()
        # Never relocate twice: skip occurrences already under the target.
        guard = b""
        if tgt.endswith(src):
            guard = b"(?<!" + re.escape(tgt[: -len(src)]) + b")"
        return re.compile(guard + re.escape(src))

    def rules(self) -> list[tuple[re.Pattern[bytes], bytes]]:
        return [(self._pattern(sep), (self.target.replace(".", sep) + sep).encode()) for sep in ("/", ".")]


def _rewrite(data: bytes, rules: list[tuple[re.Pattern[bytes], bytes]]) -> bytes:
    for pattern, replacement in rules:
        data = pattern.sub(lambda _m, r=replacement: r, data)
    return data


def iter_utf8_constants(data: bytes) -> Iterable[tuple[int, int, bytes]]:
    """Yield ``(start, end, text)`` for every CONSTANT_Utf8 entry of a class
    file, where ``data[start:end]`` is the whole entry (tag, length, bytes)."""
    if data[:4] != _CLASS_MAGIC:
        raise RelocationError("not a class file (bad magic)")
    (count,) = struct.unpack_from(">H", data, 8)
    pos = 10
    index = 1
    while index < count:
        tag = data[pos]
        if tag == _UTF8:
            (length,) = struct.unpack_from(">H", data, pos + 1)
            end = pos + 3 + length
            yield pos, end, data[pos + 3 : end]
            pos = end
            index += 1
        elif tag in _FIXED_SIZES:
            pos += 1 + _FIXED_SIZES[tag]
            index += 2 if tag in (5, 6) else 1
        else:
            raise RelocationError(f"unknown constant pool tag {tag} at offset {pos}")
        if pos > len(data):
            raise RelocationError("truncated constant pool")


def relocate_class(data: bytes, relocations: list[Relocation]) -> bytes:
    """Return the class file ``data`` with its CONSTANT_Utf8 entries relocated."""
    rules = [rule for r in relocations for rule in r.rules()]
    out = []
    last = 0
    for start, end, text in iter_utf8_constants(data):
        new_text = _rewrite(text, rules)
        if new_text != text:
            if len(new_text) > 0xFFFF:
                raise RelocationError("relocated constant is longer than 65535 bytes")
            out.append(data[last:start])
            out.append(bytes([_UTF8]) + struct.pack(">H", len(new_text)) + new_text)
            last = end
    out.append(data[last:])
    return b"".join(out)


def relocate_path(name: str, relocations: list[Relocation]) -> str:
    """Relocate a jar entry name (class or resource path, or a services file)."""
    prefix = ""
    m = re.match(r"META-INF/versions/\d+/", name)
    if m:
        prefix, name = m.group(0), name[m.end() :]
    if name.startswith("META-INF/services/"):
        head, service = name[: len("META-INF/services/")], name[len("META-INF/services/") :]
        rules = [rule for r in relocations for rule in r.rules()]
        return prefix + head + _rewrite(service.encode(), rules).decode()
    for r in relocations:
        src = r.source.replace(".", "/") + "/"
        if name.startswith(src):
            return prefix + r.target.replace(".", "/") + "/" + name[len(src) :]
    return prefix + name


@dataclass
class RelocationReport:
    classes: int = 0
    services: int = 0
    skipped: list[str] = field(default_factory=list)


def relocate_jars(
    inputs: list[str],
    output: str,
    relocations: list[Relocation],
    manifest_extra: dict[str, str] | None = None,
) -> RelocationReport:
    """Merge ``inputs`` into one relocated jar at ``output``.

    Class files and services files are relocated; other resources are moved if
    they live under a relocated package.  Manifests, signatures, module
    descriptors and Maven metadata of the inputs are dropped (they describe the
    original, unrelocated artifacts); licence and notice files are kept under
    ``META-INF/<input jar name>/``.  A fresh manifest is written, marked
    ``Multi-Release`` when any input has versioned entries.
    """
    report = RelocationReport()
    entries: dict[str, bytes] = {}
    multi_release = False
    rules = [rule for r in relocations for rule in r.rules()]
    for jar_path in inputs:
        jar_name = re.sub(r"\.jar$", "", jar_path.replace("\\", "/").rsplit("/", 1)[-1])
        with zipfile.ZipFile(jar_path) as zf:
            for info in zf.infolist():
                name = info.filename
                if info.is_dir():
                    continue
                base = name.rsplit("/", 1)[-1]
                if name.startswith("META-INF/versions/"):
                    multi_release = True
                if base == "module-info.class" or name.upper() == "META-INF/MANIFEST.MF":
                    report.skipped.append(f"{jar_name}:{name}")
                    continue
                if name.startswith("META-INF/maven/") or re.fullmatch(r"META-INF/[^/]+\.(SF|RSA|DSA|EC)", name, re.I):
                    report.skipped.append(f"{jar_name}:{name}")
                    continue
                data = zf.read(info)
                if name.endswith(".class"):
                    data = relocate_class(data, relocations)
                    new_name = relocate_path(name, relocations)
                    report.classes += 1
                elif name.startswith("META-INF/services/"):
                    data = _rewrite(data, rules)
                    new_name = relocate_path(name, relocations)
                    report.services += 1
                elif name.startswith("META-INF/") and "/" not in name[len("META-INF/") :]:
                    new_name = f"META-INF/{jar_name}/{base}"
                else:
                    new_name = relocate_path(name, relocations)
                if new_name in entries and entries[new_name] != data:
                    if new_name.startswith("META-INF/services/"):
                        # Merge service registrations from several jars.
                        data = entries[new_name].rstrip(b"\n") + b"\n" + data
                    else:
                        raise RelocationError(f"conflicting entries for {new_name}")
                entries[new_name] = data

    manifest = ["Manifest-Version: 1.0", "Created-By: iceberg-conformance relocate.py"]
    if multi_release:
        manifest.append("Multi-Release: true")
    for key, value in (manifest_extra or {}).items():
        manifest.append(f"{key}: {value}")
    manifest_bytes = ("\r\n".join(manifest) + "\r\n\r\n").encode()

    with zipfile.ZipFile(output, "w", compression=zipfile.ZIP_DEFLATED) as out:
        out.writestr(zipfile.ZipInfo("META-INF/MANIFEST.MF", _ZIP_DATE), manifest_bytes)
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, entries[name])
    return report


JACKSON_TO_ICEBERG = Relocation("com.fasterxml.jackson", "org.apache.iceberg.shaded.com.fasterxml.jackson")


def referenced_classes(data: bytes, package_slash_prefix: str) -> set[str]:
    """Internal class names under ``package_slash_prefix`` mentioned anywhere
    in a class file's constant pool (class entries, descriptors, signatures)."""
    prefix = package_slash_prefix.encode()
    pattern = re.compile(re.escape(prefix) + rb"[\w/$]*[\w$]")
    found: set[str] = set()
    for _s, _e, text in iter_utf8_constants(data):
        if prefix in text:
            for m in pattern.finditer(text):
                found.add(m.group(0).decode())
    return found
