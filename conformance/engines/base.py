"""The engine adapter interface: what the conformance suite asks of an implementation.

An adapter is a small class with a name, a version, the spec revision it claims, and the
capabilities (vector ops) it supports. The suite hands it whole batches of cases; it answers each
with an `EngineAnswer`: an output, or the error the engine raised. Judging the answers against the
expectations is the suite's job (`conformance.judge`), not the adapter's.

To add an engine without editing the project, subclass `Engine` and pass
`--engine package.module:Class` to pytest.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, ClassVar

from spec_impl import revisions


@dataclass(frozen=True)
class EngineAnswer:
    """What an engine said about one case: `output` when `ok`, else the `error` message it raised."""

    ok: bool
    output: Any = None
    error: str | None = None


class EngineUnavailable(RuntimeError):
    """The engine cannot run here (a package, a JVM, a build step is missing); the message says why."""


class Engine(abc.ABC):
    """Base class of engine adapters.

    Subclasses set `name` and `capabilities` (the vector ops they answer, see
    `spec_impl.vectors.ops`), implement `run_batch`, and may override `start`/`stop` to manage
    a process. `revision` is the spec revision the engine claims to follow; cases of other
    revisions are not run against it.
    """

    name: ClassVar[str]
    capabilities: ClassVar[frozenset[str]] = frozenset()
    revision: ClassVar[str] = revisions.V3_ADOPTED

    def start(self) -> None:
        """Acquire resources (raise EngineUnavailable with the reason when the engine cannot run)."""

    def stop(self) -> None:
        """Release resources."""

    @property
    def version(self) -> str:
        return "unknown"

    def unsupported(self, op: str, inp: dict[str, Any]) -> str | None:
        """Why this engine cannot answer a case, or None when it can.

        By default an engine answers every case of the ops in `capabilities`; override to narrow
        an op (say, only some transforms). Cases it cannot answer are reported as skipped with
        this reason, never judged.
        """
        if op not in self.capabilities:
            return f"{self.name} lacks the capability {op!r}"
        return None

    def validates(self, op: str) -> bool:
        """Whether the engine's answers to this op reject invalid inputs. A partial reader (see
        `partial_view`) does not validate what it does not read; its rejection cases are skipped."""
        return True

    def partial_view(self, op: str, output: Any) -> Any:
        """The part of an expected output this engine reports, compared instead of the whole.

        The identity: engines answer in full. An engine that can read only part of a document
        (DuckDB reads the snapshots of a metadata file, nothing else) overrides it, and says so.
        """
        return output

    @abc.abstractmethod
    def run_batch(self, op: str, cases: list[dict[str, Any]]) -> list[EngineAnswer]:
        """Answer every case (each has `id` and `input`) of one op, in order, in one round trip."""
