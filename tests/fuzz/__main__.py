"""`python -m tests.fuzz`: a fuzzing campaign (make fuzz) or one reproducer replayed.

python -m tests.fuzz --inputs 100000 --families all --seed 1
python -m tests.fuzz --replay tests/fuzz/corpus/metadata-file/0123abcd.bin
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import campaign, corpus
from .families import FAMILIES
from .pool import Pool


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m tests.fuzz", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--inputs", type=int, default=100_000, help="inputs per family")
    p.add_argument("--families", default="all", help="comma-separated family names, or all")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per input (soft; hard = 3x + 5)")
    p.add_argument("--memory-mb", type=int, default=1024, help="address space per worker above its start")
    p.add_argument("--no-save", action="store_true", help="do not minimize and save reproducers")
    p.add_argument("--replay", type=Path, nargs="*", help="run reproducer files and print their outcomes")
    args = p.parse_args(argv)
    log = lambda text: print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)  # noqa: E731
    with Pool(args.workers, args.timeout, args.memory_mb) as pool:
        if args.replay is not None:
            for path in args.replay or [p for _, p in corpus.entries()]:
                outcome = pool.run(path.parent.name, *corpus.load(path))
                print(f"{path}: {outcome.kind} {outcome.detail} {outcome.message}")
            return 0
        names = sorted(FAMILIES) if args.families == "all" else args.families.split(",")
        unknown = [n for n in names if n not in FAMILIES]
        if unknown:
            p.error(f"unknown families {unknown}; known: {', '.join(sorted(FAMILIES))}")
        log(f"campaign: seed {args.seed}, {args.inputs} inputs per family, families {', '.join(names)}")
        stats = campaign.run(names, args.inputs, args.seed, pool, save=not args.no_save, progress=log)
    print(campaign.table([s.row() for s in stats.values()]))
    for s in stats.values():
        for (kind, detail), example in s.escapes.items():
            print(
                f"escape {s.family}: {kind} {detail} {example['outcome'].message} -> "
                f"{example.get('path', '(not saved)')}"
            )
    own = [s for s in stats.values() if FAMILIES[s.family].owner == "reference" and s.escapes]
    return 1 if own else 0


if __name__ == "__main__":
    sys.exit(main())
