"""Engines that are native programs of this repository, built from their own folder and lock file
and reached through the line protocol (PROTOCOL.md): `iceberg_go/` (a Go module pinning
iceberg-go) and `iceberg_rust/` (a Cargo project pinning the `iceberg` crate).

Each folder is self-contained: its program, its lock file (`go.sum`, `Cargo.lock`) and a README;
it shares nothing with the suite but the protocol. The build is cached outside the clone, in
`~/.cache/iceberg-conformance/native/<engine>/<key>/` (root: `ICEBERG_CONFORMANCE_NATIVE_CACHE`),
the key hashing the folder's files and the toolchain's version, so a second run does not rebuild.
A build happens in a temporary sibling directory renamed into place once it succeeded (when two
builds of one key race, the one that finishes second uses the first one's).

    python -m conformance.engines.native_programs [--engine NAME ...]   # build (or find) each

A missing toolchain makes the engine unavailable (with what to install); a build that fails, for
instance a module or crate the registry does not serve, fails loudly with the build's own words,
which name what was missing (`BuildFailed`).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from conformance.engines.base import EngineFailure, EngineUnavailable
from conformance.engines.protocol import CommandEngine

ENGINES_DIR = Path(__file__).resolve().parent
CACHE_ENV = "ICEBERG_CONFORMANCE_NATIVE_CACHE"
DEFAULT_CACHE = "~/.cache/iceberg-conformance/native"
BUILD_TIMEOUT = 1800  # seconds: a cold Rust build on two cores takes several minutes
SKIPPED = {"target", "README.md", ".gitignore"}  # not inputs of the build


class BuildFailed(EngineFailure):
    """The program could not be built: the message ends with the build's last lines of output."""

    def __init__(self, message: str):
        super().__init__(message, restart=False)


@dataclass(frozen=True)
class Recipe:
    """How one folder is built: the toolchain it needs, the command, and where the binary lands."""

    engine: str
    folder: str
    tool: str  # the executable the build needs on PATH
    version_command: tuple[str, ...]
    binary: str
    lock_file: str
    root: Path = ENGINES_DIR

    @property
    def directory(self) -> Path:
        return self.root / self.folder

    def command(self, out: Path, shared: Path) -> tuple[list[str], dict[str, str]]:
        """The build command writing the binary into `out` (`shared`: a cache kept across keys)."""
        env = dict(os.environ)
        if self.tool == "go":
            env["GOFLAGS"] = "-mod=readonly"  # go.sum is the lock: nothing is resolved anew
            return ["go", "build", "-trimpath", "-o", str(out / self.binary), "."], env
        env["CARGO_TARGET_DIR"] = str(shared / "target")
        return ["cargo", "build", "--release", "--locked", "--quiet"], env

    def built_binary(self, out: Path, shared: Path) -> Path:
        return out / self.binary if self.tool == "go" else shared / "target" / "release" / self.binary


RECIPES = {
    "iceberg-go": Recipe("iceberg-go", "iceberg_go", "go", ("go", "version"), "iceberg-go-engine", "go.sum"),
    "iceberg-rust": Recipe(
        "iceberg-rust", "iceberg_rust", "cargo", ("rustc", "--version"), "iceberg-rust-engine", "Cargo.lock"
    ),
}


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV, DEFAULT_CACHE)).expanduser()


def build_key(recipe: Recipe) -> str:
    """A hash of every input of the build: the folder's files (by path and content) and the
    toolchain's version."""
    digest = hashlib.sha256()
    for path in sorted(recipe.directory.rglob("*")):
        relative = path.relative_to(recipe.directory)
        if path.is_file() and relative.parts[0] not in SKIPPED and path.name != recipe.binary:
            digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(_toolchain_version(recipe).encode())
    return digest.hexdigest()[:16]


def _toolchain_version(recipe: Recipe) -> str:
    if shutil.which(recipe.tool) is None:
        raise EngineUnavailable(
            f"{recipe.engine}: {recipe.tool} is not installed (it builds {recipe.directory}, see its README.md)"
        )
    done = subprocess.run(recipe.version_command, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def build(recipe: Recipe, progress=print) -> Path:
    """The engine's binary, built unless the cache holds it for this key."""
    if not (recipe.directory / recipe.lock_file).is_file():
        raise BuildFailed(f"{recipe.engine}: {recipe.directory / recipe.lock_file} is missing: the build is not locked")
    root = cache_root() / recipe.engine
    key = build_key(recipe)
    final = root / key
    if (final / recipe.binary).is_file():
        return final / recipe.binary
    root.mkdir(parents=True, exist_ok=True)
    progress(f"building {recipe.engine} from {recipe.directory} ({recipe.lock_file} pins its library): cache key {key}")
    started = time.monotonic()
    out = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
    try:
        argv, env = recipe.command(out, root)
        try:
            done = subprocess.run(
                argv, cwd=recipe.directory, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            raise BuildFailed(f"{recipe.engine}: `{' '.join(argv)}` took more than {BUILD_TIMEOUT} s") from None
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
            raise BuildFailed(
                f"{recipe.engine}: `{' '.join(argv)}` in {recipe.directory} failed (exit {done.returncode}):\n{tail}"
            )
        binary = recipe.built_binary(out, root)
        if binary.parent != out:
            shutil.copy2(binary, out / recipe.binary)
        try:
            out.rename(final)
        except OSError:
            if not (final / recipe.binary).is_file():
                raise
            progress(f"{recipe.engine}: another build of the same key finished first; using it")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    progress(f"built {recipe.engine} in {time.monotonic() - started:.0f} s: {final / recipe.binary}")
    return final / recipe.binary


class NativeProgramEngine(CommandEngine):
    """A native program of `conformance/engines/<folder>/`, built (or found in the cache) when the
    engine starts."""

    named = True

    def command(self) -> list[str]:
        return [str(build(RECIPES[self.name], progress=lambda line: print(line, file=sys.stderr)))]


class IcebergGoEngine(NativeProgramEngine):
    """iceberg-go, the Go implementation, through `iceberg_go/` (its go.mod pins the release)."""

    name = "iceberg-go"


class IcebergRustEngine(NativeProgramEngine):
    """iceberg-rust's `iceberg` crate, through `iceberg_rust/` (its Cargo.lock pins the release)."""

    name = "iceberg-rust"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.engines.native_programs",
        description="Build the native engines (or find them in the cache) and print where each binary is.",
    )
    parser.add_argument("--engine", action="append", choices=sorted(RECIPES), help="only this engine (repeatable)")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.engine or sorted(RECIPES):
        try:
            print(f"{name}: {build(RECIPES[name])}")
        except EngineUnavailable as e:  # a toolchain missing: fatal in CI, which must judge every engine
            if os.environ.get("CI"):
                print(f"ERROR: {e}", file=sys.stderr)
                failed += 1
            else:
                print(f"{e}: the engine will be reported unavailable", file=sys.stderr)
        except EngineFailure as e:
            print(f"ERROR: {e}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
