"""A line-protocol engine (version 2) that misbehaves on purpose, to test the runner:

    python -m tests.judge_breakers.misbehaving_engine reversed        # answers in reverse order
    python -m tests.judge_breakers.misbehaving_engine hang            # hello, then never answers a batch
    python -m tests.judge_breakers.misbehaving_engine crash ID        # exits when a batch holds case ID
    python -m tests.judge_breakers.misbehaving_engine garbage [NAME]  # answers "garbage", as NAME

Cases it answers properly are answered by the reference (`spec_impl`), so everything but the
misbehaviour passes. Use it through `--engine 'cmd:NAME=python -m tests.judge_breakers.misbehaving_engine MODE'`.
"""

from __future__ import annotations

import json
import os
import sys
import time

from spec_impl.errors import SpecError
from spec_impl.ops.registry import OPS, run

INPUT_KEYS = ("id", "op")


def answer(case: dict) -> dict:
    inp = {k: v for k, v in case.items() if k not in INPUT_KEYS}
    try:
        return {"id": case["id"], "status": "ok", "output": run(case["op"], inp, "v3-adopted")}
    except SpecError as e:
        return {"id": case["id"], "status": "rejected", "error": str(e), "rule": e.rule}
    except Exception as e:  # noqa: BLE001 - an engine reports its own failures
        return {"id": case["id"], "status": "error", "error": f"{type(e).__name__}: {e}"}


def main(argv: list[str]) -> int:
    mode = argv[0] if argv else "reversed"
    arg = argv[1] if len(argv) > 1 else None
    name = arg if mode == "garbage" and arg else f"misbehaving-{mode}"
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "start":
            reply = {"engine": name, "version": "0", "protocol": 2, "capabilities": sorted(OPS)}
        elif request["cmd"] == "run":
            cases = request["cases"]
            if mode == "hang":
                time.sleep(3600)
            if mode == "crash" and any(c["id"] == arg for c in cases):
                os._exit(3)
            if mode == "garbage":
                results = [{"id": c["id"], "status": "ok", "output": "garbage"} for c in cases]
            else:
                results = [answer(c) for c in cases]
            if mode == "reversed":
                results.reverse()
            reply = {"results": results}
        else:
            return 0
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
