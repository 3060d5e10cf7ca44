"""Build (and cache) the Iceberg Java value engine.

    python -m conformance.engines.iceberg_java.build [--check] [--force]

Inputs all come from the current Python environment:

* ``iceberg-spark-runtime-3.5_2.12-<v>.jar`` from the snowpark-connect-deps-iceberg
  distribution (Iceberg's Java classes);
* the Jackson jars (core, databind, annotations, datatype-jsr310) and
  slf4j-api from pyspark's ``jars/`` directory, and its ``hadoop-client-api`` and
  ``hadoop-client-runtime`` (at run time, for Iceberg's Parquet writer).

The Iceberg jar refers to Jackson under ``org.apache.iceberg.shaded.`` but does
not contain it, so the Jackson jars are relocated into that prefix (see
relocate.py).  The engine sources (every ``*.java`` file under this directory:
the main class and ``org/apache/iceberg/ManifestTreeReader.java``) are compiled
with ``javac`` against both.

Everything is written to ``<cache>/<key>/`` where the cache root defaults to
``~/.cache/iceberg-conformance/iceberg-java`` (override with the environment
variable ``ICEBERG_CONFORMANCE_CACHE``) and the key hashes the input jars, the
Java sources and the relocation code.  A build happens in a temporary sibling
directory that is renamed into place only after it has been verified, so an
interrupted build never leaves a half-written cache entry.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from . import relocate

HERE = Path(__file__).resolve().parent
MAIN_CLASS = "IcebergValueEngine"
CACHE_ENV = "ICEBERG_CONFORMANCE_CACHE"
DEFAULT_CACHE = Path("~/.cache/iceberg-conformance/iceberg-java")
# Bump when the layout or the build steps change in a way the key cannot see.
BUILD_FORMAT = 1
JAVA_RELEASE = "11"
JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
MANIFEST = "build.json"
RELOCATED_JAR = "jackson-relocated-for-iceberg.jar"
CLASSES_DIR = "classes"

ICEBERG_DIST = "snowpark-connect-deps-iceberg"
ICEBERG_PACKAGE = "snowpark_connect_deps_iceberg"
ICEBERG_JAR_PATTERNS = [
    r"iceberg-spark-runtime-3\.5_2\.12-(?P<v>[\d.]+)\.jar",
    r"iceberg-spark-runtime-3\.5_2\.13-(?P<v>[\d.]+)\.jar",
]
PYSPARK_DIST = "pyspark"
JACKSON_JARS = ["jackson-core", "jackson-databind", "jackson-annotations", "jackson-datatype-jsr310"]
SLF4J_JAR = "slf4j-api"
# Iceberg's Parquet writer (column-metrics) builds a Hadoop Configuration; the runtime jar shades
# Parquet but not Hadoop, which pyspark ships as these two jars (run time only).
HADOOP_JARS = ["hadoop-client-api", "hadoop-client-runtime"]
SHADED_JACKSON = "org/apache/iceberg/shaded/com/fasterxml/jackson/"

Log = Callable[[str], None]


class BuildError(RuntimeError):
    """The engine cannot be built; the message says why and what to do."""


def _stderr_log(message: str) -> None:
    print(f"[iceberg-java] {message}", file=sys.stderr, flush=True)


def _stdout_log(message: str) -> None:
    print(f"[iceberg-java] {message}", flush=True)


# ------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class Inputs:
    iceberg_jar: Path
    iceberg_version: str
    jackson_jars: tuple[Path, ...]
    slf4j_jar: Path
    hadoop_jars: tuple[Path, ...] = ()


def _dist_files(dist_name: str) -> list[Path]:
    """Absolute paths of the files a distribution installed (from its RECORD)."""
    try:
        dist = importlib.metadata.distribution(dist_name)
    except importlib.metadata.PackageNotFoundError:
        return []
    return [Path(dist.locate_file(f)).resolve() for f in (dist.files or [])]


def _package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).resolve()


def _candidate_jars(dist_name: str, package: str) -> list[Path]:
    jars = [p for p in _dist_files(dist_name) if p.suffix == ".jar"]
    if not jars:  # no RECORD: fall back to the package's directory
        pkg = _package_dir(package)
        if pkg is not None:
            jars = sorted(pkg.rglob("*.jar"))
    return [p for p in jars if p.is_file()]


def locate_inputs() -> Inputs:
    """Find the input jars in the current Python environment."""
    iceberg_candidates = _candidate_jars(ICEBERG_DIST, ICEBERG_PACKAGE)
    if not iceberg_candidates:
        raise BuildError(
            f"The Python package {ICEBERG_DIST!r} is not installed in this environment "
            f"({sys.executable}); it provides Iceberg's Java runtime jar. "
            f"Install it with: {sys.executable} -m pip install {ICEBERG_DIST}"
        )
    iceberg_jar = version = None
    for pattern in ICEBERG_JAR_PATTERNS:
        for path in iceberg_candidates:
            m = re.fullmatch(pattern, path.name)
            if m:
                iceberg_jar, version = path, m.group("v")
                break
        if iceberg_jar:
            break
    if iceberg_jar is None:
        names = ", ".join(sorted(p.name for p in iceberg_candidates))
        raise BuildError(f"No iceberg-spark-runtime-3.5 jar in {ICEBERG_DIST} (found: {names})")

    spark_jars = _candidate_jars(PYSPARK_DIST, "pyspark")
    if not spark_jars:
        raise BuildError(
            f"The Python package 'pyspark' is not installed in this environment ({sys.executable}); "
            "its jars/ directory provides the Jackson jars Iceberg needs. "
            f"Install it with: {sys.executable} -m pip install pyspark"
        )

    def pick(artifact: str) -> Path:
        found = sorted(p for p in spark_jars if re.fullmatch(re.escape(artifact) + r"-\d[\w.\-]*\.jar", p.name))
        if not found:
            raise BuildError(f"pyspark does not ship {artifact}-<version>.jar (looked in its jars/)")
        return found[-1]

    return Inputs(
        iceberg_jar=iceberg_jar,
        iceberg_version=version,
        jackson_jars=tuple(pick(a) for a in JACKSON_JARS),
        slf4j_jar=pick(SLF4J_JAR),
        hadoop_jars=tuple(pick(a) for a in HADOOP_JARS),
    )


def _java_tool(name: str) -> str:
    """Path of ``java``/``javac``: from JAVA_HOME if set, else from PATH."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    raise BuildError(
        f"'{name}' was not found (JAVA_HOME={java_home or 'unset'}, and not on PATH). "
        "The Iceberg Java engine needs a JDK 11 or newer, e.g. "
        "'apt-get install openjdk-17-jdk-headless', or set JAVA_HOME to a JDK."
    )


