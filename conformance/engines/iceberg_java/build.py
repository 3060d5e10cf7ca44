"""Build (and cache) the Iceberg Java value engine.

    python -m conformance.engines.iceberg_java.build [--check] [--force] [--version 1.9.2]

Its inputs come from Maven Central, the way Iceberg's users get them: `pom.xml` beside this file
names them and `mvn dependency:copy-dependencies -Diceberg.version=<release>` fetches them into
``<cache>/maven/<release>/`` (Maven's own repository, ``~/.m2``, keeps the downloads):

* ``org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:<release>``: Iceberg's classes, with
  Jackson, Guava, Avro and Parquet shaded inside;
* ``org.slf4j:slf4j-api`` and ``org.apache.hadoop:hadoop-client-api`` / ``hadoop-client-runtime``
  (at run time, for Iceberg's Parquet writer of `column-metrics`).

The release is a parameter: ``ICEBERG_JAVA_VERSION`` (or ``--version``), by default the newest of
`RELEASES`, the release matrix of `make conformance-matrix`. An artifact Maven cannot fetch fails
the build with Maven's own message, which names it.

The engine sources (every ``*.java`` file under this directory: the main class and the classes
under ``org/apache/iceberg/``) are compiled with ``javac`` against those jars, into
``<cache>/<key>/`` where the cache root defaults to ``~/.cache/iceberg-conformance/iceberg-java``
(override with ``ICEBERG_CONFORMANCE_CACHE``) and the key hashes the input jars and the Java
sources. A build happens in a temporary sibling directory that is renamed into place only after it
has been verified, so an interrupted build never leaves a half-written cache entry.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable


HERE = Path(__file__).resolve().parent
MAIN_CLASS = "IcebergValueEngine"
CACHE_ENV = "ICEBERG_CONFORMANCE_CACHE"
DEFAULT_CACHE = Path("~/.cache/iceberg-conformance/iceberg-java")
# Bump when the layout or the build steps change in a way the key cannot see.
BUILD_FORMAT = 1
JAVA_RELEASE = "11"
JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
MANIFEST = "build.json"
CLASSES_DIR = "classes"

POM = HERE / "pom.xml"
# The release matrix (`make conformance-matrix`), oldest first; CI judges the newest. The 1.7 line is
# 1.7.1: Maven Central as served here has no iceberg-spark-runtime-3.5_2.12 jar of 1.7.2.
RELEASES = ("1.7.1", "1.8.1", "1.9.2", "1.10.2", "1.11.0", "1.12.0")
VERSION_ENV = "ICEBERG_JAVA_VERSION"
RUNTIME_JAR = r"iceberg-spark-runtime-3\.5_2\.12-(?P<v>[\d.]+)\.jar"
SLF4J_JAR = "slf4j-api"
HADOOP_JARS = ["hadoop-client-api", "hadoop-client-runtime"]
MAVEN_DONE = ".resolved"

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
    slf4j_jar: Path
    hadoop_jars: tuple[Path, ...] = ()


def release() -> str:
    """The Iceberg release to build: ``ICEBERG_JAVA_VERSION``, else the newest of the matrix."""
    return os.environ.get(VERSION_ENV) or RELEASES[-1]


def _maven_dir(version: str) -> Path:
    return cache_root() / "maven" / version


def _resolve(version: str, log: Log) -> Path:
    """The release's jars, copied out of Maven's repository by `mvn dependency:copy-dependencies`."""
    out = _maven_dir(version)
    if (out / MAVEN_DONE).is_file():
        return out
    log(f"fetching Iceberg {version}'s jars from Maven Central ({POM.name}) into {out}")
    out.mkdir(parents=True, exist_ok=True)
    _maven(
        ["-f", str(POM), "dependency:copy-dependencies", f"-Diceberg.version={version}", "-DexcludeTransitive=true"],
        out,
        f"Iceberg {version}'s jars",
    )
    (out / MAVEN_DONE).write_text(version + "\n")
    return out


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _maven(goal: list[str], out: Path, what: str) -> None:
    """Run one Maven goal that copies artifacts into `out`; a failure is a BuildError with Maven's
    own lines, which name the artifact it could not fetch."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise BuildError(f"'mvn' was not found: Maven fetches {what} from Maven Central (apt-get install maven)")
    proc = subprocess.run([mvn, "-q", "-B", *goal, f"-DoutputDirectory={out}"], capture_output=True, text=True, cwd=out)
    if proc.returncode != 0:
        said = _ANSI.sub("", proc.stdout + proc.stderr)
        lines = [line for line in said.splitlines() if "ERROR" in line or "Could not" in line]
        shown = "\n".join(lines[:5]) or said[-2000:]
        raise BuildError(f"Maven could not fetch {what} (exit {proc.returncode}): {shown}")


def maven_artifact(coordinate: str, log: Log = _stderr_log) -> Path:
    """One jar (`group:artifact:version`) from Maven Central, copied into `<cache>/maven/jars/`."""
    group, artifact, version = coordinate.split(":")
    out = cache_root() / "maven" / "jars"
    jar = out / f"{artifact}-{version}.jar"
    if jar.is_file():
        return jar
    log(f"fetching {coordinate} from Maven Central into {out}")
    out.mkdir(parents=True, exist_ok=True)
    _maven(["dependency:copy", f"-Dartifact={coordinate}"], out, coordinate)
    if not jar.is_file():
        raise BuildError(f"Maven copied no {jar.name} into {out}")
    return jar


def locate_inputs(version: str | None = None, log: Log | None = None) -> Inputs:
    """The input jars of a release (fetched from Maven Central the first time)."""
    version = version or release()
    jars = sorted(_resolve(version, log or _stderr_log).glob("*.jar"))

    def pick(artifact: str) -> Path:
        found = [p for p in jars if re.fullmatch(re.escape(artifact) + r"-\d[\w.\-]*\.jar", p.name)]
        if not found:
            raise BuildError(f"{artifact}-<version>.jar is not among the jars Maven fetched ({_maven_dir(version)})")
        return found[-1]

    runtime = [p for p in jars if re.fullmatch(RUNTIME_JAR, p.name)]
    if not runtime:
        raise BuildError(f"no iceberg-spark-runtime-3.5_2.12 jar among the jars Maven fetched ({_maven_dir(version)})")
    return Inputs(
        iceberg_jar=runtime[0],
        iceberg_version=version,
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
        "slf4j-jar": jar(inputs.slf4j_jar),
        "hadoop-jars": [jar(p) for p in inputs.hadoop_jars],
        # Each source by its path, so adding, renaming or editing one changes the key.
        "java-sources-sha256": {
            str(p.relative_to(HERE)): hashlib.sha256(p.read_bytes()).hexdigest() for p in java_sources()
        },
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
    return manifest.get("key") == key and (directory / CLASSES_DIR / f"{MAIN_CLASS}.class").is_file()


def _compile(javac: str, inputs: Inputs, workdir: Path, log: Log) -> None:
    classes = workdir / CLASSES_DIR
    classes.mkdir()
    classpath = os.pathsep.join(str(p) for p in (inputs.iceberg_jar, inputs.slf4j_jar))
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
    inputs = locate_inputs(log=log)
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
    parser.add_argument("--version", help=f"the Iceberg release (default: ${VERSION_ENV}, else {RELEASES[-1]})")
    args = parser.parse_args(argv)
    if args.version:
        os.environ[VERSION_ENV] = args.version
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
