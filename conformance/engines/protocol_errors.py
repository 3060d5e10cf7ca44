"""The error of the line protocol, apart from the client (`protocol`) and the schema check
(`protocol_schema`) that both raise it, so that neither imports the other."""

from __future__ import annotations

from conformance.engines.base import EngineFailure


class ProtocolError(EngineFailure):
    """The engine process broke the protocol, died or hung; the message carries its stderr."""