def java_sources() -> list[Path]:
    """The engine's Java sources: IcebergValueEngine.java and the classes under org/."""
    return sorted(HERE.rglob("*.java"))


# --------------------------------------------------------------- cache key


HASH_MEMO = ".input-hashes.json"


def _sha256_file(path: Path, memo: dict[str, str] | None = None) -> str:
    """SHA-256 of a file; ``memo`` maps "path|size|mtime" to known digests so
    that an unchanged 40 MB jar is not re-read on every call."""
    st = path.stat()
    stamp = f"{path}|{st.st_size}|{st.st_mtime_ns}"
    if memo is not None and stamp in memo:
        return memo[stamp]
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    if memo is not None:
        memo[stamp] = digest.hexdigest()
    return digest.hexdigest()


def _load_memo(root: Path) -> dict[str, str]:
    try:
        memo = json.loads((root / HASH_MEMO).read_text())
        return memo if isinstance(memo, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_memo(root: Path, memo: dict[str, str]) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".memo-", dir=root)
        with os.fdopen(fd, "w") as f:
            json.dump(memo, f, indent=1, sort_keys=True)
        os.replace(tmp, root / HASH_MEMO)
    except OSError:
        pass  # the memo is only an optimisation


def cache_root() -> Path:
    configured = os.environ.get(CACHE_ENV)
    return Path(configured).expanduser() if configured else DEFAULT_CACHE.expanduser()


def build_key(inputs: Inputs, root: Path | None = None) -> tuple[str, dict[str, Any]]:
    """Hash everything that determines the build output."""
    memo = _load_memo(root) if root is not None else None
    before = dict(memo) if memo is not None else None

    def jar(path: Path) -> dict[str, str]:
        return {"name": path.name, "sha256": _sha256_file(path, memo)}

    description: dict[str, Any] = {
        "format": BUILD_FORMAT,
        "java-release": JAVA_RELEASE,
        "iceberg-jar": jar(inputs.iceberg_jar),
        "jackson-jars": [jar(p) for p in inputs.jackson_jars],
        "slf4j-jar": jar(inputs.slf4j_jar),
        "hadoop-jars": [jar(p) for p in inputs.hadoop_jars],
        # Each source by its path, so adding, renaming or editing one changes the key.
        "java-sources-sha256": {
            str(p.relative_to(HERE)): hashlib.sha256(p.read_bytes()).hexdigest() for p in java_sources()
        },
        "relocate-sha256": hashlib.sha256(Path(relocate.__file__).read_bytes()).hexdigest(),
    }
    if root is not None and memo is not None and memo != before:
        _save_memo(root, memo)
    blob = json.dumps(description, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:20], description


