"""Check a new engine in seconds: does it speak the protocol, and does it answer a few cases right?

    python -m conformance.smoke 'cmd:my-engine=./my-engine --flag'
    python -m conformance.smoke mypkg.adapter:MyEngine --per-op 10
    python -m conformance.smoke iceberg-java

Starts the engine (every protocol message checked against protocol.schema.json), sends it up to
`--per-op` golden cases of each op it declares (its first cases, plus one that expects a
rejection when there is one) and judges every answer. Prints one line per op
and exits 0 when the engine spoke the protocol throughout (wrong answers are listed, not fatal:
the full suite judges them), 1 when it broke the protocol, crashed or timed out, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from conformance.engines import registry
from conformance.engines.base import Engine, EngineFailure, EngineUnavailable
from conformance.engines.protocol import DEFAULT_TIMEOUT
from conformance.judge import CREDITED, judge
from conformance.runner import Runner
from conformance.vectors import load_families


def sample(engine: Engine, per_op: int) -> dict[str, list[dict[str, Any]]]:
    """Up to `per_op` cases of each op the engine declares, one of them a rejection case if any."""
    by_op: dict[str, list[dict[str, Any]]] = defaultdict(list)
    rejections: dict[str, dict[str, Any]] = {}
    for cases in load_families().values():
        for c in cases:
            if engine.revision not in c["revisions"] or engine.unsupported(c["op"], c["input"]) is not None:
                continue
            if "error" in c["expected"]:
                rejections.setdefault(c["op"], c)
            elif len(by_op[c["op"]]) < per_op:
                by_op[c["op"]].append(c)
    for op, c in rejections.items():
        if engine.validates(op):
            by_op[op] = by_op[op][: max(per_op - 1, 0)] + [c]
    return dict(sorted(by_op.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.smoke",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("engine", help="a built-in name, package.module:Class, or 'cmd:NAME=COMMAND ARGS'")
    parser.add_argument("--per-op", type=int, default=5, help="cases per op (default 5)")
    parser.add_argument(
        "--timeout", type=float, default=min(DEFAULT_TIMEOUT, 20.0), help="seconds per reply (default 20)"
    )
    args = parser.parse_args(argv)
    try:
        cls = registry.load(args.engine)
    except ValueError as e:
        parser.error(str(e))
    started = time.monotonic()
    runner = Runner({args.engine: cls}, timeout=args.timeout, validate_protocol=True)
    try:
        slot = next(iter(runner.slots.values()))
        if slot.unavailable or not slot.started:
            print(f"FAILED to start: {slot.unavailable or slot.broken}")
            return 1
        engine = slot.engine
        assert engine is not None
        protocol = getattr(engine, "protocol", None)
        print(
            f"{slot.name} {engine.version}: "
            + (f"protocol {protocol}, " if protocol else "in-process, ")
            + f"{len(engine.capabilities)} ops: {', '.join(sorted(engine.capabilities)) or '(none)'}"
        )
        broken = False
        for op, cases in sample(engine, args.per_op).items():
            answers = runner.ask(slot.name, op, cases)
            verdicts = [judge(c, a, engine.revision, engine.partial_view) for c, a in zip(cases, answers)]
            counts = Counter(v.outcome for v in verdicts)
            failed = [a for a in answers if a.failed]
            broken |= bool(failed)
            print(f"  {op:24} " + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
            for c, v in zip(cases, verdicts):
                if v.outcome not in CREDITED:
                    print(f"    {v.outcome.upper()} {c['id']}: {v.message[:200]}")
            if failed and failed[0].error:
                print(f"    the engine failed: {failed[0].error[:300]}")
        if slot.broken:
            print(f"taken out of service: {slot.broken}")
            broken = True
        status = (
            "FAILED: the engine broke the protocol, crashed or hung" if broken else "ok: the engine speaks the protocol"
        )
        print(f"{status} ({time.monotonic() - started:.1f} s)")
        return 1 if broken else 0
    except (EngineFailure, EngineUnavailable) as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        runner.stop()


if __name__ == "__main__":
    sys.exit(main())
