"""iceberg-writer-harness: generated table histories written by Iceberg Java through Spark (or by
PyIceberg, ClickHouse or DuckDB: --writer pyiceberg|chdb|duckdb), every step checked against the
harness's model, Spark's reads, the reference reader, the validator, partition tuples recomputed
from the data, and the other readers.

    iceberg-writer-harness run --examples 200 --steps 8 --seed 1 --out findings/
    iceberg-writer-harness run --writer pyiceberg --examples 30 --steps 8 --seed 3
    iceberg-writer-harness run --writer duckdb --examples 10 --readers pyiceberg,polars
    iceberg-writer-harness replay findings/finding-1.json
    iceberg-writer-harness capture conformance/writer_harness/coverage/*.json   # keep tables as golden tables
    iceberg-writer-harness run --master 'local-cluster[2,1,1024]' --warehouse /shared/warehouse

Every finding is printed with the rule it is judged against (the operation's meaning, or a must
of the spec with its section and quote), and in `run` with the seed that reproduces it (without
--seed, a seed is drawn and printed). Known findings are listed by level: violations, and apart
from them divergences and allowed behaviour, which are never counted as violations.

Exit codes: 0 when no new finding was seen (known findings are listed, not counted), 1 when one
was (for capture: when a table was not kept), 2 for bad arguments or a scenario file that does not
validate.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from . import scenario
from .harness import Harness, Tally, classify, judged_against, signature
from .runner import OTHER_READERS, Outcome
from .writers import WRITERS, describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="iceberg-writer-harness",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--master", help="Spark master URL (default: local[2], or $ICEBERG_CONFORMANCE_SPARK_MASTER)")
    common.add_argument("--warehouse", type=Path, help="where tables are written (default: a temporary directory)")
    common.add_argument(
        "--readers",
        default=",".join(OTHER_READERS),
        help=f"other readers checked, comma-separated, '' for none (default: {','.join(OTHER_READERS)})",
    )
    common.add_argument("--out", type=Path, help="write each new finding's smallest history here as a scenario file")
    common.add_argument(
        "--writer",
        choices=WRITERS,
        default=None,
        help="who writes the tables: spark (Iceberg Java through Spark, the default), pyiceberg, chdb "
        "(ClickHouse) or duckdb; "
        "replay and capture default to the writer the scenario names",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", parents=[common], help="generate and run histories")
    run.add_argument("--examples", type=int, default=20, help="histories to generate (default 20)")
    run.add_argument("--steps", type=int, default=8, help="steps per history, at most (default 8)")
    run.add_argument("--min-steps", type=int, default=1, help="steps per history, at least (default 1)")
    run.add_argument(
        "--seed", type=int, help="hypothesis seed, for a reproducible run (default: one drawn at random and printed)"
    )
    run.add_argument(
        "--no-shrink",
        action="store_true",
        help="report each finding with the history that showed it, without reducing it step by step",
    )
    run.add_argument(
        "--reduce-budget", type=int, default=40, help="runs spent reducing each distinct finding's history (default 40)"
    )
    replay = sub.add_parser("replay", parents=[common], help="run the history of a scenario file again")
    replay.add_argument("file", type=Path)
    keep = sub.add_parser(
        "capture",
        parents=[common],
        help="run scenarios with a 'golden' section and keep their tables as golden "
        "table sources (then run: iceberg-vectors generate --set tables)",
    )
    keep.add_argument("files", type=Path, nargs="+")
    keep.add_argument(
        "--into", type=Path, default=None, help="where captures go (default: vectors/sources/tables of the checkout)"
    )
    args = parser.parse_args(argv)
    if args.command == "run" and (args.examples < 1 or args.steps < 1 or args.min_steps > args.steps):
        parser.error("--examples and --steps must be at least 1, and --min-steps at most --steps")
    if args.command == "run" and args.seed is None:  # every run reproducible: the seed is always known
        args.seed = random.SystemRandom().randrange(2**31)
    readers = tuple(r for r in args.readers.split(",") if r)
    try:
        if args.command == "replay":
            history = scenario.load(args.file)
        docs = [scenario.load(f) for f in args.files] if args.command == "capture" else []
    except scenario.ScenarioError as e:
        print(f"iceberg-writer-harness: {e}", file=sys.stderr)
        return 2
    if any("golden" not in d for d in docs):
        parser.error("capture takes scenarios with a 'golden' section (id, description, rules)")
    harness = Harness(args.warehouse, master=args.master, readers=readers, writer=args.writer or "spark")
    try:
        if args.command == "capture":
            return _capture(harness, docs, args.into)
        return _replay(harness, history, args.out, args.writer) if args.command == "replay" else _run(harness, args)
    finally:
        harness.close()


def _replay(harness: Harness, history: dict, out: Path | None, writer: str | None = None) -> int:
    writer = writer or harness.writer_of(history)
    history = {k: history[k] for k in ("format", "table", "steps")}
    if writer != "spark":
        history["writer"] = writer
    outcome = harness.run(history, progress=lambda i, step: print(f"  step {i}: {step['op']}", file=sys.stderr))
    new = _report([outcome], harness)
    print(f"\n{outcome.tally or Tally()}")
    if new and out:
        path = scenario.save(
            out / "replayed.json", history, [f.to_json() for f in outcome.findings], writer=describe(writer)
        )
        print(f"wrote {path}")
    return 1 if new else 0


def _capture(harness: Harness, docs: list[dict], into: Path | None) -> int:
    from .capture import SOURCES, CaptureRefused, capture

    refused = 0
    for n, doc in enumerate(docs, 1):
        started = time.monotonic()
        try:
            kept = capture(harness, doc, into or SOURCES)
            print(
                f"[{n}/{len(docs)}] kept {doc['golden']['id']} in {kept} ({time.monotonic() - started:.0f}s)",
                file=sys.stderr,
                flush=True,
            )
        except CaptureRefused as e:
            refused += 1
            print(f"[{n}/{len(docs)}] {e}", file=sys.stderr, flush=True)
    return 1 if refused else 0


def _run(harness: Harness, args: argparse.Namespace) -> int:
    outcomes: list[Outcome] = []
    started = time.monotonic()
    reproduce = _reproduce(args, harness)
    print(f"seed {args.seed}: {reproduce}", file=sys.stderr, flush=True)

    def progress(outcome: Outcome) -> None:
        outcomes.append(outcome)
        t = outcome.tally or Tally()
        new = classify(outcome.findings, harness.known)[0]
        steps = sum(o.steps_run for o in outcomes)
        rate = steps / max((time.monotonic() - started) / 60, 1e-9)
        v = outcome.history["table"]["format-version"]
        print(
            f"[{len(outcomes)}] v{v} {len(outcome.history['steps'])} steps ({outcome.steps_run} run, "
            f"{len(outcome.refused)} refused, {len(outcome.skipped)} skipped, {len(outcome.declined)} reads declined) "
            f"in {outcome.seconds:.1f}s: {t.new} new, {t.known_violations} known violations; "
            f"apart, {t.not_violations} known not violations "
            f"(divergence/allowed); {steps} steps, {rate:.1f} steps/min"
            + (f"\n    first new: {signature(new[0])} (seed {args.seed}, history {len(outcomes)})" if new else ""),
            file=sys.stderr,
            flush=True,
        )

    smallest = harness.search(
        args.examples,
        args.steps,
        args.seed,
        progress,
        min_steps=args.min_steps,
        shrink=not args.no_shrink,
        reduce_budget=args.reduce_budget,
    )
    _report(outcomes, harness, seed=args.seed, reproduce=reproduce)
    elapsed = time.monotonic() - started
    steps = sum(o.steps_run for o in outcomes)
    versions = Counter(o.history["table"]["format-version"] for o in outcomes)
    total = sum((o.tally or Tally() for o in outcomes), Tally())
    print(
        f"\n{len(outcomes)} histories ({dict(sorted(versions.items()))} by format version), "
        f"{steps} steps in {elapsed / 60:.1f} min "
        f"({steps / max(elapsed / 60, 1e-9):.1f} steps/min), seed {args.seed}"
    )
    print(f"findings: {total}")
    if smallest:
        print(
            f"\n{len(smallest)} distinct new finding(s), each with its smallest history "
            f"(seed {args.seed}: {reproduce}):"
        )
        for n, (sig, (history, findings)) in enumerate(sorted(smallest.items()), 1):
            shown = next((f for f in findings if signature(f) == sig), None)
            rule = f"\n     judged against: {_show_rule(judged_against(shown))}" if shown else ""
            print(
                f"  {n}. {sig}{rule}\n     seed {args.seed}; {len(history['steps'])} steps: "
                f"{[s['op'] for s in history['steps']]}"
            )
            if args.out:
                path = scenario.save(
                    args.out / f"finding-{n}.json",
                    history,
                    [f.to_json() for f in findings],
                    writer=describe(harness.writer_of(history)),
                    seed=args.seed,
                )
                print(f"     {path} (iceberg-writer-harness replay {path})")
    return 1 if smallest else 0


def _reproduce(args: argparse.Namespace, harness: Harness) -> str:
    """The command that draws the same histories again."""
    writer = f" --writer {harness.writer_kind}" if harness.writer_kind != "spark" else ""
    return (
        f"iceberg-writer-harness run{writer} --seed {args.seed} --examples {args.examples} "
        f"--min-steps {args.min_steps} --steps {args.steps}"
    )


def _show_rule(rule: dict) -> str:
    if rule.get("kind") == "spec":
        where = rule.get("section") or rule.get("rule-id") or "?"
        return (
            f"spec must, {where}"
            + (f" ({rule['file']})" if rule.get("file") else "")
            + (f": \u201c{rule['quote']}\u201d" if rule.get("quote") else "")
        )
    if rule.get("kind") == "operation":
        return f"meaning of {rule.get('operation')}: {rule.get('meaning')}"
    return str(rule.get("meaning") or rule)


def _report(outcomes: list[Outcome], harness: Harness, seed: int | None = None, reproduce: str | None = None) -> list:
    """Print known findings once each (violations, then apart the divergences and allowed ones) and
    new ones in full, each with the rule it is judged against and, in a run, its seed; return the new ones."""
    all_new, known_seen, first = [], Counter(), {}
    for n, o in enumerate(outcomes, 1):
        new, known = classify(o.findings, harness.known)
        all_new.extend((n, f) for f in new)
        known_seen.update(entry.id for _, entry in known)
        for _, entry in known:
            first.setdefault(entry.id, n)
    refused = Counter(msg[:120] for o in outcomes for _, msg in o.refused)
    if refused:
        print(f"steps the writer ({harness.writer}) refused (validation errors, not findings):")
        for msg, n in refused.most_common(10):
            print(f"  {n}x {msg}")
    declined = Counter(f"{reader}: {why.split(': ', 1)[-1][:120]}" for o in outcomes for _, reader, why in o.declined)
    if declined:
        print("snapshots a reader's adapter declined to read (a stated limit of the adapter, not findings):")
        for msg, n in declined.most_common(10):
            print(f"  {n}x {msg}")
    entries = {k.id: k for k in harness.known}
    at = lambda entry_id: f"; seed {seed}, first in history {first[entry_id]}" if seed is not None else ""  # noqa: E731
    for violation, heading in (
        (True, "known violations (recorded; they do not fail the run)"),
        (
            False,
            "known findings that are not violations (divergence: the spec is silent; "
            "allowed: the spec permits it), counted apart",
        ),
    ):
        seen = [(i, n) for i, n in sorted(known_seen.items()) if entries[i].violation == violation]
        if seen:
            print(heading + ":")
        for entry_id, n in seen:
            entry = entries[entry_id]
            rule = f" judged against: {_show_rule(entry.rule)}." if entry.rule else ""
            print(
                f"known finding {entry_id} ({n}x{at(entry_id)}) [{entry.level}]: {entry.reason}{rule} "
                f"[{entry.spec}] {entry.upstream or ''}"
            )
    for n, f in all_new:
        extra = {"seed": seed, "history": n, "reproduce": reproduce} if seed is not None else {}
        print(
            json.dumps(
                {"signature": signature(f), **f.to_json(), "judged-against": judged_against(f), **extra},
                ensure_ascii=False,
            )
        )
    return [f for _, f in all_new]


if __name__ == "__main__":
    sys.exit(main())