# ------------------------------------------------------------------ build


@dataclass(frozen=True)
class Build:
    directory: Path
    inputs: Inputs
    java: str

    @property
    def classpath(self) -> str:
        parts = [
            self.directory / CLASSES_DIR,
            self.inputs.iceberg_jar,
            self.directory / RELOCATED_JAR,
            self.inputs.slf4j_jar,
            *self.inputs.hadoop_jars,
        ]
        return os.pathsep.join(str(p) for p in parts)

    def command(self) -> list[str]:
        return [self.java, *JVM_OPTIONS, "-cp", self.classpath, MAIN_CLASS]


def _is_valid(directory: Path, key: str) -> bool:
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    return (
        manifest.get("key") == key
        and (directory / RELOCATED_JAR).is_file()
        and (directory / CLASSES_DIR / f"{MAIN_CLASS}.class").is_file()
    )


def _check_relocation(inputs: Inputs, relocated_jar: Path) -> int:
    """Every shaded Jackson class the Iceberg jar refers to must now exist."""
    with zipfile.ZipFile(relocated_jar) as zf:
        provided = {n[: -len(".class")] for n in zf.namelist() if n.endswith(".class")}
    referenced: set[str] = set()
    with zipfile.ZipFile(inputs.iceberg_jar) as zf:
        for info in zf.infolist():
            name = info.filename
            if name.endswith(".class") and not name.startswith(SHADED_JACKSON):
                data = zf.read(info)
                if SHADED_JACKSON.encode() in data:
                    referenced |= relocate.referenced_classes(data, SHADED_JACKSON)
    missing = sorted(referenced - provided)
    if missing:
        shown = ", ".join(m.replace("/", ".") for m in missing[:10])
        raise BuildError(f"{len(missing)} Jackson classes the Iceberg jar needs are missing after relocation: {shown}")
    return len(referenced)


def _compile(javac: str, inputs: Inputs, workdir: Path, log: Log) -> None:
    classes = workdir / CLASSES_DIR
    classes.mkdir()
    classpath = os.pathsep.join(str(p) for p in (inputs.iceberg_jar, workdir / RELOCATED_JAR, inputs.slf4j_jar))
    sources = java_sources()
    cmd = [
        javac,
        "--release",
        JAVA_RELEASE,
        "-encoding",
        "UTF-8",
        "-nowarn",
        "-cp",
        classpath,
        "-d",
        str(classes),
        *map(str, sources),
    ]
    names = ", ".join(str(p.relative_to(HERE)) for p in sources)
    log(f"compiling {names} with {javac} (--release {JAVA_RELEASE})")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"javac failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")


def _verify(build: Build, log: Log) -> str:
    """Start the freshly built engine and exercise SingleValueParser/JsonUtil."""
    from conformance.engines.protocol import EngineProcess

    with EngineProcess(build.command()) as engine:
        hello = engine.hello
        if hello.get("engine") != "iceberg-java" or hello.get("protocol") != 1:
            raise BuildError(f"unexpected start response: {hello}")
        results = engine.run(
            [
                {"id": "json", "op": "from-json", "type": "decimal(9,2)", "json": "14.20"},
                {"id": "hash", "op": "hash", "type": "string", "value": "iceberg"},
                {"id": "text", "op": "to-json", "type": "date", "value": "2017-11-16"},
            ]
        )
    expected = [("json", "14.20"), ("hash", 1210000089), ("text", "2017-11-16")]
    for result, (case_id, output) in zip(results, expected):
        if result.get("id") != case_id or not result.get("ok") or result.get("output") != output:
            raise BuildError(f"engine self-test failed: {result}")
    log(f"verified: engine starts and runs Iceberg {hello.get('version')} code")
    return hello.get("version", "")


