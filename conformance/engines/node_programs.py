"""The base of engines that are node programs of this repository and speak the line protocol
(PROTOCOL.md), under built-in names: no Python adapter, only where the program lies and what it
needs (`conformance/engines/icebird/` is one)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conformance.engines.base import EngineUnavailable
from conformance.engines.protocol import CommandEngine

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class NodeProgramEngine(CommandEngine):
    """A node program in `examples/<folder>/engine.mjs` whose npm packages must be installed first."""

    folder: str
    package: str  # an npm package the program imports, present once `npm ci` has run

    named = True

    def command(self) -> list[str]:
        return ["node", str(EXAMPLES / self.folder / "engine.mjs")]

    def start(self) -> None:
        directory = EXAMPLES / self.folder
        if shutil.which("node") is None:
            raise EngineUnavailable(
                f"{self.name}: node is not installed (Node.js 20 or newer runs {directory / 'engine.mjs'})"
            )
        if not (directory / "node_modules" / self.package).is_dir():
            raise EngineUnavailable(
                f"{self.name}: its npm packages are not installed: "
                f"npm ci --prefix {directory} --ignore-scripts --no-audit --no-fund"
            )
        super().start()
