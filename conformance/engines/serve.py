"""Any engine of the registry as a line-protocol program (PROTOCOL.md, version 2), so that the
same engine can be judged in-process and through the protocol, and the protocol's own cost
measured between the two (`benchmarks/bench_engines.py`).

    python -m conformance.engines.serve reference
    pytest conformance/ --engine 'cmd:reference-served=python -m conformance.engines.serve reference'

The hello carries the engine's name with `-served` appended, so that both can be judged in one run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from conformance.engines import registry
from conformance.engines.base import EngineAnswer

CASE_KEYS = ("id", "op")
ADDED_TO_TABLE_READS = ("metadata-location", "table-location")  # the client writes the table: not input


def result(case_id: str, answer: EngineAnswer) -> dict[str, Any]:
    """An answer in the protocol's version 2 form."""
    if answer.unsupported is not None:
        return {"id": case_id, "status": "unsupported", "reason": answer.unsupported}
    if answer.ok:
        return {"id": case_id, "status": "ok", "output": answer.output}
    if answer.failed:
        return {"id": case_id, "status": "error", "error": answer.error or "failed"}
    out = {"id": case_id, "status": "rejected", "error": answer.error or "rejected"}
    return {**out, "rule": answer.rule} if answer.rule else out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.engines.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help="a built-in engine name or package.module:Class")
    args = parser.parse_args(argv)
    engine = registry.load(args.engine)()
    out, sys.stdout = sys.stdout, sys.stderr  # nothing but protocol messages on stdout
    engine.start()
    try:
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("cmd") == "start":
                reply: dict[str, Any] = {
                    "engine": f"{engine.name}-served",
                    "version": str(engine.version),
                    "protocol": 2,
                    "capabilities": sorted(engine.capabilities),
                }
            elif request.get("cmd") == "run":
                cases = request["cases"]
                op = cases[0]["op"] if cases else ""
                dropped = CASE_KEYS + (ADDED_TO_TABLE_READS if op == "read-table" else ())
                batch = [
                    {"id": c["id"], "op": op, "input": {k: v for k, v in c.items() if k not in dropped}} for c in cases
                ]
                answers = engine.run_batch(op, batch) if batch else []
                reply = {"results": [result(c["id"], a) for c, a in zip(cases, answers)]}
            else:
                break
            out.write(json.dumps(reply) + "\n")
            out.flush()
    finally:
        engine.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