def ensure_built(force: bool = False, log: Log = _stderr_log) -> Build:
    """Return a valid build, building it first if the cache has none."""
    inputs = locate_inputs()
    java = _java_tool("java")
    root = cache_root()
    key, description = build_key(inputs, root)
    target = root / key
    if not force and _is_valid(target, key):
        return Build(target, inputs, java)

    javac = _java_tool("javac")
    started = time.monotonic()
    log(f"building the Iceberg {inputs.iceberg_version} Java value engine into {target}")
    log(f"iceberg jar: {inputs.iceberg_jar}")
    root.mkdir(parents=True, exist_ok=True)
    _remove_stale_work(root)
    workdir = Path(tempfile.mkdtemp(prefix=f".tmp-{key}-", dir=root))
    try:
        log("relocating Jackson: " + ", ".join(p.name for p in inputs.jackson_jars))
        report = relocate.relocate_jars(
            [str(p) for p in inputs.jackson_jars],
            str(workdir / RELOCATED_JAR),
            [relocate.JACKSON_TO_ICEBERG],
        )
        log(f"relocated {report.classes} classes and {report.services} service files")
        count = _check_relocation(inputs, workdir / RELOCATED_JAR)
        log(f"all {count} shaded Jackson classes referenced by the Iceberg jar are present")
        _compile(javac, inputs, workdir, log)
        version = _verify(Build(workdir, inputs, java), log)
        manifest = {
            "key": key,
            "iceberg-version": version,
            "inputs": description,
            "built-with": javac,
            "built-at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        (workdir / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        _install(workdir, target, replace=force)
    finally:
        if workdir.exists():
            shutil.rmtree(workdir, ignore_errors=True)
    log(f"built in {time.monotonic() - started:.1f}s")
    return Build(target, inputs, java)


def _install(workdir: Path, target: Path, replace: bool) -> None:
    """Atomically move a finished build into place.

    ``os.rename`` of a directory is atomic, so readers see either no entry or
    a complete one.  Without ``replace`` a valid entry that another process
    installed meanwhile is kept (it may already be in use)."""
    old = None
    if target.exists():
        if not replace and _is_valid(target, target.name):
            return
        old = target.with_name(f".old-{target.name}-{os.getpid()}")
        os.rename(target, old)
    try:
        os.rename(workdir, target)
    except OSError:
        # Another process installed the same key meanwhile: keep theirs.
        if not _is_valid(target, target.name):
            raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _remove_stale_work(root: Path, max_age: float = 3600.0) -> None:
    """Delete leftovers of interrupted builds (they never count as cache entries)."""
    now = time.time()
    for path in root.glob(".tmp-*"):
        try:
            if path.is_dir() and now - path.stat().st_mtime > max_age:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass
    for path in root.glob(".old-*"):
        shutil.rmtree(path, ignore_errors=True)


def engine_command(force: bool = False, log: Log = _stderr_log) -> list[str]:
    """The argv that starts the engine (``java ... IcebergValueEngine``),
    building it first if the cache has no valid build."""
    return ensure_built(force=force, log=log).command()


# ------------------------------------------------------------------ check


def run_check(build: Build, log: Log = _stdout_log) -> int:
    """Smoke test through the protocol: the Appendix B hash vectors (adopted v3 revision, as
    Iceberg 1.10 implements it, boolean excluded: Java has no boolean hash); returns the number
    of failures. The full comparison is `pytest conformance/ --engine iceberg-java`."""
    from conformance.engines.protocol import EngineProcess, ProtocolError
    from conformance.vectors import load_families

    vectors = [
        c
        for c in load_families()["hash"]
        if "/appendix-b-" in c["id"] and "v3-adopted" in c["revisions"] and c["input"]["type"] != "boolean"
    ]
    cases = [{"id": c["id"], "op": "hash", **c["input"]} for c in vectors]
    started = time.monotonic()
    try:
        with EngineProcess(build.command()) as engine:
            log(
                f"engine {engine.hello.get('engine')} {engine.hello.get('version')} "
                f"started in {time.monotonic() - started:.2f}s"
            )
            results = engine.run(cases)
    except ProtocolError as e:
        raise BuildError(str(e)) from None
    failures = 0
    for vector, result in zip(vectors, results):
        if not result.get("ok") or result.get("output") != vector["expected"]["output"]:
            failures += 1
            log(f"MISMATCH {vector['id']}: expected {vector['expected']}, got {result}")
    log(
        f"{len(cases) - failures}/{len(cases)} Appendix B hashes match"
        if not failures
        else f"{failures} of {len(cases)} checks FAILED"
    )
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.engines.iceberg_java.build",
        description="Build (and cache) the Iceberg Java value engine.",
    )
    parser.add_argument("--check", action="store_true", help="run a smoke test (the spec's Appendix B hash values)")
    parser.add_argument("--force", action="store_true", help="rebuild even if the cache is valid")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        build = ensure_built(force=args.force, log=_stdout_log)
    except BuildError as e:
        print(f"[iceberg-java] error: {e}", file=sys.stderr)
        return 2
    _stdout_log(f"engine ready in {build.directory} ({time.monotonic() - started:.2f}s)")
    _stdout_log("command: " + " ".join(build.command()))
    if args.check:
        try:
            failures = run_check(build)
        except BuildError as e:
            print(f"[iceberg-java] error: {e}", file=sys.stderr)
            return 2
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
